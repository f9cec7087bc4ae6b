"""The breakage radar as the daily report's "Plugins" section, drawn by every renderer.

What an upstream author and a plugin team need from a morning post: which upstream changes
the plugins had to fix for (the most plugins first), each with the plugins' fix PRs, and
which pins lag upstream main by more than the threshold. Pins that keep up, mentions and
upgrades are the radar's own (`/vllm-radar`, `vllm-report radar`): a daily line that says
"nothing broke" would teach readers to skip the section. A window with neither has no
section at all.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from bot.model.radar import Culprit, Pin, PluginLink, Radar
from bot.model.report import Report
from formatters import outline_parts as ol
from formatters import wording as w
from formatters.radar import ref_url, short

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
    if not radar.culprits and not late:
        return None
    sep = w.LIST_SEP[lang]
    if radar.culprits:
        plugins = dict.fromkeys(short(p) for c in radar.culprits for p in c.plugins)
        keys = [c.ref.key for c in radar.culprits]
        refs = sep.join(keys[:HEADLINE_REFS])
        refs += w.text(lang, "plugins_line_more") if len(keys) > HEADLINE_REFS else ""
        said = w.text(lang, "plugins_line", plugins=sep.join(plugins), refs=refs)
    else:
        said = w.text(lang, "plugins_line_none")
    if late:
        names = sep.join(short(pin.plugin_repo) for pin in late)
        days = f"{radar.late_after_days:g}"
        said += w.SEP[lang] + w.text(lang, "plugins_line_late", plugins=names, days=days)
    return said


def has_plugins_section(report: Report) -> bool:
    """Whether the report carries a Plugins section (what a `plugins` digest sends)."""
    return report.radar is not None and plugins_section(report.radar, "en") is not None


def plugins_section(radar: Radar, lang: str) -> ol.Section | None:
    """The section, or None when no plugin fixed for upstream and no pin lags."""
    late, lag_days = lagging(radar), radar.late_after_days
    if not radar.culprits and not late:
        return None
    blocks: list[ol.Block] = []
    if radar.culprits:  # all of them: a day has a handful, a week a dozen or two
        until = radar.window.end
        entries = tuple(_culprits(g, lang, until) for g in _by_fixes(radar.culprits))
        blocks.append(ol.Block(w.text(lang, "plugins_broke"), entries, "numbered"))
    if late:
        lines = tuple(ol.Entry((ol.Our(_lag(pin, lang)),)) for pin in late)
        blocks.append(ol.Block(w.text(lang, "plugins_lag", days=f"{lag_days:g}"), lines))
    fixes = sum(1 for link in radar.links if link.relation == "breakage-fix")
    upgrades = sum(1 for link in radar.links if link.relation == "upgrade")
    said = w.text(lang, "plugins_counts", links=len(radar.links), fixes=fixes, upgrades=upgrades)
    more = w.text(lang, "plugins_more", label=radar.window.label)
    space = "" if lang == "zh" else " "
    blocks.append(ol.Block(None, (ol.Entry((ol.Our(f"{said}{space}{more}"),)),), "text"))
    if not radar.complete:  # a plugin that could not be read: the section is not the whole
        notes = tuple(ol.Entry((ol.Theirs(note, 300),)) for note in radar.notes)
        blocks.append(ol.Block(w.text(lang, "notes"), notes))
    return ol.Section("plugins", w.text(lang, "plugins"), tuple(blocks))


def _by_fixes(culprits: tuple[Culprit, ...]) -> list[list[Culprit]]:
    """Culprits fixed by the same plugin PRs, together: one gaudi PR "after #25332 & #25321
    & #25366" is one entry, not the same fix told three times."""
    groups: dict[tuple[tuple[str, int], ...], list[Culprit]] = {}
    for culprit in culprits:
        fixes = tuple(sorted((f.plugin_repo, f.number) for f in culprit.fixes))
        groups.setdefault(fixes, []).append(culprit)
    return list(groups.values())


def _culprits(group: list[Culprit], lang: str, until: datetime) -> ol.Entry:
    head: list[ol.Part] = []
    for index, culprit in enumerate(group):
        ref = culprit.ref
        if index:
            head.append(ol.Our(w.LIST_SEP[lang]))
        if ref.number is not None:
            head.append(ol.Ref(ref.number, ref_url(ref)))
        else:
            head.append(ol.Our(f"vllm@{(ref.sha or '')[:9]}"))
        if culprit.title:
            head += [ol.Our(" "), ol.Theirs(culprit.title)]
    first = group[0]
    names = w.LIST_SEP[lang].join(short(repo) for repo in first.plugins)
    head.append(ol.Our(w.text(lang, "plugins_broke_one", plugins=names)))
    lines = tuple(_fixes(repo, first.fixes, lang, until) for repo in first.plugins)
    # Told again (the same upstream PR among the key changes): the fixes are what is new.
    return ol.Entry(tuple(head), lines, first.ref.number, again=lines)


def _fixes(repo: str, fixes: tuple[PluginLink, ...], lang: str, until: datetime) -> ol.Line:
    line: list[ol.Part] = [ol.Our(w.text(lang, "plugins_fixed", plugin=short(repo)))]
    for index, link in enumerate(f for f in fixes if f.plugin_repo == repo):
        if index:
            line.append(ol.Our(w.LIST_SEP[lang]))
        line += [ol.Ref(link.number, link.url, short(repo)), ol.Our(" "), ol.Theirs(link.title)]
        # A fix merged after the window (the window is read later) was in review then.
        later = link.state == "merged" and link.at >= until
        if link.state != "merged" or later:  # an open fix is coming; a closed one, dropped
            issue = link.kind == "issue"
            if link.state == "open" or later:
                state = "open_issue" if issue else "review"
            else:
                state = "closed_issue" if issue else "closed_pr"
            line.append(ol.Our(f" ({w.STATES[lang][state]})"))
    return tuple(line)


def _lag(pin: Pin, lang: str) -> str:
    return w.text(
        lang,
        "plugins_lag_line",
        plugin=short(pin.plugin_repo),
        commits=pin.behind_commits,
        days=f"{pin.behind_days:g}",
    )


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
