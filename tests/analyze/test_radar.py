"""The radar's reading of plugin PRs: real titles and bodies of 2025 (tests/data/radar/)."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest

from bot.analyze.radar import UPSTREAM, UpstreamRef, read, upstream_refs

RECORDS = json.loads(
    (Path(__file__).parents[1] / "data" / "radar" / "links-2025.json").read_text(encoding="utf-8")
)


def record(repo: str, number: int) -> dict:  # type: ignore[type-arg]
    return next(
        r for r in RECORDS if r["plugin_repo"].endswith(repo) and r["plugin_number"] == number
    )


def keys(title: str, body: str | None = None, own_max: int | None = None) -> list[str]:
    return [ref.key for ref in read(title, body, own_max).upstream]


@pytest.mark.parametrize(
    ("repo", "number", "relation", "links"),
    [
        ("tpu-inference", 307, "breakage-fix", ["#20588"]),  # a URL in the description
        ("vllm-gaudi", 499, "breakage-fix", ["#27658"]),  # [FIX_FOR_VLLM_LATEST] … #27658
        ("vllm-gaudi", 77, "breakage-fix", ["#22570"]),  # "caused by upstream update PR22570"
        ("vllm-ascend", 3221, "breakage-fix", ["#24982"]),  # "because of vllm #24982"
        ("vllm-ascend", 1573, "breakage-fix", ["7f280d6"]),  # an upstream commit
        ("vllm-ascend", 3091, "upgrade", ["#25345", "#25332", "#25334", "#23558"]),
        ("vllm-ascend", 764, "mention-only", ["#17446"]),  # a patch upstream made useless
        ("vllm-ascend", 2433, "mention-only", ["#8054"]),  # a maintainer nomination
    ],
)
def test_real_plugin_prs_are_read_as_their_authors_meant(
    repo: str, number: int, relation: str, links: list[str]
) -> None:
    found = record(repo, number)
    body = found.get("plugin_body") or found.get("plugin_body_excerpt")
    reading = read(found["plugin_title"], body, own_max=5500)
    assert found["relation"] == relation  # the authors' own attribution
    assert reading.relation == relation
    assert sorted(links) == sorted(ref.key for ref in reading.upstream)


def test_the_commit_a_pr_was_tested_on_is_no_cause() -> None:
    """vllm-ascend's footer names the upstream commit the PR ran against: not a culprit."""
    body = (
        "Follows the changes in vllm: https://github.com/vllm-project/vllm/pull/20701\n"
        "- vLLM version: v0.9.2\n"
        "- vLLM main: https://github.com/vllm-project/vllm/commit/cc876d0f2909ea62f8e96a9fe384162a1680a9c8"
    )
    assert keys("[Bugfix] Remove num_draft_tokens", body) == ["#20701"]
    # The same footer run together on one line, as squash commits keep it.
    assert keys("[Bugfix] Fix broken CI", body.replace("\n", " ")) == ["#20701"]


def test_other_projects_numbers_and_the_plugins_own_are_kept_apart() -> None:
    body = (
        "Bump numba (numba/numba#9912) and fix our #412; upstream vllm-project/vllm#24982 broke it."
    )
    assert keys("Fix CI after upstream change", body, own_max=600) == ["#24982"]
    # A bare #N above any number the plugin has given cannot be its own.
    assert keys("Fix failing due to (#16728)", None, own_max=600) == ["#16728"]
    assert keys("Fix failing due to (#412)", None, own_max=600) == []


def test_refs_name_their_repository_and_kind() -> None:
    refs = upstream_refs(
        "x", "see https://github.com/vllm-project/vllm/issues/11162 and vllm#25249"
    )
    assert refs == [
        UpstreamRef(UPSTREAM, "issue", 11162),
        UpstreamRef(UPSTREAM, "pr-or-issue", 25249),
    ]


def test_on_the_2025_records_links_are_found_with_few_false_ones() -> None:
    """Precision and recall of (plugin PR, upstream change) links against the authors' own
    attributions, and mention-only records linked (benchmarks/radar_accuracy.py prints them)."""
    own: dict[str, int] = collections.defaultdict(int)
    for r in RECORDS:
        own[r["plugin_repo"]] = max(own[r["plugin_repo"]], r["plugin_number"])
    tp = fp = fn = linked_mentions = 0
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
        said = {u.key for u in got.upstream} if got.relation != "mention-only" else set()
        tp, fp, fn = tp + len(said & truth), fp + len(said - truth), fn + len(truth - said)
        linked_mentions += r["relation"] == "mention-only" and bool(said)
    assert tp / (tp + fp) >= 0.9 and tp / (tp + fn) >= 0.9
    assert linked_mentions <= 2
