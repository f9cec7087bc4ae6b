"""The daily run, one path for `post`, the scheduler and the catch-up: report → files → site
→ channels → digests, each once."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.cli import main
from tests.anchor_data import anchor_days
from tests.fakes.github_api import FakeGitHub

DAY = anchor_days()[2]


def test_post_without_chat_writes_the_files_and_rebuilds_the_site(
    fake_github: FakeGitHub, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No chat configured is "archive only": the report files and the report site, exactly
    as the scheduled run makes them (the site once went unbuilt on this path)."""
    code = main(["post", DAY.label, "--cutoff", DAY.cutoff])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.startswith(f"# vLLM daily report · {DAY.label}")  # the report itself
    data = clean_env / "data"
    files = data / "archive" / "vllm-project__vllm"
    assert (files / f"{DAY.label}.en.md").is_file() and (files / f"{DAY.label}.json").is_file()
    site = data / "site"
    assert (site / "index.html").is_file()
    assert (site / DAY.label / "index.html").is_file()
    assert (site / DAY.label / "zh" / "index.html").is_file()


def test_post_writes_each_file_once(
    fake_github: FakeGitHub, clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report files are written by one step of the run, not again by another."""
    from bot.report_files import ReportFiles

    writes: list[str] = []
    original = ReportFiles.write

    def counted(self: ReportFiles, *args: object, **kwargs: object) -> list[Path]:
        writes.append("write")
        return original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ReportFiles, "write", counted)
    assert main(["post", DAY.label, "--cutoff", DAY.cutoff]) == 0
    assert writes == ["write"]


def test_the_daily_runs_prose_is_counted_in_the_metrics(
    fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/metrics says how many model sentences the daily report showed and dropped, and how
    its parts were had (asked, or from the cache)."""
    import asyncio
    from datetime import date

    from bot.app import daily_job, open_bot
    from bot.model.rules import load_rules
    from bot.model.windows import day_window
    from bot.observe.metrics import Metrics
    from bot.service.run_observer import JobObserver
    from config.settings import load_settings
    from tests.fakes.openai_api import FakeOpenAI
    from tests.prose.script import ScriptedModel

    # The English edition asks the day (its items quote their authors): a summary of two
    # sentences, one wrong.
    script = ScriptedModel(summary={"en": "MoE kernels led the day (#38050). #38139 landed."})
    with FakeOpenAI(script) as llm:
        monkeypatch.setenv("LLM_BASE_URL", llm.url)
        monkeypatch.setenv("LLM_MODEL", "fake-model")
        monkeypatch.setenv("VLLM_REPORT_CUTOFF", DAY.cutoff)
        settings = load_settings()
        bot = open_bot(settings, load_rules())
        metrics = Metrics()
        window = day_window(date.fromisoformat(DAY.label), settings.tz, settings.cutoff_time)
        try:
            asyncio.run(daily_job(bot, {}, JobObserver(metrics=metrics)).post(window))
        finally:
            bot.close()
    text = metrics.render()[0].decode()
    # "#38139 landed." is dropped (#38139 was still open when the window ended), and with it
    # the rest of the summary: a unit is shown whole or not at all.
    assert 'vllm_report_prose_sentences_total{verdict="shown"} 1.0' not in text
    assert 'vllm_report_prose_sentences_total{verdict="dropped"} 2.0' in text
    assert 'vllm_report_prose_requests_total{source="model"} 1.0' in text


def test_a_post_is_filed_under_its_language_and_its_vendors_busiest_first() -> None:
    """The labels a forum post is tagged with: the language, then each vendor with items
    counted that day by its English name (Intel's 3 before AMD's 2; AMD before NVIDIA at 1
    each, the rules' order; TPU, with its items all swept as stale, and the CI topic, not
    a vendor, left out)."""
    from datetime import UTC, datetime, timedelta

    from bot.analyze import build_report
    from bot.model.catalog import Catalog, TopicInfo
    from bot.model.report import Activity, Sections, TopicSection
    from bot.model.windows import Window
    from bot.service.daily_run import filed_under

    def vendor(key: str, en: str, zh: str) -> TopicInfo:
        return TopicInfo(key, {"en": en, "zh": zh}, "vendor")

    catalog = Catalog(
        (
            vendor("amd", "AMD / ROCm", "AMD/ROCm 生态"),
            vendor("nvidia", "NVIDIA", "NVIDIA 生态"),
            vendor("intel", "Intel", "Intel 生态"),
            vendor("tpu", "Google TPU", "Google TPU 生态"),
            vendor("neuron", "AWS Neuron", "AWS Neuron 生态"),
            TopicInfo("ci", {"en": "CI"}, "topic"),
        ),
        (),
    )

    def topic(key: str, **figures: tuple[int, ...]) -> TopicSection:
        return TopicSection(key, (), (), {}, {}, figures=figures)

    topics = {
        "amd": topic("amd", merged=(1,), review=(2,)),
        "nvidia": topic("nvidia", new=(3,)),
        "intel": topic("intel", merged=(4, 5), closed=(6,)),
        "tpu": TopicSection("tpu", (7,), (), {}, {}, stale=(7,)),
        "ci": topic("ci", merged=(8, 9, 10, 11)),
    }
    sections = Sections(
        catalog, topics, (), {}, {}, (), (), (), (), (), Activity(0, (), {}, 0, 0), 0
    )
    day = datetime(2026, 3, 25, tzinfo=UTC)
    report = build_report(
        [], Window(day, day + timedelta(days=1), "UTC", "2026-03-25"), repo="o/r", complete=True
    )
    assert filed_under(report, "zh") == ("zh",)  # no sections: the language alone
    report = replace(report, sections=sections)
    assert filed_under(report, "zh") == ("zh", "Intel", "AMD / ROCm", "NVIDIA")
    assert filed_under(report, "en") == ("en", "Intel", "AMD / ROCm", "NVIDIA")
