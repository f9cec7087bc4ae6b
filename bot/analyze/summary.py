"""The summary paragraph, written from the computed figures by fixed templates (en, zh)."""

from __future__ import annotations

from bot.report import ListName, Report, Sections
from bot.topic_rules import TopicRules
from bot.windows import format_local

ARROWS = {"up": "▲", "down": "▼", "flat": "", "new": ""}


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def summaries(report: Report, sections: Sections, rules: TopicRules) -> dict[str, str]:
    return {"en": _english(report, sections, rules), "zh": _chinese(report, sections, rules)}


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


def _top_topics(sections: Sections, rules: TopicRules, lang: str, limit: int = 3) -> list[str]:
    parts = []
    for row in sections.trends[:limit]:
        topic = rules.topic(row.topic)
        if topic is None or row.count == 0:
            continue
        parts.append(f"{topic.display_name(lang)} {row.count}{ARROWS[row.direction]}")
    return parts


def _vendor_counts(sections: Sections, rules: TopicRules, lang: str) -> list[tuple[str, int]]:
    """Vendors with activity, in the rules' order (AMD first), with their item counts."""
    return [
        (vendor.display_name(lang), len(section.issues) + len(section.prs))
        for vendor in rules.vendors
        if (section := sections.topics.get(vendor.key)) is not None
    ]


def _english(report: Report, sections: Sections, rules: TopicRules) -> str:
    f = _figures(report)
    window = f"{format_local(report.window.start)} – {format_local(report.window.end)}"
    text = (
        f"{report.repo} had {f['new']} new issues and PRs ({f['issues']} issues, {f['prs']} PRs) "
        f"in {window}; {f['merged']} PRs were merged and {f['closed']} issues and PRs closed"
    )
    text += f" ({f['stale']} by the stale sweep)." if f["stale"] else "."
    topics = _top_topics(sections, rules, "en")
    if topics:
        text += " Busiest topics: " + ", ".join(topics) + "."
    vendors = [f"{name} {count}" for name, count in _vendor_counts(sections, rules, "en")]
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


def _chinese(report: Report, sections: Sections, rules: TopicRules) -> str:
    f = _figures(report)
    window = f"{format_local(report.window.start)} 至 {format_local(report.window.end)}"
    text = (
        f"本周期（{window}）{report.repo} 共新增 {f['new']} 个 Issue 和 PR"
        f"（Issue {f['issues']} 个，PR {f['prs']} 个），合并 PR {f['merged']} 个，"
        f"关闭 Issue 和 PR 共 {f['closed']} 个"
    )
    text += f"（其中 {f['stale']} 个因过期自动关闭）。" if f["stale"] else "。"
    topics = _top_topics(sections, rules, "zh")
    if topics:
        text += "最活跃的话题：" + "、".join(topics) + "。"
    vendors = [f"{name} {count} 项" for name, count in _vendor_counts(sections, rules, "zh")]
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
