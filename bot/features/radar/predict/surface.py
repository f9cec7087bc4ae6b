"""What a vLLM module offers, read with `ast`: the names it binds at run time (definitions,
assignments, imports: a re-export is a name like any other), its classes (bases, members,
constructor) and its functions' signatures; and one side of vLLM as an `Index` that
resolves a name through re-exports and base classes.

Names bound under `if TYPE_CHECKING:` are not bound at run time and are left out. A module
with a `__getattr__` may hand out any name its text spells as a string (vLLM's deprecation
shims do): those count as bound.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from bot.features.radar.predict.model import Index, Param, Signature
from bot.features.radar.predict.signatures import fields_signature, signature_of
from bot.features.radar.predict.uses import chain, guard_of, method_kind

# Class decorators and bases that give a class an `__init__` made of its annotated fields.
FIELD_DECORATORS = {"dataclass", "dataclasses.dataclass", "pydantic.dataclasses.dataclass"}
FIELD_BASES = {"NamedTuple", "Struct", "BaseModel"}


def module_name(path: str) -> str:
    """`vllm/v1/worker/x.py` → `vllm.v1.worker.x`; `vllm/config/__init__.py` → `vllm.config`."""
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


@dataclass
class ClassSurface:
    name: str  # qualified: `vllm.x.Cls`
    line: int
    bases: tuple[str, ...]  # resolved where the module's bindings say
    own: dict[str, int] = field(default_factory=dict)  # member → its line
    init: Signature | None = None  # its own `__init__`
    fields: tuple[Param, ...] | None = None  # a dataclass-like class's fields, in order


@dataclass
class ModuleSurface:
    name: str
    path: str
    bindings: dict[str, tuple[str, int, str | None]] = field(default_factory=dict)
    # name → (kind: def, class, assign, import; line; what an import binds it to)
    stars: list[str] = field(default_factory=list)  # `from m import *`
    lazy: frozenset[str] | None = None  # with `__getattr__`: the strings it spells
    classes: dict[str, ClassSurface] = field(default_factory=dict)
    functions: dict[str, tuple[Signature, int]] = field(default_factory=dict)
    bodies: dict[str, str] = field(default_factory=dict)  # def/class name → its body, dumped

    def alive(self, name: str) -> bool:
        return name in self.bindings or (self.lazy is not None and name in self.lazy)


def _runtime(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The module's statements that run at import (into if/try/with, not into defs)."""
    for node in body:
        if isinstance(node, ast.If):
            if guard_of(node) == "typing":
                yield from _runtime(node.orelse)
            else:
                yield from _runtime(node.body)
                yield from _runtime(node.orelse)
        elif isinstance(node, ast.Try):
            for part in (node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody):
                yield from _runtime(part)
        elif isinstance(node, ast.With):
            yield from _runtime(node.body)
        else:
            yield node


def absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
    return ".".join([*base, *([node.module] if node.module else [])])


def _bind_targets(target: ast.expr) -> Iterator[ast.Name]:
    for node in ast.walk(target):
        if isinstance(node, ast.Name):
            yield node


def _fields(node: ast.ClassDef) -> list[Param]:
    """Annotated class-body names, in order, with whether each has a default."""
    found: list[Param] = []
    kw_only = any(k.arg == "kw_only" for k in node.keywords)
    for stmt in node.body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        note = ast.unparse(stmt.annotation)
        if note.startswith(("ClassVar", "typing.ClassVar", "InitVar")):
            continue
        if note.endswith("KW_ONLY"):
            kw_only = True
            continue
        default = stmt.value is not None
        if isinstance(stmt.value, ast.Call) and (chain(stmt.value.func) or [""])[-1] == "field":
            words = {k.arg for k in stmt.value.keywords}
            default = bool(words & {"default", "default_factory"})
        found.append(Param(stmt.target.id, "keyword-only" if kw_only else "positional", default))
    return found


class _Reader:
    def __init__(self, module: str, path: str, tree: ast.Module) -> None:
        self.surface = ModuleSurface(module, path)
        self.is_package = path.endswith("__init__.py")
        self.tree = tree

    def read(self) -> ModuleSurface:
        s = self.surface
        for node in _runtime(self.tree.body):
            self._statement(node)
        if "__getattr__" in s.bindings:
            s.lazy = frozenset(
                n.value
                for n in ast.walk(self.tree)
                if isinstance(n, ast.Constant) and isinstance(n.value, str)
            )
        return s

    def _bind(self, name: str, kind: str, line: int, target: str | None = None) -> None:
        self.surface.bindings[name] = (kind, line, target)

    def _statement(self, node: ast.stmt) -> None:
        s = self.surface
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self._bind(alias.asname, "import", node.lineno, alias.name)
                else:
                    top = alias.name.split(".")[0]
                    self._bind(top, "import", node.lineno, top)
        elif isinstance(node, ast.ImportFrom):
            source = absolute(s.name, self.is_package, node)
            for alias in node.names:
                if alias.name == "*":
                    s.stars.append(source)
                else:
                    target = f"{source}.{alias.name}"
                    self._bind(alias.asname or alias.name, "import", node.lineno, target)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            self._bind(node.name, "def", node.lineno)
            s.functions[node.name] = (signature_of(node, "function"), node.lineno)
            s.bodies[node.name] = _body(node)
        elif isinstance(node, ast.ClassDef):
            self._bind(node.name, "class", node.lineno)
            self._class(node, node.name)
            s.bodies[node.name] = _body(node)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            lhs = node.targets if isinstance(node, ast.Assign) else [node.target]
            for one in lhs:
                for name in _bind_targets(one):
                    self._bind(name.id, "assign", node.lineno)

    def resolve(self, node: ast.expr) -> str:
        """A base class's name as this module binds it."""
        words = chain(node)
        if not words:
            return ast.unparse(node)
        bound = self.surface.bindings.get(words[0])
        if bound is None:
            return ".".join(words)
        kind, _, target = bound
        head = target if kind == "import" and target else f"{self.surface.name}.{words[0]}"
        return ".".join([head, *words[1:]])

    def _class(self, node: ast.ClassDef, local: str) -> None:
        s = self.surface
        bases = tuple(
            self.resolve(b.value if isinstance(b, ast.Subscript) else b) for b in node.bases
        )
        info = ClassSurface(f"{s.name}.{local}", node.lineno, bases)
        for stmt in _runtime(node.body):
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                info.own[stmt.name] = stmt.lineno
                kind = method_kind(stmt)
                s.functions[f"{local}.{stmt.name}"] = (signature_of(stmt, kind), stmt.lineno)
                if stmt.name == "__init__":
                    info.init = signature_of(stmt, "instance")
            elif isinstance(stmt, ast.ClassDef):
                info.own[stmt.name] = stmt.lineno
                self._class(stmt, f"{local}.{stmt.name}")
            elif isinstance(stmt, ast.Assign | ast.AnnAssign):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for target in targets:
                    for name in _bind_targets(target):
                        info.own.setdefault(name.id, stmt.lineno)
        for item in ast.walk(node):
            attribute = _sets_self(item)
            if attribute is not None:
                info.own.setdefault(attribute.attr, attribute.lineno)
        decorators = {
            ast.unparse(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list
        }
        base_words = {b.rsplit(".", 1)[-1] for b in bases}
        if decorators & FIELD_DECORATORS or base_words & FIELD_BASES:
            info.fields = tuple(_fields(node))
        s.classes[local] = info


def _sets_self(node: ast.AST) -> ast.Attribute | None:
    """`self.x = …`: an instance attribute the class sets."""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Store)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    ):
        return node
    return None


def _body(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> str:
    return "\n".join(ast.dump(stmt) for stmt in node.body)


def read_module(path: str, text: str) -> ModuleSurface:
    """What one vLLM module offers (SyntaxError, ValueError when it does not parse)."""
    tree = ast.parse(text, filename=path)
    return _Reader(module_name(path), path, tree).read()


# -- one side of vLLM as a whole -------------------------------------------------------------


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
