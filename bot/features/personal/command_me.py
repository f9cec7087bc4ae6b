"""`/vllm-me github <login>`, `/vllm-me forget`, `/vllm-me`: link your chat account to your
GitHub login (what `mine` digests select by), unlink it, or see it. Each person's link is
their own: the command only ever reads and writes the asker's row."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.commands.answers import Answer, Said
from bot.commands.base import Asker, Command, Request, text
from bot.commands.filters import LOGIN
from bot.commands.services import Services
from bot.commands.words import CommandError, Option
from bot.features.personal.store import GitHubLinks

ACTIONS = ("github", "forget", "show")
USAGE = "say `/vllm-me github <login>`, `/vllm-me forget` or `/vllm-me`"


@dataclass(frozen=True)
class MeRequest(Request):
    action: str = "show"
    login: str = ""


@dataclass(frozen=True)
class Checked:
    links: GitHubLinks
    action: str
    login: str


class Me(Command[MeRequest, Checked]):
    name = "vllm-me"
    description = "Link your GitHub login (for `mine` digests), see it, or forget it"
    options = (
        Option("action", "word", "github <login>, forget, or show", choices=ACTIONS),
        Option("login", "word", "your GitHub login (with github)"),
    )
    example = "/vllm-me github alice"

    def read_words(self, words: list[str], services: Services) -> dict[str, Any]:
        if len(words) > 2:
            raise CommandError(f"too many words: {USAGE}")
        return {"action": words[0].lower() if words else "show", "login": " ".join(words[1:])}

    def request(self, values: Mapping[str, Any]) -> MeRequest:
        return MeRequest(
            action=(text(values.get("action")) or "show").lower(),
            login=text(values.get("login")) or "",
        )

    def check(self, services: Services, request: MeRequest) -> Checked:
        links = services.feature(GitHubLinks)
        if links is None:
            raise CommandError("GitHub logins are not kept here")
        if request.action not in ACTIONS:
            raise CommandError(f"`{request.action}` is not something /vllm-me does: {USAGE}")
        login = request.login.strip().removeprefix("@")
        if request.action == "github":
            if not login:
                raise CommandError("say your GitHub login: `/vllm-me github alice`")
            if not LOGIN.match(login):
                raise CommandError(f"`{login}` is not a GitHub login (letters, digits and dashes)")
        elif login:
            raise CommandError(f"`{request.action}` takes no login: {USAGE}")
        return Checked(links, request.action, login)

    async def answer(self, services: Services, asker: Asker, checked: Checked) -> Answer:
        links, platform, user = checked.links, asker.platform, asker.user
        if checked.action == "show":
            login = links.login(platform, user)
            if login is None:
                return Said("no GitHub login linked: `/vllm-me github <login>` links yours")
            return Said(f"you are @{login} on GitHub here; `/vllm-me forget` unlinks it")
        if checked.action == "forget":
            was = links.unlink(platform, user)
            if was is None:
                return Said("no GitHub login was linked")
            return Said(f"forgot @{was}: `mine` digests send nothing until you link a login again")
        if not await asyncio.to_thread(services.user_exists, checked.login):
            return Said(f"GitHub has no user `{checked.login}`: check the spelling")
        was = links.link(platform, user, checked.login, services.clock())
        if was is not None and was.lower() != checked.login.lower():
            return Said(f"you are now @{checked.login} on GitHub here (was @{was})")
        return Said(
            f"you are @{checked.login} on GitHub here: `/vllm-subscribe mine dm` sends you "
            "your PRs, the reviews asked of you and your mentions"
        )
