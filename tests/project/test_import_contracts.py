"""The import contracts bite (issue 54): "only X imports SDK Y" is closed-world (import-linter's
`protected` contracts name the only modules allowed, everyone else is refused) and the features
are independent of each other (one `independence` contract over `bot.features.*`).

The probe copies `bot/`, `formatters/`, `config/` and `pyproject.toml` into a temporary folder
and runs `lint-imports` there (the copy first on the path, so the copy is what grimp reads):
unchanged, every contract is kept; with an import of every protected SDK planted in the
documented-pure `bot/features/ci/analyze.py` and one feature importing another, exactly the SDK
contracts and the features' contract break, each naming the planted line."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "config", "formatters")

# The SDKs whose importers are a closed list (docs/architecture.md, "only X imports SDK Y").
SDKS = frozenset(
    {
        "github",
        "sqlalchemy",
        "alembic",
        "slack_sdk",
        "slack_bolt",
        "discord",
        "aiohttp",
        "nacl",
        "openai",
        "apscheduler",
    }
)

PURE_FEATURE_MODULE = "bot/features/ci/analyze.py"
# One feature importing another: the queue's analysis reading the personal digests' model.
CROSS_FEATURE = ("bot/features/queue/analyze.py", "bot.features.queue", "bot.features.personal")


def contracts() -> list[dict[str, Any]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found = config["tool"]["importlinter"]["contracts"]
    assert isinstance(found, list)
    return found


def protected() -> dict[str, str]:
    """Each protected SDK → the name of the contract that protects it."""
    found: dict[str, str] = {}
    for contract in contracts():
        if contract["type"] == "protected":
            for module in contract["protected_modules"]:
                assert module not in found, f"{module} is protected twice"
                found[module] = contract["name"]
    return found


def independence() -> str:
    (name,) = [
        c["name"]
        for c in contracts()
        if c["type"] == "independence" and c["modules"] == ["bot.features.*"]
    ]
    return str(name)


# -- the contracts' lists, read from pyproject.toml ------------------------------------------


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sdk_importers() -> dict[str, set[str]]:
    """Each top-level package → the modules of ours that import it, wherever the import stands
    (top of the file, inside a function, under TYPE_CHECKING)."""
    found: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    targets = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    targets = [node.module]
                else:
                    continue
                for target in targets:
                    found.setdefault(target.split(".")[0], set()).add(module_name(path))
    return found


def test_external_packages_are_in_the_graph() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["importlinter"]["include_external_packages"] is True


def test_every_sdk_has_a_closed_list_of_importers() -> None:
    missing = SDKS - set(protected())
    assert not missing, f"no protected contract for {sorted(missing)}"


def test_the_old_open_world_forms_are_gone() -> None:
    """No `forbidden` contract lists who may not import an SDK (a module nobody listed
    escaped it), and no feature has a contract of its own against the others."""
    for contract in contracts():
        if contract["type"] == "forbidden":
            assert not set(contract["forbidden_modules"]) & SDKS, contract["name"]
            assert not any(m.startswith("bot.features") for m in contract["source_modules"])


def test_every_allowed_importer_imports_its_sdk() -> None:
    """The lists stay exact: a module that stopped importing its SDK leaves the list (a stale
    name would let a later import in unnoticed)."""
    importers = sdk_importers()
    stale = []
    for contract in contracts():
        if contract["type"] != "protected":
            continue
        users = set().union(*(importers.get(m, set()) for m in contract["protected_modules"]))
        for allowed in contract["allowed_importers"]:
            if not any(u == allowed or u.startswith(allowed + ".") for u in users):
                stale.append((contract["name"], allowed))
    assert stale == []


# -- the probe: lint-imports on a copy, clean and with forbidden imports planted --------------


@dataclass(frozen=True)
class Run:
    returncode: int
    output: str

    def states(self) -> dict[str, str]:
        """Each contract's name → KEPT or BROKEN, from lint-imports' summary."""
        found = {}
        for line in self.output.splitlines():
            if m := re.fullmatch(r"(.+) (KEPT|BROKEN)(?: \(\d+ ignored imports?\))?", line):
                found[m.group(1)] = m.group(2)
        return found


def lint_imports_on_a_copy(folder: Path, plant: bool) -> Run:
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, folder / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", folder / "pyproject.toml")
    if plant:
        planted = ["", "# Planted by tests/project/test_import_contracts.py."]
        for i, sdk in enumerate(sorted(protected())):
            # Half at the top of the file, half imported late inside a function.
            planted += (
                [f"import {sdk}"] if i % 2 == 0 else [f"def _late_{i}():", f"    import {sdk}"]
            )
        with (folder / PURE_FEATURE_MODULE).open("a", encoding="utf-8") as file:
            file.write("\n".join(planted) + "\n")
        path, _, imported = CROSS_FEATURE
        with (folder / path).open("a", encoding="utf-8") as file:
            file.write(f"\nimport {imported}.model  # planted\n")
    lint = Path(sys.executable).with_name("lint-imports")
    command = [str(lint)] if lint.exists() else [sys.executable, "-m", "importlinter.cli"]
    env = {**os.environ, "PYTHONPATH": str(folder), "COLUMNS": "400", "NO_COLOR": "1"}
    result = subprocess.run(
        [*command, "--no-cache"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return Run(result.returncode, result.stdout + result.stderr)


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Run:
    return lint_imports_on_a_copy(tmp_path_factory.mktemp("clean"), plant=False)


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> Run:
    return lint_imports_on_a_copy(tmp_path_factory.mktemp("planted"), plant=True)


def test_the_unchanged_copy_keeps_every_contract(clean: Run) -> None:
    assert clean.returncode == 0, clean.output
    names = [c["name"] for c in contracts()]
    assert clean.states() == dict.fromkeys(names, "KEPT"), clean.output


@pytest.mark.parametrize("sdk", sorted(SDKS))
def test_a_feature_importing_an_sdk_breaks_its_contract(planted: Run, sdk: str) -> None:
    assert planted.returncode != 0
    assert planted.states()[protected()[sdk]] == "BROKEN", planted.output
    dotted = PURE_FEATURE_MODULE.removesuffix(".py").replace("/", ".")
    assert re.search(rf"^- {re.escape(dotted)} -> {sdk} \(l\.\d+\)$", planted.output, re.M)


def test_a_feature_importing_another_breaks_their_independence(planted: Run) -> None:
    path, importer, imported = CROSS_FEATURE
    assert planted.states()[independence()] == "BROKEN", planted.output
    assert f"{importer} is not allowed to import {imported}:" in planted.output
    dotted = path.removesuffix(".py").replace("/", ".")
    assert re.search(
        rf"^- {re.escape(dotted)} -> {imported}\.model \(l\.\d+\)$", planted.output, re.M
    )


def test_the_plants_break_nothing_else(planted: Run) -> None:
    """Only the planted contracts break: each plant is caught by the contract meant for it."""
    broken = {name for name, state in planted.states().items() if state == "BROKEN"}
    assert broken == {*protected().values(), independence()}, planted.output
    assert len(planted.states()) == len(contracts())
