"""Every phrase of a personal digest (`vllm-report digest`, `/vllm-me`, the daily personal
messages) by key, in English and Chinese side by side: the words bot.features.personal.render
fills in. `said(lang, key, **values)` fills one in; the words it shares with the daily
report (an item's state, separators) are formatters.wording's."""

from __future__ import annotations

PERSONAL_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "title": "vLLM digest for you · {label}",
        "title_other": "{repo} digest for you · {label}",
        "what_mine": "your work as @{login}",
        "what_label": "label {value}",
        "what_author": "opened by {value}",
        "what_path": "changes to {value}",
        "count": "{n} items",
        "nothing": "Nothing in this window matches: {what}.",
        "reason_review_requested": "👀 Your review is requested ({n})",
        "reason_commented": "💬 New comments on your issues ({n})",
        "reason_yours": "🧑‍💻 Yours ({n})",
        "reason_mentioned": "📣 Mentions you ({n})",
        "reason_label": "Matching items ({n})",
        "reason_author": "Matching items ({n})",
        "reason_path": "Matching items ({n})",
        "decision_approved": "approved",
        "decision_changes_requested": "changes requested",
        "decision_review_required": "review required",
        "path_matched": "changes {path}",
        "commented_by": "new comment by {who}",
        "group": "{what} ({n})",
        "subscriptions": "{n} subscriptions",
        "also": "Also selected, listed above: ",
        "also_more": " and {n} more",
        "missing_one": "{days} was not collected: its items are missing",
        "missing": "{days} were not collected: their items are missing",
        "and": " and ",  # before the last of the days not collected
    },
    "zh": {
        "title": "你的 vLLM 摘要 · {label}",
        "title_other": "你的 {repo} 摘要 · {label}",
        "what_mine": "你（@{login}）的工作",
        "what_label": "标签 {value}",
        "what_author": "{value} 创建的条目",
        "what_path": "涉及 {value} 的改动",
        "count": "{n} 项",
        "nothing": "本周期内没有符合条件的条目：{what}。",
        "reason_review_requested": "👀 待你审阅（{n}）",
        "reason_commented": "💬 你的 Issue 有新评论（{n}）",
        "reason_yours": "🧑‍💻 你的条目（{n}）",
        "reason_mentioned": "📣 提到你（{n}）",
        "reason_label": "匹配的条目（{n}）",
        "reason_author": "匹配的条目（{n}）",
        "reason_path": "匹配的条目（{n}）",
        "decision_approved": "已批准",
        "decision_changes_requested": "需修改",
        "decision_review_required": "待审阅",
        "path_matched": "改动 {path}",
        "commented_by": "{who} 发表了新评论",
        "group": "{what}（{n}）",
        "subscriptions": "{n} 个订阅",
        "also": "另有上文已列出的：",
        "also_more": " 等另 {n} 项",
        "missing_one": "{days} 未收集：当天的条目缺失",
        "missing": "{days} 未收集：这几天的条目缺失",
        "and": "、",
    },
}


def said(lang: str, key: str, **values: object) -> str:
    return PERSONAL_TEXT[lang][key].format(**values)
