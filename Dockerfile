# vllm-report-bot: `docker run -d --env-file .env -v vllm-report:/data vllm-report-bot`
# (the bot: daily posts and slash commands); one-off: `... vllm-report-bot show yesterday`
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    VLLM_REPORT_DATA_DIR=/data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY config ./config
COPY formatters ./formatters
RUN pip install --no-cache-dir . && useradd --create-home --uid 10001 bot \
    && mkdir -p /data && chown bot /data

USER bot
VOLUME ["/data"]
ENTRYPOINT ["vllm-report"]
CMD ["serve"]
