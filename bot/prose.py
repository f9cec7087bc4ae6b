"""Optional prose from a language model (any OpenAI-compatible server, e.g. vLLM's own).

The model is handed the computed report as JSON and asked for prose only: a summary, a
line per key change (what it does, why it matters) and the stance of each hot discussion.
It never produces a number or a list; `bot.analyze.citations` drops every sentence that
cites an item outside the window, writes a number it was not given, or claims without a
source. Timeouts, HTTP errors and malformed answers fall back to the deterministic text
with a note. Results are cached per window, language, model and prompt version, so a
report asked again costs no model call. Only this module imports `openai`, and only when a
model is configured (the SDK costs most of a second to import).
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from bot.analyze.citations import check, numbers_in
from bot.model.report import Prose, Report

if TYPE_CHECKING:
    import openai

log = logging.getLogger(__name__)

PROMPT_VERSION = "prose-1"
SYSTEM_PROMPT = """You write the prose parts of a daily report on a GitHub repository's activity.
Rules:
- Use only the facts in the user's JSON. Every number has already been computed; never
  compute, estimate or round one yourself, and write no number that is not in the facts.
- Cite the item behind every claim as #<number>, using only numbers present in the facts.
- Be concrete and brief: the summary at most 4 sentences; one or two sentences per item.
- Write in {language}.
Answer with one JSON object and nothing else:
{{"summary": "...", "key_changes": {{"<number>": "what it does and why it matters"}},
  "discussions": {{"<number>": "what is debated and where it stands"}}}}"""
LANGUAGES = {"en": "English", "zh": "Simplified Chinese"}


@dataclass(frozen=True)
class LLMConfig:
    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = 60.0
    retries: int = 2
    max_tokens: int = 1200


class ProseCache(Protocol):
    """Where answers are kept between runs (the store implements it)."""

    def get(self, key: str) -> dict[str, Any] | None: ...

    def put(self, key: str, model: str, value: dict[str, Any]) -> None: ...


class ProseWriter:
    def __init__(self, config: LLMConfig, cache: ProseCache | None = None) -> None:
        import openai

        self.config = config
        self.cache = cache
        self._client: openai.OpenAI = openai.OpenAI(
            base_url=config.base_url,
            api_key=config.api_key or "not-needed",  # local servers often take none
            timeout=config.timeout,
            max_retries=config.retries,
        )

    def close(self) -> None:
        self._client.close()

    def write(self, report: Report, lang: str) -> tuple[Prose | None, str | None]:
        """Prose for `report`, or (None, a note saying why the deterministic text stands)."""
        facts = facts_for(report)
        key = cache_key(facts, lang, self.config.model)
        raw = self.cache.get(key) if self.cache is not None else None
        if raw is None:
            try:
                raw = self._ask(facts, lang)
            except ProseError as exc:
                log.warning("model prose skipped: %s", exc)
                return None, f"model text unavailable ({exc}); deterministic text used"
            if self.cache is not None:
                self.cache.put(key, self.config.model, raw)
        return checked_prose(raw, facts, report, lang, self.config.model), None

    def _ask(self, facts: dict[str, Any], lang: str) -> dict[str, Any]:
        import openai

        try:
            response = self._client.chat.completions.create(
                model=self.config.model,
                messages=[
                    {
                        "role": "system",
                        "content": SYSTEM_PROMPT.format(language=LANGUAGES.get(lang, "English")),
                    },
                    {"role": "user", "content": json.dumps(facts, ensure_ascii=False)},
                ],
                temperature=0.2,
                max_tokens=self.config.max_tokens,
                response_format={"type": "json_object"},
            )
        except openai.APITimeoutError:
            raise ProseError(f"no answer within {self.config.timeout:.0f} s") from None
        except openai.APIConnectionError:
            raise ProseError(f"cannot reach {self.config.base_url}") from None
        except openai.APIStatusError as exc:
            raise ProseError(f"the server answered {exc.status_code}") from None
        except openai.OpenAIError as exc:
            raise ProseError(type(exc).__name__) from None
        try:
            content = response.choices[0].message.content or ""
            parsed = json.loads(_strip_fence(content))
        except (IndexError, AttributeError, json.JSONDecodeError):
            raise ProseError("the answer was not the JSON asked for") from None
        if not isinstance(parsed, dict) or not isinstance(parsed.get("summary", ""), str):
            raise ProseError("the answer was not the JSON asked for")
        return parsed


class ProseError(Exception):
    pass


def facts_for(report: Report) -> dict[str, Any]:
    """The computed report, trimmed to what prose needs. Every number comes from here."""
    sections = report.sections
    items = report.items
    facts: dict[str, Any] = {
        "repo": report.repo,
        "window": {"start": report.window.start.isoformat(), "end": report.window.end.isoformat()},
        "counts": {name.value: count for name, count in report.stats.items()},
        "stale_closures": sum(split.stale for split in report.closures.values()),
    }
    if sections is None:
        return facts
    facts["topics"] = {
        key: len(section.issues) + len(section.prs) for key, section in sections.topics.items()
    }
    facts["key_changes"] = [
        {
            "number": k.number,
            "title": items[k.number].title,
            "state": k.state,
            "purpose": k.description,
        }
        for k in sections.key_changes
    ]
    facts["hot_discussions"] = [
        {
            "number": h.number,
            "title": items[h.number].title,
            "comments_in_window": h.comments_in_window,
            "participants": list(h.participants),
            "linked": list(h.linked),
        }
        for h in sections.hot_discussions
    ]
    facts["notable_issues"] = [
        {"number": n.number, "title": items[n.number].title, "signals": list(n.signals)}
        for n in sections.notable_issues
    ]
    return facts


def cache_key(facts: dict[str, Any], lang: str, model: str) -> str:
    blob = json.dumps([PROMPT_VERSION, model, lang, facts], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


def checked_prose(
    raw: dict[str, Any], facts: dict[str, Any], report: Report, lang: str, model: str
) -> Prose:
    items = set(report.items)
    allowed = numbers_in([json.dumps(facts, ensure_ascii=False)])
    figures = {str(v) for v in facts["counts"].values()} | {str(facts["stale_closures"])}
    figures |= {str(v) for v in facts.get("topics", {}).values()}
    dropped = 0

    def clean(text: Any, about: int | None = None) -> str:
        nonlocal dropped
        if not isinstance(text, str):
            return ""
        result = check(text, items=items, figures=figures, allowed=allowed, about=about)
        dropped += result.dropped
        return result.text

    def notes(raw_notes: Any, wanted: set[int]) -> dict[int, str]:
        """Notes keyed by item; a note about an item we did not ask about is dropped."""
        nonlocal dropped
        out: dict[int, str] = {}
        for number, text in (raw_notes or {}).items() if isinstance(raw_notes, dict) else ():
            if not str(number).isdigit() or int(number) not in wanted:
                dropped += 1
                continue
            # A note is printed beside its item, which counts as its citation.
            kept = clean(text, about=int(number))
            if kept:
                out[int(number)] = kept
        return out

    summary = clean(raw.get("summary", ""))
    key_numbers = {k["number"] for k in facts.get("key_changes", [])}
    hot_numbers = {h["number"] for h in facts.get("hot_discussions", [])}
    return Prose(
        model=model,
        summary={lang: summary} if summary else {},
        item_notes=notes(raw.get("key_changes"), key_numbers),
        discussion_notes=notes(raw.get("discussions"), hot_numbers),
        dropped=dropped,
    )


def _strip_fence(content: str) -> str:
    text = content.strip()
    if text.startswith("```"):
        text = text.strip("`")
        text = text[text.find("{") :]
    return text
