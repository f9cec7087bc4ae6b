"""Every phrase of the standalone breakage radar (`vllm-report radar`, `/vllm-radar`) by key,
in English and Chinese side by side (the daily report's Plugins section has its own in
formatters.phrases). `said(lang, key, **values)` fills one in."""

from __future__ import annotations

import re

RADAR_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "title": "Breakage radar · {label}",
        "watched": "Plugins watched: {plugins}.",
        "counts": "{links} plugin PRs and issues name upstream: {fixes} breakage fixes, "
        "{upgrades} upgrades, {mentions} mentions; {culprits} upstream changes broke plugins",
        "incomplete": "Incomplete: ",
        "cut": "some windows were cut",
        "culprits": "Upstream changes that broke plugins",
        "none_named": "No upstream change was confirmed as breaking a plugin in this window.",
        "none_broke": "No upstream change was named as breaking a plugin in this window.",
        "corrections": "Corrections",
        "pins": "Pins of upstream",
        "pins_short": "Pins",
        "pins_table": "| plugin | pinned vLLM | lag |",
        "upgrades": "Upgrades",
        "adapted": "adapted to {refs}",
        "nothing_confirmed": "nothing GitHub confirmed",
        "every": "Every plugin item that names upstream",
        "read_from": "_Read from the plugins' own titles and descriptions by vllm-report-bot._",
        "broke": "broke {fixes}",
        "by": "by @{login}",
        "merged": "merged {day}",
        "reverted_by": "reverted by vllm#{number} on {day}",
        "not_reverted": "not reverted as of {day}",
        "revert_unknown": "revert not known",
        "reverts_once": "Reverts: not known for these culprits (the archive does not hold "
        "vLLM's PRs since they merged; the daily report collects them)",
        # What the share measures: not corrected by readers, never a checked precision.
        "precision": "Not corrected {precision}: of {shown} culprit attributions shown, "
        "{corrected} corrected by readers (`/vllm-radar wrong <plugin PR> <upstream PR>`); "
        "{confirmed} confirmed (upstream reverted the change), {unconfirmed} unconfirmed "
        "(the plugin's word, checked only as a vLLM PR merged before the fix)",
        "correction": "{plugin}#{number}: not vllm#{upstream} (said by {by} on {day})",
        "pins_once": "Pins: {reason}.",
        "lag_unknown": "unknown: {reason}",
        "lag": "{commits} commits behind main{days}",
        "lag_days": ", {days} days",
        "growing": "; growing: unchanged for {days} days",
        # Open breakage: a plugin PR or issue still open at the window's end.
        "open": "Open breakage",
        "open_line": "{why}, open {days} days",
        "open_broken": "says upstream broke it",
        "open_broken_refs": "names {refs} as the cause",
        "open_revert": "takes back its vLLM upgrade",
        "open_bump": "vLLM upgrade not merged",
        "more": "…and {n} more upstream changes.{where}",
        "shows_all": " (`vllm-report radar` shows all)",
        "and": " and ",
        "list_sep": ", ",
        "fixes_of": "{plugin} ({fixes})",
        "fact_sep": ", ",
        "facts": " ({facts})",
        # What a plugin item is to upstream, and a fix's state (merged says nothing).
        "rel_breakage-fix": "breakage-fix",
        "rel_upgrade": "upgrade",
        "rel_mention-only": "mention-only",
        "state_open": "open",
        "state_closed": "closed",
        # Said after a named upstream change that is not a confirmed cause.
        "why_issue": "an issue",
        "why_missing": "not on GitHub",
        "why_unmerged": "not merged",
        "why_after-fix": "merged after the fix",
        "why_long-before": "merged over {days} days before the fix was opened",
        "why_no-pr": "no PR merged it",
        "why_unverified": "not checked",
        "why_corrected": "corrected: not the cause",
        "why_upstream-fix": "fixed upstream",
        "why_pending": "pending upstream",
        "why_ported": "ported",
        "why_related": "related",
    },
    "zh": {
        "title": "插件故障雷达 · {label}",
        "watched": "关注的插件：{plugins}。",
        "counts": "插件的 PR 与 Issue 中有 {links} 个提到上游：修复故障 {fixes} 个、适配升级 "
        "{upgrades} 个、仅提及 {mentions} 个；{culprits} 个上游改动导致插件故障",
        "incomplete": "数据不完整：",
        "cut": "部分时间段未能读取",
        "culprits": "导致插件故障的上游改动",
        "none_named": "本时间段没有经 GitHub 确认导致插件故障的上游改动。",
        "none_broke": "本时间段没有上游改动被点名导致插件故障。",
        "corrections": "更正",
        "pins": "插件锁定的上游版本",
        "pins_short": "锁定版本",
        "pins_table": "| 插件 | 锁定的 vLLM | 落后 |",
        "upgrades": "升级适配",
        "adapted": "适配：{refs}",
        "nothing_confirmed": "GitHub 未确认具体改动",
        "every": "所有提到上游的插件条目",
        "read_from": "_由 vllm-report-bot 读取各插件自己的标题与描述整理。_",
        "broke": "导致 {fixes}出错",
        "by": "作者 @{login}",
        "merged": "{day} 合并",
        "reverted_by": "已于 {day} 被 vllm#{number} 回退",
        "not_reverted": "截至 {day} 未被回退",
        "revert_unknown": "是否回退未知",
        "reverts_once": "回退情况：这些上游改动是否已被回退未知（存档中没有它们合并之后的 vLLM "
        "PR；日报会收集）",
        "precision": "未被更正 {precision}：显示的 {shown} 个归因中读者更正了 {corrected} 个"
        "（`/vllm-radar wrong <插件 PR> <上游 PR>`）；{confirmed} 个已确认（上游已回退该改动），"
        "{unconfirmed} 个未确认（仅凭插件自述，GitHub 只核实了它是修复前合并的 vLLM PR）",
        "correction": "{plugin}#{number}：并非由 vllm#{upstream} 导致（{by} 于 {day} 更正）",
        "pins_once": "锁定版本：{reason}。",
        "lag_unknown": "未知：{reason}",
        "lag": "落后 main {commits} 个提交{days}",
        "lag_days": "，{days} 天",
        "growing": "；差距仍在扩大（已 {days} 天未更新）",
        "open": "未解决的故障",
        "open_line": "{why}，已 {days} 天未解决",
        "open_broken": "称上游改动导致故障",
        "open_broken_refs": "称 {refs} 导致故障",
        "open_revert": "回退其 vLLM 升级",
        "open_bump": "vLLM 升级尚未合并",
        "more": "……另有 {n} 个上游改动。{where}",
        "shows_all": "（`vllm-report radar` 列出全部）",
        "and": "、",
        "list_sep": "、",
        "fixes_of": "{plugin}（{fixes}）",
        "fact_sep": "，",
        "facts": "（{facts}）",
        "rel_breakage-fix": "修复故障",
        "rel_upgrade": "升级适配",
        "rel_mention-only": "仅提及",
        "state_open": "未关闭",
        "state_closed": "已关闭",
        "why_issue": "是 Issue 而非 PR",
        "why_missing": "GitHub 上不存在",
        "why_unmerged": "未合并",
        "why_after-fix": "在修复之后才合并",
        "why_long-before": "合并时间早于修复开始 {days} 天以上",
        "why_no-pr": "没有 PR 合并它",
        "why_unverified": "未核实",
        "why_corrected": "已更正：不是原因",
        "why_upstream-fix": "已在上游修复",
        "why_pending": "上游待合并",
        "why_ported": "已移植",
        "why_related": "相关",
    },
}


def said(lang: str, key: str, **values: object) -> str:
    return RADAR_TEXT[lang][key].format(**values)


def has(lang: str, key: str) -> bool:
    return key in RADAR_TEXT[lang]


# Why a pin's lag cannot be said (bot.features.radar.service words it in English): the Chinese for
# each form it takes; a reason of another form is shown as it was written.
_PIN_REASONS_ZH = (
    (re.compile(r"no pin file is known for this plugin"), "不知道这个插件的锁定文件"),
    (re.compile(r"(?P<where>.+) has no commit before then"), "{where} 在此之前没有提交"),
    (re.compile(r"(?P<where>.+) was deleted by then"), "{where} 在那时已被删除"),
    (
        re.compile(r"only the archive was read, and it holds no pin history of then"),
        "只读取了存档，而存档中没有那时的锁定记录",
    ),
    (
        re.compile(r"the archive does not hold vLLM main at that moment"),
        "存档中没有那一时刻的 vLLM main",
    ),
    (re.compile(r"(?P<where>.+) names no vLLM commit"), "{where} 没有写明 vLLM 的提交"),
    (re.compile(r"GitHub could not be read: (?P<why>.+)"), "无法读取 GitHub：{why}"),
    (
        re.compile(r"GitHub cannot compare (?P<pin>\S+) with vLLM main"),
        "GitHub 无法比较 {pin} 与 vLLM main",
    ),
)


def pin_reason(lang: str, reason: str) -> str:
    if lang != "zh":
        return reason
    for pattern, zh in _PIN_REASONS_ZH:
        found = pattern.fullmatch(reason)
        if found:
            return zh.format(**found.groupdict())
    return reason
