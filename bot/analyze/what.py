"""One line per item in its own words: what a PR does, what an issue reports.

Extractive only: the line is cut from the item's own description, never written. For a PR,
the first sentences of its Purpose / Summary / Motivation section (or of its opening
paragraph); for an issue, the problem statement after the template (the environment dump
and checklists skipped; "Describe the bug", "Motivation", "The feature, motivation and
pitch" preferred). Code spans are kept verbatim (`lru_cache` stays `lru_cache`), Markdown
links become their text, images, HTML and URLs are dropped, and the line is cut at a
sentence or word boundary. A body that holds nothing but the template gives "".

What a reader skips is skipped: greetings and salutations ("Hi @user,"), review requests
("could you please take a look?"), status notes ("(To be merged after …)"), and an
environment preamble when a later sentence says what breaks. A line never ends on a
dangling word or a colon that introduced a log ("…crashes during model loading with:"
ends "…crashes during model loading."). Another repository's item is written
`ROCm/aiter#2360`, never a bare `#2360` that would read as this repository's.
"""

from __future__ import annotations

import re

from bot.model.report import ActivityItem

LIMIT = 200
ELLIPSIS = "…"
SCAN = 6000  # characters of a body read: the statement is at the top

# Section headings, normalised (lower case, letters and spaces only), by preference.
_PREFERRED = (
    "purpose",
    "summary",
    "motivation",
    "describe the bug",
    "the feature motivation and pitch",
    "proposal to improve performance",
    "report of performance regression",
    "the doc issue",
    "description",
    "issue description",
    "problem",
    "overview",
    "what does this pr do",
    "how would you like to use vllm",
    "anything you want to discuss about vllm",
    "proposed change",
)
# Headings whose text is never the statement (templates, logs, plans).
_SKIPPED = (
    "your current environment",
    "environment",
    "test plan",
    "test result",
    "test results",
    "testing",
    "before submitting a new issue",
    "alternatives",
    "additional context",
    "cc list",
    "feedback period",
    "essential elements of an effective pr description checklist",
    "error message",
    "logs",
    "how you are installing vllm",
    "model",
    "steps to reproduce",
    "reproduction",
    "how to reproduce",
    "to reproduce",
    "reproduce",
    "minimal reproduction",
)
# Template text that says nothing about the item.
_PLACEHOLDERS = re.compile(
    r"FILL IN THE PR DESCRIPTION HERE|FIX #x+ \(\*?link existing issues this PR will resolve\*?\)"
    r"|PLEASE FILL IN THE PR DESCRIPTION HERE ENSURING THE TITLE IS DESCRIPTIVE"
    r"|^\s*-\s*\[[ xX]\].*$",
    re.I | re.M,
)
_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.S)
_DETAILS = re.compile(r"<details>.*?(?:</details>|$)", re.S | re.I)
_FENCE = re.compile(r"```.*?(?:```|$)", re.S)
# A heading: `#`..`######` and a space at a line start (or after a space: some stored
# bodies lost their line breaks); it runs to the line's end or the next heading marker.
_HEADING = re.compile(
    r"(?:^|(?<=\s))#{1,6}[ \t]+((?:[^\n#]|#(?!#{0,5}\s))*?)(?=\s*(?:\n|$|#{1,6}\s))", re.M
)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)")
_URL = re.compile(r"<?\bhttps?://[^\s)>\]]*[^\s)>\].,;:!?]>?")
_ITEM_URL = re.compile(
    r"<?\bhttps?://github\.com/(?P<repo>[\w.-]+/[\w.-]+)/(?:issues|pull)/(?P<n>\d+)\S*?>?"
    r"(?=[\s,.;:!?)]|$)"
)
_HTML = re.compile(r"</?[A-Za-z][^>]{0,200}>")
_CODE = re.compile(r"`[^`\n]+`")
# **bold**, __bold__, *it* and _it_; an underscore inside a word (ECR_IMAGE_TAG) is no markup.
_EMPHASIS = re.compile(
    r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1|(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?!\w)"
    r"|(?<![\w_])_(?=\S)([^_\n]+?)(?<=\S)_(?![\w_])"
)
# ~~struck~~ or ~struck~ (GitHub draws both); "~300K+ while M stays ~8192" is no markup.
_STRUCK = re.compile(r"(?<![\w~])~~?(?=\S)[^~\n]{1,200}?(?<=\S)~~?(?![\w~])")
_LIST_MARK = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+(?:\[[ xX]\]\s*)?")
_QUOTE_MARK = re.compile(r"^\s*>+\s?")
_SENTENCE_END = re.compile(r"[.!?。！？](?=\s|$)")
_ABBREVIATION = re.compile(r"(?:\be\.g|\bi\.e|\betc|\bvs|\bcf|\bapprox)\.$", re.I)


def what_line(item: ActivityItem, limit: int = LIMIT) -> str:
    """The item's own statement of what it does or reports, at most `limit` characters."""
    if not item.body:
        return ""
    text = _clean_blocks(item.body[:SCAN])
    for chunk in _candidates(text):
        line = _plain(chunk, item.repo)
        if len(line) >= 12 and re.search(r"[A-Za-z\u4e00-\u9fff]{3}", line):
            return cut(line, limit)
    return ""


# A sentence that says why: the cause it answers or the gain it claims.
_REASON = re.compile(
    r"\b(?:because|so that|in order to|to avoid|to prevent|otherwise|without this|which "
    r"(?:causes?|caused|leads? to|results? in)|causing|leads? to|results? in|currently|"
    r"fails?\b|failing|crash(?:es|ed)?|broken|breaks|regress\w*|to (?:improve|reduce|speed up|"
    r"support|enable|fix|allow)|improves?|reduces?|speeds? up|faster|slower)\b",
    re.I,
)
_REASON_HEADINGS = ("motivation", "why", "problem", "background", "root cause", "cause")
REASON_LIMIT = 300


def reason_line(item: ActivityItem, limit: int = REASON_LIMIT) -> str:
    """The reason an item's description gives for it — its Motivation section, else its
    first sentence that says why (a cause, a failure, a gain) — or "" when it gives none:
    what a model may say "why it matters" from, and nothing else."""
    if not item.body:
        return ""
    sections = _sections(_clean_blocks(item.body[:SCAN]))
    for heading, body in sections:  # a Motivation section is the reason, whatever its words
        line = _plain(body, item.repo) if heading in _REASON_HEADINGS else ""
        if len(line) >= 12:
            return cut(line, limit)
    for heading, body in sections:
        if heading in _SKIPPED:
            continue
        for sentence in _SENTENCE.split(_plain(body, item.repo)):
            if len(sentence) >= 12 and _REASON.search(sentence):
                return cut(sentence.strip(), limit)
    return ""


def plain_sentences(body: str, repo: str = "") -> list[str]:
    """Every sentence of a description's telling sections, as plain text, in order (the
    template, the environment, logs, test plans and code left out)."""
    return [s for paragraph in paragraph_sentences(body, repo) for s in paragraph]


def paragraph_sentences(body: str, repo: str = "", *, items: bool = False) -> list[list[str]]:
    """The sentences of a description's telling sections, paragraph by paragraph (a reason
    may run on into the short sentence after it: "… falls back to a flat loop. No behavior
    change."); `items`: each item of a list a paragraph of its own (one fact of four)."""
    found: list[list[str]] = []
    for heading, text in _sections(_clean_blocks(body[:SCAN])):
        if heading in _SKIPPED:
            continue
        for paragraph in re.split(r"\n\s*\n", text.strip()):
            lines = paragraph.splitlines()
            for group in _list_items(lines) if items else [lines]:
                line = _readable(_inline(_join(group), repo))
                said = [s.strip() for s in _SENTENCE.split(line) if len(s.strip()) >= 12]
                if said:
                    found.append(said)
    return found


def _list_items(lines: list[str]) -> list[list[str]]:
    """A paragraph's lines grouped by list item (a line with a list mark starts one; the
    lines before the first item are a group of their own)."""
    groups: list[list[str]] = []
    for line in lines:
        if not groups or _LIST_MARK.match(_QUOTE_MARK.sub("", line)):
            groups.append([])
        groups[-1].append(line)
    return groups


def status_notes(body: str | None, repo: str = "") -> list[str]:
    """The status notes a description carries ("(To be merged after ROCm/aiter#2360)"): no
    line of what the item does, but what its landing waits on."""
    if not body:
        return []
    notes = []
    for raw in _clean_blocks(body[:SCAN]).splitlines():
        line = _inline(_QUOTE_MARK.sub("", raw).strip(), repo).strip("() ")
        if _STATUS_NOTE.match(line):
            notes.append(line)
    return notes


def stated_length(body: str | None) -> int:
    """How many characters of its own a description says, once comments, collapsed blocks,
    code blocks and the template's lines are taken out."""
    if not body:
        return 0
    return len(" ".join(_clean_blocks(body[:SCAN]).split()))


def _clean_blocks(body: str) -> str:
    """Comments, collapsed environment dumps, code blocks and template lines removed."""
    text = body.replace("\r\n", "\n")
    text = _COMMENT.sub("", text)
    text = _DETAILS.sub("\n", text)
    text = _FENCE.sub("\n", text)
    return _PLACEHOLDERS.sub("", text)


def _candidates(text: str) -> list[str]:
    """Section texts in the order worth trying: preferred headings, the opening, the rest."""
    sections = _sections(text)
    opening = sections[0][1] if sections and sections[0][0] == "" else ""
    ranked = []
    for wanted in _PREFERRED:
        ranked += [body for heading, body in sections if heading == wanted]
    ranked.append(opening)
    ranked += [body for heading, body in sections[1:] if heading not in _SKIPPED]
    return [chunk for chunk in ranked if chunk.strip()]


def _sections(text: str) -> list[tuple[str, str]]:
    """(normalised heading, text) pairs; the text before the first heading has heading ''."""
    found: list[tuple[str, str]] = []
    last_heading, last_end, carried = "", 0, ""
    for match in _HEADING.finditer(text):
        found.append((last_heading, carried + text[last_end : match.start()]))
        last_heading, carried = _split_heading(match.group(1))
        last_end = match.end()
    found.append((last_heading, carried + text[last_end:]))
    return found


def _split_heading(raw: str) -> tuple[str, str]:
    """A heading, and any text glued to it: some stored bodies lost their line breaks, so
    `### Describe the bug The server crashes…` is a known heading followed by its text."""
    heading = _normal(raw)
    for known in _KNOWN_LONGEST_FIRST:
        if heading.startswith(known + " ") and len(heading) > len(known) + 20:
            words = len(known.split())
            rest = re.split(r"\s+", raw.strip(), maxsplit=words + _emoji_words(raw))[-1]
            return known, rest + "\n"
    return heading, ""


_KNOWN_LONGEST_FIRST = sorted(_PREFERRED + _SKIPPED, key=len, reverse=True)


def _emoji_words(raw: str) -> int:
    """Leading words that are not letters (an emoji like 🐛), which `_normal` dropped."""
    count = 0
    for word in raw.split():
        if re.search(r"[A-Za-z]", word):
            break
        count += 1
    return count


def _normal(heading: str) -> str:
    letters = re.sub(r"[^a-z ]+", " ", heading.lower())
    return " ".join(letters.split())


def _plain(chunk: str, repo: str = "") -> str:
    """The first telling paragraph (or list) of a section, as one plain line."""
    for paragraph in re.split(r"\n\s*\n", chunk.strip()):
        if paragraph.lstrip().startswith(("…", "...")):
            continue  # a stored excerpt that begins mid-sentence
        ended_open = paragraph.rstrip().endswith(":")  # it introduced a log or a list
        line = _readable(_inline(_join(paragraph.splitlines()), repo))
        if not line or any(p.match(line) for p in _SAYS_NOTHING) or ENV_LINE.match(line):
            continue
        if ended_open and POINTS_ON.search(line):
            continue  # "…to prevent the following error:" says nothing without the error
        return _closed(line) if ended_open or DANGLING.search(line) else line
    return ""


_ONLY_REFERENCES = re.compile(
    r"^(?:(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|related|follow[- ]?up(?: to| of| for)?|see|"
    r"part of(?: the)?|ref(?:erence)?s?)\b[:\s]*)?(?:(?:[\w.-]+/[\w.-]+)?#\d+[\s,.;]*)+$",
    re.I,
)
# A status note about the PR, not what it does: "(To be merged after ROCm/aiter#2360 …)".
_STATUS_NOTE = re.compile(
    r"^\(?\s*(?:to be merged (?:after|with|before)|merge after|depends on|blocked (?:by|on)|"
    r"stacked on|requires|needs|do not merge|dnm|wip\b|draft\b|note:)",
    re.I,
)
# Salutations at the start of a paragraph: "Hi @RobMulla,", "Hello team!", "@alice @bob".
_SALUTATION = re.compile(
    r"^(?:(?:hi|hello|hey|dear|greetings)\b[^.!?,:\n]{0,60}[,!.:]\s*|(?:cc\s*)?(?:@[\w-]+[\s,]*)+)",
    re.I,
)
# A sentence that asks for attention rather than saying anything about the change.
_REQUEST = re.compile(
    r"(?:could|can|would) (?:you|someone|anyone)(?: please)? (?:take a look|have a look|review|"
    r"check|help)|\bptal\b|\bplease (?:review|take a look|have a look)|"
    r"\bthanks? (?:you )?in advance|"
    r"\bany (?:feedback|comments|suggestions) (?:is|are) (?:welcome|appreciated)|"
    # How to review it, not what it does: "please only review the top commit".
    r"\b(?:please )?(?:only )?review (?:only )?the (?:top|last|latest|final) commit|"
    r"\bignore the (?:first|earlier) commits?|\breview (?:it )?commit by commit|"
    # Why it is open, not what it does: "opening this for comment."
    r"\bopen(?:ing|ed)? (?:this|it)? ?(?:up )?for (?:comments?|discussion|early feedback)",
    re.I,
)
# "I am running vLLM 0.17 on 8×H100 with …": where the report stands, not what breaks.
_PREAMBLE = re.compile(r"^(?:i am|i'm|we are|we're) (?:running|using|trying|deploying)\b", re.I)
_BREAKS = re.compile(
    r"\b(?:error|errors|fail\w*|crash\w*|hang\w*|wrong|incorrect|broken|breaks?|"
    r"does(?:n't| not)|cannot|can't|unable|returns?|raises?|OOM|exception|garbage|blocks?|"
    r"stuck|deadlocks?|slow|timeouts?|times out)\b",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(\[])")
# A sentence whose sense is in what its colon introduced (a log, a list) that was cut off.
POINTS_ON = re.compile(
    r"\b(?:the\s+)?following(?:\s+\w+){0,2}\W*$|\bas follows\W*$|\bbelow\W*$", re.I
)
# Words a line must not end on: it was cut before what they introduce.
DANGLING = re.compile(
    r"\b(?:with|to|of|the|a|an|and|or|for|in|on|by|as|at|from|into|via|like|following|below|"
    r"is|are|was|were|this|these|that|when|where|which)$",
    re.I,
)


def _readable(line: str) -> str:
    """The line without a leading salutation, a review request or a status note; an
    environment preamble gives way to the first sentence that says what breaks."""
    line = _SALUTATION.sub("", line).lstrip(" ,")
    sentences = [s for s in _SENTENCE.split(line) if s.strip()]
    kept = [s for s in sentences if not _REQUEST.search(s) and not _STATUS_NOTE.match(s)]
    if kept and _PREAMBLE.match(kept[0]):
        breaking = next((i for i, s in enumerate(kept) if i and _BREAKS.search(s)), None)
        if breaking is not None:
            kept = kept[breaking:]
    return " ".join(kept).strip()


def _closed(line: str) -> str:
    """A line cut before what its last words introduce, ended where its sense ends:
    the dangling words dropped and a full stop, or '…' when a noun introduced the rest."""
    words = line.rstrip(" :;,-").split(" ")
    dropped = False
    while len(words) > 3 and DANGLING.search(words[-1]):
        words.pop()
        dropped = True
    text = " ".join(words).rstrip(" :;,-")
    if re.search(r"[.!?…]$", text):
        return text
    return text + ("." if dropped else ELLIPSIS)


# An environment or setup line ("Environment - Model: … ROCm: MI325X"): where a report stands,
# never what an item does.
ENV_LINE = re.compile(
    r"^\W*(?:environment|env|hardware|gpus?|os|platform|python|pytorch|torch|cuda|rocm|"
    r"driver|model|models|commands?|setup|versions?|vllm version|docker image|image|"
    r"config(?:uration)?|test(?:s| plan| results?)?|results?|baseline|benchmark(?:s| setup)?|"
    r"output|logs?|error|traceback|steps?)\s*(?:[:：=]|-\s+\w+\s*:)",
    re.I,
)
# Never the sentence a reason quotes: an environment line, a command, a question, a thanks,
# a sign-off, a note that AI helped write it.
BOILERPLATE = re.compile(
    ENV_LINE.pattern
    + r"|pip install|vllm serve|python -m|\bpytest\b|lm_eval|^\W*\$ |^\W*(?:export|cd|git) "
    r"|\?$|^\W*thanks?\b|^\W*thank you|signed-off-by|co-authored-by"
    r"|\bAI[- ]assist\w*|\b(?:written|generated|assisted) (?:with|by) "
    r"(?:AI|an? LLM|Claude|ChatGPT|Copilot|Cursor)",
    re.I,
)
_GREETING = re.compile(r"^(?:hi|hello|hey|dear)\b[^.!?]{0,40}[,!.]?$", re.I)
# Git's own revert body names a commit hash: nothing a reader can use (the story line says
# which PR it reverts).
_REVERT_SHA = re.compile(r"^this reverts commit [0-9a-f]{7,40}\.?$", re.I)


# A line that is a command and nothing more (`pytest tests/x.py -v`): how to run a test,
# not what the change does.
_BARE_COMMAND = re.compile(
    r"^`?(?:\$ )?(?:pytest|python3?|pip3?|vllm (?:serve|bench)|bash|sh|git|docker|make|"
    r"cmake|uv|lm_eval|torchrun|export|cd)\b(?:[^.!?]|[.!?](?=\S))*`?$"
)
# A template's heading left as a line: "Purpose", "Test Plan", "Test Result".
_TEMPLATE_HEADING = re.compile(
    r"^(?:purpose|summary|motivation|test plan|test results?|description|changes|"
    r"what does this pr do\??|essential elements[^.]*)\s*:?$",
    re.I,
)
_SAYS_NOTHING = (
    _ONLY_REFERENCES,
    _GREETING,
    _REVERT_SHA,
    _STATUS_NOTE,
    _BARE_COMMAND,
    _TEMPLATE_HEADING,
)


def _join(lines: list[str]) -> str:
    """A paragraph's lines as one line; list items are separated by '; '."""
    out: list[str] = []
    for raw in lines:
        line = _QUOTE_MARK.sub("", raw).strip()
        if not line:
            continue
        item = _LIST_MARK.match(line)
        line = _LIST_MARK.sub("", line).strip()
        if out and item and not re.search(r"[.:;,!?]$", out[-1]):
            out[-1] += ";"
        out.append(line)
    return " ".join(out)


def _inline(text: str, repo: str = "") -> str:
    """Markdown inline syntax reduced to text; code spans kept exactly as written; an item
    URL becomes `#N` in this repository, `owner/name#N` in another."""
    spans: list[str] = []

    def item_ref(match: re.Match[str]) -> str:
        other = match.group("repo")
        return (
            f"#{match.group('n')}"
            if other.lower() == repo.lower()
            else f"{other}#{match.group('n')}"
        )

    def keep(match: re.Match[str]) -> str:
        spans.append(match.group(0))
        return f"\x00{len(spans) - 1}\x00"

    text = _CODE.sub(keep, text)
    text = _IMAGE.sub("", text)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = _ITEM_URL.sub(item_ref, text)
    text = _URL.sub("", text)
    text = _HTML.sub("", text)
    text = _STRUCK.sub("", text)  # struck-through text is what the author took back
    text = _EMPHASIS.sub(lambda m: m.group(2) or m.group(3) or m.group(4) or "", text)
    text = " ".join(text.split())
    text = re.sub(r"\s+([,.;:!?])", r"\1", text)
    text = re.sub(r"\(\s*\)", "", text)
    return re.sub(r"\x00(\d+)\x00", lambda m: spans[int(m.group(1))], text).strip(" :;,-")


def cut(line: str, limit: int) -> str:
    """At most `limit` characters: whole sentences if they fit, else words, then '…' (a
    code span is kept whole or left out whole)."""
    if len(line) <= limit:
        return line
    window = line[: limit + 1]
    ends = _sentence_ends(window, limit)
    if ends and ends[-1] >= limit // 3:
        return line[: ends[-1]].strip()
    cut = window[: limit - 1].rstrip()
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    if cut.count("`") % 2 and cut.rfind("`") > limit // 3:
        cut = cut[: cut.rfind("`")].rstrip()  # not inside a code span: it would run on
    words = cut.rstrip(" ,;:-(").split(" ")
    while len(words) > 3 and DANGLING.search(words[-1]):  # not "…when the text model is…"
        words.pop()
    return " ".join(words).rstrip(" ,;:-(") + ELLIPSIS


def whole(line: str, limit: int) -> str:
    """At most `limit` characters of whole sentences or list items ("a; b; c"), "" when the
    first alone is longer: what a model is given to translate, since one given a sentence
    cut short finishes it ("…microbenchmarking data across…" became "across devices"); a
    line already cut (a stored excerpt's end) loses its last, cut sentence."""
    if len(line) <= limit and not line.endswith(ELLIPSIS):
        return line
    window = line[: limit + 1].removesuffix(ELLIPSIS)
    items = [m.start() for m in re.finditer(r";\s", window)]
    return line[: max([*_sentence_ends(window, limit), *items], default=0)].strip()


def _sentence_ends(window: str, limit: int) -> list[int]:
    """Where the sentences of `window` end within `limit` characters ("e.g." ends none)."""
    found = (m.end() for m in _SENTENCE_END.finditer(window))
    return [end for end in found if end <= limit and not _ABBREVIATION.search(window[:end])]


def says_nothing(line: str) -> bool:
    """A line that says nothing of the item: only references, a greeting, git's revert
    line, a status note, a bare command, a template heading."""
    return any(p.match(line) for p in _SAYS_NOTHING)
