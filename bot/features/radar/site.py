"""The radar's pages on the report site (bot.service.site.SitePages):

    plugins/vllm-ascend/    its pin lag over the days the daily run read it (lag.png) and
                            what broke it each day (index.html)

A day's record keeps, for each watched plugin the day's Plugins section was read for, the
plugin, its days behind main (None: not known), its pin's lag and what broke it, as the
page says them; each page and chart is drawn again only when what it is made of changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, timedelta
from typing import Any

from bot.features.radar import chart as pin_chart
from bot.features.radar.outline import radar_of
from bot.features.radar.render import plugin_day_text, short
from bot.model.report import Report
from bot.report_files import page_path
from bot.service.site_files import SiteFiles
from formatters import html


class PluginPages:
    key = "plugins"  # its records' name in the site's INPUTS
    heading = "Plugins"

    def of_day(self, report: Report) -> list[list[Any]]:
        """What each watched plugin's page says of the day (none when it has no radar)."""
        radar = radar_of(report)
        if radar is None:
            return []
        found: list[list[Any]] = []
        for repo in radar.plugins:
            mine = radar.of_plugin(repo)
            lag, told = plugin_day_text(mine)
            behind = mine.pins[0].behind_days if mine.pins else None
            found.append([repo, behind, lag, told])
        return found

    def pages(
        self,
        files: SiteFiles,
        days: Sequence[tuple[str, list[Any]]],
        digest: Callable[..., str],
    ) -> list[tuple[str, str]]:
        """Each plugin's page, from the records of the days (oldest first); the index's
        links to them."""
        plugins: dict[str, list[tuple[str, float | None, str, str]]] = {}
        for label, rows in days:
            for repo, behind, lag, told in rows:
                plugins.setdefault(repo, []).append((label, behind, lag, told))
        links = []
        for repo, seen in plugins.items():
            folder = self._page(files, repo, seen, digest)
            links.append((short(repo), folder))
        return links

    def _page(
        self,
        files: SiteFiles,
        repo: str,
        days: list[tuple[str, float | None, str, str]],
        digest: Callable[..., str],
    ) -> str:
        name = short(repo)
        folder = f"plugins/{name}/"
        points = _every_day([(label, behind) for label, behind, _, _ in days])
        files.drawn(
            folder + "lag.png", digest("lag", name, points), lambda: pin_chart.lag_png(name, points)
        )
        rows = [
            (label, f"../../{page_path(label, 'en')}#plugins", lag, told)
            for label, _, lag, told in reversed(days)
        ]
        picture = html.Picture("lag.png", pin_chart.lag_alt(name, points))
        title = f"{name} · breakage radar"
        files.drawn(
            folder + "index.html",
            digest(title, rows, picture),
            lambda: html.plugin_page(title, picture, rows, home="../../").encode(),
        )
        return folder


def _every_day(points: list[tuple[str, float | None]]) -> list[tuple[str, float | None]]:
    """The points with a gap (None) on each day between them the run did not read, so the
    line never joins across days nobody looked at."""
    if not points:
        return points
    known = dict(points)
    first, last = date.fromisoformat(points[0][0]), date.fromisoformat(points[-1][0])
    days = [first + timedelta(days=n) for n in range((last - first).days + 1)]
    return [(day.isoformat(), known.get(day.isoformat())) for day in days]
