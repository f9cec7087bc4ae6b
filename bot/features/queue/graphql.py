"""The review queue's GraphQL: the query text (lists, facts, reviewers, bodies) and its
answers turned into our types (`QueueItem`, `ResponseFact`), for bot.features.queue.collect."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot.collect.graphql_values import login_of, moment
from bot.features.queue.analyze import first_answer
from bot.features.queue.model import (
    QueueItem,
    ResponseFact,
)
from bot.model.report import ActivityItem

if TYPE_CHECKING:
    pass


PAGE = 100  # GraphQL's largest page
REVIEWS_READ = 30  # reviews (or comments) read per item: the first answer is among them
IsBot = Callable[[str | None], bool]


@dataclass(frozen=True)
class Search:
    alias: str
    query: str
    items: bool  # read the items (else the total only)
    reviews: bool = False  # and who reviewed each
    whole: bool = False  # every page (else the first page: the oldest 100 and the total)


# -- GraphQL text -------------------------------------------------------------------------

AUTHOR = "author { __typename login }"
LABELS = "labels(first: 50) { nodes { name } }"
READY_LAST = (
    "timelineItems(itemTypes: [READY_FOR_REVIEW_EVENT], last: 1) "
    "{ nodes { ... on ReadyForReviewEvent { createdAt } } }"
)
READY_FIRST = READY_LAST.replace("last: 1", "first: 1")
LIST_NODE = (
    f"__typename ... on PullRequest {{ number title createdAt updatedAt isDraft authorAssociation "
    f"{AUTHOR} {LABELS} {READY_LAST} }} "
    f"... on Issue {{ number title createdAt updatedAt authorAssociation {AUTHOR} {LABELS} }}"
)
FACT_NODE = (
    f"__typename ... on PullRequest {{ number title createdAt mergedAt closedAt authorAssociation "
    f"{AUTHOR} {LABELS} {READY_FIRST} "
    f"reviews(first: {REVIEWS_READ}) {{ totalCount nodes {{ {AUTHOR} submittedAt }} }} }} "
    f"... on Issue {{ number title createdAt closedAt authorAssociation {AUTHOR} {LABELS} "
    f"comments(first: {REVIEWS_READ}) {{ totalCount nodes {{ {AUTHOR} createdAt }} }} }}"
)
REVIEWERS = f"reviews(first: 20) {{ totalCount nodes {{ {AUTHOR} }} }}"
REVIEWED_NODE = LIST_NODE.replace(READY_LAST, f"{READY_LAST} {REVIEWERS}", 1)
BODY_NODE = "__typename ... on PullRequest { number body } ... on Issue { number body }"
PAGE_INFO = "pageInfo { hasNextPage endCursor }"


def search_query(
    searches: Sequence[Search], node: str = LIST_NODE, reads: Sequence[Read] = ()
) -> str:
    """One GraphQL query: `searches` as aliases (`$q_<alias>`, `$a_<alias>` a page cursor)
    and items read by number (`issueOrPullRequest`) inside `repository`."""
    names, fields = [], []
    for s in searches:
        names.append(f"$q_{s.alias}: String!")
        if s.items:
            names.append(f"$a_{s.alias}: String")
            selection = REVIEWED_NODE if s.reviews and node == LIST_NODE else node
            fields.append(
                f"{s.alias}: search(query: $q_{s.alias}, type: ISSUE, first: {PAGE}, "
                f"after: $a_{s.alias}) {{ issueCount {PAGE_INFO} nodes {{ {selection} }} }}"
            )
        else:
            fields.append(
                f"{s.alias}: search(query: $q_{s.alias}, type: ISSUE, first: 1) {{ issueCount }}"
            )
    if reads:
        names += ["$owner: String!", "$name: String!"]
        inner = " ".join(
            f"{r.alias}: issueOrPullRequest(number: {r.number}) {{ {r.node} }}" for r in reads
        )
        fields.append(f"repository(owner: $owner, name: $name) {{ {inner} }}")
    return f"query Queue({', '.join(names)}) {{ {' '.join(fields)} }}"


@dataclass(frozen=True)
class Read:
    """One item read by number, its answer under `alias` inside `repository`."""

    alias: str
    number: int
    node: str


# -- GraphQL answers → our types ------------------------------------------------------------


def _labels(node: dict[str, Any]) -> tuple[str, ...]:
    return tuple(str(n["name"]) for n in (node.get("labels") or {}).get("nodes") or [] if n)


def _ready(node: dict[str, Any]) -> datetime | None:
    events = (node.get("timelineItems") or {}).get("nodes") or []
    return moment(events[0].get("createdAt")) if events and events[0] else None


def _kind(node: dict[str, Any]) -> str:
    return "pr" if node.get("__typename") == "PullRequest" else "issue"


def queue_item(node: dict[str, Any]) -> QueueItem:
    created = moment(node["createdAt"])
    assert created is not None  # noqa: S101 - GitHub always sends it
    reviews = node.get("reviews")
    reviewers = None
    if isinstance(reviews, dict):
        read = [login_of(r.get("author")) for r in reviews.get("nodes") or [] if r]
        reviewers = tuple(login for login in read if login)
    return QueueItem(
        number=int(node["number"]),
        kind="pr" if _kind(node) == "pr" else "issue",
        title=str(node.get("title") or ""),
        author=login_of(node.get("author")),
        labels=_labels(node),
        created_at=created,
        updated_at=moment(node.get("updatedAt")) or created,
        ready_at=_ready(node),
        draft=bool(node.get("isDraft")),
        author_association=node.get("authorAssociation"),
        reviewers=reviewers,
        more_reviews=isinstance(reviews, dict)
        and int(reviews.get("totalCount") or 0) > len(reviews.get("nodes") or []),
    )


def from_activity(item: ActivityItem) -> QueueItem:
    """A REST search result as a queue item (REST does not say when it was marked ready)."""
    return QueueItem(
        number=item.number,
        kind=item.kind,
        title=item.title,
        author=item.author,
        labels=item.labels,
        created_at=item.created_at,
        updated_at=item.updated_at,
        draft=item.draft,
        author_association=item.author_association,
        body=item.body,
    )


def response_fact(node: dict[str, Any], is_bot: IsBot) -> ResponseFact:
    """A merged PR's first review, or an issue's first answer, bots and the author left out."""
    pr = _kind(node) == "pr"
    author = login_of(node.get("author"))
    thread = (node.get("reviews") if pr else node.get("comments")) or {}
    answers = [
        (login_of(a.get("author")), moment(a.get("submittedAt" if pr else "createdAt")))
        for a in thread.get("nodes") or []
        if a
    ]
    first = first_answer(author, answers, is_bot)
    read_all = int(thread.get("totalCount") or 0) <= len(answers)
    created = moment(node["createdAt"])
    assert created is not None  # noqa: S101 - GitHub always sends it
    return ResponseFact(
        number=int(node["number"]),
        kind="pr" if pr else "issue",
        title=str(node.get("title") or ""),
        author=author,
        labels=_labels(node),
        created_at=created,
        ready_at=_ready(node) if pr else None,
        merged_at=moment(node.get("mergedAt")),
        closed_at=moment(node.get("closedAt")),
        first_response_at=first[1] if first else None,
        responder=first[0] if first else None,
        known=first is not None or read_all,
        author_association=node.get("authorAssociation"),
    )
