"""Markdown: the reference report's header (title, window, five counts) and its appendix.

Section names in `zh` follow the reference report's wording; `en` says the same in English.
"""

from __future__ import annotations

from bot.report import ActivityItem, ListName, Report
from bot.windows import format_local

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "title": "vLLM development report - {label}",
        "title_other": "{repo} development report - {label}",
        "window": "Window",
        "stats": "Counts",
        "new_issues": "New issues",
        "closed_issues": "Closed issues",
        "new_prs": "New PRs",
        "merged_prs": "Merged PRs",
        "closed_unmerged_prs": "Closed unmerged PRs",
        "split": "{resolved} resolved, {stale} stale",
        "appendix": "📋 Appendix: every item",
        "no_labels": "no labels",
        "none": "_none_",
        "by": "by",
        "created": "created",
        "closed": "closed",
        "merged": "merged",
        "incomplete": "⚠️ Incomplete data",
        "unknown_author": "unknown",
    },
    "zh": {
        "title": "vLLM 开发动态报告 - {label}",
        "title_other": "{repo} 开发动态报告 - {label}",
        "window": "时间窗口",
        "stats": "数据统计",
        "new_issues": "新 Issue",
        "closed_issues": "关闭 Issue",
        "new_prs": "新 PR",
        "merged_prs": "合并 PR",
        "closed_unmerged_prs": "关闭未合并 PR",
        "split": "其中 {resolved} 个已解决，{stale} 个因过期关闭",
        "appendix": "📋 附录：详细数据列表",
        "no_labels": "无标签",
        "none": "_无_",
        "by": "by",
        "created": "创建于",
        "closed": "关闭于",
        "merged": "合并于",
        "incomplete": "⚠️ 数据不完整",
        "unknown_author": "未知",
    },
}

# Appendix headings, in the reference's order and words.
APPENDIX_HEADINGS: dict[str, dict[ListName, str]] = {
    "en": {
        ListName.NEW_ISSUES: "New issues",
        ListName.CLOSED_ISSUES: "Closed issues",
        ListName.NEW_PRS: "New PRs",
        ListName.MERGED_PRS: "Merged PRs",
        ListName.CLOSED_UNMERGED_PRS: "Closed but not merged PRs",
    },
    "zh": {
        ListName.NEW_ISSUES: "新增 Issue",
        ListName.CLOSED_ISSUES: "已关闭 Issue",
        ListName.NEW_PRS: "新增 PR",
        ListName.MERGED_PRS: "已合并 PR",
        ListName.CLOSED_UNMERGED_PRS: "关闭但未合并的 PR",
    },
}

EVENT_WORD = {
    ListName.NEW_ISSUES: "created",
    ListName.NEW_PRS: "created",
    ListName.CLOSED_ISSUES: "closed",
    ListName.CLOSED_UNMERGED_PRS: "closed",
    ListName.MERGED_PRS: "merged",
}


def render_markdown(report: Report, lang: str = "en") -> str:
    return "\n".join([*render_header(report, lang), "", *render_appendix(report, lang)]) + "\n"


def render_header(report: Report, lang: str = "en") -> list[str]:
    text = TEXT[lang]
    window = report.window
    template = text["title"] if report.repo == "vllm-project/vllm" else text["title_other"]
    lines = [
        "# " + template.format(repo=report.repo, label=window.label),
        "",
        f"> {text['window']}: {format_local(window.start)} ~ {format_local(window.end)}",
        f"> {text['stats']}: " + " | ".join(_count(report, name, lang) for name in ListName),
    ]
    if not report.complete or report.notes:
        lines.append("")
        heading = f"**{text['incomplete']}**" if not report.complete else ""
        if heading:
            lines.append(f"> {heading}")
        lines.extend(f"> - {note}" for note in report.notes)
    return lines


def render_appendix(report: Report, lang: str = "en") -> list[str]:
    text = TEXT[lang]
    lines = [f"## {text['appendix']}"]
    for name in ListName:
        lines += ["", f"### {APPENDIX_HEADINGS[lang][name]} ({report.stats[name]})"]
        numbers = report.lists[name]
        if not numbers:
            lines.append(text["none"])
        lines.extend(_appendix_line(report.items[n], name, report, lang) for n in numbers)
    return lines


def _count(report: Report, name: ListName, lang: str) -> str:
    text = TEXT[lang]
    result = f"{text[name.value]} {report.stats[name]}"
    split = report.closures.get(name)
    if split is not None and split.stale:
        result += " (" + text["split"].format(resolved=split.resolved, stale=split.stale) + ")"
    return result


def _appendix_line(item: ActivityItem, name: ListName, report: Report, lang: str) -> str:
    text = TEXT[lang]
    labels = ",".join(item.labels) if item.labels else text["no_labels"]
    when = item.event_time(name)
    stamp = format_local(when.astimezone(report.window.start.tzinfo)) if when else "?"
    author = item.author or text["unknown_author"]
    title = _escape(item.title)
    return (
        f"- [#{item.number}]({item.url}) {title} — {_escape(labels)} — "
        f"{text['by']} {_escape(author)} ({text[EVENT_WORD[name]]}: {stamp})"
    )


def _escape(value: str) -> str:
    """Keep strangers' text on one line and out of link, HTML and code syntax.

    Titles keep their `[Bug]`-style tags readable; only the sequences that would make a
    link (`](`), an autolink or HTML (`<`) or a code span are defused.
    """
    value = " ".join(value.split())
    return value.replace("](", "]\\(").replace("<", "\\<").replace("`", "\\`")
