"""What a chat post holds, picked from the outline: the daily post is a headline (the counts
and what happened, drawn by each renderer) and one capped reply per section, never the
appendix; a digest is a headline and its topic in detail; a command's answer is the
headline and the sections asked for. Each item is told once across the whole post.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.model.outline_parts import (
    Block,
    ChatPart,
    Entry,
    Line,
    Our,
    Outline,
    Ref,
    Section,
)
from formatters import wording as w
from formatters.outline import BUCKET_ORDER, once, vendor_keys

CHAT_OTHER_STORIES = 2  # stories of every other vendor in the chat's vendor reply
CHAT_ROWS = 5  # entries of the other chat replies
# "since" (what landed since last time) is there only when a report was published before;
# the features' replies (Red on main, Plugins) come before the trends.
DAILY_PARTS = ("since", "vendors", "key", "hot", "notable")
# In the chat's vendor reply: the first vendor per bucket; the others get their top stories.
CHAT_BUCKET_SHOWN = {"merged": 3, "review": 2, "new": 2, "done": 1, "closed": 1}


def _once_parts(gist: Sequence[Entry], parts: Sequence[ChatPart]) -> tuple[ChatPart, ...]:
    """`once` across a chat post: the headline's gist, then each reply."""
    as_sections = [Section(p.name, p.title, p.blocks) for p in parts]
    _, told = once(gist, as_sections)
    return tuple(replace(p, blocks=t.blocks) for p, t in zip(parts, told, strict=True))


def chat_parts(full: Outline, only: Sequence[str] = ()) -> tuple[ChatPart, ...]:
    """The replies after a chat headline, each capped to one message.

    Nothing asked: the daily post (since last time, vendors, key changes, hot, notable,
    trends; a quiet day, whose headline tells every item: since last time and plugins
    only); a section with nothing in it is left out. A topic report (a digest) asked for
    its topic: that topic in full detail. Sections named: those.
    """
    daily = (*DAILY_PARTS, *full.replies, "trends")
    names = list(only) or list(("since", *full.quiet_replies) if full.quiet else daily)
    parts = []
    for name in names:
        part = _chat_part(full, name)
        if part is None or not any(b.entries for b in part.blocks):
            continue
        if not only and all(b.style == "nothing" for b in part.blocks):
            continue
        parts.append(part)
    return _once_parts(full.gist, parts)


def _chat_part(full: Outline, name: str) -> ChatPart | None:
    lang = full.lang
    if name == "vendors":
        blocks: list[Block] = []
        for index, key in enumerate(vendor_keys(full)):
            section = full.section(key)
            if section is not None:
                command = more_command(full, key)
                blocks += (
                    _lead_vendor(section, lang, command)
                    if index == 0
                    else [_other_vendor(section, lang, command)]
                )
        return ChatPart("vendors", w.text(lang, "vendors"), tuple(blocks))
    section = full.section(name)
    if section is None:
        return None
    if name == "appendix":
        return ChatPart(name, section.title, section.blocks)  # asked for: the whole list
    if section.reply is not None:  # a feature's, capped its own way
        return ChatPart(name, section.title, section.reply)
    # "since" is no section a command takes: its rest is in the full report.
    command = more_command(full, name) if name != "since" else None
    if section.kind != "section":  # one topic, asked for or a digest: in detail
        detailed = section.in_detail()
        return ChatPart(name, section.title, tuple(_lead_vendor(detailed, lang, command)[1:]))
    limit = CHAT_ROWS if name not in ("trends", "activity") else 12
    blocks = [_capped(b, limit, lang, detail=True, command=command) for b in section.blocks]
    if name == "trends":
        activity = full.section("activity")
        if activity is not None:
            blocks += [replace(b, heading=b.heading or activity.title) for b in activity.blocks]
    return ChatPart(name, section.title, tuple(blocks))


def _lead_vendor(section: Section, lang: str, command: str | None = None) -> list[Block]:
    """The first vendor in detail: each bucket's first stories, the rest counted (a
    bucket's items shown in an earlier bucket's stories are not counted again)."""
    blocks = [Block(section.name, (), "text")]
    covered: set[int] = set()
    for block in section.blocks:
        if not block.key:  # the folded stale line
            blocks.append(block)
            continue
        shown = CHAT_BUCKET_SHOWN[block.key]
        capped = _capped(block, shown, lang, detail=True, command=command, covered=covered)
        covered |= {n for e in capped.entries for n in e.covers}
        if not capped.entries and capped.rest is None:
            # Every item already shown above: the report's own "shown above" line says
            # where, or the heading goes (a heading over nothing reads as a lost list).
            if block.rest is None:
                continue
            capped = replace(capped, rest=block.rest)
        blocks.append(capped)
    return blocks


def _other_vendor(section: Section, lang: str, command: str | None = None) -> Block:
    """Another vendor, briefly: its top stories' head lines, the rest counted."""
    buckets = [b for b in section.blocks if b.key]
    shown = [e for b in buckets for e in b.entries][:CHAT_OTHER_STORIES]
    counted = frozenset(
        n for b in section.detail or section.blocks if b.key in BUCKET_ORDER for n in b.items
    )
    hidden = len(counted - {n for e in shown for n in e.covers})
    rest = _more(hidden, bool(shown), lang, command)
    # Head lines, and each story's members: "revert proposed in #38169" is the news.
    briefly = tuple(replace(e, lines=(e.members,) if e.members else ()) for e in shown)
    return Block(section.name, briefly, "list", rest)


def _capped(
    block: Block,
    shown: int,
    lang: str,
    *,
    detail: bool,
    heading: str | None = None,
    command: str | None = None,
    covered: set[int] | None = None,
) -> Block:
    """The block's first `shown` entries and a "+N more" line. A topic's bucket counts its
    items: those neither in a shown entry nor in `covered` (shown above) are the more."""
    entries = block.entries[:shown]
    if not detail:
        entries = tuple(replace(e, lines=()) for e in entries)
    if block.items:
        seen = (covered or set()) | {n for e in entries for n in e.covers}
        hidden = len(block.items - seen)
    else:
        hidden = len(block.entries) - len(entries) + _rest_count(block)
    rest = _more(hidden, bool(entries), lang, command)
    return replace(block, heading=heading or block.heading, entries=tuple(entries), rest=rest)


def _more(hidden: int, any_shown: bool, lang: str, command: str | None = None) -> Line | None:
    """The "+N more in the full report" line; under a heading that shows none, "+1 more" would read
    as a missing line, so it says they are listed there. With no report page to link
    (`command` given), it names the command that shows them instead."""
    if hidden <= 0:
        return None
    if command is not None:
        key = "more_by_command" if any_shown else "all_by_command"
        return (Our(w.text(lang, key, n=hidden, command=command)),)
    return (Our(w.text(lang, "more_in_report" if any_shown else "all_in_report", n=hidden)),)


def more_command(full: Outline, section: str) -> str | None:
    """The slash command that shows the rest of a section, when no report page is linked."""
    if full.link is not None:
        return None
    return f"/vllm-report {full.label} {section}".rstrip()


def _rest_count(block: Block) -> int:
    """How many items a block's "+N more" line stands for."""
    if block.rest is None:
        return 0
    return sum(1 for part in block.rest if isinstance(part, Ref))


def section_link(full: Outline, name: str) -> str | None:
    """Where a chat reply's section is on the report's page: the page's link with the
    section's anchor (`vendors` is the first vendor's section)."""
    if full.link is None or "#" in full.link:
        return full.link
    keys = vendor_keys(full)
    anchor = keys[0] if name == "vendors" and keys else name
    return f"{full.link}#{anchor}" if full.section(anchor) is not None else full.link
