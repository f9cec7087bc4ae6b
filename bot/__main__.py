"""`python -m bot` runs the command line (the same as `vllm-report`)."""

from bot.cli import run

run()
