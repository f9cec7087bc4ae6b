"""The outline's fixed sections: the summary, hot discussions, trends, key changes,
activity, notable issues and the appendix that lists every item.
"""

from __future__ import annotations

from bot.model.outline_parts import LOGIN_LIMIT, Block, Entry, Line, Our, Section, Theirs
from bot.model.report import KeyChange, ListName, Report, Sections
from formatters import outline_entries as oe
from formatters import wording as w
from formatters.summary_text import summary_pieces

TREND_ROWS = 8  # the busiest topics; every topic's count is in the JSON and on the site


def summary_section(report: Report, info: Sections, lang: str) -> Section:
    """The day's themes and counts from the facts; a model's summary beside it, never
    instead (it passed its checks whole)."""
    line: Line = tuple(
        oe.ref(report, piece) if isinstance(piece, int) else Our(piece)
        for piece in summary_pieces(report, lang)
    )
    entries = [Entry(line)]
    written = report.prose.summary.get(lang) if report.prose is not None else None
    if written:
        entries.append(Entry((Our("✍️ "), Theirs(written, 3000))))
    return Section("summary", w.text(lang, "summary"), (Block(None, tuple(entries), "text"),))


def hot_section(report: Report, info: Sections, lang: str) -> Section:
    entries = []
    for hot in info.hot_discussions:
        figures = w.comments_figure(
            lang, hot.comments_in_window if hot.measured else None, hot.comments_total
        )
        if hot.measured:
            figures += w.SEP[lang] + w.people_figure(
                lang, len(hot.participants), hot.author_replied
            )
        if hot.reactions:
            figures += w.SEP[lang] + w.text(lang, "reactions", n=hot.reactions)
        figures_line: Line = (Our(figures),)
        title = oe.chinese_sentence(report, hot.number, whole=True) if lang == "zh" else None
        said = oe.description(report, hot.number, lang, thread=True, glossed=title is not None)
        lines: list[Line] = [*said, figures_line]
        again: tuple[Line, ...] = (figures_line,)
        if report.prose is not None and hot.number in report.prose.discussions:
            again = (*said, figures_line)  # what the thread argued is news wherever shown
        if hot.maintainers:
            lines.append(
                (
                    Our(w.text(lang, "maintainers")),
                    Theirs(w.LIST_SEP[lang].join(hot.maintainers), 120),
                )
            )
        known = [n for n in hot.linked if oe.known(report, n)][:6]
        if known:
            lines.append((Our(w.text(lang, "linked")), *oe.refs(report, known, lang)))
        entries.append(
            Entry(
                oe.head(report, hot.number, lang, title=title),
                tuple(lines),
                hot.number,
                again=again,
                again_head=oe.again_head(report, hot.number, lang),
            )
        )
    return Section("hot", w.text(lang, "hot"), (oe.block_or_nothing(entries, lang, "numbered"),))


def key_section(report: Report, info: Sections, lang: str) -> Section:
    entries = []
    for change in info.key_changes:
        story = oe.story_of(report, info, change.number).led_by(change.number)
        state = _change_state(report, change, lang)
        # Told above, the gist said why it matters: a later mention is its head alone.
        entries.append(
            oe.story_entry(report, story, lang, state=state, glossed=True, featured=True)
        )
    return Section("key", w.text(lang, "key"), (oe.block_or_nothing(entries, lang, "numbered"),))


def _change_state(report: Report, change: KeyChange, lang: str) -> str:
    """Where a key change stood as the window ended (a PR in review then may have merged
    since; the report tells its day), in the reader's words."""
    item = report.item(change.number)
    if change.state == "rfc":
        open_then = item.closed_at is None or item.closed_at >= report.window.end
        if open_then:
            return w.STATES[lang]["rfc_open"]
        return oe.state_at(item, lang, report.window.end)
    return w.STATES[lang][change.state]


def notable_section(report: Report, info: Sections, lang: str) -> Section:
    entries = []
    for issue in info.notable_issues:
        lines = oe.description(report, issue.number, lang, featured=True)
        entries.append(
            Entry(
                oe.head(report, issue.number, lang),
                tuple(lines),
                issue.number,
                again_head=oe.again_head(report, issue.number, lang),
            )
        )
    return Section(
        "notable", w.text(lang, "notable"), (oe.block_or_nothing(entries, lang, "numbered"),)
    )


def trends_section(report: Report, info: Sections, lang: str) -> Section:
    rows = []
    for row in info.trends[:TREND_ROWS]:
        name = info.catalog.topic_name(row.topic, lang)
        if row.direction in ("new", "thin"):  # nothing to compare with: the count alone
            said = w.text(lang, "trend_new", name=name, count=row.count)
        elif info.days > 1:
            mean = round(row.mean_7d / info.days, 1)
            said = w.text(
                lang,
                "trend_row_range",
                name=name,
                per_day=row.per_day,
                mean=mean,
                arrow=w.ARROWS[row.direction],
            )
        else:
            said = w.text(
                lang,
                "trend_row",
                name=name,
                count=row.count,
                mean=row.mean_7d,
                arrow=w.ARROWS[row.direction],
            )
        rows.append(Entry((Our(said),)))
    blocks = [oe.block_or_nothing(rows, lang, "list")]
    if info.trends and info.baseline_days:
        if any(row.direction == "thin" for row in info.trends) and not info.baseline_per_day:
            legend = w.text(lang, "trend_empty", days=info.baseline_days)
        elif any(row.direction == "thin" for row in info.trends):
            legend = w.text(
                lang,
                "trend_thin",
                days=info.baseline_days,
                per_day=info.baseline_per_day,
                today=round(len(report.items) / info.days),
            )
        else:
            legend = w.text(lang, "trend_legend", days=info.baseline_days)
        blocks.insert(0, Block(None, (Entry((Our(legend),)),), "text"))
    if info.clusters:
        clusters = [
            Entry(
                (
                    Theirs(c.name, 40),
                    Our(w.text(lang, "cluster_row", n=len(c.numbers))),
                    *oe.refs(report, c.numbers[:6], lang),
                    Our("…" if len(c.numbers) > 6 else ""),
                )
            )
            for c in info.clusters
        ]
        blocks.append(Block(w.text(lang, "clusters"), tuple(clusters), "list"))
    if report.prose is not None and report.prose.themes:
        themes = [Entry((Our("✍️ "), Theirs(theme, 600))) for theme in report.prose.themes]
        blocks.insert(0, Block(w.text(lang, "themes"), tuple(themes), "list"))
    return Section("trends", w.text(lang, "trends"), tuple(blocks))


def activity_section(info: Sections, lang: str) -> Section:
    act = info.activity
    lines = [
        Entry(
            (
                Our(
                    w.text(lang, "authors", n=act.distinct_authors)
                    + w.SEP[lang]
                    + w.text(lang, "merged_count", n=act.merged)
                ),
            )
        )
    ]
    if act.first_time_contributors:
        lines.append(
            Entry(
                (
                    Our(w.text(lang, "first_timers")),
                    Theirs(w.LIST_SEP[lang].join(act.first_time_contributors), 500),
                )
            )
        )
    for key, logins in act.vendor_authors.items():
        vendor = info.catalog.topic_name(key, lang)
        lines.append(
            Entry(
                (
                    Our(w.text(lang, "vendor_people", vendor=vendor)),
                    Theirs(w.LIST_SEP[lang].join(logins), 500),
                )
            )
        )
    if act.bot_items:
        lines.append(Entry((Our(w.text(lang, "bot_items", n=act.bot_items)),)))
    return Section("activity", w.text(lang, "activity"), (Block(None, tuple(lines), "list"),))


def appendix_section(report: Report, lang: str) -> Section:
    blocks = []
    tz = report.window.start.tzinfo
    for name in ListName:
        entries = []
        for number in report.lists[name]:
            item = report.items[number]
            when = item.event_time(name)
            stamp = when.astimezone(tz).strftime("%m-%d %H:%M") if when else "?"
            event = {
                ListName.MERGED_PRS: "merged",
                ListName.NEW_ISSUES: "created",
                ListName.NEW_PRS: "created",
            }.get(name, "closed")
            labels = w.LIST_SEP[lang].join(item.labels) or w.text(lang, "no_labels")
            head: Line = (
                oe.ref(report, number),
                Our(" "),
                Theirs(item.title, 200),
                Our(" — "),
                Theirs(labels, 200),
                Our(" — "),
                Theirs(item.author or w.text(lang, "unknown_author"), LOGIN_LIMIT),
                Our(w.parens(lang, f"{w.EVENT_WORDS[lang][event]} {stamp}")),
            )
            entries.append(Entry(head, (), number))
        heading = f"{w.APPENDIX_HEADINGS[lang][name]}{w.parens(lang, str(len(entries)))}"
        blocks.append(
            Block(heading, tuple(entries), "list")
            if entries
            else Block(heading, (Entry((Our(w.text(lang, "none")),)),), "text")
        )
    return Section("appendix", w.text(lang, "appendix"), tuple(blocks))
