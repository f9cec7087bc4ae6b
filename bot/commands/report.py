"""`/vllm-report [when] [section] [topic] [repo] [en|zh] [public]`: a report for any window,
the whole of it or one section or topic (ephemeral unless `public`)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.commands.answers import Answer, ReportShown
from bot.commands.base import Asker, Command, Request, text
from bot.commands.services import Services
from bot.commands.words import Option
from bot.model import asking
from bot.service.reports import ReportQuery

WHEN = Option("when", "when", "2026-03-26, 2026-03-20..2026-03-26, yesterday, 7d")
LANG = Option("lang", "lang", "the report's language", choices=("en", "zh"))
PUBLIC = Option("public", "public", "post it in the channel instead of only to you")


@dataclass(frozen=True)
class ReportRequest(Request):
    when: str = "yesterday"
    section: str | None = None
    topic: str | None = None
    repo: str | None = None
    lang: str | None = None


@dataclass(frozen=True)
class Checked:
    query: ReportQuery
    only: tuple[str, ...]
    public: bool


class Report(Command[ReportRequest, Checked]):
    name = "vllm-report"
    description = "A report for any window (default: yesterday)"
    options = (
        WHEN,
        Option("section", "section", "one section", complete="section"),
        Option("topic", "topic", "limit to one topic", complete="topic"),
        Option("repo", "repo", "another repository (owner/name)"),
        LANG,
        PUBLIC,
    )
    example = "/vllm-report 2026-03-26 amd"
    costly = True
    failing = "make that report"

    def request(self, values: Mapping[str, Any]) -> ReportRequest:
        return ReportRequest(
            when=text(values.get("when")) or "yesterday",
            section=text(values.get("section")),
            topic=text(values.get("topic")),
            repo=text(values.get("repo")),
            lang=text(values.get("lang")),
            public=bool(values.get("public")),
        )

    def check(self, services: Services, request: ReportRequest) -> Checked:
        rules, settings = services.rules, services.settings
        topic = asking.topic(request.topic, rules) if request.topic else None
        section = (
            asking.section(request.section, rules, services.section_words)
            if request.section
            else None
        )
        lang = asking.language(request.lang or settings.lang)
        repo = asking.repository(request.repo or settings.repo)
        window = services.window(request.when)
        query = ReportQuery(repo=repo, window=window, lang=lang, topic=topic)
        return Checked(query, (section or topic or "summary",), request.public)

    async def answer(self, services: Services, asker: Asker, checked: Checked) -> Answer:
        query = checked.query
        report = await asyncio.to_thread(services.reports.report, query)
        return ReportShown(
            report=report,
            only=checked.only,
            lang=query.lang,
            ephemeral=not checked.public,
            link=services.reports.files.link(report, query.lang),
        )
