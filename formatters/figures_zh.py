"""An author's benchmark claim said in Chinese ("48.9% E2E throughput improvement" → "端到端吞吐
提升 48.9%"), for the "why" line of the zh edition (formatters.explanations). A phrase with
words this does not know stays a visible quote.
"""

from __future__ import annotations

import re

# What a claim measures, and how it moved: said in Chinese; a phrase with any other word
# stays the author's, quoted.
_MEASURES = {
    "e2e": "端到端",
    "end-to-end": "端到端",
    "throughput": "吞吐",
    "latency": "延迟",
    "memory": "显存",
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
    "kernel": "内核",
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
_RANGE_WORDS = {"up": "最高", "to": "至", "about": "约", "around": "约", "over": "超过", "~": "约"}


def figure_zh(phrase: str) -> str:
    """ "48.9% E2E throughput improvement" → "端到端吞吐提升 48.9%"; "3.6x to 7.4x speedup" →
    "加速 3.6x 至 7.4x"; anything else quoted whole: 「…」."""
    measures: list[str] = []
    changes: list[str] = []
    amount: list[str] = []
    for word in phrase.replace("–", " to ").split():
        low = word.lower().strip(",.;:()")
        if _AMOUNT.match(low) or re.match(r"^\d+(?:\.\d+)?(?:x|×|%)?-\d", low):
            amount.append(word.strip(",.;:()"))
        elif low in _RANGE_WORDS:
            if low != "up":  # "up to" is said once, by "to" after it
                amount.append(_RANGE_WORDS[low])
            else:
                amount.append("最高")
        elif low in _MEASURES:
            measures.append(_MEASURES[low])
        elif low in _CHANGES:
            changes.append(_CHANGES[low])
        elif low not in _FILLER:
            return f"「{phrase}」"
    if not amount:
        return f"「{phrase}」"
    said = " ".join(amount).replace("最高 至", "最高")
    words = "".join(measures) + "".join(dict.fromkeys(changes))
    return f"{words} {said}" if words else said
