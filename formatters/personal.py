"""A personal digest drawn: one outline section (its reasons as blocks, a line per item),
then Markdown, or one chat message per platform through the renderers' one-message form
(the review queue's too). Both languages; titles, logins, labels and paths are strangers'
text, cleaned and escaped by each renderer."""

from __future__ import annotations

from typing import Any

from bot.model.personal import MINE, REASONS, PersonalDigest, PersonalEntry
from bot.model.windows import format_local
from formatters import outline as ol
from formatters import wording as w
from formatters._text import item_url

EVENT_TYPE = "vllm_personal_digest"


def personal_title(digest: PersonalDigest, lang: str) -> str:
    key = "personal_title" if digest.repo == "vllm-project/vllm" else "personal_title_other"
    return w.text(lang, key, repo=digest.repo, label=digest.window.label)


def personal_what(digest: PersonalDigest, lang: str) -> str:
    """What the subscription selects, as a reader says it: "label rocm"."""
    rule = digest.filter
    if rule.kind == MINE:
        return w.text(lang, "personal_mine", login=digest.login or "?")
    return w.text(lang, f"personal_{rule.kind}", value=rule.value)


def personal_context(digest: PersonalDigest, lang: str) -> str:
    window = f"{format_local(digest.window.start)} ~ {format_local(digest.window.end)}"
    count = w.text(lang, "personal_count", n=len(digest.entries))
    return w.SEP[lang].join((personal_what(digest, lang), count, window))


def personal_section(digest: PersonalDigest, lang: str) -> ol.Section:
    """The digest's entries, a block per reason in `REASONS` order."""
    blocks = []
    for reason in REASONS:
        entries = [e for e in digest.entries if e.reason == reason]
        if entries:
            heading = w.text(lang, f"reason_{reason}", n=len(entries))
            lines = tuple(_entry(digest, e, lang) for e in entries)
            blocks.append(ol.Block(heading, lines, "list"))
    if digest.ci:  # `mine`: CI failures on main their PRs are suspected of
        from formatters.ci_outline import suspected_block

        blocks.append(suspected_block(digest.ci, digest.window.end, lang))
    if not blocks:  # shown on asking (`vllm-report digest`); the daily run sends none
        said = w.text(lang, "personal_nothing", what=personal_what(digest, lang))
        blocks.append(ol.Block(None, (ol.Entry((ol.Our(said),)),), "text"))
    return ol.Section("personal", personal_title(digest, lang), tuple(blocks))


def _entry(digest: PersonalDigest, entry: PersonalEntry, lang: str) -> ol.Entry:
    item = digest.items[entry.number]
    state = w.STATES[lang].get(entry.state, entry.state)
    if entry.decision in ("approved", "changes_requested"):  # not GitHub's default
        state += w.SEP[lang] + w.text(lang, f"decision_{entry.decision}")
    head: list[ol.Part] = [
        ol.Ref(entry.number, item_url(digest.repo, item.kind, entry.number)),
        ol.Our(" "),
        ol.Theirs(item.title),
        ol.Our(" — " + state),
    ]
    if item.author and entry.reason != "yours":
        head += [ol.Our(w.SEP[lang]), ol.Theirs(item.author, ol.LOGIN_LIMIT)]
    if entry.matched and entry.reason == "path":
        head += [ol.Our(w.SEP[lang]), ol.Theirs(w.text(lang, "path_matched", path=entry.matched))]
    if entry.matched and entry.reason == "commented":
        head += [ol.Our(w.SEP[lang]), ol.Theirs(w.text(lang, "commented_by", who=entry.matched))]
    return ol.Entry(tuple(head), (), entry.number)


def render_personal_markdown(digest: PersonalDigest, lang: str = "en") -> str:
    from formatters.markdown import section_text

    section = personal_section(digest, lang)
    head = f"# {personal_title(digest, lang)}\n\n> {personal_context(digest, lang)}"
    body = section_text(section).split("\n", 1)[1].lstrip("\n")  # the title is the page's
    return f"{head}\n\n{body}\n"


def personal_parts(
    platform: str, digest: PersonalDigest, lang: str
) -> list[tuple[str, dict[str, Any]]]:
    """(part name, payload) pairs for delivery: a personal digest is one message."""
    title, context = personal_title(digest, lang), personal_context(digest, lang)
    section = personal_section(digest, lang)
    if platform == "slack":
        from formatters.slack_blocks import render_slack_single

        payload = {
            "repo": digest.repo,
            "window": digest.window.label,
            "filter": digest.filter.key,
            "part": "personal",
        }
        meta = {"event_type": EVENT_TYPE, "event_payload": payload}
        return [("personal", m) for m in render_slack_single(title, context, section, lang, meta)]
    if platform == "discord":
        from formatters.discord_embeds import render_discord_single

        return [("personal", m) for m in render_discord_single(title, context, section, lang)]
    raise ValueError(f"no chat renderer for {platform!r}")
