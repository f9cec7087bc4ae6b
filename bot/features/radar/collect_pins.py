"""A plugin's pin of upstream vLLM on any day, from its pin file's history.

The contents API shows a pin file as it is today, which says nothing of last Tuesday. So the
pin at a moment is read from the file's commits: `GET /repos/{plugin}/commits?path=…&sha=…`
lists them (once; later only the part after what was listed), the newest commit at or
before the moment is the file as it stood then, and its text (`GET …/contents/{path}?ref=
<commit>`) is read once per commit. How far upstream main had moved on by then is main's
newest commit at that moment (`GET /repos/vllm/commits?sha=main&until=…`) and a compare of
the pin with it (`GET …/compare/{pin}...{head}`), each asked once and archived: commits
never change, so a past day's pins cost nothing after the first look, and any later `show`
of a day says what `post` said that day.

What the archive and GitHub cannot tell (GitHub failing, only the archive read, a file that
did not exist yet) is the pin's `unknown`, in one sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.collect.source import CollectError
from bot.collect.sync import Archiver
from bot.features.radar.model import UPSTREAM, Pin
from bot.features.radar.pins import PIN_FILES, PinFile, pinned, where
from bot.features.radar.store_pins import FileCommit, PinArchive

# How far back a pin that stood still is followed to the commit that set it: a file such as
# a pyproject changes for other reasons too, and each step is a request the first time.
# Further back than this, when the pin was set is not known (and no lag is called growing).
SINCE_STEPS = 20
# A listing goes on from a day before the last one ended: a commit pushed after its commit
# date would be missed for good (each sha is kept once).
LIST_OVERLAP = timedelta(days=1)


@dataclass(frozen=True)
class _Standing:
    spec: PinFile
    pinned: str | None
    since: datetime | None  # the oldest commit in a row naming the same pin (None: not found)


class PinHistory:
    def __init__(self, archiver: Archiver) -> None:
        self.archiver = archiver
        self.pins = PinArchive(archiver.store.transactions)

    def at(self, repo: str, moment: datetime, now: datetime) -> Pin:
        """Where `repo` pinned upstream at `moment`, and how far behind main it was then."""
        if repo not in PIN_FILES:
            return Pin(repo, "none", None, None, None, "no pin file is known for this plugin")
        try:
            return self._at(repo, moment, now)
        except CollectError as exc:
            return Pin(repo, where(repo), None, None, None, f"GitHub could not be read: {exc}")

    def _at(self, repo: str, moment: datetime, now: datetime) -> Pin:
        moment = min(moment, now)  # a window still running: its pin so far
        standing, why = self._standing(repo, moment, now)
        if standing is None:
            return Pin(repo, where(repo), None, None, None, why, at=moment)
        spec, value = standing.spec, standing.pinned
        if value is None:
            why = f"{spec.where} names no vLLM commit"
            return Pin(repo, spec.where, None, None, None, why, at=moment)
        pin = Pin(repo, spec.where, value, None, None, at=moment, since=standing.since)
        head = self._head(moment, now)
        if head is None:
            return _unknown(pin, "the archive does not hold vLLM main at that moment")
        lag = self._ahead(value, head[0])
        if lag is None:
            return _unknown(pin, f"GitHub cannot compare {value[:12]} with vLLM main")
        commits, pinned_at = lag
        days = round(max(0.0, (head[1] - pinned_at).total_seconds()) / 86400, 1)
        return Pin(repo, spec.where, value, commits, days, at=moment, since=standing.since)

    def _standing(self, repo: str, moment: datetime, now: datetime) -> tuple[_Standing | None, str]:
        """The first of the plugin's pin files (newest mechanism first) that existed at
        `moment`, as it stood then; else why none can be told."""
        why = ""
        for spec in PIN_FILES[repo]:
            commits = self._commits(repo, spec, moment, now)
            if commits is None:
                return None, "only the archive was read, and it holds no pin history of then"
            before = [c for c in commits if c.at <= moment]
            if not before:
                why = why or f"{spec.where} has no commit before then"
                continue
            read = self._read(repo, spec, before[-1])
            if read is None:
                return None, "only the archive was read, and it holds no pin history of then"
            value, present = read
            if not present:  # deleted by then: the pin moved to an older file?
                why = why or f"{spec.where} was deleted by then"
                continue
            return _Standing(spec, value, self._since(repo, spec, before, value)), ""
        return None, why or "no pin file is known for this plugin"

    def _since(
        self, repo: str, spec: PinFile, before: list[FileCommit], value: str | None
    ) -> datetime | None:
        """When the file took the pin it names at `before[-1]`: the oldest commit of the run
        naming it (None: the run goes back further than SINCE_STEPS commits)."""
        since = before[-1].at
        older = before[:-1]
        for commit in reversed(older[-SINCE_STEPS:]):
            if self._read(repo, spec, commit) != (value, True):
                return since
            since = commit.at
        return since if len(older) <= SINCE_STEPS else None

    def _commits(
        self, repo: str, spec: PinFile, moment: datetime, now: datetime
    ) -> list[FileCommit] | None:
        """The file's commits up to `moment` at least (listed from GitHub past what the
        archive holds); None: the archive's list stops before `moment` and GitHub may not
        be asked."""
        held, read_until = self.pins.commits(repo, spec.path, spec.ref)
        if read_until is not None and read_until >= moment:
            return held
        if not self.archiver.fetch:
            return None
        until = now
        since = read_until - LIST_OVERLAP if read_until else None
        with self.archiver.github(repo) as github:
            listed = github().file_commits(spec.path, spec.ref, since, until)
        self.pins.add_commits(repo, spec.path, spec.ref, listed, until)
        return self.pins.commits(repo, spec.path, spec.ref)[0]

    def _read(self, repo: str, spec: PinFile, commit: FileCommit) -> tuple[str | None, bool] | None:
        """What the file pinned at `commit` and whether it was there: read once, then from
        the archive (None: never read, and GitHub may not be asked)."""
        if commit.read:
            return commit.pinned, commit.present
        if not self.archiver.fetch:
            return None
        with self.archiver.github(repo) as github:
            text = github().file_text(spec.path, commit.sha)
        value = pinned(spec, text) if text is not None else None
        present = text is not None
        self.pins.set_pinned(repo, spec.path, spec.ref, commit.sha, value, present=present)
        return value, present

    def _head(self, moment: datetime, now: datetime) -> tuple[str, datetime] | None:
        """vLLM main's newest commit at `moment` (archived once `moment` is past)."""
        held = self.pins.head(UPSTREAM, "main", moment)
        if held is not None or not self.archiver.fetch:
            return held
        with self.archiver.github(UPSTREAM) as github:
            found = github().head_at("main", moment)
        if found is not None and moment < now:
            self.pins.save_head(UPSTREAM, "main", moment, *found)
        return found

    def _ahead(self, base: str, head: str) -> tuple[int, datetime] | None:
        held = self.pins.compare(UPSTREAM, base, head)
        if held is not None or not self.archiver.fetch:
            return held
        with self.archiver.github(UPSTREAM) as github:
            found = github().ahead(base, head)
        if found is not None:
            self.pins.save_compare(UPSTREAM, base, head, *found)
        return found


def _unknown(pin: Pin, why: str) -> Pin:
    return Pin(pin.plugin_repo, pin.where, pin.upstream_commit, None, None, why, pin.at, pin.since)
