"""The two kinds of failure a person is told about, each in one sentence they can act on,
and the one place that keeps every secret out of what they are told.

`InputError`: what was typed or configured is wrong (exit status 2; the message says what
to type instead). `ServiceError`: something we depend on failed (GitHub, the database, a
chat platform; exit status 1; the message says what failed and what to do). Every module
raises a subclass of one of these, so the command line needs no knowledge of the others
(and imports none of them) to give the right status.

Secrets: the settings, once read, hand every secret they hold to `hide_secrets`. From then
on the text of every `InputError` and `ServiceError` is `masked` — each secret replaced by
`***` — wherever it goes (the command line's sentence, a `doctor` line, a log line, the
reason `/healthz` gives, a chat answer), so a library that echoes a header value in its
error ("Invalid header value b'token …\\n'") can never leak one; the few places that turn
other text into a sentence (`doctor`'s lines, the health reason, the log filter) call
`masked` themselves. A secret is hidden in every form a message may carry it: as set, without
the whitespace around it, escaped as Python's `repr` or JSON writes it, and URL-encoded; a
long one also when cut short (a library that truncates its message keeps a prefix of it).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from urllib.parse import quote, quote_plus

MASK = "***"
MIN_SECRET = 4  # shorter values would mask ordinary words; no real secret is this short
# A longer secret is hidden also when only its first PREFIX characters (or more) are shown:
# what a message cut short keeps of it. Long enough that no word a password begins with
# ("postgres…") masks ordinary text.
PREFIX = 16

# Every form of every secret of the settings in use, longest first (see `hide_secrets`).
_HIDDEN: list[str] = []


class _Told(Exception):
    """An exception whose text is told to a person: never with a secret in it."""

    def __str__(self) -> str:
        return masked(super().__str__())


class InputError(_Told):
    """The command, a setting or a file the user gave is wrong: exit status 2."""

    exit_status = 2


class ServiceError(_Told):
    """A service we depend on failed: exit status 1."""

    exit_status = 1


def secret_forms(secrets: Iterable[str]) -> list[str]:
    """Each secret in every form a message may show it, longest first (short ones dropped)."""
    forms: set[str] = set()
    for secret in secrets:
        for value in {secret, secret.strip()}:
            forms |= {
                value,
                repr(value)[1:-1],
                json.dumps(value)[1:-1],
                quote(value, safe=""),
                quote_plus(value, safe=""),
            }
    return sorted((f for f in forms if len(f) >= MIN_SECRET), key=len, reverse=True)


def hide_secrets(secrets: Iterable[str]) -> None:
    """The secrets of the settings in use: `masked` hides them from now on (replacing those
    of settings read before in this process)."""
    _HIDDEN[:] = secret_forms(secrets)


def masked(text: str, also: Iterable[str] = ()) -> str:
    """`text` with every secret handed to `hide_secrets` (and every form in `also`, from
    `secret_forms`) replaced by `***`."""
    for form in sorted({*_HIDDEN, *also}, key=len, reverse=True):
        text = _hide(text, form)
    return text


def _hide(text: str, secret: str) -> str:
    if len(secret) <= PREFIX:
        return text.replace(secret, MASK)
    parts: list[str] = []
    start = 0
    while (found := text.find(secret[:PREFIX], start)) >= 0:
        end = found + PREFIX  # as far as the text goes on as the secret does
        while end < len(text) and end - found < len(secret) and text[end] == secret[end - found]:
            end += 1
        parts += [text[start:found], MASK]
        start = end
    return "".join([*parts, text[start:]])
