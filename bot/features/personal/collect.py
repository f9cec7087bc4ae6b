"""What personal digests ask GitHub: a PR's files, requested reviewers and review decision,
an issue's last comments (one GraphQL request per FACTS_PER_QUERY items: GitHub answers
GraphQL only with a token),
and, when someone subscribes, whether a login or a label exists (REST, one request or a
page of labels)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from bot.collect.client import Collector
from bot.collect.graphql_values import login_of, moment
from bot.collect.numbers import partial_data
from bot.collect.source import CollectError
from bot.collect.sync import Archiver
from bot.features.personal.model import COMMENTS_READ, PATHS_PER_PR, PullFacts
from bot.features.personal.store import PullFactsStore
from bot.model.report import ActivityItem

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


def pull_facts(
    archiver: Archiver, repo: str, items: Iterable[ActivityItem], now: datetime
) -> dict[int, PullFacts]:
    """Files, requested reviewers and review decision of these PRs, the last comments of
    these issues, read from GitHub (with a token) only when the stored copy is older than
    the item: one GraphQL request per 50, once per version (`archiver.reading_only()`:
    the stored copies alone)."""
    stored = PullFactsStore(archiver.store.transactions)
    wanted = list(items)
    known = stored.of(repo, [it.number for it in wanted])
    found = {n: facts for n, (facts, _) in known.items()}
    stale = [it for it in wanted if it.number not in known or known[it.number][1] < it.updated_at]
    if stale and archiver.fetch and archiver.source.token:
        with archiver.github(repo) as github:
            read = pulls_facts(github(), [it.number for it in stale])
        for item, facts in zip(stale, read, strict=True):
            stored.save(repo, facts, item.updated_at, now)
            found[item.number] = facts
    return found
