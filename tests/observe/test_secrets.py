"""No secret in anything the bot tells: canary secrets, set with whitespace around them (what
`echo token > file` and many secret stores give), driven through every failure a person
sees — the command line's sentence (`show`, `post`, `check`, `backfill`, `doctor`), `serve`'s
log lines (text and JSON) and its public `/healthz` and `/metrics`.

Each service refuses as the real one does (GitHub's 401, Slack's `invalid_auth`, Discord's
401, the model's 401), and also at its worst, quoting in its error what came in the
Authorization header (GitHub's message, a gateway's answer to Slack's client, Discord's 400,
"Incorrect API key provided: …"): what keeps the secret out is the masking
(bot.model.errors), not a service's discretion. The database is one where nothing listens,
or a database PostgreSQL does not have. Each path must still end in one sentence with its
exit status (1 a service failed, 2 a setting is wrong), never a traceback, and every secret
must reach its service stripped. A leak shows as "CANARY", in any form.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

import aiohttp
import pytest
from sqlalchemy import make_url

from bot.app import open_bot, serve
from bot.cli import main
from bot.model.rules import load_rules
from bot.observe.logs import setup_logging
from config.settings import load_settings
from tests.anchor_data import REPO, anchor_days, anchor_items, background_items
from tests.conftest import SERVER_URL, postgres_available
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.github_api import FakeGitHub
from tests.fakes.openai_api import FakeOpenAI
from tests.fakes.server import FakeServer
from tests.fakes.slack_api import FakeSlack

DAY = anchor_days()[2]  # 2026-03-25, cutoff 11:43
MARK = "CANARY"  # in every secret and nowhere else: a leak in any form shows it
CANARIES = {
    "GITHUB_TOKEN": " ghp_CANARYgithub0123456789abcdef\n",
    "SLACK_BOT_TOKEN": "\txoxb-CANARY-slack-0123456789\r\n",
    "SLACK_APP_TOKEN": "  xapp-CANARY-app-0123456789 \n",
    "SLACK_SIGNING_SECRET": "\nCANARYsigning0123456789abcdef\n",
    "DISCORD_BOT_TOKEN": " CANARY.discord.0123456789\t\n",
    "LLM_API_KEY": "\tsk-CANARY-llm-0123456789\r\n",
}
# The database password: with characters a URL must encode, so the URL's form, the decoded
# one and a re-encoded one all differ; the whole URL set with a line break after it.
DB_PASSWORD = "CANARY/db+pass=0123"
DB_IN_URL = quote(DB_PASSWORD, safe="")


def forms(secret: str) -> set[str]:
    """The forms a leak could take: as set, stripped, escaped, URL-encoded."""
    bare = secret.strip()
    return {secret, bare, repr(bare)[1:-1], quote(bare, safe=""), quote_plus(bare), MARK}


FORBIDDEN = {form for secret in [*CANARIES.values(), DB_PASSWORD] for form in forms(secret)}


def assert_clean(*texts: str) -> None:
    for text in texts:
        leaked = sorted(form for form in FORBIDDEN if form in text)
        assert not leaked, f"{leaked} in:\n{text}"


def one_sentence(err: str) -> str:
    """The one line saying what failed; no traceback around it."""
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("vllm-report:")]
    assert len(lines) == 1, err
    return lines[0]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# -- a service that refuses the secret and echoes it ------------------------------------------

# (the request's path, its Authorization header) → the answer's status, type and body
Answer = Callable[[str, str], tuple[int, str, str]]


class Echoing(FakeServer):
    """Refuses every request; its answer (made by `answer`) quotes the Authorization header."""

    def __init__(self, answer: Answer) -> None:
        super().__init__()
        self.handler = _Echo
        self.answer = answer
        self.seen: list[str] = []  # the Authorization headers received


class _Echo(BaseHTTPRequestHandler):
    fake: Echoing
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        auth = self.headers.get("Authorization") or ""
        self.fake.seen.append(auth)
        status, kind, body = self.fake.answer(self.path, auth)
        payload = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_POST = do_GET


JSON = "application/json"  # exactly: discord.py reads nothing else as JSON


def github_refusing(path: str, auth: str) -> tuple[int, str, str]:
    return 401, JSON, json.dumps({"message": f"Bad credentials: {auth}"})


def github_echo(path: str, auth: str) -> tuple[int, str, str]:
    return 400, JSON, json.dumps({"message": f"Malformed Authorization header {auth!r}"})


def github_html(path: str, auth: str) -> tuple[int, str, str]:
    return 400, "text/html", f"<html><body><h1>400</h1>header refused: {auth!r}</body></html>"


def github_html_ok(path: str, auth: str) -> tuple[int, str, str]:
    return 200, "text/html", f"<html><body>Sign in again, {auth}</body></html>"


def slack_refusing(path: str, auth: str) -> tuple[int, str, str]:
    return 200, JSON, json.dumps({"ok": False, "error": "invalid_auth", "token": auth})


def discord_refusing(path: str, auth: str) -> tuple[int, str, str]:
    return 401, JSON, json.dumps({"message": f"401: Unauthorized ({auth})", "code": 0})


def model_refusing(path: str, auth: str) -> tuple[int, str, str]:
    error = {"message": f"Incorrect API key provided: {auth}", "code": "invalid_api_key"}
    return 401, JSON, json.dumps({"error": error})


def all_echoing(path: str, auth: str) -> tuple[int, str, str]:
    """Slack, Discord and the model at one address, each refusing with the secret in its
    words: Slack's answer names no error code (so the whole of it is quoted), Discord lets
    the bot sign in and then refuses each message, the model refuses the key."""
    if path.startswith("/v1/"):
        return model_refusing(path, auth)
    if path.startswith("/api/v10/users/@me"):
        return 200, JSON, json.dumps({"id": "900000000000000001", "username": "bot"})
    if path.startswith("/api/v10/"):
        body = {"message": f"Invalid Form Body: {auth} is not allowed here", "code": 50035}
        return 400, JSON, json.dumps(body)
    return 200, JSON, json.dumps({"ok": False, "detail": f"gateway refused {auth}"})


# -- the environment: every secret set, with whitespace around it -----------------------------


@dataclass
class Services:
    github: FakeGitHub
    slack: FakeSlack
    discord: FakeDiscord
    model: FakeOpenAI
    echo: Echoing  # refuses whatever it is asked (see `refusing`), echoing the secret
    monkeypatch: pytest.MonkeyPatch
    report: Path  # a report text for `check`

    def use(self, name: str, url: str) -> None:
        self.monkeypatch.setenv(name, url)

    def refusing(self, answer: Answer, *names: str) -> None:
        """Point the settings `names` at the echoing service, answering with `answer`."""
        self.echo.answer, self.echo.seen = answer, []
        for name in names:
            self.use(
                name,
                {
                    "GITHUB_API_URL": self.echo.url,
                    "SLACK_API_URL": self.echo.url + "/api/",
                    "DISCORD_API_URL": self.echo.url + "/api/v10",
                    "LLM_BASE_URL": self.echo.url + "/v1",
                }[name],
            )


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[FakeGitHub, FakeSlack, FakeDiscord, FakeOpenAI, Echoing]]:
    """The fakes, started once for the module (each test has its own store and settings):
    GitHub with the anchor days, Slack, Discord and a model that accept any secret."""
    first = min(day.start for day in anchor_days())
    items = anchor_items() + background_items(300, before=first)
    with (
        FakeGitHub(REPO, items) as github,
        FakeSlack() as slack,
        FakeDiscord() as discord,
        FakeOpenAI(lambda body: "ok") as model,
        Echoing(github_refusing) as echo,
    ):
        yield github, slack, discord, model, echo


@pytest.fixture
def services(
    servers: tuple[FakeGitHub, FakeSlack, FakeDiscord, FakeOpenAI, Echoing],
    monkeypatch: pytest.MonkeyPatch,
    clean_env: Path,
) -> Services:
    """Every secret setting holds a canary with whitespace around it; every service
    accepts it until a test swaps in the echoing one (`Services.refusing`)."""
    github, slack, discord, model, echo = servers
    for name, value in {
        **CANARIES,
        "GITHUB_API_URL": github.url,
        "SLACK_API_URL": slack.api_url,
        "SLACK_CHANNELS": "C1",
        "VLLM_REPORT_SLACK_POST_INTERVAL": "0",
        "DISCORD_API_URL": discord.api_url,
        "DISCORD_CHANNELS": "111",
        "LLM_BASE_URL": model.url,
        "LLM_MODEL": "fake-model",
        "LLM_RETRIES": "0",
        "VLLM_REPORT_GITHUB_RETRIES": "0",
        "VLLM_REPORT_CUTOFF": DAY.cutoff,
        "VLLM_REPORT_PLUGINS": "none",
    }.items():
        monkeypatch.setenv(name, value)
    report = clean_env / "report.md"
    report.write_text("#38050 was merged.\n", encoding="utf-8")
    return Services(github, slack, discord, model, echo, monkeypatch, report)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


COMMANDS = {
    "show": lambda s: ["show", DAY.label],
    "post": lambda s: ["post", DAY.label],
    "check": lambda s: ["check", str(s.report), "--day", DAY.label],
    "backfill": lambda s: ["backfill", f"{DAY.label}..{DAY.label}"],
    "doctor": lambda s: ["doctor"],
}
SERVE = {**COMMANDS, "serve": lambda s: ["serve"]}  # ends at once when the store is down


def told(command: str, code: int, out: str, err: str) -> str:
    """What the command said went wrong: doctor's ✗ lines, else the one sentence."""
    assert "Traceback" not in out + err
    if command == "doctor":
        failed = [line for line in out.splitlines() if line.startswith("✗")]
        assert failed and out.splitlines()[-1].endswith("fix the lines marked ✗"), out
        return "\n".join(failed)
    if command == "backfill":  # the day that stopped it, then what it cost
        return err + out
    return one_sentence(err)


# -- the command line: GitHub refusing, unreachable, answering what is not JSON ---------------


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(
    ("github", "says"),
    [
        (github_refusing, "GitHub refused the token"),
        (None, "cannot reach GitHub"),
        (github_echo, "GitHub answered 400: Malformed Authorization header 'token ***'"),
        (github_html, "GitHub answered 400"),
        (github_html_ok, "GitHub"),
    ],
    ids=["refusing", "unreachable", "echo-400", "html-400", "html-200"],
)
def test_github_failures_tell_no_secret(
    command: str,
    github: Answer | None,
    says: str,
    services: Services,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    if github is None:
        services.use("GITHUB_API_URL", f"http://127.0.0.1:{free_port()}")
    else:
        services.refusing(github, "GITHUB_API_URL")
    code, out, err = run(capsys, *COMMANDS[command](services))
    if github is not None:  # the token went out stripped
        assert set(services.echo.seen) == {"token " + CANARIES["GITHUB_TOKEN"].strip()}
    assert code == 1, out + err
    assert says in told(command, code, out, err)
    assert_clean(out, err, caplog.text)


# -- the command line: Slack, Discord and the model refusing their secret ---------------------


@pytest.mark.parametrize(
    ("platform", "refusing", "said", "header"),
    [
        ("SLACK_API_URL", slack_refusing, "invalid_auth: the token is not valid", "Bearer"),
        ("DISCORD_API_URL", discord_refusing, "Discord refused the token", "Bot"),
        ("LLM_BASE_URL", model_refusing, "refused the key (401): check LLM_API_KEY", "Bearer"),
    ],
    ids=["slack", "discord", "model"],
)
def test_doctor_names_a_refused_secret_never_shows_it(
    platform: str,
    refusing: Answer,
    said: str,
    header: str,
    services: Services,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    services.refusing(refusing, platform)
    code, out, err = run(capsys, "doctor")
    assert code == 1 and said in told("doctor", code, out, err)
    secret = {"SLACK_API_URL": "SLACK_BOT_TOKEN", "DISCORD_API_URL": "DISCORD_BOT_TOKEN"}
    bare = CANARIES[secret.get(platform, "LLM_API_KEY")].strip()
    assert set(services.echo.seen) == {f"{header} {bare}"}  # the secret went out stripped
    assert_clean(out, err, caplog.text)


def test_post_to_services_that_echo_the_secret_tells_none(
    services: Services, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """Slack and Discord refuse the post quoting the token, the model refuses the key: one
    sentence per destination (exit 1), the report made without model prose, no secret."""
    caplog.set_level(logging.DEBUG)
    services.refusing(all_echoing, "SLACK_API_URL", "DISCORD_API_URL", "LLM_BASE_URL")
    code, out, err = run(capsys, "post", DAY.label)
    assert code == 1 and "Traceback" not in out + err
    failed = [line for line in err.splitlines() if line.startswith("vllm-report:")]
    assert len(failed) == 2, err
    assert "slack:C1" in failed[0] and "discord:111" in failed[1]
    # The echoes were there, masked (Slack's error, quoted whole, spans two lines).
    assert "Bot ***" in failed[1] and "gateway refused Bearer ***" in err
    assert_clean(out, err, caplog.text)


# -- the database password --------------------------------------------------------------------


def db_url(port: int, database: str) -> str:
    host = make_url(SERVER_URL).host or "127.0.0.1"
    return f" postgresql+psycopg://canary:{DB_IN_URL}@{host}:{port}/{database}\n"


@pytest.mark.parametrize("command", list(SERVE))
def test_a_database_that_refuses_tells_no_password(
    command: str,
    services: Services,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A port where nothing listens: one sentence naming the store, the password masked."""
    services.use("DATABASE_URL", db_url(free_port(), "nothing"))
    caplog.set_level(logging.DEBUG)
    code, out, err = run(capsys, *SERVE[command](services))
    assert code == 1, out + err
    assert "***" in told(command, code, out, err)
    assert_clean(out, err, caplog.text)


@pytest.mark.postgres
def test_a_database_that_does_not_exist_tells_no_password(
    services: Services, capsys: pytest.CaptureFixture[str]
) -> None:
    """PostgreSQL itself answers (trust auth: the password is ignored; no such role or
    database): its own words are passed on, the password masked."""
    if not postgres_available():
        pytest.skip(f"PostgreSQL is not reachable at {SERVER_URL}")
    port = make_url(SERVER_URL).port or 5432
    services.use("DATABASE_URL", db_url(port, "vllm_report_no_such_database"))
    for command in ("show", "doctor", "serve"):
        code, out, err = run(capsys, *SERVE[command](services))
        assert code == 1, out + err
        assert "does not exist" in told(command, code, out, err)
        assert_clean(out, err)


# -- settings: whitespace around a secret is stripped, inside it is refused -------------------


INSIDE = {"space": " ", "newline": "\n", "escape": "\x1b", "curly-quote": "\u201d"}


@pytest.mark.parametrize(
    ("name", "inside"),
    [
        pytest.param(name, char, id=f"{name}-{what}")
        for name in [*CANARIES, "DATABASE_URL"]
        for what, char in INSIDE.items()
        if (name, what) != ("DATABASE_URL", "curly-quote")  # a password may be any UTF-8
    ],
)
def test_a_secret_with_whitespace_or_a_stray_character_inside_is_refused_unshown(
    name: str, inside: str, services: Services, capsys: pytest.CaptureFixture[str]
) -> None:
    value = CANARIES.get(name) or db_url(1, "db")
    bare = value.strip()
    spoilt = f" {bare[:-6]}{inside}{bare[-6:]}\n"
    services.use(name, spoilt)
    code, out, err = run(capsys, "show", DAY.label)
    assert code == 2 and out == ""
    assert one_sentence(err).startswith(f"vllm-report: invalid setting — {name}: holds")
    code, out, err = run(capsys, "doctor")
    assert code == 2
    assert re.search(rf"^✗ setting {name}\s+holds", out, re.M), out
    assert_clean(out, err)


@pytest.mark.parametrize("name", [*CANARIES, "DATABASE_URL"])
def test_a_secret_of_whitespace_alone_is_not_set(
    name: str, services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(name, " \r\n\t")
    settings = load_settings()
    field = name.lower()
    assert getattr(settings, field) is None
    if name == "DATABASE_URL":
        assert settings.store_url().startswith("sqlite:///")


def test_every_secret_is_read_stripped(services: Services) -> None:
    settings = load_settings()
    for name, value in CANARIES.items():
        assert getattr(settings, name.lower()).get_secret_value() == value.strip()


# -- serve: log lines, /healthz and /metrics after a failed run -------------------------------

NOW = DAY.end + timedelta(hours=1)  # 2026-03-25 is due


async def _get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.text()


def serve_until_failed(fmt: str) -> tuple[str, dict[str, tuple[int, str]]]:
    """`serve` in this process (set up as `vllm-report serve` sets it up) until its catch-up
    run has failed and the retry is scheduled (the outcome is recorded by then); then
    /healthz and /metrics. The log as the operator's terminal shows it."""
    settings = load_settings()
    bot = open_bot(settings, load_rules(), clock=lambda: NOW)
    stream = io.StringIO()
    handler = setup_logging(0, fmt, settings.secrets(), floor=logging.INFO, stream=stream)
    base = f"http://127.0.0.1:{settings.http_port}"
    seen: dict[str, tuple[int, str]] = {}

    async def scenario() -> None:
        while "the next try in" not in stream.getvalue():  # the line waited for, no sleep
            await asyncio.sleep(0.05)
        seen["healthz"] = await _get(base + "/healthz")
        seen["metrics"] = await _get(base + "/metrics")

    async def run_it() -> None:
        stop = asyncio.Event()
        server = asyncio.create_task(serve(bot, stop))
        try:
            await asyncio.wait_for(scenario(), 120)
        finally:
            stop.set()
            await asyncio.wait_for(server, 60)

    try:
        asyncio.run(run_it())
    finally:
        logging.getLogger().removeHandler(handler)
        bot.close()
    return stream.getvalue(), seen


@pytest.fixture
def serving(services: Services) -> Services:
    """`serve` with commands over HTTP (no Socket Mode, no gateway: nothing outside the
    fakes), the catch-up of one day, the HTTP port for /healthz and /metrics."""
    services.monkeypatch.delenv("SLACK_APP_TOKEN")  # Socket Mode: no websocket in the fakes
    for name, value in {
        "DISCORD_PUBLIC_KEY": "ab" * 32,
        "DISCORD_INTERACTIONS_PORT": str(free_port()),
        "SLACK_PORT": str(free_port()),
        "VLLM_REPORT_HTTP_PORT": str(free_port()),
        "VLLM_REPORT_CATCH_UP_DAYS": "1",
        "VLLM_REPORT_SITE_URL": "https://reports.example.org/vllm",
    }.items():
        services.use(name, value)
    return services


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_serve_tells_a_failed_run_without_a_secret(
    fmt: str, serving: Services, caplog: pytest.LogCaptureFixture
) -> None:
    """GitHub (or a proxy before it) echoes the token in its error: the WARNING line,
    /healthz's reason and /metrics say what failed, none shows the token."""
    caplog.set_level(logging.INFO)
    serving.refusing(github_echo, "GITHUB_API_URL")
    log, seen = serve_until_failed(fmt)
    assert "Traceback" not in log and "traceback" not in log
    failed = [line for line in log.splitlines() if "run failed" in line]
    assert len(failed) == 1 and "GitHub answered 400" in failed[0], log
    if fmt == "json":
        record = json.loads(failed[0])
        assert record["event"] == "run-failed" and record["level"] == "warning"
    status, body = seen["healthz"]
    assert status == 503 and "GitHub answered 400" in json.loads(body)["reason"]
    status, metrics = seen["metrics"]
    assert status == 200 and re.search(r"^vllm_report_last_run_failed 1\.0$", metrics, re.M)
    assert "***" in log and "***" in body  # the echo was there, and masked
    assert_clean(log, body, metrics, caplog.text)


def test_serve_tells_a_refused_post_without_a_secret(
    serving: Services, caplog: pytest.LogCaptureFixture
) -> None:
    """Slack and Discord refuse the post quoting the token: the run is failing (503, both
    named), and neither the log lines nor /healthz nor /metrics show the token."""
    caplog.set_level(logging.INFO)
    serving.refusing(all_echoing, "SLACK_API_URL", "DISCORD_API_URL", "LLM_BASE_URL")
    log, seen = serve_until_failed("json")
    status, body = seen["healthz"]
    reason = json.loads(body)["reason"]
    assert status == 503 and "not posted everywhere" in reason
    assert "slack:C1" in reason and "discord:111" in reason and "***" in reason
    failed = [json.loads(line) for line in log.splitlines() if "post-failed" in line]
    assert len(failed) == 2 and all("***" in line["message"] for line in failed)
    assert "Traceback" not in log and "traceback" not in log
    assert_clean(log, body, seen["metrics"][1], caplog.text)


# -- the masking itself -----------------------------------------------------------------------


def test_masking_hides_every_form_and_a_cut_short_secret() -> None:
    from bot.model.errors import ServiceError, hide_secrets, masked

    secret = "ghp_CANARY0123456789abcdef/+="
    hide_secrets([secret])
    for shown in (
        secret,
        repr(secret + "\n"),
        json.dumps(secret),
        quote(secret, safe=""),
        quote_plus(secret),
        secret[:16],  # a message cut short (at 200 characters) keeps the secret's head
    ):
        assert MARK not in masked(f"header value {shown}: refused"), shown
    assert str(ServiceError(f"Invalid header value b'token {secret}\\n'")).count("***") == 1
    hide_secrets(["postgres-password-0123456789"])  # a word a password may begin with
    for text in ("postgresql+psycopg://bot:***@db/reports", "the postgres-pass word"):
        assert masked(text) == text


def test_a_bugs_traceback_is_masked_too(capsys: pytest.CaptureFixture[str]) -> None:
    """An unexpected exception still shows its traceback (to be reported), masked: the hook
    `vllm-report` installs for what no sentence covers."""
    from bot.cli import _masked_traceback
    from bot.model.errors import hide_secrets

    secret = CANARIES["GITHUB_TOKEN"]
    hide_secrets([secret.strip()])
    try:
        raise ValueError(f"Invalid header value b'token {secret}'")
    except ValueError as exc:
        _masked_traceback(type(exc), exc, exc.__traceback__)
    err = capsys.readouterr().err
    assert "Traceback" in err
    assert re.search(r"ValueError: Invalid header value b'token\s+\*\*\*", err), err
    assert_clean(err)
