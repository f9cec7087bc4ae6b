"""Everything a model wrote, checked before a reader sees it; each part of an answer (an
item's translation, its reason; a thread; the day) shown whole or not at all.

A sentence is dropped, with the true reason, when it
- is no text, or writes a link (a URL never comes from a model);
- is filler ("a critical feature for developers who …") or copies its item's title or
  description (it adds nothing);
- cites an item it was not given, or writes a figure it was not given (citations.py);
- in a translation, loses or adds an identifier, a code span or a number of the sentence
  it translates (the description's sentence it shares most names with), or is not Chinese;
- claims what the facts contradict (bot.analyze.claims, strict: a state, a kind, an author,
  a landed verb in any tense about open work, a count of the wrong population …);
- of a thread, says who posted and nothing of what was argued; of the day, tells of items
  it does not cite by number;
- claims nothing the checker can settle about its item: no state, kind, figure or name of
  its own facts (such a sentence stands beside one of its part that settles something).

A part that lost any sentence is dropped whole: a fragment that survived a wrong neighbour
is no better than the neighbour. Parts stand apart: a wrong translation does not take a
right reason with it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.analyze.citations import fault, join, numbers_in, split_sentences
from bot.analyze.claims import Facts, claims_in
from bot.analyze.claims.facts import normal
from bot.model.claims import Claim
from bot.model.report import ActivityItem, Report
from bot.prose.inputs import Unit
from formatters.gloss_words import LOWER_NAMES

_LINK = re.compile(r"https?://|\bwww\.|\]\(|<[a-z]+://|\b[\w-]+\.(?:com|org|io|ai|dev|net)\b", re.I)
# What a model writes when it has nothing to say.
_FILLER = re.compile(
    r"\bcritical (?:feature|fix|improvement|step|component)"
    # "a critical feature for developers who …"; a plain "lets users who run FP8 drafts pick
    # a backend" says who, and is no filler.
    r"|\b(?:critical|essential|crucial|vital|valuable|important|great|powerful)\b[^.。]{0,60}"
    r"\bfor (?:developers|users) who\b"
    r"|\bplays? an? (?:crucial|key|vital|important) role|\bgame[- ]changer|\bseamless"
    r"|\benhanc\w* the overall|\bit is (?:worth noting|important to note)|\bin today's"
    r"|\bthis (?:is|was) (?:a|an) (?:important|significant|major|great)\b"
    r"|\bsignificantly (?:improv|enhanc)\w*(?! \d)|\brobust(?:ness)? and (?:efficien|scalab)"
    r"|至关重要|具有重要意义|极大地提升|显著提升(?![^。]*\d)|无缝|里程碑|一等公民"
    # The prompt's own words given back: "The positions taken are:", "各方观点（谁，简要）".
    r"|\bthe (?:positions? taken|question)(?: by [^:]{1,30})? (?:are|is)\s*:"
    r"|（谁，简要）|\(who, briefly\)",
    re.I,
)
# Names a sentence can be checked on: code spans, and words with a digit, a capital after
# the first letter, an underscore or a dot (gfx1201, FP8, MoE, ROCm, AITER,
# cp_mha_gather_cache, Qwen3.5-9B); never "PR" or "ID".
_IDENTIFIER = re.compile(
    r"`[^`]+`|(?<![A-Za-z0-9_#.+-])[A-Za-z][A-Za-z0-9_.+-]*(?:[0-9_]|[A-Za-z][A-Z])"
    r"[A-Za-z0-9_.+-]*"
)
_NOT_NAMES = frozenset({"pr", "prs", "id", "ids"})
# Names written in lower case ("numpy-based", "attention+mamba models") that a translation
# keeps as written: one that drops them drops what they qualify ("替换了 Triton-only 的
# compute_slot_mapping" for "replaced the numpy-based compute_slot_mapping with a
# Triton-only kernel"). The words of the trade that Chinese has words for are left out.
_KEPT_NAMES = (LOWER_NAMES | {"numpy", "cmake", "ray", "nccl", "rccl"}) - frozenset(
    """
    kernel kernels token tokens tokenizer prefill wheel nightly spec mm transformers
    nvidia intel amd arm
    """.split()  # noqa: SIM905 - a word list reads best as words
)
_ALNUM = re.compile(r"[^a-z0-9.]+")
_CITED = re.compile(r"(?<![\w/])#(\d{2,7})\b")
_WORD = re.compile(r"[a-z][a-z0-9]{2,}")
# Benefits a sentence may claim only when its item's facts name them ("improves accuracy"
# of a change whose description says nothing of accuracy is an invented reason); each with
# the English stems that name it in the facts.
_BENEFITS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (re.compile(words, re.I), stems)
    for words, stems in (
        (r"\baccura\w*|精度|准确", ("accura", "precision", "correct", "wrong", "garbage")),
        (r"\blatenc\w*|延迟|时延", ("latenc", "ttft", "tpot", "itl", "slow", "fast")),
        (r"\bthroughput|吞吐", ("throughput", "tok/s", "tokens/s", "qps")),
        (r"\bmemory\b|显存|内存", ("memory", "oom", "vram", "hbm", "cache")),
        (
            r"\bfaster\b|\bspeed\w*|速度|加速|更快",
            ("fast", "speed", "latenc", "throughput", "perf"),
        ),
        (r"\bperformance\b|性能", ("perf", "fast", "speed", "latenc", "throughput", "optimi")),
        (r"\befficien\w*|效率|高效", ("efficien", "perf", "fast", "overhead")),
        (r"\bstab(?:le|ility)\b|稳定", ("stab", "stead", "flaky", "crash", "hang")),
        (r"\breliab\w*|可靠", ("reliab", "crash", "hang", "flaky")),
        (r"\bscal(?:able|ability)\b|扩展性|可扩展", ("scal",)),
        (r"\buser experience|\busability|用户体验|易用", ("ux", "usab", "user")),
    )
)
COPY_SHARE = 0.8  # of a sentence's words found in its item's title or description
PART_LOST = "its part lost a sentence"
UNSETTLED = "no claim the checker can settle about its item"
MIN_CHINESE = 0.2  # of a Chinese line's letters that must be Chinese


@dataclass(frozen=True)
class Vetted:
    parts: dict[str, str]  # each part of the answer kept (empty when the unit failed)
    kept: int  # sentences shown
    rejected: tuple[tuple[str, str], ...]  # (sentence, why) of every sentence not shown

    @property
    def text(self) -> str:
        return " ".join(p for p in self.parts.values() if p)


class Vetter:
    def __init__(self, report: Report, vendor_names: Mapping[str, Sequence[str]]) -> None:
        self.report = report
        self.facts = Facts(report, {}, topics_of(report), vendor_names)
        self.vendor_names = vendor_names
        counts = [str(v) for v in report.stats.values()]
        counts.append(str(sum(split.stale for split in report.closures.values())))
        self.figures = set(counts)

    def vet(self, answer: Mapping[str, object], unit: Unit, lang: str) -> Vetted:
        """The parts of one unit's answer (`what`, `why`, `text`, `summary`), each sentence
        checked; each part shown whole or not at all. Parts stand apart: a translation that
        lost a number does not take a right reason with it."""
        kept: dict[str, str] = {}
        rejected: list[tuple[str, str]] = []
        shown = 0
        for name, value in answer.items():
            if not isinstance(value, str):
                rejected.append((repr(value)[:80], "not text"))
                continue
            sentences = split_sentences(value)
            # A Chinese item's parts translate its own words: `what` its description, `why`
            # the reason the report quotes.
            source = (
                {"what": "description", "why": "reason"}.get(name)
                if unit.section == "item"
                else None
            )
            translated = _translated(sentences, unit, source) if source else {}
            faults = [
                self._fault(
                    sentence, unit, lang, translation=source is not None, lost=translated.get(i)
                )
                for i, sentence in enumerate(sentences)
            ]
            # Every sentence settles on its own: one the checker cannot settle never rides
            # along beside one it can.
            if any(faults):
                rejected += [
                    (s, why or PART_LOST) for s, why in zip(sentences, faults, strict=True)
                ]
                continue
            kept[name] = join(sentences)
            shown += len(sentences)
        return Vetted({k: v for k, v in kept.items() if v}, shown, tuple(rejected))

    def _fault(
        self, sentence: str, unit: Unit, lang: str, *, translation: bool, lost: str | None = None
    ) -> str | None:
        """Why one sentence may not be shown, or None: the gravest reason first (a link, a
        contradicted claim, an item or figure it was not given), then what adds nothing;
        `lost`: what a translated sentence lost or added against the one it translates."""
        if _LINK.search(sentence):
            return "writes a link"
        about = unit.number or None
        claims = self._claims(sentence, about)
        wrong = sorted((c for c in claims if c.verdict == "wrong"), key=_gravity)
        if wrong:
            return _said(wrong[0])
        scope = set(unit.scope) | (set(self.report.items) if unit.section == "day" else set())
        allowed = numbers_in([json.dumps(unit.facts, ensure_ascii=False)]) | self.figures
        cited = fault(sentence, items=scope, figures=self.figures, allowed=allowed, about=about)
        if cited:
            return cited
        if _FILLER.search(sentence):
            return "filler"
        if about is None:
            return _day_fault(sentence, claims)
        if unit.section == "thread" and _says_who_only(sentence, _people(unit)):
            return "says who posted, not what was argued"
        if unit.facts.get("kind") == "issue" and _CALLS_PR.search(sentence):
            return f"calls #{unit.number}, an issue, a PR"
        if lang == "zh" and _chinese_share(sentence) < MIN_CHINESE:
            return "not Chinese"  # before what it lost: it translated nothing
        if lost:
            return lost
        return self._adds_nothing(sentence, claims, unit, lang, translation=translation)

    def _adds_nothing(
        self, sentence: str, claims: Sequence[Claim], unit: Unit, lang: str, *, translation: bool
    ) -> str | None:
        """Why a sentence about one item adds nothing true: not in the reader's language, its
        item's words again, a translation that loses or adds, a reason its description does
        not give, a name its facts do not hold, nothing the checker can settle."""
        facts = unit.facts
        if lang == "zh" and _chinese_share(sentence) < MIN_CHINESE:
            return "not Chinese"
        if lang == "en" and copies(sentence, self._own_words(unit)):
            return "copies its item's title or description"
        if not translation and unit.section == "item" and not facts.get("reason"):
            return "gives a reason its description does not"
        given = self._names(unit)
        # A name is given when its letters and digits stand in the facts: "MXFP4-量化" names
        # what "MXFP4-quantized" does.
        squeezed = _squeezed(given)
        invented = sorted(x for x in identifiers(sentence) if x not in squeezed)
        if invented:
            return "names " + ", ".join(f"`{x}`" for x in invented[:3]) + ", not in its facts"
        claimed = unstated_benefit(sentence, given)
        if claimed:
            return f"claims a benefit its facts do not state: {claimed}"
        if not self._settled(sentence, claims, unit):
            return UNSETTLED
        return None

    def _claims(self, sentence: str, about: int | None) -> list[Claim]:
        """The sentence's claims; a sentence without `#N` speaks of the item beside it."""
        probe = sentence if "#" in sentence or about is None else f"#{about} {sentence}"
        return claims_in(probe, self.facts, strict=True)

    def _own_words(self, unit: Unit) -> list[str]:
        """The texts the unit's items wrote: what a sentence may not merely copy."""
        facts = unit.facts
        own = [str(facts[k]) for k in ("title", "description", "reason", "body") if facts.get(k)]
        comments = facts.get("comments") or []
        return own + [str(c.get("text", "")) for c in comments if isinstance(c, dict)]

    def _names(self, unit: Unit) -> str:
        """What a sentence about the unit's item may name: what it was given (its own
        words; a thread's comments and their authors), and the vendors it is filed under."""
        item = self.report.item(unit.number) if unit.number else None
        topics = self.facts.topics(item) if item is not None else set()
        vendors = [" ".join(self.vendor_names.get(key, ())) for key in sorted(topics)]
        given = json.dumps(unit.facts, ensure_ascii=False)
        return " ".join([given, *vendors])

    def _settled(self, sentence: str, claims: Sequence[Claim], unit: Unit) -> bool:
        """The sentence says something of its item that the facts beyond its title confirm:
        a name or figure of its description, its quoted reason or its thread's comments
        (each of them its item's: checked before). Naming a word of the title settles
        nothing: every sentence about the item could."""
        title = identifiers(str(unit.facts.get("title", "")))
        beyond = _squeezed(" ".join(_beyond_title(unit)))
        return any(name in beyond for name in identifiers(sentence) - title)


# Words that say someone took part, not what they said: "X reported it and Y commented".
_POSTING = re.compile(
    r"\b(?:comment(?:s|ed)?|repl(?:y|ies|ied)|post(?:s|ed)?|participat\w*|join(?:s|ed)|"
    r"took part|chimed in|weighed in|respond\w*|mention\w*|discuss\w*|thread|conversation|"
    r"report(?:s|ed)?|ask(?:s|ed)?|open(?:s|ed)?|rais(?:es|ed)|said|says|noted|issue|question|"
    r"pr|users?|people|contributors?|maintainers?|authors?|commenters?|someone|several|other|"
    r"others|both|also|and|the|a|an|in|on|with|by|has|have|had|was|were|is|are|this|it|to)\b"
    r"|参与|评论|回复|发言|讨论|提到|提及|表示|报告|提出|问题|和|与|及|了|在|中|也|等|人|者|有|"
    r"多位|用户|维护者|作者|贡献者|其中|包括|该|此|帖子|分别|进行|都|均",
    re.I,
)
_CONTENT = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{2,}|[\u4e00-\u9fff]")
WHO_ONLY = 3  # content words (or Chinese characters) below which a sentence says only who


def _says_who_only(sentence: str, people: set[str]) -> bool:
    """A thread's sentence that says who took part and nothing of what they argued."""
    rest = re.sub(r"#\d+|@[\w-]+", " ", sentence)
    for login in sorted(people, key=len, reverse=True):
        rest = re.sub(rf"`?(?<![\w-]){re.escape(login)}(?![\w-])`?", " ", rest, flags=re.I)
    return len(_CONTENT.findall(_POSTING.sub(" ", rest))) < WHO_ONLY


# "PR" said of the unit's item (another PR is named by its number: "PR #38213").
_CALLS_PR = re.compile(r"(?<![A-Za-z])(?:PR|pull request)(?![A-Za-z])(?!\s*#\d)", re.I)


def _beyond_title(unit: Unit) -> list[str]:
    """What a unit's facts say beyond the item's title: its description and quoted reason,
    its thread's comments."""
    facts = unit.facts
    said = [str(facts[k]) for k in ("description", "reason", "body") if facts.get(k)]
    comments = facts.get("comments") or []
    return said + [str(c.get("text", "")) for c in comments if isinstance(c, dict)]


def _people(unit: Unit) -> set[str]:
    """Who a unit's facts name: its author and the people who commented."""
    comments = unit.facts.get("comments") or []
    named = {c.get("by") for c in comments if isinstance(c, dict)} | {unit.facts.get("author")}
    return {str(n) for n in named if n}


def identifiers(text: str) -> set[str]:
    """The identifiers, code spans and figures of a text, as compared: lower case, letters
    and digits only (`Cohere Transcribe` and "Cohere-Transcribe" are one name)."""
    found = {_ALNUM.sub("", m.group(0).lower()).strip(".") for m in _IDENTIFIER.finditer(text)}
    return (found - _NOT_NAMES - {""}) | {n for n in numbers_in([text])}


def _names(text: str) -> set[str]:
    """The names of `_KEPT_NAMES` a text writes as words of their own (in any case; in
    code spans and `moe_backend` they are the identifier's, which `identifiers` holds)."""
    words = re.findall(r"(?<![\w])[a-z][a-z0-9]*(?![\w])", re.sub(r"`[^`]*`", " ", text.lower()))
    return {w for w in words if w in _KEPT_NAMES}


def _squeezed(text: str) -> str:
    """A text as identifiers are looked for in it: lower case, letters, digits and dots."""
    return _ALNUM.sub("", text.lower())


def _translated(sentences: Sequence[str], unit: Unit, field: str) -> dict[int, str]:
    """What each sentence of a translation lost or added against the sentence of its source
    (`field`: the description, or the quoted reason) it translates (the one it shares most
    names and numbers with), by its index: a faithful translation of one sentence does
    not lose what the next one says."""
    source = str(unit.facts.get(field, ""))
    if not source:
        return {}
    title = str(unit.facts.get("title", ""))
    originals = split_sentences(source)
    faults = {}
    for index, sentence in enumerate(sentences):
        own = identifiers(sentence) | set(_CITED.findall(sentence))
        # A sentence without names translates one without names, when there is one.
        original = max(
            originals,
            key=lambda o: (
                len(own & (names := identifiers(o) | set(_CITED.findall(o)))),
                -len(names),
            ),
            default=source,
        )
        # A reason translated is the reason: what the item's own line says beside it is
        # not taken in ("All 8 TP workers fail" + "… at the profile_run stage").
        aside = str(unit.facts.get("description", "")) if field == "reason" else ""
        lost = translation_fault(sentence, original, f"{source} {title}", aside)
        lost = lost or relation_fault(sentence, original)
        if not lost and original.rstrip().endswith(("…", "...")):
            # Given "… data across…", a model finishes the sentence ("across devices").
            lost = "translates a sentence cut short"
        if lost:
            faults[index] = lost
    return faults


def translation_fault(
    translated: str, source: str, beside: str = "", aside: str = ""
) -> str | None:
    """What a translation lost of its source's identifiers, code and numbers ("CUDA OOM"
    keeps "OOMs"), or added that neither its source nor `beside` (its item's title) has, or
    that `aside` (a text shown beside it) has and its source has not."""
    if not source:
        return None
    said, given = _squeezed(translated), _squeezed(source + " " + beside)
    mine = _squeezed(source)
    taken = sorted(x for x in identifiers(translated) & identifiers(aside) if x not in mine)
    if taken:
        return "adds " + ", ".join(f"`{x}`" for x in taken[:3]) + ", not in what it translates"
    lost = sorted(
        x
        for x in identifiers(source) | _names(source)
        if x not in said and not (x.endswith("s") and x[:-1] in said)
    )
    lost += sorted(f"#{n}" for n in _CITED.findall(source) if f"#{n}" not in translated)
    if lost:
        return "loses " + ", ".join(f"`{x}`" for x in lost[:3]) + " of what it translates"
    added = sorted(x for x in identifiers(translated) if x not in given)
    if added:
        return "adds " + ", ".join(f"`{x}`" for x in added[:3]) + ", not in what it translates"
    return None


# A cause a summary of counts cannot know ("74 PRs closed because of …").
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")  # the window's days, not figures
_CAUSE = re.compile(
    r"\b(?:because|due to|thanks to|caused by|as a result of)\b|由于|因为|导致|得益于|归因于",
    re.I,
)


# "44 merged PRs, including one that removes Sparse24": items told by what they do, which
# only their numbers let the checker hold to their state.
_DESCRIBES = re.compile(
    r"\b(?:including|included|includes|such as|among them|notably|for example|e\.g\.)\b"
    r"|包括|其中有|例如|比如|如\s",
    re.I,
)


def _day_fault(sentence: str, claims: Sequence[Claim]) -> str | None:
    """A summary sentence writes only figures the checker settles as counts of the right
    population, and gives no cause (the counts have none)."""
    if _CAUSE.search(sentence):
        return "gives a cause its facts do not state"
    if _DESCRIBES.search(sentence) and not _CITED.search(sentence):
        return "tells of items it does not cite"
    settled = {part for c in claims if c.type == "count" for part in c.claimed.split()}
    loose = sorted(numbers_in([_DATE.sub(" ", sentence)]) - settled)
    if loose:
        return "writes " + ", ".join(loose[:3]) + ", a figure the checker cannot settle"
    return None


# What an item is to its own `#N` ("Follow-up to #35809"), as a translation must keep it.
_RELATIONS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (re.compile(en, re.I), re.compile(zh))
    for en, zh in (
        (r"follow[- ]?up (?:to|of|for)\s*$|followup (?:to )?\s*$", r"后续|跟进|延续|接续"),
        (r"(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s*$", r"修复|解决|关闭"),
        (r"revert(?:s|ed)?\s*$", r"回退|还原|撤销"),
        (r"(?:based on|builds on|on top of|depends on)\s*$", r"基于|依赖|建立在"),
        (r"backport(?:s|ed)?(?: of)?\s*$", r"回移|移植"),
    )
)


def relation_fault(translated: str, source: str) -> str | None:
    """A `#N` the source says is its follow-up, fix, revert or base, said otherwise."""
    for match in re.finditer(r"#(\d+)", source):
        before = source[max(0, match.start() - 20) : match.start()]
        for english, chinese in _RELATIONS:
            if not english.search(before):
                continue
            at = translated.find(match.group(0))
            near = translated[max(0, at - 12) : at + len(match.group(0)) + 6] if at >= 0 else ""
            if at >= 0 and not chinese.search(near):
                return f"says otherwise what {match.group(0)} is to its item"
    return None


def unstated_benefit(sentence: str, facts: str) -> str | None:
    """A benefit the sentence claims ("accuracy", "性能") that nothing in its facts names."""
    low = facts.lower()
    for words, stems in _BENEFITS:
        found = words.search(sentence)
        if found is not None and not any(stem in low for stem in stems):
            return found.group(0)
    return None


def copies(sentence: str, own: Iterable[str]) -> bool:
    """The sentence is its item's own words again: most of its words are in one of them."""
    words = set(_WORD.findall(normal(re.sub(r"#\d+", " ", sentence))))
    if not words:
        return False
    return any(
        len(words & set(_WORD.findall(normal(text)))) >= COPY_SHARE * len(words) for text in own
    )


# Which contradicted claim a drop is told by: what the item is before what it did.
_GRAVITY = ("kind", "state", "author", "vendor", "title", "count", "reference")


def _gravity(claim: Claim) -> int:
    return _GRAVITY.index(claim.type) if claim.type in _GRAVITY else len(_GRAVITY)


def _said(claim: Claim) -> str:
    said = claim.claimed
    if claim.type in ("state", "kind", "vendor", "title"):
        said = f"#{claim.number} is {said}"
    elif claim.type == "author":
        said = f"#{claim.number} is by {said}"
    return f"{claim.type}: says {said}; the facts: {claim.truth}"


def _chinese_share(text: str) -> float:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 0.0
    return sum(1 for c in letters if "\u4e00" <= c <= "\u9fff") / len(letters)


def topics_of(report: Report) -> Callable[[ActivityItem], set[str]]:
    """Which topics (vendors among them) the report files each item under."""
    placed: dict[int, set[str]] = {}
    if report.sections is not None:
        for key, section in report.sections.topics.items():
            for number in (*section.issues, *section.prs):
                placed.setdefault(number, set()).add(key)
    return lambda item: set(placed.get(item.number, ()))
