"""The breakage radar as Markdown, and the radar's sentences every drawing shares (the chat
message is bot.features.radar.message's, JSON bot.features.radar.render_json's).

What leads is what a plugin team and an upstream author need first: the upstream changes
that broke plugins, the most plugins first, each with its title, author (whom to ask), merge
date and whether upstream has since reverted it, and the plugins' fix PRs; then how far
each pin lags; then upgrades and every link, for reference. The corrections people made
(`/vllm-radar wrong`) and the precision they measure are said under the counts. Titles and
logins are strangers' text: cleaned and escaped for each surface.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from datetime import datetime, tzinfo

from bot.features.radar.model import (
    LONG_BEFORE_DAYS,
    UPSTREAM,
    Correction,
    Culprit,
    OpenBreak,
    Pin,
    PluginLink,
    Radar,
    UpstreamRef,
)
from bot.features.radar.phrases import (
    RADAR_TEXT,
    has,
    note_text,
    pin_reason,
    said,
    sentence,
    unread_reason,
    window_label,
)
from formatters._text import clean, item_url

TITLE_CHARS = 90
_LOGIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})")


def short(repo: str) -> str:
    """`vllm-project/vllm-gaudi` → `vllm-gaudi` (every watched plugin is a vllm-project one;
    another owner keeps its name)."""
    return repo.removeprefix("vllm-project/")


def ref_text(ref: UpstreamRef) -> str:
    return f"vllm#{ref.number}" if ref.number is not None else f"vllm@{(ref.sha or '')[:9]}"


def ref_url(ref: UpstreamRef) -> str:
    if ref.number is not None:
        return item_url(UPSTREAM, "pr" if ref.kind != "issue" else "issue", ref.number)
    return f"https://github.com/{UPSTREAM}/commit/{ref.sha}"


def counts_line(radar: Radar, lang: str = "en") -> str:
    by = Counter(link.relation for link in radar.links)
    return said(
        lang,
        "counts",
        links=len(radar.links),
        fixes=by["breakage-fix"],
        upgrades=by["upgrade"],
        mentions=by["mention-only"],
        culprits=len(radar.culprits),
    )


def day(moment: datetime, tz: tzinfo | None) -> str:
    """A moment as the day it was where the radar's window is read (`2025-09-15`)."""
    return moment.astimezone(tz).date().isoformat()


def culprit_facts(
    culprit: Culprit, tz: tzinfo | None, reverts: bool = True, lang: str = "en"
) -> list[tuple[str, str]]:
    """Who wrote the culprit, when it merged, and whether it was since reverted, as (kind,
    plain words): `author` "by @mgoin", `merged` "merged 2025-09-15", `revert` "not reverted
    as of 2025-10-01". Each surface escapes them (and links the author and the revert). The
    login is a stranger's text; the rest is ours. `reverts`: False when `reverts_said_once`
    says it for all."""
    facts = (
        [("author", said(lang, "by", login=clean(culprit.author, 39)))] if culprit.author else []
    )
    if culprit.merged_at is not None:
        facts.append(("merged", said(lang, "merged", day=day(culprit.merged_at, tz))))
        if reverts or culprit.reverted is not None:
            facts.append(("revert", revert_text(culprit, tz, lang)))
    return facts


def facts_text(facts: list[tuple[str, str]], lang: str) -> str:
    return RADAR_TEXT[lang]["fact_sep"].join(text for _, text in facts)


def reverts_said_once(culprits: tuple[Culprit, ...], lang: str = "en") -> str | None:
    """One sentence when whether upstream reverted them is known for none of several
    culprits (the archive does not hold vLLM since they merged): a "not known" on every line
    would be noise."""
    dated = [c for c in culprits if c.merged_at is not None]
    if len(dated) > 1 and all(c.reverted is None for c in dated):
        return said(lang, "reverts_once")
    return None


def revert_text(culprit: Culprit, tz: tzinfo | None, lang: str = "en") -> str:
    revert = culprit.reverted_by
    if revert is not None:
        return said(lang, "reverted_by", number=revert.number, day=day(revert.merged_at, tz))
    if culprit.reverts_read_until is not None:  # the archive holds vLLM's PRs up to then
        return said(lang, "not_reverted", day=day(culprit.reverts_read_until, tz))
    return said(lang, "revert_unknown")


def precision_line(radar: Radar, lang: str = "en") -> str | None:
    """The share of culprits shown that readers did not correct (what "precision" can
    measure here), and how many upstream confirmed by a revert; None when the radar names
    no culprit and none was corrected."""
    precision = radar.precision
    if precision is None:
        return None
    return said(
        lang,
        "precision",
        precision=f"{precision:.0%}",
        shown=radar.attributions + len(radar.corrections),
        corrected=len(radar.corrections),
        confirmed=radar.confirmed,
        unconfirmed=radar.attributions - radar.confirmed,
    )


def correction_text(correction: Correction, tz: tzinfo | None, lang: str = "en") -> str:
    return said(
        lang,
        "correction",
        plugin=short(correction.plugin_repo),
        number=correction.plugin_number,
        upstream=correction.upstream_number,
        by=correction.by,
        day=day(correction.at, tz),
    )


def pins_said_once(pins: tuple[Pin, ...], lang: str = "en") -> str | None:
    """One sentence when no pin can be told, all for the same reason (GitHub down and only
    the archive read): six lines saying the same would be noise."""
    reasons = {pin.unknown for pin in pins}
    if len(pins) > 1 and len(reasons) == 1 and None not in reasons:
        reason = pin_reason(lang, str(reasons.pop()))
        return sentence(said(lang, "pins_once", reason=reason), lang)
    return None


def lag_text(pin: Pin, lang: str = "en") -> str:
    if pin.unknown:
        return said(lang, "lag_unknown", reason=pin_reason(lang, pin.unknown))
    days = (
        said(lang, "lag_days", days=f"{pin.behind_days:g}") if pin.behind_days is not None else ""
    )
    growing = said(lang, "growing", days=f"{pin.unchanged_days:g}") if pin.growing else ""
    return said(lang, "lag", commits=pin.behind_commits, days=days) + growing


def open_text(found: OpenBreak, lang: str = "en") -> str:
    """Why it is open breakage and for how long: "names #25510 as the cause, open 3.2 days"."""
    if found.why == "broken" and found.upstream:
        refs = RADAR_TEXT[lang]["list_sep"].join(
            f"vllm{ref}" if ref.startswith("#") else f"vllm@{ref}" for ref in found.upstream
        )
        why = said(lang, "open_broken_refs", refs=refs)
    else:
        why = said(lang, f"open_{found.why}")
    return said(lang, "open_line", why=why, days=f"{found.age_days:g}")


def plugin_day_text(radar: Radar) -> tuple[str, str]:
    """One plugin's radar of a day as the site's plugin page rows say it: its pin's lag, and
    what broke it (each culprit with its title and the plugin's fixes) and what was still
    open; "—" when nothing was."""
    pin = radar.pins[0] if radar.pins else None
    lag = lag_text(pin) if pin is not None else "—"
    told = []
    end = radar.window.end
    for culprit in radar.culprits:
        title = f" {clean(culprit.title, TITLE_CHARS)}" if culprit.title else ""
        fixes = ", ".join(_fix_state(f, end) for f in culprit.fixes)
        told.append(f"{ref_text(culprit.ref)}{title} ({fixes})")
    told += [f"still open: {short(b.plugin_repo)}#{b.number} ({open_text(b)})" for b in radar.open]
    return lag, "; ".join(told) or "—"


def fix_stood(fix: PluginLink, end: datetime) -> str:
    """Where a fix stood at the window's end: merged, open, or closed (unmerged). One merged
    after the window (the window was read later) was still open then."""
    if fix.state == "merged":
        return "merged" if fix.at < end else "open"
    return fix.state


def _fix_state(fix: PluginLink, end: datetime) -> str:
    """`fixed in vllm-gaudi#215`, or where the fix stood at the window's end."""
    name = f"{short(fix.plugin_repo)}#{fix.number}"
    stood = fix_stood(fix, end)
    if stood == "merged":
        return f"fixed in {name}"
    return f"{name} closed unmerged" if stood == "closed" else f"fix in review: {name}"


def incomplete_text(radar: Radar, lang: str, key: str = "incomplete") -> str:
    """`Incomplete: ` and what is (`told_notes`): the chat's line, the command's stderr."""
    return said(lang, key) + _joined_sentences(told_notes(radar, lang), lang)


def told_notes(radar: Radar, lang: str = "en") -> list[str]:
    """What is incomplete as people are told it, each a sentence ended once: the plugin
    repositories GitHub could not be read for in one sentence (`unread_text`), then the
    other notes, in `lang`; a note every watched plugin's window gave (a window in
    progress) is said once, not once a plugin. GitHub's whole words stay in the notes (the
    JSON) and, with -v, the log."""
    told = [unread_text(radar, lang)] if radar.unread else []
    whole = {found.note for found in radar.unread}
    by_text: dict[str, list[str]] = {}
    for note in radar.notes:
        if note in whole:
            continue
        repo = next((r for r in radar.plugins if note.startswith(f"{r}: ")), None)
        text = note.removeprefix(f"{repo}: ") if repo else note
        by_text.setdefault(text, []).extend([repo] if repo else [])
    for text, repos in by_text.items():
        note = note_text(lang, text)
        if repos and not (len(radar.plugins) > 1 and set(repos) == set(radar.plugins)):
            names = RADAR_TEXT[lang]["list_sep"].join(short(r) for r in repos)
            note = said(lang, "plugin_note", plugins=names, note=note)
        told.append(note)
    return [sentence(note, lang) for note in told or [said(lang, "cut")]]


def unread_text(radar: Radar, lang: str = "en") -> str:
    """The plugin repositories GitHub could not be read for, in one sentence: how many of
    those watched, each plugin's reason said short (those with the same reason together),
    and what to do ("2 of 6 plugin repositories could not be read (vllm-ascend: not found;
    vllm-gaudi: GitHub kept failing (503)): check the names in VLLM_REPORT_PLUGINS, or try
    again later")."""
    words = RADAR_TEXT[lang]
    reasons: dict[str, list[str]] = {}
    fixes: list[str] = []
    for found in radar.unread:
        reason, fix = unread_reason(lang, found.why)
        reasons.setdefault(reason, []).append(short(found.plugin_repo))
        fixes += [] if fix in fixes else [fix]
    watched = len(radar.plugins)
    if len(reasons) == 1 and len(radar.unread) == watched > 1:
        told = said(lang, "unread_all", reason=next(iter(reasons)))
    else:
        told = words["unread_sep"].join(
            said(lang, "unread_one", plugins=words["list_sep"].join(names), reason=reason)
            for reason, names in reasons.items()
        )
    head = said(lang, "unread", unread=len(radar.unread), watched=watched, reasons=told)
    todo = [said(lang, f"fix_{fix}") for fix in sorted(fixes, key=FIXES.index)]
    what = words["fix_sep"].join(todo[:-1]) + words["fix_or"] + todo[-1] if todo[1:] else todo[0]
    return sentence(said(lang, "unread_do", unread=head, fixes=what), lang)


# What to do about plugin repositories GitHub could not read, in the order it is said:
# what only the operator can fix first, waiting last.
FIXES = ("names", "token", "limit", "url", "network", "later")


def _joined_sentences(sentences: list[str], lang: str) -> str:
    return said(lang, "sentence_sep").join(sentences)


# -- Markdown --------------------------------------------------------------------------


def render_radar_markdown(radar: Radar, lang: str = "en") -> str:
    tz = radar.window.start.tzinfo
    lines = _md_head(radar, lang)
    # No culprit: the heading only to say so, unless open breakage follows (the counts
    # already say none broke; an empty heading would read as "none named" above it).
    if radar.culprits or not radar.open:
        lines += ["", f"## {said(lang, 'culprits')}", ""]
    if not radar.culprits and not radar.open:
        lines.append(said(lang, "none_named"))
    once = reverts_said_once(radar.culprits, lang)
    for index, culprit in enumerate(radar.culprits, 1):
        lines.append(f"{index}. {_md_culprit(culprit, tz, once is None, lang)}")
    if once:
        lines += ["", sentence(once, lang)]
    if radar.corrections:
        lines += ["", f"## {said(lang, 'corrections')}", ""]
        lines += [f"- {_md_escape(correction_text(c, tz, lang))}" for c in radar.corrections]
    if radar.open:
        lines += ["", f"## {said(lang, 'open')}", ""]
        for found in radar.open:
            where = f"[{short(found.plugin_repo)}#{found.number}]({found.url})"
            lines.append(f"- {where} {_md_text(found.title)} — {open_text(found, lang)}")
    lines += _md_pins(radar, lang)
    upgrades = [link for link in radar.links if link.relation == "upgrade"]
    if upgrades:
        lines += ["", f"## {said(lang, 'upgrades')}", ""]
        for link in upgrades:
            adapted = _md_refs(link.confirmed, lang) or said(lang, "nothing_confirmed")
            lines.append(f"- {_md_link(link)} — {said(lang, 'adapted', refs=adapted)}")
    lines += ["", f"## {said(lang, 'every')}", ""]
    for link in radar.links:
        relation = _word(lang, f"rel_{link.relation}", link.relation)
        lines.append(f"- {_md_link(link)} — {relation} — {_md_refs(link.upstream, lang)}")
    lines += ["", said(lang, "read_from"), ""]
    return "\n".join(lines)


def _md_head(radar: Radar, lang: str) -> list[str]:
    """The title, the plugins watched, the counts, the precision, what is incomplete."""
    label = window_label(lang, radar.window.label)
    lines = [f"# {said(lang, 'title', label=label)}", ""]
    plugins = RADAR_TEXT[lang]["list_sep"].join(short(p) for p in radar.plugins)
    lines.append(said(lang, "watched", plugins=plugins))
    lines.append(sentence(counts_line(radar, lang), lang))
    precision = precision_line(radar, lang)
    if precision:
        lines.append(sentence(precision, lang))
    if not radar.complete:
        notes = _joined_sentences(told_notes(radar, lang), lang)
        lines += ["", f"**{said(lang, 'incomplete').strip()}** {notes}"]
    return lines


def _md_pins(radar: Radar, lang: str) -> list[str]:
    lines = ["", f"## {said(lang, 'pins')}", ""]
    once = pins_said_once(radar.pins, lang)
    if once:
        return [*lines, once]
    lines += [said(lang, "pins_table"), "|---|---|---|"]
    for pin in radar.pins:
        pinned = f"`{pin.upstream_commit[:12]}` ({pin.where})" if pin.upstream_commit else "—"
        lines.append(f"| {short(pin.plugin_repo)} | {pinned} | {lag_text(pin, lang)} |")
    return lines


def _word(lang: str, key: str, fallback: str) -> str:
    return said(lang, key) if has(lang, key) else fallback


def _md_culprit(culprit: Culprit, tz: tzinfo | None, reverts: bool, lang: str = "en") -> str:
    title = f" {_md_text(culprit.title)}" if culprit.title else ""
    head = f"[{ref_text(culprit.ref)}]({ref_url(culprit.ref)}){title}"
    facts = [
        (kind, _md_fact(kind, text, culprit))
        for kind, text in culprit_facts(culprit, tz, reverts, lang)
    ]
    shown = said(lang, "facts", facts=facts_text(facts, lang)) if facts else ""
    fixes = _joined(culprit, lambda f: _md_fix(f, lang), lang)
    return f"{head}{shown} — {said(lang, 'broke', fixes=fixes)}"


def _md_fact(kind: str, text: str, culprit: Culprit) -> str:
    """A culprit's fact with its links: the author's GitHub page, the revert PR."""
    if kind == "author" and culprit.author:
        login = clean(culprit.author, 39)
        if _LOGIN.fullmatch(login):  # GitHub's logins: a link to the person's page
            return text.replace(
                f"@{login}", f"[@{_md_escape(login)}](https://github.com/{login})", 1
            )
        return text.replace(f"@{login}", f"@{_md_escape(login)}", 1)
    revert = culprit.reverted_by
    if revert is not None and kind == "revert":
        url = item_url(UPSTREAM, "pr", revert.number)
        return text.replace(f"vllm#{revert.number}", f"[vllm#{revert.number}]({url})", 1)
    return text


def _md_escape(text: str) -> str:
    return text.replace("[", "\\[").replace("]", "\\]").replace("_", "\\_").replace("*", "\\*")


def _joined(culprit: Culprit, fix: Callable[[PluginLink], str], lang: str = "en") -> str:
    """`vllm-gaudi (#294, #292) and vllm-ascend (#3221)`: each plugin once, with its fixes."""
    by_plugin: dict[str, list[str]] = {}
    for link in culprit.fixes:
        by_plugin.setdefault(link.plugin_repo, []).append(fix(link))
    sep = RADAR_TEXT[lang]["list_sep"]
    parts = [
        said(lang, "fixes_of", plugin=short(repo), fixes=sep.join(fixes))
        for repo, fixes in by_plugin.items()
    ]
    return parts[0] if len(parts) == 1 else sep.join(parts[:-1]) + said(lang, "and") + parts[-1]


def _md_fix(link: PluginLink, lang: str = "en") -> str:
    state = "" if link.state == "merged" else f", {_word(lang, f'state_{link.state}', link.state)}"
    return f"[#{link.number}]({link.url}){state}"


def _md_link(link: PluginLink) -> str:
    return f"[{short(link.plugin_repo)}#{link.number}]({link.url}) {_md_text(link.title)}"


# Said after a named upstream change that is not a confirmed cause, so a list of what a
# plugin PR names never reads as a list of culprits (English; radar_phrases has both).
NOT_A_CAUSE = {
    key.removeprefix("why_"): text.format(days=LONG_BEFORE_DAYS)
    for key, text in RADAR_TEXT["en"].items()
    if key.startswith("why_")
}


def _md_refs(refs: tuple[UpstreamRef, ...], lang: str = "en") -> str:
    return ", ".join(f"[{ref_text(r)}]({ref_url(r)}){_md_why(r, lang)}" for r in refs)


def _md_why(ref: UpstreamRef, lang: str = "en") -> str:
    key = (ref.verdict or "") if ref.cause else ref.role
    why = f"why_{key}"
    found = said(lang, why, days=LONG_BEFORE_DAYS) if key and has(lang, why) else None
    if not found:
        return ""
    return said(lang, "facts", facts=found)


def _md_text(text: str) -> str:
    return clean(text, TITLE_CHARS).replace("[", "\\[").replace("]", "\\]")
