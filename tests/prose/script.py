"""A scripted model for the fake OpenAI server: it answers each section (stories,
discussions, day) from a script, and records which units each request asked about."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tests.fakes.openai_api import Scripted


def section_of(request: dict[str, Any]) -> str:
    system = request["messages"][0]["content"]
    if '{"stories"' in system:
        return "stories"
    if '{"discussions"' in system:
        return "discussions"
    return "day"


def facts_of(request: dict[str, Any]) -> dict[str, Any]:
    return json.loads(request["messages"][-1]["content"])


def asked(request: dict[str, Any]) -> list[int]:
    """The stories or threads a request asked about (nothing for the day)."""
    section = section_of(request)
    facts = facts_of(request)
    return [unit["number"] for unit in facts.get(section, [])] if section != "day" else []


class ScriptedModel:
    """Answers with `notes` (story lead → text), `threads` (thread → text), `summary` and
    `themes`, by language (the request's system prompt says which); anything asked for
    that the script does not name gets no answer. `failures` (section → Scripted) fail a
    section instead."""

    def __init__(
        self,
        notes: Mapping[str, Mapping[int, str]] | None = None,
        threads: Mapping[str, Mapping[int, str]] | None = None,
        summary: Mapping[str, str] | None = None,
        themes: Mapping[str, list[str]] | None = None,
        failures: Mapping[str, Scripted] | None = None,
    ) -> None:
        self.notes = notes or {}
        self.threads = threads or {}
        self.summary = summary or {}
        self.themes = themes or {}
        self.failures = failures or {}

    def __call__(self, request: dict[str, Any]) -> Scripted | str:
        section = section_of(request)
        if section in self.failures:
            return self.failures[section]
        lang = "zh" if "规则" in request["messages"][0]["content"] else "en"
        wanted = set(asked(request))
        if section == "stories":
            notes = self.notes.get(lang, {})
            return json.dumps({"stories": {str(n): t for n, t in notes.items() if n in wanted}})
        if section == "discussions":
            said = self.threads.get(lang, {})
            return json.dumps({"discussions": {str(n): t for n, t in said.items() if n in wanted}})
        return json.dumps(
            {"summary": self.summary.get(lang, ""), "themes": self.themes.get(lang, [])},
            ensure_ascii=False,
        )
