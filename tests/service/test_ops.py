"""The operator's commands against the fakes: `doctor` (all well, and broken settings and
channels named one line each, never a secret), `backfill` (day by day, idle when archived,
resumable after a failure) and `demo` (offline, no setting read, the README's excerpt true)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.github_api import FakeGitHub, Fault
from tests.fakes.openai_api import FakeOpenAI
from tests.fakes.slack_api import FakeSlack

ROOT = Path(__file__).resolve().parents[2]
CANARIES = {
    "GITHUB_TOKEN": "ghp_CANARYgithub0123456789",
    "SLACK_BOT_TOKEN": "xoxb-CANARY-slack-0123456789",
    "SLACK_APP_TOKEN": "xapp-CANARY-app-0123456789",
    "DISCORD_BOT_TOKEN": "CANARY.discord.0123456789",
    "LLM_API_KEY": "sk-CANARYllm0123456789",
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def platforms(
    monkeypatch: pytest.MonkeyPatch, fake_github: FakeGitHub, store_url: str
) -> Iterator[tuple[FakeSlack, FakeDiscord]]:
    """Every service doctor looks at, fake, with canary secrets in every secret setting."""
    with FakeSlack() as slack, FakeDiscord() as discord, FakeOpenAI(lambda body: "ok") as llm:
        for name, value in CANARIES.items():
            monkeypatch.setenv(name, value)
        monkeypatch.setenv("DATABASE_URL", store_url)
        monkeypatch.setenv("SLACK_API_URL", slack.api_url)
        monkeypatch.setenv("SLACK_CHANNELS", "C1")
        monkeypatch.setenv("DISCORD_API_URL", discord.api_url)
        monkeypatch.setenv("DISCORD_CHANNELS", "111")
        monkeypatch.setenv("LLM_BASE_URL", llm.url)
        monkeypatch.setenv("LLM_MODEL", "canary-model")
        yield slack, discord


def test_doctor_all_well(
    platforms: tuple[FakeSlack, FakeDiscord], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "doctor")
    assert code == 0, out
    lines = out.splitlines()
    for name in ("settings", "github", "store", "slack", "slack channel C1", "discord",
                 "discord channel 111", "model"):  # fmt: skip
        assert any(re.match(rf"✓ {re.escape(name)}\s", line) for line in lines), name
    assert "vllm-project/vllm exists" in out and "rate limit 4999/5000 left" in out
    assert re.search(r"schema at revision \d{4}|created at schema revision \d{4}", out)
    assert lines[-1].startswith("all well")
    assert not any(secret in out for secret in CANARIES.values())


def test_doctor_looks_at_a_forum_without_reading_messages_it_cannot_hold(
    platforms: tuple[FakeSlack, FakeDiscord],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A forum in DISCORD_CHANNELS is no failure (it has no messages to read): its tags are
    counted, and a forum that requires a tag with no tag named for the report's language is
    marked ⚠ with what to do."""
    _, discord = platforms
    monkeypatch.setenv("DISCORD_CHANNELS", "111,555,556")
    discord.add_forum("555", tags=("en", "NVIDIA"))
    discord.add_forum("556", tags=("question",), require_tag=True)
    code, out, _ = run(capsys, "doctor")
    assert code == 0, out
    lines = {line.split()[3]: line for line in out.splitlines() if "discord channel" in line}
    assert lines["111"].startswith("✓")
    forum = r"✓ discord channel 555\s+a forum: each day's report opens a post there "
    assert re.match(forum + r"\(2 of 20 tags, 'en' among them\)$", lines["555"])
    warned = (
        r"⚠ discord channel 556\s+a forum that requires a tag on every post and has no tag "
        r"named 'en' \(1 of 20 tags\): give the bot Manage Channels there so it adds its "
        r"tags, or add a tag named 'en'$"
    )
    assert re.match(warned, lines["556"])
    assert ("GET", "/channels/555/messages") not in discord.requests


def test_doctor_re_enables_a_channel_the_post_disabled_once_it_answers(
    platforms: tuple[FakeSlack, FakeDiscord], capsys: pytest.CaptureFixture[str], store_url: str
) -> None:
    """A channel disabled as gone (the bot was not in it) and now reachable: `doctor` says
    so and puts it back on the daily post, which posts to it again."""
    from datetime import UTC, datetime

    from bot.store import Store

    store = Store(store_url)
    for key in ("slack:C1", "slack:C1#digest-amd"):  # the daily post and a topic digest
        store.ledger.destination_failed(key, "Slack says not_in_channel", 1, datetime.now(UTC))
    store.close()
    code, out, _ = run(capsys, "doctor")
    assert code == 0, out
    assert re.search(r"✓ slack:C1\s+was disabled as gone \(Slack says not_in_channel\); "
                     r"reachable now: re-enabled", out)  # fmt: skip
    assert "✓ slack:C1#digest-amd" in out
    store = Store(store_url)
    assert store.ledger.disabled() == {}
    store.close()


def test_doctor_names_each_broken_setting_and_channel_without_secrets(
    platforms: tuple[FakeSlack, FakeDiscord],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slack, discord = platforms
    monkeypatch.setenv("VLLM_REPORT_LANG", "fr")
    monkeypatch.delenv("SLACK_APP_TOKEN")  # half-configured: posts, no commands
    monkeypatch.setenv("SLACK_CHANNELS", "C1,C9")
    slack.dead["C9"] = "not_in_channel"
    monkeypatch.setenv("DISCORD_CHANNELS", "111,222")
    discord.forbidden.add("222")
    code, out, _ = run(capsys, "doctor")
    assert code == 2  # a setting is wrong
    failed = [line for line in out.splitlines() if line.startswith("✗")]
    assert len(failed) == 3, out
    assert "VLLM_REPORT_LANG" in failed[0] and "'fr' is not a report language" in failed[0]
    said = [line for line in out.splitlines() if "slash commands are off" in line]
    assert len(said) == 1 and said[0].startswith("✓") and "SLACK_APP_TOKEN" in said[0]
    assert any("C9" in line and "/invite" in line for line in failed)
    assert any("222" in line and "Read Message History" in line for line in failed)
    assert any(line.startswith("✓ github") for line in out.splitlines())  # checks go on
    assert out.splitlines()[-1].startswith("3 of ")
    assert not any(secret in out for secret in CANARIES.values())


def test_doctor_github_unreachable_exits_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_API_URL", "http://127.0.0.1:9")
    code, out, _ = run(capsys, "doctor")
    assert code == 1
    assert re.search(
        r"^✗ github\s+cannot reach GitHub at http://127.0.0.1:9 .*GITHUB_API_URL", out, re.M
    )


def test_doctor_names_a_missing_repository(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VLLM_REPORT_REPO", "owner/missing")
    code, out, _ = run(capsys, "doctor")
    assert code == 1 and "has no repository 'owner/missing'" in out


# -- backfill ------------------------------------------------------------------------------


def test_backfill_fills_day_by_day_then_is_idle(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    code, out, err = run(capsys, "backfill", "2026-03-20..2026-03-26", "--cutoff", "11:43")
    assert code == 0, err
    asked = len(fake_github.requests)
    assert f"7 report days; 7 archived now, 0 already archived; {asked} GitHub requests" in out
    assert "7/7 days" in err and f"{asked} requests" in err and "rate limit 4999 left" in err
    folder = clean_env / "data" / "archive" / "vllm-project__vllm"
    assert sorted(p.name for p in folder.glob("*.en.md")) == [
        f"2026-03-{day}.en.md" for day in range(20, 27)
    ]
    code, out, _ = run(capsys, "backfill", "2026-03-20..2026-03-26", "--cutoff", "11:43")
    assert code == 0 and "0 archived now, 7 already archived; 0 GitHub requests" in out
    assert len(fake_github.requests) == asked  # idle: nothing asked


def test_backfill_goes_on_where_it_stopped(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """GitHub fails half-way: the days done stay archived, one sentence says where it stopped
    and what to do; the second run fetches only the days left."""
    monkeypatch.setenv("VLLM_REPORT_GITHUB_RETRIES", "0")
    fake_github.fault_rule = lambda index, path: Fault.server_error(502) if index >= 30 else None
    code, out, _ = run(capsys, "backfill", "2026-03-20..2026-03-26", "--cutoff", "11:43")
    assert code == 1
    match = re.search(
        r"(\d) archived now.*stopped at (2026-03-2\d): GitHub.*run the same command again", out
    )
    assert match is not None, out
    done = int(match.group(1))
    assert 0 < done < 7
    fake_github.fault_rule = None
    code, out, _ = run(capsys, "backfill", "2026-03-20..2026-03-26", "--cutoff", "11:43")
    assert code == 0 and f"{7 - done} archived now, {done} already archived" in out


def test_backfill_refuses_days_not_finished(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "backfill", "today")
    assert code == 2 and "holds no finished report day" in err


# -- demo ----------------------------------------------------------------------------------


def test_demo_works_offline_without_settings_and_the_readme_excerpt_is_true(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """No network (GitHub is nowhere), a broken setting in the environment (the demo reads
    none): the real report of 2026-03-25, its Slack post, the site written; the README's
    excerpt is what the demo prints."""
    monkeypatch.setenv("GITHUB_API_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("VLLM_REPORT_LANG", "fr")
    monkeypatch.setenv("COLUMNS", "100")
    code, out, err = run(capsys, "demo", "--output", str(tmp_path / "demo"))
    assert code == 0, err
    assert "New issues 29" in out and "Merged PRs 44" in out  # the published counts
    assert "#vllm-daily" in out and "+ 4 replies in the thread" in out
    site = tmp_path / "demo" / "site"
    assert f"{site / 'index.html'}" in out.replace("\n", "")
    assert sorted(p.name for p in site.iterdir() if p.name.startswith("2026")) == [
        "2026-03-11", "2026-03-24", "2026-03-25"]  # fmt: skip
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    excerpt = readme.split("The start of its output:\n\n```text\n", 1)[1].split("```", 1)[0]
    shown = [line.rstrip() for line in out.splitlines()]
    for line in excerpt.splitlines():
        assert line.rstrip() in shown, line


def test_demo_in_chinese_of_another_day(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(
        capsys, "demo", "--lang", "zh", "--day", "2026-03-24", "--output", str(tmp_path)
    )
    assert code == 0 and "2026-03-24" in out and "新" in out
    code, _, err = run(capsys, "demo", "--day", "2026-03-01", "--output", str(tmp_path))
    assert code == 2 and "2026-03-11, 2026-03-24, 2026-03-25" in err
