"""Is GitHub there, how much of the rate limit is left, does the repository exist?

Two requests: `GET /rate_limit` (which GitHub does not count against the limit) and
`GET /repos/{owner}/{name}` (one request). Used by `doctor`, and by
the command line when a window came back empty or failed, to tell "no such repository" (or
"no such issue") from a quiet day. PyGithub is imported here only when a probe runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from bot.collect.source import GitHubSource


@dataclass(frozen=True)
class Reach:
    """What GitHub answered: `problem` is one sentence when it could not be reached."""

    problem: str | None = None
    repo_exists: bool | None = None  # None: not known (GitHub unreachable)
    remaining: int | None = None
    limit: int | None = None
    reset: datetime | None = None


def probe(source: GitHubSource, *, rate_limit: bool = True) -> Reach:
    from github import Auth, Github, GithubException, UnknownObjectException

    from bot.collect.failures import describe_failure, not_githubs_json
    from bot.collect.wire import guard

    github = Github(
        auth=Auth.Token(source.token) if source.token else None,
        base_url=source.api_url,
        timeout=int(max(1, source.timeout)),
        retry=None,  # a probe says what it sees now; the collector is the one that retries
        lazy=False,  # get_repo asks GitHub
    )
    guard(github, source)
    remaining = limit = None
    reset = None
    try:
        if rate_limit:
            overview = github.get_rate_limit()
            if overview.resources is None:  # JSON without GitHub's fields
                return Reach(problem=not_githubs_json(source))
            core = overview.resources.core
            remaining, limit = core.remaining, core.limit
            reset = core.reset.astimezone(UTC) if core.reset else None
        try:
            github.get_repo(source.repo)
            exists = True
        except UnknownObjectException:
            exists = False
    except Exception as exc:
        message = describe_failure(exc, source)
        if message is None and not isinstance(exc, GithubException):
            raise
        return Reach(problem=message or str(exc), remaining=remaining, limit=limit, reset=reset)
    finally:
        github.close()
    return Reach(None, exists, remaining, limit, reset)
