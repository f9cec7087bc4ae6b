"""`vllm-report demo` on the terminal: the real report of the newest sample day, its Slack
post as a preview, and the report site written to a folder (its path printed)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any, TextIO

from bot.model.rules import TopicRules
from bot.service.demo import Demo

_LINK = re.compile(r"<(https?://[^|>]+)\|([^>]+)>")
_BOLD = re.compile(r"\*([^*\n]+)\*")


def run(
    folder: Path, rules: TopicRules, out: TextIO, *, lang: str = "en", day: str | None = None
) -> int:
    from rich.console import Console, Group
    from rich.markdown import Markdown
    from rich.panel import Panel
    from rich.rule import Rule
    from rich.text import Text

    from bot.platforms.registry import SLACK
    from formatters.markdown import render_markdown

    console = Console(file=out, highlight=False, soft_wrap=False)
    began = time.perf_counter()
    demo = Demo(folder, rules)
    try:
        sample = demo.sample
        label = day or sample.days[-1]
        if label not in sample.days:
            from bot.model.errors import InputError

            raise InputError(f"the sample holds {', '.join(sample.days)}: pick one of those")
        console.print(
            Panel(
                Text.assemble(
                    ("vllm-report demo", "bold"),
                    f" — offline: {len(sample.days)} real report days of {sample.repo} "
                    f"({', '.join(sample.days)}; {sample.items} issues and PRs) bundled with the "
                    "bot. Nothing is fetched; no token or setting is read.",
                ),
                expand=False,
            )
        )
        report = demo.report(label, lang)
        console.print(Rule(f"the report of {label}: what `vllm-report show {label}` prints"))
        console.print(Markdown(_hard_breaks(render_markdown(report, lang))))
        parts = SLACK.report_parts(report, lang, link=None)
        head = parts[0][1]
        console.print(Rule("the Slack post (the channel message; the rest goes in its thread)"))
        console.print(
            Panel(
                Group(*(Text(line) for line in _slack_lines(head))),
                title="#vllm-daily",
                subtitle=f"+ {len(parts) - 1} replies in the thread: "
                + ", ".join(name for name, _ in parts[1:]),
                expand=False,
            )
        )
        site = folder / "site"
        built = demo.site(site)
    finally:
        demo.close()
    console.print(Rule("the report site"))
    console.print(
        f"{built.days} report days, {built.pages} pages with charts and feeds: "
        f"{site / 'index.html'}"
    )
    console.print(
        f"open it in a browser, or serve it: python -m http.server -d {site} 8000\n"
        f"demo finished in {time.perf_counter() - began:.1f} s. Next: `vllm-report show "
        "yesterday` reads GitHub (anonymously; GITHUB_TOKEN raises the limit)."
    )
    return 0


def _hard_breaks(markdown: str) -> str:
    """Lines of one quote block shown as lines (the report's window and counts), not run
    together as Markdown runs a paragraph's lines together."""
    return re.sub(r"^(>.*\S)$\n(?=>)", r"\1  \n", markdown, flags=re.M)


def _slack_lines(payload: dict[str, Any]) -> list[str]:
    """A Slack message's blocks as the lines a person sees (links as their text, a list
    item after its bullet, a table a row a line with its cells apart)."""
    lines: list[str] = []
    for block in payload.get("blocks", []):
        if block.get("type") == "rich_text":
            lines += _rich_lines(block)
            continue
        if block.get("type") == "data_table":
            lines += ["  │  ".join(_cell(cell) for cell in row) for row in block["rows"]]
            continue
        texts = [block.get("text") or {}, *(block.get("elements") or [])]
        for text in texts:
            value = text.get("text") if isinstance(text, dict) else None
            if value:
                value = (
                    _BOLD.sub(r"\1", _LINK.sub(r"\2", value))
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                )
                lines.extend(value.replace("&amp;", "&").splitlines())
    return lines


def _rich_lines(block: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for element in block.get("elements") or []:
        if element.get("type") == "rich_text_list":
            marker = "   › " if element.get("indent") else "• "
            lines += [marker + _said(item["elements"]) for item in element["elements"]]
        else:
            lines += _said(element.get("elements") or []).splitlines()
    return lines


def _said(elements: list[dict[str, Any]]) -> str:
    return "".join(str(e.get("text") or e.get("fallback") or "") for e in elements)


def _cell(cell: dict[str, Any]) -> str:
    if cell.get("type") == "rich_text":
        return " ".join(_rich_lines(cell))
    return str(cell.get("text", ""))
