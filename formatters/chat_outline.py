"""What a chat post says, decided once for Slack and Discord; each renders it natively.

A line is a sequence of parts: `Our` text (our words and figures), `Theirs` (a stranger's
text, cleaned and escaped by the renderer) and `Ref` (a link to an item, built by us from
the repository and number). Nothing here knows any platform's syntax.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.model.report import ActivityItem, ListName, Report, Sections, TopicSection
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

TITLE_LIMIT = 100
LOGIN_LIMIT = 39  # GitHub's own maximum
LABEL_LIMIT = 30
# Labels that say nothing to a reader of the report.
QUIET_LABELS = frozenset(
    {
        "ready",
        "v1",
        "needs-rebase",
        "unstale",
        "stale",
        "documentation",
        "good first issue",
        "meta-exported",
        "fb-exported",
        "ready-run-all-tests",
        "closed-as-slop",
    }
)


@dataclass(frozen=True)
class Our:
    text: str


@dataclass(frozen=True)
class Theirs:
    text: str
    limit: int = TITLE_LIMIT


@dataclass(frozen=True)
class Ref:
    number: int
    url: str


Part = Our | Theirs | Ref
Line = tuple[Part, ...]
Payload = dict[str, Any]


@dataclass(frozen=True)
class Group:
    heading: str | None
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class ChatSection:
    key: str  # names the message part: "amd", "hot", "appendix-merged_prs", ...
    title: str
    groups: tuple[Group, ...]


@dataclass(frozen=True)
class Headline:
    title: str
    window: str
    counts: tuple[tuple[str, str], ...]
    notes: tuple[str, ...]
    vendors: tuple[Line, ...]
    hot: tuple[Line, ...]
    link: str | None
    labels: dict[str, str]  # words of the headline itself, in the report's language


def headline(report: Report, lang: str, link: str | None) -> Headline:
    text = TEXT[lang]
    word = "vLLM" if report.repo == "vllm-project/vllm" else report.repo
    title = {
        "en": f"{word} daily report · {report.window.label}",
        "zh": f"{word} 开发动态日报 · {report.window.label}",
    }[lang]
    counts = []
    for name in ListName:
        value = str(report.stats[name])
        split = report.closures.get(name)
        if split is not None and split.stale:
            value += " (" + text["split"].format(resolved=split.resolved, stale=split.stale) + ")"
        counts.append((text[name.value], value))
    vendors: list[Line] = []
    hot: list[Line] = []
    sections = report.sections
    if sections is not None:
        for vendor in sections.catalog.vendors:
            section = sections.topics.get(vendor.key)
            if section is not None:
                vendors.append(
                    (Our(f"{vendor.name(lang)} — " + _topic_figures(report, section, lang)),)
                )
        for entry in sections.hot_discussions[:3]:
            item = report.items[entry.number]
            hot.append(
                (
                    _ref(report, item),
                    Our(" "),
                    Theirs(item.title, 80),
                    Our(
                        " — "
                        + _hot_figures(
                            entry.comments_in_window, len(entry.participants), entry.measured, lang
                        )
                    ),
                )
            )
    window = f"{format_local(report.window.start)} → {format_local(report.window.end)}"
    notes = (() if report.complete else (text["incomplete"],)) + tuple(report.notes)
    labels = {
        "vendors": {"en": "Vendors", "zh": "厂商动态"}[lang],
        "hot": text["hot"],
        "thread": {
            "en": "🧵 Every section follows in the thread",
            "zh": "🧵 各部分详情见本消息的讨论串",
        }[lang],
        "full": {"en": "Full report", "zh": "完整报告"}[lang],
    }
    return Headline(title, window, tuple(counts), notes, tuple(vendors), tuple(hot), link, labels)


def sections(report: Report, lang: str, only: Sequence[str] = ()) -> list[ChatSection]:
    """The thread's sections in the reference's order (or only those named), appendix last."""
    text = TEXT[lang]
    out: list[ChatSection] = []
    wanted = set(only)

    def want(key: str) -> bool:
        return not wanted or key in wanted

    info = report.sections
    if info is not None:
        if want("summary"):
            written = report.prose.summary.get(lang) if report.prose is not None else None
            line: Line = (
                (Our("✍️ "), Theirs(written, 3000)) if written else (Our(summary(report, lang)),)
            )
            out.append(ChatSection("summary", text["summary"], (Group(None, (line,)),)))
        for topic in info.catalog.topics:
            section = info.topics.get(topic.key)
            named = topic.key in wanted
            daily = topic.kind == "vendor" and want("vendors")
            if section is None or not (named or daily):
                continue
            title = text["vendor"].format(name=topic.name(lang))
            out.append(_topic(report, section, info, lang, title))
        if want("hot"):
            out.append(_hot(report, info, lang))
        if want("trends"):
            out.append(_trends(info, lang))
        if want("key"):
            out.append(_key(report, info, lang))
        if want("activity"):
            out.append(_activity(info, lang))
        if want("notable"):
            out.append(_notable(report, info, lang))
    if want("appendix"):
        groups = []
        for name in ListName:
            lines = tuple(
                _appendix_line(report, report.items[n], name, lang) for n in report.lists[name]
            )
            heading = f"{APPENDIX_HEADINGS[lang][name]} ({len(lines)})"
            groups.append(Group(heading, lines or ((Our(text["none"]),),)))
        out.append(ChatSection("appendix", text["appendix"], tuple(groups)))
    return [s for s in out if s.groups]


def assemble(
    report: Report,
    lang: str,
    only: Sequence[str],
    link: str | None,
    with_headline: bool,
    render_headline: Callable[[Report, str, str | None], Payload],
    render_section: Callable[[Report, ChatSection], list[tuple[str, Payload]]],
) -> list[tuple[str, Payload]]:
    """(part name, payload) pairs in posting order, whatever the platform renders."""
    messages: list[tuple[str, Payload]] = []
    if with_headline:
        messages.append(("headline", render_headline(report, lang, link)))
    for section in sections(report, lang, only):
        messages += render_section(report, section)
    return messages


# -- sections ----------------------------------------------------------------------------


def _topic(
    report: Report, section: TopicSection, info: Sections, lang: str, title: str
) -> ChatSection:
    text = TEXT[lang]
    groups = [Group(None, ((Our(_topic_figures(report, section, lang)),),))]
    if section.issues:
        groups.append(
            Group(text["issues"], tuple(_item_line(report, n, lang) for n in section.issues))
        )
    prs = set(section.prs)
    for group in info.catalog.groups:
        numbers = [n for n in section.groups.get(group.key, ()) if n in prs]
        if numbers:
            groups.append(
                Group(
                    f"{text['prs']} · {group.name(lang)}",
                    tuple(_item_line(report, n, lang) for n in numbers),
                )
            )
    return ChatSection(section.key, title, tuple(groups))


def _hot(report: Report, info: Sections, lang: str) -> ChatSection:
    text = TEXT[lang]
    lines: list[Line] = []
    for index, entry in enumerate(info.hot_discussions, 1):
        item = report.items[entry.number]
        figures = _hot_figures(
            entry.comments_in_window, len(entry.participants), entry.measured, lang
        )
        extra = [figures]
        if entry.reactions:
            extra.append(text["reactions"].format(n=entry.reactions))
        line: list[Part] = [
            Our(f"{index}. "),
            _ref(report, item),
            Our(" "),
            Theirs(item.title),
            Our(" — " + "; ".join(extra)),
        ]
        if entry.maintainers:
            line += [
                Our(" · " + text["maintainers"].format(names="")),
                Theirs(", ".join(entry.maintainers), 120),
            ]
        if entry.linked:
            line.append(
                Our(f" · {text['linked']}: " + ", ".join(f"#{n}" for n in entry.linked[:6]))
            )
        stance = report.prose.discussion_notes.get(entry.number) if report.prose else None
        if stance:
            line += [Our(" · ✍️ "), Theirs(stance, 400)]
        lines.append(tuple(line))
    return ChatSection(
        "hot", text["hot"], (Group(None, tuple(lines) or ((Our(text["nothing"]),),)),)
    )


def _trends(info: Sections, lang: str) -> ChatSection:
    text = TEXT[lang]
    rows: list[Line] = []
    for row in info.trends:
        name = info.catalog.topic_name(row.topic, lang)
        template = text["trend_new"] if row.direction == "new" else text["trend_row"]
        rows.append(
            (
                Our(
                    template.format(
                        name=name, count=row.count, mean=row.mean_7d, arrow=ARROWS[row.direction]
                    )
                ),
            )
        )
    groups = [Group(None, tuple(rows) or ((Our(text["nothing"]),),))]
    if info.clusters:
        cluster_lines: list[Line] = []
        for cluster in info.clusters:
            refs = ", ".join(f"#{n}" for n in cluster.numbers[:6])
            count = text["cluster_row"].format(name="", count=len(cluster.numbers))
            cluster_lines.append(
                (Theirs(cluster.name, 40), Our(f" {count.lstrip(' :：')} · {refs}"))
            )
        groups.append(Group(text["clusters"], tuple(cluster_lines)))
    groups.append(Group(None, ((Our(text["baseline"].format(days=info.baseline_days)),),)))
    return ChatSection("trends", text["trends"], tuple(groups))


def _key(report: Report, info: Sections, lang: str) -> ChatSection:
    text = TEXT[lang]
    lines: list[Line] = []
    for index, change in enumerate(info.key_changes, 1):
        item = report.items[change.number]
        line: list[Part] = [
            Our(f"{index}. "),
            _ref(report, item),
            Our(" "),
            Theirs(item.title),
            Our(f" — {STATE_WORDS[lang][change.state]}"),
        ]
        if change.description:
            line += [Our(" · "), Theirs(change.description, 300)]
        note = report.prose.item_notes.get(change.number) if report.prose else None
        if note:
            line += [Our(" · ✍️ "), Theirs(note, 400)]
        lines.append(tuple(line))
    return ChatSection(
        "key", text["key"], (Group(None, tuple(lines) or ((Our(text["nothing"]),),)),)
    )


def _activity(info: Sections, lang: str) -> ChatSection:
    text = TEXT[lang]
    act = info.activity
    lines: list[Line] = [
        (Our(text["authors"].format(n=act.distinct_authors)),),
        (Our(text["merged_count"].format(n=act.merged)),),
    ]
    if act.first_time_contributors:
        lines.append(
            (
                Our(text["first_timers"].format(names="")),
                Theirs(", ".join(act.first_time_contributors), 500),
            )
        )
    for key, logins in act.vendor_authors.items():
        vendor = info.catalog.topic_name(key, lang)
        lines.append(
            (
                Our(text["vendor_authors"].format(vendor=vendor, names="")),
                Theirs(", ".join(logins), 500),
            )
        )
    if act.bot_items:
        lines.append((Our(text["bot_items"].format(n=act.bot_items)),))
    return ChatSection("activity", text["activity"], (Group(None, tuple(lines)),))


def _notable(report: Report, info: Sections, lang: str) -> ChatSection:
    text = TEXT[lang]
    words = SIGNAL_WORDS.get(lang, {})
    lines: list[Line] = []
    for index, issue in enumerate(info.notable_issues, 1):
        item = report.items[issue.number]
        facts = ", ".join(words.get(s, s) for s in issue.signals)
        line: list[Part] = [
            Our(f"{index}. "),
            _ref(report, item),
            Our(" "),
            Theirs(item.title),
            Our(f" — {facts}"),
        ]
        named = " / ".join((*issue.hardware, *issue.models))
        if named:
            line += [Our(" · "), Theirs(named, 120)]
        lines.append(tuple(line))
    return ChatSection(
        "notable", text["notable"], (Group(None, tuple(lines) or ((Our(text["nothing"]),),)),)
    )


# -- pieces ------------------------------------------------------------------------------


def _ref(report: Report, item: ActivityItem) -> Ref:
    return Ref(item.number, item_url(report.repo, item.kind, item.number))


def _state(item: ActivityItem, lang: str) -> str:
    key = "merged" if item.merged_at else "closed" if item.closed_at else "open"
    return STATE_WORDS[lang][key]


def _labels(item: ActivityItem) -> list[str]:
    return [label for label in item.labels if label.lower() not in QUIET_LABELS][:3]


def _item_line(report: Report, number: int, lang: str) -> Line:
    item = report.items[number]
    return _listing(report, item, _state(item, lang))


def _appendix_line(report: Report, item: ActivityItem, name: ListName, lang: str) -> Line:
    when = item.event_time(name)
    stamp = when.astimezone(report.window.start.tzinfo).strftime("%m-%d %H:%M") if when else "?"
    return _listing(report, item, stamp)


def _listing(report: Report, item: ActivityItem, fact: str) -> Line:
    """`#n title — author · fact · labels`: one item in a list."""
    parts: list[Part] = [
        _ref(report, item),
        Our(" "),
        Theirs(item.title),
        Our(" — "),
        Theirs(item.author or "?", LOGIN_LIMIT),
        Our(f" · {fact}"),
    ]
    labels = _labels(item)
    if labels:
        parts += [Our(" · "), Theirs(", ".join(labels), LABEL_LIMIT * 3)]
    return tuple(parts)


def _topic_figures(report: Report, section: TopicSection, lang: str) -> str:
    merged = sum(1 for n in section.prs if report.items[n].merged_at is not None)
    if lang == "zh":
        return f"{len(section.issues)} 个 Issue · {len(section.prs)} 个 PR（已合并 {merged}）"
    return f"{len(section.issues)} issues · {len(section.prs)} PRs ({merged} merged)"


def _hot_figures(comments: int, people: int, measured: bool, lang: str) -> str:
    return hot_figures(comments, people, measured, lang)
