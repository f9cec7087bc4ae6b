"""How the topics of a report are shown: their names in each language, which are vendors, the
groups inside a vendor section. Shared by the report and the review queue (both carry it, so
formatters read the model and nothing of the rules)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["issue", "pr"]


@dataclass(frozen=True)
class TopicInfo:
    """How a topic is shown: its names by language, and whether it is a vendor."""

    key: str
    names: dict[str, str]
    kind: str  # "vendor" or "topic"

    def name(self, lang: str) -> str:
        return self.names.get(lang) or self.names["en"]


@dataclass(frozen=True)
class GroupInfo:
    """A group inside a vendor section (performance, bug fixes, ...), in display order."""

    key: str
    names: dict[str, str]

    def name(self, lang: str) -> str:
        return self.names.get(lang) or self.names["en"]


@dataclass(frozen=True)
class Catalog:
    """The topics and groups of the rules a report was made with, in the rules' order."""

    topics: tuple[TopicInfo, ...]
    groups: tuple[GroupInfo, ...]

    def topic(self, key: str) -> TopicInfo | None:
        return next((t for t in self.topics if t.key == key), None)

    @property
    def vendors(self) -> tuple[TopicInfo, ...]:
        return tuple(t for t in self.topics if t.kind == "vendor")

    def topic_name(self, key: str, lang: str) -> str:
        found = self.topic(key)
        return found.name(lang) if found is not None else key
