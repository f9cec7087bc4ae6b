"""The report model: our own frozen types, built at the collector's boundary.

No PyGithub object crosses into here (their lazy attributes make hidden API calls), and
nothing here does I/O. `ActivityItem` is one issue or pull request as GitHub last showed
it; `Report` is what one window of them amounts to. A report carries everything drawing
needs (topic and group names in both languages, vendor order), so formatters read the
report and nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from functools import cached_property

# Re-exported: the report carries its catalog, and its readers import it from here.
from bot.model.catalog import Catalog as Catalog
from bot.model.catalog import GroupInfo as GroupInfo
from bot.model.catalog import Kind as Kind
from bot.model.catalog import TopicInfo as TopicInfo
from bot.model.parts import ReportPart
from bot.model.windows import Window

BASELINE_DAYS = 7  # trends compare a day with the mean of the days before it

# The core report's sections, in the reference's order: words `--section` and the slash
# commands take (besides a topic key). The features' words (`plugins`, `ci`) come from their
# declarations (bot.features.section_words), between these and the appendix.
CORE_SECTIONS = ("summary", "vendors", "hot", "trends", "key", "activity", "notable")
LAST_SECTION = "appendix"


def sections_with(feature_words: Iterable[str]) -> tuple[str, ...]:
    """Every section word, the features' (`feature_words`) placed before the appendix."""
    return (*CORE_SECTIONS, *feature_words, LAST_SECTION)


class ListName(StrEnum):
    """The five counts of a report, each with its appendix list, in the reference's order."""

    NEW_ISSUES = "new_issues"
    CLOSED_ISSUES = "closed_issues"
    NEW_PRS = "new_prs"
    MERGED_PRS = "merged_prs"
    CLOSED_UNMERGED_PRS = "closed_unmerged_prs"


@dataclass(frozen=True)
class ActivityItem:
    """One issue or pull request of the watched repository."""

    repo: str
    number: int
    kind: Kind
    title: str
    author: str | None
    labels: tuple[str, ...]
    state: str
    created_at: datetime
    updated_at: datetime
    url: str
    closed_at: datetime | None = None
    merged_at: datetime | None = None
    state_reason: str | None = None
    comments: int = 0
    body: str | None = None
    author_association: str | None = None
    draft: bool = False
    reactions: int = 0

    def event_time(self, list_name: ListName) -> datetime | None:
        """When the event that puts this item on `list_name` happened (None: it did not)."""
        if list_name in (ListName.NEW_ISSUES, ListName.NEW_PRS):
            return self.created_at
        if list_name is ListName.MERGED_PRS:
            return self.merged_at
        return self.closed_at


@dataclass(frozen=True)
class ClosureSplit:
    """A closure count taken apart: closed by people, swept by the stale bot, or closed in
    bulk as low-effort work (vLLM's `closed-as-slop` label)."""

    resolved: int
    stale: int
    low_effort: int = 0


@dataclass(frozen=True)
class CommentRecord:
    """One comment on an issue or PR (conversation comments; reviews are not fetched)."""

    repo: str
    number: int
    comment_id: int
    author: str | None
    author_association: str | None
    created_at: datetime
    body: str = ""  # its first COMMENT_CHARS characters: what prose may say the thread argued


COMMENT_CHARS = 2000


@dataclass(frozen=True)
class StoryMember:
    """An item of a story besides its lead, and how it relates to the lead."""

    number: int
    # fixes_lead, fixed_by_lead, backport, backported, revert, reverted, reland, relanded,
    # replacement, replaced, follow_up, followed, duplicate, similar, series, attempt, related;
    # ties no link states (bot.analyze.ties): reported_after / changed_before (a report
    # after a change to what it names), fixes_test / test_failure (a PR on a failing test)
    relation: str
    context: bool  # outside the window: named by the story's items


@dataclass(frozen=True)
class Story:
    """Related items shown as one: a lead and its members, with the reasons they are one."""

    id: str
    lead: int
    numbers: tuple[int, ...]  # the lead first
    members: tuple[StoryMember, ...]
    reasons: tuple[str, ...]

    def led_by(self, number: int) -> Story:
        """The same story told from another member (a key change that is not the lead): the
        old lead becomes a member, related the other way round."""
        if number == self.lead:
            return self
        own = next(m for m in self.members if m.number == number)
        old = StoryMember(self.lead, INVERSE.get(own.relation, own.relation), False)
        others = tuple(m for m in self.members if m.number != number)
        return Story(
            self.id,
            number,
            (number, self.lead, *(m.number for m in others)),
            (old, *others),
            self.reasons,
        )


# A relation seen from the other side: if A is a revert of B, B is reverted by A.
_PAIRS = (
    ("fixes_lead", "fixed_by_lead"),
    ("backport", "backported"),
    ("revert", "reverted"),
    ("reland", "relanded"),
    ("replacement", "replaced"),
    ("follow_up", "followed"),
    ("reported_after", "changed_before"),
    ("fixes_test", "test_failure"),
)
INVERSE = {a: b for a, b in _PAIRS} | {b: a for a, b in _PAIRS}


@dataclass(frozen=True)
class Verdict:
    """A review that decides: `approved` or `changes_requested`, by whom, when submitted."""

    login: str
    state: str
    at: datetime


@dataclass(frozen=True)
class PullDetails:
    """What the pulls API adds to a PR: the size of the change and who reviewed it."""

    number: int
    additions: int | None
    deletions: int | None
    changed_files: int | None
    reviewers: tuple[str, ...]  # people who left a review (author and bots left out)
    verdicts: tuple[Verdict, ...] = ()  # approvals and change requests, oldest first


@dataclass(frozen=True)
class TopicSection:
    """One vendor or subject: its items, the stories they make in the order that matters
    (merged, in review, newly opened, closed without merging), and each item's reason."""

    key: str
    issues: tuple[int, ...]
    prs: tuple[int, ...]
    groups: dict[str, tuple[int, ...]]
    reasons: dict[int, str]
    stories: tuple[str, ...] = ()  # story ids, most telling first; stale sweeps left out
    stale: tuple[int, ...] = ()  # closed by the stale bot or as slop: folded into one line
    # The same story ids by bucket: merged, review (in review), new (newly opened issues and
    # drafts), done (earlier issues closed), closed (closed without merging). A story stands
    # in the bucket of its furthest-along item, so it may hold items of later buckets.
    buckets: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # What each bucket's figure counts: the topic's items whose own state is that bucket's
    # (never a story's other members: "9 merged PRs" is nine merged PRs). Every surface
    # shows these figures; the swept items are apart (`stale`).
    figures: dict[str, tuple[int, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class HotDiscussion:
    number: int
    score: float
    comments_in_window: int  # comments written inside the window (bots left out)
    comments_total: int  # all comments GitHub counts on the item
    participants: tuple[str, ...]  # people who commented in the window (author, bots apart)
    author_replied: bool  # the author commented in the window
    maintainers: tuple[str, ...]
    reactions: int
    linked: tuple[int, ...]
    measured: bool  # False: the thread was not read; comments_in_window is unknown (0)


@dataclass(frozen=True)
class Why:
    """The facts that put a change among the key ones, each checkable on GitHub."""

    additions: int | None = None
    deletions: int | None = None
    files: int | None = None
    figures: tuple[str, ...] = ()  # benchmark claims quoted from the body ("1.3x decode")
    reviewers: int | None = None
    comments_in_window: int = 0
    reactions: int = 0
    tags: tuple[str, ...] = ()  # performance, quantization, new model, RFC, feature
    follow_ups: tuple[int, ...] = ()  # members of its story folded into it
    delivers: tuple[int, ...] = ()  # requests (issues) of its story it says it fixes
    completed: tuple[int, ...] = ()  # of those, the ones closed as completed
    evidence: tuple[str, ...] = ()  # "results" (a section or table of them), "arXiv 2504.19874"
    routine: str | None = None  # tests, CI, docs, typo, benchmark script, revert


@dataclass(frozen=True)
class KeyChange:
    number: int  # the story's lead
    story: str
    state: str  # where it stood as the window ended: merged, review, draft, rfc
    score: float
    why: Why


@dataclass(frozen=True)
class NotableIssue:
    number: int
    signals: tuple[str, ...]
    hardware: tuple[str, ...]
    models: tuple[str, ...]
    score: float


@dataclass(frozen=True)
class Explanation:
    """What the facts say an item is and why it matters to a user (bot.analyze.explain), for
    the items a report tells first; formatters/why.py says it in English and Chinese.

    `work` names the kind of work for a label (【修复】, "+3 more: #1 (fix)") and a vendor's
    tally, never as a reason; `hardware` and `models` name whom it concerns for a vendor's
    overview and the Chinese sentence of an issue, never alone as a reason. The why is told
    only from the facts after them, each one the title does not already give."""

    number: int
    kind: str  # pr or issue
    # pr: fix, performance, feature, model, quantization, kernel, refactor, docs, ci, test,
    # benchmark, revert, backport, release, deprecation; issue: bug, feature_request, rfc,
    # usage, ci_failure, installation, performance, docs, model_request. None: unsaid.
    work: str | None
    areas: tuple[str, ...] = ()  # topic keys, vendors first (a vendor's tally)
    hardware: tuple[str, ...] = ()  # named in its title or own line
    models: tuple[str, ...] = ()  # named in its title
    figures: tuple[str, ...] = ()  # the author's benchmark claims ("48.9% E2E throughput")
    default: str = ""  # the author's sentence saying which default it changes
    effect: str = ""  # the description's sentence that tells what the title does not
    waits_on: tuple[str, ...] = ()  # what an open PR's landing waits on ("ROCm/aiter#2360")
    signals: tuple[str, ...] = ()  # an issue's severity: crash, hang, wrong output …
    fixes: tuple[int, ...] = ()  # issues it says it fixes
    fixed_by: tuple[int, ...] = ()  # PRs that say they fix it
    reverts: tuple[int, ...] = ()
    reverted_by: tuple[int, ...] = ()  # its revert, proposed or merged
    backports: tuple[int, ...] = ()  # the PRs a backport brings to a release
    release: str | None = None  # the release it backports to ("v0.13.0")


@dataclass(frozen=True)
class TrendRow:
    topic: str
    count: int
    mean_7d: float  # per window of this length, over the archived previous days
    # "up", "down", "flat"; "new" (no baseline day archived); "thin" (the baseline holds
    # too few items to compare with)
    direction: str
    numbers: tuple[int, ...]
    per_day: float = 0.0  # count per report day (a range compares per day)


@dataclass(frozen=True)
class Theme:
    """The day's weightiest work under one topic: key changes in their rank's order."""

    topic: str  # "" for work filed under no topic
    numbers: tuple[int, ...]  # key changes, as they rank
    weight: float  # the first one's score


@dataclass(frozen=True)
class Cluster:
    name: str
    numbers: tuple[int, ...]


@dataclass(frozen=True)
class Activity:
    distinct_authors: int  # people who opened or landed work in the window
    first_time_contributors: tuple[str, ...]
    vendor_authors: dict[str, tuple[str, ...]]
    merged: int
    bot_items: int


@dataclass(frozen=True)
class Sections:
    """Everything beyond the counts; all computed by code from the archive."""

    catalog: Catalog
    topics: dict[str, TopicSection]
    stories: tuple[Story, ...]
    what: dict[int, str]  # each item's own one-line statement ('' when it has none)
    details: dict[int, PullDetails]  # for the key-change candidates that were read
    hot_discussions: tuple[HotDiscussion, ...]
    key_changes: tuple[KeyChange, ...]
    notable_issues: tuple[NotableIssue, ...]
    trends: tuple[TrendRow, ...]
    clusters: tuple[Cluster, ...]
    activity: Activity
    baseline_days: int  # how many of the 7 previous days the archive covered
    days: int = 1  # report days in the window
    weights: dict[int, float] = field(default_factory=dict)  # each item's substance
    themes: tuple[Theme, ...] = ()  # the day's top key changes, by topic (the summary's)
    baseline_per_day: float = 0.0  # items listed per archived baseline day
    explained: dict[int, Explanation] = field(default_factory=dict)  # what each item does

    def story(self, story_id: str) -> Story:
        return self._stories_by_id[story_id]

    def story_of(self, number: int) -> Story | None:
        return self._stories_by_number.get(number)

    @cached_property
    def _stories_by_id(self) -> dict[str, Story]:
        return {s.id: s for s in self.stories}

    @cached_property
    def _stories_by_number(self) -> dict[int, Story]:
        return {n: s for s in self.stories for n in s.numbers}


@dataclass(frozen=True)
class Prose:
    """Text a language model wrote from the computed report, after every sentence's claims
    were checked against the facts (a sentence with a contradicted claim is left out)."""

    model: str
    summary: dict[str, str]  # by language; empty when every sentence was dropped
    notes: dict[int, str]  # top stories by lead: what it does and why it matters
    dropped: int  # sentences removed by the check
    # Each item's parts by name (`what`: its description in Chinese; `why`: its quoted
    # reason in Chinese), each kept whole or not at all: the Chinese edition says them in
    # place of the English quotes they translate.
    parts: dict[int, dict[str, str]] = field(default_factory=dict)
    discussions: dict[int, str] = field(default_factory=dict)  # hot threads: the argument
    themes: tuple[str, ...] = ()  # the day's themes, each naming its items
    kept: int = 0  # sentences shown
    rejected: tuple[tuple[str, str], ...] = ()  # (sentence, why) of each dropped one
    calls: int = 0  # model requests made for this report
    cached: int = 0  # parts answered from the cache (no request)
    tokens: int = 0  # tokens sent to the model


@dataclass(frozen=True)
class Featured:
    """An item a published daily report featured (the store keeps them, bot.store.featured):
    its report day, where (`gist`, `key`, `notable`; `since`: told as landed), and its
    state as that day ended (a state word's key: review, draft, merged, closed_pr, open_issue,
    rfc_open, issue_completed …, or reverted)."""

    number: int
    day: str  # the report day's label, 2026-03-24
    place: str
    state: str
    day_end: datetime  # when that report day ended


@dataclass(frozen=True)
class Landed:
    """Work featured before whose fate was settled since the last report: merged, closed
    without merging (an issue: closed), or reverted."""

    number: int
    first_day: str  # the day it was first featured
    then: str  # its state then
    now: str  # merged, closed_pr, issue_completed …, reverted
    at: datetime  # when (the revert's merge for `reverted`)
    by: int | None = None  # the revert that took it back out


@dataclass(frozen=True)
class Continuity:
    """What the published reports before this one featured, as far as it concerns this one
    (bot.analyze.continuity): absent when none was published in the look-back."""

    last_day: str  # the latest published report day before this one
    last_end: datetime  # when that day ended: "since last time" starts there
    since: tuple[Landed, ...] = ()
    past: dict[int, Featured] = field(default_factory=dict)  # items shown: first featured
    old_news: tuple[int, ...] = ()  # featured before, state unchanged: not featured again
    review_days: dict[int, int] = field(default_factory=dict)  # long in review: day N
    items: dict[int, ActivityItem] = field(default_factory=dict)  # the landed, as archived


@dataclass(frozen=True)
class Report:
    """The facts of one window: five counts, their lists, and whether the data is whole."""

    repo: str
    window: Window
    complete: bool
    lists: dict[ListName, tuple[int, ...]]
    items: dict[int, ActivityItem]
    closures: dict[ListName, ClosureSplit]
    notes: tuple[str, ...] = field(default=())
    generated_at: datetime | None = None
    sections: Sections | None = None
    prose: Prose | None = None
    topic: str | None = None  # the report is limited to this topic's items
    context: dict[int, ActivityItem] = field(default_factory=dict)  # named, outside the window
    continuity: Continuity | None = None  # its past in the reports published before it
    # What features added (the radar's Plugins, Red on main, the review queue), in rank
    # order: each draws its own section, headline line, chat reply and JSON.
    parts: tuple[ReportPart, ...] = ()

    def part(self, name: str) -> ReportPart | None:
        """The part a feature added under `name`, if it added one."""
        return next((p for p in self.parts if p.name == name), None)

    def with_part(self, part: ReportPart | None, name: str = "") -> Report:
        """This report with `part` in place of any part of the same name (None, with the
        name: without it), the parts kept in rank order."""
        drop = part.name if part is not None else name
        kept = [p for p in self.parts if p.name != drop]
        kept += [part] if part is not None else []
        return replace(self, parts=tuple(sorted(kept, key=lambda p: p.rank)))

    def item(self, number: int) -> ActivityItem:
        """An item of the window or of its context."""
        found = self.items.get(number) or self.context.get(number)
        if found is None:
            raise KeyError(number)
        return found

    @property
    def stats(self) -> dict[ListName, int]:
        return {name: len(numbers) for name, numbers in self.lists.items()}
