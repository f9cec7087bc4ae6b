"""Words typed as text (Slack sends a command's arguments as one string) sorted into the
command's options by their kind, so Slack and Discord give `Command.request` the same
values: `2026-03-26 amd zh public` → {when: 2026-03-26, topic: amd, lang: zh, public: True}.

Only sorted here; the values are checked by the command (a topic's did-you-mean, a window
too long). An unknown word gets one sentence with the nearest word the command knows.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from bot.model.asking import REPO_NAME, did_you_mean
from bot.model.errors import InputError

if TYPE_CHECKING:
    from bot.commands.services import Services

OptionKind = Literal["when", "section", "topic", "repo", "lang", "public", "where", "word"]


class CommandError(InputError):
    """Bad input; the message is the whole answer."""


@dataclass(frozen=True)
class Option:
    """One thing a command takes.

    `kind` says which words are it when typed as text (Slack): a date or window, a section,
    a topic, `owner/name`, `en`/`zh`, `public`, `here`/`dm`, or `word` (any other word: a
    plugin's name). On Discord it is a typed option of the same name; `choices` are fixed
    (Discord shows them as a list), `complete` is answered from the rules as one types.
    """

    name: str
    kind: OptionKind
    description: str
    required: bool = False
    choices: tuple[str, ...] = ()
    complete: Literal["topic", "section"] | None = None

    @property
    def flag(self) -> bool:
        return self.kind == "public"


MAX_WORDS = 12
_WHEN = re.compile(
    r"^(\d{4}-\d{2}-\d{2}(\.\.\d{4}-\d{2}-\d{2})?|\d{1,3}d|today|yesterday"
    r"|v?\d+(\.\d+)+[a-z0-9]*\.\.v?\d+(\.\d+)+[a-z0-9]*)$"  # v0.32.0..v0.33.0
)
# Which kind takes a word first: a topic that is also a section is the topic.
_ORDER = ("public", "lang", "topic", "section", "repo", "when", "where", "word")


def sort_words(
    words: list[str], options: Sequence[Option], example: str, services: Services
) -> dict[str, Any]:
    """The option values the words give (`example`: what to try instead of bad words)."""
    if len(words) > MAX_WORDS:
        raise CommandError(f"too many words ({len(words)}); try `{example}`")
    by_kind: dict[str, str] = {option.kind: option.name for option in options}
    topics = services.topic_keys
    sections = services.section_words
    values: dict[str, Any] = {}
    when: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if "when" in by_kind and word.lower() == "last":  # "last 7 days": read as one window
            when += words[index : index + 3]
            index += 3
            continue
        if "when" in by_kind and word.lower() == "since":  # "since v0.33.0", "since last release"
            said = (
                3 if [w.lower() for w in words[index + 1 : index + 3]] == ["last", "release"] else 2
            )
            when += words[index : index + said]
            index += said
            continue
        kind = next((k for k in _ORDER if k in by_kind and _is(k, word, topics, sections)), None)
        if kind is None:
            raise CommandError(_unknown(example, word, by_kind, topics, sections))
        name = by_kind[kind]
        if kind == "when":
            when.append(word)
        elif kind == "word" and name in values:
            raise CommandError(f"one {name} at a time ('{values[name]}', then '{word}')")
        else:
            values[name] = True if kind == "public" else _value(kind, word)
        index += 1
    if when:
        values[by_kind["when"]] = " ".join(when)
    return values


def _is(kind: str, word: str, topics: list[str], sections: Sequence[str]) -> bool:
    low = word.lower()
    match kind:
        case "public":
            return low in ("public", "post")
        case "lang":
            return low in ("en", "zh")
        case "topic":
            return low in topics
        case "section":
            return low in sections
        case "repo":
            return bool(REPO_NAME.match(word))
        case "when":
            return bool(_WHEN.match(low))
        case "where":
            return low in ("here", "dm")
        case _:  # "word": anything else (a plugin's name, checked by the command)
            return True


def _value(kind: str, word: str) -> str:
    return word if kind in ("repo", "word") else word.lower()


def _unknown(
    example: str,
    word: str,
    by_kind: Mapping[str, str],
    topics: list[str],
    sections: Sequence[str],
) -> str:
    vocabulary = [
        *(sections if "section" in by_kind else ()),
        *(topics if "topic" in by_kind else ()),
        *(("public",) if "public" in by_kind else ()),
        *(("en", "zh") if "lang" in by_kind else ()),
        *(("today", "yesterday") if "when" in by_kind else ()),
    ]
    low = word.lower()
    close = difflib.get_close_matches(low, vocabulary, n=1, cutoff=0.6)
    kind = "topic" if close and close[0] in topics else "word"
    return (
        f"unknown {kind} '{word}'{did_you_mean(low, vocabulary)} Try `{example}` or "
        "`/vllm-topics` for the topics."
    )
