"""A vendor's figures are counts a reader can redo from the lists: "9 merged PRs" is nine of
the vendor's PRs in the merged list, never the members of stories whose lead merged. Every
surface that shows a figure shows the same one: the Markdown report (en, zh), the Slack and
Discord posts, a vendor's digest, the site's day page and the JSON.

The figures are recomputed here from the report's lists and item facts alone, not from the
analysis: a topic's items (its membership is the topic rules' business) counted by their
own state when the window ended.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.model.query import ReportQuery
from bot.model.rules import load_rules
from bot.model.windows import day_window
from formatters.json_report import report_to_dict
from tests.anchor_data import REPO, AnchorDay, anchor_days
from tests.conftest import Site
from tests.factories import CST
from tests.fakes.github_api import FakeGitHub
from tests.sites import CUTOFF

RULES = load_rules()
VENDORS = tuple(t.key for t in RULES.vendors)
SWEEP = {"stale", "closed-as-slop"}

# A bucket's figure as each language writes it: in a heading "Merged PRs (9)" and in a
# vendor's line "9 merged PRs".
FIGURE_WORDS = {
    "en": {
        "merged": (r"Merged PRs \((\d+)\)", r"(\d+) merged PRs?\b"),
        "review": (r"PRs in review \((\d+)\)", r"(\d+) PRs? in review\b"),
        "new": (r"New issues and draft PRs \((\d+)\)", r"(\d+) new issues? (?:and|or) draft"),
        "done": (r"Earlier issues closed \((\d+)\)", r"(\d+) earlier issues? closed"),
        "closed": (r"PRs closed without merging \((\d+)\)", r"(\d+) PRs? closed unmerged"),
    },
    "zh": {
        "merged": (r"已合并 PR（(\d+)）", r"已合并 PR (\d+)"),
        "review": (r"审阅中 PR（(\d+)）", r"审阅中 PR (\d+)"),
        "new": (r"新 Issue 与草稿 PR（(\d+)）", r"新 Issue 与草稿 PR (\d+)"),
        "done": (r"关闭的旧 Issue（(\d+)）", r"关闭旧 Issue (\d+)"),
        "closed": (r"未合并关闭 PR（(\d+)）", r"未合并关闭 PR (\d+)"),
    },
}


def name(key: str, lang: str) -> str:
    rule = RULES.topic(key)
    assert rule is not None
    return rule.display_name(lang)


def _at(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def recount(data: dict[str, Any], key: str) -> dict[str, set[int]]:
    """A topic's figures from the lists: each of its items by where it stood at the end."""
    topic = data["topics"][key]
    mine = set(topic["issues"]) | set(topic["prs"])
    lists = {name: set(numbers) for name, numbers in data["lists"].items()}
    end = datetime.fromisoformat(data["window"]["end"])
    start = datetime.fromisoformat(data["window"]["start"])
    items = {int(n): it for n, it in data["items"].items()}

    def within(moment: datetime | None) -> bool:
        return moment is not None and start <= moment < end

    swept = {
        n
        for n in mine
        if within(_at(items[n]["closed_at"]))
        and items[n]["merged_at"] is None
        and SWEEP & {label.lower() for label in items[n]["labels"]}
    }
    kept = mine - swept
    merged = kept & lists["merged_prs"]
    closed = kept & lists["closed_unmerged_prs"]
    new_prs = kept & lists["new_prs"] - merged - closed
    drafts = {n for n in new_prs if items[n]["draft"]}
    figures = {
        "merged": merged,
        "review": new_prs - drafts,
        "new": (kept & lists["new_issues"]) | drafts,
        "done": kept & lists["closed_issues"] - lists["new_issues"],
        "closed": closed,
    }
    assert set().union(*figures.values()) == kept  # every item counted once
    assert sum(map(len, figures.values())) == len(kept)
    return {name: found for name, found in figures.items() if found}


def said(text: str, lang: str, form: int) -> dict[str, int]:
    """The figures a text states (form 0: headings, 1: a vendor's one-line figures)."""
    found = {}
    for bucket, patterns in FIGURE_WORDS[lang].items():
        match = re.search(patterns[form], text)
        if match:
            found[bucket] = int(match.group(1))
    return found


def sizes(figures: dict[str, set[int]]) -> dict[str, int]:
    return {name: len(found) for name, found in figures.items()}


def show(capsys: pytest.CaptureFixture[str], day: AnchorDay, *argv: str) -> str:
    assert main(["show", day.label, "--cutoff", day.cutoff, *argv]) == 0
    return capsys.readouterr().out


def report_json(capsys: pytest.CaptureFixture[str], day: AnchorDay) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(show(capsys, day, "--format", "json"))
    return data


def vendor_line(text: str, vendor: str, lang: str) -> str:
    """The vendor's one line of figures ("NVIDIA: 9 merged PRs · …"), said once."""
    sep = "：" if lang == "zh" else ": "
    found = re.finditer(rf"{re.escape(vendor)}{sep}[^\n]*", text)
    (line,) = {m.group(0) for m in found if said(m.group(0), lang, 1)}
    return line


@pytest.mark.parametrize("day", anchor_days(), ids=lambda d: d.label)
def test_the_json_figures_are_the_lists_counted(
    day: AnchorDay, fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """The JSON's figures per vendor name exactly the items the lists give that bucket (on
    2026-03-25 NVIDIA's merged bucket was 11 stories' items, of which 9 merged PRs)."""
    data = report_json(capsys, day)
    for key in VENDORS:
        if key in data["topics"]:
            figures = {b: set(ns) for b, ns in data["topics"][key]["figures"].items()}
            assert figures == recount(data, key), key


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("day", anchor_days(), ids=lambda d: d.label)
def test_the_markdown_report_states_the_recounted_figures(
    day: AnchorDay, lang: str, fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first vendor's headings and every other vendor's line say the recounted figures,
    and every counted item is named in its section (or shown above it, in the gist)."""
    data = report_json(capsys, day)
    text = show(capsys, day, "--lang", lang)
    sections = re.split(r"\n## ", text)
    vendors = [s for s in sections if s.startswith("🎯")]
    assert vendors, "no vendor section"
    gist = sections[0]
    keys = [k for k in VENDORS if k in data["topics"]]
    assert len(keys) == len(vendors)
    for section in vendors:
        heading = section.splitlines()[0]
        key = next(k for k in keys if name(k, lang) in heading)
        truth = recount(data, key)
        first = section is vendors[0]
        assert said(section, lang, 0 if first else 1) == sizes(truth), (key, heading)
        named = {int(n) for n in re.findall(r"\[#(\d+)\]", gist + section)}
        assert set().union(*truth.values()) <= named, key


@pytest.mark.parametrize("platform", ["slack", "discord"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_chat_headline_and_replies_state_the_recounted_figures(
    platform: str, lang: str, fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """The headline's vendor lines, the vendors reply's first vendor headings and a
    vendor's "+N more" all agree with the lists."""
    day = anchor_days()[2]
    data = report_json(capsys, day)
    text = strings(json.loads(show(capsys, day, "--format", platform, "--lang", lang)))
    for key in ("amd", "nvidia"):
        truth = sizes(recount(data, key))
        line = vendor_line(text, name(key, lang), lang)
        assert said(line, lang, 1) == truth, line
    # AMD's replies: each bucket heading with its figure, then entries and "+N more".
    amd = sizes(recount(data, "amd"))
    assert said(text, lang, 0) == amd


def strings(payload: Any) -> str:
    """Every string of a chat payload, one per line (what the platform shows, and more)."""
    if isinstance(payload, str):
        return payload
    if isinstance(payload, dict):
        return "\n".join(strings(v) for v in payload.values())
    if isinstance(payload, list):
        return "\n".join(strings(v) for v in payload)
    return ""


@pytest.mark.parametrize("platform", ["slack", "discord"])
def test_a_vendor_digest_states_the_recounted_figures(
    platform: str, fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """NVIDIA's digest (its topic in detail) heads each bucket with the recounted figure."""
    day = anchor_days()[2]
    data = report_json(capsys, day)
    out = show(capsys, day, "--topic", "nvidia", "--section", "nvidia", "--format", platform)
    text = strings(json.loads(out))
    assert said(text, "en", 0) == sizes(recount(data, "nvidia"))


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def page_text(path: Path) -> str:
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8"))
    return re.sub(r"\s+", " ", "".join(parser.parts))


def test_the_site_day_page_states_the_recounted_figures(fixture_site: Site) -> None:
    """The site's page of 2026-03-25: AMD's headings and NVIDIA's line as the lists count."""
    archive, root, _ = fixture_site
    day = anchor_days()[2]
    window = day_window(datetime.fromisoformat(day.label).date(), CST, CUTOFF)
    report = archive.bot.reports.report(ReportQuery(REPO, window, "en"))
    data = report_to_dict(report, "en")
    text = page_text(root / day.label / "index.html")
    # The page's head: each vendor's figures in a line; then AMD's section, headed by bucket.
    head = text[: text.index("What happened")]
    shown = [k for k in VENDORS if f"{name(k, 'en')}: " in head]
    assert len(shown) >= 3  # the busiest vendors (four at most)
    starts = sorted((head.index(f"{name(k, 'en')}: "), k) for k in shown)
    ends = [start for start, _ in starts[1:]] + [len(head)]
    for (start, key), end in zip(starts, ends, strict=True):
        assert said(head[start:end], "en", 1) == sizes(recount(data, key)), key
    amd = text[text.index("Merged PRs (") :]
    amd = amd[: amd.index(name("nvidia", "en"))]
    assert said(amd, "en", 0) == sizes(recount(data, "amd"))


@pytest.mark.parametrize("day", anchor_days(), ids=lambda d: d.label)
def test_every_head_line_under_a_vendor_is_that_vendors_item(
    day: AnchorDay, fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """A story another vendor's PR leads is told under this vendor by this vendor's own
    item, with the lead among its related items (on 2026-03-25 the aarch64 dev-setup PR,
    not the NVIDIA SM12x fix that leads its story, stands under CPU / Arm)."""
    data = report_json(capsys, day)
    text = show(capsys, day)
    for section in re.split(r"\n## ", text):
        if not section.startswith("🎯"):
            continue
        heading = section.splitlines()[0]
        key = next(k for k in VENDORS if k in data["topics"] and name(k, "en") in heading)
        mine = set(data["topics"][key]["issues"]) | set(data["topics"][key]["prs"])
        heads = {int(n) for n in re.findall(r"^- \[#(\d+)\]", section, re.M)}
        assert heads and heads <= mine, (key, heads - mine)
