"""Claims in a report's text, read and checked against the facts of its window.

Any report text — our model's prose, or someone else's published report, in English or
Chinese, Markdown or plain — is read sentence by sentence for the claims a reader can check
on GitHub:

- `kind`: "Issue #38107", "PR #38086", "RFC #38256" (an RFC's title says RFC);
- `author`: "by andyluo7", "由 `andyluo7` 提交", "报告者 SilviuSavu", "请求方 (ehfd)";
- `title`: "PR #38086 ([ROCm] Enable VLLM triton FP8 moe for gfx1201)";
- `state`: where the item stood as the window ended — "(已合并)", "merged", "in review",
  "进行中", "已关闭"; "landed", "introduced", "now supports", "实现了", "引入" claim a merge;
- `count`: the window's figures and their population ("29 new issues", "合并 PR 44",
  "55 of the 100 new PRs were merged");
- `vendor`: an item named in a vendor's section (🎯 AMD …) must carry that vendor's evidence;
- `reference`: "#A fixes / resolves / answers / 修复 / 回应 #B".

Each claim gets a verdict: `correct`, `wrong` (with the truth), or `unverifiable` (the facts
do not say: an item outside the archive, a paraphrased title, a link our copy of the bodies
cannot show). `strict` makes an unsupported link wrong, for prose we publish ourselves (a
model may only state what the facts show); reading someone else's report it is unverifiable.
Pure: text and facts in, claims out.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from bot.analyze.references import links
from bot.model.claims import CLAIM_TYPES, Claim
from bot.model.report import ActivityItem, ListName, Report

__all__ = ["CLAIM_TYPES", "Claim", "Facts", "claims_in", "sentences", "state_at"]


@dataclass(frozen=True)
class Facts:
    """What claims are checked against: the window's report (its items and their context),
    any other archived item by number, and each item's topics (vendor placement)."""

    report: Report
    known: Mapping[int, ActivityItem] = field(default_factory=dict)
    topics: Callable[[ActivityItem], set[str]] = lambda item: set()
    vendor_names: Mapping[str, Sequence[str]] = field(default_factory=dict)  # key → names

    def item(self, number: int) -> ActivityItem | None:
        report = self.report
        return report.items.get(number) or report.context.get(number) or self.known.get(number)


# -- reading -------------------------------------------------------------------------------------

_REF = re.compile(r"(?<![\w&/])#(\d{2,7})\b")
_SENTENCE_END = re.compile(r"(?<=[。！？；])|(?<=[.!?;])\s+(?=[A-Z*#\[(`\"'“])|\n")
_KIND_BEFORE = re.compile(
    r"(issue|issues|pr|prs|pull request|rfc|议题)\s*(?:&\s*(?:pr|issue)\s*)?[:：]?\s*$", re.I
)
_LOGIN = r"`?@?(?P<login>[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?)`?"
# Who made it: the words before or after a login that say "the author".
_AUTHOR_CUES = (
    re.compile(rf"\bby\s+{_LOGIN}", re.I),
    re.compile(
        rf"由\s*(?:AMD\s*员工|Intel\s*员工|NVIDIA\s*员工)?\s*[（(]?\s*{_LOGIN}\s*[）)]?\s*(?:提交|提出|报告|发起|贡献)"
    ),
    re.compile(rf"(?:提交者|报告者|作者|发起者|请求方|提出者)\s*[（(]?\s*{_LOGIN}"),
    # A contributor or user is the author only when the words say they opened it.
    re.compile(
        rf"(?:贡献者|用户|维护者)\s*[（(]?\s*{_LOGIN}\s*[）)]?\s*(?:提交了|提交|提出了|发起了|报告了)"
    ),
    re.compile(rf"{_LOGIN}\s*(?:（|\()?\s*(?:PR\s*#\d+\s*)?作者"),
    re.compile(rf"{_LOGIN}\s*的贡献"),
    re.compile(rf"(?:AMD|Intel|NVIDIA)\s*员工\s*[（(]?\s*{_LOGIN}\s*[）)]?\s*(?:报告|提交|提出)"),
)
_STATE_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "merged",
        re.compile(
            r"已合并|被合并|合并了|已落地|\bmerged\b|\blanded\b|\bhas landed\b|\bwas merged\b",
            re.I,
        ),
    ),
    (
        "open",
        re.compile(
            r"审阅中|待合并|进行中|待审|仍开放|仍为\s*`?open`?|讨论中|\bin review\b"
            r"|\bunder review\b|\bstill open\b|\bis open\b|\bproposed\b|\bpending\b|\bopen\b",
            re.I,
        ),
    ),
    ("closed", re.compile(r"已关闭|被关闭|关闭了|\bclosed\b", re.I)),
)
# Words that say a change is in the code now: only a merge can have done that.
_LANDED_VERBS = re.compile(
    r"\b(?:introduced|landed|now supports?|now works|now runs|shipped|added support)\b"
    r"|引入了|实现了|修复了|现已支持",
    re.I,
)
_LINK_VERB = re.compile(
    r"\b(?:fixes|fixed|resolves|resolved|closes|closed|answers|answered|addresses|addressed)\b"
    r"|修复了?|解决了?|回应了?|对应的?|直接回应",
    re.I,
)
_VENDOR_HEADING = re.compile(r"^\s*(?:#{1,6}\s*)?(?:\d+\.\s*)?[^\n]{0,8}🎯\s*(?P<name>[^\n]+)$")
_APPENDIX = re.compile(r"^\s*(?:#{1,6}\s*)?(?:📋\s*)?(?:附录|Appendix)", re.I)
_ANY_HEADING = re.compile(r"^\s*#{1,6}\s+\S|^\s*[📊💬🔥🛠📈💡📋]")


def sentences(text: str) -> Iterator[tuple[str, str | None, bool]]:
    """(sentence, the vendor section it stands in or None, whether it opens its line) for
    every sentence of `text`."""
    vendor: str | None = None
    for line in text.splitlines():
        if _APPENDIX.match(line):
            return  # the list of every item: titles and logins, no claims of the writer's
        heading = _VENDOR_HEADING.match(line)
        if heading is not None:
            vendor = heading.group("name")
            continue
        if _ANY_HEADING.match(line):
            vendor = None
            continue
        first = True
        for part in _SENTENCE_END.split(line):
            part = part.strip(" -*>\t")
            if part:
                yield part, vendor, first
                first = False


# -- the claims of one sentence ------------------------------------------------------------------


def claims_in(text: str, facts: Facts, *, strict: bool = False) -> list[Claim]:
    """Every checkable claim of `text`, with its verdict."""
    found: list[Claim] = []
    vendor_keys = _vendor_keys(facts)
    last: list[tuple[int, int, int]] = []  # the items of the sentence before, on its line
    for sentence, section, opens_line in sentences(text):
        refs = _refs(sentence)
        last = [] if opens_line else last
        if not refs and last:  # "。由 `andyluo7` 提交": the author of what came before
            found += _author_claims([(last[-1][0], -1, -1)], sentence, facts)
        found += sentence_claims(sentence, facts, strict=strict)
        if strict:
            found += _vendor_word_claims(sentence, facts)
        last = refs or last
        if section is not None:
            key = _vendor_of(section, vendor_keys)
            if key is not None:
                found += _vendor_claims(sentence, key, section, facts)
    return found


def sentence_claims(sentence: str, facts: Facts, *, strict: bool = False) -> list[Claim]:
    """The claims of one sentence (vendor placement aside: it needs the section)."""
    refs = _refs(sentence)
    claims: list[Claim] = []
    for index, (number, start, end) in enumerate(refs):
        clause_end = refs[index + 1][1] if index + 1 < len(refs) else len(sentence)
        clause = sentence[end:clause_end]
        before = sentence[max(0, start - 24) : start]
        item = facts.item(number)
        claims += _kind_claims(number, before, sentence, item)
        claims += _title_claims(number, clause, sentence, item)
        claims += _state_claims(number, clause, sentence, item, facts)
    claims += _author_claims(refs, sentence, facts)
    claims += _link_claims(refs, sentence, facts, strict)
    claims += _count_claims(sentence, facts.report)
    return claims


def _refs(sentence: str) -> list[tuple[int, int, int]]:
    return [(int(m.group(1)), m.start(), m.end()) for m in _REF.finditer(sentence)]


def _kind_claims(number: int, before: str, sentence: str, item: ActivityItem | None) -> list[Claim]:
    match = _KIND_BEFORE.search(before)
    if match is None:
        return []
    word = match.group(1).lower()
    claimed = "rfc" if word == "rfc" else "issue" if word in ("issue", "issues", "议题") else "pr"
    if item is None:
        return [Claim(number, "kind", sentence, claimed, "unverifiable", "not in the archive")]
    actual = item.kind
    if claimed == "rfc":
        ok = "rfc" in item.title.lower()
        truth = "an RFC" if ok else f"a {'PR' if actual == 'pr' else 'issue'}, not an RFC"
    else:
        ok = claimed == actual
        truth = "a PR" if actual == "pr" else "an issue"
    return [Claim(number, "kind", sentence, claimed, "correct" if ok else "wrong", truth)]


_PAREN = re.compile(r"^[\s*]*[(（]\s*(?P<text>[^()（）]{1,160}?)\s*[)）]")
_COLON_TITLE = re.compile(r"^[\s*]*[:：][\s*]*(?P<text>\[[^\n]{6,160}?)(?:\*\*|。|$)")
_WORD = re.compile(r"[a-z0-9]+")


def _title_claims(
    number: int, clause: str, sentence: str, item: ActivityItem | None
) -> list[Claim]:
    """A title written right after the number: `(…)` or `: [Tag] …` (English words only; a
    paraphrase in Chinese is no claim of the title)."""
    claimed = _written_title(clause)
    if claimed is None:
        return []
    if item is None:
        return [Claim(number, "title", sentence, claimed, "unverifiable", "not in the archive")]
    return [
        Claim(number, "title", sentence, claimed, title_verdict(claimed, item.title), item.title)
    ]


def title_verdict(claimed: str, real: str) -> str:
    """A title written as the item's: correct when it is the title or a cut of it; wrong when
    it has words the title has not ("[ROCm] AITER fusion kernels for MLA" for a PR titled
    "[ROCm] Add AITER RMSNorm+FP8 quantization fusion for MLA"); else (words left out or
    moved) unverifiable."""
    said, title = _WORD.findall(claimed.lower()), _WORD.findall(real.lower())
    joined, whole = " ".join(said), " ".join(title)
    if joined and joined in whole:
        return "correct"
    return "wrong" if set(said) - set(title) else "unverifiable"


_STATE_ONLY = re.compile(r"(?:已合并|新增|进行中|已关闭|open|merged|closed|in review)", re.I)


def _written_title(clause: str) -> str | None:
    """The title right after a number: `(…)`, or `: [Tag] …` (after a `(state)` if any);
    English words only (a paraphrase in Chinese is no claim of the title)."""
    rest = clause
    paren = _PAREN.match(rest)
    if paren is not None:
        text = paren.group("text").strip(" *`")
        if not _STATE_ONLY.fullmatch(text):
            return text if _title_like(text) else None
        rest = rest[paren.end() :]
    colon = _COLON_TITLE.match(rest)
    if colon is None:
        return None
    text = colon.group("text").strip(" *`")
    return text if _title_like(text) else None


def _title_like(text: str) -> bool:
    """Written as a title: English, three words or more ("(CPU Offload)" is a topic, "(by
    tjtanaa)" an author)."""
    if text.lower().startswith(("by ", "@")):
        return False
    return _cjk_share(text) == 0 and len(_WORD.findall(text.lower())) >= 3


def _state_claims(
    number: int, clause: str, sentence: str, item: ActivityItem | None, facts: Facts
) -> list[Claim]:
    near = clause[:60]
    claimed = next((state for state, words in _STATE_WORDS if words.search(near)), None)
    landed = _LANDED_VERBS.search(clause[:80])
    if claimed is None and landed is not None:
        claimed = "merged"
    if claimed is None:
        return []
    if item is None:
        return [Claim(number, "state", sentence, claimed, "unverifiable", "not in the archive")]
    actual = state_at(item, facts.report)
    if claimed == "merged" and item.kind == "issue" and landed is not None:
        return []  # "修复了 …" about an issue reads as "the issue is fixed": not a merge claim
    ok = actual == claimed or (claimed == "closed" and actual == "merged")
    return [Claim(number, "state", sentence, claimed, "correct" if ok else "wrong", actual)]


def state_at(item: ActivityItem, report: Report) -> str:
    """merged, closed or open, as the window ended."""
    end = report.window.end
    if item.merged_at is not None and item.merged_at < end:
        return "merged"
    if item.closed_at is not None and item.closed_at < end:
        return "closed"
    return "open"


def _author_claims(
    refs: Sequence[tuple[int, int, int]], sentence: str, facts: Facts
) -> list[Claim]:
    """Each author cue names the author of the nearest item before it (else the first)."""
    claims: list[Claim] = []
    for cue in _AUTHOR_CUES:
        for match in cue.finditer(sentence):
            login = match.group("login")
            if not refs or login.lower() in _NOT_LOGINS:
                continue
            before = [r for r in refs if r[1] < match.start()]
            number = (before[-1] if before else refs[0])[0]
            item = facts.item(number)
            if item is None or item.author is None:
                claims.append(
                    Claim(number, "author", sentence, login, "unverifiable", "not in the archive")
                )
                continue
            ok = login.lower() == item.author.lower()
            claims.append(
                Claim(number, "author", sentence, login, "correct" if ok else "wrong", item.author)
            )
    return _unique(claims)


_NOT_LOGINS = frozenset({"pr", "issue", "the", "a", "an", "this", "amd", "intel", "nvidia"})


def _link_claims(
    refs: Sequence[tuple[int, int, int]], sentence: str, facts: Facts, strict: bool
) -> list[Claim]:
    """`#A … fixes … #B`: A and B are linked by a body, a title or a story."""
    claims: list[Claim] = []
    for (a, _, a_end), (b, b_start, _) in itertools.pairwise(refs):
        between = sentence[a_end:b_start]
        if _LINK_VERB.search(between) is None or len(between) > 60:
            continue
        first, second = facts.item(a), facts.item(b)
        claimed = f"#{a} answers #{b}"
        if first is None or second is None:
            claims.append(Claim(a, "reference", sentence, claimed, "unverifiable", "not archived"))
            continue
        if linked(first, second, facts.report):
            claims.append(Claim(a, "reference", sentence, claimed, "correct", "linked"))
            continue
        verdict = "wrong" if strict else "unverifiable"
        truth = "no body, title or story links them"
        claims.append(Claim(a, "reference", sentence, claimed, verdict, truth))
    return claims


def linked(first: ActivityItem, second: ActivityItem, report: Report) -> bool:
    """One names the other, or the report tells them as one story."""
    repo = report.repo
    if any(
        link.target == second.number for link in links(first.title, first.body, repo, first.number)
    ):
        return True
    if any(
        link.target == first.number
        for link in links(second.title, second.body, repo, second.number)
    ):
        return True
    sections = report.sections
    story = sections.story_of(first.number) if sections is not None else None
    return story is not None and second.number in story.numbers


# -- counts ----------------------------------------------------------------------------------

# The window's figures as reports write them, by the population each counts.
_COUNT_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "new_issues",
        (
            r"新\s*Issue\s*[:：]?\s*(\d+)",
            r"新增\s*Issue\s*(\d+)",
            r"(\d+)\s*(?:个)?新(?:的)?\s*Issue(?!\s*和)",
            r"\b(\d+)\s+new\s+issues?\b(?!\s+and)",
            r"\b(\d+)\s+issues?\s+(?:were\s+)?opened",
        ),
    ),
    (
        "closed_issues",
        (
            r"关闭\s*Issue\s*[:：]?\s*(\d+)",
            r"(\d+)\s*个?\s*Issue\s*(?:被)?关闭",
            r"\b(\d+)\s+issues?\s+(?:were\s+)?closed",
        ),
    ),
    (
        "new_prs",
        (
            r"新\s*PR\s*[:：]?\s*(\d+)",
            r"新增\s*PR\s*(\d+)",
            r"(\d+)\s*个\s*(?:新增的?|新的?)\s*PR",
            r"(\d+)\s*个新增",
            r"\b(\d+)\s+new\s+PRs?\b",
            r"\b(\d+)\s+PRs?\s+(?:were\s+)?opened",
        ),
    ),
    (
        "merged_prs",
        (
            r"(?<!未)合并\s*PR\s*[:：]?\s*(\d+)",
            r"(\d+)\s*个\s*(?:已)?合并",
            r"合并了\s*(\d+)\s*个",
            r"\b(\d+)\s+PRs?\s+(?:were\s+)?merged",
            r"\bmerged\s+(\d+)\s+PRs?",
        ),
    ),
    (
        "closed_unmerged_prs",
        (
            r"关闭未合并\s*PR\s*[:：]?\s*(\d+)",
            r"\b(\d+)\s+PRs?\s+(?:were\s+)?closed\s+without\s+merging",
        ),
    ),
    ("new_items", (r"(\d+)\s*个新的?\s*Issue\s*和\s*PR", r"\b(\d+)\s+new\s+issues\s+and\s+PRs")),
)
_COUNT_PATTERNS = tuple(
    (re.compile("|".join(f"(?:{p})" for p in patterns), re.I), population)
    for population, patterns in _COUNT_WORDS
)
# "55 of the 100 new PRs were merged": a share of a population, checked against it.
_SHARE = re.compile(
    r"\b(\d+)\s+of\s+(?:the\s+)?(\d+)\s+new\s+PRs?\s+(?:were\s+|got\s+)?merged"
    r"|(\d+)\s*个新(?:增)?\s*PR\s*中[^0-9]{0,8}(\d+)\s*个(?:已|被)?合并",
    re.I,
)


def _count_claims(sentence: str, report: Report) -> list[Claim]:
    stats = {name.value: count for name, count in report.stats.items()}
    stats["new_items"] = stats["new_issues"] + stats["new_prs"]
    claims: list[Claim] = []
    taken: list[tuple[int, int]] = []
    for share in _SHARE.finditer(sentence):
        claims.append(_share_claim(share, sentence, report))
        taken.append(share.span())
    for pattern, population in _COUNT_PATTERNS:
        for match in pattern.finditer(sentence):
            if any(a <= match.start() < b for a, b in taken):
                continue
            value = next(g for g in match.groups() if g)
            truth = stats[population]
            verdict = "correct" if int(value) == truth else "wrong"
            claims.append(
                Claim(
                    None,
                    "count",
                    sentence,
                    f"{population} {value}",
                    verdict,
                    f"{population} {truth}",
                )
            )
            taken.append(match.span())
    return claims


def _share_claim(share: re.Match[str], sentence: str, report: Report) -> Claim:
    if share.group(1):
        merged, of = int(share.group(1)), int(share.group(2))
    else:
        of, merged = int(share.group(3)), int(share.group(4))
    new_prs = [report.items[n] for n in report.lists[ListName.NEW_PRS]]
    truth_of = len(new_prs)
    truth_merged = sum(
        1 for it in new_prs if it.merged_at is not None and it.merged_at < report.window.end
    )
    ok = (merged, of) == (truth_merged, truth_of)
    return Claim(
        None,
        "count",
        sentence,
        f"{merged} of {of} new PRs merged",
        "correct" if ok else "wrong",
        f"{truth_merged} of {truth_of} new PRs merged",
    )


# -- vendors ---------------------------------------------------------------------------------


def _vendor_keys(facts: Facts) -> dict[str, str]:
    """Lower-cased names (AMD, ROCm, AMD/ROCm 生态 …) to vendor keys."""
    names: dict[str, str] = {}
    for key, spellings in facts.vendor_names.items():
        for name in spellings:
            names[name.lower()] = key
    return names


def _vendor_of(heading: str, names: Mapping[str, str]) -> str | None:
    low = heading.lower()
    for name, key in sorted(names.items(), key=lambda kv: -len(kv[0])):
        if name in low:
            return key
    return None


def _vendor_claims(sentence: str, key: str, section: str, facts: Facts) -> list[Claim]:
    claims = []
    for match in _REF.finditer(sentence):
        number = int(match.group(1))
        item = facts.item(number)
        if item is None:
            continue
        topics = facts.topics(item)
        ok = key in topics
        truth = (
            f"{key}" if ok else ("topics: " + ", ".join(sorted(topics)) if topics else "no vendor")
        )
        claims.append(Claim(number, "vendor", sentence, key, "correct" if ok else "wrong", truth))
    return _unique(claims)


# Words too common to say which vendor an item is ("CPU overhead", "arm of the test").
_GENERIC_VENDORS = frozenset({"cpu"})


def _vendor_word_claims(sentence: str, facts: Facts) -> list[Claim]:
    """In prose we publish: a vendor named right beside `#N` ("AMD's #38086", "#38086
    (ROCm)", "ROCm 上的 #38086") says #N is that vendor's, so #N must carry its evidence."""
    refs = _refs(sentence)
    claims: list[Claim] = []
    for index, (number, start, end) in enumerate(refs):
        item = facts.item(number)
        if item is None:
            continue
        before_from = refs[index - 1][2] if index else 0
        after_to = refs[index + 1][1] if index + 1 < len(refs) else len(sentence)
        near = (
            sentence[max(before_from, start - 16) : start]
            + " | "
            + sentence[end : min(after_to, end + 14)]
        )
        topics = facts.topics(item)
        for key, spellings in facts.vendor_names.items():
            if key in _GENERIC_VENDORS or key in topics:
                continue
            said = next((s for s in spellings if _names(s, near)), None)
            if said is not None:
                truth = "topics: " + ", ".join(sorted(topics)) if topics else "no vendor"
                claims.append(Claim(number, "vendor", sentence, key, "wrong", truth))
    return _unique(claims)


def _names(spelling: str, text: str) -> bool:
    word = re.escape(spelling.split(" 生态")[0])
    return re.search(rf"(?<![A-Za-z]){word}(?![A-Za-z])", text, re.I) is not None


# -- helpers ---------------------------------------------------------------------------------


def _cjk_share(text: str) -> float:
    if not text:
        return 0.0
    return sum(1 for c in text if "\u4e00" <= c <= "\u9fff") / len(text)


def _unique(claims: list[Claim]) -> list[Claim]:
    seen: set[tuple[int | None, str, str]] = set()
    out = []
    for claim in claims:
        key = (claim.number, claim.type, claim.claimed.lower())
        if key not in seen:
            seen.add(key)
            out.append(claim)
    return out


def wrong(claims: Sequence[Claim]) -> list[Claim]:
    return [c for c in claims if c.verdict == "wrong"]
