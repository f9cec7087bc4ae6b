"""Pictures of a run of report days, drawn headless with matplotlib (Agg) as PNG.

Three charts: the five daily counts (`counts`), items per vendor in small multiples with the
first vendor (or a digest's topic) first (`vendors`), and PRs merged against PRs opened
(`merged`). About 1200×675 pixels with large type, so a phone shows them legibly; the
Okabe–Ito colours stay apart for colour-blind readers and on an opaque light card they read
the same in light and dark chat themes. A day the archive does not hold is shaded and
labelled "not archived", never drawn as zero. Every chart comes with an alt text that
states its numbers, and with those numbers as data (`ChartData`: a short title, the days,
each series by its legend's name, None for a day not archived) for a platform that draws
charts itself (Slack's data_visualization). Output is byte-stable for the same input (no
timestamps in the file).

Chinese words need a CJK font: the charts pick one by name (`CJK_FONTS`) when matplotlib
finds it. Without one, matplotlib draws each character as an empty box and warns once per
character on stderr (hundreds per post); here the warnings of a drawing are caught and told
as at most one log line, naming the font package to install (`doctor` checks it too).
Drawing is serialised by a lock: pyplot's state and the warnings filters are per process.
"""

from __future__ import annotations

import io
import logging
import math
import threading
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.model.history import History
from bot.model.report import ListName

if TYPE_CHECKING:
    from matplotlib.axes import Axes

KINDS = ("counts", "vendors", "merged")
WIDTH, HEIGHT, DPI = 12.0, 6.75, 100  # 1200×675 pixels
# Okabe & Ito's palette (colour-blind safe), in the order the lines are drawn.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442")
INK, GRID, CARD, GAP = "#222222", "#D0D0D0", "#FFFFFF", "#EDEDED"
SERIES = {
    ListName.NEW_ISSUES: "New issues",
    ListName.CLOSED_ISSUES: "Closed issues",
    ListName.NEW_PRS: "New PRs",
    ListName.MERGED_PRS: "Merged PRs",
    ListName.CLOSED_UNMERGED_PRS: "Closed without merging",
}
SMALL_MULTIPLES = 6
PLOT = (0.07, 0.25, 0.91, 0.58)  # left, bottom, width, height: the legend goes below
TITLES = {
    "counts": "Daily activity",
    "vendors": "Items per vendor",
    "merged": "PRs merged and opened",
}
# Every word a chart shows, by language: a Chinese report's picture speaks Chinese.
WORDS: dict[str, dict[str, Any]] = {
    "en": {
        "series": SERIES,
        # A legend's name where a platform draws the chart (Slack: at most 20 characters).
        "legend": {**SERIES, ListName.CLOSED_UNMERGED_PRS: "Closed unmerged"},
        "titles": TITLES,
        "to": "to",
        "zone": "report days in {zone}",
        "gap": "not archived",
        "items_axis": "items per report day",
        "prs_axis": "PRs per report day",
        "opened": "Opened",
        "merged": "Merged",
        "opened_prs": "Opened PRs",
        "merged_prs": "Merged PRs",
        "per_day": "Per day from {day}: ",
        "missing": " Not archived: {days}.",
        "n/a": "n/a",
        "list_sep": ", ",
    },
    "zh": {
        "series": {
            ListName.NEW_ISSUES: "新 Issue",
            ListName.CLOSED_ISSUES: "关闭 Issue",
            ListName.NEW_PRS: "新 PR",
            ListName.MERGED_PRS: "合并 PR",
            ListName.CLOSED_UNMERGED_PRS: "关闭未合并 PR",
        },
        "legend": {
            ListName.NEW_ISSUES: "新 Issue",
            ListName.CLOSED_ISSUES: "关闭 Issue",
            ListName.NEW_PRS: "新 PR",
            ListName.MERGED_PRS: "合并 PR",
            ListName.CLOSED_UNMERGED_PRS: "关闭未合并 PR",
        },
        "titles": {"counts": "每日动态", "vendors": "各厂商条目数", "merged": "合并与新建的 PR"},
        "to": "至",
        "zone": "报告日按 {zone} 计",
        "gap": "未归档",
        "items_axis": "每个报告日的条目数",
        "prs_axis": "每个报告日的 PR 数",
        "opened": "新建",
        "merged": "合并",
        "opened_prs": "新建 PR",
        "merged_prs": "合并 PR",
        "per_day": "自 {day} 起每日：",
        "missing": "未归档：{days}。",
        "n/a": "无数据",
        "list_sep": "、",
    },
}
# The CJK fonts the charts draw Chinese with, by their names in matplotlib, the first found
# used: WenQuanYi Micro Hei is Debian's fonts-wqy-microhei, which the Docker image and CI
# (.ci/run) install; Noto Sans CJK is fonts-noto-cjk (matplotlib reads the first face of its
# collection, JP, which holds the simplified Chinese characters too).
CJK_FONTS = ("WenQuanYi Micro Hei", "Noto Sans CJK SC", "Noto Sans CJK JP")
CJK_PACKAGE = "fonts-wqy-microhei"
# Fonts tried in order for every glyph: DejaVu for Latin, then the CJK font.
FONTS = ["DejaVu Sans", *CJK_FONTS]
log = logging.getLogger(__name__)
_DRAWING = threading.Lock()


class ChartError(ValueError):
    """The chart cannot be drawn (no day of the run is archived); the message says why."""


@dataclass(frozen=True)
class ChartData:
    """A chart's numbers for a platform that draws it: a short title (no repository), the
    days (MM-DD), and each series by its legend's name with a value a day (None: the day
    is not archived)."""

    title: str
    days: tuple[str, ...]
    series: tuple[tuple[str, tuple[int | None, ...]], ...]


@dataclass(frozen=True)
class Chart:
    kind: str
    png: bytes
    alt: str
    days: int  # report days drawn
    data: ChartData | None = None


def chart(
    history: History, kind: str = "counts", first: str | None = None, lang: str = "en"
) -> Chart:
    """The `kind` chart of `history` as PNG bytes with its alt text, its words in `lang`;
    `first`: the vendor drawn first (a digest's topic), else the history's topic, else the
    rules' order."""
    if kind not in KINDS:
        raise ChartError(f"unknown chart '{kind}': use {', '.join(KINDS)}")
    if not history.covered:
        first, last = history.days[0].label, history.days[-1].label
        raise ChartError(
            f"no day from {first} to {last} is archived: run `vllm-report show` or "
            "`vllm-report backfill` for those days first"
        )
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    lang = lang if lang in WORDS else "en"
    style: Any = {**_STYLE, "font.family": _fonts()}
    with _DRAWING, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # each one caught here, none printed
        with plt.rc_context(style):
            if kind == "vendors":
                figure = _vendors(history, first, lang)
            else:
                figure = {"counts": _counts, "merged": _merged}[kind](history, lang)
            buffer = io.BytesIO()
            figure.savefig(
                buffer, format="png", dpi=DPI, facecolor=CARD, metadata={"Software": None}
            )
            plt.close(figure)
    _tell([str(found.message) for found in caught], kind, lang)
    alt = alt_text(history, kind, first, lang)
    return Chart(
        kind, buffer.getvalue(), alt, len(history.days), chart_data(history, kind, first, lang)
    )


def chart_data(
    history: History, kind: str, first: str | None = None, lang: str = "en"
) -> ChartData:
    """The numbers the `kind` chart draws, as a platform that draws charts needs them."""
    words = WORDS[lang if lang in WORDS else "en"]
    days = history.days

    def values(count: Any) -> tuple[int | None, ...]:
        return tuple(count(day) if day.covered else None for day in days)

    series: list[tuple[str, tuple[int | None, ...]]]
    if kind == "vendors":
        keys = vendor_order(history, first) or [history.catalog.vendors[0].key]
        series = [
            (history.catalog.topic_name(key, lang), values(lambda d, k=key: d.topics.get(k, 0)))
            for key in keys
        ]
    else:
        names = (
            words["legend"]
            if kind == "counts"
            else {ListName.NEW_PRS: words["opened"], ListName.MERGED_PRS: words["merged"]}
        )
        series = [
            (label, values(lambda d, n=name: d.counts.get(n, 0))) for name, label in names.items()
        ]
    span = f"{days[0].label[5:]} {words['to']} {days[-1].label[5:]}"
    return ChartData(f"{words['titles'][kind]} · {span}", tuple(_days(history)), tuple(series))


_TOLD_MISSING_FONT: list[bool] = []  # whether this process said the CJK font is missing


def _tell(said: list[str], kind: str, lang: str) -> None:
    """The warnings of one drawing as at most one log line: the missing font and its fix."""
    if not said:
        return
    missing = [text for text in said if text.startswith("Glyph ") and "missing from" in text]
    if missing:
        # Once a process: a site build or a post draws many charts, and one line says it all.
        if _TOLD_MISSING_FONT:
            return
        _TOLD_MISSING_FONT.append(True)
        log.warning(
            "the %s chart (%s) drew its Chinese words as empty boxes, and so will every Chinese "
            "chart of this run: no CJK font is available to matplotlib (looked for %s); "
            "install %s (apt-get install %s) or fonts-noto-cjk",
            kind,
            lang,
            ", ".join(CJK_FONTS),
            CJK_PACKAGE,
            CJK_PACKAGE,
        )
        return
    more = f" (and {len(said) - 1} more)" if len(said) > 1 else ""
    log.warning("matplotlib warned while drawing the %s chart: %s%s", kind, said[0], more)


def _installed() -> set[str]:
    """The font names matplotlib can draw with."""
    from matplotlib import font_manager

    return {entry.name for entry in font_manager.fontManager.ttflist}


def cjk_font() -> str | None:
    """The CJK font the charts draw Chinese with (None: none is installed)."""
    installed = _installed()
    return next((name for name in CJK_FONTS if name in installed), None)


def _fonts() -> list[str]:
    """DejaVu Sans, then the CJK font when there is one (matplotlib falls back glyph by
    glyph along the list)."""
    cjk = cjk_font()
    return ["DejaVu Sans", cjk] if cjk else ["DejaVu Sans"]


_STYLE: dict[str, Any] = {
    "font.size": 16,
    "axes.titlesize": 20,
    "axes.labelsize": 16,
    "axes.edgecolor": INK,
    "axes.labelcolor": INK,
    "axes.facecolor": CARD,
    "axes.grid": True,
    "grid.color": GRID,
    "xtick.color": INK,
    "ytick.color": INK,
    "text.color": INK,
    "legend.frameon": False,
    "svg.hashsalt": "vllm-report",
}


def drawing() -> tuple[threading.Lock, dict[str, Any]]:
    """What another chart draws with to look like these: the one lock matplotlib's global
    state needs, and the style (fonts with the CJK one)."""
    return _DRAWING, {**_STYLE, "font.family": _fonts()}


def _days(history: History) -> list[str]:
    return [day.label[5:] for day in history.days]  # MM-DD: the year is in the title


def _series(history: History, name: ListName) -> list[float]:
    return [day.counts[name] if day.covered else math.nan for day in history.days]


def _topic_series(history: History, key: str) -> list[float]:
    return [day.topics.get(key, 0) if day.covered else math.nan for day in history.days]


def _figure(title: str, history: History, lang: str = "en"):  # type: ignore[no-untyped-def]
    from matplotlib import pyplot as plt

    figure = plt.figure(figsize=(WIDTH, HEIGHT), dpi=DPI)
    figure.text(0.015, 0.965, title, ha="left", va="top", fontsize=20, fontweight="bold")
    figure.text(
        0.015,
        0.905,
        WORDS[lang]["zone"].format(zone=history.timezone),
        ha="left",
        va="top",
        fontsize=13,
        color="#555555",
    )
    return figure


def _gaps(axes: Axes, history: History, lang: str = "en") -> None:
    """Shade the days the archive does not hold, and say so once."""
    labelled = False
    for index, day in enumerate(history.days):
        if day.covered:
            continue
        axes.axvspan(index - 0.5, index + 0.5, color=GAP, zorder=0, lw=0)
        if not labelled:
            axes.text(
                index,
                0.5,
                WORDS[lang]["gap"],
                transform=axes.get_xaxis_transform(),
                rotation=90,
                ha="center",
                va="center",
                fontsize=12,
                color="#666666",
            )
            labelled = True


def _x_axis(axes: Axes, history: History, every: int | None = None, y_ticks: int = 8) -> None:
    from matplotlib.ticker import MaxNLocator

    labels = _days(history)
    step = every or max(1, math.ceil(len(labels) / 10))
    axes.set_xticks(range(0, len(labels), step), labels[::step])
    axes.set_xlim(-0.5, len(labels) - 0.5)
    axes.set_ylim(bottom=0)
    # Items are whole: no 2.5 on the axis.
    axes.yaxis.set_major_locator(MaxNLocator(y_ticks, integer=True, min_n_ticks=2))


def _title(history: History, kind: str, lang: str = "en") -> str:
    words = WORDS[lang]
    scope = history.catalog.topic_name(history.topic, lang) if history.topic else history.repo
    first, last = history.days[0].label, history.days[-1].label
    return f"{words['titles'][kind]} · {scope} · {first} {words['to']} {last}"


def _counts(history: History, lang: str = "en"):  # type: ignore[no-untyped-def]
    words = WORDS[lang]
    figure = _figure(_title(history, "counts", lang), history, lang)
    axes = figure.add_axes(PLOT)
    _gaps(axes, history, lang)
    for colour, (name, label) in zip(PALETTE, words["series"].items(), strict=False):
        axes.plot(_series(history, name), color=colour, lw=3, marker="o", ms=6, label=label)
    _x_axis(axes, history)
    axes.set_ylabel(words["items_axis"])
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=3, fontsize=15)
    return figure


def _merged(history: History, lang: str = "en"):  # type: ignore[no-untyped-def]
    words = WORDS[lang]
    figure = _figure(_title(history, "merged", lang), history, lang)
    axes = figure.add_axes(PLOT)
    _gaps(axes, history, lang)
    opened = _series(history, ListName.NEW_PRS)
    merged = _series(history, ListName.MERGED_PRS)
    axes.plot(opened, color=PALETTE[0], lw=3, marker="o", ms=6, label=words["opened"])
    axes.plot(merged, color=PALETTE[2], lw=3, marker="s", ms=6, label=words["merged"])
    axes.fill_between(range(len(opened)), merged, opened, color=PALETTE[0], alpha=0.12, lw=0)
    _x_axis(axes, history)
    axes.set_ylabel(words["prs_axis"])
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=3, fontsize=15)
    return figure


def vendor_order(history: History, first: str | None = None) -> list[str]:
    """Vendors with any activity, the digest's topic first, then the rules' order (AMD first)."""
    keys = [t.key for t in history.catalog.vendors]
    lead = first or history.topic
    if lead is not None:
        keys = [lead] + [k for k in keys if k != lead]
    active = [k for k in keys if any(day.topics.get(k) for day in history.covered)]
    return active[:SMALL_MULTIPLES]


def _vendors(history: History, first: str | None, lang: str = "en"):  # type: ignore[no-untyped-def]
    figure = _figure(_title(history, "vendors", lang), history, lang)
    keys = vendor_order(history, first) or [history.catalog.vendors[0].key]
    columns = 3 if len(keys) > 4 else 2 if len(keys) > 1 else 1
    rows = math.ceil(len(keys) / columns)
    grid = figure.add_gridspec(
        rows, columns, left=0.06, right=0.98, top=0.8, bottom=0.08, hspace=0.6, wspace=0.2
    )
    for index, key in enumerate(keys):
        axes = figure.add_subplot(grid[index // columns, index % columns])
        _gaps(axes, history, lang)
        colour = PALETTE[index % len(PALETTE)]
        axes.plot(_topic_series(history, key), color=colour, lw=3, marker="o", ms=5)
        axes.set_title(history.catalog.topic_name(key, lang), fontsize=16, loc="left")
        _x_axis(axes, history, every=max(1, math.ceil(len(history.days) / 4)), y_ticks=4)
    return figure


def alt_text(history: History, kind: str, first: str | None = None, lang: str = "en") -> str:
    """What the chart shows, with its numbers, for people who cannot see it."""
    words = WORDS[lang if lang in WORDS else "en"]
    days = history.days
    missing = [day.label for day in days if not day.covered]
    stop = "。" if lang == "zh" else "."
    head = _title(history, kind, lang) + stop
    sep = words["list_sep"]
    if kind == "vendors":
        parts = [
            f"{history.catalog.topic_name(key, lang)}: "
            + sep.join(_figure_of(day.topics.get(key, 0), day.covered, words) for day in days)
            for key in vendor_order(history, first)
        ]
    else:
        names = (
            words["series"]
            if kind == "counts"
            else {ListName.NEW_PRS: words["opened_prs"], ListName.MERGED_PRS: words["merged_prs"]}
        )
        parts = [
            f"{label}: "
            + sep.join(_figure_of(day.counts.get(name, 0), day.covered, words) for day in days)
            for name, label in names.items()
        ]
    tail = words["missing"].format(days=sep.join(missing)) if missing else ""
    lead = words["per_day"].format(day=days[0].label)
    return f"{head} {lead}" + "; ".join(parts) + stop + tail


def _figure_of(value: int, covered: bool, words: dict[str, Any] | None = None) -> str:
    return str(value) if covered else (words or WORDS["en"])["n/a"]
