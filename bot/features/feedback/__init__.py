"""Readers' word on the daily post: a 👍 useful / 👎 not useful pair of buttons under each
section's reply (when VLLM_REPORT_FEEDBACK is on), counted once per reader, section and day,
and shown to operators by `vllm-report feedback`."""
