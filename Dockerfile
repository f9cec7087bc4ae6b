# vllm-report-bot: `docker build -t vllm-report-bot .`, then
#   docker run -d --env-file .env -v vllm-report:/data -p 127.0.0.1:8080:8080 vllm-report-bot
# (the bot: daily posts, slash commands, the report site, /healthz and /metrics on 8080, here
# published on the host's loopback only: docs/operating.md#docker says how to open it wider);
# one-off commands: `docker run --rm --env-file .env -v vllm-report:/data vllm-report-bot doctor`.
# With PostgreSQL: `docker compose up -d` (compose.yaml).
# Back up the SQLite store while the bot runs: `docker exec CONTAINER vllm-report backup
# /data/backup.sqlite3` (docs/backup-and-upgrade.md; PostgreSQL: pg_dump in the db service).

# -- build: the locked dependencies, then the bot, into a virtual environment ----------------
FROM python:3.11-slim AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1

RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH

# Dependencies in their own layer, pinned and hash-checked: a change to the bot's code does
# not reinstall them, and what runs is exactly what the lock names.
COPY requirements.lock /tmp/requirements.lock
RUN pip install --require-hashes --no-deps -r /tmp/requirements.lock
# The build backend (setuptools, wheel) pinned and hash-checked too, so that installing the
# bot below fetches nothing unpinned (pip's build isolation would fetch the newest).
COPY requirements-build.lock /tmp/requirements-build.lock
RUN pip install --require-hashes --no-deps -r /tmp/requirements-build.lock

COPY pyproject.toml README.md /src/
COPY bot /src/bot
COPY config /src/config
COPY formatters /src/formatters
# The bot, built with that backend; then out of the environment the run stage copies: the
# installers (pip, setuptools, wheel: the image never installs anything) and the packages'
# own test suites (numpy's and matplotlib's, 22 MB). The compiled .pyc files stay: without
# them every start compiles the imports again (about 3 s more).
RUN pip install --no-deps --no-build-isolation /src \
    && pip uninstall --yes setuptools wheel pip \
    && find /opt/venv/lib -type d -name tests -prune -exec rm -rf {} +

# -- run: the virtual environment only, as a user without privileges ---------------------------
FROM python:3.11-slim AS run

ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    VLLM_REPORT_DATA_DIR=/data \
    VLLM_REPORT_HTTP_PORT=8080 \
    VLLM_REPORT_HTTP_HOST=0.0.0.0 \
    MPLCONFIGDIR=/tmp/matplotlib

# A CJK font for the Chinese charts (formatters/charts.py draws them with WenQuanYi Micro
# Hei): without one every Chinese label is an empty box, and matplotlib warns per character.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-wqy-microhei \
    && rm -rf /var/lib/apt/lists/*
RUN useradd --create-home --uid 10001 --user-group bot \
    && mkdir -p /data \
    && chown bot:bot /data
COPY --from=build /opt/venv /opt/venv

USER bot
WORKDIR /home/bot
VOLUME ["/data"]
# The report site, /healthz and /metrics (VLLM_REPORT_HTTP_PORT); Slack's HTTP mode
# (SLACK_PORT, 3000) and Discord's interactions endpoint (3001) when those are used.
EXPOSE 8080
HEALTHCHECK --interval=60s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; port = os.environ.get('VLLM_REPORT_HTTP_PORT', '8080'); sys.exit(0 if urllib.request.urlopen(f'http://127.0.0.1:{port}/healthz', timeout=4).status == 200 else 1)"]
ENTRYPOINT ["vllm-report"]
CMD ["serve"]
