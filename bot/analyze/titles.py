"""Title tags: vLLM titles start with `[ROCm]`, `[Bugfix][CI]`, `[Perf]` …"""

from __future__ import annotations

import re

_TAG_RE = re.compile(r"[\[{]([^\[\]{}]{1,40})\]")
_TAG_PARTS = re.compile(r"[/,]")


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
