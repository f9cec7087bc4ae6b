"""Signatures read from the syntax tree, and whether a call or an override still fits one.

A call is checked the way Python binds it (positional arguments fill the positional
parameters in order, keywords by name, the rest go to `*args`/`**kwargs`), so a change breaks
a call only when the call bound before and does not bind now, or when a positional argument
now lands on another parameter. An override (a plugin's method vLLM calls) breaks when vLLM
now passes a parameter it does not accept, or stops passing one it requires.
"""

from __future__ import annotations

import ast

from bot.features.radar.predict.model import Param, Signature

POSITIONAL = ("positional-only", "positional")


def signature_of(
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, method: str
) -> Signature:
    """The parameters of a `def` or a lambda; `method`: function, instance, class or static."""
    args = node.args
    params: list[Param] = []
    positional = [*args.posonlyargs, *args.args]
    # Defaults belong to the last positional parameters.
    first_default = len(positional) - len(args.defaults)
    for i, arg in enumerate(positional):
        kind = "positional-only" if i < len(args.posonlyargs) else "positional"
        params.append(Param(arg.arg, kind, i >= first_default))
    if args.vararg is not None:
        params.append(Param(args.vararg.arg, "var-positional", True))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        params.append(Param(arg.arg, "keyword-only", default is not None))
    if args.kwarg is not None:
        params.append(Param(args.kwarg.arg, "var-keyword", True))
    return Signature(tuple(params), f"({ast.unparse(args)})", method)


def fields_signature(fields: list[tuple[str, bool]], text_of: str) -> Signature:
    """The `__init__` a dataclass-like class gets from its fields (name, has a default)."""
    params = [Param("self", "positional", False)]
    params += [Param(name, "positional", default) for name, default in fields]
    text = ", ".join(["self", *(f"{n}=..." if d else n for n, d in fields)])
    return Signature(tuple(params), f"({text}) [{text_of}]", "instance")


def _has(params: tuple[Param, ...], kind: str) -> bool:
    return any(p.kind == kind for p in params)


def bind(
    params: tuple[Param, ...], positional: int, keywords: tuple[str, ...], star: bool
) -> tuple[str, ...] | None:
    """The parameters `positional` positional arguments land on, or None when the call does
    not bind (too many positional, an unknown or doubled keyword, a required one left out).
    With `*args`/`**kwargs` spread in the call, only what it names explicitly is checked."""
    slots = [p for p in params if p.kind in POSITIONAL]
    if positional > len(slots) and not _has(params, "var-positional") and not star:
        return None
    landed = tuple(p.name for p in slots[:positional])
    by_name = {p.name: p for p in params if p.kind in ("positional", "keyword-only")}
    for word in keywords:
        if word in landed or (word not in by_name and not _has(params, "var-keyword")):
            return None
    if not star:
        filled = set(landed) | set(keywords)
        for p in params:
            if p.kind in (*POSITIONAL, "keyword-only") and not p.default and p.name not in filled:
                return None
    return landed


def call_breaks(
    before: Signature,
    after: Signature,
    positional: int,
    keywords: tuple[str, ...],
    star: bool,
    bound: bool,
) -> bool:
    """Whether a call that fitted `before` fails with `after`, or its positional arguments
    land on other parameters. `bound`: the call passes no `self`/`cls` itself."""
    old = before.bound() if bound else before.params
    new = after.bound() if bound else after.params
    was = bind(old, positional, keywords, star)
    if was is None:
        return False  # it did not fit before either: not this change's doing
    now = bind(new, positional, keywords, star)
    if now is None:
        return True
    # A positional argument now landing on another parameter breaks the call, unless the
    # parameter was only renamed in its place (neither name is on both sides).
    old_names = {p.name for p in old}
    new_names = {p.name for p in new}
    return any(w != n and (n in old_names or w in new_names) for w, n in zip(was, now, strict=True))


def override_breaks(before: Signature, after: Signature, own: Signature) -> str | None:
    """Whether a plugin's override (`own`) of a vLLM method stops fitting how vLLM calls it:
    "breaks" when vLLM must now pass a parameter the override does not take (a new one with
    no default) or stops passing one the override requires; "may break" when the new
    parameter has a default (it fails only where vLLM's callers pass it); else None."""
    mine = {p.name: p for p in own.params}
    takes_any = _has(own.params, "var-keyword")
    old_names = {p.name for p in before.params}
    new_names = {p.name for p in after.params}
    verdict: str | None = None
    for p in own.bound():
        if p.kind in ("var-positional", "var-keyword") or p.default:
            continue
        if p.name in old_names and p.name not in new_names:
            return "breaks"
    for p in after.bound():
        if p.kind in ("var-positional", "var-keyword") or p.name in old_names:
            continue
        if p.name not in mine and not takes_any:
            if not p.default:
                return "breaks"
            verdict = "may break"
    return verdict


def _lost(old: tuple[Param, ...], new: tuple[Param, ...]) -> list[str]:
    """What the old parameters lost: removed, made required, no longer positional."""
    new_by = {p.name: p for p in new}
    said: list[str] = []
    takes_keywords = _has(new, "var-keyword")
    for p in old:
        if p.kind in ("var-positional", "var-keyword"):
            if not _has(new, p.kind):
                said.append(f"{'*' if p.kind == 'var-positional' else '**'}{p.name} removed")
            continue
        if p.name not in new_by:
            if not (takes_keywords and p.kind == "keyword-only"):
                said.append(f"removed: {p.name}")
            continue
        q = new_by[p.name]
        if p.default and not q.default:
            said.append(f"made required: {p.name}")
        if p.kind in POSITIONAL and q.kind not in POSITIONAL:
            said.append(f"keyword-only now: {p.name}")
    return said


def changes(before: Signature, after: Signature) -> tuple[str, ...]:
    """What changed between two signatures, in the words of a code review; empty when
    nothing a caller or an overrider could notice did."""
    old, new = before.bound(), after.bound()
    old_by = {p.name: p for p in old}
    said = _lost(old, new)
    for q in new:
        if q.kind in ("var-positional", "var-keyword") or q.name in old_by:
            continue
        said.append(f"added: {q.name}" if q.default else f"newly required: {q.name}")
    old_pos = [p.name for p in old if p.kind in POSITIONAL]
    new_pos = [p.name for p in new if p.kind in POSITIONAL]
    shared = [n for n in old_pos if n in new_pos]
    if any(old_pos.index(n) != new_pos.index(n) for n in shared):
        said.append("positional order changed")
    return tuple(said)
