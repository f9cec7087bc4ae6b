"""Make the demo's bundled sample (bot/service/data/demo-sample.json.gz) from the real fixture
days: the fake GitHub serves tests/data's three published report days (real titles, labels,
authors, times, bodies, comment turns), the pipeline archives each day as `show` would, and
what the store then holds is written out.

    python tools/demo_sample.py
"""

from __future__ import annotations

import os
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.app import open_bot  # noqa: E402
from bot.model.query import ReportQuery  # noqa: E402
from bot.model.rules import load_rules  # noqa: E402
from bot.service.demo import SAMPLE, Sample, dump_sample  # noqa: E402
from config.settings import load_settings  # noqa: E402
from tests.anchor_data import REPO, anchor_days, anchor_items  # noqa: E402
from tests.fakes.github_api import FakeGitHub  # noqa: E402

CUTOFF = "11:43"  # 2026-03-25's real cutoff (the day the demo shows)
NOW = datetime(2026, 3, 30, 12, tzinfo=UTC)


def main() -> None:
    days = tuple(day.label for day in anchor_days())
    sample = Sample(REPO, "Asia/Shanghai", CUTOFF, days, NOW, 0)
    with tempfile.TemporaryDirectory() as folder, FakeGitHub(REPO, anchor_items()) as fake:
        for name in list(os.environ):
            if name.startswith(("VLLM_REPORT_", "GITHUB_", "SLACK_", "DISCORD_", "LLM_")):
                del os.environ[name]
        os.environ.pop("DATABASE_URL", None)
        os.environ.update(
            GITHUB_API_URL=fake.url,
            VLLM_REPORT_DATA_DIR=folder,
            VLLM_REPORT_GITHUB_REQUEST_INTERVAL="0",
            VLLM_REPORT_CUTOFF=CUTOFF,
        )
        bot = open_bot(load_settings(), load_rules(None), clock=lambda: NOW)
        for label in days:
            bot.reports.report(ReportQuery(REPO, sample.window(label), "en"))
        size = dump_sample(bot.store, sample, ROOT / "bot" / "service" / "data" / SAMPLE)
        bot.close()
    print(f"wrote bot/service/data/{SAMPLE}: {size} bytes, {len(days)} report days")


if __name__ == "__main__":
    main()
