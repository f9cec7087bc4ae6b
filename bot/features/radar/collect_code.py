"""The code the radar's warnings read, asked of GitHub once and archived
(`bot.features.radar.store_pins.CodeArchive`):

- a watched plugin's Python files at its default branch's head: the head's sha (one small
  request a day, `GET …/commits?per_page=1`), and only for a head not read before, the
  repository's tarball (`GET …/tarball/{sha}`: one API request and its download), its `.py`
  files kept by (plugin, commit). An unchanged plugin costs one request and no download;
- the upstream PRs to evaluate: the open ones updated in the window (a search, 100 a page)
  and those merged in it (the archive, which the day's report already holds); where each
  stands (`bot.collect.code.pull_heads`: a hundred to a GraphQL request with a token), its
  changed files at its head (`GET …/pulls/{n}/files`, kept by (PR, head): a PR not pushed
  since costs nothing), and a file at a commit (the contents API, kept by (commit, path)).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.collect.code import (
    FILES_CAP,
    NotText,
    PullHead,
    TooLarge,
    code_text,
    head_commit,
    pull_approved,
    pull_files,
    pull_heads,
    python_files,
    tarball,
)
from bot.collect.source import CollectError
from bot.collect.sync import Archiver
from bot.features.radar.model import UPSTREAM
from bot.features.radar.store_pins import CodeArchive, Held, Tree
from bot.model.report import ActivityItem
from bot.model.windows import Window
from bot.store import Span

log = logging.getLogger(__name__)

# The open PRs updated in a window, one search (GitHub's cap: 1,000 results; vLLM updates
# about 300 open PRs on a busy day).
OPEN_CAP = 1000


@dataclass(frozen=True)
class Changed:
    """A pull request's change at one head: its base then, and the files it changes
    (path, status, the path before a rename)."""

    number: int
    head: str
    base: str
    files: tuple[tuple[str, str, str | None], ...]


class CodeReader:
    """What the warnings read of GitHub, each fact asked once (`fetch` False: the archive
    alone; what it lacks raises CollectError saying so)."""

    def __init__(self, archiver: Archiver) -> None:
        self.archiver = archiver
        self.code = CodeArchive(archiver.store.transactions)

    # -- a plugin's source --

    def plugin(self, repo: str, now: datetime) -> Tree:
        """The plugin's Python files at its default branch's head now: the head asked
        (one request), its tarball only when that commit was never read."""
        if not self.archiver.fetch:
            return self.latest(repo, now, "only the archive was read, and it holds none")
        with self.archiver.github(repo) as github:
            commit, _ = head_commit(github())
            held = self.code.tree(repo, commit)
            if held is not None:
                return held
            data = tarball(github(), commit)
        tree = python_files(data)
        self.code.save_tree(repo, commit, tree.files, tree.unreadable, now)
        log.info(
            "radar: %s at %s: %d Python files read, %d not",
            repo,
            commit[:9],
            len(tree.files),
            len(tree.unreadable),
        )
        return Tree(repo, commit, now, tree.files, tree.unreadable)

    def latest(self, repo: str, until: datetime, why: str) -> Tree:
        """The plugin's source as last read at or before `until`, from the archive."""
        read = [commit for commit, at in self.code.trees(repo) if at <= until]
        found = self.code.tree(repo, read[-1]) if read else None
        if found is None:
            raise CollectError(why)
        return found

    # -- upstream pull requests --

    def candidates(self, window: Window, now: datetime) -> list[ActivityItem]:
        """The upstream PRs to evaluate for `window`: open ones updated in it (one search)
        and those merged in it (the archive's, once the window is archived)."""
        span = Span(window.start, min(window.end, now))
        merged = {
            item.number: item
            for item in self.archiver.items(UPSTREAM, span)
            if item.kind == "pr"
            and item.merged_at is not None
            and span.start <= item.merged_at < span.end
        }
        if not self.archiver.fetch:
            return sorted(merged.values(), key=lambda item: item.number)
        query = f"repo:{UPSTREAM} is:pr is:open updated:{_utc(span.start)}..{_utc(span.end)}"
        with self.archiver.github(UPSTREAM) as github:
            listed = github().search_list(query, items=True, cap=OPEN_CAP)
        if listed.items:
            self.archiver.store.items.save(listed.items, now)
        found = {**merged, **{item.number: item for item in listed.items}}
        return sorted(found.values(), key=lambda item: item.number)

    def heads(self, numbers: Sequence[int]) -> dict[int, PullHead | None]:
        with self.archiver.github(UPSTREAM) as github:
            return pull_heads(github(), list(numbers))

    def approved(self, number: int) -> bool:
        """Whether the PR is approved, from its reviews (asked when its head did not say)."""
        with self.archiver.github(UPSTREAM) as github:
            said = pull_approved(github(), number)
        return said

    def changed(self, head: PullHead, now: datetime) -> Changed:
        """The PR's changed files at its head: archived, else listed (100 a page)."""
        held = self.code.changes(UPSTREAM, head.number, head.head)
        if held is not None:
            base, files = held
            return Changed(head.number, head.head, base, tuple(files))
        if not self.archiver.fetch:
            raise CollectError("only the archive was read, and it holds no list of its files")
        with self.archiver.github(UPSTREAM) as github:
            listed = pull_files(github(), head.number)
        if len(listed) >= FILES_CAP:
            raise CollectError(f"it changes {FILES_CAP:,} files or more, past what GitHub lists")
        files = [(f.path, f.status, f.previous) for f in listed]
        self.code.save_changes(UPSTREAM, head.number, head.head, head.base, files, now)
        return Changed(head.number, head.head, head.base, tuple(files))

    def text(self, ref: str, path: str, now: datetime) -> str | None:
        """vLLM's file at commit `ref` (None: no such file there): archived, else asked (one
        request). CollectError when it cannot be read (too large, not UTF-8, GitHub)."""
        held = self.code.file(UPSTREAM, ref, path)
        if held is None:
            if not self.archiver.fetch:
                raise CollectError(f"{path} at {ref[:9]} is not in the archive")
            try:
                with self.archiver.github(UPSTREAM) as github:
                    text = code_text(github(), path, ref)
                held = Held(text)
            except (TooLarge, NotText) as exc:  # a fact of the file: kept (GitHub failing is not)
                held = Held(None, str(exc))
            self.code.save_file(UPSTREAM, ref, path, held, now)
        if held.why is not None:
            raise CollectError(held.why)
        return held.text

    def main_head(self) -> str:
        """vLLM main's newest commit now (one request): where unchanged modules are read."""
        with self.archiver.github(UPSTREAM) as github:
            commit, _ = head_commit(github())
        return commit


def _utc(moment: datetime) -> str:
    """Search qualifiers take full ISO times in UTC."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S+00:00")
