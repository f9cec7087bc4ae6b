"""The PyGithub boundary: GitHub REST → our frozen `ActivityItem`s.

Two ways in, both cheap:
- a past window is fetched with the search API, four queries (issues/PRs × created/closed)
  with explicit UTC times; `closed:` also finds merges, and `merged_at` comes from each
  result's `pull_request` object, so no PR is fetched one by one;
- the live window uses `GET /repos/{repo}/issues?since=…&state=all`, which returns every
  issue and PR updated since a cursor.

Only this module imports `github` (and only when a collection is needed: a window the
archive answers never imports it). PyGithub completes a lazy object with one request per
item when an attribute missing from the payload is read (`raw_data` included), so
`_to_item` reads only fields GitHub sends in list and search payloads.
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from github import Auth, Github, GithubException
from github.Issue import Issue
from github.PullRequest import PullRequest

from bot.collect.failures import NotGitHub, describe_failure
from bot.collect.pull_details import (
    DETAILS_NODE,
    DETAILS_PER_QUERY,
    aware,
    details,
    has_all_reviews,
    pull_facts,
)
from bot.collect.source import Collected, CollectError, GitHubSource, Listed
from bot.collect.wire import Retry, guard
from bot.model.report import COMMENT_CHARS, ActivityItem, CommentRecord, PullDetails

log = logging.getLogger(__name__)

# PyGithub gives its logger a handler of its own at INFO on import (each retry printed, and
# twice over with ours): its lines go through the application's logging instead, so the
# verbosity asked for (-v) decides.
_GITHUB_LOG = logging.getLogger("github")
for _handler in list(_GITHUB_LOG.handlers):
    _GITHUB_LOG.removeHandler(_handler)
_GITHUB_LOG.setLevel(logging.NOTSET)

SEARCH_CAP = 1000  # GitHub search returns at most this many results per query
PER_PAGE = 100  # the API's maximum page size
RETRY_STATUSES = (429, 500, 502, 503, 504)  # GithubRetry adds 403 (rate limits) itself
# Past the cap, a range is cut into this many more parts than the total strictly needs, so
# an uneven day rarely leaves one part over the cap (which would be split again).
SPLIT_MARGIN = 1.25
__all__ = [
    "CollectError",
    "Collected",
    "Collector",
    "GitHubSource",
    "Listed",
    "NotGitHub",
    "describe_failure",
]


class Collector:
    """Fetches issues and PRs of one repository; never hands out a PyGithub object."""

    def __init__(self, source: GitHubSource) -> None:
        self.source = source
        retry = Retry(
            total=source.retries,
            # A host that does not resolve or refuses connections rarely recovers in seconds:
            # one more try, then say so, instead of half a minute of backoff.
            connect=min(source.retries, 1),
            backoff_factor=source.backoff,
            status_forcelist=list(RETRY_STATUSES),
            secondary_rate_wait=source.secondary_rate_wait,
            max_rate_limit_wait=source.max_rate_limit_wait,
            respect_retry_after_header=True,
        )
        self._retry = retry
        self._github = Github(
            auth=Auth.Token(source.token) if source.token else None,
            base_url=source.api_url,
            per_page=PER_PAGE,
            timeout=int(max(1, source.timeout)),
            retry=retry,
            seconds_between_requests=source.request_interval,
            # Our only POSTs are GraphQL reads (the review queue), not the writes PyGithub's
            # one-second default paces.
            seconds_between_writes=source.request_interval,
            lazy=True,  # get_repo() must not cost a request
        )
        guard(self._github, source)

    def close(self) -> None:
        self._github.close()

    # -- past windows: search ----------------------------------------------------------

    def search_span(self, start: datetime, end: datetime) -> Collected:
        """Every issue and PR created or closed in `[start, end)`, by four searches."""
        result = Collected()
        for kind in ("issue", "pr"):
            for event in ("created", "closed"):
                self._search(kind, event, start, end - timedelta(seconds=1), result)
        return result

    def _search(
        self, kind: str, event: str, first: datetime, last: datetime, result: Collected
    ) -> None:
        """Search `[first, last]` (GitHub ranges include both ends); split past the cap.

        The first page tells the total. Past the cap, the range is cut at once into enough
        equal parts for each to fit (with a margin), each searched on its own; a part that
        still passes the cap is cut again. Halving instead would pay one wasted first page
        per level of halving.
        """
        query = f"repo:{self.source.repo} is:{kind} {event}:{_utc(first)}..{_utc(last)}"
        found: list[ActivityItem] = []
        incomplete = False
        with self._translate_errors():
            pages = self._github.search_issues(query, sort="created", order="asc")
            for index, obj in enumerate(pages):
                if index == 0 and pages.totalCount > SEARCH_CAP:
                    break  # split below; the first page told us the total
                # GitHub flags each page: PyGithub keeps the flag of the page last read, so
                # it is read at every item, or an incomplete first page hides behind the last.
                incomplete = incomplete or bool(pages.incomplete_results)
                found.append(self._to_item(obj))
            total = pages.totalCount
            incomplete = incomplete or bool(pages.incomplete_results)

        if total > SEARCH_CAP:
            seconds = int((last - first).total_seconds()) + 1
            parts = min(seconds, math.ceil(total / SEARCH_CAP * SPLIT_MARGIN))
            if parts < 2:
                result.complete = False
                result.notes.append(
                    f"more than {SEARCH_CAP} {event} {kind}s at {_utc(first)}: only part listed"
                )
                result.add(found)
                return
            log.info("search for %s hit the cap (%d); %d parts", query, total, parts)
            for start, end in _cut(first, seconds, parts):
                self._search(kind, event, start, end, result)
            return
        if incomplete:
            result.complete = False
            result.notes.append(
                f"GitHub search timed out on {event} {kind}s ({len(found)} of {total} listed)"
            )
        result.add(found)

    # -- live window: incremental sync -------------------------------------------------

    def updated_since(self, since: datetime) -> Collected:
        """Every issue and PR updated at or after `since` (ascending, so none is skipped)."""
        result = Collected()
        with self._translate_errors():
            repo = self._github.get_repo(self.source.repo)
            # PyGithub formats `since` without its zone, so hand it UTC.
            listing = repo.get_issues(
                state="all", sort="updated", direction="asc", since=since.astimezone(UTC)
            )
            result.add(self._to_item(obj) for obj in listing)
        return result

    def fetch_item(self, number: int) -> ActivityItem:
        """One issue or PR by number (one request)."""
        with self._translate_errors():
            repo = self._github.get_repo(self.source.repo)
            issue = repo.get_issue(number)
            issue.complete()  # the one request; every attribute below is then set
            return self._to_item(issue)

    def find_item(self, number: int) -> ActivityItem | None:
        """One issue or PR by number (one request); None when GitHub has none by that number
        (404, or 410: deleted)."""
        try:
            return self.fetch_item(number)
        except CollectError as exc:
            if isinstance(exc.__cause__, GithubException) and exc.__cause__.status in (404, 410):
                return None
            raise

    def pulls_of_commit(self, sha: str) -> list[ActivityItem] | None:
        """The pull requests GitHub associates with commit `sha` (one request: the merged PR
        that brought it to the default branch, else the open PRs that carry it); None when
        GitHub knows no such commit (422 "No commit found for SHA", or 404)."""
        try:
            with self._translate_errors():
                repo = self._github.get_repo(self.source.repo)
                # Both lazy: the listing below is the one request.
                return [self._pull_to_item(pull) for pull in repo.get_commit(sha).get_pulls()]
        except CollectError as exc:
            if isinstance(exc.__cause__, GithubException) and exc.__cause__.status in (404, 422):
                return None
            raise

    def pulls_details(self, wanted: Sequence[tuple[int, str | None]]) -> list[PullDetails]:
        """Lines, files and reviewers of these PRs (number, author): with a token, one GraphQL
        request per DETAILS_PER_QUERY of them; without one (GitHub answers GraphQL only with
        a token), two REST requests each."""
        if not self.source.token:
            return [self.pull_details(number, author) for number, author in wanted]
        owner, name = self.source.repo.split("/", 1)
        found = []
        for start in range(0, len(wanted), DETAILS_PER_QUERY):
            chunk = wanted[start : start + DETAILS_PER_QUERY]
            reads = " ".join(
                f"p{number}: issueOrPullRequest(number: {number}) {{ {DETAILS_NODE} }}"
                for number, _ in chunk
            )
            query = (
                "query Details($owner: String!, $name: String!) "
                f"{{ repository(owner: $owner, name: $name) {{ {reads} }} }}"
            )
            try:
                data = self.graphql(query, {"owner": owner, "name": name}, "a query")
            except CollectError:  # e.g. a number GitHub no longer resolves: REST says which
                found += [self.pull_details(number, author) for number, author in chunk]
                continue
            nodes = data.get("repository") or {}
            for number, author in chunk:
                node = nodes.get(f"p{number}")
                if isinstance(node, dict) and "additions" in node and has_all_reviews(node):
                    found.append(details(number, author, node))
                else:  # not a PR by now, or over 100 reviews: as REST reads it
                    found.append(self.pull_details(number, author))
        return found

    def pull_details(self, number: int, author: str | None) -> PullDetails:
        """Lines, files and reviewers of one PR (two requests: the pull, its reviews)."""
        with self._translate_errors():
            repo = self._github.get_repo(self.source.repo)
            pull = repo.get_pull(number)  # lazy: the raw_data read below is the request
            data = pull.raw_data
            reviews = [
                (r.user.login if r.user is not None else None, r.state, r.submitted_at)
                for r in pull.get_reviews()
            ]
        sizes = (data.get("additions"), data.get("deletions"), data.get("changed_files"))
        return pull_facts(number, author, sizes, reviews)

    # -- comment threads (hot discussions) ---------------------------------------------

    def comments_since(self, number: int, since: datetime) -> list[CommentRecord]:
        """The conversation comments on #number written or edited since `since`."""
        with self._translate_errors():
            repo = self._github.get_repo(self.source.repo)
            issue = repo.get_issue(number)  # lazy: no request until the comments listing
            return [
                CommentRecord(
                    repo=self.source.repo,
                    number=number,
                    comment_id=comment.id,
                    author=comment.user.login if comment.user is not None else None,
                    author_association=comment.author_association,
                    created_at=aware(comment.created_at),
                    body=(comment.body or "")[:COMMENT_CHARS],
                )
                for comment in issue.get_comments(since=since.astimezone(UTC))
            ]

    # -- the review queue: lists and GraphQL (bot/features/queue/collect.py builds the queries) --

    # -- a plugin's pin of upstream (the breakage radar) ------------------------------

    def file_text(self, path: str, ref: str) -> str | None:
        """A file of the repository at branch or commit `ref`; None when there is none."""
        try:
            with self._translate_errors():
                repo = self._github.get_repo(self.source.repo)
                content = repo.get_contents(path, ref=ref)
                if isinstance(content, list):  # a folder: not a pin
                    return None
                return content.decoded_content.decode("utf-8", errors="replace")
        except CollectError as exc:
            if isinstance(exc.__cause__, GithubException) and exc.__cause__.status == 404:
                return None
            raise

    def file_commits(
        self, path: str, ref: str, since: datetime | None, until: datetime
    ) -> list[tuple[str, datetime]]:
        """The commits of branch `ref` that touched `path` from `since` to `until` (every
        page: a pin file's few hundred), oldest first, with their committer times."""
        with self._translate_errors():
            repo = self._github.get_repo(self.source.repo)
            found = (
                repo.get_commits(sha=ref, path=path, since=_in_utc(since), until=_in_utc(until))
                if since is not None
                else repo.get_commits(sha=ref, path=path, until=_in_utc(until))
            )
            listed = [(c.sha, aware(c.commit.committer.date)) for c in found]
        return sorted(listed, key=lambda commit: commit[1])

    def head_at(self, ref: str, until: datetime) -> tuple[str, datetime] | None:
        """The newest commit of branch `ref` at `until` (one request), or None (none yet)."""
        with self._translate_errors():
            repo = self._github.get_repo(self.source.repo)
            page = repo.get_commits(sha=ref, until=_in_utc(until)).get_page(0)
            if not page:
                return None
            return page[0].sha, aware(page[0].commit.committer.date)

    def ahead(self, base: str, head: str) -> tuple[int, datetime] | None:
        """How many commits `head` is ahead of `base`, and `base`'s time (one request; None:
        GitHub does not know `base`, e.g. a pin of another fork or a tag never made)."""
        try:
            with self._translate_errors():
                compare = self._github.get_repo(self.source.repo).compare(base, head)
                return int(compare.ahead_by), aware(compare.base_commit.commit.committer.date)
        except CollectError as exc:
            if isinstance(exc.__cause__, GithubException) and exc.__cause__.status in (404, 422):
                return None
            raise

    def commits_between(self, base: str, head: str) -> list[str] | None:
        """The messages of the commits `head` is ahead of `base` by, oldest first (GitHub's
        compare: one request, its first 250); None when GitHub knows either commit not."""
        try:
            with self._translate_errors():
                compare = self._github.get_repo(self.source.repo).compare(base, head)
                commits: list[Any] = list(compare.commits[:250])
                return [str(c.commit.message) for c in commits]
        except CollectError as exc:
            if isinstance(exc.__cause__, GithubException) and exc.__cause__.status in (404, 422):
                return None
            raise

    def graphql(
        self, query: str, variables: dict[str, Any], what: str = "the review queue's query"
    ) -> dict[str, Any]:
        """One GraphQL request (GitHub answers it only with a token); its `data`."""
        try:
            with self._translate_errors():
                _, answer = self._github.requester.graphql_query(query, variables)
        except CollectError as exc:
            cause = exc.__cause__
            errors = getattr(cause, "data", None)
            if isinstance(errors, dict) and errors.get("errors"):
                first = errors["errors"][0]
                said = first.get("message") if isinstance(first, dict) else first
                if isinstance(first, dict) and first.get("type") == "RATE_LIMITED":
                    raise CollectError(_graphql_limit(getattr(cause, "headers", None))) from cause
                hint = ", or check the queue labels in the topic rules" if "queue" in what else ""
                raise CollectError(
                    f"GitHub's GraphQL API refused {what} ({said}); try again later{hint}"
                ) from cause
            raise
        data = answer.get("data")
        if not isinstance(data, dict):
            raise CollectError("GitHub's GraphQL API answered without data; try again later")
        return data

    def search_list(self, query: str, *, items: bool, cap: int = SEARCH_CAP) -> Listed:
        """A search's total and, when `items`, its results oldest first (up to `cap`): one
        request per page of 100, or a single one-result request for a count."""
        with self._translate_errors():
            pages = self._github.search_issues(query, sort="created", order="asc")
            if not items:
                return Listed(pages.totalCount, [], True)
            found: list[ActivityItem] = []
            for obj in pages:  # the first page, even empty, tells the total
                found.append(self._to_item(obj))
                if len(found) >= cap:
                    break
            total = pages.totalCount
            whole = not pages.incomplete_results and len(found) >= total
        return Listed(total, found, whole)

    # -- boundary ----------------------------------------------------------------------

    def _to_item(self, obj: Issue) -> ActivityItem:
        # GitHub omits `pull_request` from issues, and PyGithub answers a read of a missing
        # attribute with a GET of the whole issue: one request per issue. The html_url
        # (…/pull/N versus …/issues/N) tells the kind for free.
        is_pull = "/pull/" in obj.html_url
        pull = obj.pull_request if is_pull else None
        user = obj.user
        reactions: dict[str, Any] = obj.reactions or {}
        return ActivityItem(
            repo=self.source.repo,
            number=obj.number,
            kind="pr" if is_pull else "issue",
            title=obj.title,
            author=user.login if user is not None else None,
            labels=tuple(label.name for label in obj.labels),
            state=obj.state,
            state_reason=obj.state_reason,
            created_at=aware(obj.created_at),
            updated_at=aware(obj.updated_at),
            closed_at=aware(obj.closed_at) if obj.closed_at else None,
            merged_at=aware(pull.merged_at) if pull is not None and pull.merged_at else None,
            url=obj.html_url,
            comments=obj.comments,
            body=obj.body,
            author_association=obj.author_association,
            # `draft` is sent for PRs only; reading it on an issue would cost a request.
            draft=bool(obj.draft) if pull is not None else False,
            reactions=int(reactions.get("total_count", 0)),
        )

    def _pull_to_item(self, pull: PullRequest) -> ActivityItem:
        """A pull request of a listing (GitHub's "pull request simple"): it carries no
        comment or reaction counts, and reading one would cost a request each."""
        user = pull.user
        return ActivityItem(
            repo=self.source.repo,
            number=pull.number,
            kind="pr",
            title=pull.title,
            author=user.login if user is not None else None,
            labels=tuple(label.name for label in pull.labels),
            state=pull.state,
            created_at=aware(pull.created_at),
            updated_at=aware(pull.updated_at or pull.created_at),
            closed_at=aware(pull.closed_at) if pull.closed_at else None,
            merged_at=aware(pull.merged_at) if pull.merged_at else None,
            url=pull.html_url,
            body=pull.body,
            author_association=pull.author_association,
            draft=bool(pull.draft),
        )

    @contextmanager
    def rest(self) -> Iterator[Github]:
        """PyGithub for a reader in another module (bot.collect.people), its failures
        turned into one CollectError like every call here."""
        with self._translate_errors():
            yield self._github

    @contextmanager
    def _translate_errors(self) -> Iterator[None]:
        """Turn transport and API failures into one CollectError a person can act on."""
        try:
            yield
        except Exception as exc:
            message = describe_failure(exc, self.source, self._retry.last[0])
            if message is None:
                raise  # not a GitHub failure but a bug: let it show
            raise CollectError(message) from exc


def _cut(first: datetime, seconds: int, parts: int) -> Iterator[tuple[datetime, datetime]]:
    """`parts` consecutive ranges covering the `seconds` whole seconds from `first`."""
    for index in range(parts):
        begin = seconds * index // parts
        end = seconds * (index + 1) // parts - 1
        yield first + timedelta(seconds=begin), first + timedelta(seconds=end)


def _utc(moment: datetime) -> str:
    """Search qualifiers take full ISO times; `created:2026-03-26` alone means a UTC day."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S+00:00")


def _graphql_limit(headers: Any) -> str:
    """GraphQL's own rate limit (points per hour, apart from REST's), and when it resets."""
    reset = None
    if isinstance(headers, dict):
        lowered = {str(k).lower(): v for k, v in headers.items()}
        with contextlib.suppress(TypeError, ValueError):
            reset = datetime.fromtimestamp(int(lowered.get("x-ratelimit-reset", "")), UTC)
    when = f" at {reset:%H:%M} UTC" if reset is not None else " within the hour"
    return (
        f"GitHub's GraphQL rate limit is used up; it resets{when}: ask for the review queue "
        "again then"
    )


def _in_utc(moment: datetime) -> datetime:
    """`moment` in UTC: PyGithub writes `since`/`until` as the clock reading with a `Z`,
    dropping any other offset (a Shanghai midnight would be asked as 8 hours later)."""
    return moment.astimezone(UTC)
