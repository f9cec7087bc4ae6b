"""The radar's reading of plugin PRs (real titles and bodies of 2025, tests/data/radar/, and
the phrasings plugin authors write), and its check of each cause against what GitHub says."""

from __future__ import annotations

import collections
import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.features.radar.model import UPSTREAM, PluginLink, UpstreamRef
from bot.features.radar.reading import (
    check,
    culprits,
    plugin_links,
    read,
    upstream_refs,
    verify,
)
from bot.model.report import ActivityItem

RECORDS = json.loads(
    (Path(__file__).parents[3] / "tests" / "data" / "radar" / "links-2025.json").read_text(
        encoding="utf-8"
    )
)
PULL = "https://github.com/vllm-project/vllm/pull/"
COMMIT = "https://github.com/vllm-project/vllm/commit/"
FIX_AT = datetime(2026, 3, 5, 12, tzinfo=UTC)


def record(repo: str, number: int) -> dict:  # type: ignore[type-arg]
    return next(
        r for r in RECORDS if r["plugin_repo"].endswith(repo) and r["plugin_number"] == number
    )


def links(title: str, body: str | None = None, own_max: int | None = None) -> list[str]:
    """What the PR is read as linking to: the causes (a culprit, or what it adapted to)."""
    return [ref.key for ref in read(title, body, own_max).links]


def roles(title: str, body: str | None = None, own_max: int | None = None) -> dict[str, str]:
    return {ref.key: ref.role for ref in read(title, body, own_max).upstream}


def named(title: str, body: str | None = None, own_max: int | None = None) -> list[str]:
    """Every upstream change read in the text, whatever its role."""
    return [ref.key for ref in upstream_refs(title, body, own_max)]


# -- real plugin PRs -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("repo", "number", "relation", "linked"),
    [
        ("tpu-inference", 307, "breakage-fix", ["#20588"]),  # a URL in the description
        ("vllm-gaudi", 499, "breakage-fix", ["#27658"]),  # [FIX_FOR_VLLM_LATEST] … #27658
        ("vllm-gaudi", 77, "breakage-fix", ["#22570"]),  # "caused by upstream update PR22570"
        ("vllm-ascend", 3221, "breakage-fix", ["#24982"]),  # "because of vllm #24982"
        ("vllm-ascend", 1573, "breakage-fix", ["7f280d6"]),  # an upstream commit
        ("vllm-ascend", 3091, "upgrade", ["#25345", "#25332", "#25334", "#23558"]),
        ("vllm-ascend", 764, "mention-only", []),  # a patch upstream made useless
        ("vllm-ascend", 2433, "mention-only", []),  # a maintainer nomination citing vllm#8054
        ("vllm-ascend", 923, "breakage-fix", ["#18459"]),  # "reverted in vllm", "related" before
        ("vllm-ascend", 14, "breakage-fix", ["bf3b79e"]),  # "bugfix for mrope": a fix too
        ("vllm-spyre", 278, "breakage-fix", ["#16728"]),  # "incompatible changes upstream"
        ("vllm-ascend", 5308, "breakage-fix", ["#24252"]),  # "is causing … to fail"
        ("vllm-spyre", 5, "upgrade", []),  # "Compatibility with upstream": its tested commit
    ],
)
def test_real_plugin_prs_are_read_as_their_authors_meant(
    repo: str, number: int, relation: str, linked: list[str]
) -> None:
    found = record(repo, number)
    body = found.get("plugin_body") or found.get("plugin_body_excerpt")
    reading = read(found["plugin_title"], body, own_max=5500)
    assert found["relation"] == relation  # the authors' own attribution
    assert reading.relation == relation
    assert sorted(linked) == sorted(ref.key for ref in reading.links)


def test_a_mention_names_upstream_without_a_cause() -> None:
    found = record("vllm-ascend", 2433)
    reading = read(found["plugin_title"], found["plugin_body"], own_max=5500)
    named = {ref.key: ref.role for ref in reading.upstream}
    assert named["#8054"] == "mentioned"
    assert reading.upstream[-1] == UpstreamRef(  # its "vLLM main:" footer
        UPSTREAM, "commit", sha="78dba404adaa2b9814a4480249e2d9c0512364c1", role="baseline"
    )


def test_the_commit_a_pr_was_tested_on_is_no_cause() -> None:
    """vllm-ascend's footer names the upstream commit the PR ran against: a baseline."""
    body = (
        "Follows the changes in vllm: https://github.com/vllm-project/vllm/pull/20701\n"
        "- vLLM version: v0.9.2\n"
        "- vLLM main: https://github.com/vllm-project/vllm/commit/cc876d0f2909ea62f8e96a9fe384162a1680a9c8"
    )
    assert links("[Bugfix] Remove num_draft_tokens", body) == ["#20701"]
    assert roles("[Bugfix] Remove num_draft_tokens", body)["cc876d0"] == "baseline"
    # The same footer run together on one line, as squash commits keep it.
    assert links("[Bugfix] Fix broken CI", body.replace("\n", " ")) == ["#20701"]
    # And the same commit named higher up in the description is still where it stands.
    again = f"Caused by {COMMIT}cc876d0f2909ea62f8e96a9fe384162a1680a9c8 first.\n{body}"
    assert roles("[Bugfix] Fix broken CI", again) == {"cc876d0": "baseline", "#20701": "culprit"}
    # Named short, it is the same commit: read once.
    short = f"Caused by commit cc876d0f2 first.\n{body}"
    assert [(r.key, r.role) for r in read("[Bugfix] Fix broken CI", short).upstream] == [
        ("cc876d0", "baseline"),
        ("#20701", "culprit"),
    ]


# -- numbers that are not upstream PRs --------------------------------------------------------


def test_other_projects_numbers_and_the_plugins_own_are_kept_apart() -> None:
    body = (
        "Bump numba (numba/numba#9912) and fix our #412; upstream vllm-project/vllm#24982 broke it."
    )
    assert links("Fix CI after upstream change", body, own_max=600) == ["#24982"]
    # A bare #N above any number the plugin has given cannot be its own.
    assert links("Fix failing due to (#16728)", None, own_max=600) == ["#16728"]
    assert links("Fix failing due to (#412)", None, own_max=600) == []


def test_another_repositorys_number_is_never_upstream_however_written() -> None:
    body = (
        "Same as vllm-project/vllm-ascend#31000 and https://github.com/vllm-project/vllm-ascend/pull/31001;"
        " broken since #31000 and PR 31001."
    )
    assert links("Fix broken CI", body, own_max=600) == []
    # A fork's copy of vLLM is not vLLM.
    fork = "Caused by https://github.com/someone/vllm/pull/31002 in our fork."
    assert links("Fix broken CI", fork, own_max=600) == []
    assert links("Fix broken CI", "Caused by https://github.com/vllm-project/vllm/pull/31002") == [
        "#31002"
    ]


@pytest.mark.parametrize(
    "title",
    [
        "[Main2Main] Upgrade vllm main 0324",  # a day
        "Upgrade vllm 1230 and fix the CI",  # a day
        "[CI] Upgrade vllm 250919",  # a day after a year
        "Roadmap: vllm 2026 plugins",  # a year
        "Pinned vllm 1999 builds",  # a year
        "Upgrade vllm 1201",  # the first of December
        "Upgrade vllm 1031",  # the last of October
        "Upgrade vllm: 1230",  # a colon is no PR mark
        "Upgrade vllm 250115",  # the 15th of January
        "Fix broken CI after #0324",  # GitHub numbers have no leading zero
        "Fix for vllm#0324",
    ],
)
def test_dates_and_leading_zeros_are_not_pr_numbers(title: str) -> None:
    assert named(title, None, own_max=100) == []


@pytest.mark.parametrize(
    ("title", "number"),
    [
        ("Fix after vllm #1230", "#1230"),  # dates are left out only where nothing says PR
        ("Fix after upstream PR 1216", "#1216"),
        ("Fix after upstream change 1216", "#1216"),
        ("Fix after vllm 1232", "#1232"),  # no day 32
        ("Fix after vllm 1300", "#1300"),  # no month 13, no day 0
        ("Fix after vllm 2133", "#2133"),  # not a year of ours
        ("Fix after vllm 0931".replace("0931", "1331"), "#1331"),
        ("Fix after upstream 251332", "#251332"),  # no month 13
        ("Fix after vllm 25510", "#25510"),  # five digits are no day
        ("Upgrade vllm 1230 after vllm change 4321", "#4321"),  # a day, then a PR
        ("Fix after vLLM#31005", "#31005"),  # GitHub ignores case
        ("Fix after vllm-project/vllm#31006", "#31006"),
    ],
)
def test_a_number_said_to_be_upstream_is_read_even_when_short(title: str, number: str) -> None:
    assert named(title, None, own_max=5000) == [number]  # above any number the plugin gave


def test_a_commit_named_without_a_url() -> None:
    assert named("Fix after commit 3E04107D9 broke us") == ["3e04107"]
    assert named("Fix after vllm@3e04107d9 and vllm@4f15108e0") == ["3e04107", "4f15108"]
    # Only what can be a commit: letters and digits both.
    assert named("Fix the commit 1234567 and commit abcdefab") == []


def test_a_gaudi_fix_tag_makes_bare_numbers_upstream_only_when_not_the_plugins_own() -> None:
    title = "[FIX_FOR_VLLM_LATEST] hourly fixes #1647 and #1732"
    assert links(title, None, own_max=1800) == []  # the plugin's own PRs
    body = "CustomOp: grouped topk #1647 - breaks after #31050"
    assert links(title, body, own_max=1800) == ["#31050"]
    # Without the plugin's numbers known, a tagged PR's bare numbers are upstream's ...
    assert links(title, None) == ["#1647", "#1732"]
    # ... and an untagged PR's are not.
    assert links("Hourly fixes #1647 and #1732", None) == []


def test_pr_and_caused_by_numbers_may_be_the_plugins_own() -> None:
    assert links("Fix for PR1575, revert of PR1499", None, own_max=1600) == []
    assert links("Fix for PR1600", None, own_max=1600) == []  # its highest is its own
    assert links("Fix for PR1575 and PR31575", None, own_max=1600) == ["#31575"]
    assert links("Fix after #0324 and #31576", None, own_max=1600) == ["#31576"]
    assert links("Fix crash caused by #1577", None, own_max=1600) == []
    assert links("Fix crash caused by #31577", None, own_max=1600) == ["#31577"]
    # Not knowing the plugin's numbers, cause words still say upstream; a bare #N does not.
    assert links("Fix crash caused by #20059") == ["#20059"]
    assert links("Fix crash (#20059)") == []
    assert links("Fix for PR31575", None, own_max=1600) == ["#31575"]


def test_refs_name_their_repository_and_kind() -> None:
    refs = upstream_refs(
        "x",
        "see https://github.com/vllm-project/vllm/issues/11162 and vllm#25249, "
        f"{PULL}25250 and {COMMIT}3E04107D97AEB6360FCFB684665B66C94135079B",
    )
    assert refs == [
        UpstreamRef(UPSTREAM, "issue", 11162, role="issue"),
        UpstreamRef(UPSTREAM, "pr-or-issue", 25249),
        UpstreamRef(UPSTREAM, "pr", 25250),
        UpstreamRef(UPSTREAM, "commit", sha="3e04107d97aeb6360fcfb684665b66c94135079b"),
    ]
    said = upstream_refs(
        "Fix after upstream PR 25251", "Culprit: commit 4f15108e0, PR 25252 and #25253", 600
    )
    assert said == [
        UpstreamRef(UPSTREAM, "pr-or-issue", 25251),
        UpstreamRef(UPSTREAM, "commit", sha="4f15108e0"),
        UpstreamRef(UPSTREAM, "pr-or-issue", 25252),
        UpstreamRef(UPSTREAM, "pr-or-issue", 25253),
    ]


def test_an_upstream_issue_is_never_a_cause() -> None:
    """An issue reports a break; it is not the change that made it, even written bare first."""
    body = (
        f"After [#24772]({PULL}24772) there's a bug; an issue has been filed "
        "[#24806](https://github.com/vllm-project/vllm/issues/24806)."
    )
    reading = read("[TEMP-WA] Skip Qwen3 in tests", body, own_max=300)
    assert [ref.key for ref in reading.links] == ["#24772"]
    assert reading.upstream[-1] == UpstreamRef(UPSTREAM, "issue", 24806, role="issue")


# -- what the words make a named change -------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "role"),
    [
        (f"It was introduced in {PULL}17996 and fixed in {PULL}19503. So it goes.", "upstream-fix"),
        ("Port #26385 fix in upstream gpu_model_runner.py", "ported"),  # the title's first word
        (
            f"Related work is tracked in our wiki.\n\nThe new signature comes from {PULL}31007",
            "culprit",  # another sentence's words are not this ref's
        ),
        ("This was already fixed via vllm-project/vllm#30000, so the patch goes.", "upstream-fix"),
        (f"The crash is fixed via {PULL}30503 in vLLM main.", "upstream-fix"),
        (f"{PULL}21302 got merged, we can re-enable kv_cache_dtype now.", "upstream-fix"),
        (f"Remove the patch as this has been resolved in\n{PULL}16983.", "upstream-fix"),
        (f"CustomOp: grouped topk - depends on\n{PULL}29575", "pending"),
        (f"A workaround; once\n{PULL}28988/files is implemented, this part goes.", "pending"),
        ("Blocked on a release containing vllm-project/vllm#30500.", "pending"),
        (f"Waiting for {PULL}30501 to land.", "pending"),
        (f"Backport of {PULL}30502 to our runner.", "ported"),
        (f"Implement get_supported_tasks, related PR -\n{PULL}21585", "related"),
        (
            'Similar to [Bugfix][CPU] Disable dual stream execution for experts on\nCPU #27320"',
            "related",
        ),
        (f"Fix AscendScheduler post_init, caused by\n{PULL}25075", "culprit"),
        (f"After {PULL}24982 has been merged, MoE turns sequence parallel on.", "culprit"),
        (
            f"Related changes are reverted as the feature is\nreverted in vllm {PULL}18459",
            "culprit",
        ),
        (f"Similar to the last time, {PULL}31000 breaks the hourly CI.", "culprit"),
        (f"{PULL}31001", "culprit"),  # a fix that only links upstream names its cause
    ],
)
def test_the_words_around_a_named_change_give_its_role(body: str, role: str) -> None:
    said = roles("[FIX_FOR_VLLM_LATEST] Fix for hourly", body, own_max=800)
    assert list(said.values())[-1] == role, said
    if body.startswith("Port"):  # as a title, the first words are read too
        assert roles(body, None, own_max=800)["#26385"] == "ported"


@pytest.mark.parametrize(
    ("body", "role"),
    [
        (f"This pr bump vllm commit to\n{COMMIT}6d8246aaffff3ebec84767e373212a7b8da328e2", "pin"),
        (f"This pr aligned with\n{COMMIT}17c540a993af88204ad1b78345c8a865cf58ce44", "pin"),
        (
            f"Tested with release `v.0.7.3` ([commit]({COMMIT}ed6e9075d31e32c8548b480a47d1ffb"
            "77da1f54c))",
            "baseline",
        ),
        (f"vLLM commit\n{COMMIT}45badd05d04254eb75c48cee7b1d454a80de2165\nchanged it.", "culprit"),
    ],
)
def test_a_commit_the_plugin_moves_to_or_tested_on_is_no_cause(body: str, role: str) -> None:
    assert list(roles("Fix broken CI", body).values()) == [role]


# -- why upstream is named: the relation --------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "body", "relation", "linked"),
    [
        # A revert of the plugin's own pin: breakage when it says upstream breaks it ...
        ('Revert "Update vLLM pin to 0324"', "vllm-project/vllm#36000 breaks the hourly CI.",
         "breakage-fix", ["#36000"]),
        ('Revert "Update vLLM pin to 0324"', "Upstream #36001 broke the hourly CI.",
         "breakage-fix", ["#36001"]),
        ('Revert "[Main2Main] upgrade vllm"', "vllm#36002 introduced a check causing OOM.",
         "breakage-fix", ["#36002"]),
        # ... and only a mention otherwise.
        ('Revert "Update vLLM pin to 0324"', "Upstream fixed it in vllm-project/vllm#36003.",
         "mention-only", []),
        ('Revert "Fix broken vllm compilation_config"',
         f"with the change {PULL}23005 in vLLM, I think we can revert it now.", "mention-only", []),
        ("Fix the pcp 128K break", f"This was already fixed via {PULL}36004.", "mention-only", []),
        ("Fix async scheduling", "This ports vllm-project/vllm#36005 to the HPU runner.",
         "mention-only", []),
        ("Blocked on a release containing vllm#36006", None, "mention-only", []),
        ("[Platform] Add support for v0.12.0", f"Adapt to {PULL}36007 (the new runner).",
         "upgrade", ["#36007"]),
        ("Fix the tests", f"Fix crash caused by {PULL}36008.", "breakage-fix", ["#36008"]),
        # Title words that say upstream gave or fixed it win over a cause nearer the number.
        ("Ports the fix for vllm#36010 to the HPU runner", None, "mention-only", []),
        ("Already fixed upstream after vllm#36011: drop the patch", None, "mention-only", []),
        ("Fix hourly: blocked on a release with the fix for vllm#36012", None, "mention-only",
         []),
        # Nothing named: nothing to say.
        ('Revert "Fix the docs"', "Our own mistake.", "none", []),
        ("Remove the useless patch", None, "none", []),
        ("Fix the docs build", None, "none", []),
        ("Fixes to catch up with vllm changes", None, "breakage-fix", []),
        ("Faster sampler", "Uses the new API.", "none", []),
    ],
)  # fmt: skip
def test_the_relation_words_decide_what_counts(
    title: str, body: str | None, relation: str, linked: list[str]
) -> None:
    reading = read(title, body, own_max=800)
    assert (reading.relation, [ref.key for ref in reading.links]) == (relation, linked)


def test_a_commit_its_title_names_is_an_upgrades_pin_and_a_fixs_cause() -> None:
    body = f"See {COMMIT}5aeb9254521023f97aca292b3478aa7ff485ffb2 and the fix for {PULL}25345"
    upgrade = read("[CI] Update vllm version to 20250922(5aeb925)", body)
    assert upgrade.relation == "upgrade"
    assert [(ref.key, ref.role) for ref in upgrade.upstream] == [
        ("5aeb925", "pin"),
        ("#25345", "adapted"),
    ]
    fix = read("[Bugfix] Fix crash after 5aeb925", body)
    assert [(ref.key, ref.role) for ref in fix.upstream] == [
        ("5aeb925", "culprit"),
        ("#25345", "culprit"),
    ]


def test_an_upgrades_causes_are_what_it_adapted_to_and_its_own_commit_is_the_pin() -> None:
    body = (
        f"This pr bump vllm commit to {COMMIT}6d8246aaffff3ebec84767e373212a7b8da328e2\n"
        f"1. fix upstream changes {PULL}24548\n"
    )
    reading = read("[CI] Upgrade vLLM to 20250919 (6d8246aa) and fix", body)
    assert reading.relation == "upgrade"
    assert [(ref.key, ref.role) for ref in reading.upstream] == [
        ("6d8246a", "pin"),
        ("#24548", "adapted"),
    ]


# -- GitHub's word: verification ---------------------------------------------------------------


def item(number: int, *, kind: str = "pr", merged: datetime | None = None) -> ActivityItem:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    return ActivityItem(
        repo=UPSTREAM,
        number=number,
        kind=kind,  # type: ignore[arg-type]
        title=f"upstream {number}",
        author="someone",
        labels=(),
        state="closed" if merged else "open",
        created_at=at,
        updated_at=merged or at,
        url=f"https://github.com/{UPSTREAM}/pull/{number}",
        closed_at=merged,
        merged_at=merged,
    )


def link(*refs: UpstreamRef, relation: str = "breakage-fix", number: int = 1501) -> PluginLink:
    return PluginLink(
        "vllm-project/vllm-gaudi",
        number,
        "pr",
        "Fix",
        f"https://github.com/vllm-project/vllm-gaudi/pull/{number}",
        "dev",
        "merged",
        FIX_AT,
        relation,
        refs,
    )


def pr(number: int) -> UpstreamRef:
    return UpstreamRef(UPSTREAM, "pr-or-issue", number)


SHA = "abc1234def5678abc1234def5678abc1234def56"
BEFORE, AFTER = FIX_AT - timedelta(hours=1), FIX_AT + timedelta(hours=1)


@pytest.mark.parametrize(
    ("fact", "verdict"),
    [
        (item(30001, merged=BEFORE), "verified"),
        (item(30001, merged=FIX_AT), "verified"),  # merged the moment the fix was: not after
        (item(30001, merged=AFTER), "after-fix"),
        (item(30001), "unmerged"),
        (item(30001, kind="issue"), "issue"),
        (None, "missing"),  # GitHub answered 404
    ],
)
def test_a_cause_is_shown_only_as_a_pr_merged_before_the_fix(
    fact: ActivityItem | None, verdict: str
) -> None:
    checked = check(pr(30001), FIX_AT, {"#30001": fact})
    assert checked.verdict == verdict
    assert checked.confirmed == (verdict == "verified")
    shown = culprits([verify(link(pr(30001)), {"#30001": fact})], {})
    assert [c.ref.key for c in shown] == (["#30001"] if verdict == "verified" else [])


@pytest.mark.parametrize(
    ("opened_after", "merged_after", "verdict"),
    [
        (170, 200, "verified"),  # opened within 180 days, merged after: still the culprit
        (181, 200, "long-before"),  # opened over 180 days after the culprit merged
        (100, 150, "verified"),
    ],
)
def test_too_old_to_be_the_cause_counts_from_when_the_fix_was_opened(
    opened_after: int, merged_after: int, verdict: str
) -> None:
    """The 180-day rule (LONG_BEFORE_DAYS, docs/reports.md): a cause merged over 180 days
    before the fix was *opened* is not what broke it. A fix opened 170 days after its cause
    merged and reviewed for a month is dated from its opening, not from its merge."""
    cause = datetime(2025, 6, 1, tzinfo=UTC)
    fix = replace(
        link(pr(30001)),
        at=cause + timedelta(days=merged_after),  # merged
        opened_at=cause + timedelta(days=opened_after),
    )
    facts = {"#30001": item(30001, merged=cause)}
    (checked,) = verify(fix, facts).upstream
    assert checked.verdict == verdict
    assert check(pr(30001), fix.at, facts, fix.opened_at).verdict == verdict
    assert [c.ref.key for c in culprits([verify(fix, facts)], {})] == (
        ["#30001"] if verdict == "verified" else []
    )


def test_what_github_was_not_asked_about_is_never_a_culprit() -> None:
    checked = verify(link(pr(30001)), {})
    assert [ref.verdict for ref in checked.upstream] == ["unverified"]
    assert culprits([checked], {}) == []
    assert culprits([link(pr(30001))], {}) == []  # nor what was read but never checked


def test_a_commit_is_shown_as_the_pr_that_merged_it_or_not_at_all() -> None:
    commit = UpstreamRef(UPSTREAM, "commit", sha=SHA[:12])
    checked = check(commit, FIX_AT, {SHA[:12]: item(30006, merged=BEFORE)})
    assert (checked.key, checked.kind, checked.sha, checked.verdict) == (
        "#30006",
        "pr",
        SHA[:12],
        "verified",
    )
    assert check(commit, FIX_AT, {SHA[:12]: None}).verdict == "no-pr"
    # Named both ways, it is one culprit with one fix.
    both = verify(link(commit, pr(30006)), {SHA[:12]: item(30006, merged=BEFORE), "#30006": None})
    assert [(ref.key, ref.verdict) for ref in both.upstream] == [("#30006", "verified")]
    (only,) = culprits([both], {"#30006": "the title"})
    assert (only.ref.number, only.title, len(only.fixes)) == (30006, "the title", 1)


def test_a_commit_and_its_pr_named_twice_keep_the_confirmed_one() -> None:
    commit = UpstreamRef(UPSTREAM, "commit", sha=SHA[:12])
    related = UpstreamRef(UPSTREAM, "pr-or-issue", 30006, role="related")
    merged = {SHA[:12]: item(30006, merged=BEFORE)}
    first = verify(link(related, commit), merged)
    assert [(ref.key, ref.role, ref.verdict) for ref in first.upstream] == [
        ("#30006", "culprit", "verified")
    ]
    late = {SHA[:12]: item(30006, merged=AFTER)}
    second = verify(link(commit, related), late)
    assert [(ref.key, ref.role, ref.verdict) for ref in second.upstream] == [
        ("#30006", "culprit", "after-fix")
    ]


def test_only_causes_are_checked_and_only_fixes_name_culprits() -> None:
    related = UpstreamRef(UPSTREAM, "pr-or-issue", 30002, role="related")
    facts = {"#30001": item(30001, merged=BEFORE), "#30002": item(30002, merged=BEFORE)}
    checked = verify(link(pr(30001), related), facts)
    assert [(ref.key, ref.verdict) for ref in checked.upstream] == [
        ("#30001", "verified"),
        ("#30002", None),
    ]
    adapted = replace(pr(30001), role="adapted")
    upgrade = verify(link(adapted, relation="upgrade", number=1502), facts)
    assert [ref.key for ref in upgrade.confirmed] == ["#30001"]  # it adapted to #30001 ...
    assert [c.ref.key for c in culprits([upgrade, checked], {})] == ["#30001"]
    assert [f.number for f in culprits([upgrade, checked], {})[0].fixes] == [1501]  # ... no fix


def test_culprits_lead_with_the_most_plugins_then_the_most_fixes() -> None:
    facts = {f"#{n}": item(n, merged=BEFORE) for n in (30001, 30002, 30003)}
    gaudi = [verify(link(pr(30001), pr(30002), number=n), facts) for n in (1501, 1502)]
    ascend = replace(
        verify(link(pr(30003), pr(30002)), facts), plugin_repo="vllm-project/vllm-ascend"
    )
    order = [c.ref.key for c in culprits([*gaudi, ascend], {})]
    assert order == ["#30002", "#30001", "#30003"]
    # Alike in plugins and fixes: the newest fix first.
    facts["#30004"] = item(30004, merged=BEFORE)
    newer = replace(verify(link(pr(30004), number=1509), facts), at=FIX_AT + timedelta(days=1))
    older = verify(link(pr(30001), number=1510), facts)
    assert [c.ref.key for c in culprits([older, newer], {})] == ["#30004", "#30001"]


# -- on the 2025 records -----------------------------------------------------------------------


def test_on_the_2025_records_links_are_found_with_few_false_ones() -> None:
    """Precision and recall of (plugin PR, upstream change) links against the authors' own
    attributions, and mention-only records linked (benchmarks/radar_accuracy.py prints them,
    before and after verification)."""
    own: dict[str, int] = collections.defaultdict(int)
    for r in RECORDS:
        own[r["plugin_repo"]] = max(own[r["plugin_repo"]], r["plugin_number"])
    tp = fp = fn = linked_mentions = mentions = 0
    for r in RECORDS:
        got = read(
            r["plugin_title"],
            r.get("plugin_body") or r.get("plugin_body_excerpt"),
            own[r["plugin_repo"]],
        )
        truth = set() if r["relation"] == "mention-only" else {
            f"#{u['number']}" if u.get("number") else (u.get("sha") or "")[:7]
            for u in r["upstream_refs"] if u["role"] in ("culprit", "adapted")
        }  # fmt: skip
        said = {u.key for u in got.links}
        tp, fp, fn = tp + len(said & truth), fp + len(said - truth), fn + len(truth - said)
        mentions += r["relation"] == "mention-only"
        linked_mentions += r["relation"] == "mention-only" and bool(said)
    assert tp / (tp + fp) >= 0.95 and tp / (tp + fn) >= 0.95
    assert linked_mentions <= 0.2 * mentions


# -- a plugin's items, read ----------------------------------------------------------------


def plugin_item(
    number: int, title: str, body: str | None = None, *, merged: int = 0, opened: int = 0
) -> ActivityItem:
    day = datetime(2026, 3, 1, tzinfo=UTC)
    created = day + timedelta(days=opened or merged)
    at = day + timedelta(days=merged) if merged else None
    return ActivityItem(
        repo="vllm-project/vllm-gaudi",
        number=number,
        kind="pr",
        title=title,
        author="gaudi-dev",
        labels=(),
        state="closed" if at else "open",
        created_at=created - timedelta(hours=1),
        updated_at=created,
        url=f"https://github.com/vllm-project/vllm-gaudi/pull/{number}",
        closed_at=at,
        merged_at=at,
        body=body,
    )


def test_a_plugins_items_that_name_upstream_are_listed_newest_first() -> None:
    footer = f"- vLLM main: {COMMIT}f225ea7dd98e9f29752e5c032cd4a8ee1d712f16"
    items = [
        plugin_item(1601, "Fix crash caused by vllm#31000", merged=1),
        # An upgrade that names only the commit it moves to names no upstream change.
        plugin_item(1602, "[CI] Bump vLLM commit hash to 0923(f225ea7)", footer, merged=2),
        plugin_item(1603, "Faster sampler", merged=3),  # names nothing
        plugin_item(1604, "Fix hourly after vllm#31001", footer, opened=4),  # still open
        plugin_item(1605, "Remove the patch: fixed in vllm#31002", merged=5),
        # Named in the description only, bare: above the plugin's numbers (below: its own).
        plugin_item(
            1606, "Fix hourly", "Needed after the refactor in #31009 (see #1598)", merged=6
        ),
    ]
    found = plugin_links("vllm-project/vllm-gaudi", items, own_max=1700)
    day = datetime(2026, 3, 1, tzinfo=UTC)
    assert [(k.number, k.relation, k.state, k.at, [r.key for r in k.upstream]) for k in found] == [
        (1606, "breakage-fix", "merged", day + timedelta(days=6), ["#31009"]),
        (1605, "mention-only", "merged", day + timedelta(days=5), ["#31002"]),
        (1604, "breakage-fix", "open", day + timedelta(days=4, hours=-1), ["#31001"]),
        (1601, "breakage-fix", "merged", day + timedelta(days=1), ["#31000"]),
    ]  # the tested-on footer is where the PR stands, not a change it names
    assert found[3] == PluginLink(
        "vllm-project/vllm-gaudi",
        1601,
        "pr",
        "Fix crash caused by vllm#31000",
        "https://github.com/vllm-project/vllm-gaudi/pull/1601",
        "gaudi-dev",
        "merged",
        day + timedelta(days=1),
        "breakage-fix",
        (UpstreamRef(UPSTREAM, "pr-or-issue", 31000),),
        opened_at=day + timedelta(days=1, hours=-1),  # a cause is weighed against it
    )


def test_the_tested_on_footer_cut_out_leaves_the_words_after_a_ref_readable() -> None:
    """vllm-ascend's "vLLM main: <sha>" footer is cut out of the text (and kept as the
    baseline): the words after it still give the ref before it its role."""
    refs = upstream_refs("Fix x", "vllm#30000 vLLM main: 1a2b3c4d has been merged")
    assert [(ref.number, ref.sha, ref.role) for ref in refs] == [
        (30000, None, "upstream-fix"),
        (None, "1a2b3c4d", "baseline"),
    ]
