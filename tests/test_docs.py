"""The docs stay true to the code: every setting in docs/settings.md, every module in
docs/architecture.md, a README people read (at most 200 lines), no relative link in the
README or docs/ that lands nowhere and no path outside the repository, every section a page
sends readers to a heading there, the schema revisions they quote, and every slash command of
manifest.yml in the Slack app's steps.

Read from the source text alone (config/fields.py parsed, not imported), so this file
imports nothing heavy and reaches no network."""

from __future__ import annotations

import ast
import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README_MAX_LINES = 200
CODE_PACKAGES = ("bot", "formatters", "config")


# -- settings ----------------------------------------------------------------------------


def setting_env_names(source: str) -> dict[str, str]:
    """{field: environment name} of every field of `class Settings`, named the way
    config/fields.py names them: the first alias of a `validation_alias` (`_alias(...)` or
    `AliasChoices(...)`), else the `env_prefix` plus the field name in upper case."""
    tree = ast.parse(source)
    settings = next(
        node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Settings"
    )
    prefix = _env_prefix(settings)
    names = {}
    for node in settings.body:
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            continue
        field = node.target.id
        if field.startswith("_") or field == "model_config":
            continue
        names[field] = _alias_name(node.value) or f"{prefix}{field.upper()}"
    return names


def _env_prefix(settings: ast.ClassDef) -> str:
    for node in settings.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if any(isinstance(t, ast.Name) and t.id == "model_config" for t in targets):
            assert isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
            for keyword in node.value.keywords:
                if keyword.arg == "env_prefix":
                    return str(ast.literal_eval(keyword.value))
    return ""


def _alias_name(value: ast.expr | None) -> str | None:
    """The first name of `Field(..., validation_alias=_alias("NAME", …) | AliasChoices("NAME",
    …) | "NAME")`, upper-cased (the environment name), or None without an alias."""
    if not isinstance(value, ast.Call):
        return None
    for keyword in value.keywords:
        if keyword.arg not in ("validation_alias", "alias"):
            continue
        alias = keyword.value
        if isinstance(alias, ast.Call) and alias.args:
            alias = alias.args[0]
        return str(ast.literal_eval(alias)).upper()
    return None


def test_the_settings_are_read_from_the_source() -> None:
    """The parse itself: a plain field, a conventional name, a renamed one."""
    names = setting_env_names((ROOT / "config" / "fields.py").read_text(encoding="utf-8"))
    assert names["max_range_days"] == "VLLM_REPORT_MAX_RANGE_DAYS"
    assert names["github_token"] == "GITHUB_TOKEN"
    assert names["site_url"] == "VLLM_REPORT_SITE_URL"
    assert len(names) >= 40


def test_every_setting_is_in_the_settings_page() -> None:
    """By its environment name and its TOML key (the field name), each in backticks."""
    names = setting_env_names((ROOT / "config" / "fields.py").read_text(encoding="utf-8"))
    page = (DOCS / "settings.md").read_text(encoding="utf-8")
    missing = sorted(env for env in names.values() if f"`{env}`" not in page)
    assert missing == [], f"settings missing from docs/settings.md: {missing}"
    no_key = sorted(field for field in names if f"`{field}`" not in page)
    assert no_key == [], f"TOML keys missing from docs/settings.md: {no_key}"


# -- modules -----------------------------------------------------------------------------


def code_modules() -> list[tuple[str, str]]:
    """(path name, dotted name) of every module and package under bot/, formatters/,
    config/: `bot/store/` and `bot.store` for a package, `bot/cli.py` and `bot.cli` for a
    module."""
    found = []
    for package in CODE_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if "__pycache__" in relative.parts:
                continue
            if path.name == "__init__.py":
                parts = relative.parent.parts
                found.append(("/".join(parts) + "/", ".".join(parts)))
            else:
                parts = relative.with_suffix("").parts
                found.append((relative.as_posix(), ".".join(parts)))
    return found


def named(text: str, path_name: str, dotted: str) -> bool:
    """Whether the text names a module on its own: `bot/store/` or `bot.store`, not only as
    the start of `bot/store/items.py` or `bot.store.items`."""
    for name in (path_name, dotted):
        if re.search(rf"(?<![\w./-]){re.escape(name)}(?![\w/]|\.\w)", text):
            return True
    return False


def test_every_module_is_in_the_architecture_map() -> None:
    page = (DOCS / "architecture.md").read_text(encoding="utf-8")
    modules = code_modules()
    assert ("bot/cli/", "bot.cli") in modules and ("config/", "config") in modules
    missing = sorted(path for path, dotted in modules if not named(page, path, dotted))
    assert missing == [], f"modules missing from docs/architecture.md: {missing}"


def test_a_package_is_not_named_by_its_modules_alone() -> None:
    assert not named("see `bot/store/items.py` and bot.store.items", "bot/store/", "bot.store")
    assert named("| `bot/store/` | the store |", "bot/store/", "bot.store")
    assert named("the store (bot.store).", "bot/store/", "bot.store")


# -- the README --------------------------------------------------------------------------


def test_the_readme_is_short() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"


# -- links -------------------------------------------------------------------------------

PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
_INLINE_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"`[^`\n]*`")


def links(text: str) -> list[str]:
    """Every link target outside code blocks and code spans."""
    prose = _CODE_SPAN.sub("", _FENCE.sub("", text))
    return _INLINE_LINK.findall(prose) + _REFERENCE_LINK.findall(prose)


def anchors(markdown: str) -> set[str]:
    """The anchors GitHub makes of a page's headings (lower case, punctuation dropped,
    spaces to hyphens, repeats numbered)."""
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", _FENCE.sub("", markdown), re.M):
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
        slug = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN").replace(
            " ", "-"
        )
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def has_anchor(page: Path, anchor: str) -> bool:
    return anchor in anchors(page.read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_lands(page: Path) -> None:
    """A relative link names a file (or folder) that exists; its #anchor, on a Markdown
    page of ours, a heading there."""
    broken = []
    for target in links(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):  # https:, mailto: …
            continue
        file_part, _, anchor = target.partition("#")
        dest = (page.parent / file_part).resolve() if file_part else page
        if not dest.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and dest.suffix == ".md" and dest.is_file() and not has_anchor(dest, anchor):
            broken.append(f"{target} (no such heading)")
    assert broken == [], f"{page.relative_to(ROOT)}: {broken}"


def test_the_link_reader_finds_links_and_headings() -> None:
    text = "[a](docs/x.md#y) `[b](no.md)`\n```\n[c](no.md)\n```\n[d]: ../e.md\n"
    assert links(text) == ["docs/x.md#y", "../e.md"]
    assert anchors("## Check the set-up: `vllm-report doctor`\n## A\n## A\n") == {
        "check-the-set-up-vllm-report-doctor",
        "a",
        "a-1",
    }


# -- nothing outside the repository ------------------------------------------------------


def outside_references(text: str, folder: Path) -> list[str]:
    """What a page in `folder` names outside the repository: a relative link that resolves
    above the repository's root, or any `../` path in its prose and code (commands run from
    the root, where `../` is outside)."""
    found = []
    for target in links(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
            continue
        if not (folder / target.partition("#")[0]).resolve().is_relative_to(ROOT):
            found.append(target)
    rest = _INLINE_LINK.sub("]", _REFERENCE_LINK.sub("", text))
    return found + re.findall(r"(?<![\w.])\.\./[^\s`)\]]*", rest)


@pytest.mark.parametrize(
    "page", [*PAGES, ROOT / ".env.example"], ids=lambda p: p.relative_to(ROOT).as_posix()
)
def test_no_doc_points_outside_the_repository(page: Path) -> None:
    assert outside_references(page.read_text(encoding="utf-8"), page.parent) == []


def test_the_outside_finder_tells_inside_from_outside() -> None:
    text = (
        "[in](../manifest.yml) `../shared/tools/run.sh serve`, [out](../../x.md)\n"
        "```bash\n../other/tool.sh\n```\n"
    )
    assert outside_references(text, DOCS) == [
        "../../x.md",
        "../shared/tools/run.sh",
        "../other/tool.sh",
    ]


# -- README sections named elsewhere -----------------------------------------------------

_SECTION_REFERENCE = re.compile(
    r"(?<![\w/])(?P<page>README(?:\.md)?|docs/[\w-]+\.md)(?:'s)?"
    r"(?:\s*\((?P<paren>[A-Z][^)\n]*)\)|:\s+(?P<colon>[A-Z][\w ,/-]*[\w])|"
    r"\s+(?P<named>[A-Z][\w -]*?)\s+section)"
)


def section_references(text: str) -> list[tuple[str, str]]:
    """(page, section) for each "README.md (Settings)", "README: Deployment modes",
    "the README's Settings section" or "docs/operating.md: Docker" a text names."""
    found = []
    for match in _SECTION_REFERENCE.finditer(" ".join(text.split())):
        page = match.group("page")
        page = "README.md" if page.startswith("README") else page
        name = match.group("paren") or match.group("colon") or match.group("named")
        found.append((page, name.strip()))
    return found


def headings(page: Path) -> set[str]:
    return {
        re.sub(r"[`*]", "", h).strip().lower()
        for h in re.findall(
            r"^#{1,6}\s+(.+?)\s*#*\s*$", _FENCE.sub("", page.read_text(encoding="utf-8")), re.M
        )
    }


def test_the_section_reader_finds_what_a_file_points_at() -> None:
    text = (
        "# See README.md (Settings) for what each one does.\n"
        "# Several processes (see README: Deployment modes).\n"
        "the README's Settings section, or docs/operating.md: Deployment modes."
    )
    assert section_references(text) == [
        ("README.md", "Settings"),
        ("README.md", "Deployment modes"),
        ("README.md", "Settings"),
        ("docs/operating.md", "Deployment modes"),
    ]


@pytest.mark.parametrize(
    "page", [*PAGES, ROOT / ".env.example"], ids=lambda p: p.relative_to(ROOT).as_posix()
)
def test_every_section_a_file_names_is_a_heading_there(page: Path) -> None:
    """A pointer such as "see README.md (Settings)" sends a reader to a heading that exists:
    a README section that moved to docs/ leaves no pointer behind."""
    missing = [
        f"{target}: {name}"
        for target, name in section_references(page.read_text(encoding="utf-8"))
        if name.lower() not in headings(ROOT / target)
    ]
    assert missing == []


# -- schema revisions --------------------------------------------------------------------

MIGRATIONS = ROOT / "bot" / "store" / "migrations" / "versions"
_HEAD_PHRASES = (
    r"schema at\s+revision (\d{4}) \(the newest\)",
    r"created at schema revision (\d{4})",
    r"migrated from revision \d{4} to (\d{4})",
    r"revision (\d{4}); this version knows up to \d{4}",
)


def revisions() -> list[str]:
    return sorted(p.name[:4] for p in MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.py"))


def test_every_revision_the_docs_name_exists_and_the_newest_is_the_head() -> None:
    """A doctor line or an error quoted in the docs names revisions that exist, and one
    said as this version's newest is the newest migration."""
    known, head = set(revisions()), revisions()[-1]
    assert head >= "0014"
    wrong, named = [], 0
    for page in PAGES:
        text = " ".join(page.read_text(encoding="utf-8").split())
        for number in re.findall(r"revisions?\s+(?:\w+\s+){0,3}?(\d{4})\b", text):
            named += 1
            if number not in known:
                wrong.append(f"{page.name}: revision {number} does not exist")
        for phrase in _HEAD_PHRASES:
            wrong += [
                f"{page.name}: {n} is said to be the newest, the newest is {head}"
                for n in re.findall(phrase, text)
                if n != head
            ]
    assert named >= 3 and wrong == []


# -- slash commands ----------------------------------------------------------------------


def test_the_slack_app_steps_and_the_commands_page_list_every_command_of_the_manifest() -> None:
    import yaml

    manifest = yaml.safe_load((ROOT / "manifest.yml").read_text(encoding="utf-8"))
    commands = [c["command"] for c in manifest["features"]["slash_commands"]]
    assert len(commands) >= 9
    operating = (DOCS / "operating.md").read_text(encoding="utf-8")
    step = re.search(r"^\d+\. \*Slash Commands\*:(.*?)(?=^\d+\. )", operating, re.M | re.S)
    assert step is not None, "operating.md's Slack steps have no *Slash Commands* step"
    assert [c for c in commands if f"`{c}`" not in step.group(1)] == []
    reference = (DOCS / "commands.md").read_text(encoding="utf-8")
    assert [c for c in commands if f"`{c}" not in reference] == []
