"""The breakage radar's facts: which plugin PRs name which upstream vLLM changes, the
upstream changes that broke plugins, and how far each plugin's pin of upstream lags."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from bot.model.windows import Window

UPSTREAM = "vllm-project/vllm"
RELATIONS = ("breakage-fix", "upgrade", "mention-only")
# The digest of the daily report's Plugins section, subscribed to like a topic.
PLUGINS_TOPIC = "plugins"
PLUGINS_DIGEST = "Plugins (breakage radar)"


@dataclass(frozen=True)
class UpstreamRef:
    repo: str
    kind: str  # pr, issue, commit, pr-or-issue
    number: int | None = None
    sha: str | None = None

    @property
    def key(self) -> str:
        """`#N` or the first 7 characters of a commit: what a link is compared by."""
        return f"#{self.number}" if self.number is not None else (self.sha or "")[:7]


@dataclass(frozen=True)
class Reading:
    relation: str  # breakage-fix, upgrade, mention-only, or none (no upstream named)
    upstream: tuple[UpstreamRef, ...]


@dataclass(frozen=True)
class PluginLink:
    """A plugin PR or issue of the window and the upstream changes it names."""

    plugin_repo: str
    number: int
    kind: str  # pr or issue
    title: str
    url: str
    author: str | None
    state: str  # merged, open, closed
    at: datetime  # merged, else opened
    relation: str  # one of RELATIONS
    upstream: tuple[UpstreamRef, ...]


@dataclass(frozen=True)
class Culprit:
    """An upstream change plugins had to fix for, with the fixes."""

    ref: UpstreamRef
    title: str | None  # from the archive, when it holds the upstream PR
    fixes: tuple[PluginLink, ...]

    @property
    def plugins(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(link.plugin_repo for link in self.fixes))


@dataclass(frozen=True)
class Pin:
    """Where a plugin pins upstream, and how far upstream main has moved on since."""

    plugin_repo: str
    where: str  # the file (and branch) it is read from, or "none"
    upstream_commit: str | None
    behind_commits: int | None
    behind_days: float | None
    unknown: str | None = None  # why the lag cannot be said, when it cannot


@dataclass(frozen=True)
class Radar:
    window: Window
    plugins: tuple[str, ...]
    links: tuple[PluginLink, ...]
    culprits: tuple[Culprit, ...]  # the most-breaking first
    pins: tuple[Pin, ...]
    complete: bool
    notes: tuple[str, ...] = field(default_factory=tuple)
    late_after_days: float = 7.0  # a pin further behind main is news (VLLM_REPORT_PIN_LAG_DAYS)
