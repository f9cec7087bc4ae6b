"""What the review queue asks GitHub, and as few times as it can.

Lists: GitHub's search qualifiers do the work (`is:pr is:open draft:false review:none`,
`review:approved`, `review:changes_requested`, `label:…`, `updated:<=…`), one search per list
and scope; a count is the search's total. With a token the searches of every scope go out
as aliases of one GraphQL query (a handful per request), which also tells when each PR was
last marked ready for review; anonymously each is one REST search (ages then count from
the opening) and response times are skipped: GitHub's GraphQL API needs a token.

Response facts (first review, first answer, merge) are read only for PRs merged and issues
opened in the periods asked, through GraphQL search (100 items with their reviews or
comments per request), and stored: a span once read is never searched again, a final fact
(merged, closed, answered) never read again; open issues nobody answered yet are read again
at most once per `RECHECK`, 100 per request. Whether a merged PR was its author's first is
asked once per PR (a count of their earlier merged PRs, many per request).

PyGithub is imported only through bot/collect/client.py, when something must be fetched.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.collect.source import GitHubSource
from bot.collect.sync import SEARCH_INDEX_LAG, default_collector
from bot.features.queue.graphql import (
    BODY_NODE,
    FACT_NODE,
    PAGE,
    IsBot,
    Read,
    Search,
    from_activity,
    queue_item,
    response_fact,
    search_query,
)
from bot.features.queue.model import (
    CHANGES,
    DETAILED,
    LISTS,
    READY,
    REBASE,
    STALE_ISSUES,
    STALE_PRS,
    WAITING,
    Found,
    QueueItem,
    QueueRules,
    ResponseFact,
    ScopeLists,
)
from bot.features.queue.store import ResponseFacts
from bot.store import Span, Store

if TYPE_CHECKING:
    from bot.collect.client import Collector

log = logging.getLogger(__name__)

SEARCH_CAP = 1000  # GitHub search returns at most this many results per query
# Searches per GraphQL request: every list of five scopes (GitHub stops a query at 10 s and
# 500,000 nodes; a list of 100 PRs with their labels is about 5,200).
SEARCHES_PER_REQUEST = 30
NODES_PER_REQUEST = 100  # items read again by number per request
# An open issue nobody has answered is read again daily in its first week, then weekly
# (hours less than a day, so the next day's run reads it).
RECHECK = timedelta(hours=20)
RECHECK_YOUNG = timedelta(days=7)
RECHECK_OLD = timedelta(days=7) - timedelta(hours=4)
COUNTS_PER_REQUEST = 100  # count-only searches (first merges) per GraphQL request
SPLIT_MARGIN = 1.25


@dataclass(frozen=True)
class Scope:
    """Where a queue looks: a topic and its labels, or the repository (`key` None)."""

    key: str | None
    labels: tuple[str, ...] = ()


# -- the lists' queries -------------------------------------------------------------------


def label_clause(labels: Sequence[str], negate: bool = False) -> str:
    """`label:rocm`, `label:intel-gpu,xpu` (either), quoted where a label has a space."""
    if not labels:
        return ""
    values = ",".join(f'"{label}"' if re.search(r'[\s,:"]', label) else label for label in labels)
    return f"{'-' if negate else ''}label:{values}"


def utc(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S+00:00")


def list_queries(
    repo: str, scope: Scope, rules: QueueRules, now: datetime, reviews: bool = False
) -> dict[str, str]:
    """Each list's search for one scope, by list name. With `reviews` (the items' reviews
    are read too) the waiting list asks for every PR without a decision, and the queue keeps
    those no person reviewed: GitHub's `review:none` would drop a PR only a bot reviewed."""
    topic = label_clause(scope.labels)
    rebase = label_clause([rules.rebase_label])
    not_rebase = label_clause([rules.rebase_label], negate=True)
    open_prs = f"repo:{repo} is:pr is:open draft:false"
    stale = rules.stale
    stale_q = " ".join(
        [
            label_clause([stale.label]),
            *(label_clause([label], negate=True) for label in stale.exempt_labels),
            f"updated:<={utc(stale.soon_cutoff(now))}",
        ]
    )
    drafts = " draft:false" if stale.exempt_drafts else ""
    undecided = "-review:approved -review:changes_requested" if reviews else "review:none"
    queries = {
        WAITING: f"{open_prs} {undecided} {not_rebase}",
        CHANGES: f"{open_prs} review:changes_requested",
        REBASE: f"{open_prs} {rebase} -review:changes_requested",
        READY: f"{open_prs} review:approved {not_rebase}",
        STALE_ISSUES: f"repo:{repo} is:issue is:open {stale_q}",
        STALE_PRS: f"repo:{repo} is:pr is:open{drafts} {stale_q}",
    }
    # GitHub's search answers in "best match" order unless told: a list read from its first
    # page ("the oldest 100 and the total") must ask for the oldest first.
    return {name: f"{q} {topic} sort:created-asc".replace("  ", " ") for name, q in queries.items()}


def scope_searches(
    repo: str, scopes: Sequence[Scope], rules: QueueRules, now: datetime, reviews: bool = False
) -> list[tuple[Scope, str, Search]]:
    """Every search of every scope: a topic's detailed lists read their items, the rest and
    the repository's are counted (with `reviews`, a topic's waiting items with reviewers)."""
    found = []
    for index, scope in enumerate(scopes):
        detailed = scope.key is not None
        queries = list_queries(repo, scope, rules, now, reviews and detailed)
        for position, (name, query) in enumerate(queries.items()):
            wanted = detailed and name in DETAILED
            whole = wanted and name == WAITING
            alias = f"s{index}_{position}"
            found.append((scope, name, Search(alias, query, wanted, reviews and whole, whole)))
    return found


# -- the collector --------------------------------------------------------------------------


class QueueCollector:
    """Asks GitHub for the queue's lists and response facts, storing what lasts."""

    def __init__(
        self,
        store: Store,
        source: GitHubSource,
        collector: Callable[[GitHubSource], Collector] = default_collector,
        fetch: bool = True,
    ) -> None:
        self.store = store
        self.reviews = ResponseFacts(store.transactions)
        self.source = source
        self._make_collector = collector
        self.fetch = fetch
        self._opened: list[Collector] = []

    @property
    def graphql(self) -> bool:
        """GitHub's GraphQL API answers only requests with a token."""
        return bool(self.source.token)

    @contextmanager
    def session(self) -> Iterator[None]:
        """One collector for everything asked inside (opened on first use, closed after)."""
        try:
            yield
        finally:
            while self._opened:
                self._opened.pop().close()

    def _github(self, repo: str) -> Collector:
        if not self._opened:
            self._opened.append(self._make_collector(replace(self.source, repo=repo)))
        return self._opened[0]

    # -- lists ------------------------------------------------------------------------------

    def lists(
        self,
        repo: str,
        scopes: Sequence[Scope],
        rules: QueueRules,
        now: datetime,
        recheck: Span | None = None,
        is_bot: IsBot | None = None,
    ) -> tuple[list[ScopeLists], list[str]]:
        """Each scope's lists as GitHub answers them now. With a token, the open issues of
        `recheck` nobody has answered yet (read over RECHECK ago) are read again in the same
        requests."""
        planned = scope_searches(repo, scopes, rules, now, reviews=self.graphql)
        searches = [s for _, _, s in planned]
        github = self._github(repo)
        if self.graphql:
            reads = []
            if recheck is not None and is_bot is not None and self.fetch:
                numbers = self.reviews.to_recheck(
                    repo, recheck, now - RECHECK, now - RECHECK_YOUNG, now - RECHECK_OLD
                )
                reads = [Read(f"r{n}", n, FACT_NODE) for n in numbers]
            answers = self._graphql_lists(github, repo, searches, reads)
            if reads and is_bot is not None:
                facts = [
                    response_fact(answers[r.alias], is_bot)
                    for r in reads
                    if isinstance(answers.get(r.alias), dict)
                ]
                self.reviews.save(repo, facts, now)
        else:
            answers = self._rest_lists(github, searches)
        notes = []
        built = []
        for scope in scopes:
            lists = {}
            for owner, name, search in planned:
                if owner is scope:
                    found = answers[search.alias]
                    lists[name] = found
                    if not found.complete:
                        notes.append(
                            f"the queue's {name.replace('_', ' ')} list"
                            f"{' of ' + scope.key if scope.key else ''} is longer than GitHub's "
                            f"search shows ({SEARCH_CAP}): ages count the first {SEARCH_CAP}"
                        )
            ordered = {name: lists[name] for name in LISTS}
            built.append(ScopeLists(scope.key, ordered, detailed=scope.key is not None))
        return built, notes

    def _rest_lists(self, github: Collector, searches: Sequence[Search]) -> dict[str, Found]:
        found = {}
        for search in searches:
            cap = SEARCH_CAP if search.whole else PAGE
            listed = github.search_list(search.query, items=search.items, cap=cap)
            whole = listed.complete or not search.whole
            found[search.alias] = Found(
                listed.total, tuple(from_activity(it) for it in listed.items), whole
            )
        return found

    def _graphql_lists(
        self, github: Collector, repo: str, searches: Sequence[Search], reads: Sequence[Read]
    ) -> dict[str, Any]:
        """The searches' Found by alias (paged on past 100), and the reads' nodes."""
        items: dict[str, list[QueueItem]] = {s.alias: [] for s in searches}
        totals: dict[str, int] = {}
        cursors: dict[str, str | None] = {s.alias: None for s in searches}
        answers: dict[str, Any] = {}
        pending, pages = list(searches), 0
        while pending or reads:
            pages += 1
            data = self._batch(github, repo, pending, reads, cursors)
            reads = []
            follow: list[Search] = []
            for s in pending:
                answer = data.get(s.alias) or {}
                totals[s.alias] = int(answer.get("issueCount") or 0)
                if not s.items:
                    continue
                items[s.alias] += [queue_item(n) for n in answer.get("nodes") or [] if n]
                info = answer.get("pageInfo") or {}
                cursors[s.alias] = info.get("endCursor")
                # Only the waiting list is read whole (its ages and who reviewed); the others
                # show their oldest few and count the rest.
                if s.whole and info.get("hasNextPage") and pages * PAGE < SEARCH_CAP:
                    follow.append(s)
            answers.update({k: v for k, v in data.items() if k not in totals})
            pending = follow
        for s in searches:
            whole = not s.whole or len(items[s.alias]) >= totals[s.alias]
            answers[s.alias] = Found(totals[s.alias], tuple(items[s.alias]), whole)
        return answers

    def _batch(
        self,
        github: Collector,
        repo: str,
        searches: Sequence[Search],
        reads: Sequence[Read],
        cursors: dict[str, str | None] | None = None,
    ) -> dict[str, Any]:
        """Searches and reads packed into as few GraphQL requests as the limits allow; every
        answer by its alias (a read's node, or a search's answer)."""
        owner, name = repo.split("/", 1)
        size = SEARCHES_PER_REQUEST if any(s.items for s in searches) else COUNTS_PER_REQUEST
        search_chunks = list(_chunks(searches, size))
        read_chunks = list(_chunks(reads, NODES_PER_REQUEST))
        found: dict[str, Any] = {}
        for index in range(max(len(search_chunks), len(read_chunks))):
            chunk = search_chunks[index] if index < len(search_chunks) else []
            nodes = read_chunks[index] if index < len(read_chunks) else []
            variables: dict[str, Any] = {}
            for s in chunk:
                variables[f"q_{s.alias}"] = s.query
                if s.items:
                    variables[f"a_{s.alias}"] = (cursors or {}).get(s.alias)
            if nodes:
                variables.update(owner=owner, name=name)
            data = github.graphql(search_query(chunk, reads=nodes), variables)
            found.update({k: v for k, v in data.items() if k != "repository"})
            found.update(data.get("repository") or {})
        return found

    def finish(
        self, repo: str, first_merges: Span, bodies: Sequence[int], is_bot: IsBot
    ) -> dict[int, str | None]:
        """In one batch: whether each PR merged in `first_merges` was its author's first
        (asked once per PR, stored), and the descriptions of `bodies` that the archive lacks
        (their own lines are cut from them). Anonymously: the archive's descriptions only."""
        found: dict[int, str | None] = {
            it.number: it.body for it in self.store.items.many(repo, bodies) if it.body
        }
        if not (self.graphql and self.fetch):
            return found
        answers, asked = self._first_merge_questions(repo, first_merges, is_bot)
        searches = [
            Search(
                f"m{f.number}",
                f"repo:{repo} is:pr is:merged author:{f.author} "
                f"merged:<{utc(f.merged_at or f.created_at)}",
                False,
            )
            for f in asked
        ]
        reads = [Read(f"b{n}", n, BODY_NODE) for n in bodies if n not in found]
        if searches or reads:
            data = self._batch(self._github(repo), repo, searches, reads)
            for fact, search in zip(asked, searches, strict=True):
                count = int((data.get(search.alias) or {}).get("issueCount") or 0)
                answers[fact.number] = count == 0
            nodes = [(r.number, data.get(r.alias)) for r in reads]
            found.update({n: node.get("body") for n, node in nodes if isinstance(node, dict)})
        self.reviews.set_first_merge(repo, answers)
        return found

    def _first_merge_questions(
        self, repo: str, span: Span, is_bot: IsBot
    ) -> tuple[dict[int, bool], list[ResponseFact]]:
        """The answers known without asking (a bot, a stored earlier merge of the same
        author), and the PRs GitHub must be asked about."""
        unknown = self.reviews.first_merge_unknown(repo, span)
        answers = {
            f.number: False
            for f in unknown
            if not f.author
            or is_bot(f.author)
            or self.reviews.merged_before(repo, f.author, f.merged_at or f.created_at)
        }
        return answers, [f for f in unknown if f.number not in answers]

    # -- response facts ---------------------------------------------------------------------

    def facts(self, repo: str, wanted: Span, now: datetime, is_bot: IsBot) -> list[str]:
        """Search the spans of `wanted` whose merged PRs and opened issues were never read,
        and store what they hold; notes say what could not be read."""
        notes: list[str] = []
        settled = Span(wanted.start, min(wanted.end, now - SEARCH_INDEX_LAG))
        if self.fetch and settled.end > settled.start:
            for kind in ("pr", "issue"):
                for gap in self.reviews.gaps(repo, kind, settled):
                    if not self._search_facts(repo, kind, gap, now, is_bot):
                        notes.append(
                            f"some response times of {gap.start:%Y-%m-%d} could not be read"
                        )
        if self.reviews.gaps(repo, "pr", settled) or self.reviews.gaps(repo, "issue", settled):
            notes.append("response times: part of the period is not archived; samples are short")
        return notes

    def _search_facts(self, repo: str, kind: str, gap: Span, now: datetime, is_bot: IsBot) -> bool:
        """Every PR merged (or issue opened) in `gap`, split past the search cap; stores
        them and the span when the search was whole."""
        event = "is:pr is:merged merged" if kind == "pr" else "is:issue created"
        first, last = gap.start, gap.end - timedelta(seconds=1)
        query = f"repo:{repo} {event}:{utc(first)}..{utc(last)}"
        github = self._github(repo)
        search = Search("f", query, True)
        facts: list[ResponseFact] = []
        cursor: str | None = None
        while True:
            data = github.graphql(search_query([search], FACT_NODE), {"q_f": query, "a_f": cursor})
            answer = data.get("f") or {}
            total = int(answer.get("issueCount") or 0)
            if total > SEARCH_CAP:
                return self._split(repo, kind, gap, total, now, is_bot)
            facts += [response_fact(n, is_bot) for n in answer.get("nodes") or [] if n]
            info = answer.get("pageInfo") or {}
            cursor = info.get("endCursor")
            if not info.get("hasNextPage"):
                break
        self.reviews.save(repo, facts, now)
        whole = len(facts) >= total
        if whole:
            self.reviews.add_span(repo, kind, gap, now)
        return whole

    def _split(
        self, repo: str, kind: str, gap: Span, total: int, now: datetime, is_bot: IsBot
    ) -> bool:
        seconds = int((gap.end - gap.start).total_seconds())
        parts = min(seconds, math.ceil(total / SEARCH_CAP * SPLIT_MARGIN))
        if parts < 2:
            return False
        log.info("response facts of %s..%s: %d parts", gap.start, gap.end, parts)
        whole = True
        for index in range(parts):
            start = gap.start + timedelta(seconds=seconds * index // parts)
            end = gap.start + timedelta(seconds=seconds * (index + 1) // parts)
            whole = self._search_facts(repo, kind, Span(start, end), now, is_bot) and whole
        return whole


def _chunks(values: Sequence[Any], size: int) -> Iterable[list[Any]]:
    for start in range(0, len(values), size):
        yield list(values[start : start + size])
