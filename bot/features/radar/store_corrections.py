"""What people said the breakage radar got wrong, and what the archive says of reverts.

- `RadarCorrections`: `/vllm-radar wrong <plugin PR> <upstream PR>` (and `vllm-report radar
  wrong`): that upstream PR did not break that plugin PR. Kept for good; the radar applies
  every one (`bot.features.radar.culprits.corrected`).
- `Reverts`: the archived upstream PRs titled "Revert …" merged since a moment, for
  the radar to say whether a culprit was since reverted (from the archive alone).
- `WarningLedger`: the radar's warnings (`bot.features.radar.warnings`): each warning given,
  with how far its PR came and its grade once the plugin's later activity decided it; what
  was sent to each `radar:<plugin>` and `plugins` subscription at which stage; and each
  window's warnings as shown. What the radar said and how it was judged, like a correction.

None is a concern of `Store` itself: `of_store` opens them on a store's engine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from bot.features.radar.forecast import (
    Forecast,
    Warned,
    forecast_of,
    forecast_to_dict,
    stage_rank,
    warned_of,
    warned_to_dict,
)
from bot.features.radar.model import Correction
from bot.model.report import ActivityItem
from bot.store.engine import Transactions
from bot.store.items import Items
from bot.store.schema import (
    ItemRow,
    RadarCorrectionRow,
    RadarForecastRow,
    RadarWarningRow,
    RadarWarningSentRow,
)

if TYPE_CHECKING:
    from bot.store import Store


class RadarCorrections:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    @classmethod
    def of_store(cls, store: Store) -> RadarCorrections:
        return cls(Transactions(store.engine, store.url))

    def add(self, correction: Correction) -> bool:
        """Keep a correction; False when the same pair was corrected before (the first
        word, its author and time, stands)."""
        row = RadarCorrectionRow(
            plugin_repo=correction.plugin_repo,
            plugin_number=correction.plugin_number,
            upstream_number=correction.upstream_number,
            said_by=correction.by[:80],
            said_at=correction.at,
        )
        try:
            with self._tx.begin(conflicts=True) as session:
                session.add(row)
            return True
        except IntegrityError:
            return False

    def of(self, plugin_repos: Iterable[str] | None = None) -> list[Correction]:
        """The corrections of these plugins (all when None), oldest first."""
        query = select(RadarCorrectionRow).order_by(
            RadarCorrectionRow.said_at,
            RadarCorrectionRow.plugin_repo,
            RadarCorrectionRow.plugin_number,
            RadarCorrectionRow.upstream_number,
        )
        if plugin_repos is not None:
            query = query.where(RadarCorrectionRow.plugin_repo.in_(list(plugin_repos)))
        with self._tx.begin() as session:
            return [
                Correction(
                    row.plugin_repo,
                    row.plugin_number,
                    row.upstream_number,
                    row.said_by,
                    row.said_at,
                )
                for row in session.scalars(query)
            ]


class Reverts:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    @classmethod
    def of_store(cls, store: Store) -> Reverts:
        return cls(Transactions(store.engine, store.url))

    def merged_since(self, repo: str, since: datetime) -> list[ActivityItem]:
        """The archived PRs of `repo` merged after `since` whose title says revert (the
        caller reads which PR each reverts)."""
        with self._tx.begin() as session:
            numbers = session.scalars(
                select(ItemRow.number).where(
                    ItemRow.repo == repo,
                    ItemRow.merged_at > since,
                    ItemRow.title.ilike("%revert%"),
                )
            ).all()
        return Items(self._tx).many(repo, numbers)


# The change of a "missed" row: a culprit no warning foretold, whatever it changed.
MISSED = "*"


class WarningLedger:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    @classmethod
    def of_store(cls, store: Store) -> WarningLedger:
        return cls(Transactions(store.engine, store.url))

    # -- the warnings given --

    def record(
        self, warnings: Iterable[Warned], merged: dict[int, datetime], now: datetime
    ) -> None:
        """Keep each warning given now: a new one, or one given before brought up to date
        (its sites, its PR's furthest stage, its merge time from `merged`)."""
        listed = list(warnings)

        def work(session: Session) -> None:
            for warned in listed:
                row = session.get(RadarWarningRow, warned.key)
                merged_at = merged.get(warned.number)
                if row is None:
                    session.add(
                        RadarWarningRow(
                            plugin_repo=warned.plugin_repo,
                            number=warned.number,
                            change=warned.change,
                            warned=warned_to_dict(warned),
                            stage=warned.stage,
                            first_at=now,
                            merged_at=merged_at,
                        )
                    )
                    continue
                row.warned = warned_to_dict(warned)
                if stage_rank(warned.stage) > stage_rank(row.stage):
                    row.stage = warned.stage
                row.merged_at = row.merged_at or merged_at

        self._tx.write(work)

    def warned_numbers(self, plugin_repo: str) -> set[int]:
        """The upstream PRs the radar ever warned this plugin of."""
        with self._tx.begin() as session:
            return set(
                session.scalars(
                    select(RadarWarningRow.number).where(
                        RadarWarningRow.plugin_repo == plugin_repo,
                        RadarWarningRow.change != MISSED,
                    )
                )
            )

    def merged_ungraded(self, plugin_repo: str) -> list[tuple[Warned, datetime, datetime]]:
        """The plugin's warnings whose PR merged and that no grade decided yet: each with its
        merge time and when it was first given."""
        with self._tx.begin() as session:
            rows = session.scalars(
                select(RadarWarningRow).where(
                    RadarWarningRow.plugin_repo == plugin_repo,
                    RadarWarningRow.merged_at.is_not(None),
                    RadarWarningRow.grade.is_(None),
                    RadarWarningRow.change != MISSED,
                )
            ).all()
            return [
                (warned_of(row.warned), row.merged_at, row.first_at)
                for row in rows
                if row.merged_at is not None
            ]

    def set_merged(self, plugin_repo: str, number: int, merged_at: datetime) -> None:
        """The PR of this plugin's warnings merged (learnt after they were given)."""

        def work(session: Session) -> None:
            rows = session.scalars(
                select(RadarWarningRow).where(
                    RadarWarningRow.plugin_repo == plugin_repo, RadarWarningRow.number == number
                )
            )
            for row in rows:
                row.merged_at = row.merged_at or merged_at

        self._tx.write(work)

    def open_numbers(self, plugin_repo: str) -> set[int]:
        """The upstream PRs of this plugin's warnings not known to have merged."""
        with self._tx.begin() as session:
            return set(
                session.scalars(
                    select(RadarWarningRow.number).where(
                        RadarWarningRow.plugin_repo == plugin_repo,
                        RadarWarningRow.merged_at.is_(None),
                        RadarWarningRow.change != MISSED,
                    )
                )
            )

    def grade(self, key: tuple[str, int, str], grade: str, now: datetime) -> None:
        def work(session: Session) -> None:
            row = session.get(RadarWarningRow, key)
            if row is not None and row.grade is None:
                row.grade, row.graded_at = grade, now

        self._tx.write(work)

    def missed(
        self, plugin_repo: str, number: int, merged_at: datetime | None, now: datetime
    ) -> None:
        """A culprit of this plugin no warning foretold (kept once)."""

        def work(session: Session) -> None:
            if session.get(RadarWarningRow, (plugin_repo, number, MISSED)) is None:
                session.add(
                    RadarWarningRow(
                        plugin_repo=plugin_repo,
                        number=number,
                        change=MISSED,
                        warned={},
                        stage="merged",
                        first_at=now,
                        merged_at=merged_at,
                        grade="missed",
                        graded_at=now,
                    )
                )

        self._tx.write(work)

    def began(self) -> datetime | None:
        """When the radar first warned (or first made a forecast): culprits merged before
        then are not counted as missed."""
        with self._tx.begin() as session:
            first = session.scalars(
                select(RadarForecastRow.made_at).order_by(RadarForecastRow.made_at).limit(1)
            ).first()
            return first

    def grades(self, plugin_repo: str) -> Counter[str]:
        """How many of the plugin's warnings had each grade, and how many wait (`pending`:
        given, no grade yet)."""
        with self._tx.begin() as session:
            rows = session.execute(
                select(RadarWarningRow.grade, RadarWarningRow.merged_at).where(
                    RadarWarningRow.plugin_repo == plugin_repo
                )
            )
            found: Counter[str] = Counter()
            for grade, merged_at in rows:
                if grade is not None:
                    found[grade] += 1
                elif merged_at is not None:
                    found["pending"] += 1
            return found

    # -- what each subscription was sent --

    def to_send(
        self, key: str, window: str, warnings: Iterable[Warned], now: datetime
    ) -> list[Warned]:
        """Of `warnings`, those `key`'s subscribers get in the run of `window`: each once per
        PR and change, again when its PR came further (approved, merged) than when it was
        sent. Kept as sent by this window, so the same window's run again (a retry, another
        destination of the same key) sends the same."""
        listed = list(warnings)

        def work(session: Session) -> list[Warned]:
            chosen = []
            for warned in listed:
                plugin, number, change = warned.key
                rows = session.scalars(
                    select(RadarWarningSentRow).where(
                        RadarWarningSentRow.key == key,
                        RadarWarningSentRow.plugin_repo == plugin,
                        RadarWarningSentRow.number == number,
                        RadarWarningSentRow.change == change,
                    )
                ).all()
                same = [r for r in rows if r.stage == warned.stage]
                if same and same[0].window != window:
                    continue  # sent at this stage by an earlier run
                if not same and any(stage_rank(r.stage) > stage_rank(warned.stage) for r in rows):
                    continue  # sent at a later stage already (an approval withdrawn since)
                if not same:
                    session.add(
                        RadarWarningSentRow(
                            key=key,
                            plugin_repo=plugin,
                            number=number,
                            change=change,
                            stage=warned.stage,
                            window=window,
                            sent_at=now,
                        )
                    )
                chosen.append(warned)
            return chosen

        return self._tx.write(work)

    # -- each window's warnings as shown --

    def save_forecast(
        self, start: datetime, end: datetime, forecast: Forecast, now: datetime
    ) -> None:
        row = RadarForecastRow(
            start=start, end=end, made_at=now, forecast=forecast_to_dict(forecast)
        )
        self._tx.write(lambda session: session.merge(row))

    def forecast(self, start: datetime, end: datetime) -> Forecast | None:
        with self._tx.begin() as session:
            row = session.get(RadarForecastRow, (start, end))
            return forecast_of(row.forecast) if row is not None else None

    def latest_forecast(self) -> tuple[datetime, datetime, Forecast] | None:
        """The last forecast made, with its window's start and end."""
        with self._tx.begin() as session:
            row = session.scalars(
                select(RadarForecastRow).order_by(RadarForecastRow.made_at.desc()).limit(1)
            ).first()
            return (row.start, row.end, forecast_of(row.forecast)) if row is not None else None
