"""The summary paragraph of a full report, in English and Chinese: the day's weightiest
work (the key changes' top three, each with its kind, under its topic), then the five counts once,
each closure count with its stale-bot and bulk-sweep share, then how many people took part.
"""

from __future__ import annotations

from datetime import timedelta

from bot.model.report import ListName, Report, Sections
from formatters.explanations import kind_label
from formatters.wording import LIST_SEP, plural

Piece = str | int  # our words, or an item number the renderer links


def summary(report: Report, lang: str) -> str:
    """The summary paragraph of a full report as plain text ('' for counts only)."""
    return "".join(f"#{p}" if isinstance(p, int) else p for p in summary_pieces(report, lang))


def summary_pieces(report: Report, lang: str) -> list[Piece]:
    """The summary paragraph, its item numbers apart: the day's weightiest work, then the
    counts once, each closure count with its own stale-bot share."""
    if report.sections is None:
        return []
    sections = report.sections
    # A day is "the day"; a range or a window from a release is not one.
    one_day = report.window.duration <= timedelta(days=1) and report.window.since is None
    pieces = _themes(sections, lang, one_day)
    pieces.append(_chinese_counts(report) if lang == "zh" else _english_counts(report))
    people = sections.activity.distinct_authors
    if people:
        first = len(sections.activity.first_time_contributors)
        if lang == "zh":
            said = f"共 {people} 人参与（新建或合并）"
            pieces.append(said + (f"，其中 {first} 人首次贡献。" if first else "。"))
        else:
            said = f" {plural(people, 'person', 'people')} opened or landed work"
            pieces.append(said + (f", {first} of them for the first time." if first else "."))
    return pieces


def _themes(sections: Sections, lang: str, one_day: bool = True) -> list[Piece]:
    """`The day's weightiest work: #38139 perf, NVIDIA (#38050), Speculative decoding (#37880
    feature). `: the key changes' top three in their order (What happened names them first
    too: one ranking), each with its kind of work, under the topic it is filed under."""
    if not sections.themes:
        return []
    english = "The day's weightiest work: " if one_day else "The weightiest work: "
    pieces: list[Piece] = ["本周期最值得关注的工作：" if lang == "zh" else english]
    for index, theme in enumerate(sections.themes):
        if index:
            pieces.append(LIST_SEP[lang])
        if theme.topic:
            pieces.append(sections.catalog.topic_name(theme.topic, lang))
            pieces.append("（" if lang == "zh" else " (")
        for position, number in enumerate(theme.numbers):
            if position:
                pieces.append(LIST_SEP[lang])
            pieces.append(number)
            label = kind_label(sections.explained.get(number), lang)
            if label:  # "#38139 perf" / "#38139【性能】", as a head line tags it
                pieces.append(f"【{label}】" if lang == "zh" else " " + label)
        if theme.topic:
            pieces.append("）" if lang == "zh" else ")")
    pieces.append("。" if lang == "zh" else ". ")
    return pieces


def _stale(report: Report, name: ListName) -> int:
    split = report.closures.get(name)
    return split.stale if split is not None else 0


def _swept(report: Report, name: ListName, lang: str) -> str:
    """` (52 as low-effort in bulk, 1 by the stale bot)`: a closure count's sweeps, or ''."""
    split = report.closures.get(name)
    if split is None:
        return ""
    if lang == "zh":
        parts = [f"因低质量被批量关闭 {split.low_effort} 个"] if split.low_effort else []
        parts += [f"stale 机器人自动关闭 {split.stale} 个"] if split.stale else []
        said = "、".join(parts)
        return f"（其中{' ' if said[:1].isascii() else ''}{said}）" if parts else ""
    parts = [f"{split.low_effort} as low-effort in bulk"] if split.low_effort else []
    parts += [f"{split.stale} by the stale bot"] if split.stale else []
    return f" ({', '.join(parts)})" if parts else ""


def _english_counts(report: Report) -> str:
    stats = report.stats
    issues, prs = stats[ListName.NEW_ISSUES], stats[ListName.NEW_PRS]
    merged, closed = stats[ListName.MERGED_PRS], stats[ListName.CLOSED_ISSUES]
    unmerged = stats[ListName.CLOSED_UNMERGED_PRS]
    text_ = (
        f"{plural(issues, 'issue', 'issues')} and {plural(prs, 'PR', 'PRs')} were opened; "
        f"{plural(merged, 'PR was', 'PRs were')} merged; "
        f"{plural(closed, 'issue', 'issues')} closed"
    )
    text_ += _swept(report, ListName.CLOSED_ISSUES, "en")
    text_ += f" and {plural(unmerged, 'PR', 'PRs')} closed without merging"
    return text_ + _swept(report, ListName.CLOSED_UNMERGED_PRS, "en") + "."


def _chinese_counts(report: Report) -> str:
    stats = report.stats
    text_ = (
        f"新增 Issue {stats[ListName.NEW_ISSUES]} 个、PR {stats[ListName.NEW_PRS]} 个；"
        f"合并 PR {stats[ListName.MERGED_PRS]} 个；关闭 Issue {stats[ListName.CLOSED_ISSUES]} 个"
    )
    text_ += _swept(report, ListName.CLOSED_ISSUES, "zh")
    text_ += f"，未合并关闭 PR {stats[ListName.CLOSED_UNMERGED_PRS]} 个"
    return text_ + _swept(report, ListName.CLOSED_UNMERGED_PRS, "zh") + "。"
