"""Every phrase of the breakage radar by key, in English and Chinese side by side: the
standalone radar's (`vllm-report radar`, `/vllm-radar`) and the daily report's Plugins
section's (`plugins_…`), and the warnings' (`phrases_warnings.py`, merged in here: this
module would pass the 500 lines a module may hold). `said(lang, key, **values)` fills one
in."""

from __future__ import annotations

import re

from bot.features.radar.phrases_warnings import WARNING_TEXT

_RADAR: dict[str, dict[str, str]] = {
    "en": {
        "title": "Breakage radar · {label}",
        "watched": "Plugins watched: {plugins}.",
        "counts": "{links} plugin PRs and issues name upstream: {fixes} breakage fixes, "
        "{upgrades} upgrades, {mentions} mentions; {culprits} upstream changes broke plugins",
        "incomplete": "Incomplete: ",
        "incomplete_cli": "incomplete: ",
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
        "pins_once": "Pins: {reason}",  # ended once by `sentence`
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
        # Plugin repositories GitHub could not be read for: one sentence for them all, each
        # plugin with its reason said short (`unread_*`), then what to do (`fix_*`).
        "unread": "{unread} of {watched} plugin repositories could not be read ({reasons})",
        "unread_all": "all: {reason}",
        "unread_one": "{plugins}: {reason}",
        "unread_sep": "; ",
        "unread_do": "{unread}: {fixes}",
        "unread_status": "{reason} ({status})",
        "unread_verbose": "`vllm-report -v radar …` shows GitHub's own words for each.",
        "unread_missing": "not found",
        "unread_token": "token refused",
        "unread_limit": "rate limit used up",
        "unread_not-github": "not answered like GitHub's API",
        "unread_rejected": "query rejected",
        "unread_timeout": "no answer in time",
        "unread_unreachable": "GitHub unreachable",
        "unread_failing": "GitHub kept failing",
        "unread_refused": "access refused",
        "unread_answered": "GitHub error",
        "fix_names": "check the names in VLLM_REPORT_PLUGINS",
        "fix_token": "check that GITHUB_TOKEN can read them",
        "fix_limit": "set GITHUB_TOKEN or wait for the rate limit to reset",
        "fix_url": "check GITHUB_API_URL",
        "fix_network": "check the network and GITHUB_API_URL",
        "fix_later": "try again later",
        "fix_sep": ", ",
        "fix_or": ", or ",
        # A note the radar's windows gave (bot.collect words them in English).
        "plugin_note": "{plugins}: {note}",
        "label_days": "last {days} days",
        # Sentences run together: a space between them in English, none in Chinese.
        "sentence_sep": " ",
        # -- the daily report's Plugins section (bot.features.radar.outline) --
        "plugins": "🔌 Plugins",
        "plugins_broke": "Upstream changes that broke plugins",
        "plugins_broke_one": " — broke {plugins}",
        "culprits_table": "Upstream changes and the plugins they broke",
        "col_change": "Upstream change",
        "col_plugins": "Broke",
        "col_fixes": "Plugin fixes",
        "plugins_line": "Plugins: upstream broke {plugins} ({refs})",
        "plugins_line_none": "Plugins: nothing upstream broke them",
        "plugins_line_late": "{plugins} pinned over {days} days behind main",
        "plugins_line_open": "still broken in {plugins}",
        "plugins_line_only_open": "Plugins: still broken in {plugins}",
        "plugins_open": "Still broken at the day's end",
        "plugins_line_more": ", …",
        "plugins_fixed": "fixed in {plugin}: ",
        "plugins_lag": "Pins behind upstream by more than {days} days",
        "plugins_lag_line": "{plugin}: {commits} commits, {days} days behind main",
        "plugins_growing": ", growing: unchanged for {days} days",
        "plugins_counts": "{links} plugin PRs and issues cite upstream vLLM ({fixes} fixing a "
        "break, {upgrades} moving to a newer vLLM).",
        "plugins_more": "Every link and pin: /vllm-radar {label} in chat, `vllm-report radar "
        "{label}` on the command line.",
        # The culprit's facts in the section (its `merged`, `not_reverted`, `revert_unknown` and
        # `fact_sep` are the radar's own above), and what the counts line adds.
        "plugins_by": "by ",
        "plugins_reverted": "reverted by ",
        "plugins_reverted_on": " on {day}",
        "plugins_corrections": "Culprits corrected by readers (/vllm-radar wrong): {n}; "
        "{precision} of those named not corrected, {unconfirmed} unconfirmed by an upstream "
        "revert.",
        "plugins_reverts_unknown": "Whether upstream reverted them is not known: the archive does "
        "not hold vLLM's PRs since they merged.",
    },
    "zh": {
        "title": "插件故障雷达 · {label}",
        "watched": "关注的插件：{plugins}。",
        "counts": "插件的 PR 与 Issue 中有 {links} 个提到上游：修复故障 {fixes} 个、适配升级 "
        "{upgrades} 个、仅提及 {mentions} 个；{culprits} 个上游改动导致插件故障",
        "incomplete": "数据不完整：",
        "incomplete_cli": "数据不完整：",
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
        "pins_once": "锁定版本：{reason}",
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
        "unread": "{watched} 个插件仓库中有 {unread} 个无法读取（{reasons}）",
        "unread_all": "均为{reason}",
        "unread_one": "{plugins}：{reason}",
        "unread_sep": "；",
        "unread_do": "{unread}：请{fixes}",
        "unread_status": "{reason}（{status}）",
        "unread_verbose": "`vllm-report -v radar …` 可显示 GitHub 对每个插件的原话。",
        "unread_missing": "仓库不存在",
        "unread_token": "令牌被拒绝",
        "unread_limit": "API 调用额度已用完",
        "unread_not-github": "返回的不是 GitHub API 的应答",
        "unread_rejected": "查询被拒绝",
        "unread_timeout": "未及时响应",
        "unread_unreachable": "无法连接 GitHub",
        "unread_failing": "GitHub 持续出错",
        "unread_refused": "无权访问",
        "unread_answered": "GitHub 返回错误",
        "fix_names": "检查 VLLM_REPORT_PLUGINS 中的名称",
        "fix_token": "确认 GITHUB_TOKEN 有权读取这些仓库",
        "fix_limit": "设置 GITHUB_TOKEN 或等额度重置后再试",
        "fix_url": "检查 GITHUB_API_URL",
        "fix_network": "检查网络与 GITHUB_API_URL",
        "fix_later": "稍后重试",
        "fix_sep": "、",
        "fix_or": "，或",
        "plugin_note": "{plugins}：{note}",
        "label_days": "最近 {days} 天",
        "sentence_sep": "",
        # -- the daily report's Plugins section --
        "plugins": "🔌 硬件插件",
        "plugins_broke": "导致插件出错的上游改动",
        "plugins_broke_one": " — 导致 {plugins} 出错",
        "culprits_table": "上游改动及其导致出错的插件",
        "col_change": "上游改动",
        "col_plugins": "出错的插件",
        "col_fixes": "插件修复数",
        "plugins_line": "插件：上游改动导致 {plugins} 出错（{refs}）",
        "plugins_line_none": "插件：没有上游改动导致出错",
        "plugins_line_late": "{plugins} 锁定的 vLLM 落后 main 超过 {days} 天",
        "plugins_line_open": "{plugins} 仍有未解决的故障",
        "plugins_line_only_open": "插件：{plugins} 仍有未解决的故障",
        "plugins_open": "截至当日结束仍未解决的故障",
        "plugins_line_more": " 等",
        "plugins_fixed": "{plugin} 的修复：",
        "plugins_lag": "vLLM 锁定提交落后 main 超过 {days} 天",
        "plugins_lag_line": "{plugin}：落后 {commits} 个提交、{days} 天",
        "plugins_growing": "，差距仍在扩大（已 {days} 天未更新）",
        "plugins_counts": "{links} 个插件 PR 与 Issue 引用了上游 vLLM（{fixes} 个修复故障，"
        "{upgrades} 个升级 vLLM 版本）。",
        "plugins_more": "查看全部记录与锁定提交：在聊天中用 /vllm-radar {label}，"
        "命令行用 `vllm-report radar {label}`。",
        "plugins_by": "作者 ",
        "plugins_reverted": "已被 ",
        "plugins_reverted_on": " 于 {day} 回退",
        "plugins_corrections": "读者更正的归因（/vllm-radar wrong）：{n} 处；"
        "{precision} 的归因未被更正，{unconfirmed} 个未经上游回退确认。",
        "plugins_reverts_unknown": "是否已被上游回退未知：存档中没有它们合并之后的 vLLM PR。",
    },
}
# The warnings' words (`bot.features.radar.phrases_warnings`) are the radar's too.
RADAR_TEXT: dict[str, dict[str, str]] = {
    lang: {**words, **WARNING_TEXT[lang]} for lang, words in _RADAR.items()
}


def said(lang: str, key: str, **values: object) -> str:
    return RADAR_TEXT[lang][key].format(**values)


_STOPS = ".。"


def sentence(text: str, lang: str) -> str:
    """`text` ended as a sentence once: the language's full stop, never a second one after
    the stop a GitHub message or a reason already ends with ("… is empty." stays one stop;
    in Chinese an English stop becomes "。"). A question or an exclamation keeps its mark."""
    core = text.rstrip()
    while core.endswith(tuple(_STOPS)) and not core.endswith("..."):
        core = core[:-1].rstrip()
    if core.endswith(("?", "!", "？", "！", "…", "...")):
        return core
    return core + ("。" if lang == "zh" else ".")


def window_label(lang: str, label: str) -> str:
    """A window's label as the radar's title says it: `last 7 days` (bot.model.windows's
    label for `7d`, in English whatever the language) is 最近 7 天 in Chinese; a day or a
    range of days (`2025-09-01..2025-09-30`) is written alike in both, as every report's
    title writes it. The label a person types back (the message's metadata) stays the
    window's own."""
    days = _LAST_DAYS.fullmatch(label)
    return said(lang, "label_days", days=days.group(1)) if days else label


_LAST_DAYS = re.compile(r"last (\d+) days")


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


# Why a plugin repository could not be read, by the words bot.collect.failures says it in
# (a CollectError is one sentence): the first that matches gives the reason said short
# (`unread_<kind>`) and what to do (`fix_<fix>`); any other is a GitHub error, tried later.
_UNREAD = (
    (re.compile(r"GitHub has no repository"), "missing", "names"),
    (re.compile(r"refused the token"), "token", "token"),
    (re.compile(r"rate limit"), "limit", "limit"),
    (re.compile(r"does not answer like GitHub's API"), "not-github", "url"),
    (re.compile(r"rejected the query"), "rejected", "names"),
    (re.compile(r"did not answer within"), "timeout", "later"),
    (re.compile(r"cannot reach GitHub"), "unreachable", "network"),
    (re.compile(r"kept failing"), "failing", "later"),
    (re.compile(r"GitHub answered 40[13]\b"), "refused", "token"),
)
# The HTTP status a failure names: `(422)`, `answered 403`, `too many 503 error responses`.
_STATUS = re.compile(r"(?:\(|answered |too many )([45]\d\d)\b")


def unread_reason(lang: str, why: str) -> tuple[str, str]:
    """GitHub's sentence for a plugin repository it could not be read for, said short
    (`not found`, `GitHub kept failing (503)`), and the key of what to do about it."""
    kind, fix = next(
        ((kind, fix) for pattern, kind, fix in _UNREAD if pattern.search(why)),
        ("answered", "later"),
    )
    reason = said(lang, f"unread_{kind}")
    status = _STATUS.search(why)
    if status and kind in ("rejected", "failing", "refused", "answered"):
        return said(lang, "unread_status", reason=reason, status=status.group(1)), fix
    return reason, fix


# The radar's notes of what is incomplete (bot.collect and bot.features.radar.service word
# them in English): the Chinese of each form; a note of another form is shown as written.
_CHECKED_WHY_ZH = (
    (
        re.compile(r"one radar makes at most (?P<n>\d+) requests to GitHub for them"),
        "一次雷达最多为此向 GitHub 发出 {n} 个请求",
    ),
    (re.compile(r"only the archive was read"), "只读取了存档"),
    (re.compile(r"GitHub could not be read: (?P<why>.+)", re.S), "无法读取 GitHub：{why}"),
)
_KEYS = r"(?:#\d+|[0-9a-f]{4,40})"
_NOTES_ZH = (
    (
        re.compile(r"window in progress: activity up to (?P<at>.+)"),
        "时间窗口尚未结束：活动截至 {at}",
    ),
    (
        re.compile(r"some of this window could not be collected: counts may be low"),
        "本时间段有部分未能收集：数字可能偏低",
    ),
    (
        re.compile(
            rf"(?P<n>\d+) upstream changes named as causes could not be checked with GitHub "
            rf"\((?P<why>.+)\): (?P<shown>{_KEYS}(?:, {_KEYS})*)(?: and (?P<more>\d+) more)?; "
            r"they are not shown as culprits",
            re.S,
        ),
        "{n} 个被点名为原因的上游改动未能向 GitHub 核实（{why}）：{shown}{more}；"
        "它们不会显示为导致故障的改动",
    ),
)


def note_text(lang: str, note: str) -> str:
    """One of the radar's notes of what is incomplete, in `lang`."""
    if lang != "zh":
        return note
    for pattern, zh in _NOTES_ZH:
        found = pattern.fullmatch(note)
        if found is None:
            continue
        values = found.groupdict()
        if "why" in values:
            values["why"] = next(
                (
                    why_zh.format(**m.groupdict())
                    for p, why_zh in _CHECKED_WHY_ZH
                    if (m := p.fullmatch(values["why"]))
                ),
                values["why"],
            )
            values["shown"] = values["shown"].replace(", ", "、")
            values["more"] = f" 及另外 {values['more']} 个" if values["more"] else ""
        return zh.format(**values)
    return note
