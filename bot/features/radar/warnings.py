"""Warn before it breaks: which upstream vLLM PR of a window will break which lines of a
watched plugin, said while the PR is open (approved or not) and when it merges; then graded
by what the plugin did after the merge.

Each run (the daily run's Plugins section, `vllm-report radar --predict`):

1. each watched plugin's Python source at its default branch's head
   (`collect_code.CodeReader.plugin`: one request when the head was read before, else its
   tarball), and what it uses of vLLM (`predict.plugin_uses`);
2. the upstream PRs of the window (open ones updated in it, those merged in it), where each
   stands (head, base, merged, approved), and each one's changed files at its head;
3. of those files, only the Python modules the plugins' names lead to
   (`predict.index.needed`: a name's module, and through re-exports and base classes
   further modules the change touches), read at the PR's base and head; the packages above
   them that re-export names are read once a run at vLLM main's head, as unchanged
   context. A PR that changes nothing the plugins use costs its file list and no more;
4. `predict.change_breaks` → `predict.predict` per plugin: each warning with its unguarded
   sites (guarded ones apart; a warning with guarded sites only is left out: nothing fails
   when it lands).

What cannot be read (a plugin's head or tarball, some of its files, a PR's files, a changed
module, the analysis failing on strange code) is `NotEvaluated` with why, never "no break".

The daily run keeps each warning (`WarningLedger.record`) and the window's forecast as shown
(what `show` and `/vllm-radar predict` read later). A warning whose PR merged is graded by
the plugin's later source: **confirmed** when the plugin changed those sites (fewer of the
warned uses in those files) or a plugin PR names the vLLM PR as what broke it (the radar's
culprits); **not confirmed** when GRADE_AFTER_DAYS after the merge the plugin's source still
has every site; a culprit of a plugin that no warning foretold is **missed**.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from bot.collect.code import PullHead
from bot.collect.source import CollectError
from bot.collect.sync import Archiver
from bot.features.radar.collect_code import Changed, CodeReader
from bot.features.radar.forecast import (
    GRADE_AFTER_DAYS,
    Forecast,
    Graded,
    NotEvaluated,
    Site,
    Warned,
    ordered,
)
from bot.features.radar.model import Culprit
from bot.features.radar.predict import ChangeBreaks, PluginUses, change_breaks, plugin_uses, predict
from bot.features.radar.predict.index import needed
from bot.features.radar.predict.model import BreakWarning, Use
from bot.features.radar.predict.surface import ModuleSurface, module_name, read_module
from bot.features.radar.store_corrections import WarningLedger
from bot.model.report import ActivityItem
from bot.model.windows import Window

log = logging.getLogger(__name__)

# How many rounds of `needed` a change is followed through (each round reads the modules
# the names lead to next: a re-export, a base class); vLLM's chains are two or three deep.
ROUNDS = 8


@dataclass(frozen=True)
class _Plugin:
    repo: str
    commit: str
    uses: PluginUses


@dataclass
class _Run:
    """What one forecast gathers as it goes."""

    names: list[str]
    now: datetime
    context: str | None = None  # vLLM main's head: where unchanged modules are read
    context_asked: bool = False
    warnings: list[Warned] = field(default_factory=list)
    not_evaluated: list[NotEvaluated] = field(default_factory=list)
    evaluated: int = 0
    merged: dict[int, datetime] = field(default_factory=dict)


class Warnings:
    """The warnings of the watched plugins (`plugins`) for any window."""

    def __init__(
        self, archiver: Archiver, plugins: Sequence[str], clock: Callable[[], datetime]
    ) -> None:
        self.archiver = archiver
        self.plugins = tuple(plugins)
        self.clock = clock
        self.reader = CodeReader(archiver)
        self.ledger = WarningLedger.of_store(archiver.store)

    def forecast(
        self,
        window: Window,
        culprits: Mapping[str, Mapping[int, datetime | None]] | None = None,
        *,
        keep: bool = True,
    ) -> Forecast:
        """The warnings of `window` over the watched plugins, read from GitHub as far as the
        archive does not hold it (`culprits`: the radar's culprits of the window, plugin →
        upstream PR → its merge, for grading). `keep`: record the warnings and, over every
        watched plugin, the forecast as shown."""
        now = self.clock()
        plugins: dict[str, _Plugin] = {}
        skipped: list[NotEvaluated] = []
        for repo in self.plugins:
            found = self._plugin(repo, now)
            if isinstance(found, NotEvaluated):
                skipped.append(found)
            else:
                plugins[repo] = found
        # A plugin read in part: its other lines are evaluated, and what was not is said.
        skipped += [
            NotEvaluated(
                f"{len(p.uses.unreadable)} of its Python files could not be read: "
                f"{p.uses.unreadable[0].file} ({p.uses.unreadable[0].why})",
                repo,
                unread=len(p.uses.unreadable),
                files=p.uses.files + len(p.uses.unreadable),
            )
            for repo, p in plugins.items()
            if p.uses.unreadable
        ]
        names = sorted({use.name for p in plugins.values() for use in p.uses.uses})
        run = _Run(names, now)
        if plugins:
            self._changes(window, plugins, run)
        if keep:
            self.ledger.record(run.warnings, run.merged, now)
            for repo in self.plugins:
                for number in self.ledger.open_numbers(repo) & set(run.merged):
                    self.ledger.set_merged(repo, number, run.merged[number])
        grades = self._grades(plugins, culprits or {}, now, judge=keep)
        forecast = Forecast(
            self.plugins,
            ordered(run.warnings),
            (*skipped, *_once(run.not_evaluated)),
            run.evaluated,
            grades,
            now,
            window.label,
        )
        if keep:
            self.ledger.save_forecast(window.start, window.end, forecast, now)
        return forecast

    def alone(self, plugin: str) -> Warnings:
        """The warnings of one watched plugin (`--plugin`, `/vllm-radar predict <plugin>`)."""
        return Warnings(self.archiver, (plugin,), self.clock)

    def archived(self, window: Window) -> Forecast | None:
        """The forecast a run made for `window`, from the archive alone."""
        return self.ledger.forecast(window.start, window.end)

    def latest(self) -> Forecast | None:
        """The last forecast any run made."""
        held = self.ledger.latest_forecast()
        return held[2] if held is not None else None

    # -- the plugins --

    def _plugin(self, repo: str, now: datetime) -> _Plugin | NotEvaluated:
        try:
            tree = self.reader.plugin(repo, now)
        except CollectError as exc:
            log.info("radar: the source of %s could not be read: %s", repo, exc)
            return NotEvaluated(f"its source could not be read: {exc}", repo)
        sources: dict[str, str | None] = {**tree.files, **dict.fromkeys(tree.unreadable)}
        try:
            uses = plugin_uses(sources)
        except Exception as exc:  # the analysis of a stranger's code: never the whole section
            log.exception("radar: reading what %s uses of vLLM failed", repo)
            return NotEvaluated(f"the analysis failed ({type(exc).__name__})", repo)
        if uses.files == 0:
            why = "no Python file could be read" if sources else "it has no Python source"
            return NotEvaluated(why, repo)
        return _Plugin(repo, tree.commit, uses)

    # -- the upstream PRs --

    def _changes(self, window: Window, plugins: Mapping[str, _Plugin], run: _Run) -> None:
        try:
            items = self.reader.candidates(window, run.now)
            heads = self.reader.heads([item.number for item in items])
        except CollectError as exc:
            run.not_evaluated.append(NotEvaluated(f"the upstream PRs could not be listed: {exc}"))
            return
        for item in items:
            head = heads.get(item.number)
            if head is None or (head.closed and head.merged_at is None):
                continue  # not a PR by now, or closed unmerged: nothing will land
            if head.merged_at is not None:
                run.merged[item.number] = head.merged_at
            try:
                change = self._change(head, run)
            except CollectError as exc:
                run.not_evaluated.append(NotEvaluated(str(exc), None, item.number))
                continue
            except Exception as exc:  # the analysis of a stranger's code
                log.exception("radar: reading what vllm#%d changes failed", item.number)
                why = f"the analysis failed ({type(exc).__name__})"
                run.not_evaluated.append(NotEvaluated(why, None, item.number))
                continue
            if change is None:
                continue  # it changes nothing the plugins use
            run.evaluated += 1
            self._predict(item, head, change, plugins, run)

    def _predict(
        self,
        item: ActivityItem,
        head: PullHead,
        change: ChangeBreaks,
        plugins: Mapping[str, _Plugin],
        run: _Run,
    ) -> None:
        found: list[tuple[str, BreakWarning]] = []
        why: str | None = None
        for plugin in plugins.values():
            try:
                said = predict(plugin.uses, change)
            except Exception as exc:
                log.exception("radar: foretelling vllm#%d for %s failed", item.number, plugin.repo)
                why = f"the analysis failed ({type(exc).__name__})"
                continue
            if said.status == "not-evaluated":
                why = said.reason or why
            found += [(plugin.repo, w) for w in _folded(said.warnings)]
        if change.unreadable and not found:
            first = change.unreadable[0]
            why = f"{first.file} {first.why}"
        if why is not None and not found:
            run.not_evaluated.append(NotEvaluated(why, None, item.number))
        if found:
            stage = self._stage(head)
            run.warnings += [_warned(repo, item, head, stage, w) for repo, w in found]

    def _stage(self, head: PullHead) -> str:
        if head.merged_at is not None:
            return "merged"
        approved = head.approved
        if approved is None:  # REST told no review decision: its reviews, now it matters
            try:
                approved = self.reader.approved(head.number)
            except CollectError as exc:
                log.info("radar: whether vllm#%d is approved is not known: %s", head.number, exc)
                approved = False
        return "approved" if approved else "open"

    def _change(self, head: PullHead, run: _Run) -> ChangeBreaks | None:
        """What the PR changes of the modules the plugins' names lead to (None: nothing
        they use): its changed modules at its base and head, and the packages above them
        as context."""
        changed = self.reader.changed(head, run.now)
        paths = _changed_modules(changed)
        if not paths:
            return None
        available = set(paths) | {p for m in paths for p in _packages(m)}
        loaded: dict[str, ModuleSurface] = {}
        tried: set[str] = set()
        before: dict[str, str | None] = {}
        after: dict[str, str | None] = {}
        for _ in range(ROUNDS):
            wanted = needed(run.names, available, loaded) - tried
            if not wanted:
                break
            for module in sorted(wanted):
                tried.add(module)
                if module in paths:
                    old, new = paths[module]
                    text = self._pair(changed, old, new, before, after, run.now)
                else:
                    text = self._context(module, before, run)
                surface = _surface(module, old if module in paths else None, text)
                if surface is not None:
                    loaded[module] = surface
        if not any(m in paths for m in tried):
            return None
        # A module gone from one place and added at another: the new one, for `module-moved`.
        gone = {m.rsplit(".", 1)[-1] for m in tried if m in paths and paths[m][1] is None}
        for module, (old, new) in paths.items():
            if old is None and new is not None and module.rsplit(".", 1)[-1] in gone:
                after[new] = self.reader.text(changed.head, new, run.now)
        return change_breaks(before, after)

    def _pair(
        self,
        changed: Changed,
        old: str | None,
        new: str | None,
        before: dict[str, str | None],
        after: dict[str, str | None],
        now: datetime,
    ) -> str | None:
        """A changed module read at the PR's base and head; its text before."""
        text = None
        if old is not None:
            text = before[old] = self.reader.text(changed.base, old, now)
            if new != old:
                after[old] = None  # renamed or removed: gone from its old place
        if new is not None:
            after[new] = self.reader.text(changed.head, new, now)
            if new != old:
                before.setdefault(new, None)
        return text

    def _context(self, module: str, before: dict[str, str | None], run: _Run) -> str | None:
        """A package above the changed modules (its `__init__.py`), unchanged by the PR,
        read at vLLM main's head once a run: context only (one side)."""
        if not run.context_asked:
            run.context_asked = True
            try:
                run.context = self.reader.main_head()
            except CollectError as exc:
                log.info("radar: vLLM main's head could not be read: %s", exc)
        if run.context is None:
            return None
        path = module.replace(".", "/") + "/__init__.py"
        try:
            text = self.reader.text(run.context, path, run.now)
        except CollectError as exc:
            log.info("radar: %s could not be read at main: %s", path, exc)
            return None
        if text is not None:
            before[path] = text
        return text

    # -- grades --

    def _grades(
        self,
        plugins: Mapping[str, _Plugin],
        culprits: Mapping[str, Mapping[int, datetime | None]],
        now: datetime,
        *,
        judge: bool = True,
    ) -> tuple[Graded, ...]:
        """Each plugin's grades so far; `judge`: first grade what can be graded now."""
        found = []
        for repo in self.plugins:
            if judge:
                self._judge(repo, plugins.get(repo), culprits.get(repo, {}), now)
            counts = self.ledger.grades(repo)
            if sum(counts.values()):
                found.append(
                    Graded(
                        repo,
                        counts["confirmed"],
                        counts["not-confirmed"],
                        counts["missed"],
                        counts["pending"],
                    )
                )
        return tuple(found)

    def _judge(
        self,
        repo: str,
        plugin: _Plugin | None,
        named: Mapping[int, datetime | None],
        now: datetime,
    ) -> None:
        """Grade the plugin's warnings whose PR merged, and count the culprits (`named`:
        upstream PR → its merge) no warning foretold as missed."""
        began = self.ledger.began()
        warned = self.ledger.warned_numbers(repo)
        for number, merged_at in named.items():
            merged_since = began is not None and merged_at is not None and merged_at >= began
            if number not in warned and merged_since:
                self.ledger.missed(repo, number, merged_at, now)
        for warning, merged_at, _ in self.ledger.merged_ungraded(repo):
            said = warning.number in named  # a plugin PR names it as what broke it
            if said or (plugin is not None and adapted(warning, plugin.uses)):
                self.ledger.grade(warning.key, "confirmed", now)
            elif plugin is not None and now - merged_at >= timedelta(days=GRADE_AFTER_DAYS):
                self.ledger.grade(warning.key, "not-confirmed", now)


def culprits_by_plugin(culprits: Iterable[Culprit]) -> dict[str, dict[int, datetime | None]]:
    """The radar's culprits as the grades read them: plugin → upstream PR → its merge."""
    named: dict[str, dict[int, datetime | None]] = {}
    for culprit in culprits:
        if culprit.ref.number is not None:
            for repo in culprit.plugins:
                named.setdefault(repo, {})[culprit.ref.number] = culprit.merged_at
    return named


def adapted(warning: Warned, uses: PluginUses) -> bool:
    """Whether the plugin's source now has fewer of the warned uses in those files (a site
    changed, went behind a guard, or its file went): it changed them."""
    then = Counter((s.file, s.kind, s.name) for s in warning.sites)
    files = {use.file for use in uses.uses} | {u.file for u in uses.unreadable}
    now = Counter((u.file, u.kind, u.name) for u in uses.uses if u.guard is None)
    return any(
        file not in files or now[(file, kind, name)] < count
        for (file, kind, name), count in then.items()
    )


def _warned(
    repo: str, item: ActivityItem, head: PullHead, stage: str, warning: BreakWarning
) -> Warned:
    brk = warning.change
    return Warned(
        plugin_repo=repo,
        number=item.number,
        title=item.title,
        stage=stage,
        kind=brk.kind,
        name=brk.name,
        file=brk.file,
        line=brk.line,
        detail=brk.detail,
        now=brk.now,
        before=brk.before.text if brk.before is not None else None,
        after=brk.after.text if brk.after is not None else None,
        sites=tuple(_site(u) for u in warning.sites),
        guarded=tuple(_site(u) for u in warning.guarded),
        head=head.head,
        possible=tuple(_site(u) for u in warning.possible),
    )


def _folded(warnings: Sequence[BreakWarning]) -> list[BreakWarning]:
    """The warnings with unguarded sites, each told once for its lines: one whose sites are
    all another's (a removed name and the module it lived in, at the same imports) is left
    to that one, the name's rather than the module's."""
    kept: list[BreakWarning] = []
    ranked = sorted(
        (w for w in warnings if w.sites),
        key=lambda w: (-w.count, w.change.kind.startswith("module-"), w.change.name),
    )
    for warning in ranked:
        lines = {use.site for use in warning.sites}
        if any(lines <= {use.site for use in other.sites} for other in kept):
            continue
        kept.append(warning)
    return kept


def _site(use: Use) -> Site:
    return Site(use.file, use.line, use.kind, use.name)


def _changed_modules(changed: Changed) -> dict[str, tuple[str | None, str | None]]:
    """The Python modules a change touches: module → (its path before, after; None: not
    there). A rename is the old module gone and the new one added."""
    found: dict[str, tuple[str | None, str | None]] = {}
    for path, status, previous in changed.files:
        if status == "renamed" and previous:
            if previous.endswith(".py"):
                found[module_name(previous)] = (previous, None)
            if path.endswith(".py"):
                found[module_name(path)] = (None, path)
        elif path.endswith(".py"):
            old = None if status == "added" else path
            new = None if status == "removed" else path
            found[module_name(path)] = (old, new)
    return found


def _packages(module: str) -> list[str]:
    """The packages above a module: `vllm.a.b.c` → `vllm`, `vllm.a`, `vllm.a.b`."""
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _surface(module: str, path: str | None, text: str | None) -> ModuleSurface | None:
    if text is None:
        return None
    where = path or module.replace(".", "/") + "/__init__.py"
    try:
        return read_module(where, text)
    except (SyntaxError, ValueError):
        return None  # change_breaks says it does not parse


def _once(found: Sequence[NotEvaluated]) -> list[NotEvaluated]:
    """Each PR or plugin said once (the first reason)."""
    seen: set[tuple[str | None, int | None]] = set()
    kept = []
    for entry in found:
        key = (entry.plugin_repo, entry.number)
        if key in seen and entry.number is not None:
            continue
        seen.add(key)
        kept.append(entry)
    return kept
