"""A personal digest drawn: one outline section (its reasons as blocks, a line per item),
then Markdown, or one message (`combined_message`) that bot.platforms draws for a platform
through its one-message form (the review queue's too). Both languages; titles, logins,
labels and paths are strangers' text, cleaned and escaped by each renderer.

A person with several subscriptions gets them in one message (`combined_parts`): a group
per subscription, headed by what it selects and how many items; an item is listed in the
first group that selects it, and a later group that selects it too names it on one "also"
line (its count still includes it). A weekly digest's days the archive does not hold are
said in one line at the top."""

from __future__ import annotations

from collections.abc import Sequence

from bot.features.personal import phrases
from bot.features.personal.model import MINE, REASONS, PersonalDigest, PersonalEntry
from bot.model.outline_parts import OneMessage
from bot.model.windows import format_local
from bot.platforms.registry import Parts, platform_named
from formatters import outline as ol
from formatters import wording as w
from formatters._text import item_url

EVENT_TYPE = "vllm_personal_digest"


ALSO_SHOWN = 20  # numbers named on an "also" line; more are counted


def personal_title(digest: PersonalDigest, lang: str) -> str:
    return _title(digest.repo, digest.window.label, lang)


def _title(repo: str, label: str, lang: str) -> str:
    key = "title" if repo == "vllm-project/vllm" else "title_other"
    return phrases.said(lang, key, repo=repo, label=label)


def personal_what(digest: PersonalDigest, lang: str) -> str:
    """What the subscription selects, as a reader says it: "label rocm"."""
    rule = digest.filter
    if rule.kind == MINE:
        return phrases.said(lang, "what_mine", login=digest.login or "?")
    return phrases.said(lang, f"what_{rule.kind}", value=rule.value)


def personal_context(digest: PersonalDigest, lang: str) -> str:
    window = f"{format_local(digest.window.start)} ~ {format_local(digest.window.end)}"
    count = phrases.said(lang, "count", n=len(digest.entries))
    return w.SEP[lang].join((personal_what(digest, lang), count, window))


def personal_section(digest: PersonalDigest, lang: str) -> ol.Section:
    """The digest's entries, a block per reason in `REASONS` order."""
    blocks = [*_missing_blocks([digest], lang), *_reason_blocks(digest, digest.entries, lang)]
    if digest.empty:  # shown on asking (`vllm-report digest`) only
        said = phrases.said(lang, "nothing", what=personal_what(digest, lang))
        blocks.append(ol.Block(None, (ol.Entry((ol.Our(said),)),), "text"))
    return ol.Section("personal", personal_title(digest, lang), tuple(blocks))


def combined_section(digests: Sequence[PersonalDigest], lang: str) -> ol.Section:
    """Several subscriptions' digests as one section: a group per digest, in the order
    given, each item listed once (in the first group that selects it)."""
    if len(digests) == 1:  # one subscription reads as it always did
        return personal_section(digests[0], lang)
    blocks = _missing_blocks(digests, lang)
    label = _label(digests)
    listed: set[int] = set()
    for digest in digests:
        what = personal_what(digest, lang)
        if digest.window.label != label:  # a daily group in a weekly day's message
            what += w.SEP[lang] + digest.window.label
        heading = phrases.said(lang, "group", what=what, n=len(digest.entries))
        blocks.append(ol.Block(heading, (), "list"))
        new = [e for e in digest.entries if e.number not in listed]
        blocks += _reason_blocks(digest, new, lang, headed=digest.filter.kind == MINE)
        also = [e.number for e in digest.entries if e.number in listed]
        if also:
            blocks.append(ol.Block(None, (), "list", rest=_also(digest, also, lang)))
        listed.update(e.number for e in new)
    return ol.Section("personal", _title(digests[0].repo, label, lang), tuple(blocks))


def _reason_blocks(
    digest: PersonalDigest, entries: Sequence[PersonalEntry], lang: str, headed: bool = True
) -> list[ol.Block]:
    """`entries` a block per reason in `REASONS` order (headed: under the reason's heading),
    then, for `mine`, what other features tell its reader."""
    blocks = []
    for reason in REASONS:
        chosen = [e for e in entries if e.reason == reason]
        if chosen:
            heading = phrases.said(lang, f"reason_{reason}", n=len(chosen)) if headed else None
            lines = tuple(_entry(digest, e, lang) for e in chosen)
            blocks.append(ol.Block(heading, lines, "list"))
    blocks += [news.block(digest.window.end, lang) for news in digest.news]
    return blocks


def _also(digest: PersonalDigest, numbers: Sequence[int], lang: str) -> ol.Line:
    """ "Also selected, listed above: #1, #2": what a group shares with earlier ones."""
    parts: list[ol.Part] = [ol.Our(phrases.said(lang, "also"))]
    for index, number in enumerate(numbers[:ALSO_SHOWN]):
        if index:
            parts.append(ol.Our(w.LIST_SEP[lang]))
        parts.append(ol.Ref(number, item_url(digest.repo, digest.items[number].kind, number)))
    if len(numbers) > ALSO_SHOWN:
        parts.append(ol.Our(phrases.said(lang, "also_more", n=len(numbers) - ALSO_SHOWN)))
    return tuple(parts)


def _missing_blocks(digests: Sequence[PersonalDigest], lang: str) -> list[ol.Block]:
    """One line naming the days the archive does not hold (none when it holds them all)."""
    days = sorted({day for digest in digests for day in digest.missing})
    if not days:
        return []
    named = days[-1]
    if len(days) > 1:
        named = w.LIST_SEP[lang].join(days[:-1]) + phrases.said(lang, "and") + named
    key = "missing_one" if len(days) == 1 else "missing"
    return [ol.Block(None, (), "list", rest=(ol.Our(phrases.said(lang, key, days=named)),))]


def _label(digests: Sequence[PersonalDigest]) -> str:
    """The window a message of these digests names: the widest (a weekly day's week)."""
    return min(digests, key=lambda d: d.window.start).window.label


def combined_context(digests: Sequence[PersonalDigest], lang: str) -> str:
    if len(digests) == 1:
        return personal_context(digests[0], lang)
    widest = min(digests, key=lambda d: d.window.start).window
    window = f"{format_local(widest.start)} ~ {format_local(widest.end)}"
    items = len({e.number for digest in digests for e in digest.entries})
    subscriptions = phrases.said(lang, "subscriptions", n=len(digests))
    return w.SEP[lang].join((subscriptions, phrases.said(lang, "count", n=items), window))


def _entry(digest: PersonalDigest, entry: PersonalEntry, lang: str) -> ol.Entry:
    item = digest.items[entry.number]
    state = w.STATES[lang].get(entry.state, entry.state)
    if entry.decision in ("approved", "changes_requested"):  # not GitHub's default
        state += w.SEP[lang] + phrases.said(lang, f"decision_{entry.decision}")
    head: list[ol.Part] = [
        ol.Ref(entry.number, item_url(digest.repo, item.kind, entry.number)),
        ol.Our(" "),
        ol.Theirs(item.title),
        ol.Our(" — " + state),
    ]
    if item.author and entry.reason != "yours":
        head += [ol.Our(w.SEP[lang]), ol.Theirs(item.author, ol.LOGIN_LIMIT)]
    if entry.matched and entry.reason == "path":
        head += [
            ol.Our(w.SEP[lang]),
            ol.Theirs(phrases.said(lang, "path_matched", path=entry.matched)),
        ]
    if entry.matched and entry.reason == "commented":
        head += [
            ol.Our(w.SEP[lang]),
            ol.Theirs(phrases.said(lang, "commented_by", who=entry.matched)),
        ]
    return ol.Entry(tuple(head), (), entry.number)


def render_personal_markdown(digest: PersonalDigest, lang: str = "en") -> str:
    from formatters.markdown import section_text

    section = personal_section(digest, lang)
    head = f"# {personal_title(digest, lang)}\n\n> {personal_context(digest, lang)}"
    body = section_text(section).split("\n", 1)[1].lstrip("\n")  # the title is the page's
    return f"{head}\n\n{body}\n"


def combined_message(digests: Sequence[PersonalDigest], lang: str) -> OneMessage:
    """A person's digests of a run as one message before a platform draws it (each
    platform's one-message drawing cuts the rows that do not fit and says how many)."""
    payload = {
        "repo": digests[0].repo,
        "window": _label(digests),
        "filter": ",".join(d.filter.key for d in digests),
        "part": "personal",
    }
    title = _title(digests[0].repo, _label(digests), lang)
    section = combined_section(digests, lang)
    return OneMessage(title, combined_context(digests, lang), section, EVENT_TYPE, payload)


def combined_parts(platform: str, digests: Sequence[PersonalDigest], lang: str) -> Parts:
    """One message for a person's digests of a run, within the platform's limits."""
    drawn = platform_named(platform).one_message(combined_message(digests, lang), lang)
    return [("personal", m) for m in drawn]


def personal_parts(platform: str, digest: PersonalDigest, lang: str) -> Parts:
    """(part name, payload) pairs for delivery: a personal digest is one message."""
    return combined_parts(platform, [digest], lang)
