"""An item's kind of work in a word ("fix", "修复": its head line's 【修复】, a "+3 more"
list) and a vendor's work of the window in a line ("Merged: 4 fixes, 3 performance
changes …"). A kind of work labels; it is never said as the reason an item matters
(formatters/why.py says that, from facts).
"""

from __future__ import annotations

import re

from bot.model.report import Catalog, Explanation

_ZH_WORK = {
    "fix": "修复",
    "performance": "性能优化",
    "feature": "新功能",
    "model": "新模型支持",
    "refactor": "重构",
    "docs": "文档",
    "ci": "CI 与构建",
    "test": "测试",
    "benchmark": "基准工具",
    "revert": "回退",
    "backport": "backport",
    "release": "发布",
    "deprecation": "弃用",
}

# -- a vendor's work in one line ----------------------------------------------------------

_KINDS = {
    "en": {
        "fix": ("fix", "fixes"),
        "performance": ("performance change", "performance changes"),
        "feature": ("feature", "features"),
        "model": ("model support", "model support"),
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
    "zh": {kind: (word, word) for kind, word in {**_ZH_WORK, "": "其他"}.items()},
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
    for each in found:
        for key in each.areas:
            if key != beside:
                areas[key] = areas.get(key, 0) + 1
    top = [k for k in sorted(areas, key=lambda k: -areas[k])[:OVERVIEW_AREAS] if areas[k] >= 2]
    named = _hardware([name for each in found for name in each.hardware])
    if lang == "zh":
        said = [f"{catalog.topic_name(k, lang)}（{areas[k]}）" for k in top]
        about = [
            ("主要涉及：" + "、".join(said)) if said else "",
            "硬件：" + "、".join(named) if named else "",
        ]
        return "；".join(a for a in about if a)
    said = [f"{catalog.topic_name(k, lang)} ({areas[k]})" for k in top]
    about = [
        ("Mostly " + ", ".join(said)) if said else "",
        "hardware " + ", ".join(named) if named else "",
    ]
    return "; ".join(a for a in about if a)


# Accelerator names their makers write in capitals ("B200", "MI300X", "SM120"); a label's
# lower case ("b200") is no other name. gfx targets are written in lower case ("gfx950").
_CAPITALISED = re.compile(r"^(?:mi|b|h|a|l|sm|gb|rtx|v|t|p)\d", re.I)


def _cased(name: str) -> str:
    if name.lower().startswith("gfx"):
        return name.lower()
    return name.upper() if _CAPITALISED.match(name) else name


def _hardware(names: list[str]) -> list[str]:
    """The hardware named, each once, as its maker writes it ("MI300X", "B200", "gfx950";
    never "mi300x" beside "MI300X")."""
    return list(dict.fromkeys(_cased(name) for name in names))[:OVERVIEW_HARDWARE]


def _kind_counts(found: list[Explanation], lang: str) -> list[str]:
    counts: dict[str, int] = {}
    for item in found:
        counts[item.work or ""] = counts.get(item.work or "", 0) + 1
    order = sorted(counts, key=lambda k: (k == "", -counts[k], k))
    if lang == "zh":
        return [f"{_KINDS['zh'].get(k, ('其他', '其他'))[0]} {counts[k]} 项" for k in order]
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
        ("pr", "refactor"): "重构",
        ("pr", "docs"): "文档",
        ("pr", "ci"): "CI",
        ("pr", "test"): "测试",
        ("pr", "benchmark"): "基准",
        ("pr", "revert"): "回退",
        ("pr", "backport"): "backport",
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
        ("issue", "model_request"): "模型支持请求",
    },
}


def kind_label(found: Explanation | None, lang: str) -> str | None:
    """An item's kind of work in a word ("fix", "修复"), or None when unsaid."""
    if found is None or found.work is None:
        return None
    return _LABELS[lang].get((found.kind, found.work))
