"""What personal digests ask GitHub: a PR's files, requested reviewers and review decision,
an issue's last comments (one GraphQL request per FACTS_PER_QUERY items: GitHub answers
GraphQL only with a token),
and, when someone subscribes, whether a login or a label exists (REST, one request or a
page of labels)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from github import GithubException

from bot.collect.client import Collector
from bot.collect.numbers import partial_data
from bot.collect.queue_graphql import login_of, moment
from bot.collect.source import CollectError
from bot.model.personal import COMMENTS_READ, PATHS_PER_PR, PullFacts

FACTS_PER_QUERY = 50  # aliases per query: well within GitHub's node limit at 100 files each
_FACTS_NODE = (
    "... on PullRequest { reviewDecision "
    f"files(first: {PATHS_PER_PR}) {{ totalCount nodes {{ path }} }} "
    "reviewRequests(first: 20) { nodes { requestedReviewer "
    "{ __typename ... on User { login } } } } } "
    f"... on Issue {{ comments(last: {COMMENTS_READ}) "
    "{ nodes { author { __typename login } createdAt } } }"
)


def pulls_facts(github: Collector, numbers: Sequence[int]) -> list[PullFacts]:
    """The facts of these PRs and issues, in their order (a number GitHub no longer
    resolves: no facts)."""
    if not github.source.token:
        raise CollectError(
            "reading the files a PR changes needs a GitHub token (GitHub answers GraphQL "
            "only with one): set GITHUB_TOKEN"
        )
    owner, name = github.source.repo.split("/", 1)
    found: list[PullFacts] = []
    for start in range(0, len(numbers), FACTS_PER_QUERY):
        chunk = numbers[start : start + FACTS_PER_QUERY]
        reads = " ".join(
            f"p{number}: issueOrPullRequest(number: {number}) {{ {_FACTS_NODE} }}"
            for number in chunk
        )
        query = (
            "query Facts($owner: String!, $name: String!) "
            f"{{ repository(owner: $owner, name: $name) {{ {reads} }} }}"
        )
        try:
            data = github.graphql(query, {"owner": owner, "name": name}, "the PRs' files")
        except CollectError as exc:
            data = partial_data(exc)  # one number GitHub cannot resolve: the others still count
        nodes = data.get("repository") or {}
        found += [_facts(number, nodes.get(f"p{number}")) for number in chunk]
    return found


def _facts(number: int, node: Any) -> PullFacts:
    if isinstance(node, dict) and "comments" in node:  # an issue: who commented, when
        return _issue_facts(number, node)
    if not isinstance(node, dict) or "files" not in node:
        return PullFacts(number)
    files = node.get("files") or {}
    paths = tuple(
        str(f["path"]) for f in files.get("nodes") or [] if isinstance(f, dict) and f.get("path")
    )
    requests = (node.get("reviewRequests") or {}).get("nodes") or []
    wanted = (login_of(r.get("requestedReviewer")) for r in requests if isinstance(r, dict))
    decision = node.get("reviewDecision")
    return PullFacts(
        number,
        paths,
        int(files.get("totalCount") or 0) > len(paths),
        tuple(login for login in wanted if login),
        str(decision).lower() if decision else None,
    )


def _issue_facts(number: int, node: dict[str, Any]) -> PullFacts:
    nodes = (node.get("comments") or {}).get("nodes") or []
    said = (
        (login_of(c.get("author")), moment(c.get("createdAt")))
        for c in nodes
        if isinstance(c, dict)
    )
    return PullFacts(number, comments=tuple((who, at) for who, at in said if who and at))


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
