"""When a release came out, as a window from one needs it: read from GitHub's releases once
and kept, a tag with no release dated by its commit, the newest release read again only
after an hour, and a tag GitHub does not know said in one sentence naming the newest.

Also the whole path: `vllm-report show "since v0.18.0"` and `/vllm-report since v0.18.0`
report from the release's moment, with the release in the title in both languages. The
release times are the test's own (not vLLM's real publication times)."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.collect.source import GitHubSource
from bot.collect.sync import Archiver
from bot.model.windows import WindowError
from bot.store import Store
from tests.anchor_data import REPO
from tests.fakes.github_api import FakeGitHub

NOW = datetime(2026, 3, 26, 5, 0, tzinfo=UTC)  # 13:00 in Shanghai: the 03-26 day in progress
V18 = datetime(2026, 3, 24, 6, 0, tzinfo=UTC)


def released(fake: FakeGitHub) -> FakeGitHub:
    fake.releases = [
        ("v0.17.0", datetime(2026, 3, 10, 9, 30, tzinfo=UTC), False, False),
        ("v0.18.0rc1", datetime(2026, 3, 21, 8, 0, tzinfo=UTC), True, False),
        ("v0.18.0", V18, False, False),
        ("v0.18.1rc1", datetime(2026, 3, 25, 0, 0, tzinfo=UTC), True, False),
        ("v0.19.0", datetime(2026, 3, 25, 1, 0, tzinfo=UTC), False, True),  # a draft
    ]
    fake.history[REPO] = [("a" * 40, datetime(2026, 3, 1, 2, 0, tzinfo=UTC))]
    fake.tags["v0.16.9"] = "a" * 40  # a tag with no release
    return fake


def archiver(fake: FakeGitHub, tmp_path: Path) -> Archiver:
    store = Store(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    return Archiver(store, GitHubSource(REPO, api_url=fake.url, retries=0))


def asked(fake: FakeGitHub) -> list[str]:
    return [r.path.rsplit("/", 2)[-2] + "/" + r.path.rsplit("/", 1)[-1] for r in fake.requests]


def test_a_release_is_read_once_then_kept(fake_github: FakeGitHub, tmp_path: Path) -> None:
    archive = archiver(released(fake_github), tmp_path)
    fake_github.reset_log()
    assert archive.release(REPO, "v0.18.0", NOW).at == V18
    assert len(fake_github.requests) == 1  # one page of releases
    assert archive.release(REPO, "0.18.0", NOW).at == V18  # typed without v: the archive
    assert archive.release(REPO, "v0.17.0", NOW).tag == "v0.17.0"
    assert len(fake_github.requests) == 1


def test_the_newest_is_no_pre_release_nor_draft_and_is_read_again_after_an_hour(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    archive = archiver(released(fake_github), tmp_path)
    fake_github.reset_log()
    assert archive.release(REPO, None, NOW).tag == "v0.18.0"
    assert archive.release(REPO, None, NOW + timedelta(minutes=30)).tag == "v0.18.0"
    assert len(fake_github.requests) == 1
    fake_github.releases.append(("v0.18.1", NOW + timedelta(minutes=50), False, False))
    assert archive.release(REPO, None, NOW + timedelta(hours=2)).tag == "v0.18.1"
    assert len(fake_github.requests) == 2


def test_a_tag_without_a_release_is_dated_by_its_commit_and_an_unknown_one_is_a_sentence(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    archive = archiver(released(fake_github), tmp_path)
    assert archive.release(REPO, "v0.16.9", NOW).at == datetime(2026, 3, 1, 2, 0, tzinfo=UTC)
    with pytest.raises(WindowError) as raised:
        archive.release(REPO, "v0.99.0", NOW)
    assert str(raised.value) == (
        "vllm-project/vllm has no release or tag `v0.99.0`; its newest release is v0.18.0"
    )
    with pytest.raises(WindowError, match=r"the archive holds no release v0\.15\.0"):
        archive.reading_only().release(REPO, "v0.15.0", NOW)


@pytest.fixture
def cli_now(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fake_github: FakeGitHub) -> None:
    released(fake_github)
    monkeypatch.setenv("VLLM_REPORT_DATA_DIR", str(tmp_path))
    monkeypatch.setattr("bot.cli.common.now", lambda: NOW)


def test_show_since_a_release_reports_from_it_with_the_release_in_the_title(
    cli_now: None, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    assert main(["show", "since", "v0.18.0", "--format", "json", "--counts-only"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["window"]["label"] == "since v0.18.0"
    assert report["window"]["start"] == "2026-03-24T14:00:00+08:00"
    for lang, title in (("en", "# vLLM report · since v0.18.0"), ("zh", "v0.18.0 以来")):
        assert main(["show", "since", "v0.18.0", "--lang", lang, "--counts-only"]) == 0
        assert title in capsys.readouterr().out.splitlines()[0]
    assert main(["show", "since", "v0.99.0"]) == 2
    err = capsys.readouterr().err
    assert "has no release or tag `v0.99.0`; its newest release is v0.18.0" in err
    assert "Traceback" not in err


def test_the_slash_command_reads_since_and_a_release_range(cli_now: None, tmp_path: Path) -> None:
    from bot.app import commands, open_bot
    from bot.commands.base import Asker
    from bot.model.rules import load_rules
    from bot.platforms.registry import platform_named
    from config.settings import load_settings

    opened = open_bot(load_settings(), load_rules(None), clock=lambda: NOW)
    try:
        table = commands(opened)
        report = table.table["vllm-report"]
        since = table.read(report, "since v0.18.0 zh")
        assert (since.when, since.lang) == ("since v0.18.0", "zh")  # type: ignore[attr-defined]
        latest = table.read(report, "since last release")
        assert latest.when == "since last release"  # type: ignore[attr-defined]
        checked = report.check(table.services, table.read(report, "v0.17.0..v0.18.0"))
        assert checked.query.window.label == "v0.17.0..v0.18.0"
        assert checked.query.window.end == V18
        answer = asyncio.run(table.answer(report, Asker("slack", "U1", "C1"), since))
        drawn = answer.draw(platform_named("slack"))
        text = json.dumps(drawn, ensure_ascii=False)
        assert "v0.18.0 以来" in text
        wrong = asyncio.run(
            table.answer(report, Asker("slack", "U1", "C1"), table.read(report, "since v0.99.0"))
        )
        assert "has no release or tag `v0.99.0`" in json.dumps(wrong.__dict__, default=str)
    finally:
        opened.close()
