"""Key technical changes and notable issues, ranked by facts a maintainer would cite.

Key changes are the window's merged PRs, its new PRs in review and its RFCs, weighed by
what they are (title tags and labels: performance, quantization, new model, feature, RFC;
routine CI, docs and test work ranks low), how big they are (lines and files, from the
pulls API for the shortlist only), what their body claims (benchmark figures such as
`1.3x` or `+15%`, quoted), who reviewed them, and the discussion they drew in the window.
A follow-up folds into its story's lead, so a one-line fix never outranks the feature it
fixes. Notable issues are bug reports with a severity signal (crash, hang, OOM,
regression, wrong output, security) in their title or problem statement.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.analyze.titles import title_tags
from bot.analyze.weight import WEIGHTY, significance
from bot.analyze.what import what_line
from bot.model.report import (
    ActivityItem,
    KeyChange,
    NotableIssue,
    PullDetails,
    Story,
    Why,
)
from bot.model.rules import TopicRules
from bot.model.windows import Window

CANDIDATES = 6  # PRs whose size and reviews are read from the pulls API
STATE_WEIGHT = {"merged": 3.0, "review": 1.5, "rfc": 2.0}
# A benchmark claim: a multiplier or a percentage near a word saying what improved.
_FIGURE = re.compile(
    r"(?:(?:up to|about|around|~|over|≈)\s*)?"
    r"(?<![A-Za-z0-9.])[+-]?\d+(?:\.\d+)?\s?(?:x|×|%)(?![\w])(?:\s?(?:to|-|–)\s?\d+(?:\.\d+)?\s?(?:x|×|%))?"
    r"(?P<words>(?:\s+[A-Za-z][A-Za-z/]*){0,4})",
    re.I,
)
_MEASURE = re.compile(
    r"speed-?ups?|faster|throughput|latency|ttft|tpot|itl|e2e|tokens?/s|tok/s|qps|"
    r"memory|improve\w*|reduc\w*|gain|decode|prefill|slower|accuracy|overhead",
    re.I,
)
SEVERITY: tuple[tuple[str, str, float], ...] = (
    ("security", r"security|CVE-\d+|vulnerab\w*|RCE|injection", 5.0),
    (
        "crash",
        r"crash\w*|segfault|segmentation fault|illegal memory access|core dumped|"
        r"SIGSEGV|SIGABRT|RuntimeError|CUDA error|AssertionError|IndexError|KeyError",
        3.0,
    ),
    ("hang", r"hang(s|ing)?|stuck|deadlock\w*|freez\w*|never returns|livelock", 3.0),
    ("regression", r"regress\w*", 3.0),
    (
        "wrong output",
        r"wrong|incorrect|garbage|gibberish|!{3,}|exclamation|accuracy|"
        r"nonsense|NaN|only 1 token|repeat\w*",
        3.0,
    ),
    ("OOM", r"OOM|out of memory|memory leak|leak\w*", 2.5),
)
# A word starts at a word boundary; a run of "!!!" has none (a space before it is no \b).
_SEVERITY_RES = tuple(
    (name, re.compile(rf"(?:\b|(?=!))(?:{p})", re.I), w) for name, p, w in SEVERITY
)
_BUG_TAGS = frozenset({"bug", "bug report", "bugs"})


def state_of(item: ActivityItem) -> str:
    if item.merged_at is not None:
        return "merged"
    return "closed" if item.closed_at is not None else "open"


def change_state(item: ActivityItem, window: Window) -> str | None:
    """merged / review / rfc when `item` can be a key change of `window`, else None."""
    tags = set(title_tags(item.title))
    if item.kind == "issue":
        is_rfc = "rfc" in tags or "RFC" in item.labels or item.title.lower().startswith("rfc")
        return "rfc" if is_rfc and window.contains(item.created_at) else None
    if item.merged_at is not None and window.contains(item.merged_at):
        return "merged"
    open_at_end = item.closed_at is None or item.closed_at >= window.end  # as the day ended
    if open_at_end and not item.draft and window.contains(item.created_at):
        return "rfc" if "rfc" in tags else "review"
    return None


def key_change_candidates(
    items: Sequence[ActivityItem], window: Window, rules: TopicRules, limit: int = CANDIDATES
) -> list[int]:
    """The PRs worth one pulls-API request each: the best by everything but their size."""
    ranked = []
    for item in items:
        state = change_state(item, window)
        if state is None or item.kind != "pr" or rules.is_bot(item.author):
            continue
        ranked.append((-_base_score(item, state, 0), item.number))
    return [number for _, number in sorted(ranked)[:limit]]


def key_changes(
    items: Sequence[ActivityItem],
    window: Window,
    rules: TopicRules,
    stories: Mapping[int, Story],
    details: Mapping[int, PullDetails],
    discussed: Mapping[int, int],
    limit: int = 5,
) -> tuple[KeyChange, ...]:
    """The `limit` weightiest changes, one per story; its other candidates fold into it."""
    best: dict[str, KeyChange] = {}
    folded: dict[str, list[int]] = {}
    for item in items:
        state = change_state(item, window)
        if state is None or rules.is_bot(item.author):
            continue
        story = stories.get(item.number)
        story_id = story.id if story is not None else f"s{item.number}"
        why = _why(item, details.get(item.number), discussed.get(item.number, 0), rules)
        change = KeyChange(item.number, story_id, state, _score(item, state, why), why)
        held = best.get(story_id)
        if held is None or (change.score, -change.number) > (held.score, -held.number):
            if held is not None:
                folded.setdefault(story_id, []).append(held.number)
            best[story_id] = change
        else:
            folded.setdefault(story_id, []).append(item.number)
    ranked = []
    for story_id, change in best.items():
        extra = tuple(sorted(folded.get(story_id, [])))
        why = replace(change.why, follow_ups=extra)
        score = round(change.score + 0.5 * len(extra), 2)
        ranked.append(replace(change, score=score, why=why))
    ranked.sort(key=lambda k: (-k.score, k.number))
    return tuple(ranked[:limit])


def _base_score(item: ActivityItem, state: str, discussed: int) -> float:
    return STATE_WEIGHT[state] + significance(item) + min(discussed, 12) / 4


def _score(item: ActivityItem, state: str, why: Why) -> float:
    score = _base_score(item, state, why.comments_in_window)
    lines = (why.additions or 0) + (why.deletions or 0)
    score += min(math.log2(1 + lines) / 2, 5.0) if lines else 0.0
    score += min(why.files or 0, 30) / 15
    score += 1.5 if why.figures else 0.0
    score += 0.3 * min(why.reviewers or 0, 5)
    return round(score, 2)


def _weighty(item: ActivityItem) -> tuple[str, ...]:
    found = [WEIGHTY[t] for t in title_tags(item.title) if t in WEIGHTY]
    found += [WEIGHTY[label.lower()] for label in item.labels if label.lower() in WEIGHTY]
    return tuple(dict.fromkeys(found))


def _why(item: ActivityItem, details: PullDetails | None, discussed: int, rules: TopicRules) -> Why:
    # A figure is quoted only for a change that is about speed or size: a tests PR's
    # "2x faster" to-do is no benchmark of its own.
    quoted = "performance" in _weighty(item) or "quantization" in _weighty(item)
    return Why(
        additions=details.additions if details else None,
        deletions=details.deletions if details else None,
        files=details.changed_files if details else None,
        figures=benchmark_figures(item.body) if quoted else (),
        # People only: a bot's review (mergify, a CI bot) is no reviewer's attention.
        reviewers=(
            sum(not rules.is_bot(login) for login in details.reviewers) if details else None
        ),
        comments_in_window=discussed,
        reactions=item.reactions,
        tags=_weighty(item),
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


# -- notable issues ------------------------------------------------------------------------


def is_bug_report(item: ActivityItem) -> bool:
    tags = set(title_tags(item.title))
    labels = {label.lower() for label in item.labels}
    return bool(
        tags & _BUG_TAGS or "bug" in labels or (item.body and "Describe the bug" in item.body)
    )


def severity(item: ActivityItem) -> list[tuple[str, float]]:
    """Severity signals of a bug report, read in its title and problem statement."""
    if not is_bug_report(item):
        return []
    text = item.title + "\n" + what_line(item, limit=600)
    return [(name, w) for name, pattern, w in _SEVERITY_RES if pattern.search(text)]


def notable_issues(
    items: Sequence[ActivityItem],
    window: Window,
    rules: TopicRules,
    stories: Mapping[int, Story] | None = None,
    limit: int = 5,
) -> tuple[NotableIssue, ...]:
    """Bug reports opened in the window (an old report closed now is history, and its fix is
    among the changes), the gravest first, one per story."""
    scored = []
    for it in items:
        if it.kind != "issue" or rules.is_bot(it.author) or not window.contains(it.created_at):
            continue
        signals = severity(it)
        if not signals:
            continue
        text = it.title + "\n" + (it.body or "")[:2000]
        hardware = _distinct(_find(rules.hardware, text))
        models = _distinct(_find(rules.models, it.title))
        score = sum(w for _, w in signals) + min(it.comments, 30) / 3 + it.reactions
        score += 1.0 if "bug" in it.labels else 0.0
        scored.append(
            NotableIssue(it.number, tuple(n for n, _ in signals), hardware, models, round(score, 2))
        )
    scored.sort(key=lambda n: (-n.score, n.number))
    seen: set[str] = set()
    kept = []
    for issue in scored:
        story = (stories or {}).get(issue.number)
        key = story.id if story is not None else f"s{issue.number}"
        if key not in seen:
            seen.add(key)
            kept.append(issue)
    return tuple(kept[:limit])


def _find(pattern: re.Pattern[str] | None, text: str) -> list[str]:
    return [m.group(0) for m in pattern.finditer(text)] if pattern is not None else []


def _distinct(found: list[str]) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for value in found:
        seen.setdefault(value.lower(), value)
    return tuple(seen.values())[:4]
