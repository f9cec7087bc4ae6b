"""vllm-report-bot: collect a repository's daily activity, store it, report it."""
