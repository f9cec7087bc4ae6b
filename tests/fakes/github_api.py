"""A fake GitHub REST API on 127.0.0.1: real HTTP, GitHub's wire format, recorded requests.

Serves what the collector and the naive benchmark use: `/search/issues` (with `repo:`,
`is:issue|pr`, `created:`/`closed:`/`merged:`/`updated:` ranges, inclusive at both ends like
GitHub's, the 1,000-result cap and `Link` pagination built from its own host and port),
`/repos/{o}/{r}/issues` (`state`, `since`, `sort`, `direction`), `/repos/{o}/{r}/pulls`,
`/repos/{o}/{r}/pulls/{n}`, `/repos/{o}/{r}` and `/rate_limit`; for the breakage radar also
`/repos/{o}/{r}/contents/{path}`, `/repos/{o}/{r}/commits/{ref}`, `/repos/{o}/{r}/compare/…`
and `/repos/{o}/{r}/commits/{sha}/pulls` (the pull requests associated with a commit, as
"pull request simple" objects: the merged PR that brought it to the default branch, else
the open PRs that carry it; 422 "No commit found for SHA" for a commit the fake does not
know, like GitHub); for the radar's warnings `/repos/{o}/{r}/tarball/{ref}` (a 302 to the
fake's own `/_codeload/…`, which answers the gzip tarball's bytes, like codeload.github.com),
`/repos/{o}/{r}/pulls/{n}/files` (paginated) and GraphQL's `headRefOid`/`baseRefOid`.

Search also takes the review queue's qualifiers: `review:none|approved|changes_requested|
required` (from each PR's reviews: a reviewer's latest approval or change request decides),
`draft:true|false`, `label:a,b` (either; quoted labels), `-label:` and `-review:` (not),
`author:`, and `sort:created-asc` in the text. `POST /graphql` answers the queries the queue
sends (search aliases with `issueCount`, `pageInfo` and nodes; `repository { nN:
issueOrPullRequest(number: N) }`), only with a token, like GitHub's.

Faults are scripted per request (`fail_next`) or by rule (`fail_every`), and a per-request
latency can be injected, so tests see retries, rate limits and slow links on the wire.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shlex
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from tests.fakes.server import FakeServer

SEARCH_CAP = 1000
ISO = "%Y-%m-%dT%H:%M:%SZ"


def iso(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).strftime(ISO) if moment else None


def parse_time(text: str) -> datetime:
    text = text.strip()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return datetime.fromisoformat(text + "T00:00:00+00:00")
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@dataclass
class FakeItem:
    """One issue or PR as the fake stores it; `wire()` gives GitHub's JSON for it."""

    number: int
    kind: str  # "issue" or "pr"
    title: str
    author: str | None
    labels: list[str]
    created_at: datetime
    updated_at: datetime
    closed_at: datetime | None = None
    merged_at: datetime | None = None
    comments: int = 0
    body: str | None = None
    state_reason: str | None = None
    reactions: int = 0
    author_association: str = "CONTRIBUTOR"
    # Conversation comments: dicts with id, user, created_at (datetime), author_association.
    comment_list: list[dict[str, Any]] = field(default_factory=list)
    draft: bool = False
    # What the single-PR endpoint adds; None: the fixture does not know (the field is left out).
    additions: int | None = None
    deletions: int | None = None
    changed_files: int | None = None
    # Reviews: dicts with id, user, state (APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED,
    # PENDING), submitted_at (None while pending).
    reviews: list[dict[str, Any]] = field(default_factory=list)
    # When the PR was marked ready for review (a draft turned ready), oldest first.
    ready_events: list[datetime] = field(default_factory=list)
    # The commits a PR carries (merged: the first is the one it put on the default branch),
    # which `GET …/commits/{sha}/pulls` finds it by.
    commits: list[str] = field(default_factory=list)
    # The files a PR changes and the logins whose review is requested (GraphQL's `files`
    # and `reviewRequests`; personal digests read them).
    files: list[str] = field(default_factory=list)
    review_requests: list[str] = field(default_factory=list)
    # A PR's head and base commits (None: the fake's stand-ins), and its files as
    # `GET …/pulls/{n}/files` lists them: (path, status, previous path), else `files`
    # as modified.
    head_sha: str | None = None
    base_sha: str | None = None
    changes: list[tuple[str, str, str | None]] = field(default_factory=list)

    def decision(self) -> str | None:
        """GitHub's review decision: each reviewer's latest approval or change request."""
        latest: dict[str, str] = {}
        for review in sorted(self.submitted_reviews(), key=lambda r: (r["submitted_at"], r["id"])):
            if review["state"] in ("APPROVED", "CHANGES_REQUESTED", "DISMISSED"):
                latest[review["user"]] = review["state"]
        states = set(latest.values())
        if "CHANGES_REQUESTED" in states:
            return "changes_requested"
        return "approved" if "APPROVED" in states else None

    def submitted_reviews(self) -> list[dict[str, Any]]:
        return [r for r in self.reviews if r.get("submitted_at") and r.get("state") != "PENDING"]

    def state(self) -> str:
        return "closed" if self.closed_at else "open"

    def wire(self, repo: str, api: str) -> dict[str, Any]:
        noun = "pull" if self.kind == "pr" else "issues"
        html = f"https://github.com/{repo}/{noun}/{self.number}"
        user = (
            {
                "login": self.author,
                "id": abs(hash(self.author)) % 10**8,
                "type": "User",
                "url": f"{api}/users/{self.author}",
                "html_url": f"https://github.com/{self.author}",
            }
            if self.author
            else None
        )
        data: dict[str, Any] = {
            "url": f"{api}/repos/{repo}/issues/{self.number}",
            "repository_url": f"{api}/repos/{repo}",
            "html_url": html,
            "id": 10**9 + self.number,
            "node_id": f"I_{self.number}",
            "number": self.number,
            "title": self.title,
            "user": user,
            "labels": [
                {
                    "id": i,
                    "name": name,
                    "color": "ededed",
                    "default": False,
                    "url": f"{api}/repos/{repo}/labels/{name}",
                }
                for i, name in enumerate(self.labels)
            ],
            "state": self.state(),
            "state_reason": self.state_reason if self.closed_at else None,
            "locked": False,
            "assignee": None,
            "assignees": [],
            "milestone": None,
            "comments": self.comments,
            "created_at": iso(self.created_at),
            "updated_at": iso(self.updated_at),
            "closed_at": iso(self.closed_at),
            "author_association": self.author_association,
            "active_lock_reason": None,
            "body": self.body,
            "closed_by": None,
            "reactions": {
                "url": "",
                "total_count": self.reactions,
                "+1": 0,
                "-1": 0,
                "laugh": 0,
                "hooray": 0,
                "confused": 0,
                "heart": 0,
                "rocket": 0,
                "eyes": 0,
            },
            "timeline_url": f"{api}/repos/{repo}/issues/{self.number}/timeline",
            "performed_via_github_app": None,
        }
        if self.kind == "pr":
            data["draft"] = self.draft
            data["pull_request"] = {
                "url": f"{api}/repos/{repo}/pulls/{self.number}",
                "html_url": html,
                "diff_url": html + ".diff",
                "patch_url": html + ".patch",
                "merged_at": iso(self.merged_at),
            }
        return data

    def pull_wire(self, repo: str, api: str, *, full: bool) -> dict[str, Any]:
        """The `/pulls` shape; only the single-PR endpoint carries `merged`."""
        data = self.wire(repo, api)
        data.pop("pull_request")
        data["url"] = f"{api}/repos/{repo}/pulls/{self.number}"
        data["merged_at"] = iso(self.merged_at)
        data["head"] = {
            "ref": f"branch-{self.number}",
            "sha": self.head_sha or f"{self.number:040d}",
        }
        data["base"] = {"ref": "main", "sha": self.base_sha or "0" * 40}
        if full:
            data["merged"] = self.merged_at is not None
            for name in ("additions", "deletions", "changed_files"):
                if getattr(self, name) is not None:
                    data[name] = getattr(self, name)
        return data

    def simple_wire(self, repo: str, api: str) -> dict[str, Any]:
        """GitHub's "pull request simple" (the commit-pulls listing): the pull fields and
        links, without the issue's comment and reaction counts."""
        data = self.pull_wire(repo, api, full=False)
        for key in (
            "comments",
            "reactions",
            "state_reason",
            "closed_by",
            "timeline_url",
            "performed_via_github_app",
            "repository_url",
        ):
            data.pop(key, None)
        pulls, issues = data["url"], f"{api}/repos/{repo}/issues/{self.number}"
        head = self.commits[-1] if self.commits else data["head"]["sha"]
        data["head"] = {"label": f"someone:branch-{self.number}", "ref": f"branch-{self.number}"}
        data["head"]["sha"] = head
        data["base"] = {"label": f"{repo.split('/')[0]}:main", "ref": "main", "sha": "0" * 40}
        data.update(
            diff_url=data["html_url"] + ".diff",
            patch_url=data["html_url"] + ".patch",
            issue_url=issues,
            commits_url=f"{pulls}/commits",
            review_comments_url=f"{pulls}/comments",
            review_comment_url=f"{api}/repos/{repo}/pulls/comments{{/number}}",
            comments_url=f"{issues}/comments",
            statuses_url=f"{api}/repos/{repo}/statuses/{head}",
            merge_commit_sha=self.commits[0] if self.merged_at and self.commits else None,
            requested_reviewers=[],
            requested_teams=[],
            auto_merge=None,
            _links={
                "self": {"href": pulls},
                "html": {"href": data["html_url"]},
                "issue": {"href": issues},
                "comments": {"href": f"{issues}/comments"},
                "review_comments": {"href": f"{pulls}/comments"},
                "commits": {"href": f"{pulls}/commits"},
                "statuses": {"href": f"{api}/repos/{repo}/statuses/{head}"},
            },
        )
        return data


@dataclass
class Fault:
    """One scripted failure: an HTTP status with headers and body, or a delay."""

    status: int = 502
    body: dict[str, Any] = field(default_factory=lambda: {"message": "Server Error"})
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    incomplete: bool = False  # answer normally, but with incomplete_results: true
    # Answer normally, but the body one byte every `drip` seconds (headers at once) for
    # `drip_for` seconds, then the rest: a server that hardly answers, until the client
    # hangs up (a client that never does gets the whole answer late, and a test says so).
    drip: float = 0.0
    drip_for: float = 15.0

    @classmethod
    def trickle(cls, every: float = 0.5, for_seconds: float = 15.0) -> Fault:
        return cls(status=0, drip=every, drip_for=for_seconds)

    @classmethod
    def server_error(cls, status: int = 502) -> Fault:
        return cls(status=status)

    @classmethod
    def secondary_limit(cls, retry_after: int = 1) -> Fault:
        return cls(
            status=403,
            body={
                "message": "You have exceeded a secondary rate limit. Please wait a few "
                "minutes before you try again."
            },
            headers={"Retry-After": str(retry_after)},
        )

    @classmethod
    def primary_limit(cls, reset_in: int = 3600) -> Fault:
        reset = int(time.time()) + reset_in
        return cls(
            status=403,
            body={
                "message": "API rate limit exceeded for 127.0.0.1. (But here's the good news:"
                " Authenticated requests get a higher rate limit.)"
            },
            headers={
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Limit": "60",
                "X-RateLimit-Reset": str(reset),
            },
        )


@dataclass
class RecordedRequest:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    status: int
    graphql: str | None = None  # the query text of a POST /graphql


class FakeGitHub(FakeServer):
    """The fake's state; `start()` serves it in a thread on a random 127.0.0.1 port."""

    def __init__(
        self,
        repo: str,
        items: Iterable[FakeItem] = (),
        latency: float = 0.0,
        *,
        others: dict[str, Iterable[FakeItem]] | None = None,
    ) -> None:
        super().__init__()
        self.handler = _Handler
        self.repo = repo
        self.items: dict[int, FakeItem] = {item.number: item for item in items}
        self.latency = latency
        self.requests: list[RecordedRequest] = []
        self.faults: list[Fault] = []
        self.hung_up = 0  # dripped answers the client hung up on
        self.hung_up_on = threading.Event()  # set when it first does
        self.fault_rule: Callable[[int, str], Fault | None] | None = None
        self._lock = threading.Lock()
        # More repositories at the same address (the hardware plugins), and what the
        # contents and commits APIs answer: files by (repo, path, ref), main's history.
        self.repos: dict[str, FakeGitHub | RepoView] = {repo: self}
        self.root_repo = repo
        for name, its in (others or {}).items():
            self.repos[name] = RepoView(self, name, its)
        self.files: dict[tuple[str, str, str], str] = {}
        self.users: set[str] = set()  # logins `GET /users/{login}` knows besides the items'
        self.labels: list[str] = []  # the repository's labels besides those items carry
        # GraphQL names each number it cannot resolve in `errors` (type NOT_FOUND) beside
        # the data, as GitHub does; off: a bare null, as older fakes answered.
        self.graphql_not_found = False
        self.history: dict[str, list[tuple[str, datetime]]] = {}  # repo → (sha, time), oldest first
        self.tags: dict[str, str] = {}  # the main repository's release tags → their commits
        # Its published releases (`GET …/releases`, newest first as GitHub lists them):
        # (tag, published_at, prerelease, draft).
        self.releases: list[tuple[str, datetime, bool, bool]] = []
        self.messages: dict[str, str] = {}  # a commit's message (else "commit <sha>")
        # The commits that touched a file, oldest first, and its text after each (None: that
        # commit deleted it), by (repo, path, branch): `GET …/commits?path=` and the file
        # at a commit (`GET …/contents/{path}?ref=<sha>`) read them.
        self.file_history: dict[tuple[str, str, str], list[tuple[str, datetime, str | None]]] = {}
        # Each repository's tarball at a ref (a branch or a commit): the gzip bytes served.
        self.tarballs: dict[tuple[str, str], bytes] = {}

    def view(self, repo: str) -> FakeGitHub | RepoView | None:
        return self.repos.get(repo)

    # -- control -----------------------------------------------------------------------

    def fail_next(self, *faults: Fault) -> None:
        with self._lock:
            self.faults.extend(faults)

    def reset_log(self) -> None:
        with self._lock:
            self.requests.clear()

    def add(self, *items: FakeItem) -> None:
        with self._lock:
            for item in items:
                self.items[item.number] = item

    def api_requests(self) -> list[RecordedRequest]:
        return list(self.requests)

    # -- request handling (called from server threads) ---------------------------------

    def next_fault(self, path: str) -> Fault | None:
        with self._lock:
            index = len(self.requests)
            if self.faults:
                return self.faults.pop(0)
        if self.fault_rule is not None:
            return self.fault_rule(index, path)
        return None

    def record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def snapshot(self) -> list[FakeItem]:
        with self._lock:
            return list(self.items.values())


class RepoView:
    """Another repository served by the same fake: its own items, the rest shared."""

    def __init__(self, root: FakeGitHub, repo: str, items: Iterable[FakeItem]) -> None:
        self.root = root
        self.repo = repo
        self.items: dict[int, FakeItem] = {item.number: item for item in items}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.root, name)

    def snapshot(self) -> list[FakeItem]:
        with self.root._lock:
            return list(self.items.values())


_REPO_PATH = re.compile(r"/repos/([^/]+/[^/]+)")
_REPO_QUALIFIER = re.compile(r"(?:^|\s)repo:(\S+)")


class _Handler(BaseHTTPRequestHandler):
    fake: FakeGitHub
    protocol_version = "HTTP/1.1"

    def _scope(self, path: str, text: str) -> bool:
        """Serve this request from the repository its path or query names (False: none
        such here: answered 404 / 422 as GitHub does)."""
        root = type(self).fake
        named = _REPO_PATH.match(path) or _REPO_QUALIFIER.search(text)
        view = root.view(named.group(1)) if named else root
        if view is None:
            return False
        self.fake = view  # type: ignore[assignment]  # a view answers like the fake
        return True

    def log_message(self, format: str, *args: Any) -> None:  # silence stderr noise
        return

    def do_POST(self) -> None:
        split = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        self.fake = type(self).fake
        fake = self.fake
        if fake.latency:
            time.sleep(fake.latency)
        fault = fake.next_fault(split.path)
        if fault is not None and fault.status and not fault.incomplete:
            self._record(split.path, {}, fault.status, "POST")
            self._send(fault.status, fault.body, fault.headers)
            return
        if split.path != "/graphql":
            self._record(split.path, {}, 404, "POST")
            self._send(404, {"message": "Not Found"}, {})
            return
        if not (self.headers.get("Authorization") or "").strip():
            self._record(split.path, {}, 401, "POST")
            self._send(401, {"message": "This endpoint requires you to be authenticated."}, {})
            return
        try:
            body = json.loads(raw or b"{}")
            data = graphql(fake, str(body.get("query") or ""), body.get("variables") or {})
            status, answer = 200, {"data": data}
            if fake.graphql_not_found:  # as GitHub answers a number it cannot resolve
                missing = _unresolved(fake, str(body.get("query") or ""))
                if missing:
                    answer["errors"] = missing
        except BadRequest as exc:
            status, answer = 200, {"errors": [{"message": str(exc)}]}
        self._record(split.path, {}, status, "POST", body.get("query") if status == 200 else None)
        self._send(status, answer, {}, fault)

    def do_GET(self) -> None:
        split = urlsplit(self.path)
        query = parse_qs(split.query)
        if split.path.startswith("/_codeload/"):  # codeload.github.com's part
            self._codeload(split.path, query)
            return
        if not self._scope(split.path, _one(query, "q", "")):
            self._record(split.path, query, 404)
            if split.path == "/search/issues":
                message = "The listed users and repositories cannot be searched"
                self._send(422, {"message": message}, {})
            else:
                self._send(404, {"message": "Not Found"}, {})
            return
        fake = self.fake
        if fake.latency:
            time.sleep(fake.latency)
        fault = fake.next_fault(split.path)
        if fault is not None and fault.delay:
            time.sleep(fault.delay)
        if fault is not None and not fault.incomplete and fault.status:
            self._record(split.path, query, fault.status)
            self._send(fault.status, fault.body, fault.headers)
            return
        try:
            incomplete = fault is not None and fault.incomplete
            status, body, headers = self._route(split.path, query, incomplete=incomplete)
        except BadRequest as exc:
            status, body, headers = 422, {"message": str(exc)}, {}
        self._record(split.path, query, status)
        self._send(status, body, headers, fault)

    def _codeload(self, path: str, query: dict[str, list[str]]) -> None:
        """A tarball's bytes (`/_codeload/{o}/{r}/legacy.tar.gz/{ref}`), after any scripted
        fault; not JSON, like codeload.github.com's."""
        root = type(self).fake
        self.fake = root
        fault = root.next_fault(path)
        if fault is not None and fault.status and not fault.incomplete:
            self._record(path, query, fault.status)
            self._send(fault.status, fault.body, fault.headers)
            return
        found = re.fullmatch(r"/_codeload/([^/]+/[^/]+)/legacy\.tar\.gz/(.+)", path)
        data = root.tarballs.get((found.group(1), found.group(2))) if found else None
        if data is None:
            self._record(path, query, 404)
            self._send(404, {"message": "Not Found"}, {})
            return
        self._record(path, query, 200)
        self.send_response(200)
        self.send_header("Content-Type", "application/x-gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _record(
        self,
        path: str,
        query: dict[str, list[str]],
        status: int,
        method: str = "GET",
        graphql: str | None = None,
    ) -> None:
        self.fake.record(
            RecordedRequest(
                method, path, query, {k: v for k, v in self.headers.items()}, status, graphql
            )
        )

    def _send(
        self, status: int, body: Any, headers: dict[str, str], fault: Fault | None = None
    ) -> None:
        payload = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("X-RateLimit-Limit", headers.pop("X-RateLimit-Limit", "5000"))
        self.send_header("X-RateLimit-Remaining", headers.pop("X-RateLimit-Remaining", "4999"))
        self.send_header(
            "X-RateLimit-Reset", headers.pop("X-RateLimit-Reset", str(int(time.time()) + 3600))
        )
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        if fault is None or not fault.drip:
            self.wfile.write(payload)
            return
        until = time.monotonic() + fault.drip_for
        try:
            sent = 0
            while sent < len(payload) and time.monotonic() < until:
                self.wfile.write(payload[sent : sent + 1])
                self.wfile.flush()
                sent += 1
                time.sleep(fault.drip)
            self.wfile.write(payload[sent:])
        except (BrokenPipeError, ConnectionResetError):
            self.fake.hung_up += 1  # the client gave up on the answer
            self.fake.hung_up_on.set()

    # -- routes ------------------------------------------------------------------------

    def _route(
        self, path: str, query: dict[str, list[str]], *, incomplete: bool
    ) -> tuple[int, Any, dict[str, str]]:
        fake = self.fake
        repo_prefix = f"/repos/{fake.repo}"
        if path == "/search/issues":
            return self._search(path, query, incomplete)
        if path == "/rate_limit":
            return 200, {"resources": {"core": {"limit": 5000, "remaining": 4999}}}, {}
        if path == repo_prefix:
            return 200, {"full_name": fake.repo, "name": fake.repo.split("/")[1]}, {}
        if path == f"{repo_prefix}/labels":
            return self._labels(path, query)
        match = re.fullmatch(r"/users/([^/]+)", path)
        if match:
            return self._user(match.group(1))
        if path == f"{repo_prefix}/issues":
            return self._issues(path, query)
        if path == f"{repo_prefix}/pulls":
            return self._pulls(path, query)
        if path == f"{repo_prefix}/releases":
            return self._releases(path, query)
        match = re.fullmatch(rf"{re.escape(repo_prefix)}/issues/(\d+)", path)
        if match:
            item = fake.items.get(int(match.group(1)))
            if item is None:
                return 404, {"message": "Not Found"}, {}
            return 200, item.wire(fake.repo, fake.url), {}
        match = re.fullmatch(rf"{re.escape(repo_prefix)}/issues/(\d+)/comments", path)
        if match:
            return self._comments(path, query, int(match.group(1)))
        match = re.fullmatch(rf"{re.escape(repo_prefix)}/pulls/(\d+)/reviews", path)
        if match:
            return self._reviews(path, query, int(match.group(1)))
        match = re.fullmatch(rf"{re.escape(repo_prefix)}/pulls/(\d+)/files", path)
        if match:
            return self._pull_files(path, query, int(match.group(1)))
        match = re.fullmatch(rf"{re.escape(repo_prefix)}/tarball/(.+)", path)
        if match:
            ref = match.group(1)
            if (fake.repo, ref) not in fake.tarballs:
                return 404, {"message": "Not Found"}, {}
            location = f"{fake.url}/_codeload/{fake.repo}/legacy.tar.gz/{ref}"
            return 302, {}, {"Location": location}
        match = re.fullmatch(rf"{re.escape(repo_prefix)}/pulls/(\d+)", path)
        if match:
            item = fake.items.get(int(match.group(1)))
            if item is None or item.kind != "pr":
                return 404, {"message": "Not Found"}, {}
            return 200, item.pull_wire(fake.repo, fake.url, full=True), {}
        match = re.fullmatch(rf"{re.escape(repo_prefix)}/contents/(.+)", path)
        if match:
            return self._contents(match.group(1), _one(query, "ref", "main"))
        if path == f"{repo_prefix}/commits":
            return self._commits(path, query)
        match = re.fullmatch(rf"{re.escape(repo_prefix)}/commits/([^/]+)", path)
        if match:
            return self._commit(match.group(1))
        match = re.fullmatch(rf"{re.escape(repo_prefix)}/commits/([^/]+)/pulls", path)
        if match:
            return self._commit_pulls(path, query, match.group(1))
        match = re.fullmatch(rf"{re.escape(repo_prefix)}/compare/(.+?)\.\.\.(.+)", path)
        if match:
            return self._compare(match.group(1), match.group(2))
        return 404, {"message": "Not Found"}, {}

    def _releases(self, path: str, query: dict[str, list[str]]) -> tuple[int, Any, dict[str, str]]:
        """The repository's releases, newest first (drafts too: only their owners see them,
        and a bot's token may be one), in GitHub's release shape."""
        rows = sorted(self.fake.releases, key=lambda row: row[1], reverse=True)
        chunk, headers = self._page(path, query, rows)
        base = f"{self.fake.url}/repos/{self.fake.repo}/releases"
        wire = [
            {
                "id": 1000 + index,
                "url": f"{base}/{1000 + index}",
                "html_url": f"https://github.com/{self.fake.repo}/releases/tag/{tag}",
                "tag_name": tag,
                "name": tag,
                "draft": draft,
                "prerelease": pre,
                "created_at": iso(at),
                "published_at": None if draft else iso(at),
                "body": "",
            }
            for index, (tag, at, pre, draft) in enumerate(chunk)
        ]
        return 200, wire, headers

    def _commits(self, path: str, query: dict[str, list[str]]) -> tuple[int, Any, dict[str, str]]:
        """A branch's commits, newest first: those that touched `path` when it is given
        (the file's history), else the main repository's line; `since` and `until` bound
        their committer times, as GitHub's do."""
        ref, touched = _one(query, "sha", "main"), _one(query, "path", "")
        if touched:
            history = self.fake.file_history.get((self.fake.repo, touched, ref), [])
            rows = [(sha, at) for sha, at, _ in history]
        else:
            rows = list(self.fake.history.get(self.fake.repo, [])) if ref == "main" else []
        since, until = _one(query, "since", ""), _one(query, "until", "")
        if since:
            rows = [row for row in rows if row[1] >= parse_time(since)]
        if until:
            rows = [row for row in rows if row[1] <= parse_time(until)]
        chunk, headers = self._page(path, query, rows[::-1])
        return 200, [self._commit_wire(sha, at) for sha, at in chunk], headers

    def _at_commit(self, path: str, ref: str) -> str | None:
        """The file as commit `ref` left it, when `ref` is a commit of its history."""
        for (repo, file, _), history in self.fake.file_history.items():
            if repo == self.fake.repo and file == path:
                for sha, _, text in history:
                    if len(ref) >= 7 and sha.startswith(ref):
                        return text
        history = self.fake.file_history.get((self.fake.repo, path, ref))
        return history[-1][2] if history else None

    def _contents(self, path: str, ref: str) -> tuple[int, Any, dict[str, str]]:
        text = self.fake.files.get((self.fake.repo, path, ref)) or self._at_commit(path, ref)
        if text is None:
            return 404, {"message": "Not Found"}, {}
        data = text.encode()
        return (
            200,
            {
                "type": "file",
                "encoding": "base64",
                "size": len(data),
                "name": path.rsplit("/", 1)[-1],
                "path": path,
                "content": base64.b64encode(data).decode(),
                "sha": hashlib.sha1(data, usedforsecurity=False).hexdigest(),  # git names blobs so
                "url": f"{self.fake.url}/repos/{self.fake.repo}/contents/{path}?ref={ref}",
            },
            {},
        )

    def _commit_wire(self, sha: str, at: datetime) -> dict[str, Any]:
        person = {"name": "someone", "email": "someone@example.com", "date": iso(at)}
        return {
            "sha": sha,
            "url": f"{self.fake.url}/repos/{self.fake.repo}/commits/{sha}",
            "commit": {
                "author": person,
                "committer": person,
                "message": self.fake.messages.get(sha, f"commit {sha[:7]}"),
            },
        }

    def _find_commit(self, ref: str) -> int | None:
        history = self.fake.history.get(self.fake.repo, [])
        ref = self.fake.tags.get(ref, ref) if self.fake.repo == self.fake.root_repo else ref
        if ref in ("main", "HEAD") and history:
            return len(history) - 1
        found = [i for i, (sha, _) in enumerate(history) if sha.startswith(ref)]
        return found[0] if len(ref) >= 7 and found else None

    def _commit(self, ref: str) -> tuple[int, Any, dict[str, str]]:
        index = self._find_commit(ref)
        if index is None:
            return 422, {"message": f"No commit found for SHA: {ref}"}, {}
        sha, at = self.fake.history[self.fake.repo][index]
        return 200, self._commit_wire(sha, at), {}

    def _commit_pulls(
        self, path: str, query: dict[str, list[str]], ref: str
    ) -> tuple[int, Any, dict[str, str]]:
        """The pull requests associated with a commit: the merged one that brought it to the
        default branch, else the open ones that carry it (GitHub's rule)."""
        sha = ref.lower()
        carrying = [
            it
            for it in self.fake.snapshot()
            if it.kind == "pr" and len(sha) >= 7 and any(c.startswith(sha) for c in it.commits)
        ]
        if not carrying and self._find_commit(ref) is None:
            return 422, {"message": f"No commit found for SHA: {ref}"}, {}
        merged = sorted(
            (it for it in carrying if it.merged_at), key=lambda it: it.merged_at or it.created_at
        )
        rows = merged[:1] or [it for it in carrying if it.closed_at is None]
        chunk, headers = self._page(path, query, rows)
        return 200, [it.simple_wire(self.fake.repo, self.fake.url) for it in chunk], headers

    def _compare(self, base: str, head: str) -> tuple[int, Any, dict[str, str]]:
        """Main's history is a line: `head` is ahead of `base` by the commits between."""
        first, last = self._find_commit(base), self._find_commit(head)
        if first is None or last is None:
            return 404, {"message": "Not Found"}, {}
        history = self.fake.history[self.fake.repo]
        ahead, behind = max(0, last - first), max(0, first - last)
        status = "identical" if first == last else "ahead" if ahead else "behind"
        return (
            200,
            {
                "status": status,
                "ahead_by": ahead,
                "behind_by": behind,
                "total_commits": ahead,
                "base_commit": self._commit_wire(*history[first]),
                "merge_base_commit": self._commit_wire(*history[min(first, last)]),
                "commits": [self._commit_wire(*c) for c in history[first + 1 : last + 1][:250]],
                "files": [],
            },
            {},
        )

    def _page(
        self, path: str, query: dict[str, list[str]], rows: list[Any]
    ) -> tuple[list[Any], dict[str, str]]:
        per_page = min(int(_one(query, "per_page", "30")), 100)
        page = int(_one(query, "page", "1"))
        chunk = rows[(page - 1) * per_page : page * per_page]
        last = max(1, -(-len(rows) // per_page))
        links = []
        flat = {k: v[0] for k, v in query.items()}

        def link(number: int, rel: str) -> str:
            params = urlencode({**flat, "page": number, "per_page": per_page})
            return f'<{self.fake.url}{path}?{params}>; rel="{rel}"'

        if page < last:
            links += [link(page + 1, "next"), link(last, "last")]
        if page > 1:
            links += [link(1, "first"), link(page - 1, "prev")]
        return chunk, ({"Link": ", ".join(links)} if links else {})

    def _search(
        self, path: str, query: dict[str, list[str]], incomplete: bool
    ) -> tuple[int, Any, dict[str, str]]:
        matches = search(self.fake, _one(query, "q", ""))
        matches.sort(key=lambda it: (it.created_at, it.number))
        if _one(query, "order", "desc") == "desc":
            matches.reverse()
        capped = matches[:SEARCH_CAP]
        chunk, headers = self._page(path, query, capped)
        body = {
            "total_count": len(matches),
            "incomplete_results": incomplete,
            "items": [dict(it.wire(self.fake.repo, self.fake.url), score=1.0) for it in chunk],
        }
        return 200, body, headers

    def _issues(self, path: str, query: dict[str, list[str]]) -> tuple[int, Any, dict[str, str]]:
        rows = _listing(self.fake.snapshot(), query)
        chunk, headers = self._page(path, query, rows)
        return 200, [it.wire(self.fake.repo, self.fake.url) for it in chunk], headers

    def _pulls(self, path: str, query: dict[str, list[str]]) -> tuple[int, Any, dict[str, str]]:
        rows = [it for it in _listing(self.fake.snapshot(), query) if it.kind == "pr"]
        chunk, headers = self._page(path, query, rows)
        return (
            200,
            [it.pull_wire(self.fake.repo, self.fake.url, full=False) for it in chunk],
            headers,
        )

    def _labels(self, path: str, query: dict[str, list[str]]) -> tuple[int, Any, dict[str, str]]:
        fake = self.fake
        names = sorted({*fake.labels, *(lb for it in fake.items.values() for lb in it.labels)})
        chunk, headers = self._page(path, query, names)
        body = [
            {"id": abs(hash(n)) % 10**8, "name": n, "color": "ededed", "default": False}
            for n in chunk
        ]
        return 200, body, headers

    def _user(self, login: str) -> tuple[int, Any, dict[str, str]]:
        fake = self.fake
        known = {login.lower() for login in fake.users}
        known |= {it.author.lower() for it in fake.items.values() if it.author}
        if login.lower() not in known:
            return 404, {"message": "Not Found"}, {}
        return 200, {"login": login, "id": abs(hash(login)) % 10**8, "type": "User"}, {}

    def _comments(
        self, path: str, query: dict[str, list[str]], number: int
    ) -> tuple[int, Any, dict[str, str]]:
        item = self.fake.items.get(number)
        if item is None:
            return 404, {"message": "Not Found"}, {}
        since = _one(query, "since", "")
        rows = sorted(item.comment_list, key=lambda c: (c["created_at"], c["id"]))
        if since:
            rows = [c for c in rows if c["created_at"] >= parse_time(since)]
        chunk, headers = self._page(path, query, rows)
        api, repo = self.fake.url, self.fake.repo
        body = [
            {
                "id": c["id"],
                "node_id": f"IC_{c['id']}",
                "url": f"{api}/repos/{repo}/issues/comments/{c['id']}",
                "html_url": f"https://github.com/{repo}/issues/{number}#issuecomment-{c['id']}",
                "issue_url": f"{api}/repos/{repo}/issues/{number}",
                "body": c.get("body", ""),
                "user": {"login": c["user"], "id": abs(hash(c["user"])) % 10**8, "type": "User"},
                "created_at": iso(c["created_at"]),
                "updated_at": iso(c["created_at"]),
                "author_association": c.get("author_association", "NONE"),
                "reactions": {"total_count": 0},
                "performed_via_github_app": None,
            }
            for c in chunk
        ]
        return 200, body, headers

    def _pull_files(
        self, path: str, query: dict[str, list[str]], number: int
    ) -> tuple[int, Any, dict[str, str]]:
        item = self.fake.items.get(number)
        if item is None or item.kind != "pr":
            return 404, {"message": "Not Found"}, {}
        rows = item.changes or [(name, "modified", None) for name in item.files]
        chunk, headers = self._page(path, query, rows)
        head = item.head_sha or f"{number:040d}"
        api = f"{self.fake.url}/repos/{self.fake.repo}"
        body = []
        for name, status, previous in chunk:
            entry: dict[str, Any] = {
                "sha": hashlib.sha1(name.encode(), usedforsecurity=False).hexdigest(),
                "filename": name,
                "status": status,
                "additions": 1,
                "deletions": 1,
                "changes": 2,
                "blob_url": f"https://github.com/{self.fake.repo}/blob/{head}/{name}",
                "raw_url": f"https://github.com/{self.fake.repo}/raw/{head}/{name}",
                "contents_url": f"{api}/contents/{name}?ref={head}",
                "patch": "@@ -1 +1 @@",
            }
            if previous:
                entry["previous_filename"] = previous
            body.append(entry)
        return 200, body, headers

    def _reviews(
        self, path: str, query: dict[str, list[str]], number: int
    ) -> tuple[int, Any, dict[str, str]]:
        item = self.fake.items.get(number)
        if item is None or item.kind != "pr":
            return 404, {"message": "Not Found"}, {}
        rows = sorted(item.reviews, key=lambda r: (r["submitted_at"], r["id"]))
        chunk, headers = self._page(path, query, rows)
        body = [
            {
                "id": r["id"],
                "node_id": f"PRR_{r['id']}",
                "user": {"login": r["user"], "id": abs(hash(r["user"])) % 10**8, "type": "User"},
                "body": r.get("body", ""),
                "state": r.get("state", "COMMENTED"),
                "html_url": f"https://github.com/{self.fake.repo}/pull/{number}#pullrequestreview-{r['id']}",
                "submitted_at": iso(r["submitted_at"]),
                "author_association": r.get("author_association", "NONE"),
                "commit_id": "0" * 40,
            }
            for r in chunk
        ]
        return 200, body, headers


class BadRequest(Exception):
    pass


def _one(query: dict[str, list[str]], key: str, default: str) -> str:
    values = query.get(key)
    return values[0] if values else default


def _listing(items: list[FakeItem], query: dict[str, list[str]]) -> list[FakeItem]:
    state = _one(query, "state", "open")
    rows = [it for it in items if state == "all" or it.state() == state]
    since = _one(query, "since", "")
    if since:
        moment = parse_time(since)
        rows = [it for it in rows if it.updated_at >= moment]
    sort = _one(query, "sort", "created")
    key: Callable[[FakeItem], Any] = {
        "created": lambda it: (it.created_at, it.number),
        "updated": lambda it: (it.updated_at, it.number),
        "comments": lambda it: (it.comments, it.number),
    }[sort]
    rows.sort(key=key, reverse=_one(query, "direction", "desc") == "desc")
    return rows


_RANGE_FIELDS = ("created", "closed", "merged", "updated")


def search(fake: FakeGitHub, q: str) -> list[FakeItem]:
    """GitHub's issue search over the fake's items, for the qualifiers the bot sends."""
    tokens = shlex.split(q)
    kinds = {t.split(":", 1)[1] for t in tokens if t.startswith(("is:", "type:"))}
    kind_filter = kinds & {"issue", "pr", "pull-request"}
    if not kind_filter:
        raise BadRequest("Query must include 'is:issue' or 'is:pull-request'")
    if len(kind_filter) > 1:
        return []  # GitHub answers nothing useful for both at once
    want_kind = "issue" if kind_filter == {"issue"} else "pr"
    repos = [t.split(":", 1)[1] for t in tokens if t.startswith("repo:")]
    if repos and repos[0] != fake.repo:
        return []
    rows = [it for it in fake.snapshot() if it.kind == want_kind]
    for token in tokens:
        negate = token.startswith("-")
        name, _, value = token.lstrip("-").partition(":")
        test = _qualifier(name, value, token)
        if test is not None:
            rows = [it for it in rows if test(it) != negate]
    return rows


def _qualifier(name: str, value: str, token: str) -> Callable[[FakeItem], bool] | None:
    """The test one qualifier makes of an item (None: it filters nothing here)."""
    if name in _RANGE_FIELDS:
        return lambda it: _in_range(getattr(it, f"{name}_at"), value)
    if token == "is:open":
        return lambda it: it.closed_at is None
    if token == "is:closed":
        return lambda it: it.closed_at is not None
    if token == "is:merged":
        return lambda it: it.merged_at is not None
    if name == "label":
        wanted = {label.strip().strip('"').lower() for label in value.split(",")}
        return lambda it: bool(wanted & {label.lower() for label in it.labels})
    if name == "draft":
        return lambda it: it.draft == (value == "true")
    if name == "author":
        return lambda it: (it.author or "").lower() == value.lower()
    if name == "review":
        return _review_test(value)
    if name in ("repo", "is", "type", "sort"):
        return None
    raise BadRequest(f"the fake does not know the qualifier {token!r}")


def _review_test(value: str) -> Callable[[FakeItem], bool]:
    if value == "none":
        return lambda it: not it.submitted_reviews()
    if value == "required":
        return lambda it: it.decision() is None
    if value in ("approved", "changes_requested"):
        return lambda it: it.decision() == value
    raise BadRequest(f"review:{value} is not a review qualifier")


def _in_range(moment: datetime | None, spec: str) -> bool:
    """GitHub's range syntax: `A..B` (both ends included), `>=A`, `>A`, `<=A`, `<A`."""
    if moment is None:
        return False
    if ".." in spec:
        low, _, high = spec.partition("..")
        start = parse_time(low) if low not in ("", "*") else None
        end = _end_of(high) if high not in ("", "*") else None
        return (start is None or moment >= start) and (end is None or moment <= end)
    for op, test in (
        (">=", lambda a, b: a >= b),
        ("<=", lambda a, b: a <= b),
        (">", lambda a, b: a > b),
        ("<", lambda a, b: a < b),
    ):
        if spec.startswith(op):
            return bool(test(moment, parse_time(spec[len(op) :])))
    return _in_range(moment, f"{spec}..{spec}")


def _end_of(text: str) -> datetime:
    """A bare date as the upper end means the whole day."""
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text.strip()):
        return parse_time(text) + timedelta(days=1) - timedelta(microseconds=1)
    return parse_time(text)


# -- GraphQL: the queries the review queue sends ----------------------------------------------

_SEARCH = re.compile(
    r"(\w+): search\(query: \$(\w+), type: ISSUE, first: (\d+)(?:, after: \$(\w+))?\)"
    r" \{ issueCount( pageInfo)?"
)
_BY_NUMBER = re.compile(r"(\w+): issueOrPullRequest\(number: (\d+)\)")
_TIMELINE = re.compile(r"timelineItems\(itemTypes: \[READY_FOR_REVIEW_EVENT\], (first|last): 1\)")
_THREAD = re.compile(r"(reviews|comments)\(first: (\d+)\)")
_LAST_COMMENTS = re.compile(r"comments\(last: (\d+)\)")
_FILES = re.compile(r"files\(first: (\d+)\)")
_DECISIONS = {"approved": "APPROVED", "changes_requested": "CHANGES_REQUESTED"}


def _unresolved(fake: FakeGitHub, query: str) -> list[dict[str, Any]]:
    return [
        {
            "type": "NOT_FOUND",
            "path": ["repository", alias],
            "message": f"Could not resolve to an issue or pull request with the number of {n}.",
        }
        for alias, n in _BY_NUMBER.findall(query)
        if int(n) not in fake.items
    ]


def graphql(fake: FakeGitHub, query: str, variables: dict[str, Any]) -> dict[str, Any]:
    """The `data` of one query: search aliases, and items by number in `repository`."""
    data: dict[str, Any] = {}
    if "repository(" in query:
        found: dict[str, Any] | None = {}
        if f"{variables.get('owner')}/{variables.get('name')}" != fake.repo:
            found = None
        else:
            for alias, number in _BY_NUMBER.findall(query):
                item = fake.items.get(int(number))
                found[alias] = _node(item, query, fake) if item is not None else None
        data["repository"] = found
    for alias, variable, first, after, paged in _SEARCH.findall(query):
        rows = search(fake, variables[variable])
        # Like GitHub: oldest or newest first only when a `sort:` qualifier says so; else
        # "best match", here the most recently updated first (never the oldest first).
        text = variables[variable]
        if "sort:created-asc" in text or "sort:created-desc" in text:
            rows.sort(key=lambda it: (it.created_at, it.number), reverse="-desc" in text)
        else:
            rows.sort(key=lambda it: (it.updated_at, it.number), reverse=True)
        answer: dict[str, Any] = {"issueCount": len(rows)}
        if paged:
            start = int(base64.b64decode(variables.get(after) or "MA==").decode()) if after else 0
            capped = rows[:SEARCH_CAP]
            page = capped[start : start + int(first)]
            end = start + len(page)
            answer["pageInfo"] = {
                "hasNextPage": end < len(capped),
                "endCursor": base64.b64encode(str(end).encode()).decode() if page else None,
            }
            answer["nodes"] = [_node(it, query, fake) for it in page]
        data[alias] = answer
    return data


def _actor(login: str | None) -> dict[str, Any] | None:
    if not login:
        return None
    if login.endswith("[bot]"):  # GraphQL names an app without the suffix REST gives it
        return {"__typename": "Bot", "login": login.removesuffix("[bot]")}
    return {"__typename": "User", "login": login}


def _node(item: FakeItem, query: str, fake: FakeGitHub) -> dict[str, Any]:
    """An item as GraphQL shows it, with the fields the query names."""
    node: dict[str, Any] = {
        "__typename": "PullRequest" if item.kind == "pr" else "Issue",
        "number": item.number,
        "title": item.title,
        "body": item.body,
        "createdAt": iso(item.created_at),
        "updatedAt": iso(item.updated_at),
        "closedAt": iso(item.closed_at),
        "authorAssociation": item.author_association,
        "author": _actor(item.author),
        "labels": {"nodes": [{"name": name} for name in item.labels]},
    }
    threads = dict(_THREAD.findall(query))
    if item.kind == "pr":
        node.update(
            isDraft=item.draft,
            mergedAt=iso(item.merged_at),
            additions=item.additions,
            deletions=item.deletions,
            changedFiles=item.changed_files,
            files={
                "totalCount": len(item.files),
                "nodes": [{"path": f} for f in item.files[: int(_FILES.findall(query)[0])]]
                if _FILES.search(query)
                else [],
            },
            reviewRequests={
                "nodes": [{"requestedReviewer": _actor(r)} for r in item.review_requests]
            },
            reviewDecision=_DECISIONS.get(item.decision() or "", "REVIEW_REQUIRED"),
            headRefOid=item.head_sha or f"{item.number:040d}",
            baseRefOid=item.base_sha or "0" * 40,
        )
        timeline = _TIMELINE.search(query)
        if timeline is not None:
            events = sorted(item.ready_events)
            picked = events[:1] if timeline.group(1) == "first" else events[-1:]
            node["timelineItems"] = {"nodes": [{"createdAt": iso(at)} for at in picked]}
        reviews = sorted(item.submitted_reviews(), key=lambda r: (r["submitted_at"], r["id"]))
        node["reviews"] = {
            "totalCount": len(reviews),
            "nodes": [
                {
                    "author": _actor(r["user"]),
                    "submittedAt": iso(r["submitted_at"]),
                    "state": r.get("state", "COMMENTED"),
                }
                for r in reviews[: int(threads.get("reviews", 100))]
            ],
        }
    else:
        comments = sorted(item.comment_list, key=lambda c: (c["created_at"], c["id"]))
        last = _LAST_COMMENTS.findall(query)  # `comments(last: N)`: the newest N
        shown = comments[-int(last[0]) :] if last else comments[: int(threads.get("comments", 100))]
        node["comments"] = {
            "totalCount": len(comments),
            "nodes": [
                {"author": _actor(c["user"]), "createdAt": iso(c["created_at"])} for c in shown
            ],
        }
    return {key: value for key, value in node.items() if re.search(rf"\b{key}\b", query)}
