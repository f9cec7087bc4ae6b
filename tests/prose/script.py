"""A scripted model for the fake OpenAI server: it answers each request (one item, one
thread or the day) from a script, and records what each request asked about."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from tests.fakes.openai_api import Scripted


def section_of(request: dict[str, Any]) -> str:
    system = request["messages"][0]["content"]
    if '{"why"' in system or '{"what"' in system:
        return "item"
    if '{"text"' in system:
        return "thread"
    return "day"


def lang_of(request: dict[str, Any]) -> str:
    return "zh" if "规则" in request["messages"][0]["content"] else "en"


def facts_of(request: dict[str, Any]) -> dict[str, Any]:
    return json.loads(request["messages"][-1]["content"])


def asked(request: dict[str, Any]) -> int:
    """The item or thread a request asked about (0 for the day)."""
    return int(facts_of(request).get("number", 0))


Answer = str | Mapping[str, object]


class ScriptedModel:
    """Answers with `notes` (item → its answer: a text for its one part, or the parts by
    name: `{"what": …, "why": …}`), `threads` (thread → text) and `summary`, by language;
    anything the script does not name gets an empty answer. `failures` (section →
    Scripted) fail a section instead."""

    def __init__(
        self,
        notes: Mapping[str, Mapping[int, Answer]] | None = None,
        threads: Mapping[str, Mapping[int, str]] | None = None,
        summary: Mapping[str, str] | None = None,
        failures: Mapping[str, Scripted] | None = None,
    ) -> None:
        self.notes = notes or {}
        self.threads = threads or {}
        self.summary = summary or {}
        self.failures = failures or {}

    def __call__(self, request: dict[str, Any]) -> Scripted | str:
        section = section_of(request)
        if section in self.failures:
            return self.failures[section]
        lang = lang_of(request)
        number = asked(request)
        if section == "item":
            said = self.notes.get(lang, {}).get(number, "")
            part = "what" if lang == "zh" else "why"
            answer = dict(said) if isinstance(said, Mapping) else {part: said}
            return json.dumps(answer, ensure_ascii=False)
        if section == "thread":
            return json.dumps({"text": self.threads.get(lang, {}).get(number, "")})
        return json.dumps({"summary": self.summary.get(lang, "")}, ensure_ascii=False)


def missing_lines(plain: str, written: str) -> list[str]:
    """The lines of the report without a model missing from the report with one, a line
    counted as kept when it is there but for what a model said in a quote's place (a quoted
    English sentence → its checked Chinese) or added beside ("；作者说明「✍️ …」")."""

    def bare(line: str) -> str:
        return re.sub(r"「[^」]*」|“[^”]*”", "「」", line)

    def beside(line: str) -> str:
        return bare(re.sub(r"(?:(?<=：)|[；;])[^；;「“：]*[「“]✍️[^」”]*[」”][；;]?", "", line))

    found = {form(line) for line in written.splitlines() for form in (bare, beside)}
    return [line for line in plain.splitlines() if line.strip() and bare(line) not in found]
