"""Title tags: vLLM titles start with `[ROCm]`, `[Bugfix][CI]`, `[Perf]` …"""

from __future__ import annotations

import re

_TAG_RE = re.compile(r"[\[{]([^\[\]{}]{1,40})\]")
_TAG_PARTS = re.compile(r"[/,]")
# A Conventional Commits prefix ("feat: add RISC-V support", "fix(cpu): …").
_PREFIX_RE = re.compile(
    r"^\s*(feat|fix|docs|perf|refactor|tests?|ci|chore|build)(?:\([^()]{1,30}\))?!?:\s", re.I
)


def title_tags(title: str) -> list[str]:
    """`[Bugfix][ROCm] x` → ['bugfix', 'rocm']; `[CI/Build]` also gives 'ci' and 'build'."""
    tags: list[str] = []
    for raw in _TAG_RE.findall(title):
        tag = raw.strip().lower()
        tags.append(tag)
        parts = [p.strip() for p in _TAG_PARTS.split(tag) if p.strip()]
        if len(parts) > 1:
            tags.extend(parts)
    return tags


def untagged(title: str) -> str:
    return _TAG_RE.sub(" ", title)


def prefix_tag(title: str) -> tuple[str | None, str]:
    """`feat(cpu): add X` → ('feat', 'add X'): the kind of work an outside contributor's
    title names (vLLM's own tags are brackets, and only they weigh: bot.analyze.weight)."""
    found = _PREFIX_RE.match(title)
    return (found.group(1).lower(), title[found.end() :]) if found else (None, title)
