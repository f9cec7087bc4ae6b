"""Red on main: vLLM's CI failures on main from its public dashboard, archived on every
read, with suspects GitHub confirms; `vllm-report ci`, `/vllm-ci`, `ci:` subscriptions and
the daily report's part (`outline.CiPart`), "unknown" and why when the dashboard is down."""
