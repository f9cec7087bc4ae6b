"""The breakage radar as Markdown, JSON (`vllm-radar/1`), Slack blocks and Discord embeds.

What leads is what a plugin team and an upstream author need first: the upstream changes
that broke plugins, the most plugins first, each with its title, author (whom to ask), merge
date and whether upstream has since reverted it, and the plugins' fix PRs; then how far
each pin lags; then upgrades and every link, for reference. The corrections people made
(`/vllm-radar wrong`) and the precision they measure are said under the counts. Titles and
logins are strangers' text: cleaned and escaped for each surface.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from datetime import datetime, tzinfo
from typing import Any

from bot.model.radar import UPSTREAM, Correction, Culprit, Pin, PluginLink, Radar, UpstreamRef
from formatters._text import clean, discord_escape, item_url, slack_escape, truncate

SCHEMA = "vllm-radar/1"
TITLE_CHARS = 90
SLACK_CULPRITS = 8  # a Slack answer shows the top culprits; the rest are one link away
DISCORD_DESCRIPTION = 4096
SLACK_SECTION = 3000
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


def counts_line(radar: Radar) -> str:
    by = Counter(link.relation for link in radar.links)
    return (
        f"{len(radar.links)} plugin PRs and issues name upstream: "
        f"{by['breakage-fix']} breakage fixes, {by['upgrade']} upgrades, "
        f"{by['mention-only']} mentions; {len(radar.culprits)} upstream changes broke plugins"
    )


def day(moment: datetime, tz: tzinfo | None) -> str:
    """A moment as the day it was where the radar's window is read (`2025-09-15`)."""
    return moment.astimezone(tz).date().isoformat()


def culprit_facts(culprit: Culprit, tz: tzinfo | None, reverts: bool = True) -> list[str]:
    """Who wrote the culprit, when it merged, and whether it was since reverted, as plain
    words (`by @mgoin`, `merged 2025-09-15`, `not reverted as of 2025-10-01`): each surface
    escapes them. The login is a stranger's text; the rest is ours. `reverts`: False when
    `reverts_said_once` says it for all."""
    said = [f"by @{clean(culprit.author, 39)}"] if culprit.author else []
    if culprit.merged_at is not None:
        said.append(f"merged {day(culprit.merged_at, tz)}")
        if reverts or culprit.reverted is not None:
            said.append(revert_text(culprit, tz))
    return said


def reverts_said_once(culprits: tuple[Culprit, ...]) -> str | None:
    """One sentence when whether upstream reverted them is known for none of several
    culprits (the archive does not hold vLLM since they merged): a "not known" on every line
    would be noise."""
    dated = [c for c in culprits if c.merged_at is not None]
    if len(dated) > 1 and all(c.reverted is None for c in dated):
        return (
            "Reverts: not known for these culprits (the archive does not hold vLLM's PRs "
            "since they merged; the daily report collects them)"
        )
    return None


def revert_text(culprit: Culprit, tz: tzinfo | None) -> str:
    revert = culprit.reverted_by
    if revert is not None:
        return f"reverted by vllm#{revert.number} on {day(revert.merged_at, tz)}"
    if culprit.reverts_read_until is not None:  # the archive holds vLLM's PRs up to then
        return f"not reverted as of {day(culprit.reverts_read_until, tz)}"
    return "revert not known"


def precision_line(radar: Radar) -> str | None:
    """The corrections people made and the precision they measure, or None when the radar
    names no culprit and none was corrected."""
    precision = radar.precision
    if precision is None:
        return None
    corrected = len(radar.corrections)
    return (
        f"Precision {precision:.0%}: {radar.attributions} culprit attributions stand, "
        f"{corrected} corrected (`/vllm-radar wrong <plugin PR> <upstream PR>` says one is wrong)"
    )


def correction_text(correction: Correction, tz: tzinfo | None) -> str:
    return (
        f"{short(correction.plugin_repo)}#{correction.plugin_number}: not "
        f"vllm#{correction.upstream_number} (said by {correction.by} on "
        f"{day(correction.at, tz)})"
    )


def pins_said_once(pins: tuple[Pin, ...]) -> str | None:
    """One sentence when no pin can be told, all for the same reason (an old window):
    six lines saying the same would be noise."""
    reasons = {pin.unknown for pin in pins}
    if len(pins) > 1 and len(reasons) == 1 and None not in reasons:
        return f"Pins: {reasons.pop()}."
    return None


def lag_text(pin: Pin) -> str:
    if pin.unknown:
        return f"unknown: {pin.unknown}"
    days = f", {pin.behind_days:g} days" if pin.behind_days is not None else ""
    return f"{pin.behind_commits} commits behind main{days}"


# -- Markdown --------------------------------------------------------------------------


def render_radar_markdown(radar: Radar) -> str:
    lines = [f"# Breakage radar · {radar.window.label}", ""]
    lines.append(f"Plugins watched: {', '.join(short(p) for p in radar.plugins)}.")
    lines.append(counts_line(radar) + ".")
    precision = precision_line(radar)
    if precision:
        lines.append(precision + ".")
    if not radar.complete:
        lines.append("")
        lines.append("**Incomplete:** " + "; ".join(radar.notes or ("some windows were cut",)))
    lines += ["", "## Upstream changes that broke plugins", ""]
    if not radar.culprits:
        lines.append("None named in this window.")
    tz = radar.window.start.tzinfo
    once = reverts_said_once(radar.culprits)
    for index, culprit in enumerate(radar.culprits, 1):
        lines.append(f"{index}. {_md_culprit(culprit, tz, once is None)}")
    if once:
        lines += ["", once + "."]
    if radar.corrections:
        lines += ["", "## Corrections", ""]
        lines += [f"- {_md_escape(correction_text(c, tz))}" for c in radar.corrections]
    lines += ["", "## Pins of upstream", ""]
    once = pins_said_once(radar.pins)
    if once:
        lines.append(once)
    else:
        lines += ["| plugin | pinned vLLM | lag |", "|---|---|---|"]
    for pin in () if once else radar.pins:
        pinned = f"`{pin.upstream_commit[:12]}` ({pin.where})" if pin.upstream_commit else "—"
        lines.append(f"| {short(pin.plugin_repo)} | {pinned} | {lag_text(pin)} |")
    upgrades = [link for link in radar.links if link.relation == "upgrade"]
    if upgrades:
        lines += ["", "## Upgrades", ""]
        for link in upgrades:
            adapted = _md_refs(link.confirmed) or "nothing GitHub confirmed"
            lines.append(f"- {_md_link(link)} — adapted to {adapted}")
    lines += ["", "## Every plugin item that names upstream", ""]
    for link in radar.links:
        lines.append(f"- {_md_link(link)} — {link.relation} — {_md_refs(link.upstream)}")
    lines += ["", "_Read from the plugins' own titles and descriptions by vllm-report-bot._", ""]
    return "\n".join(lines)


def _md_culprit(culprit: Culprit, tz: tzinfo | None, reverts: bool) -> str:
    title = f" {_md_text(culprit.title)}" if culprit.title else ""
    head = f"[{ref_text(culprit.ref)}]({ref_url(culprit.ref)}){title}"
    facts = ", ".join(_md_fact(said, culprit) for said in culprit_facts(culprit, tz, reverts))
    facts = f" ({facts})" if facts else ""
    return f"{head}{facts} — broke {_joined(culprit, _md_fix)}"


def _md_fact(said: str, culprit: Culprit) -> str:
    """A culprit's fact with its links: the author's GitHub page, the revert PR."""
    if said.startswith("by @") and culprit.author:
        login = clean(culprit.author, 39)
        if _LOGIN.fullmatch(login):  # GitHub's logins: a link to the person's page
            return f"by [@{_md_escape(login)}](https://github.com/{login})"
        return f"by @{_md_escape(login)}"
    revert = culprit.reverted_by
    if revert is not None and said.startswith("reverted by "):
        url = item_url(UPSTREAM, "pr", revert.number)
        return said.replace(f"vllm#{revert.number}", f"[vllm#{revert.number}]({url})", 1)
    return said


def _md_escape(text: str) -> str:
    return text.replace("[", "\\[").replace("]", "\\]").replace("_", "\\_").replace("*", "\\*")


def _joined(culprit: Culprit, fix: Callable[[PluginLink], str]) -> str:
    """`vllm-gaudi (#294, #292) and vllm-ascend (#3221)`: each plugin once, with its fixes."""
    by_plugin: dict[str, list[str]] = {}
    for link in culprit.fixes:
        by_plugin.setdefault(link.plugin_repo, []).append(fix(link))
    parts = [f"{short(repo)} ({', '.join(fixes)})" for repo, fixes in by_plugin.items()]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _md_fix(link: PluginLink) -> str:
    state = "" if link.state == "merged" else f", {link.state}"
    return f"[#{link.number}]({link.url}){state}"


def _md_link(link: PluginLink) -> str:
    return f"[{short(link.plugin_repo)}#{link.number}]({link.url}) {_md_text(link.title)}"


# Said after a named upstream change that is not a confirmed cause, so a list of what a
# plugin PR names never reads as a list of culprits.
NOT_A_CAUSE = {
    "issue": "an issue",
    "missing": "not on GitHub",
    "unmerged": "not merged",
    "after-fix": "merged after the fix",
    "no-pr": "no PR merged it",
    "unverified": "not checked",
    "corrected": "corrected: not the cause",
    "upstream-fix": "fixed upstream",
    "pending": "pending upstream",
    "ported": "ported",
    "related": "related",
}


def _md_refs(refs: tuple[UpstreamRef, ...]) -> str:
    return ", ".join(f"[{ref_text(r)}]({ref_url(r)}){_md_why(r)}" for r in refs)


def _md_why(ref: UpstreamRef) -> str:
    said = NOT_A_CAUSE.get(ref.verdict or "") if ref.cause else NOT_A_CAUSE.get(ref.role)
    return f" ({said})" if said else ""


def _md_text(text: str) -> str:
    return clean(text, TITLE_CHARS).replace("[", "\\[").replace("]", "\\]")


# -- JSON ------------------------------------------------------------------------------


def render_radar_json(radar: Radar) -> str:
    return json.dumps(radar_to_dict(radar), ensure_ascii=False, indent=1) + "\n"


def radar_to_dict(radar: Radar) -> dict[str, Any]:
    """`vllm-radar/1`: the radar command's JSON, and the daily report JSON's `radar`."""
    window = radar.window
    return {
        "schema": SCHEMA,
        "window": {
            "start": window.start.isoformat(),
            "end": window.end.isoformat(),
            "label": window.label,
        },
        "complete": radar.complete,
        "notes": list(radar.notes),
        "plugins": list(radar.plugins),
        "precision": {
            "attributions": radar.attributions,
            "corrected": len(radar.corrections),
            "precision": radar.precision,
        },
        "corrections": [
            {
                "plugin_repo": c.plugin_repo,
                "plugin_number": c.plugin_number,
                "upstream_number": c.upstream_number,
                "by": c.by,
                "at": c.at.isoformat(),
            }
            for c in radar.corrections
        ],
        "links": [
            {
                "plugin_repo": link.plugin_repo,
                "plugin_number": link.number,
                "plugin_kind": link.kind,
                "title": link.title,
                "state": link.state,
                "relation": link.relation,
                "upstream": [_ref_json(r) for r in link.upstream],
            }
            for link in radar.links
        ],
        "pins": [
            {
                "plugin_repo": pin.plugin_repo,
                "where": pin.where,
                "upstream_commit": pin.upstream_commit,
                "behind_commits": pin.behind_commits,
                "behind_days": pin.behind_days,
                "unknown": pin.unknown,
            }
            for pin in radar.pins
        ],
        "culprits": [
            {
                **_ref_json(c.ref),
                "title": c.title,
                "author": c.author,
                "merged_at": c.merged_at.isoformat() if c.merged_at else None,
                # True, False, or None: the archive does not hold vLLM since its merge.
                "reverted": c.reverted,
                "reverted_by": (
                    {
                        "number": c.reverted_by.number,
                        "title": c.reverted_by.title,
                        "merged_at": c.reverted_by.merged_at.isoformat(),
                    }
                    if c.reverted_by
                    else None
                ),
                "plugins": list(c.plugins),
                "fixes": [
                    {"plugin_repo": f.plugin_repo, "plugin_number": f.number} for f in c.fixes
                ],
            }
            for c in radar.culprits
        ],
    }


def _ref_json(ref: UpstreamRef) -> dict[str, Any]:
    """An upstream change: `role` (what the plugin PR makes it) and, for a cause GitHub was
    asked about, `verdict` (`verified` only for a merged PR merged before the fix)."""
    found: dict[str, Any] = {"repo": ref.repo}
    if ref.number is not None:
        found["number"] = ref.number
    if ref.sha is not None:
        found["sha"] = ref.sha
    found["role"] = ref.role
    if ref.verdict is not None:
        found["verdict"] = ref.verdict
    return found


# -- Slack and Discord -------------------------------------------------------------------


def render_radar_slack(radar: Radar, link: str | None = None) -> dict[str, Any]:
    """One message: the counts, the top culprits with their fixes, the pins' lag."""
    title = f"Breakage radar · {radar.window.label}"
    blocks: list[dict[str, Any]] = [
        {"type": "header", "text": {"type": "plain_text", "text": truncate(title, 150)}},
        {
            "type": "context",
            "elements": [{"type": "mrkdwn", "text": slack_escape(counts_line(radar))}],
        },
    ]
    tz = radar.window.start.tzinfo
    reverts = reverts_said_once(radar.culprits)
    rows = [_slack_culprit(c, tz, reverts is None) for c in radar.culprits[:SLACK_CULPRITS]] or [
        "No upstream change was named as breaking a plugin in this window."
    ]
    more = len(radar.culprits) - SLACK_CULPRITS
    if more > 0:
        where = f" <{link}|Full radar>" if link else " (`vllm-report radar` shows all)"
        rows.append(f"…and {more} more upstream changes.{where}")
    text = "*Upstream changes that broke plugins*\n" + "\n".join(rows)
    blocks.append(
        {"type": "section", "text": {"type": "mrkdwn", "text": truncate(text, SLACK_SECTION)}}
    )
    said = [line for line in (reverts, precision_line(radar)) if line]
    if said:
        text = slack_escape(". ".join(said) + ".")
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": text}]})
    once = pins_said_once(radar.pins)
    pins = (
        slack_escape(once)
        if once
        else "\n".join(
            f"• {slack_escape(short(p.plugin_repo))}: {slack_escape(lag_text(p))}"
            for p in radar.pins
        )
    )
    if once:
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": pins}]})
    elif pins:
        blocks.append(
            {
                "type": "section",
                "text": {"type": "mrkdwn", "text": truncate("*Pins*\n" + pins, SLACK_SECTION)},
            }
        )
    if not radar.complete:
        note = "Incomplete: " + "; ".join(radar.notes or ("some windows were cut",))
        blocks.append(
            {
                "type": "context",
                "elements": [{"type": "mrkdwn", "text": slack_escape(truncate(note, 2000))}],
            }
        )
    return {"text": slack_escape(f"{title}: {counts_line(radar)}"), "blocks": blocks}


def _slack_culprit(culprit: Culprit, tz: tzinfo | None, reverts: bool) -> str:
    title = f" {slack_escape(clean(culprit.title, 70))}" if culprit.title else ""
    facts = ", ".join(culprit_facts(culprit, tz, reverts))
    facts = f" ({slack_escape(facts)})" if facts else ""
    fixes = _joined(culprit, lambda f: f"<{f.url}|#{f.number}>")
    return f"• <{ref_url(culprit.ref)}|{ref_text(culprit.ref)}>{title}{facts} → {fixes}"


def render_radar_discord(radar: Radar) -> dict[str, Any]:
    tz = radar.window.start.tzinfo
    reverts = reverts_said_once(radar.culprits)
    rows = [_discord_culprit(c, tz, reverts is None) for c in radar.culprits] or [
        "No upstream change was named as breaking a plugin in this window."
    ]
    description = truncate("\n".join(rows), DISCORD_DESCRIPTION)
    once = pins_said_once(radar.pins)
    pins = "" if once else "\n".join(f"{short(p.plugin_repo)}: {lag_text(p)}" for p in radar.pins)
    footer = ". ".join(
        line for line in (counts_line(radar), reverts, precision_line(radar)) if line
    )
    embed: dict[str, Any] = {
        "title": f"Breakage radar · {radar.window.label}",
        "description": description,
        "footer": {"text": truncate(footer + (f". {once}" if once else ""), 2048)},
    }
    if pins:
        embed["fields"] = [{"name": "Pins", "value": truncate(discord_escape(pins), 1024)}]
    return {"embeds": [embed]}


def _discord_culprit(culprit: Culprit, tz: tzinfo | None, reverts: bool) -> str:
    title = f" {discord_escape(clean(culprit.title, 70))}" if culprit.title else ""
    facts = ", ".join(culprit_facts(culprit, tz, reverts))
    facts = f" ({discord_escape(facts)})" if facts else ""
    fixes = _joined(culprit, lambda f: f"[#{f.number}]({f.url})")
    return f"• [{ref_text(culprit.ref)}]({ref_url(culprit.ref)}){title}{facts} → {fixes}"
