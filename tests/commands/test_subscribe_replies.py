"""/vllm-subscribe and /vllm-unsubscribe as a person types them in a Slack channel, signed
and answered through Bolt: what the person reads back, and what is stored.

`mine` goes to the person's DMs whatever channel it is typed in (no channel permission
asked); bad words get their own error before anyone is asked for permission; Slack's link
markup is read as typed or refused, never swapped for another path; a GitHub failure says
GitHub could not be asked; unsubscribing speaks of unsubscribing; bidi and other invisible
characters typed are shown escaped, never echoed raw.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from bot.app import commands, open_bot
from bot.commands import Commands, Said
from bot.features.personal.store import GitHubLinks
from bot.model.rules import load_rules
from bot.platforms.registry import DISCORD
from bot.platforms.slack.app import build_slack_app
from config.settings import load_settings
from tests.fakes.github_api import FakeGitHub, Fault
from tests.fakes.slack_api import FakeSlack, signed_command

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
NEEDS_PERMISSION = "subscribing this channel needs permission to manage it"


@dataclass
class Chat:
    slack: FakeSlack
    github: FakeGitHub
    commands: Commands

    def says(self, command: str, text: str, *, user: str = "U2") -> str:
        """`/command text` typed by `user` in channel C1 (not an admin unless listed in the
        fake's admins): the one answer Slack was given."""
        app = build_slack_app(load_settings(), self.commands)

        async def scenario() -> None:
            from slack_bolt.request.async_request import AsyncBoltRequest

            body, headers = signed_command(self.slack, command, text, SECRET, user=user)
            response = await app.async_dispatch(AsyncBoltRequest(body=body, headers=headers))
            assert response.status == 200
            while others := [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]:
                await asyncio.gather(*others, return_exceptions=True)

        before = len(self.slack.responses)
        asyncio.run(scenario())
        (said,) = [args["text"] for _, args in self.slack.responses[before:]]
        return str(said)

    def stored(self) -> list[tuple[str, str, str]]:
        return [(s.target_kind, s.target_id, s.topic) for s in self.commands.services.store.list()]


@pytest.fixture
def chat(
    fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> Iterator[Chat]:
    with FakeSlack() as slack:
        for name, value in {
            "DATABASE_URL": f"sqlite:///{tmp_path}/store.sqlite3",
            "GITHUB_TOKEN": "ghp-test-token",
            "VLLM_REPORT_GITHUB_RETRIES": "1",
            "SLACK_BOT_TOKEN": "xoxb-test",
            "SLACK_SIGNING_SECRET": SECRET,
            "SLACK_API_URL": slack.api_url,
        }.items():
            monkeypatch.setenv(name, value)
        bot = open_bot(load_settings(), load_rules())
        try:
            yield Chat(slack, fake_github, commands(bot))
        finally:
            bot.close()


def link(chat: Chat, user: str, login: str) -> None:
    links = chat.commands.services.feature(GitHubLinks)
    assert links is not None
    links.link("slack", user, login, datetime.now(UTC))


# -- 1. `mine` is the person's own: their DMs, whatever channel it is typed in -------------


def test_mine_typed_in_a_channel_goes_to_the_dms_without_channel_permission(chat: Chat) -> None:
    link(chat, "U2", "tjtanaa")
    assert chat.says("/vllm-subscribe", "mine") == (
        "`mine` is yours alone, so it goes to your DMs: "
        "your DMs will get the mine digest after each daily report"
    )
    assert chat.stored() == [("dm", "U2", "mine")]
    assert chat.says("/vllm-subscribe", "mine here") == (
        "`mine` is yours alone, so never a channel's: `/vllm-subscribe mine` sends it to your DMs"
    )
    assert chat.says("/vllm-unsubscribe", "mine") == (
        "`mine` is yours alone, so it is in your DMs: your DMs will no longer get the mine digest"
    )
    assert chat.stored() == []


# -- 2. the words are checked first, the permission after ----------------------------------


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("label:", "say what to match after `label:`, e.g. `label:rocm`"),
        ("path:a b", "a path has no spaces: e.g. `path:vllm/v1/attention/*`"),
        (
            "label:good first issue",
            "`first issue` is not `here`, `dm`, `daily`, `weekly` or `off`; "
            'a label with spaces goes in quotes: `label:"good first issue"`',
        ),
        ("author:a b", "`a b` is not a GitHub login (letters, digits and dashes)"),
        ("labels:rocm", "`labels:` is not a filter: say `label:&lt;name&gt;`"),
        ("label:rocmm", "vllm-project/vllm has no label `rocmm`: did you mean `label:rocm`?"),
        ("author:nobody-at-all", "GitHub has no user `nobody-at-all`: check the spelling"),
        ("zzz", "unknown topic 'zzz'"),
    ],
)
def test_a_bad_filter_gets_its_own_error_before_permission_is_asked(
    chat: Chat, text: str, says: str
) -> None:
    """From someone who may not manage the channel: the words' own error, nothing stored."""
    said = chat.says("/vllm-subscribe", text)
    assert said.startswith(says), said
    assert NEEDS_PERMISSION not in said
    assert chat.stored() == []


def test_mine_without_a_linked_login_says_so_before_permission(chat: Chat) -> None:
    assert chat.says("/vllm-subscribe", "mine") == (
        "link your GitHub login first: `/vllm-me github &lt;login&gt;`"
    )
    assert chat.stored() == []


# -- 3. Slack's link markup: read as typed, or refused; never another path ----------------


def test_a_path_slack_auto_linked_is_read_as_typed(chat: Chat) -> None:
    """Slack sends `x.py` typed as `<http://x.py|x.py>` (its auto-link: the label is the URL
    without its scheme), also inside a longer path: the path stored is the one typed."""
    said = chat.says("/vllm-subscribe", "path:vllm/v1/<http://x.py|x.py> dm")
    assert said == "your DMs will get the path:vllm/v1/x.py digest after each daily report"
    said = chat.says("/vllm-subscribe", "path:<http://setup.py|setup.py> dm")
    assert said == "your DMs will get the path:setup.py digest after each daily report"
    assert sorted(chat.stored()) == [
        ("dm", "U2", "path:setup.py"),
        ("dm", "U2", "path:vllm/v1/x.py"),
    ]


def test_a_link_whose_text_is_not_its_url_is_refused(chat: Chat) -> None:
    """`<http://x|y>` shows `y` but links elsewhere: not Slack's auto-link of what was typed,
    so neither `y` nor `x` is stored; the person is told to type it as plain text."""
    said = chat.says("/vllm-subscribe", "path:<http://x|y> dm")
    assert said == (
        "`y` came as a link to http://x, not as typed text: type it again as plain text "
        "(not pasted as a link)"
    )
    assert chat.stored() == []


# -- 4. a failed GitHub lookup says GitHub could not be asked --------------------------------


@pytest.mark.parametrize(
    ("fault", "why"),
    [
        (Fault(status=502), "kept failing after 1 retries (too many 502 error responses)"),
        (Fault(status=403, body={"message": "Forbidden"}), "GitHub answered 403: Forbidden"),
        (Fault(status=404, body={"message": "Not Found"}), "it answered 404"),
    ],
)
def test_a_failed_label_lookup_says_github_could_not_be_asked(
    chat: Chat, fault: Fault, why: str
) -> None:
    chat.github.fault_rule = lambda index, path: fault if path.endswith("/labels") else None
    said = chat.says("/vllm-subscribe", "label:rocm dm")
    assert said.startswith(
        "could not subscribe: GitHub could not be asked for vllm-project/vllm's labels; "
        "try again later ("
    ), said
    assert why in said
    assert "has no repository" not in said and "does not exist" not in said
    assert chat.stored() == []


# -- 5. unsubscribing speaks of unsubscribing ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (
            "amd",
            "unsubscribing this channel needs permission to manage it; "
            "`/vllm-unsubscribe amd dm` stops the digest in your DMs instead",
        ),
        ("amd dm", "your DMs get no AMD / ROCm digest: nothing to unsubscribe"),
        (
            "",
            "say which digest to stop: `/vllm-unsubscribe amd` (`/vllm-subscriptions` lists them)",
        ),
        (
            "label:rocm weekly dm",
            "`weekly` is how often a digest comes, not one to stop: "
            "`/vllm-unsubscribe label:rocm` stops it",
        ),
    ],
)
def test_unsubscribe_answers_in_unsubscribe_words(chat: Chat, text: str, says: str) -> None:
    said = chat.says("/vllm-unsubscribe", text)
    assert said.startswith(says), said
    assert not any(word in said for word in ("will get", "will receive", "/vllm-subscribe "))


# -- 6. what a person typed is echoed without its bidi or invisible characters ------------


@pytest.mark.parametrize("hidden", ["\u202e", "\u2066", "\u200b", "\x07"])
def test_bidi_and_control_characters_typed_are_echoed_escaped(chat: Chat, hidden: str) -> None:
    said = chat.says("/vllm-subscribe", f"amd{hidden}x dm")
    shown = f"\\u{ord(hidden):04x}"
    assert said.startswith(f"unknown topic 'amd{shown}x'"), said
    assert hidden not in said
    drawn = Said(f"unknown topic 'amd{hidden}x'").draw(DISCORD)[0]["content"]
    assert hidden not in drawn and f"amd\\{shown}x" in drawn  # Discord shows `\` escaped
    assert chat.stored() == []
