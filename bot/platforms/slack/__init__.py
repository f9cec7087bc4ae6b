"""Slack: how the bot draws for it (`draw.py`: `SLACK`, its limits and drawings) and how it
talks to it through its SDKs: slash commands read and answered (`slash.py`), the Bolt app
(`app.py`) and posting (`transport.py`). The SDK modules are imported only where Slack is
configured; this package's own module imports nothing, so the drawing and the SDK side
sit in two layers."""
