"""Every claim the checker reads in fifteen real texts, and its verdict, as `check` would
print it: our own reports of the three fixture days (Markdown and plain text, en and zh)
and the three model-written reports we replace (tests/data/published/).

What a reader relies on is asserted outright: our own reports have no wrong claim, and the
published ones have exactly the wrong claims listed (each checked by hand against GitHub's
facts, see tests/cli/test_check.py). The rest — which sentences claim what, which claims
are correct or unverifiable, and the truth told beside each — is one golden file, so that
a change to what the checker reads shows as a diff to be read (UPDATE_GOLDEN=1 rewrites
it). The checks run in memory on the fixture days' facts (no GitHub, no CLI), so the
mutation run (tools/mutation.py --truth) can afford them for every mutant.
"""

from __future__ import annotations

import json
import re
from functools import cache

import pytest

from bot.analyze import analyze
from bot.analyze.claims import Facts, claims_in
from bot.analyze.topics import classify
from bot.model.claims import Claim
from bot.model.rules import load_rules
from bot.model.windows import Window
from tests.anchor_data import AnchorDay, anchor_days, anchor_items, as_activity
from tests.cli.test_check import PUBLISHED, REPORTS, WRONG
from tests.golden import GOLDEN, check_golden

RULES = load_rules()


@cache
def facts(label: str) -> Facts:
    """The facts `check` reads for a fixture day: its report, and every other item by number."""
    day = next(d for d in anchor_days() if d.label == label)
    items = [as_activity(it) for it in anchor_items()]
    window = Window(day.start, day.end, "Asia/Shanghai", day.label)
    report = analyze(items, window, repo="vllm-project/vllm", rules=RULES, complete=True)
    known = {it.number: it for it in items}
    return Facts(report, known, lambda it: set(classify(it, RULES)), RULES.vendor_names())


def plain(markdown: str) -> str:
    """The report as text copied from a rendered page (as tests/cli/test_check_own_reports)."""
    text = re.sub(r"\[(#\d+)\]\([^)]*\)", r"\1", markdown)
    text = re.sub(r"^#{1,6}\s*", "", text, flags=re.M)
    text = re.sub(r"^(\s*)- ", r"\1• ", text, flags=re.M)
    return text.replace("**", "").replace("> ", "")


def texts() -> dict[str, tuple[str, str]]:
    """name → (day, text) of every text checked."""
    found = {}
    for day in anchor_days():
        for lang in ("en", "zh"):
            ours = (GOLDEN / f"report-{day.label}.{lang}.md").read_text(encoding="utf-8")
            found[f"ours {day.label} {lang} markdown"] = (day.label, ours)
            found[f"ours {day.label} {lang} plain"] = (day.label, plain(ours))
        published = (PUBLISHED / REPORTS[day.label]).read_text(encoding="utf-8")
        found[f"published {day.label}"] = (day.label, published)
    return found


def checked(name: str) -> list[Claim]:
    label, text = texts()[name]
    return claims_in(text, facts(label))


@pytest.mark.parametrize("day", anchor_days(), ids=lambda d: d.label)
def test_our_reports_say_nothing_wrong_and_the_published_their_known_errors(
    day: AnchorDay,
) -> None:
    for name in texts():
        if day.label not in name:
            continue
        claims = checked(name)
        wrong = {(c.number, c.type) for c in claims if c.verdict == "wrong"}
        assert wrong == (WRONG[day.label] if name.startswith("published") else set()), name
        assert sum(c.verdict == "correct" for c in claims) >= 35, name


def test_every_claim_and_verdict_is_what_it_was() -> None:
    said = {
        name: [
            f"{c.verdict} {c.type} #{c.number}: {c.claimed}"
            + (f" (truth: {c.truth})" if c.truth else "")
            for c in checked(name)
        ]
        for name in texts()
    }
    check_golden("claims.json", json.dumps(said, ensure_ascii=False, indent=1) + "\n")
