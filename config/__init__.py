"""Settings of vllm-report-bot: one pydantic-settings object, loaded once at start-up."""
