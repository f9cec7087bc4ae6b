"""The bot's own web server: the report site, `/healthz` and `/metrics` (server.py)."""
