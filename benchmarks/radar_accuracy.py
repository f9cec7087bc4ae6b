"""How well the radar reads plugin PRs (issue 21): its links to upstream against the plugin
authors' own attributions in tests/data/radar/links-2025.json (179 real 2025 plugin PRs of
vllm-ascend, vllm-gaudi, tpu-inference, vllm-spyre, vllm-omni; copied from
../shared/fixtures/radar/). Not part of CI.

    python benchmarks/radar_accuracy.py            # the figures
    python benchmarks/radar_accuracy.py --misses   # and every record it reads otherwise

A link is (plugin PR, upstream PR or commit) for a `breakage-fix` or `upgrade` record, the
upstream ref's role `culprit` or `adapted` (commits compared by their first 7 characters).
A `mention-only` record must give no link. `own_max` (the plugin's highest number, which
the archive knows) is taken from the records. The rules were written reading these same
records: there is no held-out set, so the figures are an upper bound for unseen plugins.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.analyze.radar import read

RECORDS = Path(__file__).resolve().parents[1] / "tests" / "data" / "radar" / "links-2025.json"


def truth_of(record: dict) -> set[str]:
    if record["relation"] == "mention-only":
        return set()
    return {
        f"#{u['number']}" if u.get("number") else (u.get("sha") or "")[:7]
        for u in record["upstream_refs"]
        if u["role"] in ("culprit", "adapted")
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true")
    args = parser.parse_args()
    records = json.loads(RECORDS.read_text(encoding="utf-8"))
    own: dict[str, int] = collections.defaultdict(int)
    for r in records:
        own[r["plugin_repo"]] = max(own[r["plugin_repo"]], r["plugin_number"])
    tp = fp = fn = right = 0
    mention = mention_linked = 0
    by_plugin: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
    culprits: collections.Counter[str] = collections.Counter()
    for r in records:
        body = r.get("plugin_body") or r.get("plugin_body_excerpt")
        got = read(r["plugin_title"], body, own[r["plugin_repo"]])
        right += got.relation == r["relation"]
        truth = truth_of(r)
        said = (
            {u.key for u in got.upstream} if got.relation in ("breakage-fix", "upgrade") else set()
        )
        tp, fp, fn = tp + len(said & truth), fp + len(said - truth), fn + len(truth - said)
        counts = by_plugin[r["plugin_repo"]]
        counts[0] += len(said & truth)
        counts[1] += len(said - truth)
        counts[2] += len(truth - said)
        if got.relation == "breakage-fix":
            culprits.update(k for k in said if k.startswith("#"))
        if r["relation"] == "mention-only":
            mention += 1
            mention_linked += bool(said)
        if args.misses and (said != truth or got.relation != r["relation"]):
            print(
                f"  {r['plugin_repo']}#{r['plugin_number']}: {r['relation']} read as "
                f"{got.relation}; missed {sorted(truth - said)}, extra {sorted(said - truth)}"
            )
    print(f"{len(records)} plugin PRs, {tp + fn} links in the records")
    print(
        f"links: precision {tp / (tp + fp):.3f}, recall {tp / (tp + fn):.3f} "
        f"(found {tp}, extra {fp}, missed {fn})"
    )
    print(f"relation right: {right} of {len(records)}")
    print(f"mention-only records given a link: {mention_linked} of {mention}")
    for plugin, (t, f, n) in sorted(by_plugin.items()):
        p = t / (t + f) if t + f else 1.0
        rc = t / (t + n) if t + n else 1.0
        print(f"  {plugin:<28} precision {p:.2f} recall {rc:.2f} ({t + n} links)")
    print(
        "upstream PRs most often named as breaking a plugin:",
        ", ".join(f"{k} ({v})" for k, v in culprits.most_common(5)),
    )


if __name__ == "__main__":
    main()
