"""The radar's digests: what a `plugins` or `radar:<plugin>` subscriber gets after the daily
post (`FeatureDigests`): the day's Plugins section, or one plugin's part of it, on a day it
has news; each warning sent once per subscription, PR and change, and again when its PR
comes further (approved, merged)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from bot.features.radar.model import is_plugins, plugin_key, plugin_of
from bot.features.radar.outline import RadarPart, has_plugins_section, lagging, radar_of
from bot.features.radar.store_corrections import WarningLedger
from bot.model.report import Report
from bot.model.subscriptions import SubscriptionKey


class PluginDigests:
    """`plugins` and `radar:<plugin>` subscriptions: the daily report's Plugins section, or
    one plugin's part of it, on a day it has news. Its warnings are each sent once per
    subscription, PR and change, and again only when the PR came further (approved,
    merged): `WarningLedger.to_send`, kept by window, so a run of the same window again
    sends the same."""

    def __init__(
        self, ledger: WarningLedger | None = None, clock: Callable[[], datetime] | None = None
    ) -> None:
        self.ledger = ledger
        self.clock = clock

    def wants(self, key: SubscriptionKey) -> bool:
        return is_plugins(key)

    def news(self, report: Report, key: SubscriptionKey) -> tuple[Report, tuple[str, ...]] | None:
        part = _plugins_of(report, key)
        found = radar_of(part)
        if found is None or found.forecast is None or self.ledger is None:
            return (part, ("plugins",)) if has_plugins_section(part) else None
        now = self.clock() if self.clock is not None else report.window.end
        forecast = found.forecast
        fresh = self.ledger.to_send(str(key), report.window.label, forecast.warnings, now)
        told = replace(found, forecast=replace(forecast, warnings=tuple(fresh)))
        # Not evaluated, and the grades, ride along: alone they are no news to send.
        if not (fresh or told.culprits or lagging(told) or told.open):
            return None
        return part.with_part(RadarPart(told)), ("plugins",)


def _plugins_of(report: Report, key: SubscriptionKey) -> Report:
    """The report whose Plugins section a `plugins` or `radar:<plugin>` subscriber gets:
    one plugin's culprits, open breakage and pin (none for a plugin no longer watched)."""
    found = radar_of(report)
    if found is None or plugin_of(key) is None:
        return report
    repos = [repo for repo in found.plugins if plugin_key(repo) == key]
    mine = found.of_plugin(repos[0]) if repos else None
    return report.with_part(RadarPart(mine) if mine is not None else None, "plugins")
