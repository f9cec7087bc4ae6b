"""Features: each one folder holding its own model, collection, store, analysis, drawing,
slash commands and command line, built on the core and never on one another.

A feature reaches the report through a `ReportPart` (bot/model/parts.py) that draws its own
section, headline line, chat reply and JSON; it reaches chat through the command table and
the platforms (bot/platforms/). `lint-imports` holds the two rules: features do not import
each other, and the core does not import features (the exceptions still owed are listed,
each with its reason, in pyproject.toml).
"""
