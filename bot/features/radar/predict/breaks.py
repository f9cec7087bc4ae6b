"""What a vLLM change takes away, from the old and new text of its modules, read with `ast`.

`change_breaks(before, after)` takes path → text for each side (None: the file did not exist,
or was deleted). A path on one side only is taken as unchanged: it is there to resolve names
(a re-export, a base class), not compared. Every changed module is compared:

- the module gone (`module-removed`), or gone with a module of its name elsewhere
  (`module-moved`);
- a module-level name no longer bound (`name-removed`; `name-renamed` when a definition with
  the same body appeared under another name, `name-moved` when one of that name appeared in
  another module). A re-export keeps a name alive: only a name the module no longer binds
  at all is gone. Private names count too: plugins use them, the join decides;
- a class's members (methods, class attributes, `self.x` set in its methods, what it
  inherits from the bases the sources hold) no longer there (`member-removed`), and bases no
  longer among its ancestors (`base-removed`);
- a function's, method's or constructor's signature changed in a way a caller or an
  overrider notices (`signature`: removed, made required, newly required, added, keyword-only
  now, positional order, `*args`/`**kwargs` removed); the join decides per use whether it
  breaks.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import replace

from bot.features.radar.predict.index import ancestors, build_index, defining_class, resolve
from bot.features.radar.predict.model import Break, ChangeBreaks, Index, Unreadable
from bot.features.radar.predict.signatures import changes
from bot.features.radar.predict.surface import (
    ModuleSurface,
    module_name,
    read_module,
    star_names,
)

SIMILAR_NAME = 0.6  # difflib ratio above which a lone new definition is taken as a rename


def _read(
    sources: Mapping[str, str | None], unreadable: list[Unreadable]
) -> dict[str, ModuleSurface]:
    modules: dict[str, ModuleSurface] = {}
    for path in sorted(sources):
        text = sources[path]
        if text is None or not path.endswith(".py"):
            continue
        try:
            surface = read_module(path, text)
        except (SyntaxError, ValueError) as error:
            unreadable.append(Unreadable(path, f"does not parse: {error}"))
            continue
        modules[surface.name] = surface
    return modules


def change_breaks(
    before: Mapping[str, str | None], after: Mapping[str, str | None]
) -> ChangeBreaks:
    """What the change from `before` to `after` (path → text; None: absent) takes away."""
    unreadable: list[Unreadable] = []
    old_sources = dict(before)
    new_sources = {**{p: t for p, t in before.items() if p not in after}, **after}
    old = _read(old_sources, unreadable)
    new = _read(new_sources, unreadable)
    old_index, new_index = build_index(old), build_index(new)
    changed_paths = {
        p for p in set(before) | set(after) if old_sources.get(p) != new_sources.get(p)
    }
    changed = sorted({module_name(p) for p in changed_paths if p.endswith(".py")})
    unread = {module_name(u.file) for u in unreadable}
    found: list[Break] = []
    compared = 0
    for name in changed:
        if name in unread or name not in old:
            continue
        compared += 1
        if name not in new:
            found.append(_module_gone(old[name], old, new))
            continue
        lost = _names(old[name], new[name], new)
        found += lost + _star_losses(old[name], lost, old, new)
        found += _classes(old[name], old_index, new_index)
        found += _functions(old[name], new_index)
    return ChangeBreaks(tuple(found), compared, tuple(unreadable), old_index)


def _module_gone(
    surface: ModuleSurface, old: Mapping[str, ModuleSurface], new: Mapping[str, ModuleSurface]
) -> Break:
    last = surface.name.rsplit(".", 1)[-1]
    fresh = [n for n in new if n not in old and n.rsplit(".", 1)[-1] == last]
    if len(fresh) == 1:
        return Break("module-moved", surface.name, surface.path, 0, f"now {fresh[0]}", fresh[0])
    return Break("module-removed", surface.name, surface.path, 0, "module deleted")


def _names(
    old: ModuleSurface, new: ModuleSurface, modules: Mapping[str, ModuleSurface]
) -> list[Break]:
    found: list[Break] = []
    added = {n: b for n, b in new.bindings.items() if n not in old.bindings}
    for name, (kind, line, _) in old.bindings.items():
        if new.alive(name) or _starred(new, name, modules) or f"{new.name}.{name}" in modules:
            continue  # still bound, or a submodule: `from vllm.pkg import mod` still imports
        qualified = f"{old.name}.{name}"
        renamed = _renamed(old, new, name, kind, added) if kind in ("def", "class") else None
        if renamed is not None:
            found.append(
                Break(
                    "name-renamed",
                    qualified,
                    old.path,
                    line,
                    f"renamed to {renamed}",
                    f"{new.name}.{renamed}",
                )
            )
            continue
        elsewhere = [
            m
            for m, s in modules.items()
            if m != new.name and s.bindings.get(name, ("",))[0] in ("def", "class")
        ]
        if kind in ("def", "class") and len(elsewhere) == 1:
            now = f"{elsewhere[0]}.{name}"
            found.append(Break("name-moved", qualified, old.path, line, f"moved to {now}", now))
            continue
        found.append(Break("name-removed", qualified, old.path, line, f"{kind} removed"))
    return found + _lazy_losses(old, new, modules)


def _lazy_losses(
    old: ModuleSurface, new: ModuleSurface, modules: Mapping[str, ModuleSurface]
) -> list[Break]:
    """A module's `__getattr__` hands out names it spells (vllm.envs: its variables); one it
    no longer spells and does not bind is gone. Only a plugin's use of it makes a warning."""
    return [
        Break("name-removed", f"{old.name}.{name}", old.path, 0, "no longer handed out")
        for name in sorted((old.lazy or frozenset()) - (new.lazy or frozenset()))
        if name.isidentifier()
        and name not in old.bindings
        and not new.alive(name)
        and f"{new.name}.{name}" not in modules
    ]


def _star_losses(
    source: ModuleSurface,
    lost: list[Break],
    old: Mapping[str, ModuleSurface],
    new: Mapping[str, ModuleSurface],
) -> list[Break]:
    """A name gone from a module is gone too from each module that took it with
    `from module import *` (`vllm.distributed` from `.parallel_state`) and binds it no other
    way."""
    found: list[Break] = []
    had = star_names(source)
    for user in old.values():
        if source.name not in user.stars or user.name not in new:
            continue
        now = new[user.name]
        for brk in lost:
            name = brk.name.rsplit(".", 1)[-1]
            kept = name in user.bindings or now.alive(name) or _starred(now, name, new)
            if name in had and not kept:
                found.append(
                    replace(
                        brk,
                        name=f"{user.name}.{name}",
                        detail=f"{brk.detail}, and so from `from {source.name} import *`",
                    )
                )
    return found


def _starred(new: ModuleSurface, name: str, modules: Mapping[str, ModuleSurface]) -> bool:
    """Whether `from m import *` may still bind the name (always, when m is not held)."""
    for star in new.stars:
        source = modules.get(star)
        if source is None or source.alive(name):
            return True
    return False


def _renamed(
    old: ModuleSurface,
    new: ModuleSurface,
    name: str,
    kind: str,
    added: Mapping[str, tuple[str, int, str | None]],
) -> str | None:
    same_kind = [n for n, (k, _, _) in added.items() if k == kind]
    body = old.bodies.get(name)
    for candidate in same_kind:
        if body is not None and new.bodies.get(candidate) == body:
            return candidate
    if len(same_kind) == 1:
        ratio = difflib.SequenceMatcher(None, name, same_kind[0]).ratio()
        if ratio >= SIMILAR_NAME:
            return same_kind[0]
    return None


def _class_in(index: Index, name: str) -> str | None:
    found = resolve(index, name)
    return found if found in index.members else None


def _classes(old: ModuleSurface, old_index: Index, new_index: Index) -> list[Break]:
    found: list[Break] = []
    for info in old.classes.values():
        now = _class_in(new_index, info.name)
        if now is None:
            continue  # the class itself is gone: its name's break says so
        unknown = [
            b
            for b in ancestors(new_index, now)
            if b.startswith("vllm.") and b not in new_index.members
        ]
        had = _all_members(old_index, info.name)
        # A vLLM base the sources do not hold may give any member: nothing is said gone.
        gone = set() if unknown else had - _all_members(new_index, now)
        for member in sorted(gone):
            owner = defining_class(old_index, info.name, member) or info.name
            found.append(
                Break(
                    "member-removed",
                    f"{info.name}.{member}",
                    old.path,
                    info.own.get(member, info.line),
                    f"no longer on {info.name.rsplit('.', 1)[-1]}"
                    + ("" if owner == info.name else f" (was {owner}'s)"),
                )
            )
        lost = ancestors(old_index, info.name) - ancestors(new_index, now)
        for base in sorted(lost):
            through = sorted((_all_members(old_index, base) & gone) - set(info.own))
            found.append(
                Break(
                    "base-removed",
                    info.name,
                    old.path,
                    info.line,
                    f"no longer a {base}",
                    base,
                    members=tuple(through),
                )
            )
        found += _signatures(old, info.name, sorted(info.own), old_index, new_index, now)
        if "__init__" not in info.own:
            found += _signatures(old, info.name, ["__init__"], old_index, new_index, now)
    return found


def _all_members(index: Index, cls: str) -> set[str]:
    found = set(index.members.get(cls, frozenset()))
    for base in ancestors(index, cls):
        found |= index.members.get(base, frozenset())
    return found


def _signatures(
    old: ModuleSurface,
    cls: str,
    members: list[str],
    old_index: Index,
    new_index: Index,
    now: str,
) -> list[Break]:
    found: list[Break] = []
    for member in members:
        was_owner = defining_class(old_index, cls, member)
        is_owner = defining_class(new_index, now, member)
        if was_owner is None or is_owner is None:
            continue
        if member != "__init__" and was_owner != cls:
            continue  # inherited: its own class's comparison says it
        before = old_index.signatures.get(f"{was_owner}.{member}")
        after = new_index.signatures.get(f"{is_owner}.{member}")
        if before is None or after is None:
            continue
        said = changes(before, after)
        if said:
            local = cls.removeprefix(old.name + ".")
            line = old.functions.get(f"{local}.{member}", (None, old.classes[local].line))[1]
            found.append(
                Break(
                    "signature",
                    f"{cls}.{member}",
                    old.path,
                    line,
                    "; ".join(said),
                    None,
                    before,
                    after,
                )
            )
    return found


def _functions(old: ModuleSurface, new_index: Index) -> list[Break]:
    found: list[Break] = []
    for local, (before, line) in old.functions.items():
        if "." in local:
            continue  # methods: with their class
        after = new_index.signatures.get(resolve(new_index, f"{old.name}.{local}"))
        if after is None:
            continue
        said = changes(before, after)
        if said:
            found.append(
                Break(
                    "signature",
                    f"{old.name}.{local}",
                    old.path,
                    line,
                    "; ".join(said),
                    None,
                    before,
                    after,
                )
            )
    return found
