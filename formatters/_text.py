"""Text hygiene shared by the chat renderers: cleaning, truncation, per-platform escaping.

Titles, bodies, logins and labels come from strangers. Before any platform syntax is
applied they are cleaned (control, bidirectional and invisible characters removed, white
space folded, length capped) and their URLs defused (a zero-width space after `://`), so
no rendering turns them into a link we did not build. Then each platform escapes its own
way: Slack only `&`, `<`, `>`; Discord its Markdown characters, with mentions broken by a
zero-width space.
"""

from __future__ import annotations

import re

ZWSP = "\u200b"
ELLIPSIS = "…"
# Bidi overrides/isolates, zero-width and other invisible characters, soft hyphen.
_INVISIBLE = re.compile(
    "[\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]"
)
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")  # what must never survive
_URL_SCHEME = re.compile(r"(?i)([a-z][a-z0-9+.-]{1,20}):(?=//)")
_WWW = re.compile(r"(?i)\bwww\.")
_GITHUB_ITEM = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


def clean(text: str | None, limit: int, *, defuse: bool = True) -> str:
    """One line of a stranger's text, at most `limit` characters, links defused (HTML, where
    text never becomes a link, keeps them as typed: `defuse=False`)."""
    if not text:
        return ""
    text = _INVISIBLE.sub("", _CONTROL.sub(" ", text))
    text = " ".join(text.split())
    if len(text) > limit:
        text = _cut_words(text, limit)
    if not defuse:
        return text
    text = _URL_SCHEME.sub(lambda m: m.group(1) + ":" + ZWSP, text)
    return _WWW.sub(lambda m: m.group(0)[:-1] + ZWSP + ".", text)


def slack_escape(text: str) -> str:
    """Slack's rule: escape exactly `&`, `<`, `>` (this also defuses <!channel>, <@U…>)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# Our lines never start with a stranger's text, so line-start syntax (#, -, >) cannot fire;
# inline syntax can: emphasis, code, spoilers, quotes and masked links.
_DISCORD_MARKDOWN = re.compile(r"([\\*_~`|>\[\]])")
_DISCORD_MENTION = re.compile(r"@(?=everyone|here|[!&]?\d)", re.IGNORECASE)


def discord_escape(text: str) -> str:
    """Markdown characters escaped; @everyone, @here, <@id>, <@&id>, <#id> made inert."""
    text = _DISCORD_MARKDOWN.sub(r"\\\1", text)
    text = _DISCORD_MENTION.sub("@" + ZWSP, text)
    return text.replace("<", "<" + ZWSP)


def item_url(repo: str, kind: str, number: int) -> str:
    """The GitHub page of an item, built from parts we validated (never from item data)."""
    if not _GITHUB_ITEM.match(repo) or number <= 0:
        raise ValueError(f"refusing to build a link for {repo!r} #{number}")
    return f"https://github.com/{repo}/{'pull' if kind == 'pr' else 'issues'}/{number}"


def truncate(text: str, limit: int) -> str:
    """Our own text cut to `limit` (used for fallbacks and titles, never to drop items)."""
    return text if len(text) <= limit else _cut_words(text, limit)


WHOLE_WORD = 12  # a short quote gives up this much to end on a whole word


def _cut_words(text: str, limit: int) -> str:
    """At most `limit` characters ending in '…': at the last space of the final fifth, or of
    the last dozen characters in a short quote, when there is one ("…48.9% E2E
    throughput…", "…error message for FP8…", not "…throughput improvem…"), else hard."""
    cut = text[: max(1, limit - 1)]
    space = cut.rfind(" ")
    if space > 0 and cut[:space].strip() and space >= min(len(cut) * 4 // 5, len(cut) - WHOLE_WORD):
        cut = cut[:space]
    if cut.count("`") % 2 and cut.rfind("`") > len(cut) // 2:
        cut = cut[: cut.rfind("`")]  # a code span whole or not at all: it would run on
    return cut.rstrip() + ELLIPSIS
