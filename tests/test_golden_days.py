"""Every fixture day as readers and programs get it, byte for byte: the Markdown report, the
Slack and Discord daily posts and the JSON contract, in English and Chinese.

These are the files a restructuring must not change (UPDATE_GOLDEN=1 rewrites them on a
developer's machine; read the diff before committing it).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from tests.anchor_data import AnchorDay, anchor_days
from tests.fakes.github_api import FakeGitHub
from tests.golden import check_golden

LINK = "https://reports.example.org/vllm"  # the site the chat posts link to
FORMATS = {"markdown": "report-{day}.{lang}.md", "json": "json-{day}.{lang}.json"}
CHAT = {"slack": "slack-{day}{suffix}.json", "discord": "discord-{day}{suffix}.json"}


def show(capsys: pytest.CaptureFixture[str], day: AnchorDay, lang: str, fmt: str) -> str:
    code = main(["show", day.label, "--cutoff", day.cutoff, "--lang", lang, "--format", fmt])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("day", anchor_days(), ids=lambda d: d.label)
def test_report_and_json_contract(
    day: AnchorDay,
    lang: str,
    fmt: str,
    fake_github: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
) -> None:
    check_golden(FORMATS[fmt].format(day=day.label, lang=lang), show(capsys, day, lang, fmt))


@pytest.mark.parametrize("platform", list(CHAT))
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("day", anchor_days(), ids=lambda d: d.label)
def test_daily_chat_post(
    day: AnchorDay,
    lang: str,
    platform: str,
    fake_github: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("VLLM_REPORT_SITE_URL", LINK)
    messages = json.loads(show(capsys, day, lang, platform))
    suffix = "" if lang == "en" else f".{lang}"
    check_golden(
        CHAT[platform].format(day=day.label, suffix=suffix),
        json.dumps(messages, ensure_ascii=False, indent=2) + "\n",
    )
