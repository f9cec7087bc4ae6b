"""The sentence of an item's own description that tells what its title does not: what
changes or goes wrong, and for whom.

A reader has the title. A reason is worth a line only when it adds a fact, so every
sentence of the description's telling sections (what.py leaves out the template, the
environment, logs, test plans and code) is weighed by what it adds, never by where it
stands:

- what happens: an effect ("leaks into the `content` field", "falls back to a flat
  loop", "no longer", "compresses", "is always `null`");
- a figure with its unit ("3.6x", "48.9%", "4-bit") and the versions where it broke and
  where it worked ("fail to load in vLLM 0.15.0 and 0.15.1, but work correctly in 0.14.1");
- who is affected ("should only impact developers who are building locally", "No behavior
  change");

and only a sentence most of whose words the title and the line already shown do not hold.
Boilerplate is never chosen: an environment line, a command, a table row, a question,
"this PR adds support for X" with nothing after it. A short sentence that says more of the
same right after the chosen one rides with it ("… falls back to a flat loop. No behavior
change."). No such sentence: "" (no line). Extractive, like what.py: the author's words,
never ours.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.analyze.what import (
    BOILERPLATE,
    DANGLING,
    POINTS_ON,
    cut,
    paragraph_sentences,
    says_nothing,
    status_notes,
)
from bot.model.report import ActivityItem

LIMIT = 220  # characters of an effect shown (the chosen sentence and what rides with it)
LEAST_NEW = 3  # content words a sentence must add to the title and the line shown
NEW_SHARE = 0.4  # and this share of its content words
RIDES = 90  # a following sentence this short, with a signal of its own, rides along

# What happens, said by the author: each match weighs 2 (two at most).
_EFFECT = re.compile(
    r"\b(?:fail(?:s|ed|ing|ures?)?|crash(?:es|ed|ing)?|hang(?:s|ing)?|hung|leak(?:s|ed|ing)?|"
    r"break(?:s|ing)?(?!\s+(?:out|up|down)\b)|broke|broken|regress\w*|wrong(?:ly)?|incorrect(?:ly)?|garbage|gibberish|"
    r"corrupt\w*|deadlock\w*|OOMs?|out of memory|NaNs?|silently|mismatch\w*|"
    r"(?:is|are) always|no longer|falls? back|fallback|previously|used to|"
    r"only (?:impacts?|affects?)|no (?:behaviou?r(?:al)?|functional|user[- ]facing) changes?|"
    r"by default|defaults? to|instead of|caus(?:e|es|ed|ing)|leads? to|results? in|"
    r"prevents?|allows? (?:users?|you|people)|lets? (?:users?|you|people)|compress\w*|"
    r"reduc(?:e|es|ed|ing|tion)|improv(?:e|es|ed|ing|ement)|speeds? up|faster|slower|"
    r"eliminat\w*|cannot|can't|unable to|does(?:n't| not)|do(?:n't| not) (?:work|load|run|start)|"
    r"raises?|throws?|times? out|timeouts?|ignored|dropped|avoids?)\b",
    re.I,
)
# Whom it touches, said in a few words ("No behavior change.", "Only affects ROCm builds.").
_KIND = re.compile(
    r"\bno (?:behaviou?r(?:al)?|functional|user[- ]facing) changes?\b"
    r"|\bonly (?:impacts?|affects?)\b",
    re.I,
)
# Weaker signs of an effect: each weighs 1 (two at most).
_WEAK = re.compile(r"\b(?:returns?|now|missing|requires?|needs?|must|only|so that)\b", re.I)
# A figure with its unit: "3.6x", "48.9%", "4-bit", "120 ms", "2 GB", "35 tok/s".
_FIGURE = re.compile(
    r"(?<![\w.])\d+(?:\.\d+)?\s?(?:x|×|%|ms|µs|us|s|sec|seconds|minutes|GB|GiB|MB|KB|"
    r"tok/s|tokens/s|req/s|bits?|-bit)(?![\w])",
    re.I,
)
# A version said as one ("vLLM 0.15.0", "v0.14.1", "in 0.14.1", "CUDA 12.8+").
_VERSION = re.compile(
    r"(?:\bv|\b(?:vllm|version|versions|cuda|rocm|torch|pytorch|in|since|until|on|and)\s+v?)"
    r"\d+\.\d+(?:\.\d+)?\+?",
    re.I,
)
# Who it concerns.
_WHO = re.compile(
    r"\b(?:users?|developers?|anyone|operators?|people|everyone|those who|deployments?)\b", re.I
)
# "This PR adds support for X": what the title says, in a sentence; a signal after it counts.
_ADDS_SUPPORT = re.compile(
    r"^\W*(?:this|the)\s+(?:pr|pull request|change|patch|commit|diff)\s+"
    r"(?:adds?|implements?|introduces?|enables?|supports?|integrates?)\s+"
    r"(?:(?:the\s+)?support\s+(?:for|of)\s+)?",
    re.I,
)
_FILE_LEAD = re.compile(
    r"^\W*`?[\w./-]+\.(?:py|cu|cuh|cpp|h|hpp|yaml|yml|txt|md|sh|toml)`?\s*[:—–-]"
)
_TOKEN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+/-]*")
# Words that carry no fact of their own.
_STOP = frozenset(
    """
    the and for with this that from into when which are was were has have had been being
    will would should could can may might not but also its it's their there these those
    than then they them our you your all any some such via per etc one two use uses used
    using here what where who how why more most much many very just into onto over under
    each other same both between about after before while because since until pr prs
    issue issues vllm please like get got make makes made does did done doing able
    """.split()  # noqa: SIM905 - a word list reads best as words
)


# Words that name that something went wrong without saying what: "This caused failures
# when trying to run the model." adds nothing to "Fix Qwen3-Next inference with …". The
# verbs stay words: "All 8 TP workers fail simultaneously" says who fails.
_VAGUE = frozenset(
    """
    caused causes cause causing failure failures issue problem problems trying try tried
    run runs running model models work works working
    code thing things something case cases result results happen happens happened
    """.split()  # noqa: SIM905 - a word list reads best as words
)


def effect_sentence(item: ActivityItem, shown: str = "", limit: int = LIMIT) -> str:
    """The sentence of `item`'s description that tells most of what its title and `shown`
    (the lines already shown of it) do not, cut at `limit` characters; "" when no sentence
    tells anything more."""
    if not item.body:
        return ""
    said = content_words(f"{item.title} {shown}")
    best: tuple[float, int, int] | None = None
    # A list's items are sentences of their own here: "Reduced Quantization Steps:
    # Eliminates redundant quantization (3 steps → 2 steps)" is one fact of a list of four.
    paragraphs = paragraph_sentences(item.body, item.repo, items=True)
    opening = _key(shown)
    for p, paragraph in enumerate(paragraphs):
        for s, sentence in enumerate(paragraph):
            if opening and _key(sentence).startswith(opening):
                continue  # the line already shown, whole
            weight = weigh(sentence, said)
            if weight > 0 and (best is None or weight > best[0]):
                best = (weight, p, s)
    if best is None:
        return ""
    _, p, s = best
    return cut(_with_riders(paragraphs[p], s), limit)


def _with_riders(paragraph: list[str], index: int) -> str:
    """The chosen sentence and the short ones right after it up to the last that says more
    of the same ("… falls back to a flat loop. Zero extra GPU memory. No behavior change."):
    adjacent only, so the quote stays the author's."""
    chosen = paragraph[index]
    run: list[str] = []
    for following in paragraph[index + 1 : index + 3]:
        if len(following) > RIDES:
            break
        run.append(following)
        whole = " ".join([chosen, *run])
        if signal(following) >= 2 and len(whole) <= LIMIT:
            chosen, run = whole, []
    return chosen


def weigh(sentence: str, said: set[str]) -> float:
    """What one sentence adds to what a reader has (`said`: the content words of the title
    and the lines shown): 0 for boilerplate, for a sentence with no sign of an effect, a
    figure, a version or whom it concerns, and for one that mostly says what is said."""
    if BOILERPLATE.search(sentence) or says_nothing(sentence) or _code_share(sentence) > 0.6:
        return 0.0
    if _unfinished(sentence):
        return 0.0
    if sentence.count("|") >= 3:  # a table's row
        return 0.0
    rest = _ADDS_SUPPORT.sub("", sentence)
    strength = signal(rest)
    if strength < 2:
        return 0.0
    words = content_words(sentence)
    new = words - said - _VAGUE
    # "No behavior change.", "Only affects ROCm builds.": a short fact of its own kind.
    kind_sentence = _KIND.search(rest) is not None and len(rest) <= RIDES
    if not words or (len(new) < LEAST_NEW and not (kind_sentence and new)):
        return 0.0
    if len(new) < NEW_SHARE * len(words):
        return 0.0
    # A line of a file list ("`fp8_utils.py`: Use …") says where before what.
    where = 1.5 if _FILE_LEAD.match(sentence) else 0.0
    long = 1.0 if len(sentence) > LIMIT else 0.0  # it would be shown cut
    return strength - where - long + min(len(new), 8) / 8


def signal(sentence: str) -> int:
    """How much a sentence says of what happens: effects, figures, versions, whom."""
    effects = {m.group(0).lower() for m in _EFFECT.finditer(sentence)}
    weak = {m.group(0).lower() for m in _WEAK.finditer(sentence)}
    figures = len(_FIGURE.findall(sentence))
    versions = len(_VERSION.findall(sentence))
    score = 2 * min(len(effects), 2) + min(len(weak), 2)
    score += 2 * min(figures, 1)
    score += 2 if versions >= 2 else 1 if versions else 0
    score += 1 if _WHO.search(sentence) else 0
    return score


def content_words(text: str) -> set[str]:
    """The words of a text that say something: lower case, three letters or more, the
    common words left out (`reasoning_content` and `0.14.1` are words)."""
    found = set()
    for token in _TOKEN.findall(text.lower()):
        word = token.strip(".,;:+/-")
        if len(word) >= 3 and word not in _STOP:
            found.add(word)
    return found


def new_words(text: str, said: Iterable[str]) -> set[str]:
    """The content words of `text` that none of `said` holds."""
    held: set[str] = set()
    for other in said:
        held |= content_words(other)
    return content_words(text) - held


_WAITS = re.compile(
    r"(?:to be merged (?:after|with)|merge after|depends on|blocked (?:by|on)|stacked on|"
    r"requires|needs)\s+(?:the\s+)?(?:pr\s+)?((?:[\w.-]+/[\w.-]+)?#\d+)",
    re.I,
)


def waits_on(item: ActivityItem) -> tuple[str, ...]:
    """What an open PR's landing waits on, as its description's status note names it
    ("ROCm/aiter#2360"); nothing once it merged or closed."""
    if item.kind != "pr" or item.closed_at is not None:
        return ()
    found = [
        m.group(1) for note in status_notes(item.body, item.repo) for m in _WAITS.finditer(note)
    ]
    return tuple(dict.fromkeys(found))


def _unfinished(sentence: str) -> bool:
    """A sentence that begins or ends mid-thought: a stored excerpt's start ("…unting
    crash"), what someone named before it thinks ("believes that …", its name gone with the
    mention), a conclusion of what came before ("Therefore, …"), what its colon introduced
    cut off ("we see the following failures"), a last word cut ("as i")."""
    if sentence.startswith(("…", "...")) or _CUT_START.match(sentence):
        return True
    end = sentence.rstrip()
    if POINTS_ON.search(end) or end.endswith(":"):
        return True
    if re.search(r"[.!?)`\"”']$", end):
        return False
    last = end.split()[-1] if end.split() else ""
    return bool(DANGLING.search(last)) or (len(last) <= 2 and last.isalpha())


_CUT_START = re.compile(
    r"^(?:believes|thinks|says|suggests|mentions|notes|agrees|argues|points out)\b"
    r"|^(?:therefore|thus|hence|consequently)\b",
    re.I,
)


def _key(text: str) -> str:
    """A line's first words, as compared: lower case letters and digits (a cut line's
    "…" left out)."""
    return re.sub(r"[^a-z0-9]+", " ", text.lower().rstrip("…")).strip()[:60]


def _code_share(sentence: str) -> float:
    code = sum(len(span) for span in re.findall(r"`[^`]*`", sentence))
    return code / len(sentence) if sentence else 0.0
