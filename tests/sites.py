"""The report site built from the real fixture days: an archive filled day by day through the
fake GitHub, and the site written from it (shared by the site and browser tests)."""

from __future__ import annotations

import os
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from types import TracebackType

import pytest

from bot.model.query import ReportQuery
from bot.model.windows import day_window
from bot.service.site import SiteBuild, SiteBuilder
from tests.anchor_data import REPO, anchor_days, anchor_items, background_items
from tests.factories import CST
from tests.fakes.github_api import FakeItem

CUTOFF = time(11, 43)  # 2026-03-25's real cutoff: that day's page is the one people share
BASE_URL = "https://reports.example.org/vllm"
ANCHOR_LABELS = tuple(day.label for day in anchor_days())  # 2026-03-11, -24, -25
NOW = datetime(2026, 3, 30, 12, tzinfo=UTC)

# Strangers' titles that would run script, break out of an attribute or fake a link if a page
# ever let them through unescaped; opened inside 2026-03-25 so they are on its page.
HOSTILE = (
    '<script>document.title="owned"</script>[ROCm] fix attention',
    '"><img src=x onerror="document.title=\'owned\'"> [Bug] crash on start',
    "[Doc] see <a href=javascript:alert(1)>here</a> & </li></ul><h1>owned</h1>",
)


def hostile_items() -> list[FakeItem]:
    at = datetime(2026, 3, 25, 6, 0, tzinfo=UTC)  # 14:00 in Shanghai, inside 2026-03-25
    return [
        FakeItem(
            number=99_001 + index,
            kind="pr" if index == 0 else "issue",
            title=title,
            author="mallory",
            labels=["rocm"] if index == 0 else [],
            created_at=at,
            updated_at=at,
            body=f"{title}\n<iframe src=javascript:alert(1)></iframe>",
        )
        for index, title in enumerate(HOSTILE)
    ]


class FixtureArchive:
    """A data folder whose archive holds what `archive(label)` fetched from the fake GitHub."""

    def __init__(self, data: Path, *, hostile: bool = True) -> None:
        self.data = data
        first = min(day.start for day in anchor_days())
        self.items = anchor_items() + background_items(1500, before=first)
        if hostile:
            self.items += hostile_items()

    def __enter__(self) -> FixtureArchive:
        from bot.app import open_bot
        from bot.model.rules import load_rules
        from config.settings import load_settings
        from tests.fakes.github_api import FakeGitHub

        self._env = pytest.MonkeyPatch()
        for name in list(os.environ):
            if name.startswith(("VLLM_REPORT_", "GITHUB_", "SLACK_", "DISCORD_", "LLM_")):
                self._env.delenv(name)
        self._env.delenv("DATABASE_URL", raising=False)
        self._fake = FakeGitHub(REPO, self.items).__enter__()
        self._env.setenv("GITHUB_API_URL", self._fake.url)
        self._env.setenv("VLLM_REPORT_DATA_DIR", str(self.data))
        self._env.setenv("VLLM_REPORT_GITHUB_REQUEST_INTERVAL", "0")
        self._env.setenv("VLLM_REPORT_CUTOFF", CUTOFF.strftime("%H:%M"))
        self._env.setenv("VLLM_REPORT_CI_URL", "none")  # the CI dashboard: its own tests
        self.settings = load_settings()
        self.now = NOW
        self.bot = open_bot(self.settings, load_rules(None), clock=lambda: self.now)
        return self

    def archive(self, label: str) -> None:
        """What `vllm-report show <label>` archives: the day and its trend baseline. Each
        run is a minute after the one before, as runs are (rows carry the time they were
        fetched; the site reads what changed by it)."""
        self.now += timedelta(minutes=1)
        window = day_window(datetime.fromisoformat(label).date(), CST, CUTOFF)
        self.bot.reports.report(ReportQuery(REPO, window, "en"))

    def builder(self, base_url: str | None = None) -> SiteBuilder:
        return SiteBuilder(self.bot.reports, REPO, CST, CUTOFF, base_url)

    def build(self, root: Path, base_url: str | None = None) -> SiteBuild:
        return self.builder(base_url).build(root)

    @property
    def github_requests(self) -> int:
        return len(self._fake.requests)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.bot.close()
        self._fake.__exit__(kind, error, trace)
        self._env.undo()


Site = tuple[FixtureArchive, Path, SiteBuild]  # the archive, the site's folder, its build
