"""Vendor and topic classification, with the reason for every placement.

Signals and strengths are documented in config/topics.toml. Two kinds of noise are
defused: labels on an item that carries many area labels (a PR after a bad rebase picks
up a dozen) or labels of several vendors at once count for less, and a vendor named only
in the body never places an item (bug reports paste an environment dump naming ROCm and
CUDA whether or not they matter).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.analyze.titles import title_tags, untagged
from bot.analyze.weight import routine, substance
from bot.model.report import ActivityItem, Story, TopicSection
from bot.model.rules import TopicRule, TopicRules
from bot.model.windows import Window

THRESHOLD = 2
TAG_WEIGHT, KEYWORD_WEIGHT, AUTHOR_WEIGHT, LABEL_WEIGHT = 3, 2, 2, 2
NOISY_LABEL_WEIGHT = 1
NOISY_AREA_TOPICS = 3  # labels of this many topics at once look like rebase noise
NOISY_LABEL_COUNT = 8
REBASE_LABEL = "needs-rebase"  # with labels of two areas, the labels came with the rebase
# Title tags are tried group by group in this order: "[Bugfix][Backport]" is a backport.
_GROUP_TAG_ORDER = ("release", "performance", "bugfix", "platform", "features")
# Title keywords are tried in this order: a "fix" beats a "kernel".
_GROUP_KEYWORD_ORDER = ("bugfix", "performance", "release", "platform", "features")


@dataclass(frozen=True)
class TopicMatch:
    topic: str
    score: int
    reasons: tuple[str, ...]
    titled: bool = False  # the title says it (a tag or a keyword), not only author or labels
    tagged: bool = False  # a title tag says it ([ROCm], [XPU])
    signals: frozenset[str] = frozenset()  # which kinds matched: tag, keyword, author, label


Matches = Mapping[int, Mapping[str, TopicMatch]]  # item number → topic key → match


@dataclass(frozen=True)
class Features:
    """What classification reads of an item, worked out once per item (not once per topic)."""

    tags: tuple[str, ...]
    untagged_title: str
    labels: frozenset[str]  # lower case
    noise: str | None  # why the labels cannot be trusted


def features(item: ActivityItem, rules: TopicRules) -> Features:
    labels = frozenset(label.lower() for label in item.labels)
    return Features(
        tags=tuple(title_tags(item.title)),
        untagged_title=untagged(item.title),
        labels=labels,
        noise=_label_noise(labels, rules),
    )


def label_noise(item: ActivityItem, rules: TopicRules) -> str | None:
    """Why this item's labels cannot be trusted, or None when they can."""
    return _label_noise(frozenset(label.lower() for label in item.labels), rules)


def _label_noise(labels: frozenset[str], rules: TopicRules) -> str | None:
    if not labels:
        return None
    topics_labelled = [t.key for t in rules.topics if t.labels & labels]
    areas = len(topics_labelled)
    rebased = REBASE_LABEL in labels and areas >= 2
    if len(labels) >= NOISY_LABEL_COUNT or areas >= NOISY_AREA_TOPICS or rebased:
        return f"{len(labels)} labels across {areas} areas" + (", needs-rebase" if rebased else "")
    vendors = [t.key for t in rules.vendors if t.labels & labels]
    if len(vendors) > 1:
        return "labels of " + " and ".join(vendors)
    return None


def match_topic(item: ActivityItem, topic: TopicRule, seen: Features) -> TopicMatch | None:
    score = 0
    reasons: list[str] = []
    signals: set[str] = set()
    tags = [t for t in seen.tags if t in topic.tags]
    if tags:
        score += TAG_WEIGHT
        reasons.append(f"title tag [{tags[0]}]")
        signals.add("tag")
    elif topic.keywords is not None:
        title = seen.untagged_title
        if topic.ignore is not None:
            title = topic.ignore.sub(" ", title)
        found = topic.keywords.search(title)
        if found:
            score += KEYWORD_WEIGHT
            reasons.append(f"title says '{found.group(0)}'")
            signals.add("keyword")
    if topic.is_author(item.author):
        score += AUTHOR_WEIGHT
        reasons.append(f"author {item.author}")
        signals.add("author")
    labels = sorted(topic.labels & seen.labels)
    if labels:
        if seen.noise is None:
            score += LABEL_WEIGHT
            reasons.append(f"label {labels[0]}")
            signals.add("label")
        else:
            score += NOISY_LABEL_WEIGHT
            reasons.append(f"label {labels[0]} (weak: {seen.noise})")
            signals.add("weak label")
    if score < THRESHOLD:
        return None
    titled = bool(signals & {"tag", "keyword"})
    return TopicMatch(topic.key, score, tuple(reasons), titled, bool(tags), frozenset(signals))


def classify(item: ActivityItem, rules: TopicRules) -> dict[str, TopicMatch]:
    """Every topic `item` belongs to, with the reasons."""
    seen = features(item, rules)
    matches = {}
    for topic in rules.topics:
        found = match_topic(item, topic, seen)
        if found is not None:
            matches[topic.key] = found
    vendors = {t.key for t in rules.vendors}
    for key in [k for k in matches if k in vendors]:
        if _yields(item, key, matches, vendors) is not None:
            del matches[key]
    return matches


def _yields(
    item: ActivityItem, key: str, matches: Mapping[str, TopicMatch], vendors: set[str]
) -> str | None:
    """Why a vendor's weak claim gives way, or None when it stands. An author on a vendor's
    roster working on another vendor's hardware ("[Bugfix] Fix Nemotron-H … on Blackwell")
    is not that vendor's work; a title tagged [XPU] that mentions "cuda" in passing is
    Intel's, not NVIDIA's; vLLM's labeler labels by the files touched, so a CI-only change
    ("pin 1 unpinned action") labelled `cpu` is CI work, not the CPU backend's."""
    match = matches[key]
    others = [m for k, m in matches.items() if k in vendors and k != key]
    if match.signals <= {"author"} and any(m.titled for m in others):
        return "author only, and the title names another vendor"
    if (
        not match.tagged
        and match.signals <= {"keyword", "weak label"}
        and any(m.tagged for m in others)
    ):
        return "named in passing in a title tagged for another vendor"
    if match.signals <= {"label", "weak label"} and routine(item) in ("CI", "docs", "typo"):
        return "only a label on routine CI or docs work (labels follow the files touched)"
    return None


def classify_all(
    items: Iterable[ActivityItem], rules: TopicRules
) -> dict[int, dict[str, TopicMatch]]:
    """Each item's topics, classified once (every later step reads this)."""
    return {item.number: classify(item, rules) for item in items}


def explain(item: ActivityItem, rules: TopicRules) -> list[str]:
    """Lines saying, topic by topic, why `item` is or is not placed there (for `explain`)."""
    lines = []
    noise = label_noise(item, rules)
    if noise:
        lines.append(f"labels discounted: {noise}")
    matches = classify(item, rules)
    seen = features(item, rules)
    raw = {t.key: m for t in rules.topics if (m := match_topic(item, t, seen)) is not None}
    vendors = {t.key for t in rules.vendors}
    for topic in rules.topics:
        match = matches.get(topic.key)
        if match is None and topic.key in raw:
            why = _yields(item, topic.key, raw, vendors)
            lines.append(f"{topic.key}: no ({'; '.join(raw[topic.key].reasons)}, but {why})")
        elif match:
            group = group_of(item, rules)
            reasons = list(match.reasons)
            if topic.keywords is not None and item.body:
                mentions = len(topic.keywords.findall(item.body))
                reasons += [f"body mentions it {mentions}×"] if mentions else []
            lines.append(
                f"{topic.key}: yes (score {match.score}; {'; '.join(reasons)}; group {group})"
            )
        elif topic.keywords is not None and item.body and topic.keywords.search(item.body):
            lines.append(f"{topic.key}: no (named only in the body)")
    if not matches:
        lines.append("no topic: no title tag, title keyword, author or label matched")
    return lines


def group_of(item: ActivityItem, rules: TopicRules) -> str:
    """The group inside a vendor section: title tags, then title words, then labels."""
    by_key = rules.group_index
    tags = set(title_tags(item.title))
    for key in _GROUP_TAG_ORDER:
        tagged = by_key.get(key)
        if tagged is not None and tagged.tags & tags:
            return tagged.key
    for group in rules.groups:
        if group.tags & tags:
            return group.key
    title = untagged(item.title)
    for key in _GROUP_KEYWORD_ORDER:
        candidate = by_key.get(key)
        if candidate and candidate.keywords is not None and candidate.keywords.search(title):
            return candidate.key
    labels = {label.lower() for label in item.labels}
    for group in rules.groups:
        if group.labels & labels:
            return group.key
    return "other"


def topic_sections(
    items: Iterable[ActivityItem],
    rules: TopicRules,
    by_item: Matches,
    stories: Mapping[int, Story],
    window: Window,
    weights: Mapping[int, float] | None = None,
) -> dict[str, TopicSection]:
    """Sections for every topic with at least one item, their stories in the order that
    matters: merged, then in review, then newly opened, then issues closed, then PRs closed
    without merging; inside each, the weightiest first. Items closed by the stale bot are
    set apart (shown as one folded line). `weights`: each item's substance (weight.py)."""
    ordered = sorted(items, key=lambda it: it.number)
    weigh = dict(weights or {})
    for it in ordered:
        if it.number not in weigh:
            weigh[it.number] = substance(it, window.contains(it.created_at))
    groups_of = {it.number: group_of(it, rules) for it in ordered if by_item[it.number]}
    sections = {}
    for topic in rules.topics:
        members = [it for it in ordered if topic.key in by_item[it.number]]
        if members:
            matches = {it.number: by_item[it.number][topic.key] for it in members}
            sections[topic.key] = _section(
                topic.key,
                members,
                matches,
                [groups_of[it.number] for it in members],
                stories,
                window,
                weigh,
            )
    return sections


def _section(
    key: str,
    members: list[ActivityItem],
    matches: Mapping[int, TopicMatch],
    group_keys: list[str],
    stories: Mapping[int, Story],
    window: Window,
    weights: Mapping[int, float],
) -> TopicSection:
    groups: dict[str, list[int]] = {}
    for it, group in zip(members, group_keys, strict=True):
        groups.setdefault(group, []).append(it.number)
    swept = [it for it in members if swept_away(it, window)]
    gone = {it.number for it in swept}  # by number: `in` on a list of items is quadratic
    kept = [it for it in members if it.number not in gone]
    buckets = _buckets(kept, matches, stories, window, weights)
    figures: dict[str, list[int]] = {}
    for it in kept:
        figures.setdefault(bucket(it, window), []).append(it.number)
    return TopicSection(
        key=key,
        issues=tuple(it.number for it in members if it.kind == "issue"),
        prs=tuple(it.number for it in members if it.kind == "pr"),
        groups={k: tuple(v) for k, v in groups.items()},
        reasons={n: "; ".join(match.reasons) for n, match in matches.items()},
        stories=tuple(s for name in BUCKETS for s in buckets.get(name, ())),
        stale=tuple(it.number for it in swept),
        buckets=buckets,
        figures={name: tuple(figures[name]) for name in BUCKETS if name in figures},
    )


# What a topic's reader looks for first: what landed, what waits for review, what was newly
# reported, which requests were closed (in issue words: completed, not planned, duplicate),
# what was closed without landing.
BUCKETS = ("merged", "review", "new", "done", "closed")
SWEEP_LABELS = frozenset({"stale", "closed-as-slop"})  # closed in bulk, not on their merits


def bucket(item: ActivityItem, window: Window) -> str:
    """Where the item stood when the window ended (a report asked later still tells its day:
    a PR opened in the window and merged days after was in review then)."""
    if item.merged_at is not None and window.contains(item.merged_at):
        return "merged"
    if item.kind == "pr":
        if item.closed_at is not None and window.contains(item.closed_at):
            return "closed"
        return "new" if item.draft else "review"
    return "new" if window.contains(item.created_at) else "done"


def swept_away(item: ActivityItem, window: Window) -> bool:
    """Closed in the window by the stale bot or as low-effort work: one folded line."""
    closed_here = item.closed_at is not None and window.contains(item.closed_at)
    labels = {label.lower() for label in item.labels}
    return closed_here and item.merged_at is None and bool(labels & SWEEP_LABELS)


def _buckets(
    members: list[ActivityItem],
    matches: Mapping[int, TopicMatch],
    stories: Mapping[int, Story],
    window: Window,
    weights: Mapping[int, float],
) -> dict[str, tuple[str, ...]]:
    """Story ids per bucket: the title saying the topic first (a [ROCm] PR before a PR that
    is only by an AMD author), then what the item is worth, then talk."""
    best: dict[str, tuple[int, int, float, int, int]] = {}
    for it in members:
        story = stories.get(it.number)
        story_id = story.id if story is not None else f"s{it.number}"
        rank = (
            BUCKETS.index(bucket(it, window)),
            0 if matches[it.number].titled else 1,
            -weights[it.number],
            -it.comments,
            it.number,
        )
        if story_id not in best or rank < best[story_id]:
            best[story_id] = rank
    out: dict[str, list[str]] = {}
    for story_id in sorted(best, key=lambda s: best[s]):
        out.setdefault(BUCKETS[best[story_id][0]], []).append(story_id)
    return {name: tuple(ids) for name, ids in out.items()}
