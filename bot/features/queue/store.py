"""Response facts of the review queue (first review, first answer, merge), and the spans read.

A span row says every PR merged (`kind` pr, by `merged_at`) or issue opened (`kind` issue,
by `created_at`) in it was read. A fact is *final* once nothing can change what it says:
a merged or closed item, or an issue already answered. Final facts are never read again;
the others (open issues nobody has answered yet) may be read again, at most once per
`recheck` interval, while their period is asked about.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.features.queue.model import ResponseFact
from bot.store.engine import Transactions
from bot.store.schema import ResponseFactRow, ResponseSpanRow
from bot.store.spans import Span, merge_spans, subtract_spans

KINDS = ("pr", "issue")


def is_final(fact: ResponseFact) -> bool:
    """Nothing left to learn: merged or closed, or an issue already answered."""
    if fact.merged_at is not None or fact.closed_at is not None:
        return True
    return fact.kind == "issue" and fact.first_response_at is not None


class ResponseFacts:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    def save(self, repo: str, facts: Iterable[ResponseFact], fetched_at: datetime) -> int:
        """Insert or replace facts by (repo, number); a known first-merge answer is kept."""
        facts = list(facts)
        if not facts:
            return 0

        def work(session: Session) -> None:
            existing = {
                row.number: row
                for row in session.scalars(
                    select(ResponseFactRow).where(
                        ResponseFactRow.repo == repo,
                        ResponseFactRow.number.in_({f.number for f in facts}),
                    )
                )
            }
            for fact in facts:
                row = existing.get(fact.number)
                values = _values(repo, fact, fetched_at)
                if row is None:
                    session.add(ResponseFactRow(**values))
                    continue
                if values["first_merge"] is None:
                    values["first_merge"] = row.first_merge
                for key, value in values.items():
                    setattr(row, key, value)

        self._tx.write(work)
        return len(facts)

    def set_first_merge(self, repo: str, answers: dict[int, bool]) -> None:
        """Record, per merged PR, whether it was its author's first merged PR."""
        if not answers:
            return
        with self._tx.begin() as session:
            rows = session.scalars(
                select(ResponseFactRow).where(
                    ResponseFactRow.repo == repo, ResponseFactRow.number.in_(set(answers))
                )
            )
            for row in rows:
                row.first_merge = answers[row.number]

    def within(self, repo: str, span: Span) -> list[ResponseFact]:
        """PRs merged and issues opened inside `span`."""
        with self._tx.begin() as session:
            rows = session.scalars(
                select(ResponseFactRow)
                .where(
                    ResponseFactRow.repo == repo,
                    (
                        (ResponseFactRow.kind == "pr")
                        & (ResponseFactRow.merged_at >= span.start)
                        & (ResponseFactRow.merged_at < span.end)
                    )
                    | (
                        (ResponseFactRow.kind == "issue")
                        & (ResponseFactRow.created_at >= span.start)
                        & (ResponseFactRow.created_at < span.end)
                    ),
                )
                .order_by(ResponseFactRow.number)
            ).all()
            return [_fact(row) for row in rows]

    def to_recheck(
        self,
        repo: str,
        span: Span,
        read_before: datetime,
        young_since: datetime | None = None,
        old_read_before: datetime | None = None,
    ) -> list[int]:
        """Issues opened in `span`, not final, last read before `read_before`; those opened
        before `young_since` only when last read before `old_read_before`."""
        old = (
            (ResponseFactRow.created_at >= young_since)
            | (ResponseFactRow.fetched_at < (old_read_before or read_before))
            if young_since is not None
            else ResponseFactRow.created_at == ResponseFactRow.created_at
        )
        with self._tx.begin() as session:
            return list(
                session.scalars(
                    select(ResponseFactRow.number)
                    .where(
                        ResponseFactRow.repo == repo,
                        ResponseFactRow.kind == "issue",
                        ResponseFactRow.final.is_(False),
                        ResponseFactRow.created_at >= span.start,
                        ResponseFactRow.created_at < span.end,
                        ResponseFactRow.fetched_at < read_before,
                        old,
                    )
                    .order_by(ResponseFactRow.number)
                )
            )

    def merged_before(self, repo: str, author: str, moment: datetime) -> bool:
        """Whether a PR of `author` merged before `moment` is stored (so a later one is not
        their first)."""
        with self._tx.begin() as session:
            found = session.scalars(
                select(ResponseFactRow.number)
                .where(
                    ResponseFactRow.repo == repo,
                    ResponseFactRow.kind == "pr",
                    ResponseFactRow.author == author,
                    ResponseFactRow.merged_at < moment,
                )
                .limit(1)
            ).first()
            return found is not None

    def first_merge_unknown(self, repo: str, span: Span) -> list[ResponseFact]:
        """PRs merged in `span` whose first-merge question was never asked."""
        return [f for f in self.within(repo, span) if f.kind == "pr" and f.first_merge is None]

    # -- spans read ------------------------------------------------------------------------

    def add_span(self, repo: str, kind: str, span: Span, fetched_at: datetime) -> None:
        with self._tx.begin() as session:
            session.add(
                ResponseSpanRow(
                    repo=repo, kind=kind, start=span.start, end=span.end, fetched_at=fetched_at
                )
            )

    def gaps(self, repo: str, kind: str, wanted: Span) -> list[Span]:
        """The parts of `wanted` whose `kind` items were never read."""
        with self._tx.begin() as session:
            rows = session.execute(
                select(ResponseSpanRow.start, ResponseSpanRow.end).where(
                    ResponseSpanRow.repo == repo, ResponseSpanRow.kind == kind
                )
            ).all()
        return subtract_spans(wanted, merge_spans(Span(a, b) for a, b in rows))


def _values(repo: str, fact: ResponseFact, fetched_at: datetime) -> dict[str, object]:
    return {
        "repo": repo,
        "number": fact.number,
        "kind": fact.kind,
        "title": fact.title,
        "author": fact.author,
        "labels": list(fact.labels),
        "author_association": fact.author_association,
        "created_at": fact.created_at,
        "ready_at": fact.ready_at,
        "merged_at": fact.merged_at,
        "closed_at": fact.closed_at,
        "first_response_at": fact.first_response_at,
        "responder": fact.responder,
        "known": fact.known,
        "first_merge": fact.first_merge,
        "final": is_final(fact),
        "fetched_at": fetched_at,
    }


def _fact(row: ResponseFactRow) -> ResponseFact:
    labels = row.labels if isinstance(row.labels, list) else json.loads(row.labels)
    return ResponseFact(
        number=row.number,
        kind="pr" if row.kind == "pr" else "issue",
        title=row.title,
        author=row.author,
        labels=tuple(labels),
        created_at=row.created_at,
        ready_at=row.ready_at,
        merged_at=row.merged_at,
        closed_at=row.closed_at,
        first_response_at=row.first_response_at,
        responder=row.responder,
        known=row.known,
        first_merge=row.first_merge,
        author_association=row.author_association,
    )
