"""An item's title said as a Chinese sentence, where a phrase table makes it exact: the
sentence of its own a Chinese reader gets for every item a report tells, with no model.

Only what the title says is glossed, and only in forms whose Chinese is not in doubt: the
title's own verb ("Fix" → 修复, "Enable … by default" → 默认启用 …), the frame its
preposition sets ("Fix X on Y" → "修复 Y 上的 X", "Add X to Y" → "为 Y 新增 X", "Remove X
from Y" → "从 Y 中移除 X"), two verb phrases joined by "and" ("…，并…"), a purpose it states
("… to avoid Y" → "…，以避免 Y") and its benchmark figure (formatters/figures_zh). An
object is said in Chinese only when every word of it is a name (kept as written:
identifiers, model and kernel names are nobody's to translate) or a word whose Chinese is
fixed in this trade ("test failures" → 测试失败, "weight loading error" → 权重加载错误);
else it stays as the author wrote it. A bug report with a severity signal is told as what
the user reported ("用户报告在 ROCm 上运行 Qwen3.5 时出现输出错误"), from the names its title
holds. A title no form fits gets no sentence: a category word ("新功能：MoE") is none.

The state is the window end's: open work is proposed ("拟修复 …"), work closed without
merging was proposed ("曾提议修复 …（未合并）"); merged work is told as what it does.
"""

from __future__ import annotations

import re

from bot.model.report import ActivityItem, Explanation
from formatters.figures_zh import figure_zh
from formatters.gloss_words import LOWER_NAMES, VERBS, WORDS

# A title's tags and Conventional Commits prefix, said apart (the head line's 【修复】).
_TAGS = re.compile(
    r"^(?:\s*[\[{][^\]}]{1,40}[\]}]\s*:?"
    r"|\s*(?:feat|fix|docs|perf|refactor|tests?|ci|chore|build)(?:\([^()]{1,30}\))?!?:\s)+\s*",
    re.I,
)
_VERBS = VERBS
_VERB_ALT = "|".join(f"(?:{v})" for v, _ in _VERBS)
_VERB = re.compile(rf"^(?P<verb>{_VERB_ALT})\s+(?P<rest>.+)$", re.I)
# "Update X and disable Y": two verb phrases (an "and" inside an object joins no verbs).
_AND_VERB = re.compile(rf"\s+(?:and|&)\s+(?=(?:{_VERB_ALT})\s)", re.I)
_VERB_ZH = tuple((re.compile(rf"^(?:{v})$", re.I), zh) for v, zh in _VERBS)
# How a preposition frames a verb's object `x` and its complement `y`, by verb (the first
# entry a verb's Chinese is named in wins; `*`: any verb).
_FRAMES: dict[str, tuple[tuple[str, str], ...]] = {
    "by default": (("启用", "默认启用 {x}"), ("禁用", "默认禁用 {x}"), ("*", "默认{v} {x}")),
    "on": (("修复", "修复 {y} 上的 {x}"), ("*", "在 {y} 上{v} {x}")),
    "for": (("修复", "修复 {y} 的 {x}"), ("新增", "为 {y} 新增 {x}"), ("*", "为 {y} {v} {x}")),
    "in": (("修复", "修复 {y} 中的 {x}"), ("*", "在 {y} 中{v} {x}")),
    "to": (
        ("新增", "为 {y} 新增 {x}"),
        ("backport", "将 {x} backport 到 {y}"),
        ("升级", "将 {x} 升级到 {y}"),
        ("更新", "将 {x} 更新到 {y}"),
        ("重命名", "将 {x} 重命名为 {y}"),
        ("移动", "将 {x} 移至 {y}"),
        ("迁移", "将 {x} 迁移到 {y}"),
        ("传递", "将 {x} 传给 {y}"),
    ),
    "from": (
        ("修复", "修复 {y} 引入的 {x}"),
        ("移除", "从 {y} 中移除 {x}"),
        ("提取", "从 {y} 中提取 {x}"),
    ),
    "into": (
        ("集成", "将 {x} 集成到 {y}"),
        ("提取", "将 {x} 提取到 {y}"),
        ("整合", "将 {x} 整合到 {y}"),
    ),
    "with": (("替换", "用 {y} 替换 {x}"),),
    "via": (("*", "通过 {y} {v} {x}"),),
}
_FRAME = re.compile(
    r"^(?P<x>.+?)\s+(?P<prep>on|for|in|to|from|into|with|via)\s+(?P<y>.+)$"
    r"|^(?P<d>.+?)\s+by default$",
    re.I,
)
# A word that makes an object a phrase of English grammar (it is kept whole, as written).
_GRAMMAR = re.compile(
    r"\b(?:on|for|in|to|from|into|with|via|when|by|of|after|before|if|while|and|or|the|a|an|"
    r"is|are|was|were|be|not|no|that|which|than|as|at|per|without|within|instead|using|"
    r"based|across|through|during|until|against|over|under|like|now|returns?|fails?|has|have)"
    r"\b|,",
    re.I,
)
# "Update X to include Y": a verb after "to" is a purpose, no destination.
_TO_VERB = re.compile(
    r"^(?:include|support|use|match|allow|reflect|make|handle|fix|avoid|prevent|enable|"
    r"reduce|improve|resolve|ensure|keep|get|set|run|be|have|respect|work|accept|skip|"
    r"remove|add|pass|return|load|save|read|write|show|print|log|check|call|compute)\b",
    re.I,
)
# Where a title says two things: "Fix issue #37103: Remove …", "Preserve X — fixes Y".
_SAYS_TWO = re.compile(r"\s*(?::|—|–|\s-\s)\s*")
# A title that names its work by a noun at its end: "Attention selector reordering".
_NOMINAL = re.compile(
    r"^(?P<x>.+?)\s+(?P<n>integrations?|reordering|support|refactor(?:ing)?|fix(?:es)?|"
    r"optimi[sz]ations?|cleanup|improvements?|updates?|removal|migration|deprecation)$",
    re.I,
)
_NOMINAL_ZH = {
    "integration": "集成",
    "reordering": "重新排序",
    "support": "支持",
    "refactor": "重构",
    "refactoring": "重构",
    "fixe": "修复",
    "fix": "修复",
    "optimization": "优化",
    "optimisation": "优化",
    "cleanup": "清理",
    "improvement": "改进",
    "update": "更新",
    "removal": "移除",
    "migration": "迁移",
    "deprecation": "弃用",
}
# A purpose the title states after its verb phrase: "… to avoid blocking the event loop".
_PURPOSE = re.compile(
    r"^(?P<head>.+?)\s+(?:to|in order to|so as to)\s+"
    r"(?P<verb>avoid|prevent|reduce|improve|support|fix|enable|allow|speed up)\s+(?P<rest>.+)$",
    re.I,
)
_PURPOSE_ZH = {
    "avoid": "避免",
    "prevent": "防止",
    "reduce": "减少",
    "improve": "改进",
    "support": "支持",
    "fix": "修复",
    "enable": "启用",
    "allow": "允许",
    "speed up": "加速",
}
# What a title says after a comma that adds nothing a gloss must carry ("…, tuned for …").
_TAIL = re.compile(r",\s*(?:tuned|using|used|with|for|on|via|based|following|as|which)\b.*$", re.I)
# A figure the title ends on: "…, 48.9% E2E throughput improvement".
_TRAILING_FIGURE = re.compile(
    r"[,;:—–-]\s*(?P<figure>(?:(?:around|about|up to|over)\s+|[~≈])?\d[^,;]*?(?:%|x|×)[^,;]*)$",
    re.I,
)
_WORDS = WORDS
_WORDS_RE = re.compile(
    r"(?<![\w/.-])(" + "|".join(re.escape(w) for w, _ in _WORDS) + r")(?![\w/.-])", re.I
)
_WORD_ZH = dict(_WORDS)
# A name kept as written: a word with a capital after its first letter, a digit, an
# underscore, a dot, a slash, a hyphen or a code span (`gfx950`, `MoE`, `Qwen3.5-FP8`,
# `cp_mha_gather_cache`, `DeepGEMM`), or all capitals (`ROCm` `TPU` `KV`).
_NAME = re.compile(
    r"^(?:`[^`]+`|[A-Za-z0-9]*(?:[0-9_./+-]|[a-z][A-Z])[\w./+-]*|[A-Z][A-Z0-9]+s?|[A-Z][a-z]+[A-Z]\w*)$"
)
_LOWER_NAMES = LOWER_NAMES
# A bug report's subject, as its title names it before what went wrong
# ("compute_slot_mapping crashes on …").
_SUBJECT = re.compile(
    r"^\s*(?P<x>[^\s].{0,60}?)\s+(?:crash\w*|hang\w*|fails?|failing|breaks?|returns?|"
    r"produces?|outputs?|gives?|generates?|leaks?|OOMs?|deadlocks?|causes?\s.{0,40}?\bto\s+"
    r"(?:crash|hang|fail|deadlock))\b",
    re.I,
)
# "… after PR #32951", "… since #32951": the change it came after.
_AFTER = re.compile(r"\b(?:after|since)\s+(?:PR\s*)?(?P<ref>#\d+)", re.I)
# What a bug report says went wrong, as "用户报告…" ends.
_SIGNALS = {
    "security": "安全问题",
    "crash": "崩溃",
    "hang": "卡死",
    "regression": "回归",
    "wrong output": "输出错误",
    "OOM": "显存不足（OOM）",
}
LONGEST = 160  # characters of a title glossed: a longer one is not


def gloss(item: ActivityItem, found: Explanation | None, state: str, *, whole: bool = False) -> str:
    """The item's title as a Chinese sentence (ending "。"), or "" when no form fits;
    `state`: merged, open or closed as the window ended; `whole`: only a sentence that
    says all the title says (a title may then stand in Chinese alone). The title's own
    words stand between THEIRS_START and THEIRS_END (`pieces` takes them apart)."""
    if item.kind == "issue":
        return "" if whole else _issue(item, found)
    title = _TAGS.sub("", item.title).strip() or item.title
    figure = ""
    trailing = _TRAILING_FIGURE.search(title)
    if trailing is not None:
        said = figure_zh(trailing.group("figure").strip())
        if not said.startswith("「"):
            figure, title = f"，作者实测{said}", title[: trailing.start()].strip()
    said = verb_phrase(title, whole=whole)
    if not said:
        return ""
    if state == "open":
        said = "拟" + said
    elif state == "closed":
        said = "曾提议" + said + "（未合并）"
    return _tidy(said + figure + "。")


def verb_phrase(title: str, *, whole: bool = False) -> str:
    """A title's verb phrases in Chinese ("修复 TPU 上的 Qwen3.5-FP8 权重加载错误"), or "";
    `whole`: "" unless the Chinese says the whole title (no tail or cut left out)."""
    shortened = _uncut(_TAIL.sub("", title.strip().rstrip(" .")))
    if whole and shortened != title.strip().rstrip(" ."):
        return ""
    title = shortened
    if len(title) > LONGEST or title.endswith(("…", "...")):
        return ""  # a title cut where no phrase ends
    parts = [p for p in _SAYS_TWO.split(title) if p.strip()]
    if len(parts) > 1:  # "Fix #37103: Remove …", "Preserve X — fixes NaN on Y": each its own
        said = [verb_phrase(part, whole=whole) for part in parts]
        if not said[0] and len(parts) == 2 and not _GRAMMAR.search(parts[0]):
            said[0] = _object(parts[0]).strip()  # "AITER MLA backend: Avoid …": what it is about
        return "：".join(said) if all(said) else ""
    purpose = _PURPOSE.match(title)
    if purpose is not None:
        head = verb_phrase(purpose.group("head"), whole=whole)
        verb = _PURPOSE_ZH[purpose.group("verb").lower()]
        return f"{head}，以{verb}{_object(purpose.group('rest'))}" if head else ""
    said = [_one(part) for part in _AND_VERB.split(title)]
    if not all(said):
        nominal = _NOMINAL.match(title)  # "Attention selector reordering"
        if nominal is None or _GRAMMAR.search(nominal["x"]):
            return ""
        return f"{_NOMINAL_ZH[nominal['n'].lower().rstrip('s')]}{_object(nominal['x'])}"
    return "，并".join(said)


def _uncut(title: str) -> str:
    """A title GitHub's lists cut ("Disable inductor runtime asserts by default for serving
    perfor…"), up to the phrase the cut falls in: what is left is whole."""
    if not title.endswith(("…", "...")):
        return title
    found = list(re.finditer(r"\s+(?:for|on|in|to|with|from|when|via|during|after)\s+", title))
    whole = title[: found[-1].start()] if found else title
    return whole if len(whole.split()) >= 3 else title


def noun_phrase(text: str, *, named: bool = False) -> str:
    """A noun phrase in Chinese where its preposition frames it ("Prefill Context Parallel
    for Qwen3.5 Hybrid Attention" → "用于 Qwen3.5 混合注意力的 Prefill Context Parallel"),
    else as written; `named`: "" unless every word of it is a name or a word whose Chinese
    is fixed (a phrase of English grammar is no noun phrase to say in Chinese)."""
    found = re.match(r"^(?P<x>.+?)\s+(?P<prep>for|on|in)\s+(?P<y>.+)$", text.strip())
    parts = [found["x"], found["y"]] if found is not None else [text]
    if named and not (all(_all_named(p) for p in parts) and _WORDS_RE.search(text)):
        return ""
    if found is not None and not _GRAMMAR.search(found["x"]) and not _GRAMMAR.search(found["y"]):
        frame = {"for": "用于 {y} 的 {x}", "on": "{y} 上的 {x}", "in": "{y} 中的 {x}"}
        x, y = _object(found["x"]).strip(), _object(found["y"]).strip()
        return frame[found["prep"].lower()].format(x=x, y=y)
    return _object(text).strip()


def _all_named(text: str) -> bool:
    """Every word of `text` is a name or a word whose Chinese is fixed."""
    words = _WORDS_RE.sub(" ", text).split()
    named = all(_NAME.match(w) or w.lower() in _LOWER_NAMES for w in words)
    return named and not _GRAMMAR.search(text)


def _one(phrase: str) -> str:
    """One verb phrase in Chinese, or "" when it does not start with a verb we know."""
    match = _VERB.match(phrase.strip())
    if match is None:
        return ""
    verb = next(zh for pattern, zh in _VERB_ZH if pattern.match(match.group("verb")))
    rest = match.group("rest").strip()
    support = re.match(r"support (?:for|to)\s+", rest, re.I)
    if verb == "新增" and support is not None and not _GRAMMAR.search(rest[support.end() :]):
        return f"新增对{_object(rest[support.end() :])}的支持"
    # "Disable X by default on XPU": the default is the verb's, the rest frames as usual.
    default = re.search(r"\s+by default(?=\s+(?:on|for)\s)", rest, re.I)
    if default is not None:
        verb, rest = "默认" + verb, rest[: default.start()] + rest[default.end() :]
    framed = _framed(verb, rest)
    if framed:
        return framed
    return f"{verb}{_object(rest)}"


def _framed(verb: str, rest: str) -> str:
    """The verb's object and complement in the frame their preposition sets, when both are
    plain objects (a complement with its own preposition is no frame: kept whole)."""
    found = _FRAME.match(rest)
    if found is None:
        return ""
    if found.group("d") is not None:
        prep, x, y = "by default", found.group("d"), ""
    else:
        prep, x, y = found.group("prep").lower(), found.group("x"), found.group("y")
    if _GRAMMAR.search(x) or (y and _GRAMMAR.search(y)):
        return ""
    if prep == "to" and _TO_VERB.match(y):
        return ""  # "Update X to include Y" says why, not where
    if prep == "from" and verb.endswith("修复") and not re.fullmatch(r"(?:PR\s*)?#\d+", y.strip()):
        return ""  # "Fix X from #37128" is what #37128 brought; any other "from" is not
    plain = verb.removeprefix("默认")
    for name, frame in _FRAMES.get(prep, ()):
        if name not in (plain, "*"):
            continue
        if plain != verb and "{v}" not in frame:  # "默认禁用": where the verb stands
            frame = frame.replace(plain, verb, 1)
        said = frame.format(v=verb, x=_object(x).strip(), y=_object(y).strip())
        return re.sub(r"\s+", " ", said)
    return ""


def _object(text: str) -> str:
    """An object as the author wrote it (marked theirs), said in Chinese when every word of
    it is a name or a word whose Chinese is fixed (" Qwen3.5-FP8 权重加载错误"); spaced to
    sit between Chinese words."""
    text = text.strip()
    words = _WORDS_RE.sub(" ", text).split()
    named = all(_NAME.match(w) or w.lower() in _LOWER_NAMES for w in words)
    if _GRAMMAR.search(text) or not named:
        return f" {_theirs(text)} "
    # Chinese words run together; a name keeps a space on each side.
    out, prev_ours = "", False
    for index, piece in enumerate(_WORDS_RE.split(text)):
        piece = piece.strip()
        if not piece:
            continue
        ours = index % 2 == 1  # a glossary word (the split's captured group)
        shown = _WORD_ZH[piece.lower()] if ours else _theirs(piece)
        joined = ours and prev_ours and "\u4e00" <= shown[0] <= "\u9fff"
        out += shown if joined or not out else " " + shown
        prev_ours = ours
    return f" {out} "


THEIRS_START, THEIRS_END = "\x01", "\x02"  # around the title's own words in a gloss


def _theirs(text: str) -> str:
    return f"{THEIRS_START}{text}{THEIRS_END}"


def pieces(said: str) -> list[tuple[str, bool]]:
    """A gloss as (text, theirs) pieces: the title's own words apart from ours."""
    out: list[tuple[str, bool]] = []
    for index, piece in enumerate(re.split(f"[{THEIRS_START}{THEIRS_END}]", said)):
        if piece:
            out.append((piece, index % 2 == 1))
    return out


def _issue(item: ActivityItem, found: Explanation | None) -> str:
    """A bug report with a severity signal: "用户报告在 ROCm 上运行 Qwen3.5 时出现输出错误。";
    an RFC or a feature request whose title is a verb phrase: "提议重新设计 …" / "请求支持 …"."""
    if found is None:
        return ""
    title = _TAGS.sub("", item.title).strip(" :：").strip()
    asks = {"rfc": "提议", "feature_request": "请求", "model_request": "请求"}.get(found.work or "")
    if asks is not None:
        said = verb_phrase(title)
        if not said and found.work == "rfc" and not re.search(r"[:?—–]| - ", title):
            said = noun_phrase(title)  # "[RFC]: Incremental MoE Expert Offloading"
        return _tidy(f"{asks} {said}。") if said else ""
    said = noun_phrase(title, named=True)
    if found.work == "bug" and said:
        # "CUDA illegal memory access on GPTQ Marlin" → "用户报告 GPTQ Marlin 上的 CUDA …"
        return _tidy(f"用户报告 {said}。")
    return _reported(title, found) if found.signals else ""


def _reported(title: str, found: Explanation) -> str:
    """What went wrong, where and with what, and after which change, from the title's names
    ("用户报告 compute_slot_mapping 出现崩溃（#32951 之后）。")."""
    what = "、".join(_SIGNALS.get(s, s) for s in found.signals[:2])
    where = f"在 {'、'.join(map(_theirs, found.hardware[:2]))} 上" if found.hardware else ""
    subject = _SUBJECT.match(title)
    named = subject is not None and all(
        _NAME.match(w) or w.lower() in _LOWER_NAMES for w in subject["x"].split()
    )
    who = f" {_theirs(subject['x'].strip())} " if named and subject is not None else ""
    # "qwen 3.5 crash": a subject names the model already.
    running = (
        f"运行 {'、'.join(map(_theirs, found.models[:2]))} 时" if found.models and not who else ""
    )
    after = _AFTER.search(title)
    since = f"（{after['ref']} 之后）" if after is not None else ""
    return _tidy(f"用户报告{where}{running}{who}出现{what}{since}。")


def _tidy(text: str) -> str:
    """A space between a Chinese character and a name, never doubled, between two Chinese
    characters or beside Chinese punctuation."""
    text = re.sub(f"([\u4e00-\u9fff])([A-Za-z0-9`#{THEIRS_START}])", r"\1 \2", text)
    text = re.sub(f"([A-Za-z0-9`{THEIRS_END}])([\u4e00-\u9fff])", r"\1 \2", text)
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"(?<=[\u4e00-\u9fff]) (?=[\u4e00-\u9fff])", "", text)
    return re.sub(r"\s+([，。、）（：])|([（，：])\s+", r"\1\2", text).strip()
