"""References between items, read from bodies: `Fixes #123`, `#123`, full issue URLs."""

from __future__ import annotations

import re

_REF = re.compile(r"(?<![\w/&])#(\d{1,7})\b")
_URL_REF = re.compile(r"github\.com/([\w.-]+/[\w.-]+)/(?:issues|pull)/(\d{1,7})")
_FIXES = re.compile(
    r"\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s*:?\s+"
    r"(?:(?:https://github\.com/[\w.-]+/[\w.-]+/(?:issues|pull)/)|#)(\d{1,7})",
    re.IGNORECASE,
)


def references(body: str | None, repo: str) -> set[int]:
    """Numbers of this repository's items that `body` mentions."""
    if not body:
        return set()
    found = {int(n) for n in _REF.findall(body)}
    found |= {int(n) for owner_repo, n in _URL_REF.findall(body) if owner_repo == repo}
    return found


def fixes(body: str | None) -> set[int]:
    """Numbers a body says it fixes, closes or resolves."""
    return {int(n) for n in _FIXES.findall(body or "")}


_SECTION = re.compile(r"^#{1,4}\s*(purpose|summary|motivation|description)\b.*$", re.I | re.M)
_HEADING = re.compile(r"^#{1,4}\s", re.M)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_NOISE = re.compile(r"!\[[^\]]*\]\([^)]*\)|\[([^\]]*)\]\([^)]*\)|[`*_>]+")


def purpose(body: str | None, limit: int = 220) -> str:
    """The first sentences of a PR's `## Purpose` (or Summary) section, as plain text.

    vLLM's PR template starts with `## Purpose`; older PRs and issues use Summary or
    Motivation. Without either, the body's first paragraph. Extractive only: nothing is
    rewritten, so nothing is invented.
    """
    if not body:
        return ""
    text = _COMMENT.sub("", body).replace("\r\n", "\n")
    match = _SECTION.search(text)
    if match:
        rest = text[match.end() :]
        following = _HEADING.search(rest)
        text = rest[: following.start()] if following else rest
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    if not paragraphs:
        return ""
    plain = _NOISE.sub(lambda m: m.group(1) or "", paragraphs[0])
    plain = " ".join(plain.replace("- ", " ").split())
    if len(plain) <= limit:
        return plain
    cut = plain[:limit]
    end = max(cut.rfind(". "), cut.rfind("; "))
    return (cut[: end + 1] if end > limit // 2 else cut.rstrip() + "…").strip()
