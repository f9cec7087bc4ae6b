"""Whether a GitHub login or a repository's label exists: asked when someone subscribes
(`author:`, `label:`) or links a login (`/vllm-me`), one request each."""

from __future__ import annotations

from github import GithubException

from bot.collect.client import Collector
from bot.collect.source import CollectError


def user_exists(github: Collector, login: str) -> bool:
    """Whether GitHub knows `login` (one request)."""
    try:
        with github.rest() as api:
            return bool(api.get_user(login).login)
    except CollectError as exc:
        if isinstance(exc.__cause__, GithubException) and exc.__cause__.status == 404:
            return False
        raise


def label_names(github: Collector) -> list[str]:
    """The repository's labels (one request per 100)."""
    with github.rest() as api:
        return [label.name for label in api.get_repo(github.source.repo).get_labels()]
