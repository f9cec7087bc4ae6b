"""Source code as GitHub holds it, for the breakage radar's warnings: each read through a
`Collector` (its PyGithub, retries and failures in one sentence: `Collector.rest`), so this
module imports no SDK of its own:

- a repository's Python files at a commit, out of the one gzip tarball GitHub gives of it
  (`GET /repos/{o}/{r}/tarball/{ref}`): path → text, a file that is not UTF-8 or too large
  kept as unreadable with why, never dropped;
- pull requests' heads: each one's head and base commits, whether it merged, and whether it
  is approved (with a token: GitHub's `reviewDecision`, PER_QUERY pull requests to a
  GraphQL request; without one: `GET /pulls/{n}` and, asked only when it matters, its
  reviews: each reviewer's latest approval or change request decides);
- a pull request's changed files (`GET /pulls/{n}/files`, 100 a page, GitHub lists at most
  FILES_CAP of them).
"""

from __future__ import annotations

import io
import tarfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from bot.collect import deadline
from bot.collect.graphql_values import moment
from bot.collect.source import CollectError, Stopped

if TYPE_CHECKING:
    from bot.collect.client import Collector

# A plugin's tarball is a few MB (tpu-inference: about 5, vllm-ascend: about 15); one past
# this is not read at all, and a Python file past FILE_BYTES is kept as unreadable.
TARBALL_BYTES = 200 * 1024 * 1024
FILE_BYTES = 2 * 1024 * 1024
# GitHub lists at most this many files of a pull request (REST and GraphQL alike).
FILES_CAP = 3000
# Pull requests one GraphQL request asks about: each is one node with no connection.
PER_QUERY = 100
# A tarball's download: read in chunks, whole within this long (a plugin's few MB take
# seconds; the API's own answers have deadline.ANSWER_SECONDS).
TARBALL_SECONDS = 120.0
CHUNK_BYTES = 1 << 16
RETRY_STATUSES = (429, 500, 502, 503, 504)
PULL_NODE = (
    "__typename ... on PullRequest { number headRefOid baseRefOid mergedAt closedAt "
    "reviewDecision }"
)


class TooLarge(CollectError):
    """An answer past the size the bot reads (a tarball, a file)."""


class NotText(CollectError):
    """A source file that is not UTF-8 text."""


@dataclass(frozen=True)
class PullHead:
    """Where a pull request stands: its head and base commits, and its state."""

    number: int
    head: str
    base: str
    merged_at: datetime | None = None
    closed: bool = False
    # GitHub's review decision: True approved, False not (changes requested or review
    # required), None not asked yet (REST: read the reviews when it matters).
    approved: bool | None = None


@dataclass(frozen=True)
class ChangedFile:
    """One file a pull request changes, as GitHub lists it."""

    path: str
    status: str  # added, removed, modified, renamed, copied, changed, unchanged
    previous: str | None = None  # a renamed file's path before


@dataclass(frozen=True)
class SourceTree:
    """A repository's Python files at one commit: path → text, and those not read with why."""

    files: dict[str, str]
    unreadable: dict[str, str]


def python_files(tarball: bytes, file_bytes: int = FILE_BYTES) -> SourceTree:
    """The `.py` files of a GitHub tarball (its one top folder, `owner-repo-sha/`, taken off
    each path). A file that is not UTF-8 or past `file_bytes` is unreadable, with why."""
    files: dict[str, str] = {}
    unreadable: dict[str, str] = {}
    try:
        with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
            for member in archive.getmembers():
                if not member.isfile() or not member.name.endswith(".py"):
                    continue
                path = member.name.split("/", 1)[1] if "/" in member.name else member.name
                if member.size > file_bytes:
                    unreadable[path] = f"too large ({member.size:,} bytes)"
                    continue
                handle = archive.extractfile(member)
                data = handle.read() if handle is not None else b""
                try:
                    files[path] = data.decode("utf-8")
                except UnicodeDecodeError:
                    unreadable[path] = "not UTF-8 text"
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise CollectError(f"GitHub's tarball could not be read ({exc})") from exc
    return SourceTree(files, unreadable)


def approved(reviews: Iterable[tuple[str | None, str, datetime | None]]) -> bool:
    """Approved as GitHub decides from reviews: each reviewer's latest approval, change
    request or dismissal counts; any approval and no change request left."""
    latest: dict[str | None, str] = {}
    dated = [(at, login, state) for login, state, at in reviews if at is not None]
    for _, login, state in sorted(dated, key=lambda review: review[0]):
        if state in ("APPROVED", "CHANGES_REQUESTED", "DISMISSED"):
            latest[login] = state
    states = set(latest.values())
    return "APPROVED" in states and "CHANGES_REQUESTED" not in states


def pull_heads(github: Collector, numbers: Sequence[int]) -> dict[int, PullHead | None]:
    """Where each of `numbers` stands (None: GitHub has no such pull request). With a
    token, one GraphQL request per PER_QUERY; without one, one REST request each (its
    approval left unasked)."""
    if not numbers:
        return {}
    if not github.source.token:
        return {n: pull_head(github, n) for n in numbers}
    owner, name = github.source.repo.split("/", 1)
    found: dict[int, PullHead | None] = {}
    for start in range(0, len(numbers), PER_QUERY):
        chunk = numbers[start : start + PER_QUERY]
        reads = " ".join(f"p{n}: issueOrPullRequest(number: {n}) {{ {PULL_NODE} }}" for n in chunk)
        query = (
            "query Heads($owner: String!, $name: String!) "
            f"{{ repository(owner: $owner, name: $name) {{ {reads} }} }}"
        )
        data = github.graphql(query, {"owner": owner, "name": name}, "the pull requests' heads")
        nodes = data.get("repository") or {}
        found.update({n: _head(n, nodes.get(f"p{n}")) for n in chunk})
    return found


def _head(number: int, node: Any) -> PullHead | None:
    if not isinstance(node, dict) or node.get("__typename") != "PullRequest":
        return None
    head, base = node.get("headRefOid"), node.get("baseRefOid")
    if not head or not base:
        return None
    return PullHead(
        number,
        str(head),
        str(base),
        merged_at=moment(node.get("mergedAt")),
        closed=bool(node.get("closedAt")),
        approved=node.get("reviewDecision") == "APPROVED",
    )


# -- the reads, through a collector -------------------------------------------------------------


def _status(exc: CollectError) -> int | None:
    """The HTTP status GitHub answered, when the failure was an answer."""
    status = getattr(exc.__cause__, "status", None)
    return status if isinstance(status, int) else None


def head_commit(github: Collector) -> tuple[str, datetime | None]:
    """The default branch's newest commit and its committer time (one small request:
    `commits?per_page=1`)."""
    with github.rest() as rest:
        repo = rest.get_repo(github.source.repo)
        _, page = rest.requester.requestJsonAndCheck(
            "GET", f"{repo.url}/commits", parameters={"per_page": 1}
        )
    if not isinstance(page, list) or not page or not isinstance(page[0], dict):
        raise CollectError(f"GitHub lists no commit of {github.source.repo}")
    first = page[0]
    return str(first["sha"]), moment(
        ((first.get("commit") or {}).get("committer") or {}).get("date")
    )


def tarball(github: Collector, ref: str, limit: int = TARBALL_BYTES) -> bytes:
    """The repository at `ref` as GitHub's gzip tarball: one API request for its address
    (`GET …/tarball/{ref}`, a redirect), then the download from there (codeload.github.com:
    no token sent, as PyGithub sends none to another host), retried like the API's, read
    whole within TARBALL_SECONDS and at most `limit` bytes (TooLarge past it)."""
    import requests
    from requests.adapters import HTTPAdapter
    from urllib3.util.retry import Retry

    source = github.source
    with github.rest() as rest:
        location = rest.get_repo(source.repo).get_archive_link("tarball", ref)
    where = f"GitHub at {source.api_url}"
    if source.stop is not None and source.stop.is_set():
        raise Stopped
    deadline.check(where)
    by, late = deadline.answer_by(where, TARBALL_SECONDS)
    retry = Retry(
        total=source.retries,
        connect=min(source.retries, 1),
        backoff_factor=source.backoff,
        status_forcelist=RETRY_STATUSES,
        raise_on_status=False,
    )
    chunks: list[bytes] = []
    with github.rest(), requests.Session() as session:  # its failures said like the API's
        session.mount("https://", HTTPAdapter(max_retries=retry))
        session.mount("http://", HTTPAdapter(max_retries=retry))
        answer = session.get(
            location,
            stream=True,
            timeout=max(1.0, source.timeout),
            headers={"User-Agent": "vllm-report-bot"},
        )
        with answer:
            if answer.status_code == 404:
                raise CollectError(f"GitHub has no tarball of {source.repo} at {ref}")
            answer.raise_for_status()
            size = 0
            for chunk in answer.iter_content(CHUNK_BYTES):
                size += len(chunk)
                if size > limit:
                    raise TooLarge(f"{source.repo}'s tarball is over {limit // 2**20} MB")
                if time.monotonic() > by:
                    raise deadline.OutOfTime(late)
                chunks.append(chunk)
    return b"".join(chunks)


def code_text(github: Collector, path: str, ref: str, limit: int = FILE_BYTES) -> str | None:
    """A source file at commit `ref` through the contents API (one request); None when
    there is none; TooLarge past `limit` bytes (or past what the contents API sends whole),
    NotText when it is not UTF-8."""
    try:
        with github.rest() as rest:
            content = rest.get_repo(github.source.repo).get_contents(path, ref=ref)
            if isinstance(content, list):  # a folder
                return None
            if content.size > limit or content.encoding != "base64":
                raise TooLarge(f"{path} is too large to read ({content.size:,} bytes)")
            data = content.decoded_content
    except CollectError as exc:
        if _status(exc) == 404:
            return None
        raise
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotText(f"{path} is not UTF-8 text") from exc


def pull_files(github: Collector, number: int) -> list[ChangedFile]:
    """The files pull request #number changes (100 a page; GitHub lists at most FILES_CAP)."""
    with github.rest() as rest:
        pull = rest.get_repo(github.source.repo).get_pull(number)  # lazy: the listing asks
        return [
            ChangedFile(f.filename, f.status, f.previous_filename or None) for f in pull.get_files()
        ]


def pull_head(github: Collector, number: int) -> PullHead | None:
    """Where pull request #number stands (one request; its approval not asked: None);
    None when GitHub has none by that number."""
    try:
        with github.rest() as rest:
            data = rest.get_repo(github.source.repo).get_pull(number).raw_data
    except CollectError as exc:
        if _status(exc) == 404:
            return None
        raise
    return PullHead(
        number,
        str((data.get("head") or {}).get("sha") or ""),
        str((data.get("base") or {}).get("sha") or ""),
        merged_at=moment(data.get("merged_at")),
        closed=data.get("state") == "closed",
    )


def pull_approved(github: Collector, number: int) -> bool:
    """Whether pull request #number is approved, from its reviews (a page of 100 each)."""
    with github.rest() as rest:
        pull = rest.get_repo(github.source.repo).get_pull(number)
        reviews = [
            (
                r.user.login if r.user is not None else None,
                r.state,
                r.submitted_at.astimezone(UTC) if r.submitted_at else None,
            )
            for r in pull.get_reviews()
        ]
    return approved(reviews)
