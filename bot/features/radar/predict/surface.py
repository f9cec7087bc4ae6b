"""What a vLLM module offers, read with `ast`: the names it binds at run time (definitions,
assignments, imports: a re-export is a name like any other), its classes (bases, members,
constructor) and its functions' signatures. `index.py` puts the modules of one side together.

Names bound under `if TYPE_CHECKING:` are not bound at run time and are left out. A module
with a `__getattr__` may hand out any name its text spells as a string (vLLM's deprecation
shims do): those count as bound.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field

from bot.features.radar.predict.model import Param, Signature
from bot.features.radar.predict.signatures import signature_of
from bot.features.radar.predict.syntax import chain, guard_of, method_kind

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
    exported: frozenset[str] | None = None  # `__all__`, when it is a literal list
    lazy: frozenset[str] | None = None  # with `__getattr__`: the names it may hand out
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
        for node in self.tree.body:
            if (
                isinstance(node, ast.Assign | ast.AnnAssign)
                and "__all__" in [t.id for t in _targets(node) if isinstance(t, ast.Name)]
                and isinstance(node.value, ast.List | ast.Tuple)
            ):
                s.exported = frozenset(
                    e.value
                    for e in node.value.elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)
                )
        if "__getattr__" in s.bindings:
            s.lazy = frozenset(_handed_out(self.tree))
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


def _targets(node: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return node.targets if isinstance(node, ast.Assign) else [node.target]


def star_names(surface: ModuleSurface) -> set[str]:
    """What `from this import *` binds: `__all__`, or every public name."""
    if surface.exported is not None:
        return set(surface.exported)
    return {n for n in surface.bindings if not n.startswith("_")}


def _handed_out(tree: ast.Module) -> set[str]:
    """The names a module's `__getattr__` may hand out: a dict's string keys (vllm.envs'
    variables, a table of deprecated names), and the strings `__getattr__` compares the name
    with. Not every string: a deprecation table's values name where a name went."""
    found: set[object] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            found.update(k.value for k in node.keys if isinstance(k, ast.Constant))
        elif isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            for test in ast.walk(node):
                if isinstance(test, ast.Compare):
                    for side in [test.left, *test.comparators]:
                        found.update(c.value for c in ast.walk(side) if isinstance(c, ast.Constant))
    return {name for name in found if isinstance(name, str)}


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
