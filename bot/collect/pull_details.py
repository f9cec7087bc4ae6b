"""A PR's size, reviewers and verdicts from GitHub's GraphQL answer (the key-change
shortlist's and the queue's details), read at the boundary into our `PullDetails`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.collect.graphql_values import login_of, moment
from bot.model.report import PullDetails, Verdict

# PRs whose size and reviewers one GraphQL request reads (the key-change shortlist is 8):
# GitHub allows 500,000 nodes a query; 50 PRs × 100 reviews is 5,050.
DETAILS_PER_QUERY = 50
# A PR's first 100 reviews; one with more is read again by REST, which pages through all.
DETAILS_NODE = (
    "... on PullRequest { additions deletions changedFiles "
    "reviews(first: 100) { totalCount nodes { author { __typename login } state submittedAt } } }"
)


def has_all_reviews(node: dict[str, Any]) -> bool:
    """Whether the node holds every review of its PR (GitHub gives the first 100)."""
    reviews = node.get("reviews") or {}
    return int(reviews.get("totalCount") or 0) <= len(reviews.get("nodes") or [])


def details(number: int, author: str | None, node: dict[str, Any]) -> PullDetails:
    """A PR's size and reviewers from its GraphQL node, as `pull_details` reads them."""
    nodes = [r for r in (node.get("reviews") or {}).get("nodes") or [] if isinstance(r, dict)]
    reviews = [
        (login_of(r.get("author")), r.get("state"), moment(r.get("submittedAt"))) for r in nodes
    ]
    sizes = (node.get("additions"), node.get("deletions"), node.get("changedFiles"))
    return pull_facts(number, author, sizes, reviews)


def pull_facts(
    number: int,
    author: str | None,
    sizes: tuple[Any, Any, Any],
    reviews: Sequence[tuple[str | None, Any, datetime | None]],
) -> PullDetails:
    """A PR's details from its sizes (additions, deletions, changed files) and its reviews
    (login, state, submitted), however GitHub gave them (REST or GraphQL)."""
    additions, deletions, changed = sizes
    return PullDetails(
        number=number,
        additions=count(additions),
        deletions=count(deletions),
        changed_files=count(changed),
        reviewers=reviewers([login for login, _, _ in reviews], author),
        verdicts=verdicts(reviews, author),
    )


_DECIDING = {"APPROVED": "approved", "CHANGES_REQUESTED": "changes_requested"}


def verdicts(
    reviews: Sequence[tuple[str | None, Any, datetime | None]], author: str | None
) -> tuple[Verdict, ...]:
    """The approvals and change requests among `reviews` (login, state, submitted), oldest
    first; the author's own and undated ones (pending) left out."""
    found = [
        Verdict(login, _DECIDING[str(state)], aware(at))
        for login, state, at in reviews
        if login and login != author and str(state) in _DECIDING and at is not None
    ]
    return tuple(sorted(found, key=lambda v: v.at))


def reviewers(logins: Sequence[str | None], author: str | None) -> tuple[str, ...]:
    """Who reviewed, in the order of their first review: each once, the author left out."""
    return tuple(dict.fromkeys(login for login in logins if login and login != author))


def count(value: Any) -> int | None:
    return int(value) if isinstance(value, int) else None


def aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
