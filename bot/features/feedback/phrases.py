"""Every phrase of readers' feedback (the buttons, the answer to a press, `vllm-report
feedback`) by key, in English and Chinese side by side. `said(lang, key, **values)` fills
one in."""

from __future__ import annotations

FEEDBACK_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "useful": "👍 Useful",
        "not_useful": "👎 Not useful",
        "counted_useful": "Thanks: {section} of {day} counted as useful to you",
        "counted_not": "Thanks: {section} of {day} counted as not useful to you",
        "changed": " (was {before}; you count once)",
        "was_useful": "useful",
        "was_not": "not useful",
        "bad": "this button's day or section could not be read; press it on the day's post",
        "title": "Readers' word on the daily post, by week and section",
        "none": "No reader has pressed 👍 or 👎 in the last {weeks} weeks "
        "(VLLM_REPORT_FEEDBACK is {state})",
        "header": "week       section          👍    👎  readers",
    },
    "zh": {
        "useful": "👍 有用",
        "not_useful": "👎 没用",
        "counted_useful": "谢谢：已记下 {day} 的「{section}」对你有用",
        "counted_not": "谢谢：已记下 {day} 的「{section}」对你没用",
        "changed": "（原为「{before}」；每人只计一次）",
        "was_useful": "有用",
        "was_not": "没用",
        "bad": "无法读出这个按钮所属的日期或栏目；请在当天的日报上点按",
        "title": "读者对日报的反馈，按周和栏目统计",
        "none": "最近 {weeks} 周没有读者点按 👍 或 👎（VLLM_REPORT_FEEDBACK 为 {state}）",
        "header": "周         栏目              👍    👎  读者",
    },
}


def said(lang: str, key: str, **values: object) -> str:
    return FEEDBACK_TEXT[lang][key].format(**values)
