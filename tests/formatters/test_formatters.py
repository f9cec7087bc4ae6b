"""Markdown and JSON renderings of a Report."""

from __future__ import annotations

from datetime import timedelta

from bot.analyze import build_report
from formatters.json_report import report_to_dict
from formatters.markdown import render_markdown
from tests.factories import REPO, WINDOW_0326, item

WINDOW = WINDOW_0326
INSIDE = WINDOW.start + timedelta(hours=1)


def test_hostile_title_cannot_make_a_link_or_break_lines() -> None:
    """A title carrying Markdown link syntax and newlines stays one plain line."""
    evil = item(1, created_at=INSIDE, title="[Bug] click [here](https://evil.example)\n# owned <b>")
    text = render_markdown(build_report([evil], WINDOW, repo=REPO, complete=True))
    line = next(ln for ln in text.splitlines() if ln.startswith("- [#1]"))
    assert "](https://evil.example)" not in line
    assert "\n# owned" not in text
    assert line.startswith(f"- [#1](https://github.com/{REPO}/issues/1) [Bug] click [here]\\(")
    assert "https://" not in line.split(")", 1)[1]  # the stranger's URL is defused


def test_incomplete_report_is_marked_in_markdown_and_json() -> None:
    """An incomplete window says so at the top of the Markdown and in `complete`."""
    report = build_report(
        [item(1, created_at=INSIDE)],
        WINDOW,
        repo=REPO,
        complete=False,
        notes=["GitHub search timed out on created issues (3 of 9 listed)"],
    )
    text = render_markdown(report)
    assert "⚠️ Incomplete data" in text.split("## ")[0]
    assert "3 of 9 listed" in text
    data = report_to_dict(report)
    assert data["complete"] is False and data["notes"]


def test_a_window_in_progress_is_not_called_a_fault() -> None:
    """`show today`: the counts so far, said as such, not "could not be collected"."""
    from datetime import timedelta

    made = WINDOW.start + timedelta(hours=5)
    report = build_report(
        [item(1, created_at=INSIDE)], WINDOW, repo=REPO, complete=False, generated_at=made
    )
    head = render_markdown(report).split("## ")[0]
    local = made.astimezone(WINDOW.start.tzinfo).strftime("%m-%d %H:%M")
    assert f"Window in progress: the counts so far (up to {local})" in head
    assert "Incomplete data" not in head
    assert "时间窗口尚未结束" in render_markdown(report, "zh")


def test_json_contract_keys_and_times_in_report_zone() -> None:
    """The contract's keys are there, and event times carry the report's offset."""
    pr = item(2, "pr", created_at=INSIDE, closed_at=INSIDE, merged_at=INSIDE, labels=("rocm",))
    data = report_to_dict(build_report([pr], WINDOW, repo=REPO, complete=True))
    assert list(data)[:7] == ["schema", "repo", "window", "complete", "notes", "stats", "closures"]
    assert data["window"] == {
        "start": "2026-03-26T11:45:00+08:00",
        "end": "2026-03-27T11:45:00+08:00",
        "timezone": "Asia/Shanghai",
        "label": "2026-03-26",
    }
    assert data["lists"]["merged_prs"] == [2]
    entry = data["items"]["2"]
    assert entry["merged_at"] == "2026-03-26T12:45:00+08:00"
    assert entry["kind"] == "pr" and entry["labels"] == ["rocm"]


def test_other_repository_gets_its_own_title() -> None:
    """--repo sgl-project/sglang is not titled as a vLLM report."""
    report = build_report([], WINDOW, repo="sgl-project/sglang", complete=True)
    assert render_markdown(report).startswith("# sgl-project/sglang daily report · ")


def test_markdown_strips_bidi_controls_and_defuses_every_foreign_link() -> None:
    """A title with a right-to-left override, a URL and a bare www. address: the Markdown
    (shown wherever the file is, where any URL autolinks) keeps none of them live."""
    evil = item(
        1,
        "pr",
        created_at=INSIDE,
        title="Fix \u202eevil\u202c see https://evil.example/x and www.evil.example",
    )
    text = render_markdown(build_report([evil], WINDOW, repo=REPO, complete=True))
    assert "\u202e" not in text and "\u202c" not in text
    assert "https://evil" not in text and "www.evil" not in text
    assert "evil.example" in text  # shown, not dropped


def test_strangers_text_is_escaped_exactly_and_cut_at_the_limit() -> None:
    """What a reader sees of a title: Slack's three entities, Discord's broken mention with
    its markdown escaped, and a cut that uses the whole limit, ellipsis included."""
    from formatters._text import clean, discord_escape, slack_escape

    assert slack_escape("a<b>&c") == "a&lt;b&gt;&amp;c"
    assert discord_escape("<#1>") == "<\u200b#1\\>"
    assert clean("abcde", 5) == "abcde"  # exactly the limit: whole
    assert clean("abcdef", 5) == "abcd…"  # over it: four characters and the ellipsis
