"""Every prompt the prose writer sends, in one place, for any OpenAI-compatible model.

Small models do some tasks well and others badly: a 1.5B model on a CPU translates a
sentence faithfully but invents reasons when asked to explain. So each request is one small
task about one item, with that item's own facts:

- `item` (Chinese): the item's own description translated, every number, identifier, code
  span and `#N` kept as written, and the sentence the report quotes as why it matters
  (`reason`), if any, translated too: the Chinese edition says both in place of the
  English quotes (the English edition quotes them, so it asks nothing of an item);
- `thread`: what a hot discussion argued (its question, and the causes, answers, objections
  and proposals its comments make), never a list of who posted;
- `day`: the day in three or four sentences, from its counts and themes.

The model answers JSON (a schema where the server takes one). Everything it writes is
checked before a reader sees it, and shown beside the facts, never instead of them. A change
to any prompt bumps PROMPT_VERSION, which retires every cached answer.
"""

from __future__ import annotations

from typing import Any

PROMPT_VERSION = "prose-6"  # 6: a Chinese item's `why` translates the quoted reason
SECTIONS = ("item", "thread", "day")

_RULES_EN = """Rules:
- Use only the facts in the user's JSON. Never compute, estimate or round a number; write a
  number only when the facts write it. Never write a link or a URL.
- The state is given. Only a "merged" PR has landed: of an open PR say what it proposes or
  would do, never that it "fixes", "adds" or "introduces" anything. An open issue or RFC is
  a report or a proposal.
- Do not repeat the title. No praise, no filler ("a critical feature", "for developers
  who …"): if the facts give no reason, answer an empty string."""

_RULES_ZH = """规则：
- 只使用用户 JSON 中的事实。不要计算、估计或取整任何数字；只写事实中出现的数字。不要写链接或网址。
- 每个条目都给出了状态。只有状态为 "merged" 的 PR 才算已合并：未合并的 PR 要写"拟……"或"提议……"，
  不要写"修复了""新增了""引入了"。未关闭的 issue 或 RFC 是报告或提案。
- 数字、标识符、代码（`…`）和 #编号 一律照原文保留，不要改写、不要增删。
- 用地道、简洁的中文；不要空话和夸奖。没有对应内容时回答空字符串。"""

# The Chinese item task, in two forms: the translation alone, or with the reason beside it
# (asked only when the description gives one: a model told "leave it empty" writes one).
_ITEM_ZH = """你帮忙撰写一个 GitHub 仓库的中文日报。
用户 JSON 是一个条目：标题、类型、状态、`description`（条目自己的英文描述）{reason}。
- `what`：把 `description` 忠实地翻译成一句中文，以 "#<编号>" 开头。
{why}"""
_WHY_ZH = """- `why`：把 `reason` 忠实地翻译成一句中文，以 "#<编号>" 开头，
  只写 `reason` 里有的内容，不要增加原因、结论或评价。
"""

SYSTEM = {
    ("thread", "en"): """You summarise a busy discussion thread of a GitHub repository.
From the comments in the user's JSON write two sentences, starting with "#<number>": the
question the thread is about, and what was argued: the causes, answers, objections or
proposals the comments make. Say what was said, not who posted; name a person only beside
what they argued.
"""
    + _RULES_EN
    + """
Answer with one JSON object and nothing else: {"text": "..."}""",
    ("thread", "zh"): """你总结一个 GitHub 仓库讨论最热的帖子。
依据用户 JSON 中的评论写两句中文，以 "#<编号>" 开头：讨论的问题，以及评论中提出的论点
（原因、答复、反对或提议）。写说了什么，不要罗列谁发了言；提到某人时要写出其观点。
"""
    + _RULES_ZH
    + """
只回答一个 JSON 对象，不要其他内容：{"text": "……"}""",
    ("day", "en"): """You write the opening of a daily report on a GitHub repository.
Write a summary of three sentences on what the day was about, citing its weightiest items
by #number, from the counts and themes in the user's JSON.
"""
    + _RULES_EN
    + """
Answer with one JSON object and nothing else: {"summary": "..."}""",
    ("day", "zh"): """你撰写一份 GitHub 仓库日报的开头。
依据用户 JSON 中的计数与主题，用三句话概括当天的重点，并写出最重要条目的 #编号。
"""
    + _RULES_ZH
    + """
只回答一个 JSON 对象，不要其他内容：{"summary": "……"}""",
}

# The answer's shape, for a server that constrains its output to a JSON schema (vLLM's
# `response_format: json_schema`; llama.cpp's server takes it too).
ANSWER_FIELDS = {
    ("item", "zh"): ("what", "why"),
    ("thread", "en"): ("text",),
    ("thread", "zh"): ("text",),
    ("day", "en"): ("summary",),
    ("day", "zh"): ("summary",),
}


def fields(section: str, lang: str, reason: bool = True) -> tuple[str, ...]:
    """The parts an answer has; a Chinese item without a quoted reason only its `what`."""
    found = (
        ANSWER_FIELDS.get((section, lang))
        or ANSWER_FIELDS[(section, "zh" if section == "item" else "en")]
    )
    return tuple(f for f in found if reason or f != "why")


def system_prompt(section: str, lang: str, reason: bool = True) -> str:
    if (section, lang) == ("item", "zh"):
        named = ("`what`", "`why`") if reason else ("`what`",)
        answer = "{" + ", ".join(f'"{n.strip("`")}": "……"' for n in named) + "}"
        prompt = _ITEM_ZH.format(
            reason="和 `reason`（报告引用的作者原句：改变了什么、出了什么问题）" if reason else "",
            why=_WHY_ZH if reason else "",
        )
        return prompt + _RULES_ZH + f"\n只用中文回答一个 JSON 对象，不要其他内容：{answer}"
    return SYSTEM.get((section, lang)) or SYSTEM[(section, "en")]


def answer_schema(section: str, lang: str, reason: bool = True) -> dict[str, Any]:
    """The JSON schema of one answer: every field a string."""
    fields_ = fields(section, lang, reason)
    return {
        "type": "object",
        "properties": {name: {"type": "string"} for name in fields_},
        "required": list(fields_),
        "additionalProperties": False,
    }
