"""Why an item matters, in one sentence of facts the title does not already give, in the
reader's language ("Why it matters: would fix #38022 “Marlin MoE kernel fails …”; the
author measured 1.3x decode throughput." / "影响：拟修复 #38022「…」；作者实测解码加速 1.3x。").

Each clause is one fact of bot.analyze.explain: the issues a PR fixes (their titles: the
bug with its symptom), what it reverts or backports and to which release, the author's
figures, a default it changes and the description's sentence that says what changes or goes
wrong and for whom (both quoted), what its landing waits on; of an issue, that sentence and
the fix proposed for it. Every clause is true of the state as the window ended: open work
"would", a PR closed without merging never "fixes" or "brings". A clause the title already
says is left out, and so is every name, size, kind of work and comment count that says
nothing of what happens: no fact, no line. Strangers' words (titles, quoted sentences) stay
`Theirs`, so every renderer escapes them.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.model.outline_parts import Line, Our, Part, Theirs
from bot.model.report import ActivityItem, Explanation
from formatters.figures_zh import figure_zh
from formatters.wording import LIST_SEP, text

CLAUSES = 3  # a sentence a reader takes in at a glance
LINKED_SHOWN = 2  # issues named per clause; the rest counted
QUOTE_LIMIT = 220
LINKED_TITLE_LIMIT = 70


class Facts:
    """What a why sentence looks up beside the item: another item (a fixed issue's title),
    where an item stood as the window ended, whether it had merged, and a link to it."""

    def __init__(
        self,
        item: Callable[[int], ActivityItem | None],
        state: Callable[[int], str],
        link: Callable[[int], Part],
        merged: Callable[[int], bool] = lambda n: False,
    ) -> None:
        self.item, self.state, self.link, self.merged = item, state, link, merged


def why_line(
    found: Explanation,
    title: str,
    state: str,
    lang: str,
    facts: Facts,
    *,
    links: bool = True,
    effect_zh: str | None = None,
    quotes: int = QUOTE_LIMIT,
) -> Line | None:
    """The sentence, or None when no fact the title does not give says why; `title`: the
    item's, as its head line shows it; `state`: where it stood as the window ended (merged,
    open, closed); `links`: false leaves out what it reverts and the revert proposed for it
    (a story line beside it names them); `effect_zh`: a model's checked Chinese of the
    quoted sentence, said in its place (marked ✍️); `quotes`: the longest quote of the
    author's shown (0: none, where a quote would stand alone)."""
    said = _Said(lang, quotes, effect_zh)
    clauses = (
        _issue_clauses(found, said, facts)
        if found.kind == "issue"
        else _pr_clauses(found, title, state, said, facts, links)
    )
    clauses = [c for c in clauses if c][:CLAUSES]
    if not clauses:
        return None
    line: list[Part] = [Our(text(lang, "why_head"))]
    for index, clause in enumerate(clauses):
        if index:
            line.append(Our("；" if lang == "zh" else "; "))
        line += clause
    if not _ends_a_sentence(line):
        line.append(Our("。" if lang == "zh" else "."))
    return tuple(line)


def _ends_a_sentence(line: list[Part]) -> bool:
    """The line ends on a quote that ends a sentence ("…loop. No behavior change.”"): no
    full stop after it."""
    if len(line) < 2 or not isinstance(line[-1], Our) or line[-1].text not in ("”", "」"):
        return False
    quoted = line[-2]
    return isinstance(quoted, Theirs) and quoted.text.rstrip().endswith((".", "!", "?", "…", "。"))


class _Said:
    """How a line says the author's sentences: in which language, quoted how long (0: not
    at all), or in a model's checked Chinese."""

    def __init__(self, lang: str, limit: int, effect_zh: str | None) -> None:
        self.lang, self.limit, self.effect_zh = lang, limit, effect_zh

    def quote(self, key: str, sentence: str) -> list[Part]:
        """The author's own sentence, visibly a quote (a default it changes, what it
        changes or what goes wrong), or the model's Chinese of it."""
        if not sentence:
            return []
        if self.effect_zh and key in ("why_effect", "why_reported"):
            said: list[Part] = [Our("「✍️ "), Theirs(self.effect_zh, QUOTE_LIMIT + 100)]
            return [Our(text(self.lang, key)), *said, Our("」")]
        if not self.limit:
            return []
        opening, closing = ("（「", "」）") if key == "why_default" else ("「", "」")
        if self.lang == "en":
            opening, closing = ("(“", "”)") if key == "why_default" else ("“", "”")
        quoted = Theirs(sentence, self.limit)
        return [Our(text(self.lang, key) + opening), quoted, Our(closing)]


def _pr_clauses(
    found: Explanation, title: str, state: str, said: _Said, facts: Facts, links: bool
) -> list[list[Part]]:
    lang = said.lang
    return [
        _fixes(found, title, state, lang, facts),
        _backports(found, title, state, lang, facts),
        _linked(found.reverts, "why_reverts", lang, facts)
        if links and _untold(found.reverts, title)
        else [],
        _figures(found, title, lang),
        said.quote("why_default", found.default),
        said.quote("why_effect", found.effect),
        _waits(found, state, lang, facts),
        _linked(found.reverted_by, "why_revert_proposed", lang, facts) if links else [],
    ]


def _issue_clauses(found: Explanation, said: _Said, facts: Facts) -> list[list[Part]]:
    return [
        said.quote("why_reported", found.effect),
        _fixed_by(found, said.lang, facts),
    ]


def _untold(numbers: tuple[int, ...], title: str) -> bool:
    """Some of `numbers` is not named in the title ("Revert "X (#38050)"" names its own)."""
    return any(f"#{n}" not in title for n in numbers)


def _fixes(found: Explanation, title: str, state: str, lang: str, facts: Facts) -> list[Part]:
    """`fixes #38022 “title”`: the issues it says it fixes, with what they say; "would fix"
    while open, "had proposed a fix for" once closed without merging."""
    shown = [n for n in found.fixes if f"#{n}" not in title or facts.item(n) is not None]
    if not shown:
        return []
    key = {"merged": "why_fixes", "open": "why_would_fix"}.get(state, "why_was_to_fix")
    return [Our(text(lang, key)), *_named_items(tuple(shown), lang, facts)]


def _fixed_by(found: Explanation, lang: str, facts: Facts) -> list[Part]:
    """`fixed by #38091 (merged)` / `fix proposed in #38091 (in review)`: the PRs that say
    they fix the issue, by their state."""
    if not found.fixed_by:
        return []
    merged = [n for n in found.fixed_by if facts.merged(n)]
    key = "why_fixed_by" if merged else "why_fix_proposed"
    numbers = tuple(merged) if merged else found.fixed_by
    return [Our(text(lang, key)), *_named_items(numbers, lang, facts, state=True)]


def _backports(found: Explanation, title: str, state: str, lang: str, facts: Facts) -> list[Part]:
    """`brings #31816 “title” to v0.13.0`: what a backport brings, and to which release,
    when the title does not say it all; nothing for a backport closed without merging."""
    if state == "closed" or not (found.backports or found.release):
        return []
    low = title.lower()
    untold = [n for n in found.backports if not _title_says(facts.item(n), low)]
    if not untold:
        return []  # the title names the PR, what it does and the release
    key = "why_backports" if state == "merged" else "why_would_backport"
    release = found.release if found.release and found.release.lower() not in low else None
    bare = "" if release else "_bare"  # "将 #N … backport 到 v0.13.0" / "backport #N …"
    parts: list[Part] = [Our(text(lang, key + bare)), *_named_items(tuple(untold), lang, facts)]
    after = text(lang, "why_release" + bare, release=release)
    return [*parts, Our(after)] if after else parts


def _title_says(other: ActivityItem | None, title: str) -> bool:
    """The title holds most of the other item's title words (a backport titled "Backport
    #31816 to v0.13.0: Fix ROCM_AITER_TRITON_MLA accuracy for DeepSeek-V3")."""
    if other is None:
        return True  # nothing known to tell beyond its number, which the title names
    words = set(re.findall(r"[a-z0-9_]{3,}", other.title.lower()))
    return bool(words) and len(words & set(re.findall(r"[a-z0-9_]{3,}", title))) >= 0.6 * len(words)


def _waits(found: Explanation, state: str, lang: str, facts: Facts) -> list[Part]:
    """`to be merged after ROCm/aiter#2360`: what an open PR's landing waits on."""
    if state != "open" or not found.waits_on:
        return []
    parts: list[Part] = [Our(text(lang, "why_waits_before"))]
    for index, ref in enumerate(found.waits_on[:LINKED_SHOWN]):
        if index:
            parts.append(Our(LIST_SEP[lang]))
        local = re.fullmatch(r"#(\d+)", ref)
        parts.append(facts.link(int(local.group(1))) if local else Theirs(ref, 80))
    return [*parts, Our(text(lang, "why_waits_after"))]


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


def _figures(found: Explanation, title: str, lang: str) -> list[Part]:
    """The author's figures the title and the quoted sentences do not already say, with
    what each measures: said in Chinese where the words are known, else quoted."""
    said = f"{title} {found.effect} {found.default}".lower()
    figures = [f for f in found.figures if f.lower() not in said]
    if not figures:
        return []
    shown = [figure_zh(f) for f in figures] if lang == "zh" else figures
    joined = ("、" if lang == "zh" else " and ").join(shown)
    return [Our(text(lang, "why_figures", figures=joined))]
