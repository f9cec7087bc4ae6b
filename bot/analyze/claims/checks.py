"""Claims about items, each checked against the facts: kind, title, state, author, what
fixes what, and where a vendor section files it.

Read in the writer's own words only (`Sentence.masked`): a title or an item's own words
quoted in the sentence claim nothing ("Enable tcmalloc by default" names no author).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence

from bot.analyze.claims.facts import Facts, state_at
from bot.analyze.claims.reading import FILL, REF
from bot.analyze.claims.subjects import PLURAL_LANDED, enumerated, subject_lists
from bot.analyze.references import links
from bot.model.claims import Claim
from bot.model.report import ActivityItem, Report

_KIND_BEFORE = re.compile(
    r"(issue|issues|pr|prs|pull request|rfc|议题)\s*(?:&\s*(?:pr|issue)\s*)?[:：]?\s*$", re.I
)
_LOGIN = r"`?@?(?P<login>[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?)`?"
# Who made it: the words before or after a login that say "the author".
AUTHOR_CUES = (
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
    # Our own rows: "#37607 [CPU] Enable tcmalloc by default — merged · fadara01".
    re.compile(rf"—\s*[^—·\n{FILL}]{{1,40}}?\s*·\s*{_LOGIN}\s*$"),
)
# "by default", "by adding", "by correctly": English after "by", not a person. A word
# that is some known item's author still counts as one.
_BY_WORDS = frozenset(
    """
    default design hand far now then way means itself title themselves the a an this that these
    those it its them people up over about around more less half percent factor batch name
    which whom whether some each one two three all both either any hardware software users
    design construction contrast comparison definition nature far mistake accident chance
    long short large small big huge high low much many most several multiple various other
    another different new old single separate same such just only pure simple poor bad good
    heavy light tens hundreds thousands millions default
    """.split()  # noqa: SIM905 - a word list reads best as words
)
_NOT_LOGINS = frozenset({"pr", "issue", "the", "a", "an", "this", "amd", "intel", "nvidia"})
# Words that deny what follows ("not merged", "尚未被合并", "will be merged"): no claim it
# happened (a denial of a merge says open, below).
_NOT_EN = (
    r"(?<!\bnot )(?<!\bnot yet )(?<!\bnot been )(?<!n't been )(?<!\bnever )(?<!n't )(?<!\bbe )"
)
_NOT_ZH = r"(?<!未)(?<!没有)(?<!将)(?<!会)"
STATE_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "merged",
        re.compile(
            rf"已合并|{_NOT_ZH}被合并|合并了|已落地|{_NOT_EN}\bmerged\b|{_NOT_EN}\blanded\b"
            r"|\bhas landed\b|\bwas merged\b",
            re.I,
        ),
    ),
    (
        "open",
        re.compile(
            r"审阅中|待合并|进行中|待审|仍开放|仍为\s*`?open`?|讨论中|\bin review\b"
            r"|\bunder review\b|\bstill open\b|\bis open\b|\bproposed\b|\bpending\b|\bopen\b"
            r"|(?:尚|仍|还)未(?:被)?合并|\bnot (?:yet )?(?:been )?merged\b|\byet to be merged\b",
            re.I,
        ),
    ),
    # Said of an issue it means closed, of a PR merged ("已解决", "mitigated").
    (
        "done",
        re.compile(
            r"已解决|(?<![未没])得到(?:解决|缓解)|已缓解|已修复|被修复|\bmitigated\b|\bresolved\b"
            r"|\bis fixed\b"
            r"|\bwas fixed\b|\bhas been fixed\b",
            re.I,
        ),
    ),
    ("closed", re.compile(r"已关闭|被关闭|关闭了|\bclosed\b", re.I)),
)
# "实现了 1.5 倍提升", "实现了显著加速": a figure achieved (an open PR's benchmark), no landing.
# "实现了 X" says X is in the code; "实现了 3.6x 加速", "实现了更低的延迟" say what it
# achieves (a figure, a gain), which open work claims too.
ACHIEVED = (
    r"(?<![旨以来将可能])实现了(?![\s*]*(?:约|高达|最高|近|超过|平均)?[\s*]*\d"
    r"|[^。；，,]{0,12}(?:提升|加速|提速|降低|减少|节省|改进|改善|优化|更)|[\s*]*更)"
)
# Words that say a change is in the code now: only a merge can have done that (of an issue:
# that it was resolved, so closed).
LANDED_VERBS = re.compile(
    r"\b(?:introduced|landed|now supports?|now works|now runs|shipped|added support)\b"
    rf"|引入了|首次引入|{ACHIEVED}|修复了|现已支持",
    re.I,
)
_LINK_VERB = re.compile(
    r"\b(?:fixes|fixed|resolves|resolved|closes|closed|answers|answered|addresses|addressed)\b"
    r"|修复了?|解决了?|回应了?|对应的?|直接回应",
    re.I,
)
# Words before a `#N` that name a story's member, not the section's own item ("related
# #38057", "revert proposed in #38169", "后续：#38263").
RELATION_WORDS = re.compile(
    r"\b(?:fix(?:es|ed by| proposed in)?|delivers|backport(?: of)?|reverted by|reverts?"
    r"|revert proposed in|re-land(?:s|ed in| proposed in)|replaced by|replaces"
    r"|proposes a fix for|brings"
    r"|replacement proposed in|follow-up|builds on|duplicate|related(?: by title)?"
    r"|same series|same title and author|reported after it|after the change in"
    r"|test fix(?: proposed)? in|for the CI failure|would fix|had proposed a fix for"
    r"|fixed by|would bring|to be merged after)\s*$"
    r"|(?:已由其修复|已由以下 PR 修复|已有修复 PR|已提出修复|曾?拟修复|修复|拟?将|回移自?"
    r"|backport 自?"
    r"|合并后报告的问题|发生在以下改动合并之后|已提出测试修复|测试修复|对应 CI 失败|需在"
    r"|已有回退 PR|已被回退|已提出回退|回退|已?重新合入|已提出重新合入"
    r"|已?被替代|已提出替代|替代|后续|基于|重复|标题相[关似]|相关|同系列|同作者同标题|对应需求|已实现需求)[：:]?\s*$",
    re.I,
)


def refs(text: str) -> list[tuple[int, int, int]]:
    """(number, start, end) of every `#N` of `text`."""
    return [(int(m.group(1)), m.start(), m.end()) for m in REF.finditer(text)]


def compact(text: str) -> str:
    """Text with its blanked quotes cut out (how near a word is to its `#N`)."""
    return text.replace(FILL, "")


def kind_claims(number: int, before: str, sentence: str, item: ActivityItem | None) -> list[Claim]:
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
        truth = "an RFC" if ok else f"{'a PR' if actual == 'pr' else 'an issue'}, not an RFC"
    else:
        ok = claimed == actual
        truth = "a PR" if actual == "pr" else "an issue"
    return [Claim(number, "kind", sentence, claimed, "correct" if ok else "wrong", truth)]


_PAREN = re.compile(r"^[\s*]*[(（]\s*(?P<text>[^()（）]{1,160}?)\s*[)）]")
_COLON_TITLE = re.compile(r"^[\s*]*[:：][\s*]*(?P<text>\[[^\n]{6,160}?)(?:\*\*|。|$)")
_WORD = re.compile(r"[a-z0-9]+")


def title_claims(number: int, clause: str, sentence: str, item: ActivityItem | None) -> list[Claim]:
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


# A state in brackets after `#N` ("(closed as completed)", "（已解决关闭）"): no title.
_STATE_ONLY = re.compile(
    r"(?:已合并|新增|进行中|已关闭|审阅中|草稿|待处理|未合并关闭|已解决(?:关闭)?|不予处理(?:关闭)?|(?:因)?重复关闭"
    r"|过期关闭|RFC 讨论中|open|merged|closed|in review|draft|RFC, open"
    r"|closed (?:as (?:completed|not planned|duplicate|stale)|without merging))",
    re.I,
)


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
    return not _has_cjk(text) and len(_WORD.findall(text.lower())) >= 3


# In prose we publish, a verb of landing in any tense says the work is in ("#38086 adds
# …", "#38077 修复 …"), unless the words before it say it is proposed ("would add", "拟新增").
PRESENT_LANDED = re.compile(
    r"\b(?:fixes|introduces|adds|implements|enables|resolves|removes|brings|delivers)\b"
    # A Chinese verb, not the noun it also is ("……的实现", "实现细节").
    r"|(?<!的)(?:修复|引入|新增|实现|解决|移除|添加|启用|带来|去掉|去除|删除|删去|替换|取消|禁用"
    r"|合入|支持了|优化了|提高了|提升了|降低了|减少了|改为|统一了)(?!细节|方案|方式|原理|过程|、|$)",
    re.I,
)
_PROPOSED = re.compile(
    r"\bwould\b|\bwill\b|\bproposes?\b|\baims? to|\bplans? to|\btries to|\bwants to"
    r"|\bcould\b|\bshould\b|拟|提议|将|计划|旨在|尝试|希望|想要",
    re.I,
)


def said_state(text: str, *, strict: bool = False, many: bool = False) -> tuple[str | None, bool]:
    """The state a clause gives its item (merged, open, done, closed), and whether it said
    so with a verb of landing ("introduced", "修复了"; with `strict` any tense: "fixes",
    "修复", unless proposed; said of `many` items, "add" as well as "adds")."""
    claimed = next((state for state, words in STATE_WORDS if words.search(text[:60])), None)
    landed = LANDED_VERBS.search(text[:80]) is not None
    if strict and not landed:
        verb = PRESENT_LANDED.search(text[:80])
        if verb is None and many:
            verb = PLURAL_LANDED.search(text[:80])
        landed = verb is not None and not _PROPOSED.search(text[: verb.start()])
    if claimed is None and landed:
        claimed = "done"
    return claimed, landed


# "#38077 … the PR fixes …", "该 PR 修复 …": the sentence's item called a PR.
_PR_WORDS = re.compile(
    r"\b(?:this|the)\s+(?:pull request|PR)\b|\bPR\s+(?:fixes|adds|introduces|implements|"
    r"resolves|would|proposes)\b|(?:该|此|这个|本)\s*PR|PR\s*(?:修复|新增|引入|实现|提议|拟)"
    r"|(?:是|为)(?:一个|一项)?\s*PR(?![\w#])",
    re.I,
)


def kind_word_claims(
    number: int, text: str, sentence: str, item: ActivityItem | None
) -> list[Claim]:
    """In prose we publish about one item: calling it "the PR" says it is one."""
    if item is None or _PR_WORDS.search(text) is None:
        return []
    ok = item.kind == "pr"
    truth = "a PR" if ok else "an issue"
    return [Claim(number, "kind", sentence, "pr", "correct" if ok else "wrong", truth)]


def state_claim(
    number: int, claimed: str, sentence: str, item: ActivityItem | None, facts: Facts
) -> list[Claim]:
    """`claimed` (merged, open, done, closed) of item `number` as the window ended. Done is
    merged for a PR, closed for an issue: "修复了 #38077" of an open bug is wrong."""
    if item is None:
        return [Claim(number, "state", sentence, claimed, "unverifiable", "not in the archive")]
    actual = state_at(item, facts.report)
    if claimed == "done":
        claimed = "merged" if item.kind == "pr" else "closed"
    ok = actual == claimed or (claimed == "closed" and actual == "merged")
    return [Claim(number, "state", sentence, claimed, "correct" if ok else "wrong", actual)]


def author_claims(
    found_refs: Sequence[tuple[int, int, int]], sentence: str, masked: str, facts: Facts
) -> list[Claim]:
    """Each author cue names the author of the nearest item before it (else the first), and
    of each item listed with it ("#A & #B by alice", "由 alice 提交的 #A、#B")."""
    claims: list[Claim] = []
    lists = subject_lists(found_refs, masked) if len(found_refs) > 1 else [[0]]
    for cue in AUTHOR_CUES:
        for match in cue.finditer(masked):
            login = match.group("login")
            if not found_refs or not _a_login(login, facts):
                continue
            before = [i for i, r in enumerate(found_refs) if r[1] < match.start()]
            nearest = before[-1] if before else 0
            run = next(run for run in lists if nearest in run)
            said_of = run if nearest == run[-1] or not before else [nearest]
            for index in said_of:
                claims.append(_author_claim(found_refs[index][0], login, sentence, facts))
    return unique(claims)


def _author_claim(number: int, login: str, sentence: str, facts: Facts) -> Claim:
    item = facts.item(number)
    if item is None or item.author is None:
        return Claim(number, "author", sentence, login, "unverifiable", "not in the archive")
    ok = login.lower() == item.author.lower()
    return Claim(number, "author", sentence, login, "correct" if ok else "wrong", item.author)


def _a_login(word: str, facts: Facts) -> bool:
    """Whether a word after an author cue can be a person: not "the", not English that
    follows "by" ("default", "adding", "correctly"), unless someone known has that login."""
    low = word.lower()
    if low in _NOT_LOGINS:
        return False
    if low in facts.authors:
        return True
    english = low in _BY_WORDS or (low.isalpha() and low.endswith(("ing", "ly", "ed")))
    return not english


def link_claims(
    found_refs: Sequence[tuple[int, int, int]],
    sentence: str,
    masked: str,
    facts: Facts,
    strict: bool,
) -> list[Claim]:
    """`#A … fixes … #B`: A and B are linked by a body, a title or a story."""
    claims: list[Claim] = []
    for (a, _, a_end), (b, b_start, _) in itertools.pairwise(found_refs):
        between = compact(masked[a_end:b_start])
        # "#37346 修复、#36808 新功能": a list of items with their kinds, not a link.
        if _LINK_VERB.search(between) is None or len(between) > 60 or enumerated(between):
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


# -- vendors ---------------------------------------------------------------------------------


def vendor_keys(facts: Facts) -> dict[str, str]:
    """Lower-cased names (AMD, ROCm, AMD/ROCm 生态 …) to vendor keys."""
    names: dict[str, str] = {}
    for key, spellings in facts.vendor_names.items():
        for name in spellings:
            names[name.lower()] = key
    return names


def vendor_of(heading: str, names: Mapping[str, str]) -> str | None:
    low = heading.lower()
    for name, key in sorted(names.items(), key=lambda kv: -len(kv[0])):
        if name in low:
            return key
    return None


def vendor_claims(sentence: str, masked: str, key: str, facts: Facts) -> list[Claim]:
    """Items a vendor's section names as its own: each must carry the vendor's evidence.
    A story's member named after a relation word ("related #38057") is not the section's
    own item, nor is anything named after one in the same sentence."""
    claims = []
    start = 0
    for number, begin, end in refs(masked):
        if RELATION_WORDS.search(compact(masked[start:begin])):
            break
        start = end
        item = facts.item(number)
        if item is None:
            continue
        topics = facts.topics(item)
        ok = key in topics
        truth = (
            f"{key}" if ok else ("topics: " + ", ".join(sorted(topics)) if topics else "no vendor")
        )
        claims.append(Claim(number, "vendor", sentence, key, "correct" if ok else "wrong", truth))
    return unique(claims)


# Words too common to say which vendor an item is ("CPU overhead", "arm of the test").
_GENERIC_VENDORS = frozenset({"cpu"})


def vendor_word_claims(masked: str, sentence: str, facts: Facts) -> list[Claim]:
    """In prose we publish: a vendor named right beside `#N` ("AMD's #38086", "#38086
    (ROCm)", "ROCm 上的 #38086") says #N is that vendor's, so #N must carry its evidence
    (and a vendor it carries is a claim checked correct)."""
    found = refs(masked)
    claims: list[Claim] = []
    for index, (number, start, end) in enumerate(found):
        item = facts.item(number)
        if item is None:
            continue
        before_from = found[index - 1][2] if index else 0
        after_to = found[index + 1][1] if index + 1 < len(found) else len(masked)
        near = (
            masked[max(before_from, start - 16) : start]
            + " | "
            + masked[end : min(after_to, end + 14)]
        )
        topics = facts.topics(item)
        for key, spellings in facts.vendor_names.items():
            if key in _GENERIC_VENDORS:
                continue
            said = next((s for s in spellings if _names(s, near)), None)
            if said is None:
                continue
            if key in topics:
                claims.append(Claim(number, "vendor", sentence, key, "correct", key))
            else:
                truth = "topics: " + ", ".join(sorted(topics)) if topics else "no vendor"
                claims.append(Claim(number, "vendor", sentence, key, "wrong", truth))
    return unique(claims)


def _names(spelling: str, text: str) -> bool:
    word = re.escape(spelling.split(" 生态")[0])
    return re.search(rf"(?<![A-Za-z]){word}(?![A-Za-z])", text, re.I) is not None


# -- helpers ---------------------------------------------------------------------------------


def _has_cjk(text: str) -> bool:
    return any("\u4e00" <= c <= "\u9fff" for c in text)


def unique(claims: list[Claim]) -> list[Claim]:
    seen: set[tuple[int | None, str, str]] = set()
    out = []
    for claim in claims:
        key = (claim.number, claim.type, claim.claimed.lower())
        if key not in seen:
            seen.add(key)
            out.append(claim)
    return out
