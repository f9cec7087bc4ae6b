"""Red on main as the daily report's section, its line in the chat headline, its chat reply
and its JSON, in both languages.

What a maintainer needs from a morning post: which jobs are red on main at the day's end,
since when (the first failing build), on which hardware, which merged PR the dashboard's
analysis suspects (only when GitHub confirms it landed between the job's last pass and
its first failure: `bot.features.ci.analyze`), and what passed again in the window. Infrastructure
trouble is told apart; a record closed without an observed pass is never called fixed.
When the dashboard could not be read the section says the state is unknown and why: never
"nothing failing".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, tzinfo
from typing import Any

from bot.features.ci.analyze import suspected_of
from bot.features.ci.model import CiState, Red, Suspect
from bot.model import outline_parts as ol
from bot.model.report import Report
from formatters import wording as w
from formatters._text import item_url

REPO = "vllm-project/vllm"
CHAT_ROWS = 5  # failures in each block of the chat reply; the rest by /vllm-ci
HARDWARE_NAMES = {
    "amd": "AMD",
    "nvidia": "NVIDIA",
    "intel": "Intel",
    "tpu": "TPU",
    "neuron": "Neuron",
    "ascend": "Ascend",
    "cpu": "CPU",
}

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "🚦 Red on main",
        "yours": "CI failures on main your PR is suspected of ({n})",
        "answer_title": "🚦 Red on main · {label}",
        "answer_context": "{start} ~ {end}{topic}",
        "unknown": "The CI state on main is unknown: {why}.",
        "green": "Nothing was failing on main at the day's end, as the CI dashboard recorded it.",
        "red": "Failing at the day's end ({n})",
        "infra": "Infrastructure trouble, not the code ({n})",
        "resolved": "Passing again ({n})",
        "closed": "Closed without an observed pass ({n})",
        "new": "🆕 ",
        "since": " — red since {day} (build #{build}; {runs} failing runs; failure {id})",
        "since_one": " — red since {day} (build #{build}; failure {id})",
        "passed": " — passed in build #{build} on {day}, red since {since} ({runs} failing runs)",
        "passed_one": " — passed in build #{build} on {day}, red since {since} (1 failing run)",
        "closed_line": " — closed on {day} with no passing run seen: not counted as fixed",
        "suspect": "Suspected: ",
        "by": " by ",
        "merged": ", merged {day}",
        "confirmed": "; confirmed: {how}",
        "reverts": "#{n} reverts it",
        "fixes": "#{n} fixes it",
        "dropped": "Named by the dashboard's analysis, not shown: {items}",
        "read": "Read from {source} at {time}.",
        "attribution": " Suspects shown so far: {confirmed} confirmed by a revert or a fix, "
        "{corrected} corrected by readers (/vllm-ci wrong), {open} not yet confirmed.",
        "precision": " Precision {share} of those judged.",
        "skipped": " Left out, unreadable: {n} of the dashboard's failure records.",
        "more": "+{n} more: {command}",
        "line_unknown": "Red on main: unknown ({why})",
        "line_green": "Red on main: nothing failing",
        "line": "Red on main: {n} failing ({hardware})",
        "line_new": ", {n} new",
        "line_infra": "; {n} infrastructure",
        "line_fixed": "; {n} passing again",
        "hw_count": "{n} {name}",
    },
    "zh": {
        "title": "🚦 main 分支 CI 失败",
        "yours": "疑似由你的 PR 导致的 main 分支 CI 失败（{n}）",
        "answer_title": "🚦 main 分支 CI 失败 · {label}",
        "answer_context": "{start} ~ {end}{topic}",
        "unknown": "main 分支的 CI 状态未知，原因（原文）：「{why}」。",
        "green": "截至当日结束，CI 看板记录的 main 分支没有失败的任务。",
        "red": "截至当日结束仍失败（{n}）",
        "infra": "基础设施问题，并非代码问题（{n}）",
        "resolved": "已恢复通过（{n}）",
        "closed": "未观察到通过即关闭（{n}）",
        "new": "🆕 ",
        "since": " — 自 {day} 起失败（首个失败构建 #{build}；共 {runs} 次失败；故障 {id}）",
        "since_one": " — 自 {day} 起失败（首个失败构建 #{build}；故障 {id}）",
        "passed": " — 于 {day} 在构建 #{build} 中通过（自 {since} 起失败，共 {runs} 次）",
        "passed_one": " — 于 {day} 在构建 #{build} 中通过（自 {since} 起失败，共 1 次）",
        "closed_line": " — 于 {day} 关闭，但未观察到通过的运行：不算作已修复",
        "suspect": "疑似原因：",
        "by": "，作者 ",
        "merged": "，{day} 合并",
        "confirmed": "；已确认：{how}",
        "reverts": "#{n} 回退了它",
        "fixes": "#{n} 修复了它",
        "dropped": "看板分析提到但未采信：{items}",
        "read": "数据读取自 {source}（{time}）。",
        "attribution": "迄今给出的疑似原因：{confirmed} 个已由回退或修复确认，"
        "{corrected} 个被读者更正（/vllm-ci wrong），{open} 个尚未确认。",
        "precision": "已判定者中准确率 {share}。",
        "skipped": "有 {n} 条故障记录无法读取，未列入。",
        "more": "另有 {n} 项：{command}",
        "line_unknown": "main 分支 CI：状态未知（原文：「{why}」）",
        "line_green": "main 分支 CI：无失败任务",
        "line": "main 分支 CI：{n} 个任务失败（{hardware}）",
        "line_new": "，新增 {n} 个",
        "line_infra": "；基础设施问题 {n} 个",
        "line_fixed": "；{n} 个已恢复通过",
        "hw_count": "{name} {n}",
    },
}
# Why a named PR is not the suspect shown (`bot.features.ci.model.DROPPED`).
DROPPED = {
    "en": {
        "missing": "no such vLLM PR",
        "not-asked": "GitHub could not be asked",
        "issue": "an issue, not a PR",
        "unmerged": "not merged",
        "after": "merged after the first failure",
        "before-pass": "merged before the job last passed",
        "too-old": "merged over 7 days before the first failure, no earlier pass on record",
        "corrected": "corrected by {by}",
    },
    "zh": {
        "missing": "vLLM 没有这个 PR",
        "not-asked": "未能向 GitHub 查询",
        "issue": "是 issue 而非 PR",
        "unmerged": "未合并",
        "after": "在首次失败之后才合并",
        "before-pass": "在该任务上次通过之前已合并",
        "too-old": "在首次失败前 7 天以上合并，且无更早的通过记录",
        "corrected": "已被 {by} 更正",
    },
}


def phrase(lang: str, key: str, **values: object) -> str:
    return WORDS[lang][key].format(**values)


def when(moment: datetime, tz: tzinfo | None) -> str:
    return moment.astimezone(tz).strftime("%Y-%m-%d %H:%M")


def _day(moment: datetime, tz: tzinfo | None) -> str:
    return moment.astimezone(tz).date().isoformat()


def ci_line(state: CiState, lang: str) -> str:
    """The section in one line, for the chat headline: a reader who stops there learns
    whether main is red, where, and whether that is known at all."""
    if not state.known:
        return phrase(lang, "line_unknown", why=state.why)
    if not state.red and not state.infra and not state.resolved:
        return phrase(lang, "line_green")
    said = ""
    if state.red:
        counts: dict[str, int] = {}
        for red in state.red:
            counts[red.failure.hardware] = counts.get(red.failure.hardware, 0) + 1
        hardware = w.LIST_SEP[lang].join(
            phrase(lang, "hw_count", n=n, name=HARDWARE_NAMES[key])
            for key, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        )
        said = phrase(lang, "line", n=len(state.red), hardware=hardware)
        new = sum(1 for r in state.red if r.new)
        said += phrase(lang, "line_new", n=new) if new else ""
    else:
        said = phrase(lang, "line_green")
    if state.infra:
        said += phrase(lang, "line_infra", n=len(state.infra))
    if state.resolved:
        said += phrase(lang, "line_fixed", n=len(state.resolved))
    return said


def ci_section(state: CiState, lang: str) -> ol.Section:
    """The section: unknown and why, or what was red, infra, passing again and closed."""
    tz = state.end.tzinfo
    blocks: list[ol.Block] = []
    if not state.known:
        text = phrase(lang, "unknown", why=state.why.rstrip("."))
        return ol.Section("ci", phrase(lang, "title"), (_text_block(text),))
    if state.red:
        entries = tuple(_open(red, lang, state.end) for red in state.red)
        blocks.append(ol.Block(phrase(lang, "red", n=len(state.red)), entries, "numbered"))
    if state.infra:
        entries = tuple(_open(red, lang, state.end, suspect=False) for red in state.infra)
        blocks.append(ol.Block(phrase(lang, "infra", n=len(state.infra)), entries))
    if state.resolved:
        entries = tuple(_passed(red, lang, tz) for red in state.resolved)
        blocks.append(ol.Block(phrase(lang, "resolved", n=len(state.resolved)), entries))
    if state.closed:
        entries = tuple(_closed(red, lang, tz) for red in state.closed)
        blocks.append(ol.Block(phrase(lang, "closed", n=len(state.closed)), entries))
    if not state.red and not state.infra:
        blocks.insert(0, _text_block(phrase(lang, "green")))
    blocks.append(_text_block(_footer(state, lang)))
    return ol.Section("ci", phrase(lang, "title"), tuple(blocks))


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
    return ol.Block(phrase(lang, "yours", n=len(reds)), entries)


def _text_block(text: str) -> ol.Block:
    return ol.Block(None, (ol.Entry((ol.Our(text),)),), "text")


def _head(red: Red, lang: str) -> list[ol.Part]:
    failure = red.failure
    head: list[ol.Part] = [ol.Our(phrase(lang, "new"))] if red.new else []
    name = HARDWARE_NAMES[failure.hardware]
    if name.lower() not in failure.job.lower():  # "AMD: Kernels Test" says it already
        head.append(ol.Our(f"[{name}] "))
    return [*head, ol.Theirs(failure.job)]


def _open(red: Red, lang: str, end: datetime, suspect: bool = True) -> ol.Entry:
    failure = red.failure
    # The runs counted at the read: told only when none of them came after the window.
    key = "since" if failure.count > 1 and failure.last.at <= end else "since_one"
    tz = end.tzinfo
    said = phrase(
        lang,
        key,
        day=when(failure.first.at, tz),
        build=failure.first.number,
        runs=failure.count,
        id=failure.alert_id,
    )
    lines = _suspect_lines(red, lang, tz) if suspect else ()
    return ol.Entry((*_head(red, lang), ol.Our(said)), lines)


def _passed(red: Red, lang: str, tz: tzinfo | None) -> ol.Entry:
    failure = red.failure
    resolved = failure.resolved
    if resolved is None:  # never: `resolved` holds only failures with an observed pass
        raise ValueError(f"failure {failure.alert_id} has no observed pass")
    said = phrase(
        lang,
        "passed" if failure.count != 1 else "passed_one",
        build=resolved.number,
        day=when(resolved.at, tz),
        since=_day(failure.first.at, tz),
        runs=failure.count,
    )
    return ol.Entry((*_head(red, lang), ol.Our(said)), _suspect_lines(red, lang, tz))


def _closed(red: Red, lang: str, tz: tzinfo | None) -> ol.Entry:
    closed_at = red.failure.closed_at or red.failure.last.at
    said = phrase(lang, "closed_line", day=when(closed_at, tz))
    return ol.Entry((*_head(red, lang), ol.Our(said)))


def _suspect_lines(red: Red, lang: str, tz: tzinfo | None) -> tuple[ol.Line, ...]:
    lines: list[ol.Line] = []
    if red.suspect is not None:
        lines.append(_suspect(red.suspect, lang, tz))
    if red.dropped:
        said = w.LIST_SEP[lang].join(_dropped(s, lang) for s in red.dropped)
        lines.append((ol.Our(phrase(lang, "dropped", items=said)),))
    return tuple(lines)


def _dropped(suspect: Suspect, lang: str) -> str:
    why = DROPPED[lang][suspect.why].format(by=suspect.by)
    return f"#{suspect.number}（{why}）" if lang == "zh" else f"#{suspect.number} ({why})"


def _suspect(suspect: Suspect, lang: str, tz: tzinfo | None) -> ol.Line:
    line: list[ol.Part] = [
        ol.Our(phrase(lang, "suspect")),
        ol.Ref(suspect.number, item_url(REPO, "pr", suspect.number)),
    ]
    if suspect.title:
        line += [ol.Our(" "), ol.Theirs(suspect.title)]
    if suspect.author:
        line += [ol.Our(phrase(lang, "by")), ol.Theirs(f"@{suspect.author}", ol.LOGIN_LIMIT)]
    if suspect.merged_at is not None:
        line.append(ol.Our(phrase(lang, "merged", day=_day(suspect.merged_at, tz))))
    if suspect.confirmed_by:
        number, _, how = suspect.confirmed_by.lstrip("#").partition(" ")
        key = "reverts" if how.startswith("reverts") else "fixes"
        line.append(ol.Our(phrase(lang, "confirmed", how=phrase(lang, key, n=number))))
    return tuple(line)


def _footer(state: CiState, lang: str) -> str:
    tz = state.end.tzinfo
    said = phrase(lang, "read", source=state.source, time=when(state.read_at or state.end, tz))
    measured = state.attribution
    if measured.confirmed or measured.corrected or measured.unconfirmed:
        said += phrase(
            lang,
            "attribution",
            confirmed=measured.confirmed,
            corrected=measured.corrected,
            open=measured.unconfirmed,
        )
        if measured.precision is not None:
            said += phrase(lang, "precision", share=f"{measured.precision:.0%}")
    if state.skipped:
        said += phrase(lang, "skipped", n=state.skipped)
    return said


def chat_blocks(section: ol.Section, label: str, lang: str) -> tuple[ol.Block, ...]:
    """The section as a chat reply: each block's first failures, the rest named by the
    command that lists them."""
    out = []
    for block in section.blocks:
        hidden = len(block.entries) - CHAT_ROWS
        if block.style != "text" and hidden > 0:
            rest = (ol.Our(phrase(lang, "more", n=hidden, command=f"/vllm-ci {label}")),)
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


def ci_to_dict(state: CiState) -> dict[str, Any]:
    """The section's facts for the JSON report (`ci`): `state` is `known` or `unknown`."""
    data: dict[str, Any] = {
        "state": state.state,
        "source": state.source,
        "read_at": state.read_at.isoformat() if state.read_at else None,
    }
    if not state.known:
        data["why"] = state.why
        return data
    data.update(
        red=[_red_dict(r) for r in state.red],
        infra=[_red_dict(r) for r in state.infra],
        resolved=[_red_dict(r) for r in state.resolved],
        closed=[_red_dict(r) for r in state.closed],
        attribution={
            "confirmed": state.attribution.confirmed,
            "corrected": state.attribution.corrected,
            "unconfirmed": state.attribution.unconfirmed,
            "precision": state.attribution.precision,
        },
        skipped=state.skipped,
    )
    return data


def _red_dict(red: Red) -> dict[str, Any]:
    failure = red.failure
    suspect = red.suspect
    return {
        "id": failure.alert_id,
        "job": failure.job,
        "hardware": failure.hardware,
        "infra": failure.infra,
        "new": red.new,
        "red_since": failure.first.at.isoformat(),
        "first_build": failure.first.number,
        "first_commit": failure.first.commit,
        "last_build": failure.last.number,
        "failing_runs": failure.count,
        "resolved_by": None
        if failure.resolved is None
        else {
            "build": failure.resolved.number,
            "commit": failure.resolved.commit,
            "at": failure.resolved.at.isoformat(),
        },
        "closed_at": failure.closed_at.isoformat() if failure.closed_at else None,
        "suspect": None
        if suspect is None
        else {
            "number": suspect.number,
            "title": suspect.title,
            "author": suspect.author,
            "merged_at": suspect.merged_at.isoformat() if suspect.merged_at else None,
            "confirmed_by": suspect.confirmed_by or None,
        },
        "dropped": [{"number": s.number, "why": s.why} for s in red.dropped],
    }
