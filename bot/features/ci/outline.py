"""Red on main as the daily report's section, its line in the chat headline, its chat reply
and its JSON, in both languages.

What a maintainer needs from a morning post: which jobs are red on main at the day's end,
since when (the first failing build), on which hardware, the changes that could have broken
it (the blame range) and the one the evidence singles out, if any, with who to ask; which
jobs look flaky or are the fleet's trouble; what passed again and what was closed by hand
(never called fixed); and the CI failures reported on GitHub that the dashboard does not
read (AMD's own CI). The dashboard's words (job names, its analysis, its error sentence)
are a stranger's text: each platform escapes them and they are kept to one line. When the
dashboard could not be read the section says the state is unknown and why: never "nothing
failing".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, tzinfo
from typing import Any

from bot.features.ci import phrases
from bot.features.ci.analyze import suspected_of
from bot.features.ci.model import PASS_LOOK_BACK_DAYS, CiState, Red, Reported
from bot.features.ci.render_json import ci_to_dict
from bot.features.ci.words import HARDWARE_NAMES, day, when
from bot.model import outline_parts as ol
from bot.model.report import Report
from formatters import wording as w
from formatters._text import item_url

REPO = "vllm-project/vllm"
CHAT_ROWS = 5  # failures in each block of the chat reply; the rest by /vllm-ci
RANGE_SHOWN = 5  # PRs of a blame range named in its line; the rest counted
SUMMARY_LIMIT = 220  # characters of the dashboard's analysis shown
OWNERS_SHOWN = 3  # CODEOWNERS of a failing test named; the rest counted
INLINE_SHOWN = 8  # items of a one-paragraph group (flaky, passing again …); the rest counted


def ci_line(state: CiState, lang: str) -> str:
    """The section in one line, for the chat headline: a reader who stops there learns
    whether main is red, where, and whether that is known at all."""
    if not state.known:
        return phrases.said(lang, "line_unknown", why=" ".join(state.why.split()))
    if state.red:
        counts: dict[str, int] = {}
        for red in state.red:
            counts[red.failure.hardware] = counts.get(red.failure.hardware, 0) + 1
        hardware = w.LIST_SEP[lang].join(
            phrases.said(lang, "hw_count", n=n, name=HARDWARE_NAMES[key])
            for key, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        )
        said = phrases.said(lang, "line", n=len(state.red), hardware=hardware)
        new = sum(1 for r in state.red if r.new)
        said += phrases.said(lang, "line_new", n=new) if new else ""
    else:
        said = phrases.said(lang, "line_green")
    others = {"line_flaky": len(state.flaky), "line_infra": len(state.infra),
              "line_fixed": len(state.resolved), "line_reported": len(state.reported)}  # fmt: skip
    for key, n in others.items():
        if n:
            said += phrases.said(lang, key, n=n)
    return said


def ci_section(state: CiState, lang: str) -> ol.Section:
    """The section: unknown and why, or what was red, flaky, infra, passing again, closed by
    hand, and reported on GitHub."""
    tz = state.end.tzinfo
    if not state.known:
        why = (
            ol.Our(phrases.said(lang, "unknown")),
            ol.Theirs(state.why.rstrip("."), 400),
            ol.Our("."),
        )
        return ol.Section(
            "ci", phrases.said(lang, "title"), (ol.Block(None, (ol.Entry(why),), "text"),)
        )
    blocks: list[ol.Block] = []
    if state.red:
        entries = tuple(_open(r, lang, state.end) for r in state.red)
        heading = phrases.said(lang, "red", n=len(entries))
        blocks.append(ol.Block(heading, entries, "numbered", columns=_columns(lang)))
    # The rest, one paragraph a group: what a reader acts on is what is still red.
    groups: dict[str, list[list[ol.Part]]] = {
        "flaky": [_flaky(r, lang, tz) for r in state.flaky],
        "infra": [_infra(r, lang, tz) for r in state.infra],
        "resolved": [_passed_inline(r, lang, tz) for r in state.resolved],
        "closed": [list(_closed(r, lang, tz).head) for r in state.closed],
        "reported": [_reported(r, lang, tz) for r in state.reported],
    }
    for key, said in groups.items():
        if said:
            blocks.append(_paragraph(phrases.said(lang, key, n=len(said)), said, lang, state))
    if not state.red and not state.flaky and not state.infra:
        blocks.insert(0, _text_block(phrases.said(lang, "green")))
    blocks.append(_text_block(_footer(state, lang)))
    return ol.Section("ci", phrases.said(lang, "title"), tuple(blocks))


@dataclass(frozen=True)
class Suspected:
    """A `mine` reader's news (bot.features.personal.model.ReaderNews): the failures on
    main whose shown suspect they wrote."""

    reds: tuple[Red, ...]

    def block(self, until: datetime, lang: str) -> ol.Block:
        return suspected_block(self.reds, until, lang)


def suspected_news(report: Report, login: str) -> Suspected | None:
    """What Red on main has for `login` in the day's report (None: nothing of theirs)."""
    reds = suspected_of(ci_of(report), login)
    return Suspected(reds) if reds else None


def suspected_block(reds: tuple[Red, ...], end: datetime, lang: str) -> ol.Block:
    """A `mine` digest's CI part: each failure with the suspect line naming the PR."""
    entries = tuple(
        _open(r, lang, end) if r.failure.resolved is None else _passed(r, lang, end.tzinfo)
        for r in reds
    )
    return ol.Block(phrases.said(lang, "yours", n=len(reds)), entries)


def _text_block(text: str) -> ol.Block:
    return ol.Block(None, (ol.Entry((ol.Our(text),)),), "text")


def _head(red: Red, lang: str) -> list[ol.Part]:
    failure = red.failure
    head: list[ol.Part] = [ol.Our(phrases.said(lang, "new"))] if red.new else []
    name = HARDWARE_NAMES[failure.hardware]
    if name.lower() not in failure.job.lower():  # "AMD: Kernels Test" says it already
        head.append(ol.Our(f"[{name}] "))
    return [*head, ol.Theirs(failure.job)]


def _open(red: Red, lang: str, end: datetime, evidence: bool = True) -> ol.Entry:
    failure = red.failure
    # The runs counted at the read: told only when none of them came after the window.
    key = "since" if failure.count > 1 and failure.last.at <= end else "since_one"
    said = phrases.said(lang, key, day=when(failure.first.at, end.tzinfo),
                        build=failure.first.number, runs=failure.count,
                        id=failure.alert_id)  # fmt: skip
    lines = _evidence(red, lang, end.tzinfo) if evidence else _analysis(red, lang)
    cells = _cells(red, lang, end.tzinfo)
    return ol.Entry((*_head(red, lang), ol.Our(said)), lines, cells=cells)


def _columns(lang: str) -> ol.Columns:
    """The failing jobs as a table: a row a job (its evidence under the table)."""
    keys = ("col_job", "col_hardware", "col_since", "col_runs", "col_suspect")
    return ol.Columns(phrases.said(lang, "table"), tuple(phrases.said(lang, k) for k in keys))


def _cells(red: Red, lang: str, tz: tzinfo | None) -> tuple[ol.Cell, ...]:
    """A failing job's row: the job, its hardware, when it went red (the first failing
    build), its failing runs, and the suspect (or how many changes the blame range holds)."""
    failure = red.failure
    job: ol.Line = (ol.Our(phrases.said(lang, "new")),) if red.new else ()
    suspect: ol.Line
    if red.suspect is not None:
        suspect = (ol.Ref(red.suspect.number, item_url(REPO, "pr", red.suspect.number)),)
    elif red.blame is not None and red.blame.prs:
        suspect = (ol.Our(phrases.said(lang, "cell_range", n=len(red.blame.prs))),)
    else:
        suspect = (ol.Our(phrases.said(lang, "cell_none")),)
    return (
        (*job, ol.Theirs(failure.job)),
        (ol.Our(HARDWARE_NAMES[failure.hardware]),),
        ol.Moment(failure.first.at, when(failure.first.at, tz)),
        ol.Number(failure.count, str(failure.count)),
        suspect,
    )


def _paragraph(group: str, said: list[list[ol.Part]], lang: str, state: CiState) -> ol.Block:
    """A group in one paragraph: its first INLINE_SHOWN items, the rest by the command."""
    line: list[ol.Part] = [ol.Our(phrases.said(lang, "lead", group=group))]
    for i, parts in enumerate(said[:INLINE_SHOWN]):
        line += [ol.Our(phrases.said(lang, "joint"))] if i else []
        line += parts
    hidden = len(said) - INLINE_SHOWN
    if hidden > 0:
        command = f"/vllm-ci {state.topic or ''}".rstrip()
        line.append(
            ol.Our(
                phrases.said(lang, "joint") + phrases.said(lang, "more", n=hidden, command=command)
            )
        )
    return ol.Block(None, (ol.Entry(tuple(line)),), "text")


def _flaky(red: Red, lang: str, tz: tzinfo | None) -> list[ol.Part]:
    history = red.history
    if history is not None and history.flaky:
        why = phrases.said(lang, "flips", n=history.flips)
    else:
        why = phrases.said(lang, "classed_flaky")
    return [*_head(red, lang), ol.Our(why)]


def _infra(red: Red, lang: str, tz: tzinfo | None) -> list[ol.Part]:
    return [
        *_head(red, lang),
        ol.Our(phrases.said(lang, "infra_since", day=when(red.failure.first.at, tz))),
    ]


def _passed_inline(red: Red, lang: str, tz: tzinfo | None) -> list[ol.Part]:
    entry = _passed(red, lang, tz)
    suspect = [p for line in entry.lines for p in (ol.Our(" — "), *line)]
    return [*entry.head, *suspect]


def _passed(red: Red, lang: str, tz: tzinfo | None) -> ol.Entry:
    failure = red.failure
    resolved = failure.resolved
    if resolved is None:  # never: `resolved` holds only failures with an observed pass
        raise ValueError(f"failure {failure.alert_id} has no observed pass")
    key = "passed_one" if failure.count == 1 else "passed"
    said = phrases.said(lang, key, build=resolved.number, day=when(resolved.at, tz),
                  since=day(failure.first.at, tz), runs=failure.count)  # fmt: skip
    lines = (_suspect(red, lang, tz),) if red.suspect is not None else ()
    return ol.Entry((*_head(red, lang), ol.Our(said)), lines)


def _closed(red: Red, lang: str, tz: tzinfo | None) -> ol.Entry:
    closed_at = red.failure.closed_at or red.failure.last.at
    said = phrases.said(lang, "closed_line", day=when(closed_at, tz))
    return ol.Entry((*_head(red, lang), ol.Our(said)))


def _reported(report: Reported, lang: str, tz: tzinfo | None) -> list[ol.Part]:
    build = phrases.said(lang, "reported_build", build=report.build) if report.build else ""
    values = {"hardware": HARDWARE_NAMES[report.hardware], "day": day(report.opened_at, tz),
              "build": build}  # fmt: skip
    if report.closed_at is None:
        said = phrases.said(lang, "reported_open", **values)
    else:
        said = phrases.said(lang, "reported_closed", closed=day(report.closed_at, tz), **values)
    if report.fix is not None:
        said += phrases.said(lang, "reported_fix", n=report.fix)
    return [ol.Ref(report.number, item_url(REPO, "issue", report.number)), ol.Our(" "),
            ol.Theirs(report.job), ol.Our(said)]  # fmt: skip


def _numbers(numbers: tuple[int, ...], lang: str) -> list[ol.Part]:
    parts: list[ol.Part] = []
    for i, number in enumerate(numbers):
        if i:
            parts.append(ol.Our(w.LIST_SEP[lang]))
        parts.append(ol.Ref(number, item_url(REPO, "pr", number)))
    return parts


def _evidence(red: Red, lang: str, tz: tzinfo | None) -> tuple[ol.Line, ...]:
    """The failure's evidence in two lines: the suspect or the blame range (or why there is
    none) with what the analysis names in and outside it; then the analysis and who owns
    the failing test."""
    line = list(_verdict(red, lang, tz))
    for key, numbers in (("evidence", red.evidence), ("outside", red.outside),
                         ("cleared", red.cleared)):  # fmt: skip
        if numbers:
            head, _, tail = phrases.said(lang, key, items="\0").partition("\0")
            line += [ol.Our(head), *_numbers(numbers, lang), ol.Our(tail)]
    said = _analysis(red, lang, owners=True)
    if red.blame is None and len(line) == 1 and said:
        # No range and nothing named: the verdict is one short sentence, the analysis on it.
        return ((*line, ol.Our(phrases.said(lang, "then")), *said[0]),)
    return (tuple(line), *said)


def _verdict(red: Red, lang: str, tz: tzinfo | None) -> ol.Line:
    history, blame = red.history, red.blame
    if red.suspect is not None:
        return _suspect(red, lang, tz)
    if history is None:
        return (ol.Our(phrases.said(lang, "no_runs")),)
    if history.last_pass is None:
        return (ol.Our(phrases.said(lang, "no_pass", days=PASS_LOOK_BACK_DAYS)),)
    build = history.last_pass.number
    if blame is None:
        return (ol.Our(phrases.said(lang, "no_range", build=build)),)
    if not blame.prs:
        return (ol.Our(phrases.said(lang, "range_empty", build=build)),)
    line: list[ol.Part] = [ol.Our(phrases.said(lang, "range", n=len(blame.prs), build=build))]
    line += _numbers(blame.prs[:RANGE_SHOWN], lang)
    if len(blame.prs) > RANGE_SHOWN:
        line.append(ol.Our(phrases.said(lang, "range_more", n=len(blame.prs) - RANGE_SHOWN)))
    return tuple(line)


def _analysis(red: Red, lang: str, owners: bool = False) -> tuple[ol.Line, ...]:
    """The dashboard's analysis (their words) and, with `owners`, who owns the failing
    test (the suspect's author is on the suspect's line already)."""
    analysis = red.failure.analysis
    line: list[ol.Part] = []
    if analysis is not None and analysis.summary:
        label = phrases.said(lang, "stale" if analysis.stale else "analysis")
        line += [ol.Our(label), ol.Theirs(analysis.summary, SUMMARY_LIMIT)]
    author = f"@{red.suspect.author}" if red.suspect and red.suspect.author else None
    ask = [o for o in red.owners if o != author] if owners else []
    if ask:
        shown = " ".join(ask[:OWNERS_SHOWN])
        more = (
            phrases.said(lang, "ask_more", n=len(ask) - OWNERS_SHOWN)
            if len(ask) > OWNERS_SHOWN
            else ""
        )
        ask_said = phrases.said(lang, "ask")
        line += [ol.Our(ask_said.lstrip() if not line else ask_said),
                 ol.Theirs(shown, 200), ol.Our(more)]  # fmt: skip
    return (tuple(line),) if line else ()


def _suspect(red: Red, lang: str, tz: tzinfo | None) -> ol.Line:
    suspect = red.suspect
    if suspect is None:
        return ()
    line: list[ol.Part] = [
        ol.Our(phrases.said(lang, "suspect")),
        ol.Ref(suspect.number, item_url(REPO, "pr", suspect.number)),
    ]
    if suspect.title:
        line += [ol.Our(" "), ol.Theirs(suspect.title)]
    if suspect.author:
        line += [ol.Our(phrases.said(lang, "by")), ol.Theirs(f"@{suspect.author}", ol.LOGIN_LIMIT)]
    if suspect.because == "alone":
        last = red.history.last_pass if red.history else None
        line.append(ol.Our(phrases.said(lang, "alone", build=last.number if last else "?")))
    else:
        number, _, how = suspect.because.lstrip("#").partition(" ")
        key = "reverts" if how.startswith("reverts") else "fixes"
        line.append(ol.Our(phrases.said(lang, "confirmed", how=phrases.said(lang, key, n=number))))
    return tuple(line)


def _footer(state: CiState, lang: str) -> str:
    tz = state.end.tzinfo
    said = phrases.said(
        lang, "read", source=state.source, time=when(state.read_at or state.end, tz)
    )
    if state.skipped:
        said += phrases.said(lang, "skipped", n=state.skipped)
    return said


def chat_blocks(section: ol.Section, label: str, lang: str) -> tuple[ol.Block, ...]:
    """The section as a chat reply: each block's first failures, the rest named by the
    command that lists them."""
    out = []
    for block in section.blocks:
        hidden = len(block.entries) - CHAT_ROWS
        if block.style != "text" and hidden > 0:
            rest = (ol.Our(phrases.said(lang, "more", n=hidden, command=f"/vllm-ci {label}")),)
            block = replace(block, entries=block.entries[:CHAT_ROWS], rest=rest)
        out.append(block)
    return tuple(out)


@dataclass(frozen=True)
class CiPart:
    """Red on main as the daily report's part (a `ReportPart`): a section after the
    Plugins one, a line after theirs in the first message, the reply before theirs, also
    on a quiet day; known or unknown and why, never "0"."""

    state: CiState
    name: str = "ci"
    json_key: str = "ci"
    rank: int = 20
    chat_rank: int | None = 10
    on_quiet_day: bool = True

    def section(self, lang: str) -> ol.Section | None:
        return ci_section(self.state, lang)

    def headline(self, lang: str) -> str | None:
        return "🚦 " + ci_line(self.state, lang)

    def chat_blocks(self, section: ol.Section, label: str, lang: str) -> tuple[ol.Block, ...]:
        return chat_blocks(section, label, lang)

    def to_json(self) -> dict[str, Any]:
        return ci_to_dict(self.state)


def ci_of(report: Report) -> CiState | None:
    """Red on main as a report carries it (its `ci` part), if it does."""
    part = report.part("ci")
    return part.state if isinstance(part, CiPart) else None
