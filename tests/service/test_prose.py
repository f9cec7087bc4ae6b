"""Optional model prose, end to end: real `openai` client, fake server, citation check."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.analyze.citations import check
from bot.cli import main
from tests.anchor_data import anchor_days
from tests.fakes.github_api import FakeGitHub
from tests.fakes.openai_api import FakeOpenAI, Scripted

DAY = anchor_days()[2]


def facts_of(request: dict[str, Any]) -> dict[str, Any]:
    return json.loads(request["messages"][-1]["content"])


def honest_and_not(request: dict[str, Any]) -> str:
    """A model that tells the truth twice, then invents an item, a figure and a claim; its
    story notes cite another story's item, a figure of no body, and an unknown story."""
    facts = facts_of(request)
    merged = facts["counts"]["merged_prs"]
    key, other = facts["stories"][0]["lead"], facts["stories"][1]["lead"]
    return json.dumps(
        {
            "summary": (
                f"{merged} PRs were merged, led by #{key}. "
                f"Another story was #{other}. "
                "A crash in #99999 took everything down. "
                f"In all {merged + 1} PRs landed (#{key}). "
                "The community is thriving."
            ),
            "stories": {
                str(key): "It speeds up decoding on MI355. It makes decoding 7.4x faster.",
                str(other): f"It builds on #{key}.",
                "12345": "An item nobody asked about.",
            },
        }
    )


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def llm_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setenv("LLM_MODEL", "fake-model")
    monkeypatch.setenv("LLM_API_KEY", "sk-CANARY-llm-key")
    monkeypatch.setenv("LLM_RETRIES", "0")
    return monkeypatch


def test_model_prose_is_checked_and_cited(
    fake_github: FakeGitHub, llm_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Foreign citations, changed figures and uncited claims are dropped; the rest is shown."""
    with FakeOpenAI(honest_and_not) as llm:
        llm_env.setenv("LLM_BASE_URL", llm.url)
        code, out, err = run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff, "--format", "json")
        assert code == 0, err
        sent = llm.requests[0]
    data = json.loads(out)
    prose = data["prose"]
    key, other = (facts_of(sent)["stories"][i]["lead"] for i in (0, 1))
    assert prose["model"] == "fake-model"
    assert prose["summary"]["en"] == (
        f"{data['stats']['merged_prs']} PRs were merged, led by #{key}. Another story was #{other}."
    )
    # "MI355" is a name; "7.4x" is in no body of the story; #key is not in #other's story.
    assert prose["notes"] == {str(key): "It speeds up decoding on MI355."}
    assert prose["dropped"] == 6
    assert data["stats"]["merged_prs"] == DAY.counts["merged_prs"]  # figures are never the model's
    assert sent["model"] == "fake-model"
    assert "#<number>" in sent["messages"][0]["content"]
    assert "sk-CANARY-llm-key" not in out + err


def test_model_text_is_marked_in_markdown(
    fake_github: FakeGitHub, llm_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The summary shows the checked model text, marked, and the footer names the model."""
    with FakeOpenAI(honest_and_not) as llm:
        llm_env.setenv("LLM_BASE_URL", llm.url)
        code, out, _ = run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff)
    assert code == 0
    summary = out.split("## 📊 Summary\n\n", 1)[1].split("\n", 1)[0]
    assert summary.startswith(f"✍️ {DAY.counts['merged_prs']} PRs were merged")
    assert "#99999" not in out
    assert "written by fake-model" in out and "6 failed the check" in out
    assert "✍️ It speeds up decoding on MI355." in out  # the note replaces the extract


def test_answers_are_cached_per_window(
    fake_github: FakeGitHub, llm_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Asking again for the same window and language costs no model call."""
    with FakeOpenAI(honest_and_not) as llm:
        llm_env.setenv("LLM_BASE_URL", llm.url)
        run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff)
        run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff)
        assert len(llm.requests) == 1
        run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff, "--lang", "zh")
        assert len(llm.requests) == 2


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
        code, out, err = run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert "prose" not in data
    assert data["summary"].startswith("The day's weightiest work: ")
    assert "29 issues and 92 PRs were opened; 44 PRs were merged" in data["summary"]
    assert any(says in note for note in data["notes"])
    assert "Traceback" not in err


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
    carry the checked model text, and the model is asked once for both."""
    import asyncio

    from bot.adapters.slack_app import build_slack_app
    from bot.app import commands, open_bot
    from bot.model.rules import load_rules
    from config.settings import load_settings
    from tests.fakes.slack_api import FakeSlack, signed_command

    secret = "8f742231b10e8888abcd99yyyzzz85a5"
    with FakeOpenAI(honest_and_not) as llm, FakeSlack() as slack:
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
    assert "✍️ It speeds up decoding on MI355." in headline  # the top story's checked note
    answer = json.dumps([args for _, args in slack.responses], ensure_ascii=False)
    assert f"✍️ {DAY.counts['merged_prs']} PRs were merged" in answer  # the summary, asked for
    assert model_calls == 1  # the command's answer came from the cache the post filled


def test_a_story_note_may_quote_a_figure_from_its_own_bodies_only() -> None:
    """'up to 5%' is in #36716's description: kept. '12%' is nowhere: dropped."""
    from bot.analyze import analyze
    from bot.model.rules import load_rules
    from bot.prose import checked_prose, facts_for
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
    raw = {
        "stories": {
            "36716": "It stops a RoPE op that cost MI355 up to 5% (#36716). It wins 12% too."
        }
    }
    prose = checked_prose(raw, facts_for(report), report, "en", "m")
    assert prose.notes == {36716: "It stops a RoPE op that cost MI355 up to 5% (#36716)."}
    assert prose.dropped == 1
