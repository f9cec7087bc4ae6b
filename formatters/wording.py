"""Every word of the rendered report, in English and Chinese, in one place.

Analysis returns facts; this module turns them into words (headings, labels, plurals, the
summary paragraph) for every renderer. Chinese follows the reference reports' vocabulary.
"""

from __future__ import annotations

from bot.model.report import ListName, Report, Sections
from bot.model.windows import format_local

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "title": "vLLM development report - {label}",
        "title_other": "{repo} development report - {label}",
        "topic_suffix": " · {topic}",
        "window": "Window",
        "stats": "Counts",
        "new_issues": "New issues",
        "closed_issues": "Closed issues",
        "new_prs": "New PRs",
        "merged_prs": "Merged PRs",
        "closed_unmerged_prs": "Closed unmerged PRs",
        "split": "{resolved} resolved, {stale} stale",
        "summary": "📊 Summary",
        "vendor": "🎯 {name}",
        "vendor_lead": "{issues} issues and {prs} PRs this window.",
        "issues": "Issues",
        "prs": "PRs",
        "hot": "💬 Hot discussions",
        "why_hot": "why hot",
        "hot_figures": "{comments} from {people} in the window",
        "hot_totals": "{comments} in all (threads not read)",
        "reactions": "{n} reactions",
        "maintainers": "maintainers: {names}",
        "participants": "participants",
        "linked": "linked",
        "trends": "🔥 Trends",
        "trend_row": "{name}: {count} items (7-day mean {mean}){arrow}",
        "trend_new": "{name}: {count} items",
        "clusters": "Clusters",
        "cluster_row": "{name}: {count} items",
        "baseline": "Baseline: {days} of 7 previous days archived.",
        "key": "🛠️ Key technical changes",
        "activity": "📈 Activity",
        "authors": "Distinct authors: {n}",
        "first_timers": "First-time contributors: {names}",
        "vendor_authors": "Vendor-affiliated authors ({vendor}): {names}",
        "merged_count": "PRs merged: {n}",
        "bot_items": "Items opened by bots: {n}",
        "notable": "💡 Notable issues",
        "signals": "signals",
        "comments_n": "{n} comments",
        "comments_1": "1 comment",
        "appendix": "📋 Appendix: every item",
        "no_labels": "no labels",
        "none": "_none_",
        "nothing": "_nothing this window_",
        "by": "by",
        "created": "created",
        "closed": "closed",
        "merged": "merged",
        "open": "open",
        "incomplete": "⚠️ Incomplete data",
        "unknown_author": "unknown",
        "footer": "Every figure above is computed from GitHub data by vllm-report-bot.",
        "prose_footer": "Text marked ✍️ was written by {model} from those figures; "
        "{dropped} sentences failed the citation check and were removed.",
    },
    "zh": {
        "title": "vLLM 开发动态报告 - {label}",
        "title_other": "{repo} 开发动态报告 - {label}",
        "topic_suffix": " · {topic}",
        "window": "时间窗口",
        "stats": "数据统计",
        "new_issues": "新 Issue",
        "closed_issues": "关闭 Issue",
        "new_prs": "新 PR",
        "merged_prs": "合并 PR",
        "closed_unmerged_prs": "关闭未合并 PR",
        "split": "其中 {resolved} 个已解决，{stale} 个因过期关闭",
        "summary": "📊 每日开发状态摘要",
        "vendor": "🎯 {name}相关动态",
        "vendor_lead": "本周期共 {issues} 个 Issue、{prs} 个 PR。",
        "issues": "Issues",
        "prs": "PRs",
        "hot": "💬 高热度讨论分析",
        "why_hot": "热度",
        "hot_figures": "窗口内 {comments}，{people}参与",
        "hot_totals": "共 {comments}（未读取评论详情）",
        "reactions": "{n} 个表情回应",
        "maintainers": "维护者：{names}",
        "participants": "参与者",
        "linked": "关联",
        "trends": "🔥 热门话题与趋势分析",
        "trend_row": "{name}：{count} 项（7 日均值 {mean}）{arrow}",
        "trend_new": "{name}：{count} 项",
        "clusters": "热点聚类",
        "cluster_row": "{name}：{count} 项",
        "baseline": "基线：前 7 天中已归档 {days} 天。",
        "key": "🛠️ 重点技术变更",
        "activity": "📈 开发活跃度观察",
        "authors": "参与作者：{n} 人",
        "first_timers": "首次贡献者：{names}",
        "vendor_authors": "厂商相关作者（{vendor}）：{names}",
        "merged_count": "合并 PR：{n} 个",
        "bot_items": "机器人创建的条目：{n} 个",
        "notable": "💡 值得关注的问题",
        "signals": "信号",
        "comments_n": "{n} 条评论",
        "comments_1": "1 条评论",
        "appendix": "📋 附录：详细数据列表",
        "no_labels": "无标签",
        "none": "_无_",
        "nothing": "_本周期无_",
        "by": "by",
        "created": "创建于",
        "closed": "关闭于",
        "merged": "合并于",
        "open": "进行中",
        "incomplete": "⚠️ 数据不完整",
        "unknown_author": "未知",
        "footer": "以上所有数字均由 vllm-report-bot 根据 GitHub 数据计算。",
        "prose_footer": "标有 ✍️ 的文字由 {model} 根据这些数字撰写；"
        "{dropped} 句未通过引用检查，已删除。",
    },
}

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

SIGNAL_WORDS = {
    "zh": {
        "security": "安全",
        "crash": "崩溃",
        "hang": "卡死",
        "regression": "回归",
        "wrong output": "输出错误",
        "OOM": "显存不足",
    },
}
STATE_WORDS = {
    "en": {"merged": "merged", "open": "open", "closed": "closed"},
    "zh": {"merged": "已合并", "open": "进行中", "closed": "已关闭"},
}
ARROWS = {"up": " ▲", "down": " ▼", "flat": "", "new": ""}
SUMMARY_ARROWS = {"up": "▲", "down": "▼", "flat": "", "new": ""}


def hot_figures(comments: int, people: int, measured: bool, lang: str) -> str:
    """ "5 comments from 3 people in the window", with the plurals right."""
    if lang == "zh":
        said, who = f"{comments} 条评论", f"{people} 人"
    else:
        said = f"{comments} comment" + ("" if comments == 1 else "s")
        who = f"{people} " + ("person" if people == 1 else "people")
    key = "hot_figures" if measured else "hot_totals"
    return TEXT[lang][key].format(comments=said, people=who)


# -- the summary paragraph ---------------------------------------------------------------


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def summary(report: Report, lang: str) -> str:
    """The summary paragraph of a full report, from its figures ('' for counts only)."""
    if report.sections is None:
        return ""
    write = _chinese if lang == "zh" else _english
    return write(report, report.sections)


def _figures(report: Report) -> dict[str, int]:
    stats = report.stats
    stale = sum(split.stale for split in report.closures.values())
    return {
        "issues": stats[ListName.NEW_ISSUES],
        "prs": stats[ListName.NEW_PRS],
        "new": stats[ListName.NEW_ISSUES] + stats[ListName.NEW_PRS],
        "merged": stats[ListName.MERGED_PRS],
        "closed": stats[ListName.CLOSED_ISSUES] + stats[ListName.CLOSED_UNMERGED_PRS],
        "stale": stale,
    }


def _top_topics(sections: Sections, lang: str, limit: int = 3) -> list[str]:
    parts = []
    for row in sections.trends[:limit]:
        topic = sections.catalog.topic(row.topic)
        if topic is None or row.count == 0:
            continue
        parts.append(f"{topic.name(lang)} {row.count}{SUMMARY_ARROWS[row.direction]}")
    return parts


def _vendor_counts(sections: Sections, lang: str) -> list[tuple[str, int]]:
    """Vendors with activity, in the rules' order (AMD first), with their item counts."""
    return [
        (vendor.name(lang), len(section.issues) + len(section.prs))
        for vendor in sections.catalog.vendors
        if (section := sections.topics.get(vendor.key)) is not None
    ]


def _english(report: Report, sections: Sections) -> str:
    f = _figures(report)
    window = f"{format_local(report.window.start)} – {format_local(report.window.end)}"
    text = (
        f"{report.repo} had {f['new']} new issues and PRs ({f['issues']} issues, {f['prs']} PRs) "
        f"in {window}; {f['merged']} PRs were merged and {f['closed']} issues and PRs closed"
    )
    text += f" ({f['stale']} by the stale sweep)." if f["stale"] else "."
    topics = _top_topics(sections, "en")
    if topics:
        text += " Busiest topics: " + ", ".join(topics) + "."
    vendors = [f"{name} {count}" for name, count in _vendor_counts(sections, "en")]
    if vendors:
        text += " Vendor activity: " + ", ".join(vendors) + "."
    if sections.hot_discussions:
        hot = sections.hot_discussions[0]
        text += (
            f" The liveliest thread was #{hot.number} ({plural(hot.comments_in_window, 'comment')}"
            f", {plural(len(hot.participants), 'person', 'people')})."
        )
    if sections.activity.distinct_authors:
        text += f" {sections.activity.distinct_authors} people opened or landed work"
        first = len(sections.activity.first_time_contributors)
        text += f", {first} of them for the first time." if first else "."
    if not report.complete:
        text += " The data is incomplete (see the notes)."
    return text


def _chinese(report: Report, sections: Sections) -> str:
    f = _figures(report)
    window = f"{format_local(report.window.start)} 至 {format_local(report.window.end)}"
    text = (
        f"本周期（{window}）{report.repo} 共新增 {f['new']} 个 Issue 和 PR"
        f"（Issue {f['issues']} 个，PR {f['prs']} 个），合并 PR {f['merged']} 个，"
        f"关闭 Issue 和 PR 共 {f['closed']} 个"
    )
    text += f"（其中 {f['stale']} 个因过期自动关闭）。" if f["stale"] else "。"
    topics = _top_topics(sections, "zh")
    if topics:
        text += "最活跃的话题：" + "、".join(topics) + "。"
    vendors = [f"{name} {count} 项" for name, count in _vendor_counts(sections, "zh")]
    if vendors:
        text += "厂商相关：" + "、".join(vendors) + "。"
    if sections.hot_discussions:
        hot = sections.hot_discussions[0]
        text += (
            f"讨论最热烈的是 #{hot.number}（{hot.comments_in_window} 条评论，"
            f"{len(hot.participants)} 人参与）。"
        )
    if sections.activity.distinct_authors:
        text += f"共有 {sections.activity.distinct_authors} 位贡献者参与"
        first = len(sections.activity.first_time_contributors)
        text += f"，其中 {first} 位首次贡献。" if first else "。"
    if not report.complete:
        text += "数据不完整（见说明）。"
    return text
