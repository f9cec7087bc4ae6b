"""Probe the bot with bad input and count how it answers. Not part of CI (about a minute).

    python benchmarks/probe.py [--fuzz 10000] [--seed 1] [--verbose]

Every probe runs the real CLI (`python -m bot`, a process of its own) with one thing wrong:
a setting (a value out of range, a name misspelt in `.env`, a TOML that is a folder), a URL
(nothing listening, a page that is not GitHub's API, a scheme we do not speak), a store (a
data folder that is a file, a database file that is not one, one written by a newer
version, a PostgreSQL database not created), or a signal (Ctrl-C during `post`, SIGTERM to
`serve`). Every process carries canary secrets in every secret setting. Then
`--fuzz` signed Discord interactions of random wrong shapes go through the interactions
endpoint in process (tests/platforms/test_discord_fuzz.py's mutations, at random).

Prints a row per probe and the totals the issue asks for: probes, answered in one
sentence (exit status 1 or 2 and one `vllm-report:` line), tracebacks (goal 0), secrets
seen in any output (goal 0).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CANARIES = {
    "GITHUB_TOKEN": "ghp_canaryGITHUB0000000000000000000000",
    "SLACK_BOT_TOKEN": "xoxb-canary-SLACKBOT-000000",
    "SLACK_SIGNING_SECRET": "canarySIGNINGsecret000000",
    "DISCORD_BOT_TOKEN": "canaryDISCORDtoken.000000.000000",
    "LLM_API_KEY": "sk-canaryLLMkey000000",
}
TRACEBACK = "Traceback (most recent call last)"


@dataclass
class Probe:
    name: str
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    files: dict[str, str | None] = field(default_factory=dict)  # None: a folder
    stop: signal.Signals | None = None  # sent once the process has printed its first line
    midway: bool = False  # `stop` sent once the slow GitHub was asked, not on the first line
    newer: bool = False  # the store is one a newer version wrote


@dataclass
class Seen:
    name: str
    code: int | None
    sentence: bool
    traceback: bool
    secrets: bool
    said: str


class _NotGitHub(BaseHTTPRequestHandler):
    """A login page answering 200 to everything: what a proxy or a wrong URL gives."""

    def do_GET(self) -> None:
        body = b"<html><body>Please sign in</body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_GET

    def log_message(self, *args: Any) -> None:
        pass


ASKED = threading.Event()  # the slow GitHub got a request
RELEASE = threading.Event()  # the slow GitHub may answer (the probes are done)


class _SlowGitHub(BaseHTTPRequestHandler):
    """A GitHub that takes its time: a signal sent once it was asked lands mid-request."""

    def do_GET(self) -> None:
        ASKED.set()
        RELEASE.wait(120)
        self.send_response(503)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def probes(html_url: str, slow_url: str) -> list[Probe]:
    day = ["show", "2026-03-25"]
    settings = [
        ("cutoff 25:00", {"VLLM_REPORT_CUTOFF": "25:00"}),
        ("cutoff words", {"VLLM_REPORT_CUTOFF": "noon"}),
        ("timezone unknown", {"VLLM_REPORT_TIMEZONE": "Mars/Base"}),
        ("language fr", {"VLLM_REPORT_LANG": "fr"}),
        ("repo without owner", {"VLLM_REPORT_REPO": "vllm"}),
        ("range days 0", {"VLLM_REPORT_MAX_RANGE_DAYS": "0"}),
        ("port 70000", {"VLLM_REPORT_HTTP_PORT": "70000"}),
        ("github timeout -1", {"VLLM_REPORT_GITHUB_TIMEOUT": "-1"}),
        ("github retries many", {"VLLM_REPORT_GITHUB_RETRIES": "lots"}),
        ("llm timeout 0", {"LLM_TIMEOUT": "0"}),
        ("token with a space", {"GITHUB_TOKEN": "ghp_canary GITHUB"}),
        ("slack token with a newline inside", {"SLACK_BOT_TOKEN": "xoxb-canary\nSLACK"}),
        ("slack channel not an ID", {"SLACK_CHANNELS": "#general"}),
        ("discord channel not a number", {"DISCORD_CHANNELS": "general"}),
        ("log format xml", {"VLLM_REPORT_LOG_FORMAT": "xml"}),
        ("topics file missing", {"VLLM_REPORT_TOPICS_FILE": "/nonexistent/topics.toml"}),
        ("secret file missing", {"GITHUB_TOKEN_FILE": "/nonexistent/token"}),
    ]
    found = [Probe(f"setting: {name}", day, env) for name, env in settings]
    found += [
        Probe("setting: .env typo", day, files={".env": "VLLM_REPORT_CUTOF=11:45\n"}),
        Probe("setting: TOML a folder", day, files={"vllm-report.toml": None}),
        Probe("setting: TOML broken", day, files={"vllm-report.toml": "cutoff = [\n"}),
        Probe("setting: TOML unknown key", day, files={"vllm-report.toml": 'cutof = "1"\n'}),
        Probe(
            "setting: TOML an environment name",
            day,
            files={"vllm-report.toml": 'VLLM_REPORT_CUTOFF = "11:30"\n'},
        ),
        Probe("setting: TOML lang fr", day, files={"vllm-report.toml": 'lang = "fr"\n'}),
    ]
    urls = [
        ("github refused", {"GITHUB_API_URL": "http://127.0.0.1:1"}, day),
        ("github not GitHub", {"GITHUB_API_URL": html_url}, day),
        ("github doctor not GitHub", {"GITHUB_API_URL": html_url}, ["doctor"]),
        ("github ftp", {"GITHUB_API_URL": "ftp://127.0.0.1/"}, day),
        ("github words", {"GITHUB_API_URL": "github please"}, day),
        ("slack refused", {"SLACK_API_URL": "http://127.0.0.1:1/api/"}, ["doctor"]),
        ("slack not Slack", {"SLACK_API_URL": html_url + "/api/"}, ["doctor"]),
        ("discord refused", {"DISCORD_API_URL": "http://127.0.0.1:1/api/v10"}, ["doctor"]),
        ("model refused", {"LLM_BASE_URL": "http://127.0.0.1:1/v1"}, ["doctor"]),
        ("model not a model", {"LLM_BASE_URL": html_url + "/v1"}, ["doctor"]),
    ]
    found += [Probe(f"url: {name}", argv, env) for name, env, argv in urls]
    stores = [
        ("data folder is a file", {"VLLM_REPORT_DATA_DIR": "afile"}, {"afile": "x"}),
        ("sqlite file of text", {}, {"data/vllm-report.sqlite3": "not a database\n" * 100}),
        ("database url mysql", {"DATABASE_URL": "mysql://root@127.0.0.1/test"}, {}),
        ("database url words", {"DATABASE_URL": "the usual one"}, {}),
        (
            "postgres not created",
            {"DATABASE_URL": "postgresql://postgres@127.0.0.1:5432/probe_not_created"},
            {},
        ),
        ("postgres refused", {"DATABASE_URL": "postgres://postgres@127.0.0.1:1/x"}, {}),
        ("sqlite in memory", {"DATABASE_URL": "sqlite:///:memory:"}, {}),
        ("sqlite read-only", {"DATABASE_URL": "sqlite:///data/x.sqlite3?mode=ro"}, {}),
        ("data folder under a file", {"VLLM_REPORT_DATA_DIR": "afile/data"}, {"afile": "x"}),
        ("data folder not permitted", {"VLLM_REPORT_DATA_DIR": "/sys/vllm-report"}, {}),
    ]
    found += [Probe(f"store: {name}", day, env, files) for name, env, files in stores]
    found += [
        Probe("store: newer revision", day, newer=True),
        Probe("command: unknown", ["shwo"]),
        Probe("command: day not a date", ["show", "2026-02-30"]),
        Probe("command: range backwards", ["show", "2026-03-25..2026-03-20"]),
        Probe("command: check endless file", ["check", "/dev/zero"]),
        Probe("command: check missing file", ["check", "/nonexistent/report.md"]),
        Probe("command: site into nothing", ["site", "build", ""]),
        Probe("command: backup into a folder missing", ["backup", "/nonexistent/x.sqlite3"]),
        Probe("signal: Ctrl-C after post failed", ["post", "2026-03-25"], stop=signal.SIGINT),
        Probe(
            "signal: Ctrl-C during post's GitHub request",
            ["post", "2026-03-25"],
            {"GITHUB_API_URL": slow_url},
            stop=signal.SIGINT,
            midway=True,
        ),
        Probe(
            "signal: SIGTERM during post's GitHub request",
            ["post", "2026-03-25"],
            {"GITHUB_API_URL": slow_url},
            stop=signal.SIGTERM,
            midway=True,
        ),
        Probe("signal: SIGTERM to serve", ["serve"], stop=signal.SIGTERM),
    ]
    return found


def run(probe: Probe, workdir: Path) -> Seen:
    folder = Path(tempfile.mkdtemp(dir=workdir))
    for name, text in probe.files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if text is None:
            path.mkdir()
        else:
            path.write_text(text, encoding="utf-8")
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(folder),
        "PYTHONPATH": str(ROOT),
        "VLLM_REPORT_DATA_DIR": str(folder / "data"),
        # Nothing of ours reaches the internet: every service at a closed local port.
        "GITHUB_API_URL": "http://127.0.0.1:1",
        "SLACK_API_URL": "http://127.0.0.1:1/api/",
        "DISCORD_API_URL": "http://127.0.0.1:1/api/v10",
        "VLLM_REPORT_GITHUB_RETRIES": "0",
        "SLACK_CHANNELS": "C0123ABCD",
        "DISCORD_CHANNELS": "123456789012345678",
        **CANARIES,
        **probe.env,
    }
    if probe.newer:
        _newer_store(folder / "data", env)
    command = [sys.executable, "-m", "bot", *probe.argv]
    process = subprocess.Popen(  # noqa: S603 - our own interpreter and module
        command,
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    if probe.stop is not None and probe.midway:
        ASKED.wait(60)  # GitHub was asked and has not answered
        ASKED.clear()
        process.send_signal(probe.stop)
        out, err = process.communicate(timeout=120)
    elif probe.stop is not None:
        assert process.stderr is not None
        first = process.stderr.readline()  # the process is up and speaking
        process.send_signal(probe.stop)
        out, err = process.communicate(timeout=120)
        err = first + err
    else:
        try:
            out, err = process.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate()
    text = out + err
    lines = [line for line in err.splitlines() if line.startswith("vllm-report: ")]
    if probe.argv == ["doctor"]:  # a line per check: the failing ones marked ✗, one line each
        lines = [line for line in out.splitlines() if line.startswith("✗")]
        sentence = process.returncode in (1, 2) and bool(lines)
    elif probe.midway:  # stopped, and said so once
        sentence = process.returncode in (130, 143) and len(lines) == 1
    else:
        stopped = probe.stop is not None and process.returncode in (0, 1, 130)
        sentence = (process.returncode in (1, 2) and len(lines) == 1) or stopped
    return Seen(
        name=probe.name,
        code=process.returncode,
        sentence=sentence and TRACEBACK not in text,
        traceback=TRACEBACK in text,
        secrets=any(secret in text for secret in CANARIES.values()),
        said=(lines[-1] if lines else (err.strip().splitlines() or [""])[-1])[:110],
    )


def _newer_store(data: Path, env: dict[str, str]) -> None:
    """A store a newer version wrote: its schema revision is one this code does not know."""
    subprocess.run(
        [sys.executable, "-m", "bot", "topics"],
        cwd=data.parent,
        env=env,
        capture_output=True,
        check=False,
    )
    for path in data.glob("*.sqlite3"):
        with sqlite3.connect(path) as db:
            db.execute("UPDATE alembic_version SET version_num = '0099'")


def fuzz(count: int, seed: int, workdir: Path) -> tuple[int, int, int]:
    """`count` signed interactions of random wrong shapes → (answered, 5xx, tracebacks)."""
    os.environ["VLLM_REPORT_DATA_DIR"] = str(workdir / "fuzz")
    os.environ["GITHUB_API_URL"] = "http://127.0.0.1:1"
    os.environ["VLLM_REPORT_GITHUB_RETRIES"] = "0"
    from tests.fakes.discord_api import FakeDiscord
    from tests.platforms.test_discord_fuzz import BASES, DELETE, PATHS, broken
    from tests.platforms.test_discord_http import endpoint, signed

    rng = random.Random(seed)
    values: list[Any] = [DELETE, None, True, 0, -1, 2**70, "", "x" * 300, "all", [], [5], {}]
    values += [{"name": "topic", "value": 3}, {"user": None}, "../../channels/1/messages"]
    tracebacks: list[logging.LogRecord] = []

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.exc_info:
                tracebacks.append(record)

    logging.getLogger().addHandler(Catch())
    answered = errors = 0
    clock = 1_774_000_000.0
    with FakeDiscord() as fake:
        interactions = endpoint(fake, clock=lambda: clock)

        async def all_of_them() -> None:
            nonlocal answered, errors
            for n in range(count):
                body = broken(rng.choice(BASES), rng.choice(PATHS), rng.choice(values))
                body = {**body, "id": str(10_000 + n)}
                status, _ = await interactions.handle(*signed(body, now=clock))
                answered += status in (200, 400)
                errors += status >= 500
            await interactions.close()

        asyncio.run(all_of_them())
    for said in sorted({f"{r.getMessage()[:80]} ({r.exc_info[1]!r:.80})" for r in tracebacks}):
        print(f"fuzz traceback: {said}")  # type: ignore[index]
    return answered, errors, len(tracebacks)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fuzz", type=int, default=10_000, help="fuzzed interactions")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="print what each probe said")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _NotGitHub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    html_url = f"http://127.0.0.1:{server.server_address[1]}"
    slow = ThreadingHTTPServer(("127.0.0.1", 0), _SlowGitHub)
    slow.daemon_threads = True
    threading.Thread(target=slow.serve_forever, daemon=True).start()
    slow_url = f"http://127.0.0.1:{slow.server_address[1]}"
    with tempfile.TemporaryDirectory() as tmp:
        seen = [run(probe, Path(tmp)) for probe in probes(html_url, slow_url)]
        RELEASE.set()
        answered, errors, fuzz_tracebacks = fuzz(args.fuzz, args.seed, Path(tmp))
    server.shutdown()
    for s in seen:
        verdict = "TRACEBACK" if s.traceback else "one sentence" if s.sentence else "UNCLEAR"
        print(f"{s.name:44} exit {s.code!s:>4}  {verdict:12}{'  SECRET' if s.secrets else ''}")
        if args.verbose or not s.sentence:
            print(f"    {s.said}")
    print(
        f"\nCLI probes: {len(seen)}; one-sentence answers {sum(s.sentence for s in seen)}; "
        f"tracebacks {sum(s.traceback for s in seen)}; "
        f"secrets seen {sum(s.secrets for s in seen)}"
    )
    print(
        f"fuzzed interactions: {args.fuzz}; answered 200/400 {answered}; 5xx {errors}; "
        f"tracebacks {fuzz_tracebacks}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
