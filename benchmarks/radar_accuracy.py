"""How well the radar reads plugin PRs: what it would show as links to upstream vLLM,
against the plugin authors' own attributions in tests/data/radar/links-2025.json
(179 real 2025 plugin PRs of vllm-ascend, vllm-gaudi, tpu-inference, vllm-spyre, vllm-omni;
copied from ../shared/fixtures/radar/). Not part of CI.

    python benchmarks/radar_accuracy.py            # the figures
    python benchmarks/radar_accuracy.py --misses   # and every record it reads otherwise

A link is (plugin PR, upstream PR or commit) for a `breakage-fix` or `upgrade` record, the
upstream ref's role `culprit` or `adapted` (commits compared by their first 7 characters).
A `mention-only` record must give no link. `own_max` (the plugin's highest number, which
the archive knows) is taken from the records.

Two stages are measured: the links after reading (`bot.features.radar.reading.read`: the refs whose
role is a cause), and the links the radar would show after verification
(`bot.features.radar.reading.check`), given only what real GitHub would say of an upstream number:
whether it is a pull request or an issue, taken from the kinds the records give it (a
number any record gives as a PR is one); when it merged is not in the records, so a PR is
taken as merged the day before the first plugin record naming it; a number no record names,
and a commit (which PR merged it is not in the records), is kept as if GitHub confirmed it.
The records' `role` and `relation` labels are never an input, only the truth compared with.

No held-out set: the reading's rules were written reading these same records, so every
figure is an upper bound for plugins and phrasings not seen. The per-plugin lines are the
only split (each plugin's own figures, rules shared).
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.features.radar.model import UPSTREAM, Reading
from bot.features.radar.reading import check, fact_key, read
from bot.model.report import ActivityItem

RECORDS = Path(__file__).resolve().parents[1] / "tests" / "data" / "radar" / "links-2025.json"
# A merge time the records do not give: the day before the first plugin record naming the
# number, so neither "merged after the fix" nor "merged long before it" can fail on it.
BEFORE_THE_FIX = timedelta(days=1)


def truth_of(record: dict[str, Any]) -> set[str]:
    if record["relation"] == "mention-only":
        return set()
    return {
        f"#{u['number']}" if u.get("number") else (u.get("sha") or "")[:7]
        for u in record["upstream_refs"]
        if u["role"] in ("culprit", "adapted")
    }


def github_facts(records: list[dict[str, Any]]) -> dict[str, ActivityItem | None]:
    """What GitHub would say of each upstream number the records name: a PR (merged, when
    not known) or an issue. Only `kind`, `merged_at` and `title` are read."""
    kinds: dict[int, set[str]] = collections.defaultdict(set)
    first: dict[int, datetime] = {}
    for record in records:
        for ref in record["upstream_refs"]:
            if ref.get("repo") == UPSTREAM and ref.get("number"):
                kinds[ref["number"]].add(ref["kind"])
                named = first.get(ref["number"])
                first[ref["number"]] = min(named, when(record)) if named else when(record)
    facts: dict[str, ActivityItem | None] = {}
    for number, said in kinds.items():
        if "pr" in said or "issue" in said:
            kind = "pr" if "pr" in said else "issue"
            merged = first[number] - BEFORE_THE_FIX
            facts[f"#{number}"] = ActivityItem(
                repo=UPSTREAM,
                number=number,
                kind=kind,  # type: ignore[arg-type]
                title="",
                author=None,
                labels=(),
                state="closed",
                created_at=merged,
                updated_at=merged,
                url=f"https://github.com/{UPSTREAM}/pull/{number}",
                merged_at=merged if kind == "pr" else None,
            )
    return facts


def shown(reading: Reading, at: datetime, facts: dict[str, ActivityItem | None]) -> set[str]:
    """The links the radar would show: causes GitHub (as far as the records tell) confirms."""
    kept = set()
    for ref in reading.links:
        if ref.number is None or fact_key(ref) not in facts:
            kept.add(ref.key)  # a commit, or a number nobody recorded: taken as confirmed
        elif check(ref, at, facts).confirmed:
            kept.add(ref.key)
    return kept


@dataclass
class Tally:
    found: int = 0
    extra: int = 0
    missed: int = 0
    mentions: int = 0
    mentions_linked: int = 0
    plugins: dict[str, list[int]] = field(
        default_factory=lambda: collections.defaultdict(lambda: [0, 0, 0])
    )

    def add(self, plugin: str, said: set[str], truth: set[str], mention: bool) -> None:
        found, extra, missed = len(said & truth), len(said - truth), len(truth - said)
        self.found, self.extra, self.missed = (
            self.found + found,
            self.extra + extra,
            self.missed + missed,
        )
        counts = self.plugins[plugin]
        counts[0], counts[1], counts[2] = counts[0] + found, counts[1] + extra, counts[2] + missed
        self.mentions += mention
        self.mentions_linked += mention and bool(said)

    def print(self, stage: str) -> None:
        found, extra, missed = self.found, self.extra, self.missed
        precision, recall = found / (found + extra), found / (found + missed)
        print(
            f"{stage}: precision {precision:.3f}, recall {recall:.3f}"
            f" (found {found}, extra {extra}, missed {missed}); mention-only records given a "
            f"link: {self.mentions_linked} of {self.mentions}"
        )
        for plugin, (t, f, n) in sorted(self.plugins.items()):
            p = t / (t + f) if t + f else 1.0
            rc = t / (t + n) if t + n else 1.0
            print(f"  {plugin:<28} precision {p:.2f} recall {rc:.2f} ({t + n} links)")


def when(record: dict[str, Any]) -> datetime:
    if record["plugin_merged_at"]:
        return datetime.fromisoformat(record["plugin_merged_at"])
    return datetime.fromisoformat(record["plugin_created_at"] + "T00:00:00+00:00")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true")
    args = parser.parse_args()
    records = json.loads(RECORDS.read_text(encoding="utf-8"))
    facts = github_facts(records)
    own: dict[str, int] = collections.defaultdict(int)
    for r in records:
        own[r["plugin_repo"]] = max(own[r["plugin_repo"]], r["plugin_number"])
    reading, verified = Tally(), Tally()
    right = 0
    culprits: collections.Counter[str] = collections.Counter()
    for r in records:
        body = r.get("plugin_body") or r.get("plugin_body_excerpt")
        got = read(r["plugin_title"], body, own[r["plugin_repo"]])
        right += got.relation == r["relation"]
        truth, mention = truth_of(r), r["relation"] == "mention-only"
        said = {ref.key for ref in got.links}
        reading.add(r["plugin_repo"], said, truth, mention)
        checked = shown(got, when(r), facts)
        verified.add(r["plugin_repo"], checked, truth, mention)
        if got.relation == "breakage-fix":
            culprits.update(k for k in checked if k.startswith("#"))
        if args.misses and (checked != truth or got.relation != r["relation"]):
            roles = ", ".join(f"{ref.key} {ref.role}" for ref in got.upstream)
            print(
                f"  {r['plugin_repo']}#{r['plugin_number']}: {r['relation']} read as "
                f"{got.relation}; missed {sorted(truth - checked)}, extra "
                f"{sorted(checked - truth)} ({roles})"
            )
    print(f"{len(records)} plugin PRs, {reading.found + reading.missed} links in the records")
    print(f"relation right: {right} of {len(records)}")
    reading.print("links after reading")
    verified.print("links shown after verification")
    print(
        "upstream PRs most often named as breaking a plugin:",
        ", ".join(f"{k} ({v})" for k, v in culprits.most_common(5)),
    )


if __name__ == "__main__":
    main()
