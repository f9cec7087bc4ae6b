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
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from bot.analyze.citations import check, numbers_in
from bot.model.report import Prose, Report, Story

if TYPE_CHECKING:
    import openai

log = logging.getLogger(__name__)

PROMPT_VERSION = "prose-2"
SYSTEM_PROMPT = """You write the prose parts of a daily report on a GitHub repository's activity.
Rules:
- Use only the facts in the user's JSON. Every number has already been computed; never
  compute, estimate or round one yourself, and write no number that is not in the facts.
- Cite the item behind every claim as #<number>, using only numbers present in the facts.
- Be concrete and brief: the summary at most 4 sentences; for each story one sentence
  saying what it does and why it matters, from its own words ("what") and members.
- Write in {language}.
Answer with one JSON object and nothing else:
{{"summary": "...", "stories": {{"<lead number>": "what it does and why it matters"}}}}"""
SOURCE_CHARS = 3000  # of each body, given to the check as the source of a story's figures
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

    def write(self, report: Report, lang: str, ask: bool = True) -> tuple[Prose | None, str | None]:
        """Prose for `report`, or (None, a note saying why the deterministic text stands).
        With `ask` false only a cached answer is used (no model call)."""
        facts = facts_for(report)
        key = cache_key(facts, lang, self.config.model)
        raw = self.cache.get(key) if self.cache is not None else None
        if raw is None and not ask:
            return None, None
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


def check_model(config: LLMConfig) -> str | None:
    """`doctor`: None when the model answers a one-token request, else what is wrong and what
    to check, in one sentence (never the key)."""
    import openai

    client = openai.OpenAI(
        base_url=config.base_url,
        api_key=config.api_key or "not-needed",
        timeout=config.timeout,
        max_retries=0,
    )
    try:
        client.chat.completions.create(
            model=config.model, messages=[{"role": "user", "content": "ok"}], max_tokens=1
        )
    except openai.APITimeoutError:
        return f"{config.base_url} did not answer within {config.timeout:.0f} s: is it running?"
    except openai.APIConnectionError:
        return f"cannot reach {config.base_url}: check LLM_BASE_URL and that the server runs"
    except openai.AuthenticationError:
        return f"{config.base_url} refused the key (401): check LLM_API_KEY"
    except openai.NotFoundError:
        return f"{config.base_url} has no model '{config.model}' (404): check LLM_MODEL"
    except openai.APIStatusError as exc:
        return f"{config.base_url} answered {exc.status_code}: check LLM_BASE_URL and LLM_MODEL"
    except openai.OpenAIError as exc:
        return f"{config.base_url} failed ({type(exc).__name__}): check LLM_BASE_URL"
    finally:
        client.close()
    return None


def top_stories(report: Report) -> list[Story]:
    """The stories prose is written for: key changes, hot threads, notable issues, and the
    first story of each vendor with activity (each story once)."""
    sections = report.sections
    if sections is None:
        return []
    leads = [k.number for k in sections.key_changes]
    leads += [h.number for h in sections.hot_discussions]
    leads += [n.number for n in sections.notable_issues]
    for vendor in sections.catalog.vendors:
        found = sections.topics.get(vendor.key)
        if found is not None and found.stories:
            leads.append(sections.story(found.stories[0]).lead)
    chosen: dict[str, Story] = {}
    for number in leads:
        story = sections.story_of(number) or Story(f"s{number}", number, (number,), (), ())
        story = story if story.lead == number else replace(story, lead=number)
        chosen.setdefault(story.id, story)
    return list(chosen.values())


def facts_for(report: Report) -> dict[str, Any]:
    """The computed report, trimmed to what prose needs. Every number comes from here."""
    sections = report.sections
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
    facts["stories"] = [
        {
            "lead": story.lead,
            "title": report.item(story.lead).title,
            "state": _state(report, story.lead),
            "what": sections.what.get(story.lead, ""),
            "members": [
                {
                    "number": m.number,
                    "relation": m.relation,
                    "title": report.item(m.number).title,
                    "state": _state(report, m.number),
                }
                for m in story.members
            ],
        }
        for story in top_stories(report)
    ]
    facts["hot_discussions"] = [
        {
            "number": h.number,
            "comments_in_window": h.comments_in_window if h.measured else None,
            "comments_total": h.comments_total,
            "participants": len(h.participants),
        }
        for h in sections.hot_discussions
    ]
    return facts


def _state(report: Report, number: int) -> str:
    item = report.item(number)
    if item.merged_at is not None:
        return "merged"
    return "closed" if item.closed_at is not None else "open"


def cache_key(facts: dict[str, Any], lang: str, model: str) -> str:
    blob = json.dumps([PROMPT_VERSION, model, lang, facts], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


def checked_prose(
    raw: dict[str, Any], facts: dict[str, Any], report: Report, lang: str, model: str
) -> Prose:
    """Keep the sentences that pass the check: a summary sentence may cite any item of the
    window; a story's note only items of that story, and only figures found in the facts or
    in the bodies of the story's items."""
    allowed = numbers_in([json.dumps(facts, ensure_ascii=False)])
    figures = {str(v) for v in facts["counts"].values()} | {str(facts["stale_closures"])}
    figures |= {str(v) for v in facts.get("topics", {}).values()}
    stories = {s.lead: s for s in top_stories(report)}
    dropped = 0

    def clean(text: Any, items: set[int], sources: set[str], about: int | None = None) -> str:
        nonlocal dropped
        if not isinstance(text, str):
            return ""
        result = check(text, items=items, figures=figures, allowed=allowed | sources, about=about)
        dropped += result.dropped
        return result.text

    notes: dict[int, str] = {}
    for number, text in _raw_notes(raw):
        story = stories.get(number)
        if story is None:  # a note about a story we did not ask about
            dropped += 1
            continue
        sources = numbers_in(_bodies(report, story))
        kept = clean(text, set(story.numbers), sources, about=number)
        if kept:
            notes[number] = kept
    summary = clean(raw.get("summary", ""), set(report.items), set())
    return Prose(
        model=model,
        summary={lang: summary} if summary else {},
        notes=notes,
        dropped=dropped,
    )


def _raw_notes(raw: dict[str, Any]) -> list[tuple[int, Any]]:
    """(lead, text) pairs from the answer's `stories` (or the first prompt's key changes and
    discussions, which some cached answers still hold)."""
    found: list[tuple[int, Any]] = []
    for key in ("stories", "key_changes", "discussions"):
        value = raw.get(key)
        if not isinstance(value, dict):
            continue
        for number, text in value.items():
            found.append((int(number) if str(number).isdigit() else -1, text))
    return found


def _bodies(report: Report, story: Story) -> list[str]:
    texts = []
    for number in story.numbers:
        item = report.item(number)
        texts += [item.title, (item.body or "")[:SOURCE_CHARS]]
    return texts


def _strip_fence(content: str) -> str:
    text = content.strip()
    if text.startswith("```"):
        text = text.strip("`")
        text = text[text.find("{") :]
    return text
