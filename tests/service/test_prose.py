"""Optional model prose, end to end: the real `openai` client, the fake server, the checks.

Sections are asked for once each and cached by their inputs; a model that fails, is slow
or runs past the token budget leaves the deterministic text and a note, never a late or
missing report. The wrong claims of each kind are in tests/prose/test_wrong_claims.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.analyze.citations import check
from bot.cli import main
from tests.anchor_data import anchor_days
from tests.fakes.github_api import FakeGitHub
from tests.fakes.openai_api import FakeOpenAI, Scripted
from tests.prose.script import ScriptedModel, asked, facts_of, section_of

DAY = anchor_days()[2]  # 2026-03-25
NOTES = {
    "en": {
        38139: "#38139 would drop redundant device copies of pooling token IDs on CPU-only runs.",
        38050: "#38050 brings the FlashInfer NVFP4 CuTe DSL MoE kernel into vLLM.",
    },
    "zh": {
        38139: "#38139 提议去掉纯 CPU 池化时 token ID 的多余设备拷贝。",
        38050: "#38050 接入了 FlashInfer 的 NVFP4 CuTe DSL MoE 内核。",
    },
}
SUMMARY = {
    "en": "The day was about MoE kernels: #38050 merged, and #37880 lets each draft model "
    "pick its MoE backend.",
    "zh": "当天的重点是 MoE 内核：#38050 已合并，#37880 让每个草稿模型可以选择自己的 MoE 后端。",
}
THEMES = {
    "en": ["MoE kernels: #38050 and #37880 both merged."],
    "zh": ["MoE 内核：#38050 与 #37880 均已合并。"],
}


def model(**failures: Scripted) -> ScriptedModel:
    return ScriptedModel(notes=NOTES, summary=SUMMARY, themes=THEMES, failures=failures)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def show_json(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    code, out, err = run(
        capsys, "show", DAY.label, "--cutoff", DAY.cutoff, "--format", "json", *extra
    )
    assert code == 0, err
    assert "Traceback" not in err
    data: dict[str, Any] = json.loads(out)
    return data


@pytest.fixture
def llm_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setenv("LLM_MODEL", "fake-model")
    monkeypatch.setenv("LLM_API_KEY", "sk-CANARY-llm-key")
    monkeypatch.setenv("LLM_RETRIES", "0")
    return monkeypatch


def test_one_request_per_section_and_the_checked_text_shown(
    fake_github: FakeGitHub, llm_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Stories and the day are asked for in one request each; the notes, summary and themes
    that pass the checks are shown marked, and the footer names the model."""
    with FakeOpenAI(model()) as llm:
        llm_env.setenv("LLM_BASE_URL", llm.url)
        data = show_json(capsys)
        code, markdown, err = run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff)
        requests = list(llm.requests)
    assert code == 0, err
    assert [section_of(r) for r in requests] == ["stories", "day"]  # no thread was read whole
    prose = data["prose"]
    assert prose["notes"] == {str(n): t for n, t in NOTES["en"].items()}
    assert prose["summary"] == {"en": SUMMARY["en"]}
    assert prose["themes"] == THEMES["en"]
    assert prose["cost"] == {"calls": 2, "cached": 0, "tokens_sent": 20}  # the fake's usage
    assert data["stats"]["merged_prs"] == DAY.counts["merged_prs"]  # figures are never the model's
    assert f"✍️ {SUMMARY['en']}" in markdown and f"✍️ {THEMES['en'][0]}" in markdown
    assert f"✍️ {NOTES['en'][38050]}" in markdown
    assert "written by fake-model" in markdown and "4 shown, 0 contradicted" in markdown
    stories = facts_of(requests[0])["stories"]
    assert [s["number"] for s in stories][:2] == [38139, 38050]  # the key changes first
    assert {s["state"] for s in stories} >= {"open", "merged"}  # the model is told the state
    assert "sk-CANARY-llm-key" not in markdown + err


def test_the_chinese_edition_is_asked_for_in_chinese(
    fake_github: FakeGitHub, llm_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeOpenAI(model()) as llm:
        llm_env.setenv("LLM_BASE_URL", llm.url)
        data = show_json(capsys, "--lang", "zh")
        system = llm.requests[0]["messages"][0]["content"]
    assert "规则" in system and "Rules:" not in system
    assert data["prose"]["summary"] == {"zh": SUMMARY["zh"]}
    assert data["prose"]["notes"]["38139"] == NOTES["zh"][38139]


def test_a_story_already_written_costs_nothing_again(
    fake_github: FakeGitHub, llm_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same report again: no request. Another report with some of the same stories (the
    AMD view of the day): only the stories not yet written are asked about."""
    with FakeOpenAI(model()) as llm:
        llm_env.setenv("LLM_BASE_URL", llm.url)
        show_json(capsys)
        first = list(llm.requests)
        again = show_json(capsys)
        assert len(llm.requests) == len(first)
        stories_and_day = len(asked(first[0])) + 1
        assert again["prose"]["cost"] == {"calls": 0, "cached": stories_and_day, "tokens_sent": 0}
        amd = show_json(capsys, "--topic", "amd")
        later = llm.requests[len(first) :]
    written = set(asked(first[0]))
    for request in later:
        assert not set(asked(request)) & written  # no story is asked about twice
    assert amd["prose"]["cost"]["cached"] >= 1


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        (Scripted(content="Sure! Here is your summary: things happened."), "not the JSON"),
        (Scripted(raw_body="<html>bad gateway</html>", status=502), "answered 502"),
        (Scripted(content="{}", delay=3.0), "no answer within 1 s"),
    ],
    ids=["malformed", "http-error", "timeout"],
)
def test_model_failures_fall_back_to_the_deterministic_text(
    answer: Scripted,
    says: str,
    fake_github: FakeGitHub,
    llm_env: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A bad, failing or silent model leaves the computed summary and a note; exit 0."""
    llm_env.setenv("LLM_TIMEOUT", "1")
    with FakeOpenAI(lambda request: answer) as llm:
        llm_env.setenv("LLM_BASE_URL", llm.url)
        data = show_json(capsys)
        calls = len(llm.requests)
    assert "prose" not in data
    assert data["summary"].startswith("The day's weightiest work: ")
    assert "29 issues and 92 PRs were opened; 44 PRs were merged" in data["summary"]
    assert any(says in note for note in data["notes"])
    if says.startswith("no answer"):
        assert calls == 1  # a silent model is not asked again in the same report


def test_a_broken_section_leaves_the_others(
    fake_github: FakeGitHub, llm_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Garbage for the stories: their extracts stand, the summary is still the model's."""
    with FakeOpenAI(model(stories=Scripted(content="not json"))) as llm:
        llm_env.setenv("LLM_BASE_URL", llm.url)
        data = show_json(capsys)
    assert data["prose"]["notes"] == {}
    assert data["prose"]["summary"] == {"en": SUMMARY["en"]}
    assert any("stories: the answer was not the JSON" in note for note in data["notes"])


def test_the_report_waits_no_longer_than_the_timeout(
    fake_github: FakeGitHub, llm_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """LLM_TIMEOUT bounds all of a report's requests together: a slow first answer leaves
    too little time for the next (not started, or cut off when the time is up); the report
    goes out with what was had."""
    llm_env.setenv("LLM_TIMEOUT", "2")
    slow = model()

    def responder(request: dict[str, Any]) -> Scripted | str:
        answer = slow(request)
        return Scripted(content=str(answer), delay=1.5)

    with FakeOpenAI(responder) as llm:
        llm_env.setenv("LLM_BASE_URL", llm.url)
        data = show_json(capsys)
        sections = [section_of(r) for r in llm.requests]
    assert sections[0] == "stories" and len(sections) <= 2
    assert data["prose"]["notes"]["38050"] == NOTES["en"][38050]
    assert data["prose"]["summary"] == {}  # the day's answer would have come too late
    assert data["summary"].startswith("The day's weightiest work: ")
    # Not started (too little time left), or cut off when the report's time ran out.
    late = ("no time left of the 2 s allowed", "day: no answer within")
    assert any(word in note for note in data["notes"] for word in late), data["notes"]


def test_the_token_budget_bounds_what_is_sent(
    fake_github: FakeGitHub, llm_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With a small LLM_TOKEN_BUDGET the weightiest stories are sent, the rest are not, and
    the note says so."""
    from bot.prose.client import estimate_tokens

    llm_env.setenv("LLM_TOKEN_BUDGET", "2500")
    with FakeOpenAI(model()) as llm:
        llm_env.setenv("LLM_BASE_URL", llm.url)
        data = show_json(capsys)
        requests = list(llm.requests)
    stories = [r for r in requests if section_of(r) == "stories"]
    assert stories and 1 <= len(asked(stories[0])) < 11  # 11 stories on this day
    assert asked(stories[0])[0] == 38139  # the weightiest kept
    for request in requests:
        assert estimate_tokens([m["content"] for m in request["messages"]]) + 1200 <= 2500
    assert any("left out by the token budget" in note for note in data["notes"])


def test_check_rules_sentence_by_sentence() -> None:
    """Kept: cites a listed item, or states a report figure. Dropped: anything else."""
    result = check(
        "44 PRs merged. #1 landed. #2 is fake. 45 PRs merged. Great day! Qwen3.5 fixed in #1.",
        items={1},
        figures={"44"},
        allowed={"44", "3.5"},
    )
    assert result.text == "44 PRs merged. #1 landed. Qwen3.5 fixed in #1."
    assert result.dropped == 3
    chinese = check(
        "合并了44个PR。合并了45个PR。#9 很重要。", items={1}, figures={"44"}, allowed={"44"}
    )
    assert (chinese.text, chinese.dropped) == ("合并了44个PR。", 2)


def test_model_prose_reaches_the_daily_post_and_a_slash_command(
    fake_github: FakeGitHub,
    llm_env: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One pipeline for every entry point: the Slack daily post and a /vllm-report answer
    carry the checked model text, and the command's answer costs no request."""
    import asyncio

    from bot.adapters.slack_app import build_slack_app
    from bot.app import commands, open_bot
    from bot.model.rules import load_rules
    from config.settings import load_settings
    from tests.fakes.slack_api import FakeSlack, signed_command

    secret = "8f742231b10e8888abcd99yyyzzz85a5"
    with FakeOpenAI(model()) as llm, FakeSlack() as slack:
        for name, value in {
            "LLM_BASE_URL": llm.url,
            "SLACK_BOT_TOKEN": "xoxb-test",
            "SLACK_API_URL": slack.api_url,
            "SLACK_CHANNELS": "C1",
            "SLACK_SIGNING_SECRET": secret,
            "VLLM_REPORT_SLACK_POST_INTERVAL": "0",
            "VLLM_REPORT_CUTOFF": DAY.cutoff,
        }.items():
            llm_env.setenv(name, value)
        code, _, err = run(capsys, "post", DAY.label)
        assert code == 0, err
        daily = [p.payload for p in slack.channel_posts("C1")]
        after_post = len(llm.requests)

        settings = load_settings()
        bot = open_bot(settings, load_rules())
        service = commands(bot)

        async def ask() -> None:
            app = build_slack_app(settings, service)
            body, headers = signed_command(slack, "/vllm-report", DAY.label, secret)
            from slack_bolt.request.async_request import AsyncBoltRequest

            await app.async_dispatch(AsyncBoltRequest(body=body, headers=headers))
            for _ in range(600):  # the answer follows the ack: wait for its two messages
                if len(slack.responses) >= 2:
                    return
                await asyncio.sleep(0.05)

        asyncio.run(ask())
        bot.close()
        model_calls = len(llm.requests)
    headline = json.dumps(daily[0]["blocks"], ensure_ascii=False)
    assert f"✍️ {NOTES['en'][38139]}" in headline  # the top story's checked note
    answer = json.dumps([args for _, args in slack.responses], ensure_ascii=False)
    assert f"✍️ {SUMMARY['en']}" in answer  # the summary, asked for
    assert after_post == 2 and model_calls == after_post  # the answer came from the cache


def test_a_story_note_may_quote_a_figure_from_its_own_bodies_only() -> None:
    """'up to 5%' is in #36716's description: kept. '12%' is nowhere: dropped."""
    from bot.analyze import analyze
    from bot.model.rules import load_rules
    from bot.prose.inputs import story_units
    from bot.prose.vetting import Vetter
    from tests.factories import REPO, WINDOW_0326, item

    at = WINDOW_0326.start
    pr = item(
        36716,
        "pr",
        title="[ROCm]: Update rope+kvcache fusion conditions",
        created_at=at,
        closed_at=at,
        merged_at=at,
        body="Follow-up to #35601; the vLLM RoPE custom op regresses MI355 perf by up to 5%.",
    )
    report = analyze([pr], WINDOW_0326, repo=REPO, rules=load_rules(), complete=True)
    unit = next(u for u in story_units(report) if u.number == 36716)
    vetted = Vetter(report, {}).vet(
        "It stops a RoPE op that cost MI355 up to 5% (#36716). It wins 12% too.", unit
    )
    assert vetted.text == "It stops a RoPE op that cost MI355 up to 5% (#36716)."
    assert [why for _, why in vetted.rejected] == ["writes 12, a figure it was not given"]
