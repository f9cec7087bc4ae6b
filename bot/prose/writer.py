"""Model prose for a report: three sections, one request each, every sentence checked.

The stories (key changes, notable issues, vendor leads), the hot discussions and the day
(summary and themes) are asked for in one request per section, for the units the cache
does not hold: each story and thread is cached by the content of its input, so an unchanged
story costs nothing the next day. The report's prose is bounded in time (`timeout`, for all
requests together: the daily post waits no longer) and in tokens (`token_budget`): units
that would pass the budget are not sent, a model that is down or silent stops the asking,
and what is missing is the deterministic text, with a note; the next run can add it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.model.report import CommentRecord, Prose, Report
from bot.prose.client import Answer, LLMConfig, ModelClient, ProseError, estimate_tokens
from bot.prose.inputs import Unit, day_unit, discussion_units, story_units
from bot.prose.prompts import system_prompt
from bot.prose.vetting import Vetter

log = logging.getLogger(__name__)

MIN_CALL_SECONDS = 0.25  # less time than this left: no request is started


class ProseCache(Protocol):
    """Where answers are kept between runs (the store implements it)."""

    def get(self, key: str) -> dict[str, Any] | None: ...

    def put(self, key: str, model: str, value: dict[str, Any]) -> None: ...


@dataclass
class _Run:
    """One report's asking: its deadline, its tokens left, what it cost, what went wrong."""

    deadline: float
    tokens_left: int
    calls: int = 0
    cached: int = 0
    tokens: int = 0
    down: bool = False
    problems: list[str] = field(default_factory=list)


class ProseWriter:
    def __init__(
        self,
        config: LLMConfig,
        cache: ProseCache | None = None,
        vendor_names: Mapping[str, Sequence[str]] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.cache = cache
        self.vendor_names = dict(vendor_names or {})
        self.clock = clock
        self.client = ModelClient(config)

    def close(self) -> None:
        self.client.close()

    def write(
        self,
        report: Report,
        lang: str,
        ask: bool = True,
        threads: Mapping[int, Sequence[CommentRecord]] | None = None,
    ) -> tuple[Prose | None, str | None]:
        """Checked prose for `report`, or None; and a note when some could not be had.
        With `ask` false only cached answers are used (no request)."""
        if report.sections is None:
            return None, None
        run = _Run(self.clock() + self.config.timeout, self.config.token_budget)
        units = {
            "stories": story_units(report),
            "discussions": discussion_units(report, threads or {}),
            "day": [day_unit(report, lang)],
        }
        answers: dict[tuple[str, int], dict[str, Any]] = {}
        for section, wanted in units.items():
            answers.update(self._answers(section, wanted, lang, run, ask))
        if not answers:
            return None, _note(run)
        return self._checked(report, lang, units, answers, run), _note(run)

    # -- asking ---------------------------------------------------------------------------

    def _answers(
        self, section: str, units: list[Unit], lang: str, run: _Run, ask: bool
    ) -> dict[tuple[str, int], dict[str, Any]]:
        found: dict[tuple[str, int], dict[str, Any]] = {}
        missing = []
        for unit in units:
            cached = self.cache.get(unit.key(lang, self.config.model)) if self.cache else None
            if cached is not None:
                found[(section, unit.number)] = cached
                run.cached += 1
            else:
                missing.append(unit)
        if not missing or not ask or run.down:
            return found
        sending = self._within_budget(section, lang, missing, run)
        if not sending:
            return found
        try:
            answer = self._ask(section, lang, sending, run)
            if not _shaped(section, answer.value):
                raise ProseError("the answer was not the JSON asked for")
        except ProseError as exc:
            log.warning("model prose for the %s skipped: %s", section, exc)
            run.problems.append(f"{section}: {exc}")
            run.down = run.down or exc.down
            return found
        for unit in sending:
            # A unit the model left out is cached as empty: asked again with the same input
            # it would say the same, and the next report would pay for it each time.
            value = _answer_for(section, unit, answer.value) or {"text": ""}
            found[(section, unit.number)] = value
            if self.cache is not None:
                self.cache.put(unit.key(lang, self.config.model), self.config.model, value)
        return found

    def _within_budget(self, section: str, lang: str, units: list[Unit], run: _Run) -> list[Unit]:
        """The first units whose request fits in the tokens left (weightiest first)."""
        base = estimate_tokens(system_prompt(section, lang)) + self.config.max_tokens
        sending: list[Unit] = []
        need = base
        for unit in units:
            cost = estimate_tokens(unit.facts)
            if need + cost > run.tokens_left:
                break
            sending.append(unit)
            need += cost
        if len(sending) < len(units):
            run.problems.append(
                f"{section}: {len(units) - len(sending)} left out by the token budget"
            )
        return sending

    def _ask(self, section: str, lang: str, units: list[Unit], run: _Run) -> Answer:
        payload: dict[str, Any] = (
            units[0].facts if section == "day" else {section: [u.facts for u in units]}
        )
        tries = self.config.retries + 1
        while True:
            left = run.deadline - self.clock()
            if left < MIN_CALL_SECONDS:
                run.down = True
                raise ProseError(f"no time left of the {self.config.timeout:.0f} s allowed")
            run.calls += 1
            try:
                answer = self.client.ask(section, lang, payload, timeout=left)
            except ProseError as exc:
                tries -= 1
                if exc.down or tries <= 0:
                    raise
                continue
            run.tokens += answer.sent_tokens
            run.tokens_left -= answer.sent_tokens + answer.answer_tokens
            return answer

    # -- checking -------------------------------------------------------------------------

    def _checked(
        self,
        report: Report,
        lang: str,
        units: Mapping[str, list[Unit]],
        answers: Mapping[tuple[str, int], dict[str, Any]],
        run: _Run,
    ) -> Prose:
        vetter = Vetter(report, self.vendor_names)
        kept = 0
        rejected: list[tuple[str, str]] = []
        texts: dict[str, dict[int, str]] = {"stories": {}, "discussions": {}}
        summary, themes = "", []
        for section, wanted in units.items():
            for unit in wanted:
                value = answers.get((section, unit.number))
                if value is None:
                    continue
                parts = (
                    [value.get("summary", ""), *_listed(value.get("themes"))]
                    if section == "day"
                    else [value.get("text", "")]
                )
                for index, part in enumerate(parts):
                    vetted = vetter.vet(part, unit)
                    kept += vetted.kept
                    rejected += vetted.rejected
                    if not vetted.text:
                        continue
                    if section != "day":
                        texts[section][unit.number] = vetted.text
                    elif index == 0:
                        summary = vetted.text
                    else:
                        themes.append(vetted.text)
        return Prose(
            model=self.config.model,
            summary={lang: summary} if summary else {},
            notes=texts["stories"],
            dropped=len(rejected),
            discussions=texts["discussions"],
            themes=tuple(themes),
            kept=kept,
            rejected=tuple(rejected),
            calls=run.calls,
            cached=run.cached,
            tokens=run.tokens,
        )


def _answer_for(section: str, unit: Unit, value: dict[str, Any]) -> dict[str, Any] | None:
    """One unit's part of a section's answer, as cached: the day's summary and themes, or a
    story's or thread's text (None when the answer has no usable part for it)."""
    if section == "day":
        summary = value.get("summary")
        themes = _listed(value.get("themes"))
        if not isinstance(summary, str) and not themes:
            return None
        return {"summary": summary if isinstance(summary, str) else "", "themes": themes}
    texts = value.get(section)
    text = texts.get(str(unit.number)) if isinstance(texts, dict) else None
    return {"text": text} if isinstance(text, str) and text.strip() else None


def _shaped(section: str, value: dict[str, Any]) -> bool:
    """The answer has the shape the prompt asked for (else nothing of it is cached)."""
    if section == "day":
        return isinstance(value.get("summary"), str) or isinstance(value.get("themes"), list)
    return isinstance(value.get(section), dict)


def _listed(value: object) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _note(run: _Run) -> str | None:
    if not run.problems:
        return None
    return "model text incomplete (" + "; ".join(run.problems) + "); deterministic text used"
