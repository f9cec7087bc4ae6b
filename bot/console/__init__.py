"""What the terminal shows for the interactive commands (`demo`, `doctor`, `backfill`): Rich
renderings of what the services return. Between the command line and the composition root:
it may use everything below it and is imported only by `bot.cli`, when such a command runs.
"""
