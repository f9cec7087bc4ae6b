"""When the repository's releases came out: read when someone asks for a window from one
(`since v0.33.0`, `since last release`, `v0.32.0..v0.33.0`), archived by bot.store.releases.

A release's moment is when GitHub says it was published. A tag with no GitHub release (or an
older one past the pages read) is dated by its commit, one request more."""

from __future__ import annotations

from datetime import UTC, datetime

from github import GithubException

from bot.collect.client import PER_PAGE, Collector
from bot.collect.source import CollectError
from bot.model.windows import Release

# vLLM publishes about two releases a month, with release candidates between: three pages
# (300 releases) reach back years, and one page is what a newest-release question costs.
RELEASE_PAGES = 3


def published(github: Collector, pages: int = RELEASE_PAGES) -> list[tuple[Release, bool]]:
    """The repository's published releases, newest first, each with whether it is a
    pre-release (drafts are no release: their time is not a publication)."""
    found: list[tuple[Release, bool]] = []
    with github.rest() as api:
        listed = api.get_repo(github.source.repo).get_releases()
        for page in range(pages):
            batch = listed.get_page(page)
            for release in batch:
                if release.published_at is None:  # a draft: never published
                    continue
                at = _aware(release.published_at)
                found.append((Release(release.tag_name, at), bool(release.prerelease)))
            if len(batch) < PER_PAGE:
                break
    return found


def tagged(github: Collector, tag: str) -> Release | None:
    """A tag's commit time (a tag with no published release); None when there is no such
    tag (GitHub answers 404 or 422 for a ref it does not know)."""
    try:
        with github.rest() as api:
            commit = api.get_repo(github.source.repo).get_commit(tag)
            return Release(tag, _aware(commit.commit.committer.date))
    except CollectError as exc:
        cause = exc.__cause__
        if isinstance(cause, GithubException) and cause.status in (404, 422):
            return None
        raise


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
