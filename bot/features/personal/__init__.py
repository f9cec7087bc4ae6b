"""Personal digests: `label:`, `author:`, `path:` and `mine` subscriptions, each person's
digests of a run sent as one DM, `vllm-report digest`, and `/vllm-me` (a chat user's
GitHub login)."""
