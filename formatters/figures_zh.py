"""An author's benchmark claim said in Chinese ("48.9% E2E throughput improvement" → "端到端吞吐
提升 48.9%"), for the "why" line of the zh edition (formatters.explanations). A phrase with
words this does not know stays a visible quote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# What a claim measures, and how it moved: said in Chinese; a phrase with any other word
# stays the author's, quoted.
_MEASURES = {
    "e2e": "端到端",
    "end-to-end": "端到端",
    "throughput": "吞吐",
    "latency": "延迟",
    "memory": "显存占用",
    "decode": "解码",
    "decoding": "解码",
    "prefill": "预填充",
    "accuracy": "精度",
    "overhead": "开销",
    "ttft": "TTFT",
    "tpot": "TPOT",
    "itl": "ITL",
    "tokens/s": "tokens/s",
    "tok/s": "tok/s",
    "qps": "QPS",
    "output": "输出",
    "generation": "生成",
    "kernel": "kernel",
    "performance": "性能",
    "perf": "性能",
    "inference": "推理",
    "request": "请求",
}
_CHANGES = {
    "improvement": "提升",
    "improvements": "提升",
    "improve": "提升",
    "improves": "提升",
    "improved": "提升",
    "increase": "提升",
    "higher": "提升",
    "gain": "提升",
    "gains": "提升",
    "speedup": "加速",
    "speed-up": "加速",
    "speedups": "加速",
    "faster": "加速",
    "reduction": "降低",
    "reduce": "降低",
    "reduces": "降低",
    "reduced": "降低",
    "lower": "降低",
    "less": "降低",
    "decrease": "降低",
    "slower": "变慢",
}
_FILLER = frozenset({"by", "in", "of", "the", "a", "an", "on", "for", "with", "and"})
_AMOUNT = re.compile(r"^[~≈]?[+-]?\d+(?:\.\d+)?\s?(?:x|×|%)?$", re.I)
# Said after the number, as units are: "200 tokens/s".
_UNITS = frozenset({"tokens/s", "tok/s", "qps"})
# Measures a reader wants lower: their "improvement" is a drop ("延迟降低", never "延迟提升").
_LOWER_IS_BETTER = frozenset({"latency", "ttft", "tpot", "itl", "memory", "overhead"})
_GAINS = frozenset(
    {"improvement", "improvements", "improve", "improves", "improved", "gain", "gains"}
)
_RISES = frozenset({"increase", "higher"})
_ABOUT = {"about": "约", "around": "约", "~": "约", "over": "超过"}


@dataclass
class _Claim:
    """A benchmark phrase read word by word: what it measures, how it moved, by how much."""

    measures: list[str] = field(default_factory=list)
    lower_better: bool = False
    changes: list[str] = field(default_factory=list)
    amount: list[str] = field(default_factory=list)
    units: list[str] = field(default_factory=list)
    up_to: bool = False
    about: str = ""

    def read(self, word: str, following: str) -> bool:
        """Take one word; False when it is a word this cannot say in Chinese."""
        low = word.lower().strip(",.;:()")
        if _AMOUNT.match(low) or re.match(r"^\d+(?:\.\d+)?(?:x|×|%)?-\d", low):
            number = word.strip(",.;:()")
            self.about = self.about or ("约" if number[0] in "~≈" else "")
            self.amount.append(number.lstrip("~≈"))
        elif low == "up" and following == "to":
            self.up_to = True
        elif low == "to":
            self.amount += ["至"] if self.amount and not self.up_to else []
        elif low in _ABOUT:
            self.about = _ABOUT[low]
        elif low in _UNITS:
            self.units.append(word.strip(",.;:()"))
        elif low in _MEASURES:
            self.measures.append(_MEASURES[low])
            self.lower_better = self.lower_better or low in _LOWER_IS_BETTER
        elif low in _CHANGES:
            self.changes.append(low)
        else:
            return low in _FILLER
        return True

    def said(self) -> str:
        """ "端到端吞吐提升 48.9%", "延迟最多降低 5%", "端到端性能提升约 5%"."""
        said = " ".join(self.amount) + "".join(f" {u}" for u in self.units)
        said = (f"{self.about} " if self.about else "") + said
        moved = "".join(dict.fromkeys(_change_zh(c, self.lower_better) for c in self.changes))
        head = "".join(self.measures)
        if moved:
            spaced = " " if head and head[-1].isascii() else ""
            head += spaced + ("最多" if self.up_to else "") + moved
        elif self.up_to:
            said = "最多 " + said
        if not head:
            return said
        return head + ("" if self.about else " ") + said  # "提升约 5%", "提升 48.9%"


def figure_zh(phrase: str) -> str:
    """ "48.9% E2E throughput improvement" → "端到端吞吐提升 48.9%"; "3.6x to 7.4x speedup" →
    "加速 3.6x 至 7.4x"; "up to 5% lower latency" → "延迟最多降低 5%"; "latency improvement of
    20%" → "延迟降低 20%"; anything else quoted whole: 「…」."""
    claim = _Claim()
    words = phrase.replace("–", " to ").split()
    for index, word in enumerate(words):
        following = words[index + 1].lower() if index + 1 < len(words) else ""
        if not claim.read(word, following):
            return f"「{phrase}」"
    if not claim.amount or claim.amount[-1] == "至":
        return f"「{phrase}」"
    return claim.said()


def _change_zh(word: str, lower_better: bool) -> str:
    """How the measure moved, in Chinese: a gain of latency is a drop."""
    if lower_better and word in _GAINS:
        return "降低"
    if lower_better and word in _RISES:
        return "增加"
    return _CHANGES[word]
