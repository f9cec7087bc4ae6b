"""The check on model-written prose: no claim without a source, no figure we did not compute.

A sentence is kept only when
- every `#n` it cites is an item of this window's report,
- every number in it (outside `#n`) is one the model was given (a count, a comment
  figure, or a number inside a given title such as Qwen3.5 or FP8), and
- it cites an item or states one of the report's figures (an unsupported claim goes).
Pure: text in, text and a count of dropped sentences out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_CITATION = re.compile(r"#(\d{1,7})\b")
# A figure: digits not glued to a Latin name before them ("MI355", "Qwen3.5" are names),
# whatever follows ("3x", "45个"); CJK text around a number does not hide it.
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.#])(\d+(?:\.\d+)?)")
# A sentence ends at . ! ? followed by a space (not inside "Qwen3.5"), or at 。！？.
_SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*")


@dataclass(frozen=True)
class Checked:
    text: str
    dropped: int


def numbers_in(texts: Iterable[str]) -> set[str]:
    """The figures written in `texts`, read the way `check` reads a sentence."""
    found: set[str] = set()
    for text in texts:
        found.update(m.group(1) for m in _NUMBER.finditer(_CITATION.sub(" ", text)))
    return found


def split_sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text.strip()) if s.strip()]


def check(
    text: str,
    *,
    items: set[int],
    figures: set[str],
    allowed: set[str],
    about: int | None = None,
) -> Checked:
    """Keep the sentences of `text` that pass; `figures` are the report's own numbers.

    `about`: the item a note is printed beside, which counts as every sentence's citation.
    """
    kept, dropped = [], 0
    for sentence in split_sentences(text):
        if fault(sentence, items=items, figures=figures, allowed=allowed, about=about):
            dropped += 1
            continue
        kept.append(sentence)
    return Checked(join(kept), dropped)


def fault(
    sentence: str,
    *,
    items: set[int],
    figures: set[str],
    allowed: set[str],
    about: int | None = None,
) -> str | None:
    """Why one sentence fails the check (None when it passes)."""
    cited = {int(n) for n in _CITATION.findall(sentence)} | ({about} if about else set())
    numbers = {m.group(1) for m in _NUMBER.finditer(_CITATION.sub(" ", sentence))}
    foreign = cited - items
    if foreign:
        return "cites " + ", ".join(f"#{n}" for n in sorted(foreign)) + ", not an item it was given"
    invented = numbers - allowed
    if invented:
        return "writes " + ", ".join(sorted(invented)) + ", a figure it was not given"
    if not (cited or numbers & figures):
        return "cites no item and states no figure of the report"
    return None


def join(sentences: list[str]) -> str:
    joiner = "" if any(s.endswith(("。", "！", "？")) for s in sentences) else " "
    return joiner.join(sentences)
