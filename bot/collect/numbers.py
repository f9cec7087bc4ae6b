"""GitHub's word on many numbers of one repository at once: each issue or pull request (its
title, author, times, merge), or None when GitHub has none by that number.

With a token, one GraphQL request per PER_QUERY numbers (`nN: issueOrPullRequest(number:
N)` aliases); GitHub answers a number it cannot resolve with a null beside a NOT_FOUND
error, which is that number's "none", not a failure of the others. Without a token GitHub
answers GraphQL not at all, so one REST request each. The CI suspects
(`bot.features.ci.collect.suspects_of`) and the breakage radar's causes (`Archiver.look_up_numbers`)
both ask this way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.collect.graphql_values import login_of, moment
from bot.collect.source import CollectError
from bot.model.report import ActivityItem, Kind

if TYPE_CHECKING:
    from bot.collect.client import Collector

# Aliases per query: each is one node, far inside GitHub's limits (500,000 nodes, a query's
# cost of 1 point per 100 nodes), and 100 keeps an answer small enough to come back fast.
PER_QUERY = 100
ITEM_NODE = (
    "__typename ... on PullRequest { number title createdAt updatedAt closedAt mergedAt "
    "author { __typename login } } "
    "... on Issue { number title createdAt updatedAt closedAt author { __typename login } }"
)


def items_by_number(
    github: Collector,
    repo: str,
    numbers: Sequence[int],
    what: str = "the numbers' query",
    name: str = "Numbers",
) -> dict[int, ActivityItem | None]:
    """Each of `numbers` of `repo` as GitHub has it, or None when it has no such number.
    CollectError when GitHub fails (the numbers asked before it in other requests are
    still lost to the caller: ask at most PER_QUERY at a time to keep each answer). `what`
    names the query in a failure's sentence, `name` in GitHub's logs."""
    if not numbers:
        return {}
    if not github.source.token:
        return {n: github.find_item(n) for n in numbers}
    owner, short = repo.split("/", 1)
    found: dict[int, ActivityItem | None] = {}
    for start in range(0, len(numbers), PER_QUERY):
        chunk = numbers[start : start + PER_QUERY]
        reads = " ".join(f"n{n}: issueOrPullRequest(number: {n}) {{ {ITEM_NODE} }}" for n in chunk)
        query = (
            f"query {name}($owner: String!, $name: String!) "
            f"{{ repository(owner: $owner, name: $name) {{ {reads} }} }}"
        )
        try:
            data = github.graphql(query, {"owner": owner, "name": short}, what)
        except CollectError as exc:
            data = partial_data(exc)  # a number GitHub has not: the others still count
        nodes = data.get("repository") or {}
        found.update({n: _item(repo, nodes.get(f"n{n}")) for n in chunk})
    return found


def partial_data(exc: CollectError) -> dict[str, Any]:
    """The data GitHub gave beside its errors when every error is a number it does not
    resolve (NOT_FOUND: none by that number, deleted, or a suspended author's); any other
    failure stands."""
    answer = getattr(exc.__cause__, "data", None)
    if not isinstance(answer, dict) or not isinstance(answer.get("data"), dict):
        raise exc
    errors = answer.get("errors") or []
    if not all(isinstance(e, dict) and e.get("type") == "NOT_FOUND" for e in errors):
        raise exc
    data: dict[str, Any] = answer["data"]
    return data


def _item(repo: str, node: Any) -> ActivityItem | None:
    if not isinstance(node, dict) or "number" not in node:
        return None
    kind: Kind = "pr" if node.get("__typename") == "PullRequest" else "issue"
    created = moment(node.get("createdAt"))
    if created is None:
        return None
    number = int(node["number"])
    path = "pull" if kind == "pr" else "issues"
    return ActivityItem(
        repo=repo,
        number=number,
        kind=kind,
        title=str(node.get("title") or ""),
        author=login_of(node.get("author")),
        labels=(),
        state="closed" if node.get("closedAt") else "open",
        created_at=created,
        updated_at=moment(node.get("updatedAt")) or created,
        url=f"https://github.com/{repo}/{path}/{number}",
        closed_at=moment(node.get("closedAt")),
        merged_at=moment(node.get("mergedAt")),
    )
