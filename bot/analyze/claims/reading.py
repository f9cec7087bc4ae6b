"""A report's text read as sentences a writer claims something in.

Each line is read with what it stands in: the vendor section (a 🎯 heading), the paragraph
(a list item and the lines indented under it: "1. Issue #38256 …" then "• 观点与状态：…"),
and what in it is a quote rather than the writer's word. Titles written after their `#N`,
and an item's own words copied from its description, are quotes: "Enable tcmalloc by
default" says nothing about who wrote #37607. Quotes are blanked with FILL, character for
character, so a claim found in the blanked text can be shown in the text as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from bot.analyze.claims.facts import Facts, normal

FILL = "\x00"
REF = re.compile(r"(?<![\w&/])#(\d{2,7})\b")
# A link to an item, as Markdown or Slack write it: read as the `#N` it shows.
_LINK = re.compile(r"\[(#\d{2,7})\]\([^)\s]*\)|<[^>|\s]+\|(#\d{2,7})>")
_SENTENCE_END = re.compile(r"(?<=[。！？；])|(?<=[.!?;])\s+(?=[A-Z0-9*#\[(`\"'“])")
# A vendor's section heading ("### 🎯 AMD/ROCm 生态相关动态"); a line of its figures
# ("🎯 AMD / ROCm: 11 merged PRs") is no heading.
_VENDOR_HEADING = re.compile(r"^\s*(?:#{1,6}\s*)?(?:\d+\.\s*)?[^\n]{0,8}🎯\s*(?P<name>[^\n:：]+)$")
_APPENDIX = re.compile(r"^\s*(?:#{1,6}\s*)?(?:📋\s*)?(?:附录|Appendix)", re.I)
# A heading that opens a section (an emoji's, or a title); a deeper one without an emoji
# heads a part of its section ("### Merged PRs (9)").
_SECTION_HEADING = re.compile(r"^\s*#{1,2}\s+\S|^\s*(?:#{1,6}\s*)?[📊💬🔥🛠📈💡📋]")
_SUB_HEADING = re.compile(r"^\s*#{3,6}\s+(?=\S)")
_LIST_ITEM = re.compile(r"^(\s*)(?:[-*•+]|\d{1,3}[.)、])\s+")
# Between a `#N` and its title: spaces, a colon, an opening bracket, emphasis, our Chinese
# edition's label of its kind (【修复】).
_BEFORE_TITLE = re.compile(r"[\s:：(（*]*(?:【[^】]{1,12}】)?[\s:：(（*]*")
# A title's tags, which the Chinese edition says in Chinese and leaves out of the quote.
_LEADING_TAGS = re.compile(r"^(?:\s*[\[{][^\]}]{1,40}[\]}]\s*:?)+\s*")
# Where a line's own words break into parts that may each be a quote.
_PARTS = re.compile(r" — | · |；|; |：|: ")
MIN_QUOTE_WORDS = 4


@dataclass(frozen=True)
class Sentence:
    text: str  # as written (links read as their `#N`)
    masked: str  # the same, its quotes blanked with FILL, character for character
    vendor: str | None  # the vendor section it stands in (the heading's name)
    opens_line: bool
    paragraph: int  # sentences of one paragraph share it

    @property
    def plain(self) -> str:
        """The writer's own words: the masked text with each quote cut to one mark."""
        return re.sub(f"{FILL}+", "“”", self.masked)


def sentences(text: str, facts: Facts | None = None) -> Iterator[Sentence]:
    """Every sentence of `text` before its appendix, with where it stands."""
    vendor: str | None = None
    paragraph, indent = 0, -1
    for raw in text.splitlines():
        if _APPENDIX.match(raw):
            return  # the list of every item: titles and logins, no claims of the writer's
        heading = _VENDOR_HEADING.match(raw)
        section = heading is not None or _SECTION_HEADING.match(raw) is not None
        if section:  # a section of its own (a vendor's, the summary …)
            vendor = heading.group("name") if heading is not None else None
        if section or not raw.strip():
            paragraph, indent = paragraph + 1, -1
            continue
        sub = _SUB_HEADING.match(raw)  # "### Merged PRs (9)": read, in its section
        if sub is not None:
            paragraph, indent = paragraph + 1, -1
            raw = raw[sub.end() :]
        listed = _LIST_ITEM.match(raw)
        if listed is not None and (indent < 0 or len(listed.group(1)) <= indent):
            paragraph, indent = paragraph + 1, len(listed.group(1))
        line = _LINK.sub(lambda m: m.group(1) or m.group(2), raw)
        masked = quoted(line, facts) if facts is not None else line
        first = True
        for start, end in _spans(masked):
            said, blanked = line[start:end], masked[start:end]
            stripped = said.strip(" -*>\t")
            if not stripped:
                continue
            offset = said.index(stripped)
            yield Sentence(
                stripped,
                blanked[offset : offset + len(stripped)],
                vendor,
                first,
                paragraph,
            )
            first = False


def _spans(masked: str) -> Iterator[tuple[int, int]]:
    """Where each sentence of a line starts and ends (quotes never break a sentence: they
    are blank here)."""
    start = 0
    for match in _SENTENCE_END.finditer(masked):
        if match.start() > start:
            yield start, match.start()
        start = match.end()
    if start < len(masked):
        yield start, len(masked)


def quoted(line: str, facts: Facts) -> str:
    """`line` with its quotes blanked: each title written after its `#N`, and a part that
    is an item's own words (four words or more, copied from its title or description)."""
    chars = list(line)
    for match in REF.finditer(line):
        item = facts.item(int(match.group(1)))
        if item is not None:
            gap = _BEFORE_TITLE.match(line, match.end())  # it always matches (all optional)
            begin = gap.end() if gap is not None else match.end()
            length = max(
                _title_prefix(line, begin, item.title),
                _title_prefix(line, begin, _LEADING_TAGS.sub("", item.title)),
            )
            for i in range(begin, begin + length):
                chars[i] = FILL
    masked = "".join(chars)
    bodies = _bodies(line, facts)
    for start, end in _quote_parts(masked):
        part = normal(masked[start:end].replace(FILL, " ").strip(" -*>\t✍️").rstrip("…."))
        if len(part.split()) >= MIN_QUOTE_WORDS and (part in facts.quotes or part in bodies):
            masked = masked[:start] + FILL * (end - start) + masked[end:]
    return _quoted_stretches(masked, facts)


# A stretch of Latin text between Chinese words or punctuation ("支持 block fp8 moe by
# fallback to TritonExpert on XPU"), and a quote in quotation marks (「…」, “…”).
_STRETCH = re.compile(r"[A-Za-z0-9`_][^\u4e00-\u9fff「」“”（）【】。；，：、|—·\x00]*")
_MARKED = re.compile(r"(?<=「)[^「」]+(?=」)|(?<=“)[^“”]+(?=”)")
MIN_STRETCH = 12  # characters a stretch needs to be told a quote (not "PR" or "by alice")


def _quoted_stretches(masked: str, facts: Facts) -> str:
    """`masked` with every stretch the items wrote themselves blanked: an English object in
    a Chinese sentence, a quote in quotation marks. A stretch counts when it is found in
    a title, an own line or a description, as `normal` writes them."""
    chars = list(masked)
    # A stretch of English stands between Chinese words only in a Chinese line; in an
    # English line the writer's words are English too (a quote there is marked, or whole).
    chinese = re.search(r"[\u4e00-\u9fff]", masked) is not None
    for pattern in (_MARKED, _STRETCH) if chinese else (_MARKED,):
        for match in pattern.finditer(masked):
            text = match.group(0).strip()
            if REF.search(text):
                continue  # an item's number is the writer's: what is said of it is a claim
            said = normal(text.replace(FILL, " ")).strip(" .…").rstrip("…")
            if len(said) < MIN_STRETCH or len(said.split()) < 2 or not said.strip():
                continue
            if said in facts.texts:
                for i in range(match.start(), match.end()):
                    chars[i] = FILL
    return "".join(chars)


def _bodies(line: str, facts: Facts) -> str:
    """The descriptions of the items a line names, as `normal` writes them."""
    found = []
    for match in REF.finditer(line):
        item = facts.item(int(match.group(1)))
        if item is not None and item.body:
            found.append(normal(item.body))
    return "\x00".join(found)


def _quote_parts(masked: str) -> Iterator[tuple[int, int]]:
    """The line whole, then its parts between separators (" — ", " · ", ": " …)."""
    yield 0, len(masked)
    start = 0
    for match in _PARTS.finditer(masked):
        yield start, match.start()
        start = match.end()
    yield start, len(masked)


def _title_prefix(line: str, begin: int, title: str) -> int:
    """How many characters from `begin` write `title` or a cut of it (case and runs of
    spaces aside; a cut ends in "…"); 0 when fewer than ten characters, or less than the
    whole of a shorter title, agree."""
    i, j = begin, 0
    while i < len(line) and j < len(title):
        a, b = line[i], title[j]
        if a.isspace() and b.isspace():
            while i < len(line) and line[i].isspace():
                i += 1
            while j < len(title) and title[j].isspace():
                j += 1
            continue
        if a.lower() != b.lower():
            break
        i, j = i + 1, j + 1
    if j < min(len(title), 10):
        return 0
    if j < len(title):  # a cut: it ends at the cut mark, or it is no title
        rest = line[i:].lstrip()
        if not rest.startswith(("…", "...")):
            return i - begin if j >= 24 else 0
        i = line.index(rest[0], i) + (1 if rest.startswith("…") else 3)
    return i - begin
