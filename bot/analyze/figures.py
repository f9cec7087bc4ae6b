"""Benchmark claims quoted from a body: "3.6x to 7.4x speedup", "improves E2E latency by 15%".

A figure counts only beside a word that says what it measures (throughput, latency, memory,
decode …): "100% of the tests pass" is no benchmark. Code blocks are skipped (logs are full
of numbers). Quoted, never computed: the reader can find the phrase in the PR.
"""

from __future__ import annotations

import re

# A benchmark claim: a multiplier or a percentage near a word saying what improved.
_FIGURE = re.compile(
    r"(?:(?:up to|about|around|~|over|≈)\s*)?"
    r"(?<![A-Za-z0-9.])[+-]?(?:\d+(?:\.\d+)?\s?(?:-|–)\s?)?\d+(?:\.\d+)?\s?(?:x|×|%)(?![\w])"
    r"(?:\s?(?:to|-|–)\s?\d+(?:\.\d+)?\s?(?:x|×|%))?"
    r"(?P<words>(?:\s+[A-Za-z][\w/]*){0,4})",
    re.I,
)
_MEASURE = re.compile(
    r"speed-?ups?|faster|throughput|latency|ttft|tpot|itl|e2e|tokens?/s|tok/s|qps|"
    r"memory|improve\w*|reduc\w*|gain|decode|prefill|slower|accuracy|overhead",
    re.I,
)


def benchmark_figures(body: str | None, limit: int = 2) -> tuple[str, ...]:
    """Speed-up and percentage claims quoted from a body ("3.6x to 7.4x speedup")."""
    if not body:
        return ()
    text = re.sub(r"```.*?(?:```|$)", " ", body[:8000], flags=re.S)
    found: list[str] = []
    for match in _FIGURE.finditer(text):
        # The figure and the words after it up to the last one that says what it measures.
        words = match.group("words").split()
        measured = [i for i, word in enumerate(words) if _MEASURE.fullmatch(word)]
        figure = match.group(0)[: match.start("words") - match.start()]
        before = text[max(0, match.start() - 40) : match.start()]
        if not measured and not _MEASURE.search(before):
            continue
        if measured:
            phrase = " ".join([*figure.split(), *words[: measured[-1] + 1]])
        else:  # "E2E latency by 15%": the words before say what it measures
            prior = re.findall(r"[A-Za-z][\w/-]*", before)[-4:]
            first = next(
                i for i, word in enumerate(prior) if _MEASURE.fullmatch(word) or i == len(prior) - 1
            )
            phrase = " ".join([*prior[first:], *figure.split()])
        if not any(phrase in kept or kept in phrase for kept in found):
            found.append(phrase[:60])
        if len(found) == limit:
            break
    return tuple(found)


def figure_size(phrase: str) -> float:
    """How big a quoted claim is, as a share of improvement: "3.6x to 7.4x speedup" is 6.4,
    "15% lower latency" 0.15, "3-4% speedup" 0.04 (the largest figure in the phrase)."""
    best = 0.0
    for number, unit in re.findall(r"(\d+(?:\.\d+)?)\s?(x|×|%)", phrase, re.I):
        value = float(number)
        best = max(best, value - 1 if unit.lower() in ("x", "×") else value / 100)
    return best
