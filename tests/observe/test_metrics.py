"""`/metrics` (bot/observe/metrics.py) carries why model prose was missing, by reason; the
operator's log says it in a line; the report readers get says nothing of it (a server's
answer is the operator's business)."""

from __future__ import annotations

import asyncio
import io
import logging
import re
import socket
from datetime import timedelta
from pathlib import Path

import aiohttp
import pytest

from bot.app import open_bot, serve
from bot.model.rules import load_rules
from bot.observe.logs import setup_logging
from config.settings import load_settings
from tests.anchor_data import anchor_days
from tests.fakes.github_api import FakeGitHub
from tests.fakes.openai_api import FakeOpenAI, Scripted

DAY = anchor_days()[2]  # 2026-03-25
NOW = DAY.end + timedelta(hours=1)  # the day is due: the catch-up makes its report
FAILURE = 'vllm_report_prose_failures_total{reason="no_model"}'


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_model_that_fails_is_counted_by_reason_and_logged_never_shown(
    fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch, clean_env: Path
) -> None:
    """A wrong model name (404) while `serve` catches up on a day: the day is archived
    without model text, `/metrics` counts each part the model gave nothing for under
    `no_model`, the log line says "no such model (404)", and the report's files say none
    of it."""
    port = free_port()
    for name, value in {
        "LLM_MODEL": "no-such-model",
        "LLM_RETRIES": "0",
        "VLLM_REPORT_CUTOFF": DAY.cutoff,
        "VLLM_REPORT_CATCH_UP_DAYS": "1",
        "VLLM_REPORT_HTTP_PORT": str(port),
        "VLLM_REPORT_PLUGINS": "none",
    }.items():
        monkeypatch.setenv(name, value)
    refusal = Scripted(raw_body='{"error": {"message": "model not found"}}', status=404)
    with FakeOpenAI(lambda request: refusal) as llm:
        monkeypatch.setenv("LLM_BASE_URL", llm.url)
        settings = load_settings()
        bot = open_bot(settings, load_rules(), clock=lambda: NOW)
        stream = io.StringIO()
        handler = setup_logging(0, "text", settings.secrets(), floor=logging.INFO, stream=stream)

        async def scenario() -> str:
            url = f"http://127.0.0.1:{port}/metrics"
            while "started:" not in stream.getvalue():  # /metrics listens before it
                await asyncio.sleep(0.05)
            while "archived 2026-03-25" not in stream.getvalue():  # the day's run is over
                await asyncio.sleep(0.05)
            async with aiohttp.ClientSession() as http, http.get(url) as response:
                return await response.text()

        async def run() -> str:
            stop = asyncio.Event()
            server = asyncio.create_task(serve(bot, stop))
            try:
                return await asyncio.wait_for(scenario(), 120)
            finally:
                stop.set()
                await asyncio.wait_for(server, 60)

        try:
            metrics = asyncio.run(run())
        finally:
            logging.getLogger().removeHandler(handler)
            bot.close()
        asked = len(llm.requests)
    log = stream.getvalue()
    counted = re.search(re.escape(FAILURE) + r" (\d+)\.0$", metrics, re.M)
    assert counted is not None and int(counted.group(1)) == asked >= 1
    assert "model prose for day #0 skipped: the server has no such model (404)" in log
    files = list(settings.report_files_dir.rglob("*2026-03-25*"))
    assert files, "the day was not archived"
    for path in files:
        text = path.read_text(encoding="utf-8")
        for diagnostic in ("no such model", "(404)", "the server", "model text incomplete"):
            assert diagnostic not in text, (path, diagnostic)
        assert "no-such-model" not in text  # not even the model's name: it wrote nothing
