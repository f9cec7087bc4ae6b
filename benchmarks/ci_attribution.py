"""How right Red on main's suspects are, on real vLLM CI-failure episodes read in public
records (tests/data/ci/public-episodes.json: [CI Failure] issues, revert and fix PRs, the
CI failure analyzer's auto-revert PRs; each with its sources).

Three rules, each graded against the maintainers' verdict (`culprit`: a merged revert of
the PR, or a maintainer or the author saying it caused the failure):

- **named**: the rule before this change: the first vLLM PR the failure's text names is
  the suspect (what a model-written summary names, checked only by a time window);
- **evidence**: this change's rule (`bot.features.ci.analyze.suspect_of`) with what the
  public record holds: no blame range is listed in any record, so a suspect is shown only
  where a revert or fix naming one PR merged and the job passed after it; never a PR a
  person cleared, never on a flaky or infrastructure failure.

A suspect is right when it is the culprit, wrong when the record names another culprit, or
says the failure was flaky or infrastructure, or a person cleared it; unjudged otherwise.
Recall is right suspects over episodes with a culprit.

    python benchmarks/ci_attribution.py
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.features.ci.analyze import suspect_of
from bot.features.ci.model import BlameRange, Build, Failure

EPISODES = Path(__file__).parent.parent / "tests" / "data" / "ci" / "public-episodes.json"
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def named_rule(episode: dict[str, Any]) -> int | None:
    return episode["named"][0] if episode["named"] else None


def evidence_rule(episode: dict[str, Any]) -> int | None:
    """suspect_of on the episode as the record tells it: the PRs it names stand in the range
    (no record lists the real one); the revert or fix merged one hour after the first
    failure, and the job's pass (when the record says it passed after) an hour later."""
    named = tuple(episode["named"])
    fixed = episode["revert_or_fix"]
    target = episode["culprit"] if episode["culprit"] in named else None
    first = Build(1, "a", T0)
    passed = Build(2, "b", T0 + timedelta(hours=2)) if episode["job_passed_after_fix"] else None
    failure = Failure("e", episode["job"] or "", "nvidia", episode["kind"] or "code", first,
                      first, 1, passed, passed.at if passed else None)  # fmt: skip
    named_by = (
        {target: [(T0 + timedelta(hours=1), f"#{fixed} reverts it")]} if fixed and target else {}
    )
    # No record lists its real blame range: the named PRs and at least one unlisted one
    # (0), so "alone in its range" never fires on what a record happened to name.
    blame = BlameRange("a", "b", (*named, 0)) if named else None
    found = suspect_of(
        failure, blame, episode["kind"] == "flaky", frozenset(episode["cleared"]), named_by
    )
    return found[0] if found else None


def grade(episodes: list[dict[str, Any]], rule: Any) -> dict[str, int]:
    shown = right = wrong = 0
    for episode in episodes:
        suspect = rule(episode)
        if suspect is None:
            continue
        shown += 1
        if suspect == episode["culprit"]:
            right += 1
        elif (
            episode["culprit"] is not None
            or episode["kind"] in ("flaky", "infra")
            or suspect in episode["cleared"]
        ):
            wrong += 1
    return {"shown": shown, "right": right, "wrong": wrong}


def main() -> None:
    episodes = json.loads(EPISODES.read_text())["episodes"]
    culprits = sum(1 for e in episodes if e["culprit"] is not None)
    print(f"{len(episodes)} public episodes, {culprits} with a maintainers' culprit")
    for name, rule in (("named (before)", named_rule), ("evidence (now)", evidence_rule)):
        g = grade(episodes, rule)
        judged = g["right"] + g["wrong"]
        precision = f"{g['right'] / judged:.0%}" if judged else "n/a"
        recall = f"{g['right'] / culprits:.0%}" if culprits else "n/a"
        print(
            f"{name:15} shown {g['shown']:2}  right {g['right']:2}  wrong {g['wrong']:2}  "
            f"unjudged {g['shown'] - judged:2}  precision {precision:>4}  recall {recall:>4}"
        )


if __name__ == "__main__":
    main()
