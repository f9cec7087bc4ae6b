"""`vllm-report radar --predict [--plugin X]` and `/vllm-radar predict [plugin]` on the real
break the fake GitHub serves (tests/features/radar/predict_day.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_run import one_sentence, run
from tests.fakes.github_api import FakeGitHub
from tests.features.radar.predict_day import (
    BREAK,
    LAYER,
    predict_env,
    predict_github,
    requests_to,
)
from tests.features.radar.test_predict_report import SHARED
from tests.slack_text import message_text

DAY = "2026-03-24"


@pytest.fixture
def github(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[FakeGitHub]:
    with predict_github() as fake:
        predict_env(monkeypatch, fake, tmp_path)
        yield fake


def test_radar_predict_prints_the_warnings_with_the_plugins_lines(
    github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "radar", DAY, "--predict", "--cutoff", "11:45")
    assert out.startswith(
        "# Will break · 2026-03-24\n\nPlugins watched: tpu-inference, vllm-gaudi."
    )
    assert "2 upstream PRs changed modules the plugins use" in out
    assert f"- {SHARED}\n" in out
    assert "`FusedMoE.__init__`: drops `reduce_results`" in out
    # Something was not evaluated: said on stdout and stderr, and the exit status is 1.
    assert "Not evaluated: 1 upstream PR (vllm#41003: GitHub kept failing (500))" in out
    assert code == 1
    assert one_sentence(err).startswith("vllm-report: incomplete: Not evaluated: 1 upstream PR")
    # Chinese, one plugin: the plugin's source is read from the archive's commit (its head
    # asked again, no download); vllm-gaudi's failure is not this plugin's.
    code, out, err = run(
        capsys,
        "radar",
        DAY,
        "--predict",
        "--cutoff",
        "11:45",
        "--plugin",
        "tpu-inference",
        "--lang",
        "zh",
    )
    assert out.startswith("# 即将出错 · 2026-03-24\n\n关注的插件：tpu-inference。")
    assert "（未合并）删除了 `SharedFusedMoE`，tpu-inference 中有 5 处用到" in out
    assert "vllm-gaudi" not in out
    assert len(requests_to(github, "/_codeload/")) == 1


def test_radar_predict_as_json_and_as_the_slack_message(
    github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(capsys, "radar", DAY, "--predict", "--cutoff", "11:45", "--format", "json")
    data = json.loads(out)
    assert data["schema"] == "vllm-radar/1" and data["window"] == DAY
    first = data["warnings"][0]
    assert (first["number"], first["kind"], first["stage"]) == (BREAK, "name-removed", "open")
    assert first["sites"][0] == {
        "file": "tpu_inference/layers/vllm/custom_ops/fused_moe.py",
        "line": 16,
        "kind": "import",
        "name": "vllm.model_executor.layers.fused_moe.SharedFusedMoE",
    }
    _, out, _ = run(capsys, "radar", DAY, "--predict", "--cutoff", "11:45", "--format", "slack")
    loaded = json.loads(out)
    messages = loaded if isinstance(loaded, list) else [loaded]
    said = "\n".join(message_text(m) for m in messages)  # as a person reads it
    assert "<https://github.com/vllm-project/vllm/pull/41001|vllm#41001> (open) removes" in said


def test_the_slash_command_answers_from_the_last_run_and_asks_github_nothing(
    github: FakeGitHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/vllm-radar predict [plugin] [zh]` over Slack's real wire: the warnings the last run
    made, from the archive alone; before any run, one sentence saying how to get them."""
    from tests.fakes.slack_api import signed_command
    from tests.platforms.test_slack_http import SECRET, endpoint, served

    with endpoint(monkeypatch) as (slack, settings, service):
        served(settings, service, [signed_command(slack, "/vllm-radar", "predict", SECRET)])
        run(capsys, "radar", DAY, "--predict", "--cutoff", "11:45")
        asked = len(github.requests)
        words = ["predict tpu-inference zh", "predict gaudy"]
        served(settings, service, [signed_command(slack, "/vllm-radar", w, SECRET) for w in words])
        answers = [answer for _, answer in slack.responses]
    assert len(github.requests) == asked
    assert answers[0]["text"].startswith("No warnings yet: the daily run makes them")
    drawn = message_text(answers[1])
    assert "即将出错 · 2026-03-24" in drawn
    assert "<https://github.com/vllm-project/vllm/pull/41001|vllm#41001>（未合并）删除了" in drawn
    assert "vllm-gaudi" not in drawn and answers[1]["response_type"] == "ephemeral"
    assert answers[2]["text"].startswith("'gaudy' is not a watched plugin")


def test_the_predict_option_on_discords_interactions_endpoint(
    github: FakeGitHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord's typed option `predict` (a plugin, or `all`): the same answer as an embed."""
    import asyncio

    from tests.fakes.discord_api import FakeDiscord
    from tests.platforms.test_discord_http import command, signed
    from tests.platforms.test_discord_http import endpoint as discord_endpoint

    run(capsys, "radar", DAY, "--predict", "--cutoff", "11:45")
    body = command("vllm-radar", {"predict": "all"})
    with FakeDiscord() as discord:
        interactions = discord_endpoint(discord)

        async def scenario() -> tuple[int, dict[str, object]]:
            answer = await interactions.handle(*signed(body))
            await interactions.close()
            return answer

        status, _ = asyncio.run(scenario())
        [(_, _, message)] = discord.webhooks
    embed = message["embeds"][0]
    assert status == 200 and embed["title"] == "Will break · 2026-03-24"
    said = json.dumps(embed, ensure_ascii=False)
    assert "[vllm#41001](https://github.com/vllm-project/vllm/pull/41001) (open) removes" in said
    assert "Not evaluated: 1 upstream PR (vllm#41003: GitHub kept failing (500))" in said


def test_without_a_token_each_pr_is_read_by_rest_and_its_reviews_only_when_warned(
    github: FakeGitHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """GitHub answers GraphQL only with a token: each PR's head by `GET /pulls/{n}`, and the
    reviews of the one with a warning (a reviewer's latest approval counts, a change
    request left stands in its way)."""
    from tests.features.radar.predict_day import DOCS, FAILING, approve

    monkeypatch.delenv("GITHUB_TOKEN")
    approve(github, BREAK, 0)
    code, out, _ = run(capsys, "radar", DAY, "--predict", "--cutoff", "11:45")
    assert code == 1 and "(open, approved) removes `SharedFusedMoE`" in out
    assert requests_to(github, "/graphql") == []
    heads = {n: requests_to(github, f"/pulls/{n}") for n in (BREAK, DOCS, FAILING)}
    assert heads[BREAK].count(f"/repos/vllm-project/vllm/pulls/{BREAK}") == 1
    # The reviews of the two PRs with a warning (LAYER's too), none of the others'.
    assert requests_to(github, "/reviews") == [
        f"/repos/vllm-project/vllm/pulls/{n}/reviews" for n in (BREAK, LAYER)
    ]
    # A reviewer asks for changes afterwards: not approved (asked again, the head unchanged).
    item = github.items[BREAK]
    later = item.reviews[-1]["submitted_at"]
    item.reviews.append(
        {"id": 9, "user": "other", "state": "CHANGES_REQUESTED", "submitted_at": later}
    )
    _, out, _ = run(capsys, "radar", DAY, "--predict", "--cutoff", "11:45")
    assert "(open) removes `SharedFusedMoE`" in out and "approved" not in out


def test_approved_is_each_reviewers_latest_word() -> None:
    from datetime import UTC, datetime, timedelta

    from bot.collect.code import approved

    at = datetime(2026, 3, 24, tzinfo=UTC)
    day = timedelta(days=1)
    assert approved([("a", "APPROVED", at)])
    assert not approved([("a", "COMMENTED", at)])
    assert not approved([("a", "APPROVED", at), ("b", "CHANGES_REQUESTED", at + day)])
    assert approved([("b", "CHANGES_REQUESTED", at), ("b", "APPROVED", at + day)])
    assert not approved([("a", "APPROVED", at), ("a", "DISMISSED", at + day)])
    assert approved([("a", "APPROVED", at + day), ("a", "COMMENTED", at + 2 * day)])
    assert not approved([("a", "APPROVED", None)])  # pending: not submitted
