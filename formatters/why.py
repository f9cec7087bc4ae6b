"""Why an item matters, in one sentence of facts, in the reader's language: what changes and
for whom ("Why it matters: proposes a fix for #38022 “Marlin MoE kernel fails …” (5
comments); the author measured 1.3x decode throughput." / "影响：拟修复 #38022「…」（5 条评论）；
作者实测解码加速 1.3x。").

Each clause is one fact of bot.analyze.explain: the issues a PR fixes (their titles and the
talk they drew), what it reverts or backports and to which release, the author's figures,
a default it changes and the reason its description gives (both quoted), a cited paper,
the hardware, models, flags and environment variables it names that its title does not; of
an issue, what it reports, the talk it drew and the fix proposed for it. No fact, no line:
a size or a kind of work is never a reason. Strangers' words (titles, quoted sentences)
stay `Theirs`, so every renderer escapes them.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.model.outline_parts import Line, Our, Part, Theirs
from bot.model.report import ActivityItem, Explanation
from formatters.figures_zh import figure_zh
from formatters.wording import LIST_SEP, plural, text

CLAUSES = 3  # a sentence a reader takes in at a glance
LINKED_SHOWN = 2  # issues named per clause; the rest counted
QUOTE_LIMIT = 160
LINKED_TITLE_LIMIT = 70
NAMES_SHOWN = 4
NAME_LIMIT = 60
TALKED = 3  # comments on an issue before its talk says how many it drew
_SIGNALS = {
    "en": {
        "OOM": "out-of-memory errors",
        "wrong output": "wrong output",
        "security": "a security problem",
        "crash": "a crash",
        "hang": "a hang",
        "regression": "a regression",
    },
    "zh": {
        "security": "安全问题",
        "crash": "崩溃",
        "hang": "卡死",
        "regression": "回归",
        "wrong output": "输出错误",
        "OOM": "OOM",
    },
}


class Facts:
    """What a why sentence looks up beside the item: another item (a fixed issue's title
    and talk), where an item stood as the window ended, and a link to it."""

    def __init__(
        self,
        item: Callable[[int], ActivityItem | None],
        state: Callable[[int], str],
        link: Callable[[int], Part],
    ) -> None:
        self.item, self.state, self.link = item, state, link


def why_line(
    found: Explanation, title: str, merged: bool, lang: str, facts: Facts, *, links: bool = True
) -> Line | None:
    """The sentence, or None when no fact says why; `title`: the item's, as its head line
    shows it (a name or figure it says is not said again); `merged`: the PR had landed as
    the window ended (a fix of open work is proposed, not done); `links`: false leaves out
    what it reverts and the revert proposed for it (a story line beside it names them)."""
    clauses = (
        _issue_clauses(found, title, lang, facts)
        if found.kind == "issue"
        else _pr_clauses(found, title, merged, lang, facts, links)
    )
    clauses = [c for c in clauses if c][:CLAUSES]
    if not clauses:
        return None
    line: list[Part] = [Our(text(lang, "why_head"))]
    for index, clause in enumerate(clauses):
        if index:
            line.append(Our("；" if lang == "zh" else "; "))
        line += clause
    line.append(Our("。" if lang == "zh" else "."))
    return tuple(line)


def _pr_clauses(
    found: Explanation, title: str, merged: bool, lang: str, facts: Facts, links: bool
) -> list[list[Part]]:
    return [
        _fixes(found, merged, lang, facts),
        _backports(found, lang, facts),
        _linked(found.reverts, "why_reverts", lang, facts) if links else [],
        _figures(found, title, lang),
        _quoted("why_default", found.default, lang),
        _quoted("why_reason", found.reason, lang),
        [Our(text(lang, "why_paper", paper=found.paper))] if found.paper else [],
        _for_whom(found, title, lang),
        _linked(found.reverted_by, "why_revert_proposed", lang, facts) if links else [],
    ]


def _issue_clauses(found: Explanation, title: str, lang: str, facts: Facts) -> list[list[Part]]:
    reports: list[Part] = []
    if found.signals:
        said = LIST_SEP[lang].join(_SIGNALS[lang].get(s, s) for s in found.signals)
        reports = [Our(text(lang, "why_reports", what=said))]
    # How many it drew: a report three people answered, not one nobody has yet.
    talk = _talk(found.comments, found.reactions, lang) if found.comments >= TALKED else ""
    return [
        reports,
        [Our(text(lang, "why_issue_talk", talk=talk))] if talk else [],
        _quoted("why_reason", found.reason, lang),
        _for_whom(found, title, lang),
        _linked(found.fixed_by, "why_fix_proposed", lang, facts),
    ]


def _fixes(found: Explanation, merged: bool, lang: str, facts: Facts) -> list[Part]:
    """`fixes #38022 “title” (5 comments)`: the issues it says it fixes, with what they say
    and how many people they drew."""
    if not found.fixes:
        return []
    parts: list[Part] = [Our(text(lang, "why_fixes" if merged else "why_would_fix"))]
    return parts + _named_items(found.fixes, lang, facts, talk=True)


def _backports(found: Explanation, lang: str, facts: Facts) -> list[Part]:
    """`brings #31816 “title” to v0.13.0`: what a backport brings, and to which release."""
    if found.backports and found.release:
        parts: list[Part] = [Our(text(lang, "why_backports"))]
        parts += _named_items(found.backports, lang, facts)
        return [*parts, Our(text(lang, "why_release", release=found.release))]
    if found.backports:
        return [Our(text(lang, "why_backport_of")), *_named_items(found.backports, lang, facts)]
    if found.release:
        return [Our(text(lang, "why_backport_to", release=found.release))]
    return []


def _linked(numbers: tuple[int, ...], key: str, lang: str, facts: Facts) -> list[Part]:
    """`reverts #38021 “title” (merged)`, `revert proposed in #38169 (in review)`."""
    if not numbers:
        return []
    return [Our(text(lang, key)), *_named_items(numbers, lang, facts, state=True)]


def _named_items(
    numbers: tuple[int, ...],
    lang: str,
    facts: Facts,
    *,
    talk: bool = False,
    state: bool = False,
) -> list[Part]:
    parts: list[Part] = []
    for index, number in enumerate(numbers[:LINKED_SHOWN]):
        if index:
            parts.append(Our(LIST_SEP[lang]))
        parts.append(facts.link(number))
        other = facts.item(number)
        if other is not None:
            parts += _title_quote(other.title, lang)
        said = [s for s in [facts.state(number)] if s] if state else []
        if talk and other is not None:
            said += [t for t in [_talk(other.comments, other.reactions, lang)] if t]
        if said:
            inner = LIST_SEP[lang].join(said)
            parts.append(Our(f"（{inner}）" if lang == "zh" else f" ({inner})"))
    rest = len(numbers) - LINKED_SHOWN
    if rest > 0:
        parts.append(Our(text(lang, "why_more", n=rest)))
    return parts


def _title_quote(title: str, lang: str) -> list[Part]:
    if lang == "zh":
        return [Our("「"), Theirs(title, LINKED_TITLE_LIMIT), Our("」")]
    return [Our(" “"), Theirs(title, LINKED_TITLE_LIMIT), Our("”")]


def _talk(comments: int, reactions: int, lang: str) -> str:
    """ "5 comments, 2 reactions" / "5 条评论、2 个表情回应": how many people an issue drew."""
    said = []
    if comments:
        said.append(
            f"{comments} 条评论" if lang == "zh" else plural(comments, "comment", "comments")
        )
    if reactions:
        said.append(
            text(lang, "reactions", n=reactions) if lang == "zh" or reactions > 1 else "1 reaction"
        )
    return LIST_SEP[lang].join(said)


def _figures(found: Explanation, title: str, lang: str) -> list[Part]:
    """The author's figures, with what each measures: said in Chinese where the words are
    known, else quoted; in English not again when the title already says it."""
    if lang == "zh":
        shown = [figure_zh(f) for f in found.figures]
    else:
        shown = [f for f in found.figures if f.lower() not in title.lower()]
    if not shown:
        return []
    joined = "、".join(shown) if lang == "zh" else " and ".join(shown)
    return [Our(text(lang, "why_figures", figures=joined))]


def _quoted(key: str, sentence: str, lang: str) -> list[Part]:
    """The author's own sentence, visibly a quote (a default it changes, its reason)."""
    if not sentence:
        return []
    opening, closing = ("（「", "」）") if key == "why_default" else ("「", "」")
    if lang == "en":
        opening, closing = ("(“", "”)") if key == "why_default" else ("“", "”")
    return [Our(text(lang, key) + opening), Theirs(sentence, QUOTE_LIMIT), Our(closing)]


def _for_whom(found: Explanation, title: str, lang: str) -> list[Part]:
    """The hardware, models, flags and environment variables it names beyond its title:
    "it concerns MI355 and `--kv-cache-dtype`" / "涉及 MI355、`--kv-cache-dtype`"."""
    shown = title.lower()
    names: list[list[Part]] = [
        [Theirs(n, NAME_LIMIT)] for n in (*found.hardware, *found.models) if n.lower() not in shown
    ]
    names += [
        [Our("`"), Theirs(o, NAME_LIMIT), Our("`")] for o in found.options if o.lower() not in shown
    ]
    names = names[:NAMES_SHOWN]
    if not names:
        return []
    said: list[Part] = [Our(text(lang, "why_for"))]
    for index, name in enumerate(names):
        if index:
            last = index == len(names) - 1 and lang == "en"
            said.append(Our(" and " if last else LIST_SEP[lang]))
        said += name
    return said
