"""Every prompt the prose writer sends, in one place, for any OpenAI-compatible model.

Three sections, one call each: the stories (key changes, notable issues, vendor leads), the
hot discussions, and the day (summary and themes). The model gets the computed facts as
JSON and answers JSON; each statement cites its item as `#N` so the checker can settle it.
The Chinese prompts are written in Chinese, so the Chinese edition is written, not
translated. A change to any prompt bumps PROMPT_VERSION, which retires every cached answer.
"""

from __future__ import annotations

PROMPT_VERSION = "prose-3"
SECTIONS = ("stories", "discussions", "day")

_RULES_EN = """Rules:
- Use only the facts in the user's JSON. Never compute, estimate or round a number; write
  a number only when the facts write it.
- Put the #number of the item in every sentence.
- The state is given for each item. Only a "merged" PR has landed: never say an open PR
  "introduced", "fixed", "added" or "now supports" anything; say it proposes or would.
  An RFC or an open issue is a proposal or a report, never "merged".
- Name a person only as the facts name them (the author, a commenter), never their employer.
- Plain, concrete English for engineers; no praise, no filler."""

_RULES_ZH = """规则：
- 只使用用户 JSON 中的事实。不要计算、估计或取整任何数字；只写事实中出现的数字。
- 每一句都写出所涉条目的 #编号。
- 每个条目都给出了状态。只有状态为 "merged" 的 PR 才算已合并：不要说未合并的 PR
  "引入了"、"修复了"、"实现了"或"现已支持"什么，要说它"提议"或"将会"。
  RFC 和未关闭的 issue 是提案或报告，绝不是"已合并"。
- 只按事实所给的身份提到人（作者、评论者），不要说他们在哪家公司工作。
- 用地道、简洁的中文写给工程师看；标题可保留英文原文，不要逐字翻译，不要空话和夸奖。"""

SYSTEM = {
    ("stories", "en"): """You explain the day's most important changes in a GitHub repository.
For each story in the user's JSON write one or two sentences: what it does (from its body,
size and members) and why it matters.
"""
    + _RULES_EN
    + """
Answer with one JSON object and nothing else: {"stories": {"<number>": "..."}}""",
    ("stories", "zh"): """你为工程师解释一个 GitHub 仓库当天最重要的改动。
对用户 JSON 中的每个 story 写一到两句：它做了什么（依据正文、改动规模和相关条目），以及为什么重要。
"""
    + _RULES_ZH
    + """
只回答一个 JSON 对象，不要其他内容：{"stories": {"<编号>": "……"}}""",
    ("discussions", "en"): """You summarise the day's busiest discussion threads in a GitHub
repository. For each thread in the user's JSON write two or three sentences: the question,
the positions taken (who, briefly, from the comments given), and where it stands.
"""
    + _RULES_EN
    + """
Answer with one JSON object and nothing else: {"discussions": {"<number>": "..."}}""",
    ("discussions", "zh"): """你总结一个 GitHub 仓库当天讨论最热的帖子。
对用户 JSON 中的每个帖子写两到三句：讨论的问题、各方观点（谁，简要，依据给出的评论）、目前进展。
"""
    + _RULES_ZH
    + """
只回答一个 JSON 对象，不要其他内容：{"discussions": {"<编号>": "……"}}""",
    ("day", "en"): """You write the opening of a daily report on a GitHub repository.
Write a summary of three or four sentences on what the day was about, citing its weightiest
items, and three or four themes, one sentence each, each naming its items.
"""
    + _RULES_EN
    + """
Answer with one JSON object and nothing else: {"summary": "...", "themes": ["...", "..."]}""",
    ("day", "zh"): """你撰写一份 GitHub 仓库日报的开头。
用三到四句话概括当天的重点，引用最重要的条目；再写三到四个主题，每个一句话，并写出其条目编号。
"""
    + _RULES_ZH
    + """
只回答一个 JSON 对象，不要其他内容：{"summary": "……", "themes": ["……", "……"]}""",
}


def system_prompt(section: str, lang: str) -> str:
    return SYSTEM.get((section, lang)) or SYSTEM[(section, "en")]
