"""Red on main's words, in English and Chinese (`phrase`), and how it names hardware and
marks a time's zone."""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo

HARDWARE_NAMES = {
    "amd": "AMD",
    "nvidia": "NVIDIA",
    "intel": "Intel",
    "tpu": "TPU",
    "neuron": "Neuron",
    "ascend": "Ascend",
    "cpu": "CPU",
}

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "🚦 Red on main",
        "yours": "CI failures on main your PR is suspected of ({n})",
        "answer_title": "🚦 Red on main · {label}",
        "answer_context": "{start} ~ {end}{topic}",
        "unknown": "The CI state on main is unknown: ",
        "green": "Nothing was failing on main at the day's end, as the CI dashboard recorded it.",
        "red": "Failing at the day's end ({n})",
        "flaky": "Flaky-looking, not blamed on a change ({n})",
        "infra": "Infrastructure trouble, not the code ({n})",
        "resolved": "Passing again ({n})",
        "closed": "Closed by hand, no pass seen ({n})",
        "reported": "Reported on GitHub, not on the dashboard ({n})",
        "new": "🆕 ",
        "since": " — red since {day} (build #{build}; {runs} failing runs; failure {id})",
        "since_one": " — red since {day} (build #{build}; failure {id})",
        "passed": " — passed in build #{build} at {day}, red since {since} ({runs} failing runs)",
        "passed_one": " — passed in build #{build} at {day}, red since {since} (1 failing run)",
        "closed_line": " — closed by hand at {day}; no passing run seen, not counted as fixed",
        "suspect": "Suspect: ",
        "by": " by ",
        "alone": " — the only change merged between the job's last pass (build #{build}) and "
        "its first failure",
        "confirmed": " — {how}, and the job passed after",
        "reverts": "#{n} reverts it",
        "fixes": "#{n} fixes it",
        "range": "One of {n} changes merged between the last pass (build #{build}) and the "
        "first failure: ",
        "range_empty": "No vLLM PR merged between the last pass (build #{build}) and the "
        "first failure: the change is elsewhere (a dependency, the image, the fleet)",
        "range_more": " +{n} more",
        "no_pass": "No pass of this job on record in the {days} days before: no blame range, "
        "no suspect",
        "no_runs": "The job's runs could not be read: no blame range yet",
        "no_range": "Last pass in build #{build}; GitHub could not list the changes since",
        "evidence": "; the dashboard's analysis names {items} among them",
        "outside": "; it also names {items}, outside the range: not suspects",
        "cleared": "; {items} cleared by a person",
        "analysis": "Analysis: ",
        "stale": "Analysis (of an earlier failure): ",
        "ask": " Ask: ",
        "ask_more": " +{n}",
        "flips": " — {n} pass↔fail flips in 30 days",
        "classed_flaky": " — the dashboard's analysis classes it flaky",
        "reported_open": " — {hardware}, reported {day}{build}, open",
        "reported_closed": " — {hardware}, reported {day}{build}, closed {closed}",
        "reported_build": ", first failing {build}",
        "reported_fix": ", fixed by #{n}",
        "read": "Read from {source} at {time}.",
        "skipped": " Left out, unreadable: {n} of the dashboard's failure records.",
        "more": "+{n} more: {command}",
        "lead": "{group}: ",
        "joint": "; ",
        "then": ". ",
        "infra_since": " — since {day}",
        "line_unknown": "Red on main: unknown ({why})",
        "line_green": "Red on main: nothing failing",
        "line": "Red on main: {n} failing ({hardware})",
        "line_new": ", {n} new",
        "line_flaky": "; {n} flaky-looking",
        "line_infra": "; {n} infrastructure",
        "line_fixed": "; {n} passing again",
        "line_reported": "; {n} reported on GitHub",
        "hw_count": "{n} {name}",
        "off": "Red on main is off (VLLM_REPORT_CI_URL=none)",
    },
    "zh": {
        "title": "🚦 main 分支 CI 失败",
        "yours": "疑似由你的 PR 导致的 main 分支 CI 失败（{n}）",
        "answer_title": "🚦 main 分支 CI 失败 · {label}",
        "answer_context": "{start} ~ {end}{topic}",
        "unknown": "main 分支的 CI 状态未知，原因（原文）：",
        "green": "截至当日结束，CI 看板记录的 main 分支没有失败的任务。",
        "red": "截至当日结束仍失败（{n}）",
        "flaky": "疑似不稳定，不归咎于某个改动（{n}）",
        "infra": "基础设施问题，并非代码问题（{n}）",
        "resolved": "已恢复通过（{n}）",
        "closed": "被手动关闭，未见通过（{n}）",
        "reported": "GitHub 上报告、看板未收录（{n}）",
        "new": "🆕 ",
        "since": " — 自 {day} 起失败（首个失败构建 #{build}；共 {runs} 次失败；故障 {id}）",
        "since_one": " — 自 {day} 起失败（首个失败构建 #{build}；故障 {id}）",
        "passed": " — 于 {day} 在构建 #{build} 中通过（自 {since} 起失败，共 {runs} 次）",
        "passed_one": " — 于 {day} 在构建 #{build} 中通过（自 {since} 起失败，共 1 次）",
        "closed_line": " — 于 {day} 被手动关闭；未见通过的运行，不算作已修复",
        "suspect": "嫌疑改动：",
        "by": "，作者 ",
        "alone": " — 该任务上次通过（构建 #{build}）与首次失败之间唯一合并的改动",
        "confirmed": " — {how}，之后该任务恢复通过",
        "reverts": "#{n} 回退了它",
        "fixes": "#{n} 修复了它",
        "range": "上次通过（构建 #{build}）与首次失败之间合并了 {n} 个改动：",
        "range_empty": "上次通过（构建 #{build}）与首次失败之间没有合并 vLLM PR："
        "原因在别处（依赖、镜像或机器）",
        "range_more": " 等另 {n} 个",
        "no_pass": "此前 {days} 天内没有该任务通过的记录：无法确定范围，不指认嫌疑改动",
        "no_runs": "未能读取该任务的运行记录：暂无法确定范围",
        "no_range": "上次通过于构建 #{build}；GitHub 未能列出此后的改动",
        "evidence": "；看板分析提到其中的 {items}",
        "outside": "；看板分析还提到不在该范围内的 {items}，不是嫌疑改动",
        "cleared": "；{items} 已有人澄清与此无关",
        "analysis": "看板分析（原文）：",
        "stale": "看板分析（针对更早的一次失败，原文）：",
        "ask": " 可询问：",
        "ask_more": " 等另 {n} 人",
        "flips": " — 30 天内通过与失败交替 {n} 次",
        "classed_flaky": " — 看板分析将其归为不稳定",
        "reported_open": " — {hardware}，{day} 报告{build}，未关闭",
        "reported_closed": " — {hardware}，{day} 报告{build}，{closed} 关闭",
        "reported_build": "，首个失败构建 {build}",
        "reported_fix": "，由 #{n} 修复",
        "read": "数据读取自 {source}（{time}）。",
        "skipped": "有 {n} 条故障记录无法读取，未列入。",
        "more": "另有 {n} 项：{command}",
        "lead": "{group}：",
        "joint": "；",
        "then": "。",
        "infra_since": " — 自 {day} 起",
        "line_unknown": "main 分支 CI：状态未知（原文：{why}）",
        "line_green": "main 分支 CI：无失败任务",
        "line": "main 分支 CI：{n} 个任务失败（{hardware}）",
        "line_new": "，新增 {n} 个",
        "line_flaky": "；疑似不稳定 {n} 个",
        "line_infra": "；基础设施问题 {n} 个",
        "line_fixed": "；{n} 个已恢复通过",
        "line_reported": "；GitHub 报告 {n} 个",
        "hw_count": "{name} {n}",
        "off": "main 分支 CI 功能已关闭（VLLM_REPORT_CI_URL=none）",
    },
}


def phrase(lang: str, key: str, **values: object) -> str:
    return WORDS[lang][key].format(**values)


def zone(moment: datetime) -> str:
    """The zone a time is told in, as its offset: "UTC+8", "UTC+5:30", "UTC"."""
    offset = moment.utcoffset() or timedelta(0)
    minutes = int(offset.total_seconds() // 60)
    if not minutes:
        return "UTC"
    hours, rest = divmod(abs(minutes), 60)
    sign = "+" if minutes > 0 else "-"
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def when(moment: datetime, tz: tzinfo | None) -> str:
    """A time in the report's zone, marked with it."""
    here = moment.astimezone(tz)
    return f"{here:%Y-%m-%d %H:%M} {zone(here)}"


def day(moment: datetime, tz: tzinfo | None) -> str:
    return moment.astimezone(tz).date().isoformat()
