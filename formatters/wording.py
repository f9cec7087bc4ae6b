"""Every word of the rendered report, in English and Chinese, in one place.

Analysis returns facts; this module turns them into words for every renderer: headings,
states, plurals, the counts line, story relations, the "why" of a key change, the summary
paragraph. Chinese follows the developer vocabulary of the reports we replace (已合并,
审阅中, 过期关闭 …) with full-width punctuation （），、：.
"""

from __future__ import annotations

from bot.model.report import ListName, Report, Sections, Why
from bot.model.windows import format_local
from formatters.explanations import kind_label

LANGS = ("en", "zh")

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "title": "vLLM daily report · {label}",
        "title_other": "{repo} daily report · {label}",
        "topic_suffix": " · {topic}",
        "window": "Window",
        "counts": "Counts",
        "incomplete": "⚠️ Incomplete data: some of this window could not be collected",
        "in_progress": "⏳ Window in progress: the counts so far (up to {at}), not the day's",
        "summary": "📊 Summary",
        "gist": "What happened",
        "vendor": "🎯 {name}",
        "vendors": "🎯 Vendors",
        "hot": "💬 Hot discussions",
        "trends": "🔥 Trends",
        "key": "🛠️ Key technical changes",
        "activity": "📈 Activity",
        "notable": "💡 Notable issues",
        "appendix": "📋 Appendix: every item",
        "notes": "Notes",
        "nothing": "Nothing this window.",
        "none": "none",
        "more_stories": "+{n} more: {refs}",
        "bucket_merged": "Merged PRs ({n})",
        "bucket_review": "PRs in review ({n})",
        "bucket_new": "New issues and draft PRs ({n})",
        "bucket_done": "Earlier issues closed ({n})",
        "bucket_closed": "PRs closed without merging ({n})",
        "told_above": "+{n} shown above in a story: {refs}",
        "vendor_line": "{name}: {counts}",
        "more_in_report": "+{n} more in the full report",
        "all_in_report": "listed in the full report",
        "more_by_command": "+{n} more: {command}",
        "all_by_command": "listed by {command}",
        "cut_notice": "…{n} more lines in the full report",
        "full_report": "Full report",
        "thread_hint": "🧵 Details in the thread",
        "chart_counts": "📈 The five counts over the last {days} report days "
        "(shaded: days not archived)",
        "chart_vendors": "📈 Items per vendor over the last {days} report days "
        "(shaded: days not archived)",
        "chart_merged": "📈 PRs merged and opened over the last {days} report days",
        "stale_folded": "+{n} swept: closed by the stale bot or as low-effort work: {refs}",
        "since": "⏮️ Since last time",
        "review_day": "in review, day {n}",
        "by": "by {author}",
        "unknown_author": "unknown",
        "trend_legend": "▲ well above, ▼ well below the mean of the {days} days before.",
        "trend_thin": "No arrows: the {days} archived days before hold {per_day} items a day, "
        "too few to compare with this day's {today}.",
        "trend_empty": "No arrows: the archive holds nothing of the {days} days before.",
        "trend_row": "{name}: {count} ({mean} a day before){arrow}",
        "trend_row_range": "{name}: {per_day} a day ({mean} a day before){arrow}",
        "trend_new": "{name}: {count}",
        "clusters": "Clusters",
        "cluster_row": ": {n} items — ",
        "authors": "{n} people opened or landed work",
        "first_timers": "First-time contributors: ",
        "vendor_people": "{vendor} contributors (by login or roster): ",
        "merged_count": "{n} merged",
        "bot_items": "{n} opened by bots",
        "reactions": "{n} reactions",
        "maintainers": "maintainers: ",
        "linked": "linked: ",
        "participants_more": " and {n} more",
        "footer": "Every figure above is computed from GitHub data by vllm-report-bot.",
        "prose_footer": "Text marked ✍️ was written by {model} from these facts, and each "
        "sentence checked against them: {kept} shown, {dropped} contradicted or unsupported "
        "and left out.",
        "themes": "Themes",
        "baseline_note": "Trends compare with {days} of the 7 days before "
        "(the rest is not archived).",
        "baseline_none": "No trends: none of the 7 days before is archived.",
        "unread_note": 'Comment figures marked "in all" are totals: those threads were not read.',
        # -- the hardware plugins (the breakage radar's part of the daily report) --
        "plugins": "🔌 Plugins",
        "plugins_broke": "Upstream changes that broke plugins",
        "plugins_broke_one": " — broke {plugins}",
        "plugins_line": "Plugins: upstream broke {plugins} ({refs})",
        "plugins_line_none": "Plugins: nothing upstream broke them",
        "plugins_line_late": "{plugins} pinned over {days} days behind main",
        "plugins_line_more": ", …",
        "plugins_fixed": "fixed in {plugin}: ",
        "plugins_lag": "Pins behind upstream by more than {days} days",
        "plugins_lag_line": "{plugin}: {commits} commits, {days} days behind main",
        "plugins_counts": "{links} plugin PRs and issues cite upstream vLLM ({fixes} fixing a "
        "break, {upgrades} moving to a newer vLLM).",
        "plugins_more": "Every link and pin: /vllm-radar {label} in chat, `vllm-report radar "
        "{label}` on the command line.",
        # -- the review queue --
        "queue": "🚦 Review queue",
        "queue_title": "vLLM review queue · {label}",
        "queue_title_other": "{repo} review queue · {label}",
        "queue_asof": "Lists as GitHub shows them at {now}; response times of {window}",
        "queue_repo": "Whole repository",
        "queue_waiting": "⏳ {n} waiting for review",
        "queue_over": "{n} over {days} days",
        "queue_waited": "waiting {age}",
        "queue_since_ready": "waiting {age} since marked ready",
        "queue_on_author": "✋ {n} waiting on their authors: {changes} changes requested · "
        "{rebase} need a rebase",
        "queue_ready": "✅ {n} ready to land (approved): ",
        "queue_ready_none": "✅ none ready to land (approved)",
        "queue_stale": "⏰ {n} closed by the stale workflow within {days} days unless touched: ",
        "queue_stale_none": "⏰ nothing closed by the stale workflow within {days} days",
        "queue_closes": " (closes {day})",
        "queue_due": " (due at its next run)",
        "queue_how": " ({how} ",
        "queue_how_end": ")",
        "queue_shares_before": "; {period}: ",
        "queue_more": " +{n} more",
        "metric_first_review": "First review of merged PRs",
        "metric_merge": "Time to merge",
        "metric_first_response": "First answer to new issues",
        "queue_metric": "⏱ {metric}: median {median} · P90 {p90} (n={n})",
        "queue_metric_none": "⏱ {metric}: none in this window",
        "queue_previous": "; {period}: median {median} · P90 {p90} (n={n})",
        "queue_previous_none": "; {period}: none",
        "queue_faster": ", {delta} faster",
        "queue_slower": ", {delta} slower",
        "queue_same": ", unchanged",
        "queue_period_weeks": "the {weeks} weeks before",
        "queue_period_days": "the {days} days before",
        "queue_unanswered": "unanswered after {hours} h: {percent} ({late} of {eligible})",
        "queue_unanswered_none": "unanswered after {hours} h: none old enough yet",
        "queue_unreviewed": "{n} merged without a review by a person",
        "queue_brief": "{name}: {waiting} waiting ({old} over {days} days) · {author} on authors"
        " · {ready} ready · {stale} stale soon",
        "queue_brief_times": " · first review {median} (n={n})",
        "queue_discussed": "{n} more reviewed but not decided yet",
        "queue_repo_line": "{waiting} with no review at all · {author} waiting on authors · "
        "{ready} ready to land · {stale} closed by the stale workflow within {days} days",
        "queue_first_timers": "👋 First-time contributors: ",
        "queue_first_merged": "first merged PR",
        "queue_first_opened": "first PR",
        "queue_not_measured": "Response times need a GitHub token; not measured.",
        "queue_nothing": "Nothing is waiting.",
        "minutes": "{n} min",
        "hours": "{n} h",
        "days": "{n} days",
    },
    "zh": {
        "title": "vLLM 开发动态日报 · {label}",
        "title_other": "{repo} 开发动态日报 · {label}",
        "topic_suffix": " · {topic}",
        "window": "时间窗口",
        "counts": "数据统计",
        "incomplete": "⚠️ 数据不完整：本窗口有部分数据未能获取",
        "in_progress": "⏳ 时间窗口尚未结束：以下为截至 {at} 的数字，并非全天。",
        "summary": "📊 每日开发状态摘要",
        "gist": "今日要点",
        "vendor": "🎯 {name}相关动态",
        "vendors": "🎯 厂商动态",
        "hot": "💬 高热度讨论",
        "trends": "🔥 热门话题与趋势",
        "key": "🛠️ 重点技术变更",
        "activity": "📈 开发活跃度",
        "notable": "💡 值得关注的问题",
        "appendix": "📋 附录：详细数据列表",
        "notes": "说明",
        "nothing": "本周期暂无。",
        "none": "无",
        "more_stories": "另有 {n} 项：{refs}",
        "bucket_merged": "已合并 PR（{n}）",
        "bucket_review": "审阅中 PR（{n}）",
        "bucket_new": "新 Issue 与草稿 PR（{n}）",
        "bucket_done": "关闭的旧 Issue（{n}）",
        "bucket_closed": "未合并关闭 PR（{n}）",
        "told_above": "另有 {n} 项见上方所属条目：{refs}",
        "vendor_line": "{name}：{counts}",
        "count_merged": "已合并 PR {n}",
        "count_review": "审阅中 PR {n}",
        "count_new": "新 Issue 与草稿 PR {n}",
        "count_done": "关闭旧 Issue {n}",
        "count_closed": "未合并关闭 PR {n}",
        "more_in_report": "另有 {n} 项，见完整报告",
        "all_in_report": "详见完整报告",
        "more_by_command": "另有 {n} 项：{command}",
        "all_by_command": "详见 {command}",
        "cut_notice": "……另有 {n} 行，见完整报告",
        "full_report": "完整报告",
        "thread_hint": "🧵 详情见讨论串",
        "chart_counts": "📈 近 {days} 个报告日的五项计数（阴影：未归档的日子）",
        "chart_vendors": "📈 近 {days} 个报告日各厂商的条目数（阴影：未归档的日子）",
        "chart_merged": "📈 近 {days} 个报告日合并与新建的 PR",
        "stale_folded": "另有 {n} 项被批量清理（过期或低质量）：{refs}",
        "since": "⏮️ 上次以来",
        "review_day": "审阅中，第 {n} 天",
        "by": "作者 {author}",
        "unknown_author": "未知",
        "trend_legend": "▲ 明显高于、▼ 明显低于此前 {days} 天的均值。",
        "trend_thin": "不标趋势：此前已归档的 {days} 天日均仅 {per_day} 项，"
        "不足以与本日的 {today} 项比较。",
        "trend_empty": "不标趋势：此前 {days} 天没有存档数据。",
        "trend_row": "{name}：{count} 项（此前日均 {mean}）{arrow}",
        "trend_row_range": "{name}：日均 {per_day} 项（此前日均 {mean}）{arrow}",
        "trend_new": "{name}：{count} 项",
        "clusters": "热点聚类",
        "cluster_row": "：{n} 项 — ",
        "authors": "共 {n} 人参与（新建或合并）",
        "first_timers": "首次贡献者：",
        "vendor_people": "{vendor}贡献者（按账号或名单）：",
        "merged_count": "合并 {n} 个 PR",
        "bot_items": "机器人创建 {n} 项",
        "reactions": "{n} 个表情回应",
        "maintainers": "维护者：",
        "linked": "关联：",
        "participants_more": " 等 {n} 人",
        "footer": "以上所有数字均由 vllm-report-bot 根据 GitHub 数据计算。",
        "prose_footer": "标有 ✍️ 的文字由 {model} 根据这些事实撰写，每句都经过核对："
        "采用 {kept} 句，{dropped} 句与事实不符或无据可查，未予采用。",
        "themes": "主题",
        "baseline_note": "趋势对比的是此前 7 天中已归档的 {days} 天。",
        "baseline_none": "无趋势：此前 7 天均未归档。",
        "unread_note": "标为“共”的评论数为总数：这些讨论未读取详情。",
        # -- the hardware plugins --
        "plugins": "🔌 硬件插件",
        "plugins_broke": "导致插件出错的上游改动",
        "plugins_broke_one": " — 导致 {plugins} 出错",
        "plugins_line": "插件：上游改动导致 {plugins} 出错（{refs}）",
        "plugins_line_none": "插件：没有上游改动导致出错",
        "plugins_line_late": "{plugins} 锁定的 vLLM 落后 main 超过 {days} 天",
        "plugins_line_more": " 等",
        "plugins_fixed": "{plugin} 的修复：",
        "plugins_lag": "vLLM 锁定提交落后 main 超过 {days} 天",
        "plugins_lag_line": "{plugin}：落后 {commits} 个提交、{days} 天",
        "plugins_counts": "{links} 个插件 PR 与 issue 引用上游 vLLM（{fixes} 个修复，"
        "{upgrades} 个升级）。",
        "plugins_more": "查看全部记录与锁定提交：在聊天中用 /vllm-radar {label}，"
        "命令行用 `vllm-report radar {label}`。",
        # -- the review queue --
        "queue": "🚦 审阅队列",
        "queue_title": "vLLM 审阅队列 · {label}",
        "queue_title_other": "{repo} 审阅队列 · {label}",
        "queue_asof": "列表为 GitHub 在 {now} 的状态；响应时间统计 {window}",
        "queue_repo": "整个仓库",
        "queue_waiting": "⏳ {n} 个 PR 等待审阅",
        "queue_over": "超过 {days} 天 {n} 个",
        "queue_waited": "已等待 {age}",
        "queue_since_ready": "标记为可审阅后已等待 {age}",
        "queue_on_author": "✋ {n} 个等待作者处理：要求修改 {changes} 个 · 需要 rebase {rebase} 个",
        "queue_ready": "✅ {n} 个已批准、可合并：",
        "queue_ready_none": "✅ 暂无已批准、可合并的 PR",
        "queue_stale": "⏰ {n} 项将在 {days} 天内被过期流程关闭（除非有新动态）：",
        "queue_stale_none": "⏰ {days} 天内没有将被过期流程关闭的项",
        "queue_closes": "（{day} 关闭）",
        "queue_due": "（下次运行即关闭）",
        "queue_how": "（{how} ",
        "queue_how_end": "）",
        "queue_shares_before": "；{period}：",
        "queue_more": " 等另 {n} 项",
        "metric_first_review": "已合并 PR 的首次审阅",
        "metric_merge": "合并用时",
        "metric_first_response": "新 Issue 的首次回复",
        "queue_metric": "⏱ {metric}：中位数 {median} · P90 {p90}（n={n}）",
        "queue_metric_none": "⏱ {metric}：本窗口暂无",
        "queue_previous": "；{period}：中位数 {median} · P90 {p90}（n={n}）",
        "queue_previous_none": "；{period}：无",
        "queue_faster": "，快 {delta}",
        "queue_slower": "，慢 {delta}",
        "queue_same": "，持平",
        "queue_period_weeks": "此前 {weeks} 周",
        "queue_period_days": "此前 {days} 天",
        "queue_unanswered": "{hours} 小时后仍无回复：{percent}（{eligible} 个中 {late} 个）",
        "queue_unanswered_none": "{hours} 小时后仍无回复：暂无足够早的 Issue",
        "queue_unreviewed": "{n} 个未经人工审阅即合并",
        "queue_brief": "{name}：等待审阅 {waiting}（超过 {days} 天 {old}）· 等待作者 {author}"
        " · 可合并 {ready} · 即将过期 {stale}",
        "queue_brief_times": " · 首次审阅 {median}（n={n}）",
        "queue_discussed": "另有 {n} 个已有审阅、尚未决定",
        "queue_repo_line": "无任何审阅 {waiting} · 等待作者 {author} · 可合并 {ready} · "
        "{days} 天内将被过期关闭 {stale}",
        "queue_first_timers": "👋 首次贡献者：",
        "queue_first_merged": "首个合并的 PR",
        "queue_first_opened": "首个 PR",
        "queue_not_measured": "响应时间需要 GitHub token，未统计。",
        "queue_nothing": "没有等待中的 PR。",
        "minutes": "{n} 分钟",
        "hours": "{n} 小时",
        "days": "{n} 天",
    },
}

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
    },
    "zh": {
        "merged": "已合并",
        "review": "审阅中",
        "draft": "草稿",
        "open_issue": "待处理",
        "closed_pr": "未合并关闭",
        "closed_issue": "已关闭",
        "issue_completed": "已解决关闭",
        "issue_not_planned": "不予处理关闭",
        "issue_duplicate": "重复关闭",
        "stale": "过期关闭",
        "rfc": "RFC",
        "rfc_open": "RFC 讨论中",
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
    },
    "zh": {
        "fixes_lead": ("已由其修复", "已提出修复"),
        "fixed_by_lead": ("修复", "修复"),
        "backport": ("回移", "回移"),
        "backported": ("回移自", "回移自"),
        "revert": ("已被回退", "已提出回退"),
        "reverted": ("回退", "回退"),
        "reland": ("已重新合入", "已提出重新合入"),
        "relanded": ("重新合入", "重新合入"),
        "replacement": ("被替代", "已提出替代"),
        "replaced": ("替代", "替代"),
        "follow_up": ("后续", "后续"),
        "followed": ("基于", "基于"),
        "duplicate": ("重复", "重复"),
        "similar": ("标题相关", "标题相关"),
        "series": ("同系列", "同系列"),
        "attempt": ("同作者同标题", "同作者同标题"),
        "related": ("相关", "相关"),
        "delivers": ("对应需求", "对应需求"),
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


_PENDING = frozenset({"fixes_lead", "revert", "reland", "replacement"})

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
        "OOM": "显存不足",
    },
}
WHY_TAGS = {
    "zh": {
        "performance": "性能",
        "quantization": "量化",
        "new model": "新模型",
        "model": "模型",
        "feature": "新功能",
        "RFC": "RFC",
        "release": "发布",
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
_COUNT_WORDS_EN = {
    "merged": ("merged PR", "merged PRs"),
    "review": ("PR in review", "PRs in review"),
    "new": ("new issue or draft PR", "new issues and draft PRs"),
    "done": ("earlier issue closed", "earlier issues closed"),
    "closed": ("PR closed unmerged", "PRs closed unmerged"),
}


def count_word(lang: str, bucket: str, n: int) -> str:
    """A bucket's figure in a topic's one-line summary: `3 merged PRs`, `1 PR in review`."""
    if lang == "en":
        return plural(n, *_COUNT_WORDS_EN[bucket])
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
        parts += [f"作为低质量批量关闭 {split.low_effort} 个"] if split.low_effort else []
        parts += [f"过期关闭 {split.stale} 个"] if split.stale else []
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
        return f"窗口内 {in_window} 条评论 · 共 {total} 条"
    if in_window is None:
        return plural(total, "comment", "comments") + " in all"
    return f"{plural(in_window, 'comment', 'comments')} in the window · {total} in all"


def people_figure(lang: str, people: int, author_replied: bool) -> str:
    if lang == "zh":
        return f"{people} 人参与" + ("，作者有回复" if author_replied else "")
    said = plural(people, "person", "people")
    return said + (" and the author" if author_replied else "")


def why_words(why: Why, lang: str) -> list[str]:
    """The facts behind a key change: `+812 −40 in 14 files`, figures, reviewers, talk."""
    words = _size_words(why, lang) + _claim_words(why, lang)
    if why.reviewers and why.reviewers >= 2:  # one approval is every merge; more is a signal
        words.append(
            f"{why.reviewers} 位审阅者"
            if lang == "zh"
            else plural(why.reviewers, "reviewer", "reviewers")
        )
    if why.comments_in_window:
        words.append(
            f"窗口内 {why.comments_in_window} 条评论"
            if lang == "zh"
            else plural(why.comments_in_window, "comment", "comments") + " in the window"
        )
    if why.reactions >= 3:
        words.append(text(lang, "reactions", n=why.reactions))
    tags = [WHY_TAGS.get(lang, {}).get(t, t) for t in why.tags]
    if tags:
        words.append(LIST_SEP[lang].join(tags))
    return words


def _size_words(why: Why, lang: str) -> list[str]:
    if why.additions is None or why.deletions is None:
        return []
    size = f"+{why.additions} −{why.deletions}"
    if why.files is not None:
        size += (
            f" 共 {why.files} 个文件"
            if lang == "zh"
            else f" in {plural(why.files, 'file', 'files')}"
        )
    return [size]


def _claim_words(why: Why, lang: str) -> list[str]:
    """Benchmark claims quoted, results shown, the paper implemented."""
    words = [("基准：" if lang == "zh" else "benchmark ") + figure for figure in why.figures]
    for shown in why.evidence:
        if shown == "results" and not why.figures:
            words.append("附性能数据" if lang == "zh" else "results in the description")
        elif shown.startswith("arXiv"):
            words.append(("依据论文 " if lang == "zh" else "implements ") + shown)
    return words


# -- the summary paragraph ------------------------------------------------------------------

Piece = str | int  # our words, or an item number the renderer links


def summary(report: Report, lang: str) -> str:
    """The summary paragraph of a full report as plain text ('' for counts only)."""
    return "".join(f"#{p}" if isinstance(p, int) else p for p in summary_pieces(report, lang))


def summary_pieces(report: Report, lang: str) -> list[Piece]:
    """The summary paragraph, its item numbers apart: what the day was about (its two or
    three weightiest themes, by their leads), then the counts once, each closure count with
    its own stale-bot share."""
    if report.sections is None:
        return []
    sections = report.sections
    pieces = _themes(sections, lang)
    pieces.append(_chinese_counts(report) if lang == "zh" else _english_counts(report))
    people = sections.activity.distinct_authors
    if people:
        first = len(sections.activity.first_time_contributors)
        if lang == "zh":
            said = f"共 {people} 人参与（新建或合并）"
            pieces.append(said + (f"，其中 {first} 人首次贡献。" if first else "。"))
        else:
            said = f" {plural(people, 'person', 'people')} opened or landed work"
            pieces.append(said + (f", {first} of them for the first time." if first else "."))
    return pieces


def _themes(sections: Sections, lang: str) -> list[Piece]:
    """`The day's weightiest work: Speculative decoding (#38174), AMD / ROCm (#38086, #36574). `"""
    if not sections.themes:
        return []
    pieces: list[Piece] = [
        "本周期最值得关注的工作：" if lang == "zh" else "The day's weightiest work: "
    ]
    for index, theme in enumerate(sections.themes):
        if index:
            pieces.append(LIST_SEP[lang])
        pieces.append(sections.catalog.topic_name(theme.topic, lang))
        pieces.append("（" if lang == "zh" else " (")
        for position, number in enumerate(theme.numbers):
            if position:
                pieces.append(LIST_SEP[lang])
            pieces.append(number)
            label = kind_label(sections.explained.get(number), lang)
            pieces += [" " + label] if label else []
        pieces.append("）" if lang == "zh" else ")")
    pieces.append("。" if lang == "zh" else ". ")
    return pieces


def _stale(report: Report, name: ListName) -> int:
    split = report.closures.get(name)
    return split.stale if split is not None else 0


def _swept(report: Report, name: ListName, lang: str) -> str:
    """` (52 as low-effort in bulk, 1 by the stale bot)`: a closure count's sweeps, or ''."""
    split = report.closures.get(name)
    if split is None:
        return ""
    if lang == "zh":
        parts = [f"作为低质量批量关闭 {split.low_effort} 个"] if split.low_effort else []
        parts += [f"过期关闭 {split.stale} 个"] if split.stale else []
        return f"（其中{'、'.join(parts)}）" if parts else ""
    parts = [f"{split.low_effort} as low-effort in bulk"] if split.low_effort else []
    parts += [f"{split.stale} by the stale bot"] if split.stale else []
    return f" ({', '.join(parts)})" if parts else ""


def _english_counts(report: Report) -> str:
    stats = report.stats
    issues, prs = stats[ListName.NEW_ISSUES], stats[ListName.NEW_PRS]
    merged, closed = stats[ListName.MERGED_PRS], stats[ListName.CLOSED_ISSUES]
    unmerged = stats[ListName.CLOSED_UNMERGED_PRS]
    text_ = (
        f"{plural(issues, 'issue', 'issues')} and {plural(prs, 'PR', 'PRs')} were opened; "
        f"{plural(merged, 'PR was', 'PRs were')} merged; "
        f"{plural(closed, 'issue', 'issues')} closed"
    )
    text_ += _swept(report, ListName.CLOSED_ISSUES, "en")
    text_ += f" and {plural(unmerged, 'PR', 'PRs')} closed without merging"
    return text_ + _swept(report, ListName.CLOSED_UNMERGED_PRS, "en") + "."


def _chinese_counts(report: Report) -> str:
    stats = report.stats
    text_ = (
        f"新增 Issue {stats[ListName.NEW_ISSUES]} 个、PR {stats[ListName.NEW_PRS]} 个；"
        f"合并 PR {stats[ListName.MERGED_PRS]} 个；关闭 Issue {stats[ListName.CLOSED_ISSUES]} 个"
    )
    text_ += _swept(report, ListName.CLOSED_ISSUES, "zh")
    text_ += f"，未合并关闭 PR {stats[ListName.CLOSED_UNMERGED_PRS]} 个"
    return text_ + _swept(report, ListName.CLOSED_UNMERGED_PRS, "zh") + "。"
