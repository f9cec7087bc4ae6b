"""The real fixture days served as the bot reads them, for the scripts that render them
(benchmarks/, tools/fixture_day.py): a fake GitHub on 127.0.0.1 with the days' items and
1500 older ones (a cold cache reads back that far), a data folder of its own, and none of
the caller's settings that would send the bot elsewhere or post anything.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from typing import Any

from tests.anchor_data import REPO, anchor_days, anchor_items, background_items
from tests.fakes.github_api import FakeGitHub, FakeItem

CLEARED = ("VLLM_REPORT_", "GITHUB_", "SLACK_", "DISCORD_", "LLM_")


@contextlib.contextmanager
def fixture_github(
    items: Iterable[FakeItem] | None = None, *, keep: tuple[str, ...] = ()
) -> Iterator[FakeGitHub]:
    """The fixture days' GitHub (`items`, by default every item of the days) with the
    environment pointed at it; settings starting with one of `keep` ("LLM_") stay."""
    first = min(day.start for day in anchor_days())
    served = list(anchor_items() if items is None else items)
    served += background_items(1500, before=first)
    with tempfile.TemporaryDirectory() as data, FakeGitHub(REPO, served) as fake:
        for name in list(os.environ):
            if name.startswith(CLEARED) and not (keep and name.startswith(keep)):
                del os.environ[name]
        os.environ.update(
            GITHUB_API_URL=fake.url,
            VLLM_REPORT_DATA_DIR=data,
            VLLM_REPORT_GITHUB_REQUEST_INTERVAL="0",
        )
        yield fake


def kept_reports() -> list[Any]:
    """Every report the service builds from now on, in order: a script reads the structure
    of what it just rendered (which line is what) from the last one."""
    from bot.service.reports import Reports

    kept: list[Any] = []
    made = Reports.report

    def keeping(self: Any, query: Any) -> Any:
        report = made(self, query)
        kept.append(report)
        return report

    Reports.report = keeping  # type: ignore[method-assign]
    return kept
