"""The words of the rendered report, in English and Chinese: facts turned into phrases.

Analysis returns facts; this module turns them into words for every renderer: headings,
states, plurals, the counts line, story relations, the "why" of a key change. The phrases
by key are formatters.phrases; the summary paragraph is formatters.summary_text. Chinese
follows the developer vocabulary of the reports we replace (已合并, 审阅中, stale …) with
full-width punctuation （），、：.
"""

from __future__ import annotations

from bot.model.report import ListName, Report
from bot.model.windows import format_local
from formatters.phrases import TEXT

LANGS = ("en", "zh")

COUNT_NAMES: dict[str, dict[ListName, str]] = {
    "en": {
        ListName.NEW_ISSUES: "New issues",
        ListName.CLOSED_ISSUES: "Closed issues",
        ListName.NEW_PRS: "New PRs",
        ListName.MERGED_PRS: "Merged PRs",
        ListName.CLOSED_UNMERGED_PRS: "Closed without merging",
    },
    "zh": {
        ListName.NEW_ISSUES: "新 Issue",
        ListName.CLOSED_ISSUES: "关闭 Issue",
        ListName.NEW_PRS: "新 PR",
        ListName.MERGED_PRS: "合并 PR",
        ListName.CLOSED_UNMERGED_PRS: "关闭未合并 PR",
    },
}
APPENDIX_HEADINGS: dict[str, dict[ListName, str]] = {
    "en": {
        ListName.NEW_ISSUES: "New issues",
        ListName.CLOSED_ISSUES: "Closed issues",
        ListName.NEW_PRS: "New PRs",
        ListName.MERGED_PRS: "Merged PRs",
        ListName.CLOSED_UNMERGED_PRS: "PRs closed without merging",
    },
    "zh": {
        ListName.NEW_ISSUES: "新增 Issue",
        ListName.CLOSED_ISSUES: "已关闭 Issue",
        ListName.NEW_PRS: "新增 PR",
        ListName.MERGED_PRS: "已合并 PR",
        ListName.CLOSED_UNMERGED_PRS: "关闭但未合并的 PR",
    },
}
EVENT_WORDS = {
    "en": {"created": "opened", "closed": "closed", "merged": "merged"},
    "zh": {"created": "创建于", "closed": "关闭于", "merged": "合并于"},
}
# An item's state as a reader says it.
STATES = {
    "en": {
        "merged": "merged",
        "review": "in review",
        "draft": "draft",
        "open_issue": "open",
        "closed_pr": "closed without merging",
        "closed_issue": "closed",
        "issue_completed": "closed as completed",
        "issue_not_planned": "closed as not planned",
        "issue_duplicate": "closed as duplicate",
        "stale": "closed as stale",
        "rfc": "RFC",
        "rfc_open": "RFC, open",
        "approved": "approved",  # a review's, said of a PR still open (since last time)
        "changes_requested": "changes requested",
    },
    "zh": {
        "merged": "已合并",
        "review": "审阅中",
        "draft": "草稿",
        "open_issue": "待处理",
        "closed_pr": "未合并关闭",
        "closed_issue": "已关闭",
        "issue_completed": "已解决",
        "issue_not_planned": "不予处理",
        "issue_duplicate": "因重复关闭",
        "stale": "被 stale 机器人关闭",
        "rfc": "RFC",
        "rfc_open": "RFC 讨论中",
        "approved": "已获批准",
        "changes_requested": "被要求修改",
    },
}
# How a story's member relates to its lead (bot.analyze.stories), said of the member; a
# second form for a member not merged yet ("revert proposed", not "reverted by").
RELATIONS = {
    "en": {
        "fixes_lead": ("fixed by", "fix proposed in"),
        "fixed_by_lead": ("fixes", "fixes"),
        "backport": ("backport", "backport"),
        "backported": ("backport of", "backport of"),
        "revert": ("reverted by", "revert proposed in"),
        "reverted": ("reverts", "reverts"),
        "reland": ("re-landed in", "re-land proposed in"),
        "relanded": ("re-lands", "re-lands"),
        "replacement": ("replaced by", "replacement proposed in"),
        "replaced": ("replaces", "replaces"),
        "follow_up": ("follow-up", "follow-up"),
        "followed": ("builds on", "builds on"),
        "duplicate": ("duplicate", "duplicate"),
        "similar": ("related by title", "related by title"),
        "series": ("same series", "same series"),
        "attempt": ("same title and author", "same title and author"),
        "related": ("related", "related"),
        "delivers": ("delivers", "delivers"),
        "reported_after": ("reported after it", "reported after it"),
        "changed_before": ("after the change in", "after the change in"),
        "fixes_test": ("test fix in", "test fix proposed in"),
        "test_failure": ("for the CI failure", "for the CI failure"),
    },
    "zh": {
        "fixes_lead": ("已由以下 PR 修复", "已提出修复"),
        "fixed_by_lead": ("修复", "修复"),
        "backport": ("backport", "backport"),
        "backported": ("backport 自", "backport 自"),
        "revert": ("已被回退", "已提出回退"),
        "reverted": ("回退", "回退"),
        "reland": ("已重新合入", "已提出重新合入"),
        "relanded": ("重新合入", "重新合入"),
        "replacement": ("已被替代", "已提出替代"),
        "replaced": ("替代", "替代"),
        "follow_up": ("后续", "后续"),
        "followed": ("基于", "基于"),
        "duplicate": ("重复", "重复"),
        "similar": ("标题相似", "标题相似"),
        "series": ("同系列", "同系列"),
        "attempt": ("同作者同标题", "同作者同标题"),
        "related": ("相关", "相关"),
        "delivers": ("已实现需求", "已实现需求"),
        "reported_after": ("合并后报告的问题", "合并后报告的问题"),
        "changed_before": ("发生在以下改动合并之后", "发生在以下改动合并之后"),
        "fixes_test": ("测试修复", "已提出测试修复"),
        "test_failure": ("对应 CI 失败", "对应 CI 失败"),
    },
}


def _short_day(label: str) -> str:
    """`2026-03-24` as `03-24`: the year is the report's own."""
    return label[5:] if len(label) == 10 else label


def first_featured(lang: str, day: str, state: str) -> str:
    """`first featured 03-24, in review` / `03-24 首次报道（审阅中）`."""
    said = STATES[lang].get(state, state)
    if lang == "zh":
        return f"{_short_day(day)} 首次报道（{said}）"
    return f"first featured {_short_day(day)}, {said}"


def landed(lang: str, day: str, then: str, now: str, on: str | None) -> tuple[str, str]:
    """The words around a revert's number for a since-last-time line: `featured 03-24 in
    review → merged today`, `featured 03-24 merged → reverted today by ` … (`on`: the day it
    happened, when not the report's own)."""
    was = STATES[lang].get(then, then)
    if lang == "zh":
        when = "今日" if on is None else f"{on} "
        start = f"{_short_day(day)} 报道时{was} → {when}"
        if now == "reverted":
            return start + "被 ", " 回退"
        return start + STATES[lang].get(now, now), ""
    when = "today" if on is None else on
    word = "reverted" if now == "reverted" else STATES[lang].get(now, now)
    start = f"featured {_short_day(day)} {was} → {word} {when}"
    return (start + " by ", "") if now == "reverted" else (start, "")


def relation_word(lang: str, relation: str, member_merged: bool, member_done: bool = False) -> str:
    """`follow-up `, `revert proposed in `; zh `后续：`. A request the lead fixes that closed as
    completed was delivered (`delivers `), not merely named."""
    if relation == "fixed_by_lead" and member_done:
        relation = "delivers"
    landed, pending = RELATIONS[lang][relation]
    word = landed if member_merged or relation not in _PENDING else pending
    return word + ("：" if lang == "zh" else " ")


_PENDING = frozenset({"fixes_lead", "revert", "reland", "replacement", "fixes_test"})

SIGNALS = {
    "en": {
        "security": "security",
        "crash": "crash",
        "hang": "hang",
        "regression": "regression",
        "wrong output": "wrong output",
        "OOM": "out of memory",
    },
    "zh": {
        "security": "安全",
        "crash": "崩溃",
        "hang": "卡死",
        "regression": "回归",
        "wrong output": "输出错误",
        "OOM": "OOM",
    },
}
ARROWS = {"up": " ▲", "down": " ▼", "flat": "", "new": "", "thin": ""}
SEP = {"en": " · ", "zh": " · "}
LIST_SEP = {"en": ", ", "zh": "、"}


def text(lang: str, key: str, **values: object) -> str:
    return TEXT[lang][key].format(**values)


def duration(lang: str, hours: float) -> str:
    """A span of time as people say it: minutes under an hour, hours under two days."""
    if hours < 1:
        return text(lang, "minutes", n=round(hours * 60))
    if hours < 48:
        return text(lang, "hours", n=f"{hours:.1f}".removesuffix(".0"))
    return text(lang, "days", n=f"{hours / 24:.1f}".removesuffix(".0"))


# A bucket's figure in English, singular and plural: each says what it counts.
BUCKET_WORDS_EN = {
    "merged": ("merged PR", "merged PRs"),
    "review": ("PR in review", "PRs in review"),
    "new": ("new issue or draft PR", "new issues and draft PRs"),
    "done": ("earlier issue closed", "earlier issues closed"),
    "closed": ("PR closed unmerged", "PRs closed unmerged"),
}


def count_word(lang: str, bucket: str, n: int) -> str:
    """A bucket's figure in a topic's one-line summary: `3 merged PRs`, `1 PR in review`."""
    if lang == "en":
        return plural(n, *BUCKET_WORDS_EN[bucket])
    return text(lang, f"count_{bucket}", n=n)


def plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def parens(lang: str, inner: str) -> str:
    return f"（{inner}）" if lang == "zh" else f" ({inner})"


def window_text(report: Report, lang: str) -> str:
    """`2026-03-25 11:43 ~ 2026-03-26 11:43 (UTC+8)`: both ends, the zone once."""
    start, end = format_local(report.window.start), format_local(report.window.end)
    start_day, _, zone = start.rpartition(" ")
    end_day, _, end_zone = end.rpartition(" ")
    if zone != end_zone:  # a DST change inside the window: each end says its own
        return f"{start} ~ {end}"
    return f"{start_day} ~ {end_day}" + parens(lang, zone.strip("()"))


def count_value(report: Report, name: ListName, lang: str) -> str:
    """A count, with how its closures split when the stale bot (or a bulk closing of
    low-effort PRs) closed some: a sweep of 52 is not 52 decisions."""
    value = str(report.stats[name])
    split = report.closures.get(name)
    if split is None or not (split.stale or split.low_effort):
        return value
    if lang == "zh":
        people = "作者或维护者关闭" if name is ListName.CLOSED_UNMERGED_PRS else "人工关闭"
        parts = [f"{people} {split.resolved} 个"]
        parts += [f"因低质量被批量关闭 {split.low_effort} 个"] if split.low_effort else []
        parts += [f"stale 机器人自动关闭 {split.stale} 个"] if split.stale else []
        return f"{value}（{'，'.join(parts)}）"
    people = "by authors or maintainers" if name is ListName.CLOSED_UNMERGED_PRS else "by people"
    parts = [f"{split.resolved} {people}"]
    parts += [f"{split.low_effort} closed as low-effort in bulk"] if split.low_effort else []
    parts += [f"{split.stale} by the stale bot"] if split.stale else []
    return f"{value} ({', '.join(parts)})"


def comments_figure(lang: str, in_window: int | None, total: int) -> str:
    """One comment figure for an item everywhere: "5 in the window · 10 in all"."""
    if lang == "zh":
        if in_window is None:
            return f"共 {total} 条评论"
        return f"本周期 {in_window} 条评论 · 累计 {total} 条"
    if in_window is None:
        return plural(total, "comment", "comments") + " in all"
    return f"{plural(in_window, 'comment', 'comments')} in the window · {total} in all"


def people_figure(lang: str, people: int, author_replied: bool) -> str:
    if lang == "zh":
        return f"{people} 人参与" + ("，作者有回复" if author_replied else "")
    said = plural(people, "person", "people")
    return said + (" and the author" if author_replied else "")
