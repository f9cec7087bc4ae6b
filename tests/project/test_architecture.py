"""The shape of the code: every module inside a layer, heavy SDKs out of the light paths."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "config", "formatters")


def layer_names() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (layers,) = [c["layers"] for c in contracts if c["type"] == "layers"]
    return [name.strip() for layer in layers for name in re.split(r"[|:]", layer)]


def modules() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found.append(".".join(parts))
    return found


MAX_LINES = 500  # a module longer than this is two modules (docs/architecture.md)


def test_no_module_is_over_the_ceiling() -> None:
    """Every module of the product holds at most MAX_LINES lines: past that a reader can no
    longer keep what it does in mind, and it is split by purpose."""
    paths = [path for package in PACKAGES for path in (ROOT / package).rglob("*.py")]
    long = {
        str(path.relative_to(ROOT)): lines
        for path in paths
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}, f"split these modules by purpose: {long}"


def imports_nothing(module: str) -> bool:
    """A package whose `__init__.py` imports nothing (a docstring): nothing to layer."""
    init = ROOT / module.replace(".", "/") / "__init__.py"
    if not init.is_file():
        return False
    tree = ast.parse(init.read_text(encoding="utf-8"))
    return not any(isinstance(node, ast.Import | ast.ImportFrom) for node in ast.walk(tree))


def test_every_module_is_inside_a_layer() -> None:
    """A module outside every layer would escape the layers contract: none may, but for a
    package that imports nothing (bot/platforms/slack/: its drawing and its SDK side are in
    two layers)."""
    layers = layer_names()

    def inside(module: str) -> bool:
        return any(module == layer or module.startswith(layer + ".") for layer in layers)

    outside = [
        m for m in modules() if m not in PACKAGES and not inside(m) and not imports_nothing(m)
    ]
    assert outside == [], f"place these in a layer package: {outside}"


def test_the_light_commands_import_no_sdk() -> None:
    """`--help` and a usage error import none of the heavy SDKs (they cost seconds)."""
    probe = (
        "import sys, runpy\n"
        "sys.argv = ['vllm-report'] + sys.argv[1:]\n"
        "try:\n    runpy.run_module('bot', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        "heavy = ('github', 'sqlalchemy', 'alembic', 'openai', 'discord', 'slack_sdk',\n"
        "         'slack_bolt', 'aiohttp', 'apscheduler', 'pydantic')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    for argv in (["--help"], ["show", "not-a-date"]):
        result = subprocess.run(
            [sys.executable, "-c", probe, *argv],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        )
        assert result.stdout.strip().splitlines()[-1] == "[]", (argv, result.stdout)


def test_topics_imports_no_sdk_and_no_database() -> None:
    """Settings and topic rules load without PyGithub, SQLAlchemy, the model or chat SDKs."""
    probe = (
        "import sys\n"
        "from bot.cli import main\n"
        "main(['topics'])\n"
        "heavy = ('github', 'openai', 'discord', 'slack_sdk', 'slack_bolt', 'sqlalchemy')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert result.stdout.strip().splitlines()[-1] == "[]", result.stdout + result.stderr


def import_graph() -> dict[str, set[str]]:
    """Every module's imports of this project's modules, wherever they stand in the file:
    at the top, inside a function (imported late for speed) or under TYPE_CHECKING."""
    import ast

    known = set(modules())
    graph: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found: set[str] = set()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    targets = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                else:
                    continue
                found |= {t for t in targets if t in known and t != name}
            graph[name] = found
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_in_a_circle_even_late() -> None:
    """`daily` → `reports` → `queue` → `daily` once hid in local imports: no circle remains,
    counting imports inside functions and under TYPE_CHECKING (a package's `__init__`
    re-exporting its own modules is not a circle)."""
    graph = import_graph()
    packages = {m for m in graph if (ROOT / m.replace(".", "/")).is_dir()}
    for package in packages:  # a package may import its modules; they may not import it
        graph[package] = {m for m in graph[package] if not m.startswith(package + ".")}
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
