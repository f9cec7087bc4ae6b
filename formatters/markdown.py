"""Markdown: every section of the report in the reference's order, in English or Chinese.

`render_markdown(report, lang, only=...)` renders the whole report or the sections named
in `only` (`summary`, `vendors`, a topic key such as `amd`, `hot`, `trends`, `key`,
`activity`, `notable`, `appendix`). Strangers' text (titles, logins, labels) is defused;
links are built from the repository and number, never taken from item data.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.model.report import SECTIONS, ActivityItem, ListName, Report, Sections, TopicSection
from bot.model.windows import format_local
from formatters._text import item_url
from formatters.wording import (
    APPENDIX_HEADINGS,
    ARROWS,
    SIGNAL_WORDS,
    STATE_WORDS,
    TEXT,
    hot_figures,
    summary,
)

EVENT_WORD = {
    ListName.NEW_ISSUES: "created",
    ListName.NEW_PRS: "created",
    ListName.CLOSED_ISSUES: "closed",
    ListName.CLOSED_UNMERGED_PRS: "closed",
    ListName.MERGED_PRS: "merged",
}
TITLE_LIMIT = 110
MODEL_MARK = "✍️"  # marks text a language model wrote (after the citation check)


def render_markdown(report: Report, lang: str = "en", only: Sequence[str] = ()) -> str:
    parts = [render_header(report, lang)]
    wanted = list(only) or list(SECTIONS)
    for name in wanted:
        block = render_section(report, name, lang)
        if block:
            parts.append(block)
    if not only:
        footer = TEXT[lang]["footer"]
        if report.prose is not None:
            footer += " " + TEXT[lang]["prose_footer"].format(
                model=_escape(report.prose.model), dropped=report.prose.dropped
            )
        parts.append(f"---\n_{footer}_")
    return "\n\n".join(parts) + "\n"


def render_section(report: Report, name: str, lang: str) -> str:
    """One section as Markdown ('' when the report has nothing for it)."""
    if name == "appendix":
        return "\n".join(render_appendix(report, lang))
    sections = report.sections
    if sections is None:
        return ""
    renderers = {
        "summary": lambda: _summary(report, lang),
        "vendors": lambda: _vendors(report, sections, lang),
        "hot": lambda: _hot(report, sections, lang),
        "trends": lambda: _trends(sections, lang),
        "key": lambda: _key(report, sections, lang),
        "activity": lambda: _activity(sections, lang),
        "notable": lambda: _notable(report, sections, lang),
    }
    if name in renderers:
        return renderers[name]()
    if sections.catalog.topic(name) is not None:
        return _topic(report, name, sections.topics.get(name), lang)
    return ""


def render_header(report: Report, lang: str = "en") -> str:
    text = TEXT[lang]
    window = report.window
    template = text["title"] if report.repo == "vllm-project/vllm" else text["title_other"]
    title = template.format(repo=report.repo, label=window.label)
    if report.topic and report.sections is not None:
        name = report.sections.catalog.topic_name(report.topic, lang)
        title += text["topic_suffix"].format(topic=name)
    lines = [
        f"# {title}",
        "",
        f"> {text['window']}: {format_local(window.start)} ~ {format_local(window.end)}",
        f"> {text['stats']}: " + " | ".join(_count(report, name, lang) for name in ListName),
    ]
    if not report.complete or report.notes:
        lines.append(">")
        if not report.complete:
            lines.append(f"> **{text['incomplete']}**")
        lines.extend(f"> - {_escape(note)}" for note in report.notes)
    return "\n".join(lines)


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


# -- sections ----------------------------------------------------------------------------


def _summary(report: Report, lang: str) -> str:
    written = report.prose.summary.get(lang) if report.prose is not None else None
    text = f"{MODEL_MARK} {_escape(written)}" if written else summary(report, lang)
    return f"## {TEXT[lang]['summary']}\n\n{text}"


def _vendors(report: Report, sections: Sections, lang: str) -> str:
    blocks = [
        _topic(report, vendor.key, sections.topics[vendor.key], lang)
        for vendor in sections.catalog.vendors
        if vendor.key in sections.topics
    ]
    return "\n\n".join(blocks)


def _topic(report: Report, key: str, section: TopicSection | None, lang: str) -> str:
    text = TEXT[lang]
    assert report.sections is not None  # noqa: S101 - only called for full reports
    name = report.sections.catalog.topic_name(key, lang)
    lines = [f"## {text['vendor'].format(name=name)}", ""]
    if section is None:
        return "\n".join([*lines, text["nothing"]])
    lines.append(text["vendor_lead"].format(issues=len(section.issues), prs=len(section.prs)))
    if section.issues:
        lines += ["", f"**{text['issues']}**"]
        lines += [_item_line(report, n, lang) for n in section.issues]
    if section.prs:
        lines += ["", f"**{text['prs']}**"]
        prs = set(section.prs)
        index = 0
        for group in report.sections.catalog.groups:
            numbers = [n for n in section.groups.get(group.key, ()) if n in prs]
            if not numbers:
                continue
            index += 1
            lines.append(f"{index}. {group.name(lang)}")
            lines += ["   " + _item_line(report, n, lang) for n in numbers]
    return "\n".join(lines)


def _hot(report: Report, sections: Sections, lang: str) -> str:
    text = TEXT[lang]
    lines = [f"## {text['hot']}", ""]
    if not sections.hot_discussions:
        return "\n".join([*lines, text["nothing"]])
    for index, hot in enumerate(sections.hot_discussions, 1):
        item = report.items[hot.number]
        figures = hot_figures(hot.comments_in_window, len(hot.participants), hot.measured, lang)
        extras = [figures]
        if hot.reactions:
            extras.append(text["reactions"].format(n=hot.reactions))
        if hot.maintainers:
            extras.append(text["maintainers"].format(names=", ".join(hot.maintainers)))
        lines.append(f"{index}. {_ref(item)} {_title(item)}")
        lines.append(f"   - {text['why_hot']}: " + "; ".join(extras))
        if hot.participants:
            people = ", ".join(_escape(p) for p in hot.participants[:8])
            more = f" +{len(hot.participants) - 8}" if len(hot.participants) > 8 else ""
            lines.append(f"   - {text['participants']}: {people}{more}")
        if hot.linked:
            lines.append(f"   - {text['linked']}: " + ", ".join(f"#{n}" for n in hot.linked[:8]))
        stance = report.prose.discussion_notes.get(hot.number) if report.prose else None
        if stance:
            lines.append(f"   - {MODEL_MARK} {_escape(stance)}")
    return "\n".join(lines)


def _trends(sections: Sections, lang: str) -> str:
    text = TEXT[lang]
    lines = [f"## {text['trends']}", ""]
    for row in sections.trends:
        name = sections.catalog.topic_name(row.topic, lang)
        template = text["trend_new"] if row.direction == "new" else text["trend_row"]
        line = template.format(
            name=name, count=row.count, mean=row.mean_7d, arrow=ARROWS[row.direction]
        )
        refs = ", ".join(f"#{n}" for n in row.numbers[:6])
        more = "…" if len(row.numbers) > 6 else ""
        lines.append(f"- {line}" + (f" — {refs}{more}" if refs else ""))
    if not sections.trends:
        lines.append(text["nothing"])
    if sections.clusters:
        lines += ["", f"**{text['clusters']}**"]
        for cluster in sections.clusters:
            refs = ", ".join(f"#{n}" for n in cluster.numbers[:6])
            more = "…" if len(cluster.numbers) > 6 else ""
            label = text["cluster_row"].format(
                name=_escape(cluster.name), count=len(cluster.numbers)
            )
            lines.append(f"- {label} — {refs}{more}")
    lines += ["", f"_{text['baseline'].format(days=sections.baseline_days)}_"]
    return "\n".join(lines)


def _key(report: Report, sections: Sections, lang: str) -> str:
    text = TEXT[lang]
    lines = [f"## {text['key']}", ""]
    if not sections.key_changes:
        return "\n".join([*lines, text["nothing"]])
    for index, change in enumerate(sections.key_changes, 1):
        item = report.items[change.number]
        state = STATE_WORDS[lang][change.state]
        lines.append(f"{index}. {_ref(item)} {_title(item)} — {state}")
        if change.description:
            lines.append(f"   - {_escape(change.description)}")
        note = report.prose.item_notes.get(change.number) if report.prose else None
        if note:
            lines.append(f"   - {MODEL_MARK} {_escape(note)}")
    return "\n".join(lines)


def _activity(sections: Sections, lang: str) -> str:
    text = TEXT[lang]
    act = sections.activity
    lines = [f"## {text['activity']}", "", f"- {text['authors'].format(n=act.distinct_authors)}"]
    lines.append(f"- {text['merged_count'].format(n=act.merged)}")
    if act.first_time_contributors:
        names = ", ".join(_escape(n) for n in act.first_time_contributors)
        lines.append(f"- {text['first_timers'].format(names=names)}")
    for key, logins in act.vendor_authors.items():
        vendor = sections.catalog.topic_name(key, lang)
        names = ", ".join(_escape(n) for n in logins)
        lines.append(f"- {text['vendor_authors'].format(vendor=vendor, names=names)}")
    if act.bot_items:
        lines.append(f"- {text['bot_items'].format(n=act.bot_items)}")
    return "\n".join(lines)


def _notable(report: Report, sections: Sections, lang: str) -> str:
    text = TEXT[lang]
    lines = [f"## {text['notable']}", ""]
    if not sections.notable_issues:
        return "\n".join([*lines, text["nothing"]])
    words = SIGNAL_WORDS.get(lang, {})
    for index, issue in enumerate(sections.notable_issues, 1):
        item = report.items[issue.number]
        facts = [", ".join(words.get(s, s) for s in issue.signals)]
        facts += [_escape(" / ".join(issue.hardware))] if issue.hardware else []
        facts += [_escape(" / ".join(issue.models))] if issue.models else []
        if item.comments:
            key = "comments_1" if item.comments == 1 else "comments_n"
            facts.append(text[key].format(n=item.comments))
        lines.append(f"{index}. {_ref(item)} {_title(item)} — " + " · ".join(facts))
    return "\n".join(lines)


# -- pieces ------------------------------------------------------------------------------


def _count(report: Report, name: ListName, lang: str) -> str:
    text = TEXT[lang]
    result = f"{text[name.value]} {report.stats[name]}"
    split = report.closures.get(name)
    if split is not None and split.stale:
        result += " (" + text["split"].format(resolved=split.resolved, stale=split.stale) + ")"
    return result


def _ref(item: ActivityItem) -> str:
    return f"[#{item.number}]({item_url(item.repo, item.kind, item.number)})"


def _title(item: ActivityItem) -> str:
    title = " ".join(item.title.split())
    if len(title) > TITLE_LIMIT:
        title = title[: TITLE_LIMIT - 1].rstrip() + "…"
    return _escape(title)


def _item_line(report: Report, number: int, lang: str) -> str:
    text = TEXT[lang]
    item = report.items[number]
    author = _escape(item.author or text["unknown_author"])
    state = STATE_WORDS[lang][
        "merged" if item.merged_at else "closed" if item.closed_at else "open"
    ]
    return f"- {_ref(item)} {_title(item)} ({text['by']} {author}) · {state}"


def _appendix_line(item: ActivityItem, name: ListName, report: Report, lang: str) -> str:
    text = TEXT[lang]
    labels = ",".join(item.labels) if item.labels else text["no_labels"]
    when = item.event_time(name)
    stamp = format_local(when.astimezone(report.window.start.tzinfo)) if when else "?"
    author = item.author or text["unknown_author"]
    title = _escape(item.title)
    return (
        f"- {_ref(item)} {title} — {_escape(labels)} — "
        f"{text['by']} {_escape(author)} ({text[EVENT_WORD[name]]}: {stamp})"
    )


def _escape(value: str) -> str:
    """Keep strangers' text on one line and out of link and HTML syntax.

    Titles keep their `[Bug]`-style tags and `code` spans readable; only the sequences
    that would make a link (`](`) or an autolink or HTML (`<`) are defused.
    """
    value = " ".join(value.split())
    return value.replace("](", "]\\(").replace("<", "\\<")
