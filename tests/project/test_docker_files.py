"""The Docker files read without a Docker engine, fast (test_deploy.py holds the slow rest):
compose's environment resolved as compose resolves it and loaded as the bot loads settings,
the port published on the host's loopback only, the image's places kept whatever `.env`
says, and the build backend pinned with hashes and left out of the image."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.requirements import Requirement

from config.settings import load_settings
from tests.project.test_deploy import ROOT, dockerfile, example_lines


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def interpolated(value: str, dotenv: dict[str, str]) -> str:
    """A compose value with `${NAME}`, `${NAME:-default}` and `${NAME-default}` resolved from
    `.env` (what compose reads for interpolation)."""

    def one(match: re.Match[str]) -> str:
        name, colon, default = match.group(1), match.group(2), match.group(3)
        if name in dotenv and (dotenv[name] or not colon):
            return dotenv[name]
        return default or ""

    return re.sub(r"\$\{(\w+)(?:(:?)-([^}]*))?\}", one, value)


def in_the_container(dotenv: dict[str, str]) -> dict[str, str]:
    """The bot service's environment as compose makes it: `env_file` (.env), then
    `environment:` over it, interpolated from the same .env."""
    bot = compose()["services"]["bot"]
    env = {name: value for name, value in dotenv.items() if value}
    for name, value in bot["environment"].items():
        env[name] = interpolated(str(value), dotenv)
    return env


def mount_the_configs(folder: Path) -> None:
    """compose's `configs:` of the bot as files under `folder`, which stands for the image's
    WORKDIR (each target must be in it: a config anywhere else is not read as settings)."""
    workdir = next(args for word, args in dockerfile() if word == "WORKDIR")
    service, files = compose()["services"]["bot"], compose().get("configs", {})
    for config in service.get("configs", []):
        target = Path(config["target"])
        assert target.parent == Path(workdir), target
        (folder / target.name).write_text(files[config["source"]]["content"], encoding="utf-8")


@pytest.mark.parametrize("given", ["nothing", "DATABASE_URL", "DATABASE_URL_FILE"])
def test_compose_s_database_is_the_default_that_dotenv_s_url_or_its_file_replaces(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, given: str
) -> None:
    """Whatever .env says of the store, the bot starts on it: nothing, the db service;
    DATABASE_URL, that database; DATABASE_URL_FILE (a Docker secret, as docs/settings.md
    invites), the URL in that file, never "both DATABASE_URL and DATABASE_URL_FILE are set"
    (which a DATABASE_URL in compose's `environment:` would make, restarting the bot)."""
    secret = clean_env / "database_url"
    secret.write_text("postgresql://from:file@secret-host:5432/vllm_report\n", encoding="utf-8")
    dotenv = {
        "nothing": {},
        "DATABASE_URL": {"DATABASE_URL": "postgresql://own:pw@elsewhere:5432/reports"},
        "DATABASE_URL_FILE": {"DATABASE_URL_FILE": str(secret)},
    }[given]
    monkeypatch.delenv("VLLM_REPORT_DATA_DIR")
    for name, value in in_the_container(dotenv).items():
        monkeypatch.setenv(name, value)
    mount_the_configs(clean_env)
    store = load_settings().store_url()
    assert (
        store
        == {
            "nothing": "postgresql://vllm_report:vllm_report@db:5432/vllm_report",
            "DATABASE_URL": "postgresql://own:pw@elsewhere:5432/reports",
            "DATABASE_URL_FILE": "postgresql://from:file@secret-host:5432/vllm_report",
        }[given]
    )
    db = compose()["services"]["db"]["environment"]
    assert given != "nothing" or store.endswith(f"@db:5432/{db['POSTGRES_DB']}")


def test_the_http_port_is_published_on_the_host_s_loopback_only() -> None:
    """/metrics and the site are not offered on every interface of the host by default:
    compose and every `docker run -p` the docs show publish on 127.0.0.1, and operating.md
    says how to open it wider."""
    bot = compose()["services"]["bot"]
    port = bot["environment"]["VLLM_REPORT_HTTP_PORT"]
    assert bot["ports"] == [f"127.0.0.1:{port}:{port}"]
    shown = [
        *re.findall(r"docker run [^\n]*", (ROOT / "Dockerfile").read_text(encoding="utf-8")),
        *(
            line
            for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
            for line in page.read_text(encoding="utf-8").splitlines()
            if line.startswith("docker run ")
        ),
    ]
    published = [m for line in shown for m in re.findall(r"-p (\S+)", line)]
    assert published and all(p.startswith("127.0.0.1:") for p in published), published
    docker = (ROOT / "docs" / "operating.md").read_text(encoding="utf-8").split("## Docker")[1]
    assert "open it wider" in docker and '"8080:8080"' in docker


def test_compose_keeps_the_image_s_places_whatever_dotenv_says(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`.env.example`'s data folder, site folder, host and port lines are for running outside
    Docker and say so; uncommented into compose's .env they still do not move the image's
    /data or its 0.0.0.0:8080, because compose sets them again (environment: wins)."""
    env = " ".join(args for word, args in dockerfile() if word == "ENV")
    image = dict(re.findall(r"(VLLM_REPORT_\w+)=(\S+)", env))
    places = ("VLLM_REPORT_DATA_DIR", "VLLM_REPORT_SITE_DIR", "VLLM_REPORT_HTTP_HOST")
    lines = example_lines()
    assert set(places) | {"VLLM_REPORT_HTTP_PORT"} <= set(lines)
    monkeypatch.delenv("VLLM_REPORT_DATA_DIR")
    for name, value in in_the_container(lines).items():
        monkeypatch.setenv(name, value)
    settings = load_settings()
    assert str(settings.data_dir) == image["VLLM_REPORT_DATA_DIR"] == "/data"
    assert str(settings.site_root) == "/data/site"
    assert settings.http_host == image["VLLM_REPORT_HTTP_HOST"]
    assert str(settings.http_port) == image["VLLM_REPORT_HTTP_PORT"]
    # Next to those lines, .env.example says they are not for the image.
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    for name in (*places, "VLLM_REPORT_HTTP_PORT"):
        block = next(b for b in text.split("\n\n") if f"# {name}=" in b)
        said = " ".join(line.lstrip("# ") for line in block.splitlines()).lower()
        assert "outside docker" in said and "the image sets its own" in said, name


def test_the_build_backend_is_pinned_with_hashes_and_left_out_of_the_image() -> None:
    """pyproject's build backend (setuptools, wheel) comes from a hashed lock, not fetched
    unpinned by pip's build isolation; the run stage gets neither it, nor pip, nor the
    packages' own test suites."""
    build = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]
    lock = (ROOT / "requirements-build.lock").read_text(encoding="utf-8")
    pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+) \\$", lock, re.M))
    for requirement in build["requires"]:
        wanted = Requirement(requirement)
        assert wanted.name in pins, f"{wanted.name} is not pinned in requirements-build.lock"
        assert wanted.specifier.contains(pins[wanted.name]), requirement
    first = re.search(r"^[A-Za-z0-9_.-]+==", lock, re.M)
    assert first is not None
    blocks = re.split(r"\n(?=[A-Za-z0-9_.-]+==)", lock[first.start() :].strip())
    assert len(blocks) == len(pins) and all("--hash=sha256:" in b for b in blocks)
    order = [f"{word} {args}" for word, args in dockerfile()]
    backend = next(i for i, r in enumerate(order) if "requirements-build.lock" in r and "RUN" in r)
    assert "--require-hashes" in order[backend]
    project = next(i for i, r in enumerate(order) if r.startswith("RUN") and " /src" in r)
    assert backend < project and "--no-build-isolation" in order[project]
    assert re.search(r"pip uninstall --yes setuptools wheel pip", order[project])
    assert "-name tests" in order[project] and "rm -rf" in order[project]
    run_stage = max(i for i, r in enumerate(order) if r.startswith("FROM"))
    assert project < run_stage and "COPY --from=build /opt/venv /opt/venv" in order[run_stage:]
