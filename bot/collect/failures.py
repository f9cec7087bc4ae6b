"""GitHub's failures said in one sentence a person can act on (bot.collect.client raises
them as CollectError): no such repository, a refused or expired token, the rate limit and
when it resets, a URL that does not answer like GitHub's API, GitHub's own reason for a
422, a network failure. Tokens never appear: URLs are shown without credentials."""

from __future__ import annotations

import os
import traceback
from datetime import UTC, datetime
from typing import Any

import requests
from github import GithubException, RateLimitExceededException

from bot.collect.source import GitHubSource


class NotGitHub(Exception):
    """An answer GitHub's API never gives: a success or a 404 whose body is not JSON (a
    sign-in or captive portal's page, a GitHub Enterprise address without /api/v3). PyGithub would
    read it as an object and fail somewhere inside with a TypeError."""

    def __init__(self, status: int, content_type: str) -> None:
        super().__init__(f"{status} {content_type}")
        self.status = status
        self.content_type = content_type


def _not_github(exc: NotGitHub, where: str) -> str:
    what = (
        "an HTML page"
        if "html" in exc.content_type
        else f"'{exc.content_type}'"
        if exc.content_type
        else "a body that is not JSON"
    )
    return (
        f"GITHUB_API_URL ({where}) does not answer like GitHub's API: it answered {what}, "
        "not JSON (a sign-in page?); set it to https://api.github.com, or to "
        "https://HOST/api/v3 for GitHub Enterprise Server"
    )


def not_githubs_json(source: GitHubSource) -> str:
    return (
        f"GITHUB_API_URL ({_shown(source.api_url)}) does not answer like GitHub's API: it "
        "answered JSON that is not GitHub's (another service?); set it to "
        "https://api.github.com, or to https://HOST/api/v3 for GitHub Enterprise Server"
    )


def _refused(exc: GithubException, repo: str) -> str:
    detail = _said(exc.data)
    if exc.status == 401:
        return "GitHub refused the token (401 Bad credentials): check GITHUB_TOKEN"
    if exc.status == 404:
        return f"GitHub has no repository '{repo}' (or the token cannot see it)"
    if exc.status == 422:
        return f"GitHub rejected the query for '{repo}' (422): {detail}"
    return f"GitHub answered {exc.status}: {detail}"


def describe_failure(
    exc: BaseException,
    source: GitHubSource,
    last: tuple[int, dict[str, str]] | None = None,
) -> str | None:
    """A sentence for a GitHub failure, or None when `exc` is not one (a bug: let it show).

    `last`: the status and headers of the last failed answer, when retries ran out.
    """
    where = _shown(source.api_url)
    hint = "" if source.token else "; set GITHUB_TOKEN for a higher limit"
    if isinstance(exc, NotGitHub):
        return _not_github(exc, where)
    if isinstance(exc, (AttributeError, KeyError, TypeError, ValueError)) and _in_pygithub(exc):
        # JSON, but not GitHub's (another service's status page, a proxy's error): PyGithub
        # reads it as a repository or a rate limit and fails inside on a missing field.
        return not_githubs_json(source)
    if isinstance(exc, RateLimitExceededException):
        reset = _reset_time(exc.headers)
        when = (
            f"it resets at {reset:%Y-%m-%d %H:%M} UTC"
            if reset
            else "GitHub did not say when it resets"
        )
        return (
            f"GitHub's rate limit is used up ({when}), longer than the "
            f"{source.max_rate_limit_wait:.0f} s we may wait{hint}. Try again after the reset."
        )
    if isinstance(exc, GithubException):
        return _refused(exc, source.repo)
    if isinstance(exc, requests.exceptions.RetryError) and last and last[0] in (403, 429):
        status, headers = last
        if headers.get("x-ratelimit-remaining") == "0":
            reset = _reset_time(headers)
            when = f"it resets at {reset:%Y-%m-%d %H:%M} UTC" if reset else "no reset time given"
            return (
                f"GitHub's rate limit is used up ({when}) and stayed so after "
                f"{source.retries} retries{hint}. Try again after the reset."
            )
        wait = headers.get("retry-after")
        asked = f", last asking to wait {wait} s" if wait else ""
        return (
            f"GitHub's secondary rate limit kept refusing requests ({status}) after "
            f"{source.retries} retries{asked}; try again in a few minutes"
        )
    if isinstance(exc, requests.exceptions.RetryError):
        return (
            f"GitHub at {where} kept failing after {source.retries} retries "
            f"({_reason(exc)}); try again later"
        )
    if isinstance(exc, requests.exceptions.Timeout):
        return f"GitHub at {where} did not answer within {source.timeout:.0f} s; try again later"
    if isinstance(exc, requests.exceptions.ConnectionError):
        return (
            f"cannot reach GitHub at {where} ({_reason(exc)}); check the network or GITHUB_API_URL"
        )
    if isinstance(exc, requests.exceptions.RequestException):
        return f"request to GitHub at {where} failed: {_reason(exc)}"
    return None


def _in_pygithub(exc: BaseException) -> bool:
    """Whether `exc` was raised while PyGithub read an answer (its frames are the
    `github` package's), not by our own code."""
    frames = traceback.extract_tb(exc.__traceback__)
    return bool(frames) and f"{os.sep}github{os.sep}" in frames[-1].filename


def _said(data: Any) -> str:
    """What GitHub said in an error's body: its `message` and each of its `errors` (a 422's
    reason is there: "Validation Failed" alone tells nothing)."""
    if not isinstance(data, dict):
        return str(data)[:300] if data else "no reason given"
    if set(data) <= {"data", "url"} and isinstance(data.get("data"), str):
        return "an answer that is not JSON"  # PyGithub's wrapping of a page
    said = [str(data["message"])] if data.get("message") else []
    errors = data.get("errors")
    for error in errors if isinstance(errors, list) else []:
        if isinstance(error, dict):
            text = error.get("message") or " ".join(
                str(error[k]) for k in ("resource", "field", "code") if error.get(k)
            )
        else:
            text = str(error)
        if text and text not in said:
            said.append(str(text))
    return ": ".join(said)[:500] if said else "no reason given"


def _shown(url: str) -> str:
    """A URL as told: without a user or password in it."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))


def _reason(exc: BaseException) -> str:
    inner: BaseException | None = exc
    while inner is not None and inner.args and isinstance(inner.args[0], BaseException):
        inner = inner.args[0]
    reason = getattr(inner, "reason", None)
    text = str(reason or inner or exc)
    return text.split(": ", 1)[-1][:200]


def _reset_time(headers: Any) -> datetime | None:
    if not headers:
        return None
    lowered = {str(k).lower(): v for k, v in dict(headers).items()}
    value = lowered.get("x-ratelimit-reset")
    try:
        return datetime.fromtimestamp(int(value), UTC) if value is not None else None
    except (TypeError, ValueError):
        return None
