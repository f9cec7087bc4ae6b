"""What an item is worth to a maintainer, from facts anyone can check on GitHub.

A maintainer names the day's weightiest work whatever its state: a new KV-cache quantization
method with benchmark figures, still open, outweighs a one-line fix of a benchmark script
that merged. `substance(item)` weighs what an item is and says before its size is known:
weighty title tags and labels (performance, quantization, new model, feature, RFC, release),
benchmark figures and result tables in its body, how much its description says, the
attention it drew (reactions, and comments on an item opened in the window). Routine work
(tests, CI, docs, typos, benchmark scripts, a bare revert) weighs little unless its title
also says it matters; a revert of weighty work is told as part of that work's story.

Key changes add the pulls API's size and reviewers and the state (changes.py); story
leads (stories.py) and the order inside vendor sections (topics.py) read this weight, so
every surface agrees on what matters most.
"""

from __future__ import annotations

import re

from bot.analyze.figures import benchmark_figures, figure_size
from bot.analyze.titles import title_tags, untagged
from bot.analyze.what import stated_length
from bot.model.report import ActivityItem

REVERT = re.compile(r'^\s*(?:\[revert\]|revert\b\s*")', re.I)

# Title tags and labels that make a change matter, and the word a reader sees for each.
WEIGHTY = {
    "perf": "performance",
    "performance": "performance",
    "kernel": "kernel",
    "quantization": "quantization",
    "quant": "quantization",
    "new model": "new model",
    "new-model": "new model",
    "feature": "feature",
    "feat": "feature",
    "rfc": "RFC",
    # Subjects, not kinds: a [MoE] or [Kernel] tag says what the work is about, and a
    # "[MoE Refactor] Rename …" is no performance change (SUBJECT_TAGS).
    "spec decode": "speculative decoding",
    "moe": "MoE",
    "kv cache": "KV cache",
    "release": "release",
    "releases": "release",
    "deprecation": "deprecation",
}
# What a subject tag weighs as (it weighs; it is not named so): unchanged weights, and a
# reshaping title's subject tags weigh nothing.
SUBJECT_WEIGHS_AS = {
    "moe": "performance",
    "kernel": "performance",
    "spec decode": "feature",
    "kv cache": "feature",
}
SUBJECT_TAGS = frozenset(SUBJECT_WEIGHS_AS)
# A title that says it only reshapes code: its subject tags weigh nothing.
_RESHAPE = re.compile(
    r"^\W*(?:refactor|clean ?up|rename|move|extract|reorgani[sz]e|simplify|unify|tidy)\b", re.I
)
RESHAPE_TAGS = frozenset({"refactor", "cleanup", "clean-up", "rename"})
# Tags of routine work: what the work is for (tests, CI, docs), not what it changes.
ROUTINE_TAGS = frozenset(
    {
        "ci",
        "ci/build",
        "doc",
        "docs",
        "documentation",
        "test",
        "tests",
        "typo",
        "ci failure",
        "benchmark",
        "lint",
    }
)
MINOR_TAGS = frozenset({"misc", "minor", "chore", "cleanup"})
UNFINISHED_TAGS = frozenset({"wip", "draft", "do not merge"})  # a state, not a subject

# Routine work named by the title's words, tried in this order.
_ROUTINE_TITLE = (
    (
        "benchmark script",
        re.compile(
            r"\bbenchmarks?/\w|\bbenchmark_\w+(?:\.py)?\b|"
            r"\bbenchmark(?:ing)? (?:scripts?|tools?)\b",
            re.I,
        ),
    ),
    (
        "tests",
        re.compile(
            r"\bflaky\b|\bunit[- ]tests?\b|\btest[- ]?cases?\b|\bregression tests?\b|"
            r"\b(?:e2e|integration|smoke) tests?\b|\btests? (?:for|of)\b|"
            r"\b(?:add|adds|added|fix|fixes|fixed|skip|skips|skipped|re-?enable)\s+(?:the\s+)?"
            r"(?:\w+\s+)?tests?\b|\btest_\w+",
            re.I,
        ),
    ),
    ("typo", re.compile(r"\btypos?\b", re.I)),
    ("backport", re.compile(r"\bbackport(?:s|ed)?\b|\bcherry[- ]pick", re.I)),
    ("docs", re.compile(r"^\s*docs?\s*:|\bdocstrings?\b|\breadme\b|\bexample docs\b", re.I)),
    (
        "CI",
        re.compile(
            r"\bpre-commit\b|\blint(?:er|ing)?\b|\bmypy\b|\bbuildkite\b|"
            r"\bgithub[- ]actions?\b|\bworkflows?\b|\bci (?:jobs?|steps?|timeouts?|pipelines?)\b|"
            r"\bpin(?:s|ned|ning)?\b[^.]*\bactions?\b",
            re.I,
        ),
    ),
)
_TAG_ROUTINE = (
    ("backport", frozenset({"backport", "cherry-pick"})),
    ("tests", frozenset({"test", "tests"})),
    ("CI", frozenset({"ci", "ci/build", "ci failure", "lint"})),
    ("docs", frozenset({"doc", "docs", "documentation"})),
    ("typo", frozenset({"typo"})),
    ("benchmark script", frozenset({"benchmark"})),
)
# A backport repeats work already weighed on main; a revert is weighed by what it undoes.
ROUTINE_PENALTY = {"revert": 2.0, "backport": 2.0}  # every other kind of routine work: 3.0
_TABLE_ROW = re.compile(r"^\s*\|.*\d.*\|\s*$", re.M)
# A section of results: "## Benchmark", "### Perf", "## Performance results".
_RESULTS_HEADING = re.compile(
    r"^\s*#{1,6}[^\n]*\b(?:perf(?:ormance)?|benchmarks?|speed-?ups?|throughput|latency|"
    r"ttft|tpot)\b[^\n]*$",
    re.I | re.M,
)
# What a table of speed results measures (an accuracy table of a fix is its test, not news).
_SPEED_WORDS = re.compile(
    r"\b(?:throughput|latency|ttft|tpot|itl|tok/s|tokens/s|req/s|speed-?up|ms)\b", re.I
)
_PAPER = re.compile(r"\barxiv\.org/(?:abs|pdf)/(\d{4}\.\d{4,5})", re.I)
# A title that opens with what the change brings ("Add batched messages support to …",
# "Integrate DeepGEMM into the wheel"): new capability, when no tag says what it is.
_NEW_WORK = re.compile(
    r"^\W*(?:add|adds|added|support|enable|introduce|implement|integrate|new)\b", re.I
)
_QUANT_WORDS = re.compile(r"\bquantiz(?:e|ed|ation)\b", re.I)
# Title words that say a change is about speed (when no [Perf] tag says so).
_PERF_WORDS = re.compile(
    r"\b(?:optimi[sz](?:e|es|ed|ation)|fus(?:e|ed|ion)|fused|kernels?|speed-?up|faster|"
    r"throughput|latency|persistent|tun(?:e|ed|ing)|batch(?:ed)? (?:copies|copy|encoding)|"
    r"overhead)\b",
    re.I,
)


NOISY_LABELS = 8  # an item with this many labels got them from a rebase, not from its subject


def _tags(title: str) -> set[str]:
    """A title's tags, and the words of a tag of several (`[MoE Kernel]` is `moe`, `kernel`)."""
    tags = set(title_tags(title))
    return tags | {word for tag in tags if " " in tag for word in tag.split()}


def _weighty(tags: set[str], title: str) -> set[str]:
    """The title's tags that weigh: a subject tag ([MoE], [Kernel]) not on work that only
    reshapes code ("[MoE Refactor] Rename …")."""
    reshaped = bool(tags & RESHAPE_TAGS) or _RESHAPE.search(untagged(title)) is not None
    return {t for t in tags if t in WEIGHTY and not (reshaped and t in SUBJECT_TAGS)}


def _weighs_as(tag: str) -> str:
    return SUBJECT_WEIGHS_AS.get(tag, WEIGHTY[tag])


def weighty_tags(item: ActivityItem) -> tuple[str, ...]:
    """The reader's words for what makes the item matter (title tags first, then labels
    unless there are so many that they say nothing)."""
    found = [WEIGHTY[t] for t in sorted(_weighty(_tags(item.title), item.title))]
    found += [WEIGHTY[label.lower()] for label in _labels(item) if label.lower() in WEIGHTY]
    return tuple(dict.fromkeys(found))


def _labels(item: ActivityItem) -> tuple[str, ...]:
    return item.labels if len(item.labels) < NOISY_LABELS else ()


def routine(item: ActivityItem) -> str | None:
    """What kind of routine work the item is ('tests', 'CI', 'docs', 'typo', 'benchmark
    script', 'revert'), or None: it is not routine, or its title also says it matters."""
    tags = set(title_tags(item.title))
    if any(t in WEIGHTY for t in tags):
        return None
    if REVERT.match(item.title):
        return "revert"
    words = untagged(item.title)
    for name, pattern in _ROUTINE_TITLE:
        if pattern.search(words):
            return name
    for name, routine_tags in _TAG_ROUTINE:
        if tags & routine_tags:
            return name
    return None


def figures(item: ActivityItem) -> tuple[str, ...]:
    """Benchmark claims of a change, from its title then its body (a tests PR's "2x
    faster" to-do is no benchmark of its own)."""
    if item.kind != "pr" or routine(item) is not None:
        return ()
    found = list(benchmark_figures(item.title))
    for figure in benchmark_figures(item.body):
        if len(found) < 2 and not any(_same_figure(figure, kept) for kept in found):
            found.append(figure)
    return tuple(found)


def _same_figure(a: str, b: str) -> bool:
    return bool(set(re.findall(r"\d+(?:\.\d+)?", a)) & set(re.findall(r"\d+(?:\.\d+)?", b)))


def evidence(item: ActivityItem) -> tuple[str, ...]:
    """What the body shows beyond claims: a section or table of results, a cited paper
    (`arXiv 2502.05202`). Facts a reviewer checks first."""
    if item.kind != "pr" or not item.body or routine(item) is not None:
        return ()
    body = item.body[:8000]
    found = []
    table = len(_TABLE_ROW.findall(body)) >= 3 and _SPEED_WORDS.search(body)
    if _RESULTS_HEADING.search(body) or table:
        found.append("results")
    paper = _PAPER.search(body)
    if paper:
        found.append(f"arXiv {paper.group(1)}")
    return tuple(found)


def substance(item: ActivityItem, window_opened: bool = False) -> float:
    """What an item is, as a number, from its title, labels and body; then attention.
    `window_opened`: the item was opened in the window, so all its comments are recent."""
    tags = _tags(item.title)
    tagged = {_weighs_as(t) for t in _weighty(tags, item.title)}
    labelled = {_weighs_as(x.lower()) for x in _labels(item) if x.lower() in WEIGHTY} - tagged
    score = 1.5 * min(len(tagged), 2) + 0.75 * min(len(labelled), 1)
    if item.kind == "issue" and "RFC" not in tagged:
        score /= 3  # "[Feature]" on an issue asks for the work; an RFC designs it
    score += _title_words(item, tagged)
    kind = routine(item)
    if kind is not None:
        score -= ROUTINE_PENALTY.get(kind, 3.0)
    score -= 1.0 if tags & MINOR_TAGS and not tagged else 0.0
    score -= 0.5 if tags & UNFINISHED_TAGS else 0.0
    score += _body_weight(item, kind is None)
    if window_opened:
        score += min(item.comments, 20) / 10
    return round(score + min(item.reactions, 10) / 2, 2)


def _title_words(item: ActivityItem, tagged: set[str]) -> float:
    """What the title's words say when its tags do not: speed, quantization, new work."""
    words = untagged(item.title)
    score = 0.75 if "performance" not in tagged and _PERF_WORDS.search(words) else 0.0
    score += 0.75 if "quantization" not in tagged and _QUANT_WORDS.search(words) else 0.0
    new_work = item.kind == "pr" and not tagged and _NEW_WORK.search(words)
    score += 0.75 if new_work else 0.0
    # Maintainers add `ready` to run the full CI on a PR they mean to land.
    score += 0.5 if item.kind == "pr" and "ready" in item.labels else 0.0
    return min(score, 1.0)


def _body_weight(item: ActivityItem, subject: bool) -> float:
    """A description that says much, shows figures, results or the paper it implements,
    weighs more; one that is nothing but the template weighs less."""
    length = stated_length(item.body)
    score = 1.0 if length >= 2000 else 0.5 if length >= 800 else -0.5 if length < 40 else 0.0
    if subject and item.kind == "pr":
        score += _figure_weight(figures(item))
        shown = evidence(item)
        score += 1.0 if "results" in shown else 0.0
        score += 1.0 if any(e.startswith("arXiv") for e in shown) else 0.0
    return score


def _figure_weight(claims: tuple[str, ...]) -> float:
    """A claimed gain weighs by its size: 2.4x more than 15 %, 15 % more than 3 %."""
    if not claims:
        return 0.0
    size = max(figure_size(claim) for claim in claims)
    return 2.0 if size >= 0.2 else 1.5 if size >= 0.05 else 0.25
