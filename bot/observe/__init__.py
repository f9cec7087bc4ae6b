"""What the running bot tells: log lines (text or JSON, secrets kept out), Prometheus metrics,
and a meter of GitHub requests and the rate limit left.

Infrastructure with no import of the bot's other parts: the services record into it, the
composition root sets it up, the web adapter serves its metrics.
"""
