"""The two kinds of failure a person is told about, each in one sentence they can act on.

`InputError`: what was typed or configured is wrong (exit status 2; the message says what
to type instead). `ServiceError`: something we depend on failed (GitHub, the database, a
chat platform; exit status 1; the message says what failed and what to do). Every module
raises a subclass of one of these, so the command line needs no knowledge of the others
(and imports none of them) to give the right status.
"""

from __future__ import annotations


class InputError(Exception):
    """The command, a setting or a file the user gave is wrong: exit status 2."""

    exit_status = 2


class ServiceError(Exception):
    """A service we depend on failed: exit status 1."""

    exit_status = 1
