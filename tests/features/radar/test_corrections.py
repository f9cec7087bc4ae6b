"""Corrections: a person says the radar named the wrong culprit (`RadarService.correct`, and
`bot.service.radar_wrong` for the chat command); every later radar output leaves it out,
and says how many corrections there are and the precision they measure. Bad input gets one
sentence. On the real 2025 plugin records: vllm-ascend#3221 names vllm#24982 alone (which
also broke vllm-gaudi#285); vllm-gaudi#215 names #25332, #25321 and #25366."""

from __future__ import annotations

import json
import re

import pytest

from bot.features.radar.message import radar_message
from bot.features.radar.render import (
    render_radar_markdown,
)
from bot.features.radar.render_json import render_radar_json
from bot.features.radar.service import RadarService
from bot.model.asking import AskError
from bot.platforms.registry import DISCORD, SLACK
from tests.fakes.github_api import FakeGitHub
from tests.features.radar.test_service import month, radar  # noqa: F401

ASCEND, GAUDI = "vllm-project/vllm-ascend", "vllm-project/vllm-gaudi"
Radar = tuple[RadarService, FakeGitHub]


def fixes_of(found: object, number: int) -> set[tuple[str, int]]:
    culprits = found.culprits  # type: ignore[attr-defined]
    return {(f.plugin_repo, f.number) for c in culprits if c.ref.number == number for f in c.fixes}


def test_a_correction_changes_every_later_output(radar: Radar) -> None:  # noqa: F811
    service, fake = radar
    before = month(service)
    assert fixes_of(before, 24982) == {(GAUDI, 285), (ASCEND, 3221)}
    assert before.precision == 1.0 and before.corrections == ()
    asked = len(fake.requests)

    said = service.correct("vllm-ascend#3221", "24982", "slack:U1")
    assert said == (
        "Noted: vllm#24982 did not break vllm-ascend#3221. The radar no longer shows it as "
        "that fix's culprit; it shows as unattributed."
    )
    assert len(fake.requests) == asked  # from the archive alone

    after = month(service)
    assert fixes_of(after, 24982) == {(GAUDI, 285)}  # still gaudi's culprit
    ascend = next(
        link for link in after.links if link.number == 3221 and link.plugin_repo == ASCEND
    )
    assert ascend.confirmed == () and ascend.upstream[0].verdict == "corrected"
    assert [c.key for c in after.corrections] == [(ASCEND, 3221, 24982)]
    assert after.attributions == before.attributions - 1
    assert after.precision == pytest.approx(after.attributions / before.attributions)
    precision = f"{after.precision:.0%}"

    markdown = render_radar_markdown(after)
    culprits = markdown.split("## Upstream changes that broke plugins")[1].split("## Pins")[0]
    top = next(line for line in culprits.splitlines() if "[vllm#24982]" in line)
    assert "vllm-gaudi" in top and "vllm-ascend" not in top
    assert (
        f"Not corrected {precision}: of {before.attributions} culprit attributions shown, "
        "1 corrected by readers"
    ) in markdown
    assert re.search(
        r"## Corrections\n\n- vllm-ascend#3221: not vllm#24982 \(said by slack:U1", markdown
    )
    assert "(corrected: not the cause)" in markdown  # in the list of every link

    data = json.loads(render_radar_json(after))
    assert data["precision"] == {
        "measures": "share of culprit attributions shown not corrected by readers",
        "attributions": after.attributions,
        "corrected": 1,
        "precision": after.precision,
        "confirmed": after.confirmed,
        "unconfirmed": after.attributions - after.confirmed,
    }
    assert data["corrections"][0]["plugin_number"] == 3221
    top_json = next(c for c in data["culprits"] if c["number"] == 24982)
    assert top_json["fixes"] == [{"plugin_repo": GAUDI, "plugin_number": 285}]
    link = next(x for x in data["links"] if x["plugin_number"] == 3221)
    assert link["upstream"][0]["verdict"] == "corrected"

    slack = radar_message(SLACK, after, "en")
    text = json.dumps(slack)
    assert "vllm-ascend/pull/3221" not in text
    assert f"Not corrected {precision}" in text
    embeds = radar_message(DISCORD, after, "en")["embeds"]
    shown = "\n".join(e["description"] for e in embeds)
    assert "vllm-ascend/pull/3221" not in shown
    assert "1 corrected" in shown
    # What explain says of the upstream PR: gaudi's fix alone.
    assert {(f.plugin_repo, f.number) for f in service.broken_by(24982)} == {(GAUDI, 285)}


def test_a_fix_with_other_culprits_keeps_them(radar: Radar) -> None:  # noqa: F811
    service, _ = radar
    month(service)
    said = service.correct("gaudi#215", "vllm#25321", "discord:42")
    assert said.endswith("it still names vllm#25332, vllm#25366.")
    after = month(service)
    assert (GAUDI, 215) in fixes_of(after, 25332) and (GAUDI, 215) in fixes_of(after, 25366)
    assert fixes_of(after, 25321) == set()
    # Said again: one sentence, nothing new kept.
    again = service.correct("https://github.com/vllm-project/vllm-gaudi/pull/215", "#25321", "cli")
    assert again.startswith("vllm#25321 was already corrected as not what broke vllm-gaudi#215")
    assert len(month(service).corrections) == 1


@pytest.mark.parametrize(
    ("plugin_pr", "upstream_pr", "says"),
    [
        ("vllm-ascend#3221", "abc", "'abc' is not an upstream PR number: say it as 45678"),
        ("vllm-ascend#3221", "vllm#0123", "'vllm#0123' is not an upstream PR number"),
        ("vllm-ascend", "24982", "'vllm-ascend' is not a plugin PR: say it as plugin#number"),
        ("ascend#03221", "24982", "its number has a leading zero"),
        ("gaudy#285", "24982", "'gaudy' is not a watched plugin — did you mean 'gaudi'?"),
        ("vllm-ascend#3221", "25249", "the radar never named vllm#25249 as what broke "
         "vllm-ascend#3221 (it names vllm#24982)."),
        ("vllm-ascend#99999", "24982", "vllm-ascend#99999 is not in the archive"),
    ],
)  # fmt: skip
def test_bad_input_gets_one_sentence(
    radar: Radar,  # noqa: F811
    plugin_pr: str,
    upstream_pr: str,
    says: str,
) -> None:
    service, _ = radar
    month(service)
    with pytest.raises(AskError) as caught:
        service.correct(plugin_pr, upstream_pr, "cli")
    assert says in str(caught.value)
    assert "\n" not in str(caught.value)
    assert service.corrections.of() == []


def test_a_pair_of_an_upgrade_or_a_mention_was_never_claimed(radar: Radar) -> None:  # noqa: F811
    service, _ = radar
    found = month(service)
    upgrade = next(link for link in found.links if link.relation == "upgrade" and link.confirmed)
    name = f"{upgrade.plugin_repo.split('/')[1]}#{upgrade.number}"
    with pytest.raises(AskError, match="the radar never named"):
        service.correct(name, str(upgrade.confirmed[0].number), "cli")


def test_the_chat_command_checks_the_words_and_answers_in_a_sentence(
    radar: Radar,  # noqa: F811
) -> None:
    from bot.app import commands, open_bot
    from bot.features.radar.command import Correction, RadarRequest
    from bot.model.rules import load_rules
    from config.settings import load_settings
    from tests.asking import ask, said

    service, _ = radar
    month(service)
    bot = open_bot(load_settings(), load_rules(None), clock=service.clock)
    try:
        chat = commands(bot)
        radar_ = chat.table["vllm-radar"]
        assert isinstance(chat.read(radar_, "ascend 7d"), RadarRequest)
        assert chat.read(radar_, "Wrong ascend#3221 24982") == Correction(
            words=("ascend#3221", "24982")
        )
        one = said(ask(chat, "vllm-radar", "wrong ascend#3221"))
        assert one.startswith(
            "a correction names two PRs (1 given): say `/vllm-radar wrong <plugin PR> "
        )
        done = ask(chat, "vllm-radar", "wrong ascend#3221 24982")
        assert said(done).startswith("Noted: vllm#24982")
        assert done.ephemeral
        bad = said(ask(chat, "vllm-radar", "wrong ascend#3221 x"))
        assert bad == "'x' is not an upstream PR number: say it as 45678, #45678 or vllm#45678."
    finally:
        bot.close()


def test_the_daily_plugins_section_respects_a_correction(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    from datetime import UTC, date, datetime

    from bot.app import open_bot
    from bot.features.radar.outline import radar_of as radar_in
    from bot.features.radar.service import radar_service
    from bot.model.query import ReportQuery
    from bot.model.rules import load_rules
    from bot.model.windows import day_window
    from config.settings import load_settings
    from formatters.json_report import render_json
    from formatters.markdown import render_markdown
    from tests.features.radar.radar_data import radar_github
    from tests.features.radar.test_service import PLUGINS, TZ

    now = datetime(2025, 9, 23, 6, 0, tzinfo=UTC)
    window = day_window(date(2025, 9, 22), TZ, datetime.min.time().replace(11, 45))
    with radar_github() as fake:
        for name, value in (
            ("GITHUB_API_URL", fake.url),
            ("VLLM_REPORT_DATA_DIR", str(tmp_path)),
            ("VLLM_REPORT_PLUGINS", PLUGINS),
            ("GITHUB_TOKEN", "ghp-test"),
        ):
            monkeypatch.setenv(name, value)
        bot = open_bot(load_settings(), load_rules(None), clock=lambda: now)
        try:
            first = bot.reports.report(ReportQuery("vllm-project/vllm", window, queue=True))
            said = radar_service(bot.context()).correct("ascend#3095", "25249", "slack:U1")
        finally:
            bot.close()
        # The next run (the daily job, a site build): the report is made again.
        bot = open_bot(load_settings(), load_rules(None), clock=lambda: now)
        try:
            second = bot.reports.report(ReportQuery("vllm-project/vllm", window, queue=True))
        finally:
            bot.close()
    assert said.startswith("Noted: vllm#25249 did not break vllm-ascend#3095")
    section = render_markdown(first, "en").split("## 🔌 Plugins", 1)[1].split("\n## ", 1)[0]
    assert "[#25249]" in section and "corrected by readers" not in section
    section = render_markdown(second, "en").split("## 🔌 Plugins", 1)[1].split("\n## ", 1)[0]
    assert "[#25249]" not in section and "vllm-ascend#3095" not in section
    found = radar_in(second)
    assert found is not None and found.precision is not None
    assert (
        "Culprits corrected by readers (/vllm-radar wrong): 1; "
        f"{found.precision:.0%} of those named not corrected, "
        f"{found.attributions - found.confirmed} unconfirmed by an upstream revert."
    ) in section
    zh = render_markdown(second, "zh")
    assert "读者更正的归因（/vllm-radar wrong）：1 处" in zh
    data = json.loads(render_json(second))["radar"]
    assert 25249 not in {c["number"] for c in data["culprits"]}
    assert data["precision"]["corrected"] == 1
