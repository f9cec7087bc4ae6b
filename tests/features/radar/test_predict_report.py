"""The radar's warnings in the daily report's Plugins section, on a real break served by the
fake GitHub (tests/features/radar/predict_day.py): vLLM's PR that removes `SharedFusedMoE`
and `FusedMoE`'s `reduce_results` is warned of at tpu-inference 0.19.0's real lines, in
both languages and on every surface; what could not be read is "not evaluated"; a plugin
whose head did not move costs one request and no download."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.features.radar.outline import radar_of
from bot.model.query import ReportQuery
from bot.model.report import Report
from tests.fakes.github_api import FakeGitHub
from tests.features.radar.predict_day import (
    BREAK,
    DOCS,
    FAILING,
    LAYER,
    MOE,
    TPU,
    UPSTREAM,
    now,
    predict_env,
    predict_github,
    requests_to,
    touch,
    window,
)

SHARED = (
    "⚠ [vllm#41001](https://github.com/vllm-project/vllm/pull/41001) (open) removes "
    "`SharedFusedMoE`, used at 5 places in tpu-inference "
    "(`tpu_inference/layers/vllm/custom_ops/fused_moe.py:16`, "
    "`tpu_inference/layers/vllm/custom_ops/fused_moe.py:30`, "
    "`tpu_inference/layers/vllm/custom_ops/fused_moe.py:31`, …)"
)
REDUCE = (
    "(open) changes the signature of `FusedMoE.__init__`: drops `reduce_results`, reorders "
    "the positional parameters, adds `swiglu_limit`, …, "
)
CALLS = (
    "used at 2 places in tpu-inference (`tests/layers/vllm/test_unquantized.py:500`, "
    "`tests/layers/vllm/test_unquantized.py:623`)"
)
NOT_EVALUATED = (
    "Not evaluated: 1 upstream PR (vllm#41003: GitHub kept failing (500)), vllm-gaudi's "
    "source (not found), 1 of tpu-inference's 4 Python files."
)


@pytest.fixture
def github(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[FakeGitHub]:
    with predict_github() as fake:
        predict_env(monkeypatch, fake, tmp_path)
        yield fake


def daily(n: int = 0) -> Report:
    """Day n's report as the daily run asks for it, two hours after the day ends."""
    from bot.app import open_bot
    from bot.model.rules import load_rules
    from config.settings import load_settings

    bot = open_bot(load_settings(), load_rules(None), clock=lambda: now(n))
    try:
        return bot.reports.report(ReportQuery(UPSTREAM, window(n), queue=True))
    finally:
        bot.close()


def plugins_of(markdown: str, title: str = "## 🔌 Plugins") -> str:
    return markdown.split(title, 1)[1].split("\n## ", 1)[0]


def test_the_plugins_section_warns_of_the_pr_at_the_plugins_real_lines(
    github: FakeGitHub,
) -> None:
    from formatters.json_report import render_json
    from formatters.markdown import render_markdown

    report = daily()
    section = plugins_of(render_markdown(report, "en"))
    assert "### Will break: upstream PRs that take away what plugins use" in section
    assert f"- {SHARED}\n" in section
    warned = section.splitlines()
    reduce = next(line for line in warned if REDUCE in line)
    assert reduce.endswith(CALLS)
    # The most sites first; the PR that changes nothing a plugin uses is no warning; the
    # one GitHub cannot list and the plugin without a tarball are said, never "no break".
    assert section.index("removes `SharedFusedMoE`") < section.index("`FusedMoE.__init__`")
    assert f"vllm#{DOCS}" not in section
    # LAYER changes layer.py alone: the plugin's `FusedMoE` is the package's re-export,
    # read in the package's unchanged `__init__.py` at vLLM main's head.
    layer = next(line for line in warned if f"vllm#{LAYER}](" in line)
    assert "(open) changes the signature of `FusedMoE.__init__`: drops `reduce_results`" in layer
    assert layer.endswith(CALLS)
    assert len(requests_to(github, f"/contents/{MOE}/__init__.py")) == 3  # base, head, main
    assert NOT_EVALUATED in section
    # The module SharedFusedMoE lived in went too, at the same lines: told once.
    assert "removes module" not in section
    zh = plugins_of(render_markdown(report, "zh"), "## 🔌 硬件插件")
    assert "### 即将出错：上游 PR 删改了插件用到的代码" in zh
    assert (
        "（未合并）删除了 `SharedFusedMoE`，tpu-inference 中有 5 处用到"
        "（`tpu_inference/layers/vllm/custom_ops/fused_moe.py:16`、"
    ) in zh
    assert "修改了 `FusedMoE.__init__` 的签名：删除参数 `reduce_results`" in zh
    assert (
        "未评估：1 个上游 PR（vllm#41003：GitHub 持续出错（500）），"
        "vllm-gaudi 的源码（仓库不存在），tpu-inference 的 4 个 Python 文件中的 1 个。"
    ) in zh
    data = json.loads(render_json(report))["radar"]["warnings"]
    shared = next(w for w in data["warnings"] if w["name"].endswith(".SharedFusedMoE"))
    assert shared["stage"] == "open" and shared["number"] == BREAK
    assert {"file": "tpu_inference/layers/vllm/custom_ops/fused_moe.py", "line": 31} in [
        {"file": s["file"], "line": s["line"]} for s in shared["sites"]
    ]
    assert {n["number"] for n in data["not_evaluated"]} == {FAILING, None}
    (partly,) = [n for n in data["not_evaluated"] if n["unread"]]
    assert partly["plugin_repo"] == TPU and (partly["unread"], partly["files"]) == (1, 4)
    assert partly["why"].startswith("1 of its Python files could not be read: tools/templates/")
    assert data["evaluated"] == 2


def test_the_chat_post_carries_the_warning_in_its_plugins_reply(github: FakeGitHub) -> None:
    from bot.platforms.registry import chat_parts
    from tests.slack_text import message_text

    report = daily()
    slack = chat_parts("slack", report, "en")
    headline = json.dumps(slack[0][1], ensure_ascii=False)
    assert "🔌 Plugins: 2 upstream PRs will break tpu-inference" in headline
    reply = message_text(dict(slack)["plugins"])  # rich_text read back as a person sees it
    assert (
        "⚠ <https://github.com/vllm-project/vllm/pull/41001|vllm#41001> (open) removes "
        "`SharedFusedMoE`, used at 5 places in tpu-inference "
        "(`tpu_inference/layers/vllm/custom_ops/fused_moe.py:16`"
    ) in reply
    assert "`tests/layers/vllm/test_unquantized.py:500`" in reply
    assert "Not evaluated: 1 upstream PR (vllm#41003" in reply
    discord = json.dumps(dict(chat_parts("discord", report, "zh"))["plugins"], ensure_ascii=False)
    # Discord's Markdown escaped in our words: the code spans show as typed.
    assert (
        "[vllm#41001](https://github.com/vllm-project/vllm/pull/41001)（未合并）删除了" in discord
    )
    assert "tpu\\\\_inference/layers/vllm/custom\\\\_ops/fused\\\\_moe.py:16" in discord


def test_a_day_the_plugin_did_not_move_costs_its_head_and_no_download(
    github: FakeGitHub,
) -> None:
    """Day two: tpu-inference's head is the same commit, the PR was not pushed (its head
    is the same): one request for the plugin's head, none for its tarball or the PR's
    files, and the warning stands."""
    from formatters.markdown import render_markdown

    daily(0)
    assert len(requests_to(github, f"/repos/{TPU}/tarball/")) == 1
    assert len(requests_to(github, f"/_codeload/{TPU}/")) == 1
    github.reset_log()
    for number in (BREAK, DOCS, FAILING, LAYER):
        touch(github, number, 1)
    report = daily(1)
    assert requests_to(github, f"/repos/{TPU}/tarball/") == []
    assert requests_to(github, "/_codeload/") == []
    heads = [
        r for r in github.requests if r.path == f"/repos/{TPU}/commits" and "path" not in r.query
    ]
    assert [r.query for r in heads] == [{"per_page": ["1"]}]  # its head: one request
    assert requests_to(github, f"/pulls/{BREAK}/files") == []  # archived by (PR, head)
    assert requests_to(github, "/contents/vllm/model_executor/layers/fused_moe/") == []
    assert len(requests_to(github, f"/pulls/{FAILING}/files")) == 2  # asked again, failing
    section = plugins_of(render_markdown(report, "en"))
    assert "removes `SharedFusedMoE`, used at 5 places in tpu-inference" in section


def test_show_of_the_day_later_has_the_warnings_the_run_made(
    github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main
    from formatters.markdown import render_markdown

    posted = plugins_of(render_markdown(daily(), "en"))
    asked = len(github.requests)
    assert main(["show", window().label, "--cutoff", "11:45"]) == 0
    shown = plugins_of(capsys.readouterr().out)
    assert shown == posted and SHARED in shown
    assert len(requests_to(github, "/tarball/")) == 2  # none more: from the archive
    assert all("/pulls/" not in r.path for r in github.requests[asked:])


def test_without_warnings_or_news_there_is_no_section(github: FakeGitHub) -> None:
    """A day whose PRs change nothing the plugins use and every source read: no section
    (a "nothing will break" line every day would teach readers to skip it)."""
    github.items[BREAK].updated_at = window().start - window().duration  # not the day's
    github.items[FAILING].updated_at = window().start - window().duration
    github.items[LAYER].updated_at = window().start - window().duration
    github.tarballs[
        ("vllm-project/vllm-gaudi", github.history["vllm-project/vllm-gaudi"][0][0])
    ] = github.tarballs[(TPU, github.history[TPU][0][0])]
    report = daily()
    found = radar_of(report)
    assert found is not None and found.forecast is not None
    assert found.forecast.warnings == ()
    # Each plugin read in part (its template): said beside news, no news alone.
    assert [n.partial for n in found.forecast.not_evaluated] == [True, True]
    assert found.forecast.evaluated == 0  # DOCS changes a module no plugin uses
    assert report.part("plugins") is not None
    from formatters.markdown import render_markdown

    assert "## 🔌 Plugins" not in render_markdown(report, "en")
