"""Markdown: the outline as a report file, every section in the reference's order.

`render_markdown(report, lang, only=...)` renders the whole report, or the header and the
sections named in `only` (`summary`, `vendors`, a topic key such as `amd`, `hot`, `trends`,
`key`, `activity`, `notable`, `appendix`). Strangers' text (titles, logins, labels,
descriptions) is cleaned like in chat (control, bidi and invisible characters removed, URLs
defused) and kept out of Markdown's link and HTML syntax; links are built from the
repository and number.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.model.report import Report
from formatters import outline as ol
from formatters import wording as w
from formatters._text import clean


def render_markdown(
    report: Report, lang: str = "en", only: Sequence[str] = (), link: str | None = None
) -> str:
    full = ol.outline(report, lang, link)
    parts = [_header(full)]
    gist, sections = ol.once(full.gist if not only else (), ol.pick(full, only))
    if gist:
        parts.append(_gist(full.lang, gist))
    for section in sections:
        parts.append(_section(section))
    if not only:
        parts.append(_footer(full))
    return "\n\n".join(parts) + "\n"


def _header(full: ol.Outline) -> str:
    window, counts_label = w.text(full.lang, "window"), w.text(full.lang, "counts")
    colon = "：" if full.lang == "zh" else ": "
    counts = " | ".join(f"{name} {value}" for name, value in full.counts)
    lines = [f"# {_ours(full.title)}", "", f"> {window}{colon}{full.window}"]
    if full.counts:
        lines.append(f"> {counts_label}{colon}{counts}")
    elif full.quiet:  # a quiet day says its counts in a sentence, never as five zeros
        lines.append(f"> {_ours(full.quiet)}")
    # The busiest vendors' figures, as the chat post's first message gives them.
    lines += [f"> 🎯 {_ours(vendor)}" for vendor in full.vendors]
    if full.warning:
        lines += [">", f"> **{_ours(full.warning)}**"]
    return "\n".join(lines)


def _gist(lang: str, gist: Sequence[ol.Entry]) -> str:
    lines = [f"**{w.text(lang, 'gist')}**", ""]
    for entry in gist:
        lines.append("- " + line(entry.head))
        lines += [f"  - {line(sub)}" for sub in entry.lines]
    return "\n".join(lines)


def section_text(section: ol.Section) -> str:
    """One outline section as Markdown, its title a second-level heading."""
    return _section(section)


def _section(section: ol.Section) -> str:
    lines = [f"## {_ours(section.title)}"]
    for block in section.blocks:
        lines.append("")
        if block.heading:
            lines += [f"### {_ours(block.heading)}", ""]
        for index, entry in enumerate(block.entries, 1):
            if block.style == "text":
                lines.append(line(entry.head))
                continue
            marker = f"{index}." if block.style == "numbered" else "-"
            lines.append(f"{marker} {line(entry.head)}")
            indent = " " * (len(marker) + 1)
            lines += [f"{indent}- {line(sub)}" for sub in entry.lines]
        if block.rest:
            lines += ["", line(block.rest)]
    return "\n".join(lines)


def _footer(full: ol.Outline) -> str:
    lines = ["---"]
    if full.notes:
        lines += [f"**{w.text(full.lang, 'notes')}**", ""]
        lines += [f"- {_theirs(note, 500)}" for note in full.notes]
        lines.append("")
    lines += [f"_{_ours(line)}_" for line in full.footer.split("\n")]
    return "\n".join(lines)


def line(parts: ol.Line) -> str:
    out = []
    for part in parts:
        if isinstance(part, ol.Ref):
            out.append(f"[{part.text}]({part.url})")
        elif isinstance(part, ol.Theirs):
            out.append(_theirs(part.text, part.limit))
        else:
            out.append(_ours(part.text))
    return "".join(out)


def _theirs(text: str, limit: int) -> str:
    """A stranger's text: cleaned, URLs defused, no link or HTML syntax left live."""
    value = clean(text, limit)
    return value.replace("](", "]\\(").replace("<", "\\<")


def _ours(text: str) -> str:
    return text.replace("\n", " ")
