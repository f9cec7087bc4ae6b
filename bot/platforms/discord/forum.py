"""A Discord forum post as the bot makes it: its name, its tags, Discord's limits on both,
and what to tell an operator when Discord refuses a post or a tag. No request is made here
(the transport makes them) and no SDK is imported, so every rule is checked without Discord.

A forum (channel type 15, `GUILD_FORUM`; a media channel, 16, works alike) holds only
posts: threads, each opened with a starter message. The day's post is named with the
headline's title (the report's name and date in its language: "vLLM daily report ·
2026-03-25", "vLLM 开发动态日报 · 2026-03-25") and tagged with the delivery's labels (the
language, then the vendors with news that day, busiest first): a reader filters the forum
by vendor in either language.
"""

from __future__ import annotations

from typing import Any

# https://discord.com/developers/docs/resources/channel#channel-object-channel-types:
# GUILD_FORUM (15) and GUILD_MEDIA (16) "can only contain threads".
FORUM_TYPES = frozenset({15, 16})
# Start Thread in Forum or Media Channel: `name` is a "1-100 character channel name", and the
# starter message's `content` holds up to 2,000 characters (the drawing keeps to that).
POST_NAME_LIMIT = 100
# A post's `applied_tags`: "limited to 5" (Modify Channel, thread parameters).
TAGS_PER_POST = 5
# A forum's `available_tags`: "limited to 20" (Modify Channel); a tag's `name` is 0-20
# characters (Forum Tag Object).
TAGS_PER_FORUM = 20
TAG_NAME_LIMIT = 20

# A forum's flag: "a tag is required to be specified when creating a thread" (Channel Flags).
REQUIRE_TAG = 1 << 4

# Discord's JSON error codes met here (Opcodes and Status Codes).
MISSING_PERMISSIONS = 50013  # no Send Messages (a post) or Manage Channels (a tag)
TAG_REQUIRED = 40067  # "A tag is required to create a forum post in this channel"
FORUM_TAGS_FULL = 30048  # "Maximum number of tags in a forum channel has been reached"
ACTIVE_THREADS_FULL = 160006  # "Maximum number of active threads reached"


def post_name(payload: dict[str, Any], fallback: str) -> str:
    """A post's name: the headline's title, else its text's first line, else `fallback`;
    1-100 characters."""
    embeds = payload.get("embeds") or []
    title = str((embeds[0].get("title") if embeds else None) or "").strip()
    first = str(payload.get("content") or "").strip().split("\n", 1)[0]
    name = title or first or fallback.strip() or "vLLM report"
    return name if len(name) <= POST_NAME_LIMIT else name[: POST_NAME_LIMIT - 1] + "…"


def tag_names(labels: tuple[str, ...]) -> list[str]:
    """The labels as tag names: each cut to 20 characters, each once (any case), at most 5,
    in the labels' order."""
    names: list[str] = []
    for label in labels:
        name = label.strip()[:TAG_NAME_LIMIT].strip()
        if name and name.casefold() not in {n.casefold() for n in names}:
            names.append(name)
    return names[:TAGS_PER_POST]


def tag_id(available: list[dict[str, Any]], name: str) -> str | None:
    """The id of the forum's tag called `name` (Discord keeps names unique, any case)."""
    for tag in available:
        if str(tag.get("name", "")).casefold() == name.casefold():
            return str(tag["id"])
    return None


def tags_to_add(available: list[dict[str, Any]], wanted: list[str]) -> tuple[list[str], list[str]]:
    """The wanted tags the forum lacks: those it has room for, and those it has not."""
    missing = [name for name in wanted if tag_id(available, name) is None]
    room = max(0, TAGS_PER_FORUM - len(available))
    return missing[:room], missing[room:]


def applied(available: list[dict[str, Any]], wanted: list[str]) -> list[str]:
    """The ids of the wanted tags the forum has, in the wanted order, at most 5."""
    found = [tag_id(available, name) for name in wanted]
    return [tag for tag in found if tag is not None][:TAGS_PER_POST]


def post_refused(forum: str, code: int, labels: tuple[str, ...]) -> tuple[str, bool] | None:
    """What to change in Discord when it refuses to open a post, in one sentence, and
    whether the forum is as good as gone (the bot may not post there); None for a code
    that says nothing of forums."""
    if code == MISSING_PERMISSIONS:
        said = (
            f"the bot may not open posts in Discord forum {forum} (50013): give it Send "
            "Messages and Send Messages in Threads there"
        )
        return said, True
    if code == TAG_REQUIRED:
        first = (tag_names(labels) or ["en"])[0]
        said = (
            f"Discord forum {forum} requires a tag on every post and none of the report's "
            "could be applied (40067): give the bot Manage Channels there so it adds them, "
            f"or add a tag named '{first}' to the forum"
        )
        return said, False
    if code == ACTIVE_THREADS_FULL:
        said = (
            f"Discord forum {forum}: the server has reached Discord's limit of active "
            "threads (160006): close or archive old posts and threads, then run `post` again"
        )
        return said, False
    return None


def tags_refused(forum: str, names: list[str], code: int | None, detail: str) -> str:
    """Why tags were not added and what to do, in one sentence (the post goes out without
    them)."""
    if code == MISSING_PERMISSIONS:
        why = "the bot lacks Manage Channels there: give it that permission or add the tags by hand"
    elif code == FORUM_TAGS_FULL:
        why = f"the forum has {TAGS_PER_FORUM} tags, Discord's limit: delete unused ones"
    else:
        why = detail
    return f"Discord forum {forum}: posting without the tags {said_names(names)}, not added: {why}"


def no_room(forum: str, names: list[str]) -> str:
    """The tags a full forum could not take, in one sentence."""
    return (
        f"Discord forum {forum} has {TAGS_PER_FORUM} tags, Discord's limit: posting without "
        f"{said_names(names)}; delete tags the forum no longer uses to make room"
    )


def looked_at(channel: dict[str, Any], lang: str) -> tuple[str, bool]:
    """`doctor`'s line on a forum destination (Get Channel's answer), and whether a post
    could be refused there: the forum requires a tag and has no tag named for the report's
    language, the one tag every post carries, nor room to add it."""
    available = list(channel.get("available_tags") or [])
    count = f"{len(available)} of {TAGS_PER_FORUM} tags"
    if tag_id(available, lang) is not None:
        return (
            f"a forum: each day's report opens a post there ({count}, '{lang}' among them)",
            False,
        )
    if channel.get("flags", 0) & REQUIRE_TAG:
        return (
            f"a forum that requires a tag on every post and has no tag named '{lang}' "
            f"({count}): give the bot Manage Channels there so it adds its tags, or add a tag "
            f"named '{lang}'"
        ), True
    return (
        f"a forum: each day's report opens a post there ({count}; the bot adds its tags with "
        "Manage Channels, else posts without them)"
    ), False


def said_names(names: list[str]) -> str:
    return ", ".join(f"'{n}'" for n in names)
