"""The breakage radar as the daily report's "Plugins" section, drawn by every renderer.

What an upstream author and a plugin team need from a morning post: which upstream changes
the plugins had to fix for (the most plugins first), each with the plugins' fix PRs, and
which pins lag upstream main by more than the threshold. Pins that keep up, mentions and
upgrades are the radar's own (`/vllm-radar`, `vllm-report radar`): a daily line that says
"nothing broke" would teach readers to skip the section. A window with neither has no
section at all.

Each culprit's entry says whom to ask and where it stands: the upstream PR's author, its
merge date, and whether upstream has since reverted it (a line under its head, so the head
still reads "#N title — broke plugin"). When people corrected the radar (`/vllm-radar
wrong`), the counts say how many, the share of those named not corrected (no measured
precision), and how many no upstream revert confirms.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, tzinfo
from typing import Any

from bot.features.radar import phrases
from bot.features.radar.model import UPSTREAM, Culprit, OpenBreak, Pin, PluginLink, Radar
from bot.features.radar.render import day, fix_stood, open_text, ref_url, reverts_said_once, short
from bot.features.radar.render_forecast import forecast_blocks, headline_text
from bot.features.radar.render_json import radar_to_dict
from bot.model import outline_parts as ol
from bot.model.report import Report
from formatters import wording as w
from formatters._text import item_url

CHAT_CULPRITS = 5  # in the chat reply, like its other sections
HEADLINE_REFS = 3  # upstream numbers in the first message's line


def lagging(radar: Radar) -> tuple[Pin, ...]:
    """The pins further behind upstream main than the radar's threshold (an unknown lag is
    not news: the radar command says why it is unknown)."""
    days = radar.late_after_days
    return tuple(
        pin for pin in radar.pins if pin.behind_days is not None and pin.behind_days > days
    )


def headline_line(radar: Radar, lang: str) -> str | None:
    """The Plugins section in one line, for the post's first message (with the vendors'):
    a reader who stops there still learns that upstream broke a plugin."""
    late = lagging(radar)
    warned = headline_text(radar.forecast, lang)
    if not radar.culprits and not late and not radar.open:
        return phrases.said(lang, "plugins_line_only_warn", said=warned) if warned else None
    sep = w.LIST_SEP[lang]
    if radar.culprits:
        plugins = dict.fromkeys(short(p) for c in radar.culprits for p in c.plugins)
        keys = [c.ref.key for c in radar.culprits]
        refs = sep.join(keys[:HEADLINE_REFS])
        refs += phrases.said(lang, "plugins_line_more") if len(keys) > HEADLINE_REFS else ""
        said = phrases.said(lang, "plugins_line", plugins=sep.join(plugins), refs=refs)
    elif radar.open:
        said = ""
    else:
        said = phrases.said(lang, "plugins_line_none")
    if radar.open:  # a reader who stops here learns what is broken now
        names = sep.join(dict.fromkeys(short(b.plugin_repo) for b in radar.open))
        if said:
            said += w.SEP[lang] + phrases.said(lang, "plugins_line_open", plugins=names)
        else:
            said = phrases.said(lang, "plugins_line_only_open", plugins=names)
    if late:
        names = sep.join(short(pin.plugin_repo) for pin in late)
        days = f"{radar.late_after_days:g}"
        said += w.SEP[lang] + phrases.said(lang, "plugins_line_late", plugins=names, days=days)
    if warned:  # what will break next, after what broke
        said += w.SEP[lang] + warned
    return said


@dataclass(frozen=True)
class RadarPart:
    """The daily report's Plugins section (a `ReportPart`): after the notable issues, a line
    in the first message, a reply after Red on main's, also on a quiet day."""

    radar: Radar
    name: str = "plugins"
    json_key: str = "radar"
    rank: int = 10
    chat_rank: int | None = 20
    on_quiet_day: bool = True

    def section(self, lang: str) -> ol.Section | None:
        return plugins_section(self.radar, lang)

    def headline(self, lang: str) -> str | None:
        said = headline_line(self.radar, lang)
        return "🔌 " + said if said else None

    def chat_blocks(self, section: ol.Section, label: str, lang: str) -> tuple[ol.Block, ...]:
        return chat_blocks(section, label, lang)

    def to_json(self) -> dict[str, Any]:
        return radar_to_dict(self.radar)


def radar_of(report: Report) -> Radar | None:
    """The radar a report carries (its Plugins part), if any."""
    part = report.part("plugins")
    return part.radar if isinstance(part, RadarPart) else None


def has_plugins_section(report: Report) -> bool:
    """Whether the report carries a Plugins section (what a `plugins` digest sends)."""
    radar = radar_of(report)
    return radar is not None and plugins_section(radar, "en") is not None


def plugins_section(radar: Radar, lang: str) -> ol.Section | None:
    """The section, or None when no plugin fixed for upstream, none is still broken, no pin
    lags and no upstream PR will break one (nor could one be evaluated)."""
    late, lag_days = lagging(radar), radar.late_after_days
    upcoming = radar.forecast is not None and radar.forecast.news
    if not radar.culprits and not late and not radar.open and not upcoming:
        return None
    blocks: list[ol.Block] = []
    unknown = reverts_said_once(radar.culprits) is not None
    if radar.culprits:  # all of them: a day has a handful, a week a dozen or two
        until = radar.window.end
        entries = tuple(
            culprit_entry(g, lang, until, not unknown) for g in by_fixes(radar.culprits)
        )
        heading = phrases.said(lang, "plugins_broke")
        blocks.append(ol.Block(heading, entries, "numbered", columns=culprit_columns(lang)))
    if radar.open:
        entries = tuple(open_entry(found, lang) for found in radar.open)
        blocks.append(ol.Block(phrases.said(lang, "plugins_open"), entries))
    if radar.forecast is not None and upcoming:  # what will break next
        command = phrases.said(lang, "warn_more_where")
        blocks += forecast_blocks(radar.forecast, lang, command)
    if late:
        lines = tuple(ol.Entry((ol.Our(_lag(pin, lang)),)) for pin in late)
        blocks.append(ol.Block(phrases.said(lang, "plugins_lag", days=f"{lag_days:g}"), lines))
    blocks.append(_counts_block(radar, lang, unknown))
    if not radar.complete:  # a plugin that could not be read: the section is not the whole
        notes = tuple(ol.Entry((ol.Theirs(note, 300),)) for note in radar.notes)
        blocks.append(ol.Block(w.text(lang, "notes"), notes))
    return ol.Section("plugins", phrases.said(lang, "plugins"), tuple(blocks))


def _counts_block(radar: Radar, lang: str, unknown: bool) -> ol.Block:
    """The section's last line: the plugin PRs read, what readers corrected, where more is."""
    fixes = sum(1 for link in radar.links if link.relation == "breakage-fix")
    upgrades = sum(1 for link in radar.links if link.relation == "upgrade")
    said = phrases.said(
        lang, "plugins_counts", links=len(radar.links), fixes=fixes, upgrades=upgrades
    )
    more = phrases.said(lang, "plugins_more", label=radar.window.label)
    space = phrases.said(lang, "sentence_sep")
    if unknown:
        said += space + phrases.said(lang, "plugins_reverts_unknown")
    if radar.corrections and radar.precision is not None:  # readers said the radar was wrong
        said += space + phrases.said(
            lang,
            "plugins_corrections",
            n=len(radar.corrections),
            precision=f"{radar.precision:.0%}",
            unconfirmed=radar.attributions - radar.confirmed,
        )
    return ol.Block(None, (ol.Entry((ol.Our(f"{said}{space}{more}"),)),), "text")


def by_fixes(culprits: tuple[Culprit, ...]) -> list[list[Culprit]]:
    """Culprits fixed by the same plugin PRs, together: one gaudi PR "after #25332 & #25321
    & #25366" is one entry, not the same fix told three times."""
    groups: dict[tuple[tuple[str, int], ...], list[Culprit]] = {}
    for culprit in culprits:
        fixes = tuple(sorted((f.plugin_repo, f.number) for f in culprit.fixes))
        groups.setdefault(fixes, []).append(culprit)
    return list(groups.values())


def culprit_columns(lang: str) -> ol.Columns:
    """The culprits as a table: a row an entry (the upstream changes, the plugins they
    broke, the plugins' fixes), whom to ask and each fix under the table."""
    keys = ("col_change", "col_plugins", "col_fixes")
    names = tuple(phrases.said(lang, key) for key in keys)
    return ol.Columns(phrases.said(lang, "culprits_table"), names)


def culprit_entry(
    group: list[Culprit], lang: str, until: datetime, reverts: bool, upstream: str = ""
) -> ol.Entry:
    """A culprit entry (those with the same fixes together): the upstream PRs, whom to ask
    and where each stands, and each plugin's fixes. `upstream` names vLLM's PRs where a
    plain `#N` could be read as a plugin's (the standalone radar: `vllm#24982`)."""
    head: list[ol.Part] = []
    for index, culprit in enumerate(group):
        ref = culprit.ref
        if index:
            head.append(ol.Our(w.LIST_SEP[lang]))
        if ref.number is not None:
            head.append(ol.Ref(ref.number, ref_url(ref), upstream))
        else:
            head.append(ol.Our(f"vllm@{(ref.sha or '')[:9]}"))
        if culprit.title:
            head += [ol.Our(" "), ol.Theirs(culprit.title)]
    first = group[0]
    names = w.LIST_SEP[lang].join(short(repo) for repo in first.plugins)
    fixes = len({(f.plugin_repo, f.number) for f in first.fixes})
    cells = (tuple(head), (ol.Our(names),), ol.Number(fixes, str(fixes)))
    head.append(ol.Our(phrases.said(lang, "plugins_broke_one", plugins=names)))
    lines = tuple(_fixes(repo, first.fixes, lang, until) for repo in first.plugins)
    facts = _facts(group, lang, until.tzinfo, reverts, upstream)
    # Told again (the same upstream PR among the key changes): the fixes are what is new.
    return ol.Entry(tuple(head), (*facts, *lines), first.ref.number, again=lines, cells=cells)


def _facts(
    group: list[Culprit], lang: str, tz: tzinfo | None, reverts: bool, upstream: str
) -> tuple[ol.Line, ...]:
    """A line per culprit that says whom to ask and where it stands: `#25249 by @jeejeelee,
    merged 2025-09-20, not reverted as of 2025-09-23` (the number only when the entry has
    several; the revert left out when not known and `reverts` is False: the section says it
    once)."""
    words = phrases.RADAR_TEXT[lang]
    lines = []
    for culprit in group:
        if culprit.merged_at is None and culprit.author is None:
            continue
        line: list[ol.Part] = []
        if len(group) > 1 and culprit.ref.number is not None:
            line.append(ol.Our(f"{upstream}#{culprit.ref.number} "))
        said: list[list[ol.Part]] = []
        if culprit.author:
            said.append(
                [ol.Our(words["plugins_by"]), ol.Theirs(f"@{culprit.author}", ol.LOGIN_LIMIT)]
            )
        if culprit.merged_at is not None:
            said.append([ol.Our(words["merged"].format(day=day(culprit.merged_at, tz)))])
            if reverts or culprit.reverted is not None:
                said.append(_revert(culprit, words, tz, upstream))
        for index, parts in enumerate(said):
            if index:
                line.append(ol.Our(words["fact_sep"]))
            line += parts
        lines.append(tuple(line))
    return tuple(lines)


def _revert(
    culprit: Culprit, words: dict[str, str], tz: tzinfo | None, upstream: str
) -> list[ol.Part]:
    revert = culprit.reverted_by
    if revert is not None:
        url = item_url(UPSTREAM, "pr", revert.number)
        return [
            ol.Our(words["plugins_reverted"]),
            ol.Ref(revert.number, url, upstream),
            ol.Our(words["plugins_reverted_on"].format(day=day(revert.merged_at, tz))),
        ]
    if culprit.reverts_read_until is not None:  # the archive holds vLLM's PRs up to then
        return [ol.Our(words["not_reverted"].format(day=day(culprit.reverts_read_until, tz)))]
    return [ol.Our(words["revert_unknown"])]


def _fixes(repo: str, fixes: tuple[PluginLink, ...], lang: str, until: datetime) -> ol.Line:
    line: list[ol.Part] = [ol.Our(phrases.said(lang, "plugins_fixed", plugin=short(repo)))]
    for index, link in enumerate(f for f in fixes if f.plugin_repo == repo):
        if index:
            line.append(ol.Our(w.LIST_SEP[lang]))
        line += [ol.Ref(link.number, link.url, short(repo)), ol.Our(" "), ol.Theirs(link.title)]
        stood = fix_stood(link, until)
        if stood != "merged":  # an open fix is coming; a closed one, dropped
            issue = link.kind == "issue"
            if stood == "open":
                state = "open_issue" if issue else "review"
            else:
                state = "closed_issue" if issue else "closed_pr"
            line.append(ol.Our(f" ({w.STATES[lang][state]})"))
    return tuple(line)


def open_entry(found: OpenBreak, lang: str) -> ol.Entry:
    """`vllm-gaudi#709 [FIX_FOR_VLLM_LATEST] Maybe fix for 29066 — names vllm#29066 as the
    cause, open 0.7 days`."""
    ref = ol.Ref(found.number, found.url, short(found.plugin_repo))
    said = ol.Our(" — " + open_text(found, lang))
    return ol.Entry((ref, ol.Our(" "), ol.Theirs(found.title), said))


def _lag(pin: Pin, lang: str) -> str:
    line = phrases.said(
        lang,
        "plugins_lag_line",
        plugin=short(pin.plugin_repo),
        commits=pin.behind_commits,
        days=f"{pin.behind_days:g}",
    )
    if pin.growing:  # the pin stood still while main moved on: not a bump on its cadence
        line += phrases.said(lang, "plugins_growing", days=f"{pin.unchanged_days:g}")
    return line


def chat_blocks(section: ol.Section, label: str, lang: str) -> tuple[ol.Block, ...]:
    """The section as a chat reply: its first culprits (the rest named by the command that
    lists them), the lagging pins and the counts line as they are."""
    out = []
    for block in section.blocks:
        hidden = len(block.entries) - CHAT_CULPRITS
        if block.style == "numbered" and hidden > 0:
            command = f"/vllm-radar {label}"
            rest = (ol.Our(w.text(lang, "more_by_command", n=hidden, command=command)),)
            block = replace(block, entries=block.entries[:CHAT_CULPRITS], rest=rest)
        out.append(block)
    return tuple(out)
