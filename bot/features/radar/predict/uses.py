"""What a plugin uses of vLLM, line by line, read from its source tree with `ast`.

Each file is parsed; its imports of `vllm` (absolute only: a relative import is the plugin's
own) bind local names to vLLM names, and every later use goes through those bindings
(`from vllm.v1 import worker as w; w.gpu_model_runner.X` is `vllm.v1.worker.gpu_model_runner.X`).
The bindings are the file's, wherever the import stands (a function's import counts for the
whole file): plugins import inside functions to import lazily, not to shadow.

Read: imports, attribute chains, calls (keyword names, how many positional), base classes,
methods of a vLLM subclass (an override, with its own signature), `self.x` and `super().m()`
in a vLLM subclass that the class does not define itself (what it inherits), and
monkey-patches (`vllm.x.Y.m = f`, `setattr(vllm.x, "n", v)`, `patch("vllm.x.n")`,
`patch.object(Y, "m")`). Each use says whether it is guarded (a `try` catching ImportError
or AttributeError, a version check, `hasattr`, `TYPE_CHECKING`). A file that does not parse
is reported as unreadable, never skipped.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping

from bot.features.radar.predict.model import PluginUses, Signature, Unreadable, Use
from bot.features.radar.predict.signatures import signature_of
from bot.features.radar.predict.syntax import (
    ROOT,
    catches_missing,
    chain,
    guard_of,
    is_vllm,
    method_kind,
)

# Bases that say nothing of where a member comes from.
NEUTRAL_BASES = {"object", "Generic", "Protocol", "ABC", "abc.ABC", "typing.Generic"}


class _Class:
    """A class of the plugin as far as its uses need: its vLLM bases, what it defines."""

    def __init__(self, node: ast.ClassDef, bases: list[str], plain: bool) -> None:
        self.bases = bases  # vLLM bases, resolved
        self.plain = plain  # every base is vLLM's (or neutral): a member it lacks is theirs
        self.own: set[str] = set()
        for stmt in node.body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                self.own.add(stmt.name)
            elif isinstance(stmt, ast.Assign | ast.AnnAssign):
                for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                    self.own.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        for item in ast.walk(node):
            if (
                isinstance(item, ast.Attribute)
                and isinstance(item.ctx, ast.Store | ast.Del)
                and isinstance(item.value, ast.Name)
                and item.value.id in ("self", "cls")
            ):
                self.own.add(item.attr)


class _FileReader(ast.NodeVisitor):
    def __init__(self, path: str, tree: ast.Module) -> None:
        self.path = path
        self.uses: list[Use] = []
        self.names = self._bindings(tree)
        self.defs = {
            n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        self.guards: list[str] = []
        self.classes: list[_Class | None] = []
        self.skip: set[int] = set()  # nodes already read as part of a larger one

    @staticmethod
    def _bindings(tree: ast.Module) -> dict[str, str]:
        names: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if is_vllm(alias.name):
                        if alias.asname:
                            names[alias.asname] = alias.name
                        else:
                            names[alias.name.split(".")[0]] = ROOT
            elif isinstance(node, ast.ImportFrom) and not node.level and is_vllm(node.module or ""):
                for alias in node.names:
                    if alias.name != "*":
                        names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        return names

    # -- where a use stands -------------------------------------------------------------

    def _add(
        self,
        node: ast.AST,
        kind: str,
        name: str,
        *,
        keywords: tuple[str, ...] = (),
        positional: int = 0,
        star: bool = False,
        bound: bool | None = None,
        signature: Signature | None = None,
    ) -> None:
        guard = self.guards[-1] if self.guards else None
        line = getattr(node, "lineno", 0)
        self.uses.append(
            Use(self.path, line, kind, name, guard, keywords, positional, star, bound, signature)
        )

    def _guarded(self, guard: str, nodes: list[ast.stmt]) -> None:
        self.guards.append(guard)
        for node in nodes:
            self.visit(node)
        self.guards.pop()

    def visit_If(self, node: ast.If) -> None:
        guard = guard_of(node)
        if guard is None:
            self.generic_visit(node)
            return
        if guard != "typing":
            self.visit(node.test)
        self._guarded(guard, node.body)
        # The `else` of TYPE_CHECKING runs; the other branch of a version test is guarded too.
        if guard == "typing":
            for stmt in node.orelse:
                self.visit(stmt)
        else:
            self._guarded(guard, node.orelse)

    def visit_Try(self, node: ast.Try) -> None:
        if not catches_missing(node):
            self.generic_visit(node)
            return
        self._guarded("import-error", [*node.body, *node.orelse])
        for handler in node.handlers:
            self._guarded("import-error", handler.body)
        for stmt in node.finalbody:
            self.visit(stmt)

    # -- what is used -------------------------------------------------------------------

    def resolve(self, node: ast.expr) -> str | None:
        words = chain(node)
        if not words or words[0] not in self.names:
            return None
        return ".".join([self.names[words[0]], *words[1:]])

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if is_vllm(alias.name):
                self._add(node, "import", alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module or not is_vllm(node.module):
            return
        for alias in node.names:
            name = node.module if alias.name == "*" else f"{node.module}.{alias.name}"
            self._add(node, "import", name)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        bases: list[str] = []
        plain = True
        for base in node.bases:
            target = base.value if isinstance(base, ast.Subscript) else base
            name = self.resolve(target)
            if name is not None:
                bases.append(name)
                self._add(base, "subclass", name)
                self.skip.add(id(target))
            elif ast.unparse(target) not in NEUTRAL_BASES:
                plain = False
        for item in [*node.bases, *node.keywords, *node.decorator_list]:
            self.visit(item)
        info = _Class(node, bases, plain) if bases else None
        self.classes.append(info)
        for stmt in node.body:
            if info is not None and isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                method = method_kind(stmt)
                self._add(
                    stmt,
                    "override",
                    f"{bases[0]}.{stmt.name}",
                    signature=signature_of(stmt, method),
                )
            self.visit(stmt)
        self.classes.pop()

    def _owner(self) -> _Class | None:
        return self.classes[-1] if self.classes else None

    def _inherited(self, node: ast.expr) -> str | None:
        """`self.x` or `super().x` in a vLLM subclass, x not its own: the base's name."""
        owner = self._owner()
        if not isinstance(node, ast.Attribute) or owner is None:
            return None
        value = node.value
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id == "super"
            and not value.args
        ):
            return f"{owner.bases[0]}.{node.attr}"
        if (
            isinstance(value, ast.Name)
            and value.id in ("self", "cls")
            and owner.plain
            and node.attr not in owner.own
        ):
            return f"{owner.bases[0]}.{node.attr}"
        return None

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = self.resolve(func)
        bound: bool | None = None
        if name is None:
            name = self._inherited(func)
            bound = True
        if name is not None:
            keywords = tuple(k.arg for k in node.keywords if k.arg is not None)
            star = any(isinstance(a, ast.Starred) for a in node.args) or any(
                k.arg is None for k in node.keywords
            )
            positional = sum(1 for a in node.args if not isinstance(a, ast.Starred))
            self._add(
                node, "call", name, keywords=keywords, positional=positional, star=star, bound=bound
            )
            self.skip.add(id(func))
        self._patches(node)
        self._getattr(node)
        self.generic_visit(node)

    def _patches(self, node: ast.Call) -> None:
        """`setattr(vllm.x, "n", v)`, `patch("vllm.x.n")`, `patch.object(vllm.x.Y, "m")`,
        `monkeypatch.setattr(...)` in either form."""
        words = chain(node.func) or []
        last = words[-1] if words else ""
        if last not in ("setattr", "patch", "object"):
            return
        args = node.args
        if args and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
            if is_vllm(args[0].value) and last in ("patch", "setattr"):
                self._add(node, "patch", args[0].value)
            return
        if len(args) >= 2 and isinstance(args[1], ast.Constant) and isinstance(args[1].value, str):
            owner = self.resolve(args[0])
            if owner is not None:
                replacement = args[2] if len(args) > 2 else None
                self._add(
                    node,
                    "patch",
                    f"{owner}.{args[1].value}",
                    signature=self._signature(replacement),
                )
                self.skip.add(id(args[0]))

    def _getattr(self, node: ast.Call) -> None:
        """`getattr(vllm.x, "n")`: a read; with a default, a guarded one."""
        if not (isinstance(node.func, ast.Name) and node.func.id == "getattr"):
            return
        args = node.args
        if len(args) >= 2 and isinstance(args[1], ast.Constant) and isinstance(args[1].value, str):
            owner = self.resolve(args[0])
            if owner is not None:
                guards = ["hasattr"] if len(args) > 2 else []
                self.guards.extend(guards)
                self._add(node, "attribute", f"{owner}.{args[1].value}")
                del self.guards[len(self.guards) - len(guards) :]
                self.skip.add(id(args[0]))

    def _signature(self, node: ast.expr | None) -> Signature | None:
        if isinstance(node, ast.Lambda):
            return signature_of(node, "function")
        if isinstance(node, ast.Name) and node.id in self.defs:
            return signature_of(self.defs[node.id], "function")
        return None

    def _assigned(self, targets: list[ast.expr], value: ast.expr | None) -> None:
        for target in targets:
            for item in target.elts if isinstance(target, ast.Tuple) else [target]:
                if isinstance(item, ast.Attribute):
                    name = self.resolve(item)
                    if name is not None:
                        self._add(item, "patch", name, signature=self._signature(value))
                        self.skip.add(id(item))

    def visit_Assign(self, node: ast.Assign) -> None:
        self._assigned(node.targets, node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._assigned([node.target], node.value)
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if id(node) in self.skip:
            return
        name = self.resolve(node)
        if name is not None:
            self._add(node, "attribute", name)
            return  # the chain is read whole
        inherited = self._inherited(node)
        if inherited is not None and isinstance(node.ctx, ast.Load):
            self._add(node, "inherited", inherited)
        self.generic_visit(node)


def file_uses(path: str, text: str) -> list[Use]:
    """The vLLM uses of one file (SyntaxError, ValueError when it does not parse)."""
    tree = ast.parse(text, filename=path)
    reader = _FileReader(path, tree)
    reader.visit(tree)
    return sorted(reader.uses, key=lambda u: (u.line, u.kind, u.name))


def _python(sources: Mapping[str, str | None]) -> Iterator[tuple[str, str | None]]:
    for path in sorted(sources):
        if path.endswith(".py"):
            yield path, sources[path]


def plugin_uses(sources: Mapping[str, str | None]) -> PluginUses:
    """What a plugin's source tree (path → Python text, None: the file could not be read)
    uses of vLLM. Files not ending in `.py` are not Python and not read."""
    uses: list[Use] = []
    unreadable: list[Unreadable] = []
    files = 0
    for path, text in _python(sources):
        if text is None:
            unreadable.append(Unreadable(path, "could not be read"))
            continue
        try:
            found = file_uses(path, text)
        except (SyntaxError, ValueError) as error:
            unreadable.append(Unreadable(path, f"does not parse: {error}"))
            continue
        files += 1
        uses.extend(found)
    return PluginUses(tuple(uses), files, tuple(unreadable))
