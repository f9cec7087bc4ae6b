"""One side of vLLM as a whole: an `Index` of what its modules re-export, each class's bases
and own members, every callable's signature; and how a dotted name resolves through them
(`vllm.config.VllmConfig` is `vllm.config.vllm.VllmConfig`; `Cls.method` is the base class's
method when the class inherits it). `needed` tells which modules to read to follow names."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from bot.features.radar.predict.model import Index, Param, Signature
from bot.features.radar.predict.signatures import fields_signature
from bot.features.radar.predict.surface import FIELD_BASES, ClassSurface, ModuleSurface


def build_index(modules: Mapping[str, ModuleSurface]) -> Index:
    """Re-exports, classes' bases and own members, and every callable's signature (a class
    with no `__init__` of its own but fields gets the one its fields make)."""
    aliases: dict[str, str] = {}
    bases: dict[str, tuple[str, ...]] = {}
    members: dict[str, frozenset[str]] = {}
    signatures: dict[str, Signature] = {}
    for name, surface in modules.items():
        for bound, (kind, _, target) in surface.bindings.items():
            if kind == "import" and target is not None:
                aliases[f"{name}.{bound}"] = target
        for local, (sig, _) in surface.functions.items():
            signatures[f"{name}.{local}"] = sig
        for info in surface.classes.values():
            bases[info.name] = info.bases
            own = set(info.own)
            members[info.name] = frozenset(own)
    index = Index(frozenset(modules), aliases, bases, members, signatures)
    for surface in modules.values():
        for info in surface.classes.values():
            if info.init is None and info.fields is not None:
                params = _all_fields(index, modules, info)
                if params is not None:
                    pairs = [(p.name, p.default) for p in params]
                    signatures[f"{info.name}.__init__"] = fields_signature(pairs, "fields")
                    members[info.name] = members[info.name] | {"__init__"}
    return index


def _all_fields(
    index: Index, modules: Mapping[str, ModuleSurface], info: ClassSurface
) -> tuple[Param, ...] | None:
    """A dataclass's fields with its dataclass bases' first; None when a base is not known."""
    if info.fields is None:
        return None
    found: list[Param] = []
    for base in info.bases:
        base = resolve(index, base)
        if base.rsplit(".", 1)[-1] in FIELD_BASES or base in ("object", "ABC"):
            continue
        parent = class_surface(modules, base)
        if parent is None or parent.fields is None:
            return None
        more = _all_fields(index, modules, parent)
        if more is None:
            return None
        found.extend(more)
    own = {p.name for p in info.fields}
    return tuple([p for p in found if p.name not in own] + list(info.fields))


def class_surface(modules: Mapping[str, ModuleSurface], name: str) -> ClassSurface | None:
    module, _, local = name.rpartition(".")
    while module:
        if module in modules:
            return modules[module].classes.get(local)
        module, _, head = module.rpartition(".")
        local = f"{head}.{local}"
    return None


def resolve(index: Index, name: str, depth: int = 0) -> str:
    """A dotted name as vLLM defines it: through re-exports (`vllm.config.VllmConfig` is
    `vllm.config.vllm.VllmConfig`) and, for a class member, to the base class that defines
    it. A name it cannot follow is given back as far as it got."""
    if depth > 12:
        return name
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        head = ".".join(parts[:i])
        target = index.aliases.get(head)
        if target is not None and target != head:
            return resolve(index, ".".join([target, *parts[i:]]), depth + 1)
        if head in index.members and i < len(parts):
            member = parts[i]
            owner = defining_class(index, head, member)
            if owner is not None and owner != head:
                return resolve(index, ".".join([owner, *parts[i:]]), depth + 1)
            return name
        if head in index.modules:
            return name
    return name


def defining_class(index: Index, cls: str, member: str, depth: int = 0) -> str | None:
    """The class among `cls` and its ancestors that defines `member`, or None."""
    if depth > 12:
        return None
    if member in index.members.get(cls, frozenset()):
        return cls
    for base in index.bases.get(cls, ()):
        found = defining_class(index, resolve(index, base), member, depth + 1)
        if found is not None:
            return found
    return None


def ancestors(index: Index, cls: str, depth: int = 0) -> set[str]:
    """Every base of `cls`, near and far, as far as the index knows them."""
    found: set[str] = set()
    if depth > 12:
        return found
    for base in index.bases.get(cls, ()):
        base = resolve(index, base)
        found.add(base)
        found |= ancestors(index, base, depth + 1)
    return found


def owning_module(name: str, available: Collection[str]) -> str | None:
    """The longest dotted prefix of `name` that is a module in `available`."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        head = ".".join(parts[:i])
        if head in available:
            return head
    return None


def needed(
    names: Iterable[str], available: Collection[str], loaded: Mapping[str, ModuleSurface]
) -> set[str]:
    """The modules (of `available`) still to read to follow `names` through re-exports and
    base classes, given the modules `loaded` so far: call it again with them read until it
    answers nothing. A plugin's names are `PluginUses.uses`' names."""
    missing: set[str] = set()
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen or len(seen) > 100_000:
            continue
        seen.add(name)
        module = owning_module(name, available)
        if module is None:
            continue
        surface = loaded.get(module)
        if surface is None:
            missing.add(module)
            continue
        rest = name[len(module) + 1 :].split(".") if name != module else []
        if not rest:
            continue
        kind, _, target = surface.bindings.get(rest[0], ("", 0, None))
        if kind == "import" and target:
            todo.append(".".join([target, *rest[1:]]))
        info = surface.classes.get(rest[0])
        if info is not None:
            todo.extend(f"{base}.{'.'.join(rest[1:])}".rstrip(".") for base in info.bases)
            todo.extend(info.bases)
        todo.extend(f"{star}.{'.'.join(rest)}" for star in surface.stars)
    return missing
