"""Fault figures: what the bot does when parts of the world fail (issue 10). Not part of CI.

    python benchmarks/fault_figures.py                 # every figure (about 20-30 minutes)
    python benchmarks/fault_figures.py --only github,429 --kills 10 --seed 3

Every figure runs the real bot (the CLI, real processes where a crash or a race is the
point) against the fake GitHub, Slack and Discord of tests/fakes, on SQLite files in a
temporary folder, and prints what it counted:

- github: 20% of GitHub's answers are 502 and every 7th a secondary rate limit (403,
  Retry-After: 1) → the report equals the one made without faults;
- 429: 30% of Slack's and Discord's posts answer 429 → every part delivered exactly once;
- kills: `post` killed (SIGKILL) at a random moment of a daily post, then run again, per
  platform → duplicates and missing parts;
- race: two `post` processes of the same day, for 30 days → posts per destination and day;
- replicas: two replicas (each its own store connection, leader lease and transports)
  firing the daily job for 30 simulated days, the leader dying on day 10 and coming back on
  day 20 → posts per destination and day;
- takeover: two `serve` processes, the leader killed → seconds until the other leads;
- fuzz: 10,000 random command inputs through the Slack parser and the command service → how
  many ended in an exception the service does not answer (a traceback);
- canary: a post at DEBUG with canary secrets in every secret setting → hits in the logs,
  the database file and every payload the fakes received (Authorization headers aside);
- schema: replicas opening one empty database at the same moment (`--trials` × `--replicas`
  processes, SQLite and PostgreSQL on TEST_DATABASE_URL's server) → openers that failed and
  trials whose schema is not at the newest revision.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import string
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from datetime import UTC, date, datetime, timedelta
from io import StringIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.cli import main  # noqa: E402
from tests.anchor_data import REPO, anchor_days, anchor_items, background_items  # noqa: E402
from tests.fakes.discord_api import FakeDiscord  # noqa: E402
from tests.fakes.github_api import FakeGitHub, Fault  # noqa: E402
from tests.fakes.slack_api import FakeSlack  # noqa: E402

DAY = anchor_days()[2]
CLEARED = ("VLLM_REPORT_", "GITHUB_", "SLACK_", "DISCORD_", "LLM_", "DATABASE_URL")


# -- plumbing ----------------------------------------------------------------------------------


@contextmanager
def environment(**values: str) -> Iterator[None]:
    """os.environ with every bot setting cleared, then `values` set; restored after."""
    saved = dict(os.environ)
    for name in list(os.environ):
        if name.startswith(CLEARED):
            del os.environ[name]
    os.environ.update(values)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def github_items() -> list[Any]:
    first = min(day.start for day in anchor_days())
    return anchor_items() + background_items(1500, before=first)


def base_env(folder: Path, github: FakeGitHub, **extra: str) -> dict[str, str]:
    return {
        "VLLM_REPORT_DATA_DIR": str(folder / "data"),
        "GITHUB_API_URL": github.url,
        "VLLM_REPORT_GITHUB_REQUEST_INTERVAL": "0",
        "VLLM_REPORT_GITHUB_BACKOFF": "0.05",
        "VLLM_REPORT_CUTOFF": DAY.cutoff,
        "DATABASE_URL": f"sqlite:///{folder / 'store.sqlite3'}",
        **extra,
    }


def chat_env(slack: FakeSlack | None, discord: FakeDiscord | None) -> dict[str, str]:
    env = {"VLLM_REPORT_SLACK_POST_INTERVAL": "0"}
    if slack is not None:
        env.update(
            {"SLACK_BOT_TOKEN": "xoxb-test", "SLACK_API_URL": slack.api_url, "SLACK_CHANNELS": "C1"}
        )
    if discord is not None:
        env.update(
            {
                "DISCORD_BOT_TOKEN": "discord-test-token",
                "DISCORD_API_URL": discord.api_url,
                "DISCORD_CHANNELS": "111",
            }
        )
    return env


def slack_parts(fake: FakeSlack, channel: str = "C1") -> Counter[str]:
    """Each message's window and part; a chart rides in as a file share, named by its part
    and window (`file:<name>`), with no metadata of its own."""
    return Counter(
        f"{p.payload['metadata']['event_payload'].get('window', '?')}|{p.part}"
        if p.payload.get("metadata")
        else p.part
        for p in fake.channel_posts(channel)
    )


def discord_parts(fake: FakeDiscord) -> Counter[str]:
    return Counter(str(s.payload["nonce"]) for s in fake.sent)


def expected(platform: str, folder: Path, env: dict[str, str], when: str = DAY.label) -> int:
    with environment(**env):
        code, out, err = cli("show", when, "--format", platform)
    assert code == 0, err
    return len(json.loads(out))


def spawn(argv: list[str], env: dict[str, str], cwd: Path) -> subprocess.Popen[str]:
    full = {**os.environ, **env, "PYTHONPATH": str(ROOT)}
    for name in list(full):
        if name.startswith(CLEARED) and name not in env:
            del full[name]
    return subprocess.Popen(  # noqa: S603 - our own interpreter and module
        [sys.executable, "-m", "bot", *argv],
        cwd=cwd,
        env=full,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def line(name: str, value: str, target: str) -> None:
    print(f"  {name:58} {value:>14}   (target: {target})", flush=True)


# -- figures -----------------------------------------------------------------------------------


def figure_github(rng: random.Random, folder: Path) -> None:
    print(
        "GitHub: 20% 502 and a secondary rate limit (Retry-After: 1) on every 7th answer, "
        "three real days"
    )
    identical, requests, began = 0, 0, time.monotonic()
    injected: Counter[str] = Counter()
    for day in anchor_days():
        reports = []
        for faulty in (False, True):
            where = folder / f"{day.label}-{'faulty' if faulty else 'clean'}"
            where.mkdir()
            with FakeGitHub(REPO, github_items()) as github:

                def rule(index: int, path: str) -> Fault | None:
                    if index % 7 == 6:
                        injected["403 secondary"] += 1
                        return Fault.secondary_limit(retry_after=1)
                    if rng.random() < 0.2:
                        injected["502"] += 1
                        return Fault.server_error(502)
                    return None

                github.fault_rule = rule if faulty else None
                env = base_env(where, github, VLLM_REPORT_CUTOFF=day.cutoff)
                with environment(**env):
                    code, out, err = cli("show", day.label, "--format", "json")
                assert code == 0, err
                report = json.loads(out)
                report.pop("generated_at", None)
                reports.append(report)
                requests += len(github.requests) if faulty else 0
        identical += reports[0] == reports[1]
    line("requests sent (faulty runs)", str(requests), "-")
    line("faults injected", ", ".join(f"{n} {k}" for k, n in injected.items()), "~20% + 1/7")
    line("seconds (faulty runs, with the waits)", f"{time.monotonic() - began:.1f}", "-")
    line("reports identical to the fault-free ones", f"{identical}/{len(anchor_days())}", "3/3")


def figure_429(rng: random.Random, folder: Path) -> None:
    print("Slack and Discord: 30% of posts answer 429")
    with (
        FakeGitHub(REPO, github_items()) as github,
        FakeSlack() as slack,
        FakeDiscord() as discord,
    ):
        slack.rate_limit_rule = lambda index: rng.random() < 0.3
        discord.rate_limit_rule = lambda index: rng.random() < 0.3
        env = {**base_env(folder, github), **chat_env(slack, discord)}
        runs, code = 0, 1
        while code != 0 and runs < 5:
            with environment(**env):
                code, _, _ = cli("post", DAY.label)
            runs += 1
        want_slack, want_discord = expected("slack", folder, env), expected("discord", folder, env)
        got_slack, got_discord = slack_parts(slack), discord_parts(discord)
        line("429s answered (Slack, Discord)", f"{slack.throttled}, {discord.throttled}", "-")
        line("post runs until done", str(runs), "1")
        line("Slack parts delivered / expected", f"{len(got_slack)}/{want_slack}", "all")
        line("Discord parts delivered / expected", f"{len(got_discord)}/{want_discord}", "all")
        dupes = sum(n - 1 for n in (*got_slack.values(), *got_discord.values()))
        line("duplicate messages", str(dupes), "0")


def figure_kills(rng: random.Random, folder: Path, kills: int) -> None:
    print(f"{kills} SIGKILLs at random moments of a daily post, per platform, then a rerun")
    with FakeGitHub(REPO, github_items()) as github:
        template = folder / "template"
        template.mkdir()
        with environment(**base_env(template, github)):
            assert cli("show", DAY.label)[0] == 0  # the archive, so each run only posts
        for platform in ("slack", "discord"):
            duplicates = missing = inside = 0
            timings: list[float] = []
            for trial in range(kills):
                where = folder / f"{platform}-{trial}"
                shutil.copytree(template, where)
                with FakeSlack() as slack, FakeDiscord() as discord:
                    fake: Any = slack if platform == "slack" else discord
                    # A daily post is ~6 messages now: slow each one down so that most
                    # random kills land between two messages, the case that matters.
                    fake.post_delay = 0.4
                    env = {
                        **base_env(where, github),
                        **chat_env(
                            slack if platform == "slack" else None,
                            discord if platform == "discord" else None,
                        ),
                        "VLLM_REPORT_DELIVERY_LEASE_SECONDS": "1",
                    }
                    if trial == 0:  # how long a whole post takes, to aim the kills
                        began = time.monotonic()
                        spawn(["post", DAY.label], env, where).wait(300)
                        timings.append(time.monotonic() - began)
                        want = len(fake.posted if platform == "slack" else fake.sent)
                        shutil.rmtree(where)
                        shutil.copytree(template, where)
                        fake.posted.clear() if platform == "slack" else fake.sent.clear()
                        if platform == "discord":
                            fake.nonce_seconds = 0  # forget the first run's nonces
                    process = spawn(["post", DAY.label], env, where)
                    time.sleep(rng.uniform(0.2, timings[0]))
                    before = len(fake.posted if platform == "slack" else fake.sent)
                    process.send_signal(signal.SIGKILL)
                    process.wait(30)
                    inside += 0 < before < want
                    rerun = spawn(["post", DAY.label], env, where)
                    rerun.wait(300)
                    got = slack_parts(slack) if platform == "slack" else discord_parts(discord)
                    duplicates += sum(n - 1 for n in got.values())
                    missing += max(0, want - len(got))
                    shutil.rmtree(where)
            line(f"{platform}: kills while posting (of {kills})", str(inside), "-")
            line(f"{platform}: duplicate messages", str(duplicates), "0")
            line(f"{platform}: missing messages", str(missing), "0")


def days(count: int) -> list[date]:
    first = date(2026, 2, 1)
    return [first + timedelta(days=n) for n in range(count)]


def figure_race(folder: Path, count: int) -> None:
    print(f"two `post` processes of the same day, racing, for {count} days")
    with FakeGitHub(REPO, github_items()) as github, FakeSlack() as slack, FakeDiscord() as d:
        env = {**base_env(folder, github), **chat_env(slack, d)}
        span = days(count)
        with environment(**env):
            assert cli("show", f"{span[0]}..{span[-1]}")[0] == 0  # archived once
        failures = 0
        for day in span:
            runs = [spawn(["post", day.isoformat()], env, folder) for _ in range(2)]
            for run in runs:
                _, err = run.communicate(timeout=300)
                if run.returncode != 0:  # say why: a failed run is a finding, not a number
                    failures += 1
                    last = err.strip().splitlines()[-1:] or ["(no output)"]
                    print(f"  {day}: exit {run.returncode}: {last[0][:300]}")
        per_day_slack = Counter(
            p.payload["metadata"]["event_payload"]["window"]
            for p in slack.channel_posts("C1")
            if p.thread_ts is None
        )
        parts_slack = slack_parts(slack)
        headlines_discord = Counter(s.channel for s in d.sent if s.channel == "111")
        line("runs that failed", str(failures), "0")
        line(
            "Slack headlines per day (min, max)",
            f"{min(per_day_slack.values())}, {max(per_day_slack.values())}",
            "1, 1",
        )
        line("Slack days posted", str(len(per_day_slack)), str(count))
        line("Slack duplicate parts", str(sum(n - 1 for n in parts_slack.values())), "0")
        line("Discord headlines in the channel", str(headlines_discord["111"]), str(count))
        line("Discord duplicate parts", str(sum(n - 1 for n in discord_parts(d).values())), "0")


def figure_replicas(folder: Path, count: int) -> None:
    print(
        f"two replicas on one store for {count} simulated days; the leader dies on day 10, "
        "returns on day 20"
    )
    from bot.app import daily_job, open_bot, transports
    from bot.model.rules import load_rules
    from bot.service.leader import Leader
    from config.settings import load_settings

    with FakeGitHub(REPO, github_items()) as github, FakeSlack() as slack, FakeDiscord() as d:
        env = {**base_env(folder, github), **chat_env(slack, d)}
        span = days(count)
        with environment(**env):
            assert cli("show", f"{span[0]}..{span[-1]}")[0] == 0
            settings = load_settings()
            rules = load_rules()
            now = [datetime.now(UTC)]

            async def scenario() -> list[str]:
                replicas = []
                for name in ("a", "b"):
                    bot = open_bot(settings, rules, lambda: now[0])
                    opened = await transports(settings).__aenter__()
                    job = daily_job(bot, opened)
                    leader = Leader(bot.store.leases, timedelta(seconds=1), owner=name)
                    replicas.append((name, bot, job, leader))
                ran: list[str] = []
                dead: set[str] = set()
                for index, day in enumerate(span):
                    window = replicas[0][2].last_complete_window  # same settings for both
                    now[0] = datetime.combine(
                        day + timedelta(days=1), settings.cutoff_time, tzinfo=settings.tz
                    ) + timedelta(minutes=15)
                    assert window(now[0]).label == day.isoformat()
                    if index == 9:
                        leading = next(r[0] for r in replicas if r[3].held is not None)
                        dead.add(leading)
                    if index == 19:
                        dead.clear()
                    alive = [r for r in replicas if r[0] not in dead]
                    for _, _, _, leader in alive:
                        leader.try_lead()
                    if not any(r[3].held for r in alive):  # the leader died: wait its lease out
                        while not any(r[3].try_lead() for r in alive):
                            await asyncio.sleep(0.2)

                    async def fire(replica: Any, day: date = day) -> None:
                        name, _, job, leader = replica
                        result = await leader.gate(job.run)()
                        if result is not None:
                            ran.append(f"{day}:{name}")

                    await asyncio.gather(*(fire(r) for r in alive))
                for _, bot, _, _ in replicas:
                    bot.close()
                return ran

            ran = asyncio.run(scenario())
        per_day = Counter(
            p.payload["metadata"]["event_payload"]["window"]
            for p in slack.channel_posts("C1")
            if p.thread_ts is None
        )
        line("job runs (leader only)", str(len(ran)), str(count))
        line("replicas that ran the job", ", ".join(sorted({r[-1] for r in ran})), "a and b")
        line(
            "Slack headlines per day (min, max)",
            f"{min(per_day.values())}, {max(per_day.values())}",
            "1, 1",
        )
        line("Slack days posted", str(len(per_day)), str(count))
        line("Slack duplicate parts", str(sum(n - 1 for n in slack_parts(slack).values())), "0")
        line("Discord duplicate parts", str(sum(n - 1 for n in discord_parts(d).values())), "0")


def figure_takeover(folder: Path, leases: list[float]) -> None:
    print("leader takeover: two `serve` processes, the leader killed with SIGKILL")
    for lease in leases:
        env = {
            "VLLM_REPORT_DATA_DIR": str(folder / "data"),
            "DATABASE_URL": f"sqlite:///{folder / f'serve-{lease}.sqlite3'}",
            "VLLM_REPORT_CATCH_UP_DAYS": "0",
            "VLLM_REPORT_LEADER_LEASE_SECONDS": str(lease),
            "GITHUB_API_URL": "http://127.0.0.1:9",
        }
        first = spawn(["-v", "serve"], env, folder)
        second = None
        try:
            read_until(first, "leads the scheduler (epoch 1)", 60)
            second = spawn(["-v", "serve"], env, folder)
            read_until(second, "started:", 60)
            time.sleep(lease / 2)  # somewhere inside a renewal period
            first.send_signal(signal.SIGKILL)
            killed = time.monotonic()
            read_until(second, "leads the scheduler (epoch 2)", lease * 3 + 30)
            took = time.monotonic() - killed
        finally:
            for process in (first, second):
                if process is not None and process.poll() is None:
                    process.send_signal(signal.SIGTERM)
                    process.wait(30)
        line(
            f"lease {lease:.0f} s: seconds from SIGKILL to the new leader",
            f"{took:.1f}",
            f"≤ {lease * 4 / 3:.0f}",
        )


def read_until(process: subprocess.Popen[str], text: str, limit: float) -> None:
    assert process.stderr is not None
    fd = process.stderr.fileno()
    os.set_blocking(fd, False)
    seen, deadline = "", time.monotonic() + limit
    while text not in seen:
        if time.monotonic() > deadline or process.poll() is not None:
            raise RuntimeError(f"never saw {text!r}: {seen[-2000:]}")
        try:
            seen += os.read(fd, 65536).decode(errors="replace")
        except BlockingIOError:
            time.sleep(0.05)


def fuzz_text(rng: random.Random) -> str:
    words = [
        "yesterday",
        "today",
        "7d",
        "last",
        "7",
        "days",
        "amd",
        "amdd",
        "nvidia",
        "hot",
        "public",
        "zh",
        "en",
        "post",
        "vllm-project/vllm",
        "x/y",
        "..",
        "0d",
        "999d",
        "2026-03-25",
        "0001-01-01",
        "9999-12-31",
        "1970-01-01",
        "2026-02-30",
        "2026-03-20..2026-03-26",
        "0001-01-01..0001-01-07",
        "9999-12-25..9999-12-31",
        "<!channel>",
        "&amp;",
        "<https://x|y>",
        "@everyone",
        "２０２６-０３-２５",
        "\u202e",
        "é",
        "'",
        '"',
        "\\",
        "%s",
        "{}",
        "\x00",
        "\n",
        "a" * 400,
    ]
    alphabet = string.printable + "。、２０１６中文\u200b\u202e"
    count = rng.randint(0, 14)
    parts = []
    for _ in range(count):
        if rng.random() < 0.7:
            parts.append(rng.choice(words))
        else:
            parts.append("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 20))))
        if rng.random() < 0.1 and parts:
            parts[-1] = parts[-1] + ".." + rng.choice(words)
    return " ".join(parts)


def figure_fuzz(rng: random.Random, folder: Path, count: int) -> None:
    print(f"{count} fuzzed command inputs (Slack text parser → command service → pipeline)")
    from bot.app import commands, open_bot
    from bot.collect.source import Collected
    from bot.collect.sync import Archiver
    from bot.commands import Asker, CommandError, ReportShown
    from bot.commands.report import ReportRequest
    from bot.model.rules import load_rules
    from config.settings import load_settings

    class NoGitHub:
        """A collector that answers at once with nothing (the fuzz is about inputs)."""

        def __init__(self, _: Any) -> None:
            pass

        def search_span(self, *_: Any) -> Collected:
            return Collected()

        def updated_since(self, *_: Any) -> Collected:
            return Collected()

        def comments_since(self, *_: Any) -> list[Any]:
            return []

        def close(self) -> None:
            pass

    with environment(**{"VLLM_REPORT_DATA_DIR": str(folder / "data")}):
        settings, rules = load_settings(), load_rules()
        bot = open_bot(settings, rules)
        bot.reports.archiver = Archiver(bot.store, bot.reports.archiver.source, NoGitHub)  # type: ignore[arg-type]
        service = commands(bot)
        report = service.table["vllm-report"]
        tracebacks: Counter[str] = Counter()
        answered = refused = 0

        async def one(index: int) -> None:
            nonlocal answered, refused
            text = fuzz_text(rng)
            try:
                if index % 2:
                    try:
                        request = service.read(report, text)
                    except CommandError:
                        refused += 1
                        return
                else:  # Discord's typed options: any string in any field
                    pieces = text.split(" ")
                    request = ReportRequest(
                        when=pieces[0] if pieces else "",
                        section=rng.choice([None, *pieces]),
                        topic=rng.choice([None, *pieces]),
                        lang=rng.choice([None, "en", "zh", *pieces]),
                        public=rng.random() < 0.5,
                    )
                answer = await service.answer(report, Asker("fuzz", str(index)), request)
                answered += 1 if isinstance(answer, ReportShown) else 0
                refused += 0 if isinstance(answer, ReportShown) else 1
            except Exception as exc:
                tracebacks[f"{type(exc).__name__}: {str(exc)[:80]}"] += 1

        async def run_all() -> None:
            for index in range(count):
                await one(index)

        began = time.monotonic()
        asyncio.run(run_all())
        bot.close()
    line("inputs answered with a report", str(answered), "-")
    line("inputs answered with a sentence", str(refused), "-")
    line("tracebacks", str(sum(tracebacks.values())), "0")
    for what, times in tracebacks.most_common(5):
        print(f"    {times} × {what}")
    line("seconds", f"{time.monotonic() - began:.0f}", "-")


def figure_canary(folder: Path) -> None:
    print("canary secrets at DEBUG (-vv): hits in logs, the database and payloads")
    canaries = {
        "GITHUB_TOKEN": "ghp_CANARYgithub0123456789",
        "SLACK_BOT_TOKEN": "xoxb-CANARY-slack-0123456789",
        "SLACK_SIGNING_SECRET": "CANARYsigningsecret0123456789",
        "DISCORD_BOT_TOKEN": "CANARY.discord.0123456789",
        "LLM_API_KEY": "sk-CANARYllm0123456789",
    }
    from tests.fakes.openai_api import FakeOpenAI

    with (
        FakeGitHub(REPO, github_items()) as github,
        FakeSlack() as slack,
        FakeDiscord() as discord,
        FakeOpenAI(lambda body: '{"summary": []}') as llm,
    ):
        env = {
            **base_env(folder, github),
            **chat_env(slack, discord),
            **canaries,
            "LLM_BASE_URL": llm.url,
            "LLM_MODEL": "canary-model",
        }
        process = spawn(["-vv", "post", DAY.label], env, folder)
        _, log = process.communicate(timeout=600)
        places = {
            "logs (stderr at DEBUG)": log,
            "database file": (folder / "store.sqlite3").read_bytes().decode("latin-1"),
            "archive files": "".join(
                p.read_text(encoding="utf-8", errors="replace")
                for p in (folder / "data").rglob("*")
                if p.is_file()
            ),
            "Slack payloads": json.dumps([c for c in slack.calls], default=str),
            "Discord payloads": json.dumps([s.payload for s in discord.sent]),
            "GitHub request URLs": json.dumps([(r.path, r.query) for r in github.requests]),
            "model prompts": json.dumps(getattr(llm, "requests", []), default=str),
        }
        used = sum(
            1
            for r in github.requests
            if canaries["GITHUB_TOKEN"] in r.headers.get("Authorization", "")
        )
        line("post exit status", str(process.returncode), "0")
        line("GitHub requests carrying the token (on the wire)", str(used), "> 0")
        for where, text in places.items():
            hits = sum(text.count(value) for value in canaries.values())
            line(f"canary hits in {where}", str(hits), "0")


# A replica's start as far as the schema goes: import the store, say so, wait for the word,
# then open it (the release of all of them at once is the point); a refusal ends as the
# command line ends it: its sentence and exit status.
OPENER = """
import sys
from bot.model.errors import InputError, ServiceError
from bot.store import Store
print("ready", flush=True)
sys.stdin.readline()
try:
    Store(sys.argv[1]).close()
except (InputError, ServiceError) as exc:
    print(exc, file=sys.stderr)
    raise SystemExit(exc.exit_status) from None
"""


def open_together(url: str, replicas: int, folder: Path) -> list[tuple[int, str]]:
    """`replicas` processes opening `url` released together: each one's exit status and
    last line of stderr."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    openers = [
        subprocess.Popen(  # noqa: S603 - our own interpreter and script
            [sys.executable, "-c", OPENER, url],
            cwd=folder,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(replicas)
    ]
    for opener in openers:  # every one imported and waiting before any is released
        assert opener.stdout is not None and opener.stdout.readline() == "ready\n"
    for opener in openers:
        assert opener.stdin is not None
        opener.stdin.write("go\n")
        opener.stdin.flush()
    ended = []
    for opener in openers:
        _, err = opener.communicate(timeout=120)
        ended.append((opener.returncode, (err.strip().splitlines() or [""])[-1]))
    return ended


def stored_revision(url: str) -> str | None:
    """The revision the database records (None: no schema, or no revision recorded)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import SQLAlchemyError

    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            found = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
            return str(found) if found is not None else None
    except SQLAlchemyError:
        return None
    finally:
        engine.dispose()


def figure_schema(folder: Path, trials: int, replicas: int) -> None:
    print(f"{replicas} replicas opening one empty database at once, {trials} trials per backend")
    from sqlalchemy import create_engine, make_url, text

    from bot.store.schema import HEAD_REVISION

    server = os.environ.get(
        "TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
    )
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    for backend in ("sqlite", "postgresql"):
        failed, wrong, reasons = 0, 0, Counter[str]()
        for trial in range(trials):
            name = f"vllm_report_schema_{os.getpid()}_{trial}"
            if backend == "sqlite":
                url = f"sqlite:///{folder / f'{name}.sqlite3'}"
            else:
                try:
                    with admin.connect() as connection:
                        connection.execute(text(f'CREATE DATABASE "{name}"'))
                except Exception as exc:  # no server: say so, and measure SQLite alone
                    print(f"  PostgreSQL at {server} unusable ({type(exc).__name__}): skipped")
                    break
                url = make_url(server).set(database=name).render_as_string(hide_password=False)
            try:
                ended = open_together(url, replicas, folder)
                failed += sum(1 for code, _ in ended if code != 0)
                for code, why in ended:
                    if code != 0:  # the same reason in every trial: said once, counted
                        why = why.replace(str(folder), "…").replace(name, "<db>")
                        reasons[f"exit {code}: {why[:150]}"] += 1
                wrong += int(stored_revision(url) != HEAD_REVISION)
            finally:
                if backend == "postgresql":
                    with admin.connect() as connection:
                        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        else:
            line(f"{backend}: openers that failed (of {trials * replicas})", str(failed), "0")
            line(f"{backend}: trials not at revision {HEAD_REVISION} after", str(wrong), "0")
            for why, count in reasons.most_common(3):
                print(f"    {count}× {why}")
    admin.dispose()


FIGURES = ("github", "429", "kills", "race", "replicas", "takeover", "fuzz", "canary", "schema")


def main_() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--only", default=",".join(FIGURES))
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--fuzz", type=int, default=10_000)
    parser.add_argument("--leases", default="3,30", help="leader leases (s) for the takeover")
    parser.add_argument("--trials", type=int, default=10, help="schema: trials per backend")
    parser.add_argument("--replicas", type=int, default=4, help="schema: openers per trial")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"fault figures, seed {args.seed}")
    runs: dict[str, Callable[[Path], None]] = {
        "github": lambda f: figure_github(rng, f),
        "429": lambda f: figure_429(rng, f),
        "kills": lambda f: figure_kills(rng, f, args.kills),
        "race": lambda f: figure_race(f, args.days),
        "replicas": lambda f: figure_replicas(f, args.days),
        "takeover": lambda f: figure_takeover(f, [float(x) for x in args.leases.split(",")]),
        "fuzz": lambda f: figure_fuzz(rng, f, args.fuzz),
        "canary": figure_canary,
        "schema": lambda f: figure_schema(f, args.trials, args.replicas),
    }
    for name in args.only.split(","):
        with tempfile.TemporaryDirectory() as folder:
            began = time.monotonic()
            cwd = os.getcwd()
            os.chdir(folder)
            try:
                runs[name](Path(folder))
            finally:
                os.chdir(cwd)
            print(f"  ({name}: {time.monotonic() - began:.0f} s)\n", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main_())
