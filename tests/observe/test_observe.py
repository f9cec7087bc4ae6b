"""The pieces of what the bot tells, one by one: the secret filter, JSON lines, the GitHub
meter reading PyGithub's own record, and the health rule."""

from __future__ import annotations

import io
import json
import logging
from datetime import UTC, datetime, timedelta

from bot.observe.github_meter import REQUESTER_LOGGER, GitHubMeter
from bot.observe.logs import event, setup_logging
from bot.service.health import RunHealth

CANARY = "ghp_CANARY0123456789abcdef"


def test_no_secret_reaches_a_log_line_even_in_a_traceback() -> None:
    stream = io.StringIO()
    handler = setup_logging(2, "text", [CANARY], stream=stream)
    log = logging.getLogger("bot.test")
    try:
        log.warning("token %s refused", CANARY)
        try:
            raise RuntimeError(f"header Authorization: token {CANARY}")
        except RuntimeError:
            log.exception("failed")
    finally:
        logging.getLogger().removeHandler(handler)
    text = stream.getvalue()
    assert CANARY not in text
    assert "token *** refused" in text and "Authorization: token ***" in text


def test_json_lines_carry_the_event_and_its_fields() -> None:
    stream = io.StringIO()
    handler = setup_logging(0, "json", [CANARY], floor=logging.INFO, stream=stream)
    try:
        event(logging.getLogger("bot.test"), "post", "posted %s", "2026-03-25", sent=5, who=CANARY)
    finally:
        logging.getLogger().removeHandler(handler)
    line = json.loads(stream.getvalue())
    assert line["event"] == "post" and line["message"] == "posted 2026-03-25"
    assert line["sent"] == 5 and line["who"] == "***" and line["level"] == "info"


def test_a_librarys_warning_is_one_json_line_not_raw_text() -> None:
    """Under `serve --log-format json` a library's warnings.warn printed raw text between
    the JSON lines (a log shipper reads garbage); now it is a line of the log, once."""
    import warnings

    stream = io.StringIO()
    logging.captureWarnings(False)  # as in a fresh process: pytest's recorder took the hook
    handler = setup_logging(0, "json", floor=logging.INFO, stream=stream)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("default")
            for _ in range(3):  # one place, said once
                warnings.warn("Glyph 21512 missing from font(s) DejaVu Sans.", stacklevel=1)
    finally:
        logging.getLogger().removeHandler(handler)
        logging.captureWarnings(False)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert len(lines) == 1 and "Glyph 21512 missing" in lines[0]["message"]
    assert lines[0]["level"] == "warning"


def _answer(logger: logging.Logger, status: int, headers: dict[str, str]) -> None:
    """PyGithub's own per-request DEBUG record (Requester.__log), as it builds it."""
    logger.debug(
        "%s %s://%s%s %s %s ==> %i %s %s",
        "GET", "https", "api.github.com", "/rate_limit", {}, None, status, headers, "{}",
    )  # fmt: skip


def test_the_meter_counts_answers_and_keeps_the_rate_limit_per_resource() -> None:
    meter = GitHubMeter().install()
    logger = logging.getLogger(REQUESTER_LOGGER)
    seen: list[int] = []
    meter.listeners.append(lambda found, status: seen.append(status))
    try:
        _answer(logger, 200, {"x-ratelimit-remaining": "4990", "x-ratelimit-limit": "5000"})
        _answer(
            logger,
            200,
            {
                "X-RateLimit-Remaining": "29",
                "X-RateLimit-Limit": "30",
                "X-RateLimit-Resource": "search",
            },
        )
        _answer(logger, 502, {})
    finally:
        logger.removeFilter(meter)
    assert meter.requests == 3 and seen == [200, 200, 502]
    assert meter.remaining() == 4990 and meter.remaining("search") == 29


def test_health_before_a_run_after_it_and_on_a_follower() -> None:
    started = datetime(2026, 3, 26, 1, tzinfo=UTC)
    due = started + timedelta(hours=3)
    leading = [True]
    health = RunHealth(started, lambda: due, leading=lambda: leading[0])
    assert health.check(started)[0] is True  # not yet due
    assert health.check(due + timedelta(minutes=59))[0] is True  # running, within the grace
    ok, facts = health.check(due + timedelta(hours=2))
    assert ok is False and "has not finished" in facts["reason"]
    leading[0] = False
    assert health.check(due + timedelta(hours=2))[0] is True  # the leader runs the job
    health.record("2026-03-25", False, "GitHub is down", due)
    ok, facts = health.check(due)
    assert ok is False and facts["reason"] == "GitHub is down"
    health.record("2026-03-26", True, None, due + timedelta(days=1))
    assert health.check(due + timedelta(days=1)) == (
        True,
        {"last_run": "2026-03-26", "last_run_at": (due + timedelta(days=1)).isoformat()},
    )


def test_the_process_meter_counts_again_after_another_meter_took_its_place() -> None:
    """A meter installed and removed by someone else (a test, a library) must not leave the
    daemon's metrics and the backfill's request counts at zero for the rest of the process."""
    from bot.observe.github_meter import github_meter

    logger = logging.getLogger(REQUESTER_LOGGER)
    before = github_meter().requests
    other = GitHubMeter().install()
    logger.removeFilter(other)
    _answer(logger, 200, {})  # nobody counting: the process meter was replaced
    assert github_meter().requests == before
    _answer(logger, 200, {})
    assert github_meter().requests == before + 1


def test_a_command_without_minus_vv_hides_github_debug_lines_an_earlier_one_showed() -> None:
    from bot.observe.github_meter import github_meter

    logger = logging.getLogger(REQUESTER_LOGGER)
    record = logger.makeRecord(REQUESTER_LOGGER, logging.DEBUG, __file__, 1, "x", None, None)
    assert github_meter(show_debug=True).filter(record)
    assert not github_meter(show_debug=False).filter(record)
    assert not github_meter().filter(record)  # the daemon's start-up keeps what was chosen
