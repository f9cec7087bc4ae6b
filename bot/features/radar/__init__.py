"""The breakage radar: which upstream vLLM changes broke which hardware plugin, what the
plugins fixed for it, what is still broken, and how far each plugin's pin lags.

Read by `vllm-report radar`, `/vllm-radar`, the daily report's Plugins part
(`outline.RadarPart`), `radar:<plugin>` subscriptions and the site's plugin pages.
"""
