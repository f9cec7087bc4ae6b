"""Model prose for a report: one small task per request, every sentence checked, each unit
shown whole beside the facts or not at all.

Units (inputs.py) are the told-first items (a reason in one sentence; in Chinese also their
description translated), the read hot threads and the day, weightiest first. Each is cached
by the content of its input, so an unchanged item costs nothing the next day. The report's
prose is bounded in time (`timeout`, for all requests together: the daily post waits no
longer) and in tokens (`token_budget`): what does not fit is asked for by a later run; a
model that is down or silent stops the asking. Whatever is missing leaves the deterministic
report exactly as it is without a model: a model may only add.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.model.report import CommentRecord, Prose, Report
from bot.prose.client import Answer, LLMConfig, ModelClient, ProseError, estimate_tokens
from bot.prose.inputs import Unit, day_unit, discussion_units, item_units
from bot.prose.prompts import fields, system_prompt
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
        stop: threading.Event | None = None,
    ) -> None:
        self.config = config
        self.cache = cache
        self.vendor_names = dict(vendor_names or {})
        self.clock = clock
        self.client = ModelClient(config)
        self.stop = stop  # once set (the process is stopping), nothing more is asked
        # Told the reason of each part not had (`ProseError.reason`, "token_budget"): the
        # operator's metrics count them; readers are never told.
        self.listeners: list[Callable[[str], None]] = []

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
        units = [
            *item_units(report, lang),
            *discussion_units(report, threads or {}),
            day_unit(report, lang),
        ]
        answers: dict[tuple[str, int], dict[str, Any]] = {}
        for unit in units:
            found = self._answer(unit, lang, run, ask)
            if found is not None:
                answers[(unit.section, unit.number)] = found
        if not answers:
            return None, _note(run)
        return self._checked(report, lang, units, answers, run), _note(run)

    # -- asking ---------------------------------------------------------------------------

    def _answer(self, unit: Unit, lang: str, run: _Run, ask: bool) -> dict[str, Any] | None:
        """One unit's answer: from the cache, else asked for (within time and tokens)."""
        key = unit.key(lang, self.config.model)
        cached = self.cache.get(key) if self.cache else None
        if cached is not None:
            run.cached += 1
            return cached
        if not ask or run.down or (self.stop is not None and self.stop.is_set()):
            return None
        cost = estimate_tokens([system_prompt(unit.section, lang, _has_reason(unit)), unit.facts])
        if cost + self.config.max_tokens > run.tokens_left:
            run.problems.append(f"{unit.section} #{unit.number}: left out by the token budget")
            self._tell("token_budget")
            return None
        try:
            answer = self._ask(unit, lang, run)
        except ProseError as exc:
            log.warning("model prose for %s #%d skipped: %s", unit.section, unit.number, exc)
            run.problems.append(f"{unit.section} #{unit.number}: {exc}")
            run.down = run.down or exc.down
            self._tell(exc.reason)
            return None
        value = _shaped(fields(unit.section, lang, _has_reason(unit)), answer.value)
        if self.cache is not None:
            # An answer is cached whatever it says: asked again with the same input it would
            # say the same, and the next report would pay for it each time.
            self.cache.put(key, self.config.model, value)
        return value

    def _ask(self, unit: Unit, lang: str, run: _Run) -> Answer:
        tries = self.config.retries + 1
        while True:
            left = run.deadline - self.clock()
            if left < MIN_CALL_SECONDS:
                run.down = True
                raise ProseError(
                    f"no time left of the {self.config.timeout:.0f} s allowed", reason="no_time"
                )
            run.calls += 1
            try:
                answer = self.client.ask(
                    unit.section, lang, unit.facts, timeout=left, reason=_has_reason(unit)
                )
            except ProseError as exc:
                tries -= 1
                if exc.down or exc.final or tries <= 0:
                    raise
                continue
            # What the server counted, never less than our own count of what was sent.
            sent = max(
                answer.sent_tokens, estimate_tokens([system_prompt(unit.section, lang), unit.facts])
            )
            run.tokens += answer.sent_tokens
            run.tokens_left -= sent + answer.answer_tokens
            return answer

    def _tell(self, reason: str) -> None:
        for listener in list(self.listeners):
            try:
                listener(reason)
            except Exception:  # a metric not counted must not cost the report
                log.debug("a prose listener failed", exc_info=True)

    # -- checking -------------------------------------------------------------------------

    def _checked(
        self,
        report: Report,
        lang: str,
        units: Sequence[Unit],
        answers: Mapping[tuple[str, int], dict[str, Any]],
        run: _Run,
    ) -> Prose:
        vetter = Vetter(report, self.vendor_names)
        kept = 0
        rejected: list[tuple[str, str]] = []
        notes: dict[int, str] = {}
        parts: dict[int, dict[str, str]] = {}
        threads: dict[int, str] = {}
        summary = ""
        for unit in units:
            value = answers.get((unit.section, unit.number))
            if value is None:
                continue
            vetted = vetter.vet(value, unit, lang)
            kept += vetted.kept
            rejected += vetted.rejected
            if not vetted.text:
                continue
            if unit.section == "item":
                notes[unit.number] = vetted.text
                parts[unit.number] = {
                    k: _unnumbered(v, unit.number) for k, v in vetted.parts.items()
                }
            elif unit.section == "thread":
                threads[unit.number] = vetted.text
            else:
                summary = vetted.text
        return Prose(
            model=self.config.model,
            summary={lang: summary} if summary else {},
            notes=notes,
            parts=parts,
            dropped=len(rejected),
            discussions=threads,
            kept=kept,
            rejected=tuple(rejected),
            calls=run.calls,
            cached=run.cached,
            tokens=run.tokens,
        )


def _shaped(asked: tuple[str, ...], value: dict[str, Any]) -> dict[str, Any]:
    """The answer's parts the prompt asked for, as given (a part that is not text stays, so
    the check can say so); empty parts, and parts not asked for, left out."""
    return {name: value[name] for name in asked if name in value and value[name] != ""}


def _unnumbered(text: str, number: int) -> str:
    """A part said in the place of a quote, without the "#N" it was asked to start with
    (the head line names the item)."""
    return re.sub(rf"^\s*#{number}\b\s*[:：,，]?\s*", "", text)


def _has_reason(unit: Unit) -> bool:
    """Whether the unit's item states a reason (a Chinese item without one is asked for its
    translation alone)."""
    return unit.section != "item" or bool(unit.facts.get("reason"))


def _note(run: _Run) -> str | None:
    """The operator's reason when prose was incomplete (the log and /metrics carry it)."""
    if not run.problems:
        return None
    return "model text incomplete (" + "; ".join(run.problems[:5]) + ")"
