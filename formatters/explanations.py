"""An item's explanation in words (bot.analyze.explain gives the facts): what kind of work
it is and what it concerns, then why it matters, in English and in Chinese written as
Chinese ("性能优化：AMD/ROCm 生态、MoE；硬件 gfx1201。要点：作者实测端到端吞吐提升 48.9%。"),
not English under Chinese frames. A stranger's phrase that has no Chinese words here stays
visibly a quote (「…」). Item numbers come back as ints: the outline links them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from bot.model.report import Catalog, Explanation
from formatters.figures_zh import figure_zh

Piece = str | int  # our words, or an item number the renderer links

_PR_WORK = {
    "en": {
        "fix": "A fix",
        "performance": "A performance change",
        "feature": "A new feature",
        "model": "New model support",
        "quantization": "Quantization work",
        "kernel": "A kernel change",
        "refactor": "A refactor",
        "docs": "Documentation",
        "ci": "CI and build work",
        "test": "Test work",
        "benchmark": "Benchmark tooling",
        "revert": "A revert",
        "backport": "A backport",
        "release": "Release work",
        "deprecation": "A deprecation",
    },
    "zh": {
        "fix": "修复",
        "performance": "性能优化",
        "feature": "新功能",
        "model": "新模型支持",
        "quantization": "量化",
        "kernel": "内核改动",
        "refactor": "重构",
        "docs": "文档",
        "ci": "CI 与构建",
        "test": "测试",
        "benchmark": "基准工具",
        "revert": "回退",
        "backport": "回移",
        "release": "发布",
        "deprecation": "弃用",
    },
}
_ISSUE_WORK = {
    "en": {
        "bug": "A bug report",
        "feature_request": "A feature request",
        "rfc": "A design proposal (RFC)",
        "usage": "A usage question",
        "ci_failure": "A CI failure report",
        "installation": "An installation problem",
        "performance": "A performance report",
        "docs": "A documentation request",
        "model_request": "A request for a new model",
    },
    "zh": {
        "bug": "缺陷报告",
        "feature_request": "功能请求",
        "rfc": "设计提案（RFC）",
        "usage": "使用问题",
        "ci_failure": "CI 失败报告",
        "installation": "安装问题",
        "performance": "性能问题",
        "docs": "文档问题",
        "model_request": "新模型请求",
    },
}
_SIGNALS = {
    "en": {"OOM": "out of memory"},
    "zh": {
        "security": "安全",
        "crash": "崩溃",
        "hang": "卡死",
        "regression": "回归",
        "wrong output": "输出错误",
        "OOM": "显存不足",
    },
}
AREAS_SHOWN = 3
_SAME_AREA = {"ci": "ci_build", "quantization": "quantization", "performance": "performance"}


def explanation_pieces(
    found: Explanation,
    kind: str,
    lang: str,
    catalog: Catalog,
    state: Callable[[int], str],
    *,
    what: bool = True,
    links: bool = True,
    beside: str | None = None,
    bare: bool = False,
    seen: str = "",
) -> list[Piece]:
    """What the item is and why it matters, as one or two sentences; [] when the facts say
    nothing. `kind`: pr or issue; `state(n)`: where item n stood, in `lang`; `what`: false
    leaves the kind of work out (its own words beside it say what it does); `links`: false
    leaves out the items it fixes or reverts (its story's line beside it names them);
    `beside`: the topic whose section it stands in (not said again); `bare`: the kind of
    work alone is worth a line (where the line is the entry's only word on why); `seen`: the
    title as shown just above it (hardware and models it names are not said twice)."""
    said = _what(found, kind, lang, catalog, beside, seen) if what else ""
    why = _why(found, kind, lang, state, links)
    kinds = (_PR_WORK if kind == "pr" else _ISSUE_WORK)[lang].values()
    if not bare and not why and said.rstrip("。.") in kinds:
        return []  # the kind alone ("A fix.") says what the title says
    pieces: list[Piece] = []
    if said:
        pieces.append(said)
    if why:
        if pieces:
            pieces.append(" " if lang == "en" else "")
        pieces.append("Why it matters: " if lang == "en" else "要点：")
        for index, part in enumerate(why):
            if index:
                pieces.append("; " if lang == "en" else "；")
            pieces += part
        pieces.append("." if lang == "en" else "。")
    return pieces


def _what(
    found: Explanation,
    kind: str,
    lang: str,
    catalog: Catalog,
    beside: str | None = None,
    seen: str = "",
) -> str:
    """The kind of work and what it concerns: "A fix for AMD / ROCm, on gfx950." (empty
    when the facts say neither). Hardware and models the title `seen` above it shows are
    left out: the Chinese edition shortens titles, and what it cut is said here instead."""
    found = _unseen(found, seen)
    names = _PR_WORK if kind == "pr" else _ISSUE_WORK
    work = names[lang].get(found.work or "")
    same = _SAME_AREA.get(found.work or "")  # "CI and build work for CI & build" says it twice
    keys = [key for key in found.areas if key not in (beside, same)][:AREAS_SHOWN]
    areas = [catalog.topic_name(key, lang) for key in keys]
    signals = [_SIGNALS[lang].get(s, s) for s in found.signals]
    if work is None and not areas and not found.hardware and not found.models:
        return ""
    if lang == "zh":
        return _what_zh(work or ("改动" if kind == "pr" else "问题报告"), signals, areas, found)
    return _what_en(work or ("A change" if kind == "pr" else "A report"), signals, areas, found)


def _unseen(found: Explanation, seen: str) -> Explanation:
    """Without the hardware and models the title above already names."""
    shown = seen.lower()
    return replace(
        found,
        hardware=tuple(name for name in found.hardware if name.lower() not in shown),
        models=tuple(name for name in found.models if name.lower() not in shown),
    )


def _what_en(head: str, signals: list[str], areas: list[str], found: Explanation) -> str:
    head += f" ({', '.join(signals)})" if signals else ""
    said = [
        "for " + _and(areas) if areas else "",
        "on " + _and(list(found.hardware)) if found.hardware else "",
        ("for " if not areas else "with ") + _and(list(found.models)) if found.models else "",
    ]
    rest = ", ".join(s for s in said if s)
    return f"{head} {rest}." if rest else head + "."


def _what_zh(head: str, signals: list[str], areas: list[str], found: Explanation) -> str:
    head += f"（{'、'.join(signals)}）" if signals else ""
    said = [
        "、".join(areas),
        "硬件 " + "、".join(found.hardware) if found.hardware else "",
        "模型 " + "、".join(found.models) if found.models else "",
    ]
    rest = "；".join(s for s in said if s)
    return f"{head}：{rest}。" if rest else head + "。"


def _why(
    found: Explanation, kind: str, lang: str, state: Callable[[int], str], links: bool
) -> list[list[Piece]]:
    """The reasons, each a list of pieces: figures, evidence, links, size, talk."""
    parts = _claimed(found, lang)
    if links:
        parts += _linked(found, lang, state)
    zh = lang == "zh"
    if found.size is not None:
        parts.append([_size(found, zh)])
    if found.first_time:
        parts.append(["首次贡献者" if zh else "a first-time contributor's"])
    talk = _talk(found, zh)
    return parts + ([[talk]] if talk else [])


def _claimed(found: Explanation, lang: str) -> list[list[Piece]]:
    """The figures its description claims, the results it shows, the paper it implements."""
    zh = lang == "zh"
    parts: list[list[Piece]] = []
    for figure in found.figures:
        parts.append(["作者实测" + figure_zh(figure) if zh else f"the author reports {figure}"])
    for shown in found.evidence:
        if shown == "results" and not found.figures:
            parts.append(["描述中附有性能数据" if zh else "its description shows results"])
        elif shown.startswith("arXiv"):
            parts.append([("依据论文 " if zh else "implements ") + shown])
    return parts


def _linked(found: Explanation, lang: str, state: Callable[[int], str]) -> list[list[Piece]]:
    """What it says it fixes or reverts, and what says it fixes or reverts it."""
    zh = lang == "zh"
    groups = (
        (found.fixes, "称修复 " if zh else "says it fixes "),
        (found.fixed_by, "修复 PR：" if zh else "fix proposed in "),
        (found.reverts, "回退 " if zh else "reverts "),
        (found.reverted_by, "回退 PR：" if zh else "revert proposed in "),
    )
    return [_refs(word, numbers[:3], lang, state) for numbers, word in groups if numbers]


def _size(found: Explanation, zh: bool) -> str:
    assert found.size is not None  # noqa: S101 - the caller checked
    added, deleted, files = found.size
    size = f"+{added} −{deleted}"
    size += f"，共 {files} 个文件" if zh else f" in {files} file{'s' if files != 1 else ''}"
    if found.reviewers and found.reviewers >= 2:  # one approval is every merge
        size += f"，{found.reviewers} 位审阅者" if zh else f", {found.reviewers} reviewers"
    return size


def _talk(found: Explanation, zh: bool) -> str:
    """The talk it drew: comments in the window, else an issue's comments in all."""
    if found.discussed:
        if zh:
            return f"窗口内 {found.discussed} 条评论"
        return _plural(found.discussed, "comment") + " in the window"
    if found.comments >= 3 and found.work in ("bug", "rfc", "feature_request", "performance"):
        return f"共 {found.comments} 条评论" if zh else f"{found.comments} comments so far"
    return ""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _refs(
    word: str, numbers: tuple[int, ...], lang: str, state: Callable[[int], str]
) -> list[Piece]:
    pieces: list[Piece] = [word]
    for index, number in enumerate(numbers):
        if index:
            pieces.append("、" if lang == "zh" else ", ")
        pieces += [number, f"（{state(number)}）" if lang == "zh" else f" ({state(number)})"]
    return pieces


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# -- a vendor's work in one line ----------------------------------------------------------

_KINDS = {
    "en": {
        "fix": ("fix", "fixes"),
        "performance": ("performance change", "performance changes"),
        "feature": ("feature", "features"),
        "model": ("model support", "model support"),
        "quantization": ("quantization change", "quantization changes"),
        "kernel": ("kernel", "kernels"),
        "refactor": ("refactor", "refactors"),
        "docs": ("docs change", "docs changes"),
        "ci": ("CI change", "CI changes"),
        "test": ("test change", "test changes"),
        "benchmark": ("benchmark tool", "benchmark tools"),
        "revert": ("revert", "reverts"),
        "backport": ("backport", "backports"),
        "release": ("release change", "release changes"),
        "deprecation": ("deprecation", "deprecations"),
        "": ("other", "other"),
    },
    "zh": {kind: (word, word) for kind, word in {**_PR_WORK["zh"], "": "其他"}.items()},
}
OVERVIEW_AREAS = 3
OVERVIEW_HARDWARE = 4


def overview(
    merged: list[Explanation],
    review: list[Explanation],
    lang: str,
    catalog: Catalog,
    beside: str,
) -> str:
    """A vendor's work of the window in a line: what kinds of PRs merged and wait for review,
    what they were mostly about, the hardware they name ("Merged: 4 fixes, 3 performance
    changes. In review: … Mostly Mixture of experts (9), Quantization (6); hardware gfx950,
    gfx1201")."""
    zh = lang == "zh"
    parts = []
    for head, found in (
        ("已合并" if zh else "Merged", merged),
        ("审阅中" if zh else "In review", review),
    ):
        kinds = _kind_counts(found, lang)
        if kinds:
            parts.append(f"{head}：{'、'.join(kinds)}" if zh else f"{head}: {', '.join(kinds)}")
    about = _mostly([*merged, *review], lang, catalog, beside)
    parts += [about] if about else []
    if not parts:
        return ""
    return "。".join(parts) + "。" if zh else ". ".join(parts) + "."


def _mostly(found: list[Explanation], lang: str, catalog: Catalog, beside: str) -> str:
    """What most of the work was about (topics named twice or more) and the hardware named."""
    areas: dict[str, int] = {}
    hardware: dict[str, str] = {}
    for each in found:
        for key in each.areas:
            if key != beside:
                areas[key] = areas.get(key, 0) + 1
        for name in each.hardware:
            hardware.setdefault(name.lower(), name)
    top = [k for k in sorted(areas, key=lambda k: -areas[k])[:OVERVIEW_AREAS] if areas[k] >= 2]
    named = list(hardware.values())[:OVERVIEW_HARDWARE]
    if lang == "zh":
        said = [f"{catalog.topic_name(k, lang)}（{areas[k]}）" for k in top]
        about = [
            ("主要涉及 " + "、".join(said)) if said else "",
            "硬件 " + "、".join(named) if named else "",
        ]
        return "；".join(a for a in about if a)
    said = [f"{catalog.topic_name(k, lang)} ({areas[k]})" for k in top]
    about = [
        ("Mostly " + ", ".join(said)) if said else "",
        "hardware " + ", ".join(named) if named else "",
    ]
    return "; ".join(a for a in about if a)


def _kind_counts(found: list[Explanation], lang: str) -> list[str]:
    counts: dict[str, int] = {}
    for item in found:
        counts[item.work or ""] = counts.get(item.work or "", 0) + 1
    order = sorted(counts, key=lambda k: (k == "", -counts[k], k))
    if lang == "zh":
        return [f"{_KINDS['zh'].get(k, ('其他', '其他'))[0]} {counts[k]}" for k in order]
    out = []
    for kind in order:
        one, many = _KINDS["en"].get(kind, ("other", "other"))
        out.append(f"{counts[kind]} {one if counts[kind] == 1 else many}")
    return out


# -- an item's kind in a word (beside its number in a "+N more" list) --------------------------

_LABELS = {
    "en": {
        ("pr", "fix"): "fix",
        ("pr", "performance"): "perf",
        ("pr", "feature"): "feature",
        ("pr", "model"): "model",
        ("pr", "quantization"): "quant",
        ("pr", "kernel"): "kernel",
        ("pr", "refactor"): "refactor",
        ("pr", "docs"): "docs",
        ("pr", "ci"): "CI",
        ("pr", "test"): "test",
        ("pr", "benchmark"): "bench",
        ("pr", "revert"): "revert",
        ("pr", "backport"): "backport",
        ("pr", "release"): "release",
        ("pr", "deprecation"): "deprecation",
        ("issue", "bug"): "bug",
        ("issue", "feature_request"): "request",
        ("issue", "rfc"): "RFC",
        ("issue", "usage"): "usage",
        ("issue", "ci_failure"): "CI failure",
        ("issue", "installation"): "install",
        ("issue", "performance"): "perf report",
        ("issue", "docs"): "docs",
        ("issue", "model_request"): "model request",
    },
    "zh": {
        ("pr", "fix"): "修复",
        ("pr", "performance"): "性能",
        ("pr", "feature"): "新功能",
        ("pr", "model"): "新模型",
        ("pr", "quantization"): "量化",
        ("pr", "kernel"): "内核",
        ("pr", "refactor"): "重构",
        ("pr", "docs"): "文档",
        ("pr", "ci"): "CI",
        ("pr", "test"): "测试",
        ("pr", "benchmark"): "基准",
        ("pr", "revert"): "回退",
        ("pr", "backport"): "回移",
        ("pr", "release"): "发布",
        ("pr", "deprecation"): "弃用",
        ("issue", "bug"): "缺陷",
        ("issue", "feature_request"): "功能请求",
        ("issue", "rfc"): "RFC",
        ("issue", "usage"): "使用问题",
        ("issue", "ci_failure"): "CI 失败",
        ("issue", "installation"): "安装问题",
        ("issue", "performance"): "性能问题",
        ("issue", "docs"): "文档",
        ("issue", "model_request"): "模型请求",
    },
}


def kind_label(found: Explanation | None, lang: str) -> str | None:
    """An item's kind of work in a word ("fix", "修复"), or None when unsaid."""
    if found is None or found.work is None:
        return None
    return _LABELS[lang].get((found.kind, found.work))
