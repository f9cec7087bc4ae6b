"""The radar's culprits told with whom to ask (author, merge date, revert) and people's
corrections applied (`bot.features.radar.culprits`): pure, items and links in."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.features.radar.culprits import (
    corrected,
    detailed,
    read_until,
    reverted_by,
)
from bot.features.radar.model import UPSTREAM, Correction, PluginLink, Revert, UpstreamRef
from bot.features.radar.reading import culprits, plugin_links, verify
from bot.model.report import ActivityItem
from tests.factories import item

MERGED = datetime(2025, 9, 26, 8, tzinfo=UTC)
ASCEND, GAUDI = "vllm-project/vllm-ascend", "vllm-project/vllm-gaudi"


def culprit_pr(number: int = 24982, **fields: Any) -> ActivityItem:
    values: dict[str, Any] = {
        "title": "[Model] Move the sampler",
        "author": "hmellor",
        "merged_at": MERGED,
    }
    values.update(fields)
    return item(number, "pr", closed_at=values["merged_at"], **values)


def revert(number: int, title: str, body: str | None = None, after: float = 2) -> ActivityItem:
    at = MERGED + timedelta(days=after)
    return item(number, "pr", title=title, body=body, merged_at=at, closed_at=at)


def fix(repo: str, number: int, *refs: int, relation: str = "breakage-fix") -> PluginLink:
    confirmed = tuple(UpstreamRef(UPSTREAM, "pr", n, verdict="verified") for n in refs)
    return PluginLink(
        plugin_repo=repo,
        number=number,
        kind="pr",
        title=f"fix {number}",
        url=f"https://github.com/{repo}/pull/{number}",
        author="someone",
        state="merged",
        at=MERGED + timedelta(days=1),
        relation=relation,
        upstream=confirmed,
    )


# -- reverts -------------------------------------------------------------------------------


def test_a_culprit_is_reverted_by_the_first_revert_merged_after_it() -> None:
    before = revert(24000, 'Revert "[Model] Move the sampler (#24982)"', after=-1)
    late, first = (
        revert(25700, 'Revert "[Model] Move the sampler (#24982)"', after=5),
        revert(25500, 'Revert "[Model] Move the sampler (#24982)"', after=2),
    )
    found = reverted_by(24982, MERGED, [before, late, first])
    assert found == Revert(25500, first.title, MERGED + timedelta(days=2))
    assert reverted_by(24982, MERGED, [before]) is None  # merged before it: not "since"


def test_not_reverted_is_said_only_as_far_as_the_archive_holds_upstream() -> None:
    covered = [(MERGED - timedelta(days=30), MERGED + timedelta(days=9))]
    assert read_until(MERGED, covered) == MERGED + timedelta(days=9)
    assert read_until(MERGED - timedelta(days=31), covered) is None
    assert read_until(MERGED + timedelta(days=9), covered) is None  # the end is not held


def test_each_culprit_gets_its_title_author_merge_date_and_revert() -> None:
    links = [fix(ASCEND, 3221, 24982), fix(GAUDI, 285, 24982, 25001)]
    found = culprits(links, {})
    items = {24982: culprit_pr(), 25001: culprit_pr(25001, title="", author=None)}
    reverts = [revert(25500, 'Revert "[Model] Move the sampler (#24982)"')]
    covered = [(MERGED - timedelta(days=1), MERGED + timedelta(days=9))]
    told = {c.ref.number: c for c in detailed(found, items, reverts, covered)}
    sampler = told[24982]
    assert (sampler.title, sampler.author, sampler.merged_at) == (
        "[Model] Move the sampler",
        "hmellor",
        MERGED,
    )
    assert sampler.reverted is True and sampler.reverted_by is not None
    assert sampler.reverted_by.number == 25500
    other = told[25001]
    assert (other.title, other.author, other.reverted) == (None, None, False)
    assert other.reverts_read_until == MERGED + timedelta(days=9)
    # The archive does not hold upstream since the merge: whether reverted is not known.
    unknown = {c.ref.number: c for c in detailed(found, items, [], [])}
    assert unknown[25001].reverted is None and unknown[24982].reverted is None
    # A culprit the archive has no item for stays as it was.
    assert detailed(found, {}, reverts, covered) == found


# -- corrections ---------------------------------------------------------------------------


def test_a_corrected_culprit_is_never_shown_again_and_the_fix_keeps_its_others() -> None:
    links = [fix(ASCEND, 3221, 24982), fix(GAUDI, 285, 24982, 25001)]
    said = datetime(2026, 8, 22, tzinfo=UTC)
    wrong = [
        Correction(GAUDI, 285, 24982, "slack:U1", said),
        Correction(ASCEND, 9999, 24982, "cli", said),  # a fix not among these links
    ]
    kept, applied = corrected(links, wrong)
    assert applied == (wrong[0],)
    gaudi = next(link for link in kept if link.plugin_repo == GAUDI)
    assert [(r.number, r.verdict) for r in gaudi.upstream] == [
        (24982, "corrected"),
        (25001, "verified"),
    ]
    assert [r.number for r in gaudi.confirmed] == [25001]
    found = {c.ref.number: c.plugins for c in culprits(kept, {})}
    assert found == {24982: (ASCEND,), 25001: (GAUDI,)}
    # Its only culprit corrected: the fix shows as unattributed.
    alone, _ = corrected(links, [Correction(ASCEND, 3221, 24982, "cli", said)])
    assert next(link for link in alone if link.plugin_repo == ASCEND).confirmed == ()


def test_a_correction_of_an_upgrade_is_applied_but_not_counted_against_the_radar() -> None:
    upgrade = fix(ASCEND, 3091, 25345, relation="upgrade")
    kept, applied = corrected([upgrade], [Correction(ASCEND, 3091, 25345, "cli", MERGED)])
    assert kept[0].upstream[0].verdict == "corrected" and applied == ()


# -- the 180-day rule, on a real fix ---------------------------------------------------------

RECORDS = Path(__file__).resolve().parents[2] / "data" / "radar" / "links-2025.json"


def real_fix(number: int, opened: datetime, merged: datetime) -> ActivityItem:
    """A vllm-ascend PR of links-2025.json with its own title and description, opened and
    merged when the case needs (the records give its merge, not its opening)."""
    (record,) = [
        r
        for r in json.loads(RECORDS.read_text(encoding="utf-8"))
        if (r["plugin_repo"], r["plugin_number"]) == (ASCEND, number)
    ]
    return item(
        number,
        "pr",
        repo=ASCEND,
        title=record["plugin_title"],
        body=record["plugin_body"],
        created_at=opened,
        merged_at=merged,
        closed_at=merged,
        url=f"https://github.com/{ASCEND}/pull/{number}",
    )


@pytest.mark.parametrize(
    ("opened_after", "verdict"),
    [(170, "verified"), (181, "long-before")],
)
def test_a_fix_reviewed_past_180_days_keeps_its_culprit_when_opened_within_them(
    opened_after: int, verdict: str
) -> None:
    """vllm-ascend#159 ("[ModelRunner] remove unused args (follow vllm changes)") names
    vllm#13555 as what changed `Attention.forward()`. Merged 200 days after the culprit but
    opened 170 days after it, the culprit stands: "too old to be the cause" counts from when
    the fix was opened (`PluginLink.opened_at`, the PR's creation), not from its merge —
    dating it from the merge, anywhere on the way from the PR to the culprit, fails here."""
    culprit_merged = datetime(2025, 2, 20, 9, tzinfo=UTC)
    fix = real_fix(
        159,
        opened=culprit_merged + timedelta(days=opened_after),
        merged=culprit_merged + timedelta(days=200),
    )
    (link,) = plugin_links(ASCEND, [fix], own_max=2000)
    assert link.opened_at == fix.created_at and link.at == fix.merged_at
    cause = culprit_pr(13555, title="[V1] Remove unused args of Attention.forward")
    cause = replace(cause, merged_at=culprit_merged, closed_at=culprit_merged)
    checked = verify(link, {"#13555": cause})
    assert [(ref.key, ref.verdict) for ref in checked.upstream] == [("#13555", verdict)]
    shown = detailed(culprits([checked], {}), {13555: cause}, [], [])
    assert [(c.ref.key, [f.number for f in c.fixes]) for c in shown] == (
        [("#13555", [159])] if verdict == "verified" else []
    )
