"""The review queue: what waits on whom (reviews, response times, stale soon, first-timers),
for `vllm-report queue`, `/vllm-queue`, the weekly digest and the full report's queue part
(`render.QueuePart`)."""
