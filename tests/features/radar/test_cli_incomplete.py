"""`vllm-report radar` when GitHub cannot be read for plugins (issue 53): one short sentence
names each plugin with its reason and says what to do (GitHub's whole words are in `-v`'s
log and the JSON's notes), exit status 1 as for every GitHub failure (docs/commands.md), no
traceback; in Chinese with `--lang zh`, its window and its notes too."""

from __future__ import annotations

import json
import re

import pytest

from tests.fakes.github_api import FakeGitHub, Fault
from tests.features.radar.test_cli import github, run  # noqa: F401

WEEK = "2025-09-01..2025-09-07"
# Six watched plugins, each failing its own way; vllm-xpu is a repository GitHub does not
# have (its search is refused with a 422, its files answer 404).
FAILING = {
    "vllm-project/vllm-ascend": Fault(status=404, body={"message": "Not Found"}),
    "vllm-project/vllm-gaudi": Fault(
        status=403, body={"message": "Resource not accessible by integration"}
    ),
    "vllm-project/tpu-inference": Fault.server_error(500),
    "vllm-project/vllm-spyre": Fault.server_error(503),
    "vllm-project/vllm-metal": Fault(status=200, body={"status": "ok"}),  # not GitHub's JSON
}
SIX = [*FAILING, "vllm-project/vllm-xpu"]
# A doubled stop: ".." not part of "..." nor a range of days (`2025-09-01..2025-09-07`).
DOUBLED = re.compile(r"(?<!\.)\.\.(?![.\d])|[.。]。")


def fail_each(fake: FakeGitHub) -> None:
    """Every request about each plugin of FAILING answers its fault (searches too: the fake
    serves a search from the repository its `repo:` names)."""
    for repo, fault in FAILING.items():
        # A view of the fake answers its own faults (mypy: a method is not assigned to).
        setattr(fake.repos[repo], "next_fault", lambda path, fault=fault: fault)  # noqa: B010


def test_six_unreadable_plugins_are_one_short_sentence_with_what_to_do(
    github: FakeGitHub,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("VLLM_REPORT_PLUGINS", ",".join(SIX))
    # One retry: the 5xx plugins fail the same after it, without 20 s of backoff.
    monkeypatch.setenv("VLLM_REPORT_GITHUB_RETRIES", "1")
    fail_each(github)
    code, out, err = run(capsys, "radar", WEEK)
    assert code == 1 and "Traceback" not in err  # 1: GitHub failed, as every command says it
    (line,) = err.splitlines()
    said = (
        "6 of 6 plugin repositories could not be read (vllm-ascend: not found; vllm-gaudi: "
        "access refused (403); tpu-inference: GitHub kept failing (500); vllm-spyre: GitHub "
        "kept failing (503); vllm-metal: not answered like GitHub's API; vllm-xpu: query "
        "rejected (422)): check the names in VLLM_REPORT_PLUGINS, check that GITHUB_TOKEN can "
        "read them, check GITHUB_API_URL, or try again later."
    )
    assert line == (
        f"vllm-report: incomplete: {said} `vllm-report -v radar …` shows GitHub's own words "
        "for each."
    )
    assert len(line) < 500  # was 1,500 characters of six GitHub sentences glued with ";"
    assert f"\n**Incomplete:** {said}\n" in out
    assert not DOUBLED.search(out + err)
    # GitHub's own words: in the log with -v (and the hint is not given again) …
    code, _, err = run(capsys, "-v", "radar", WEEK)
    assert code == 1 and "Traceback" not in err
    assert "vllm-project/vllm-ascend could not be read: GitHub has no repository" in err
    assert "shows GitHub's own words" not in err
    # … and whole in the JSON's notes (a contract: docs/contracts.md).
    code, out, _ = run(capsys, "radar", WEEK, "--format", "json")
    notes = json.loads(out)["notes"]
    assert code == 1 and len(notes) == 6
    assert notes[1] == (
        "vllm-project/vllm-gaudi could not be read: GitHub answered 403: Resource not "
        "accessible by integration"
    )


def test_one_reason_for_every_plugin_is_said_once(
    github: FakeGitHub,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("VLLM_REPORT_PLUGINS", "vllm-project/vllm-xpu,vllm-project/vllm-hpu")
    code, out, err = run(capsys, "radar", WEEK, "--format", "slack")
    assert code == 1
    said = (
        "2 of 2 plugin repositories could not be read (all: query rejected (422)): check the "
        "names in VLLM_REPORT_PLUGINS."
    )
    assert err.startswith(f"vllm-report: incomplete: {said} `vllm-report")
    assert f"Incomplete: {said}" in json.dumps(json.loads(out))


def test_the_chinese_radar_says_its_window_and_what_is_incomplete_in_chinese(
    github: FakeGitHub,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("VLLM_REPORT_PLUGINS", "vllm-project/vllm-gaudi,vllm-project/vllm-xpu")
    code, out, err = run(capsys, "radar", "7d", "--lang", "zh")
    assert code == 1 and "Traceback" not in err
    assert out.startswith("# 插件故障雷达 · 最近 7 天\n")
    said = (
        "2 个插件仓库中有 1 个无法读取（vllm-xpu：查询被拒绝（422））：请检查 VLLM_REPORT_PLUGINS "
        "中的名称。"
    )
    assert f"\n**数据不完整：** {said}\n" in out
    hint = "`vllm-report -v radar …` 可显示 GitHub 对每个插件的原话。"
    assert err == f"vllm-report: 数据不完整：{said}{hint}\n"
    for english in ("last 7 days", "Incomplete", "incomplete", "could not be read"):
        assert english not in out + err
    # The chat message too, with a window in progress (the English note, in Chinese).
    code, out, err = run(capsys, "radar", "today", "--lang", "zh", "--format", "discord")
    embed = json.loads(out)["embeds"][0]
    assert code == 1 and "window in progress" not in out + err
    assert "数据不完整：2 个插件仓库中有 1 个无法读取（vllm-xpu：" in embed["description"]
    assert "vllm-gaudi：时间窗口尚未结束：活动截至 " in embed["description"]
