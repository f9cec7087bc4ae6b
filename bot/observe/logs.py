"""Log lines: one per event, as text for people or JSON for log shippers; no secret ever.

`setup_logging` is called once per process. Its handler carries a filter that replaces every
secret value the settings hold with `***` (a safety net: no code logs a secret on purpose,
and the text of our own errors is masked already; a library's line may still echo one),
and each record is masked as it is made, so another handler gets it clean too;
and third-party chatter (APScheduler's "Running job", discord.py's gateway lines, the model
client's request lines) is kept at WARNING unless `-v` asks for it.

`event(log, "post", "posted %s: …", label, sent=3)` logs one line whose JSON form carries the
event's name and its fields as keys.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sys
import threading
import weakref
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, TextIO

from bot.model.errors import masked, secret_forms

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# Libraries that log routine work at INFO; a person running `serve` wants the bot's events.
CHATTY = (
    "apscheduler",
    "discord",
    "slack_bolt",
    "slack_sdk",
    "aiohttp",
    "urllib3",
    "github",
    "httpx",
    "openai",
    "asyncio",
)
# The bot's own detail lines (each archive lookup, each store write, the site builder's
# summary): the events of bot.service.daily say the same in one line; -v shows them.
DETAIL = ("bot.collect", "bot.service.site")
_FIELDS = "fields"
_OURS = "vllm_report_handler"
_EVENT = "event"


class SecretFilter(logging.Filter):
    """Replace each known secret in a record's message, fields and traceback with `***`:
    the secrets handed to it and those of the settings in use (`bot.model.errors.masked`),
    in every form a message may carry them (stripped, escaped, URL-encoded, cut short)."""

    def __init__(self, secrets: Sequence[str]) -> None:
        super().__init__()
        self.given: set[str] = set()
        self.secrets: list[str] = []
        self.add(secrets)

    def add(self, secrets: Sequence[str]) -> None:
        self.given |= {s for s in secrets if s}
        self.secrets = secret_forms(self.given)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = self._clean(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self._clean(record.exc_text)
        if record.stack_info:
            record.stack_info = self._clean(record.stack_info)
        fields = getattr(record, _FIELDS, None)
        if isinstance(fields, dict):
            setattr(record, _FIELDS, {k: self._clean_value(v) for k, v in fields.items()})
        return True

    def _clean(self, text: str) -> str:
        return masked(text, self.secrets)

    def _clean_value(self, value: Any) -> Any:
        return self._clean(value) if isinstance(value, str) else value


class _MaskedRecords:
    """The log record factory: each record is masked as it is made (the secrets of the
    settings in use), so every handler — ours, a test runner's, an error tracker's — gets it
    clean, whichever comes first. The handler's SecretFilter masks the event's fields (set
    after the record is made) and its own secrets on top."""

    def __init__(self, make: Callable[..., logging.LogRecord]) -> None:
        self.make = make
        self.mask = SecretFilter(())

    def __call__(self, *args: Any, **kwargs: Any) -> logging.LogRecord:
        record = self.make(*args, **kwargs)
        # A message that cannot be formatted is left for the handler to report, as before.
        with contextlib.suppress(Exception):
            self.mask.filter(record)
        return record


class _KnownNoise(logging.Filter):
    """Drop warnings libraries give about how they are used, not about anything going wrong:
    Bolt warns that the client we hand it (with its retry handlers) carries the token."""

    NOISE = (("slack_bolt", "As you gave `client` as well"),)

    def filter(self, record: logging.LogRecord) -> bool:
        return not any(
            record.name.startswith(name) and str(record.msg).startswith(start)
            for name, start in self.NOISE
        )


# Threads whose lines are no longer told: steps left running when the process stopped.
_HUSHED: weakref.WeakSet[threading.Thread] = weakref.WeakSet()


def hush(threads: Iterable[threading.Thread]) -> None:
    """Tell nothing more from `threads`: the steps a stopping process leaves behind (a GitHub
    request, a model's answer) end with it, and their lines would come after "stopped"."""
    _HUSHED.update(threads)


class _LeftBehind(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return threading.current_thread() not in _HUSHED


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, and the event's fields."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        name = getattr(record, _EVENT, None)
        if name:
            line[_EVENT] = name
        fields = getattr(record, _FIELDS, None)
        if isinstance(fields, dict):
            line.update({k: v for k, v in fields.items() if k not in line})
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["traceback"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str)


def setup_logging(
    verbosity: int,
    fmt: str = "text",
    secrets: Sequence[str] = (),
    *,
    floor: int = logging.WARNING,
    stream: TextIO | None = None,
) -> logging.Handler:
    """Send log lines to stderr: `floor` and above by default (INFO for `serve`), more with
    -v (every library's INFO) and -vv (DEBUG). Replaces any handler set up before."""
    level = (floor, min(floor, logging.INFO), logging.DEBUG)[min(verbosity, 2)]
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    handler.addFilter(SecretFilter(secrets))
    handler.addFilter(_LeftBehind())
    if verbosity == 0:
        handler.addFilter(_KnownNoise())
    setattr(handler, _OURS, True)
    if not isinstance(logging.getLogRecordFactory(), _MaskedRecords):
        logging.setLogRecordFactory(_MaskedRecords(logging.getLogRecordFactory()))
    root = logging.getLogger()
    for old in list(root.handlers):
        if getattr(old, _OURS, False):  # others' handlers (a test runner's) stay
            root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    # A library's warning (warnings.warn) becomes one log line in the bot's format, not raw
    # text on stderr between JSON lines; Python shows each warning once per place.
    logging.captureWarnings(True)
    for name in CHATTY + DETAIL:
        logging.getLogger(name).setLevel(logging.WARNING if verbosity == 0 else logging.NOTSET)
    if verbosity == 0:
        # urllib3 logs each retry as a WARNING; the final sentence is what a person needs.
        logging.getLogger("urllib3").setLevel(logging.ERROR)
    return handler


def guard_secrets(secrets: Sequence[str]) -> None:
    """Add secret values (known once the settings are read) to every handler's filter."""
    for handler in logging.getLogger().handlers:
        for found in handler.filters:
            if isinstance(found, SecretFilter):
                found.add(secrets)


def event(log: logging.Logger, name: str, message: str, *args: Any, **fields: Any) -> None:
    """One INFO line for an event; `fields` become keys of its JSON form."""
    log.info(message, *args, extra={_EVENT: name, _FIELDS: fields})


def problem(log: logging.Logger, name: str, message: str, *args: Any, **fields: Any) -> None:
    """One WARNING line for a failure: the message says what failed and what to do."""
    log.warning(message, *args, extra={_EVENT: name, _FIELDS: fields})
