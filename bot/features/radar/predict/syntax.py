"""The few readings of Python's syntax tree both sides share: a dotted chain of names, which
guard an `if` or a `try` is, what kind of method a `def` is."""

from __future__ import annotations

import ast

ROOT = "vllm"
CATCHES_MISSING = {"ImportError", "ModuleNotFoundError", "AttributeError", "Exception"}


def is_vllm(name: str) -> bool:
    return name == ROOT or name.startswith(ROOT + ".")


def chain(node: ast.expr) -> list[str] | None:
    """`a.b.c` as ["a", "b", "c"]; None when it is not a plain chain of names."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def guard_of(node: ast.If) -> str | None:
    """Which guard an `if` is: a TYPE_CHECKING block, a version test, a hasattr test."""
    names = [n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)]
    names += [n.attr for n in ast.walk(node.test) if isinstance(n, ast.Attribute)]
    if "TYPE_CHECKING" in names:
        return "typing"
    if any("version" in n.lower() for n in names):
        return "version"
    if "hasattr" in names:
        return "hasattr"
    return None


def catches_missing(node: ast.Try) -> bool:
    for handler in node.handlers:
        if handler.type is None:
            return True
        caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        for t in caught:
            words = chain(t)
            if words and words[-1] in CATCHES_MISSING:
                return True
    return False


def method_kind(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    names = {(chain(d) or [""])[-1] for d in node.decorator_list}
    if "staticmethod" in names:
        return "static"
    if "classmethod" in names:
        return "class"
    return "instance"
