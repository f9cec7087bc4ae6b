"""PyGithub at the wire: every request checked before PyGithub reads it (a stop asked for,
a time limit spent, an answer that is not GitHub's JSON), each answer hung up on when it is
not whole by its deadline (`deadline.py`), and the retry policy that remembers the last
failed answer so the final sentence can say why."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable
from typing import Any

from github import Github, GithubRetry

from bot.collect import deadline
from bot.collect.failures import NotGitHub
from bot.collect.source import GitHubSource, Stopped

# The request being sent on this thread: its HangUp, armed once the headers are in.
_sending = threading.local()


def guard(github: Github, source: GitHubSource) -> None:
    """Every request of `github` checked at the wire: none is sent once `source.stop` is
    set (Stopped), and a success (or a 404) that is not JSON raises NotGitHub before
    PyGithub reads it. Each answer must be whole by its deadline (`deadline.answer_by`):
    past it the socket is shut and the request fails with OutOfTime; none is sent once the
    time limit in force is spent. (PyGithub has no hook for any of this: its requester's
    one sending method is wrapped, and each connection it opens gets a response hook;
    every object it makes shares that requester.)"""
    requester = github.requester
    send: Callable[..., tuple[int, dict[str, Any], str]] = requester.requestJson
    where = f"GitHub at {source.api_url}"
    _hook_connections(requester)

    def checked(*args: Any, **kwargs: Any) -> tuple[int, dict[str, Any], str]:
        if source.stop is not None and source.stop.is_set():
            raise Stopped
        deadline.check(where)
        at, late = deadline.answer_by(where)
        hang_up = _sending.hang_up = deadline.HangUp(at)
        try:
            status, headers, output = send(*args, **kwargs)
        except Exception:
            if hang_up.fired:
                raise deadline.OutOfTime(late) from None
            raise
        finally:
            hang_up.cancel()
            _sending.hang_up = None
        if hang_up.fired:
            raise deadline.OutOfTime(late)
        # GitHub's API answers in JSON, its 404 too; a page's 5xx may be GitHub's own (its
        # "Unicorn!" page) and is retried and told as such.
        if (status < 400 or status == 404) and output:
            kind = next((str(v) for k, v in headers.items() if k.lower() == "content-type"), "")
            if "json" not in kind.lower() and not _is_json(output):
                raise NotGitHub(status, kind.split(";")[0].strip())
        return status, headers, output

    setattr(requester, "requestJson", checked)  # noqa: B010  (an instance's, not the class's)


def _hook_connections(requester: Any) -> None:
    """Each connection PyGithub opens gets `_arm` as a response hook: requests calls it once
    the headers are in and before it reads the body, the read a trickling server holds."""
    name = "_Requester__connectionClass"  # PyGithub's own, name-mangled
    make = getattr(requester, name)

    def hooked(*args: Any, **kwargs: Any) -> Any:
        connection = make(*args, **kwargs)
        connection.session.hooks["response"].append(_arm)
        return connection

    setattr(requester, name, hooked)


def _arm(response: Any, *args: Any, **kwargs: Any) -> Any:
    hang_up: deadline.HangUp | None = getattr(_sending, "hang_up", None)
    fp = getattr(getattr(response.raw, "_fp", None), "fp", None)  # http.client's reader
    sock = getattr(getattr(fp, "raw", None), "_sock", None)
    if hang_up is not None and isinstance(sock, socket.socket):
        hang_up.arm(sock)
    return response


def _is_json(text: str | bytes) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


class Retry(GithubRetry):
    """GithubRetry that remembers the last failed answer's status and headers, so the final
    sentence can say a rate limit is used up and when it resets (urllib3 keeps only
    "too many 403 error responses")."""

    def __init__(self, *, last: list[Any] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.last: list[Any] = last if last is not None else [None]

    def new(self, **kwargs: Any) -> Retry:
        retry = super().new(**kwargs)
        retry.last = self.last  # one record shared by every copy urllib3 makes
        return retry

    def increment(self, *args: Any, **kwargs: Any) -> Any:
        response = kwargs.get("response") or (args[2] if len(args) > 2 else None)
        if response is not None:
            self.last[0] = (response.status, {k.lower(): v for k, v in response.headers.items()})
        return super().increment(*args, **kwargs)
