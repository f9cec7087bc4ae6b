"""The join: a vLLM change's breaks against a plugin's uses, as warnings with their lines.

A use meets a break when the break's name is the use's name or a prefix of it at a dot
(removing `vllm.x.Cls` breaks `vllm.x.Cls.method`), read as the plugin wrote it or as vLLM
defines it (through re-exports and base classes, on the old side). A signature break meets
only a call that fitted the old signature and does not fit the new one, or an override or
patch that no longer fits how vLLM calls it; a member or base break meets what reaches the
class; a module or name break meets everything under it.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.features.radar.predict.index import resolve
from bot.features.radar.predict.model import (
    Break,
    BreakWarning,
    ChangeBreaks,
    Index,
    PluginUses,
    Prediction,
    Unreadable,
    Use,
)
from bot.features.radar.predict.signatures import call_breaks, override_breaks

# Breaks of a name where it is bound, as opposed to what a definition lost.
NAME_BREAKS = ("module-removed", "module-moved", "name-removed", "name-renamed", "name-moved")


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _names(use: Use, index: Index) -> set[str]:
    """The use's name as the plugin wrote it and as the old vLLM defines it."""
    return {use.name, resolve(index, use.name)}


def _bound(use: Use, callee: str, index: Index, via_init: bool) -> bool:
    """Whether the call passes no `self` itself: through self/super, a constructor, or a
    method reached through its class when it is a class or static method."""
    if use.bound is not None or via_init:
        return True
    owner = callee.rpartition(".")[0]
    sig = index.signatures.get(callee)
    return not (owner in index.members and sig is not None and sig.method == "instance")


def meets(use: Use, change: Break, index: Index, names: set[str] | None = None) -> bool | str:
    """Whether this change breaks this use: True, False, or "may break" (an override
    lacking an optional parameter vLLM may now pass). `names`: the use's `_names`, when
    already worked out."""
    names = _names(use, index) if names is None else names
    if change.kind != "signature":
        if change.kind == "base-removed":
            # A use meets it through what the class had from that base: a subclass alone
            # still works, and isinstance checks against the base are vLLM's own business.
            lost = {f"{change.name}.{m}" for m in change.members}
            return any(_under(n, m) for n in names for m in lost)
        if change.kind in NAME_BREAKS:
            # As the plugin wrote it: a re-export that still stands keeps the name alive
            # even when the module it points at lost it.
            return _under(use.name, change.name)
        return any(_under(n, change.name) for n in names)
    if change.before is None or change.after is None:
        return False
    if use.kind == "call":
        return _call_meets(use, change, index, names)
    if use.kind in ("override", "patch") and use.signature is not None and change.name in names:
        verdict = override_breaks(change.before, change.after, use.signature)
        return "may break" if verdict == "may break" else verdict is not None
    return False


def _call_meets(use: Use, change: Break, index: Index, names: set[str]) -> bool:
    """Whether a call, as the plugin makes it, fails against the changed signature (the
    callee by its name or its class's `__init__`)."""
    assert change.before is not None and change.after is not None  # noqa: S101 - checked
    for name in names:
        for callee, via_init in ((name, False), (name + ".__init__", True)):
            if resolve(index, callee) != change.name and callee != change.name:
                continue
            bound = _bound(use, change.name, index, via_init)
            if call_breaks(
                change.before, change.after, use.positional, use.keywords, use.star, bound
            ):
                return True
    return False


def predict(uses: PluginUses, change: ChangeBreaks) -> Prediction:
    """Which lines of the plugin the change breaks, one warning per break that meets any."""
    unread = (*uses.unreadable, *change.unreadable)
    if uses.files == 0:
        why = (
            "no Python file of the plugin could be read"
            if uses.unreadable
            else ("the plugin has no Python source")
        )
        return not_evaluated(why, unread)
    if change.modules == 0 and change.unreadable:
        return not_evaluated("no changed vLLM module could be read", unread)
    warnings = [w for w in _warnings(uses.uses, change) if w.sites or w.guarded or w.possible]
    status = "breaks" if warnings else "incomplete" if unread else "no-break"
    return Prediction(status, tuple(warnings), tuple(unread))


def not_evaluated(reason: str, unread: Iterable[Unreadable] = ()) -> Prediction:
    """The answer when a plugin's or a change's source could not be had: never "no break"."""
    return Prediction("not-evaluated", (), tuple(unread), reason)


def _warnings(uses: Iterable[Use], change: ChangeBreaks) -> list[BreakWarning]:
    listed = list(uses)
    names = {u: _names(u, change.before) for u in listed}  # resolved once, not per break
    out = []
    for brk in change.breaks:
        said = {u: meets(u, brk, change.before, names[u]) for u in listed}
        hit = [u for u, verdict in said.items() if verdict]
        # An override of a method vLLM dropped fails nowhere: vLLM just stops calling it.
        dead = brk.kind in ("member-removed", "base-removed")
        maybe = tuple(
            u
            for u in hit
            if u.guard is None and (said[u] == "may break" or (dead and u.kind == "override"))
        )
        out.append(
            BreakWarning(
                brk,
                tuple(u for u in hit if u.guard is None and u not in maybe),
                tuple(u for u in hit if u.guard is not None),
                maybe,
            )
        )
    return sorted(out, key=lambda w: (-w.count, w.change.name))
