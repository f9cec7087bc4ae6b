"""`vllm-report radar` and `explain` on an upstream PR, on the real 2025 plugin records
served by the fake GitHub as the plugins' repositories."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from tests.fakes.github_api import FakeGitHub
from tests.features.radar.radar_data import radar_github

MONTH = "2025-09-01..2025-09-30"


@pytest.fixture
def github(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGitHub]:
    with radar_github() as fake:
        monkeypatch.setenv("GITHUB_API_URL", fake.url)
        monkeypatch.setenv("VLLM_REPORT_DATA_DIR", str(tmp_path))
        monkeypatch.setenv("VLLM_REPORT_GITHUB_REQUEST_INTERVAL", "0")
        monkeypatch.setenv(
            "VLLM_REPORT_PLUGINS", "vllm-project/vllm-gaudi,vllm-project/vllm-ascend"
        )
        yield fake


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_radar_of_a_month_as_json(
    github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "radar", MONTH, "--format", "json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["schema"] == "vllm-radar/1"
    assert data["plugins"] == ["vllm-project/vllm-gaudi", "vllm-project/vllm-ascend"]
    top = data["culprits"][0]
    assert top["number"] == 24982
    assert top["plugins"] == ["vllm-project/vllm-gaudi", "vllm-project/vllm-ascend"]
    assert {"vllm-project/vllm-gaudi", "vllm-project/vllm-ascend"} >= {
        link["plugin_repo"] for link in data["links"]
    }
    cold = len(github.requests)
    run(capsys, "radar", MONTH, "--format", "json")
    assert len(github.requests) == cold  # archived: asked again, it costs nothing


def test_explain_says_which_plugins_an_upstream_pr_broke(
    github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "radar", MONTH)  # the plugins' month, into the archive
    code, out, _ = run(capsys, "explain", "25249")
    assert code == 0
    assert "broke plugins: vllm-gaudi#244, vllm-ascend#3095" in out


def test_a_plugin_not_watched_is_refused_in_one_sentence(
    github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "radar", MONTH, "--plugin", "tpu")
    assert code == 2 and out == "" and "Traceback" not in err
    assert "'tpu' is not a watched plugin" in err and "Watched: vllm-gaudi, vllm-ascend" in err
    assert github.requests == []
