"""Claims in a report's text, read and checked against the facts of its window.

Any report text — our model's prose, or someone else's published report, in English or
Chinese, Markdown or plain — is read sentence by sentence (`reading`) for the claims a
reader can check on GitHub:

- `kind`: "Issue #38107", "PR #38086", "RFC #38256" (an RFC's title says RFC);
- `author`: "by andyluo7", "由 `andyluo7` 提交", "报告者 SilviuSavu", our rows' "— merged ·
  fadara01";
- `title`: "PR #38086 ([ROCm] Enable VLLM triton FP8 moe for gfx1201)";
- `state`: where the item stood as the window ended — "(已合并)", "merged", "in review",
  "进行中", "已关闭", "已解决"; "landed", "introduced", "实现了", "修复了" claim it landed
  (of an issue: that it was resolved); said of a paragraph's item without its `#N` too
  ("the MoE offloading RFC was merged" under "RFC #38256 …");
- `count`: the window's figures ("29 new issues", "合并 PR 44", "55 of the 100 new PRs were
  merged") and a vendor's ("NVIDIA: 9 merged PRs", "### Merged PRs (9)");
- `vendor`: an item a vendor's section (🎯 AMD …) names as its own must carry that vendor's
  evidence;
- `reference`: "#A fixes / resolves / answers / 修复 / 回应 #B".

Quotes claim nothing: a title written after its `#N`, an item's own words. Each claim gets a
verdict: `correct`, `wrong` (with the truth), or `unverifiable` (the facts do not say).
`strict` makes an unsupported link wrong, for prose we publish ourselves (a model may only
state what the facts show); reading someone else's report it is unverifiable. Pure: text
and facts in, claims out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.analyze.claims.checks import (
    ACHIEVED,
    author_claims,
    compact,
    kind_claims,
    kind_word_claims,
    link_claims,
    refs,
    said_state,
    state_claim,
    title_claims,
    title_verdict,
    vendor_claims,
    vendor_keys,
    vendor_of,
    vendor_word_claims,
)
from bot.analyze.claims.counts import count_claims, line_vendor, vendor_figure_claims
from bot.analyze.claims.facts import Facts, state_at
from bot.analyze.claims.reading import Sentence, sentences
from bot.analyze.claims.subjects import last_of_list
from bot.model.claims import CLAIM_TYPES, Claim

__all__ = [
    "CLAIM_TYPES",
    "Claim",
    "Facts",
    "Sentence",
    "claims_in",
    "sentences",
    "state_at",
    "title_verdict",
    "wrong",
]


def claims_in(text: str, facts: Facts, *, strict: bool = False) -> list[Claim]:
    """Every checkable claim of `text`, with its verdict."""
    found: list[Claim] = []
    names = vendor_keys(facts)
    last: list[tuple[int, int, int]] = []  # the items of the sentence before, on its line
    paragraphs: dict[int, list[int]] = {}  # each paragraph's items, in order
    speaker: str | None = None  # the vendor the line speaks for ("NVIDIA: 9 merged PRs")
    for sentence in sentences(text, facts):
        found_refs = refs(sentence.masked)
        items = paragraphs.setdefault(sentence.paragraph, [])
        if sentence.opens_line:
            last = []
            speaker = line_vendor(sentence.text, names)
        if not found_refs and last:  # "。由 `andyluo7` 提交": the author of what came before
            found += author_claims([(last[-1][0], -1, -1)], sentence.text, sentence.masked, facts)
        if not found_refs:
            found += paragraph_claims(sentence, items, facts)
        section = vendor_of(sentence.vendor, names) if sentence.vendor is not None else None
        found += sentence_claims(sentence, facts, strict=strict, vendor=speaker or section)
        if strict:
            found += vendor_word_claims(sentence.masked, sentence.text, facts)
        if section is not None:
            found += vendor_claims(sentence.text, sentence.masked, section, facts)
        last = found_refs or last
        items += [n for n, _, _ in found_refs if n not in items]
    return found


def sentence_claims(
    sentence: Sentence, facts: Facts, *, strict: bool = False, vendor: str | None = None
) -> list[Claim]:
    """The claims of one sentence (vendor placement aside: it needs the section). Where a
    vendor speaks (`vendor`), its figures are the vendor's, not the window's."""
    text, masked = sentence.text, sentence.masked
    found_refs = refs(masked)
    claims: list[Claim] = []
    shares = last_of_list(found_refs, masked)
    for index, (number, start, end) in enumerate(found_refs):
        clause_end = _clause_end(found_refs, index, masked)
        item = facts.item(number)
        claims += kind_claims(number, compact(masked[max(0, start - 24) : start]), text, item)
        claims += title_claims(number, text[end:clause_end], text, item)
        # Its state is said after its list's last item: "#A & #B were merged" of both.
        last = shares[index]
        said = compact(masked[found_refs[last][2] : _clause_end(found_refs, last, masked)])
        claimed, _ = said_state(said, strict=strict, many=last != index or _listed(shares, index))
        if claimed is not None:
            claims += state_claim(number, claimed, text, item, facts)
        if strict and index == 0:
            claims += kind_word_claims(number, compact(masked), text, item)
    claims += author_claims(found_refs, text, masked, facts)
    claims += link_claims(found_refs, text, masked, facts, strict)
    if vendor is None:
        claims += count_claims(masked, text, facts.report, strict=strict)
    else:
        claims += vendor_figure_claims(masked, text, vendor, facts)
    return claims


def _clause_end(found_refs: Sequence[tuple[int, int, int]], index: int, masked: str) -> int:
    """Where the words said of item `index` end: at the next item."""
    return found_refs[index + 1][1] if index + 1 < len(found_refs) else len(masked)


def _listed(shares: Sequence[int], index: int) -> bool:
    """Whether item `index` ends a list of two or more (its words are said of many)."""
    return index > 0 and shares[index - 1] == index


# A state said without the item's `#N`, of the paragraph's item: "the RFC was merged",
# "问题仍为 open", "RFC和PR均已关闭".
_PARAGRAPH_STATES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "merged",
        re.compile(
            r"\b(?:was|were|is|has been|have been|got)\s+(?:now\s+)?(?:merged|landed)\b"
            r"|已合并|已落地|(?<!未)(?<!没有)(?<!将)(?<!会)被合并",
            re.I,
        ),
    ),
    (
        "done",
        re.compile(
            r"\b(?:was|were|is|has been|have been|got)\s+(?:now\s+)?(?:resolved|fixed|mitigated)\b"
            r"|已解决|已缓解|已修复|问题(?:已|得到|被)?解决(?![场方思的])"
            # Verbs of landing, as said with the item's `#N` (checks.LANDED_VERBS).
            rf"|(?<![未没])得到缓解|{ACHIEVED}|首次引入",
            re.I,
        ),
    ),
    (
        "closed",
        re.compile(
            r"\b(?:was|were|is|has been|have been|got)\s+(?:now\s+)?closed\b|已关闭|被关闭", re.I
        ),
    ),
    (
        "open",
        re.compile(
            r"\b(?:still|remains?)\s+(?:open|in review|under review)\b|仍为\s*`?open`?|仍开放"
            r"|仍在审阅|(?:尚|仍|还)未(?:被)?合并",
            re.I,
        ),
    ),
)
# One item named by its kind ("the RFC", "该 PR", "Issue 被关闭"); never a counted many
# ("44 PRs were merged", "3 个 PR").
_SUBJECTS = (
    ("rfc", re.compile(r"(?<![A-Za-z])RFC(?![A-Za-z])", re.I)),
    ("pr", re.compile(r"(?<![A-Za-z])(?:PR|pull request)(?![A-Za-z])", re.I)),
    ("issue", re.compile(r"(?<![A-Za-z])issue(?![A-Za-z])|议题", re.I)),
)
_COUNTED = re.compile(r"[\d个]\s*$")


def _named_kinds(text: str) -> set[str]:
    """The kinds a sentence names one item by (not "3 个 PR")."""
    return {
        kind
        for kind, words in _SUBJECTS
        for match in words.finditer(text)
        if not _COUNTED.search(text[max(0, match.start() - 3) : match.start()])
    }


def paragraph_claims(sentence: Sentence, items: Sequence[int], facts: Facts) -> list[Claim]:
    """A state said without `#N` is said of the paragraph's item: the one it names by kind
    ("the RFC", "该 PR"), else its only item. Several items and no kind: nobody can tell."""
    text = compact(sentence.masked)
    claimed = next((state for state, words in _PARAGRAPH_STATES if words.search(text)), None)
    if claimed is None or not items:
        return []
    kinds = _named_kinds(text)
    if kinds:
        about = [n for n in items if _kind_of(facts, n) in kinds]
    else:
        about = list(items) if len(items) == 1 else []
    claims: list[Claim] = []
    for number in about:
        claims += state_claim(number, claimed, sentence.text, facts.item(number), facts)
    return claims


def _kind_of(facts: Facts, number: int) -> str | None:
    item = facts.item(number)
    if item is None:
        return None
    if item.kind == "issue" and "rfc" in item.title.lower():
        return "rfc"
    return item.kind


def wrong(claims: Sequence[Claim]) -> list[Claim]:
    return [c for c in claims if c.verdict == "wrong"]
