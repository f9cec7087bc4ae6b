"""The GitHub boundary (bot/collect/client.py, probe.py) on answers that are not GitHub's: a
GITHUB_API_URL answering 200 with a page (a sign-in or captive portal, a GitHub Enterprise
address without /api/v3) is one sentence naming the setting, never PyGithub's TypeError;
and a 422 keeps GitHub's reason (its `errors`), not just "Validation Failed"."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from bot.cli import main
from tests.anchor_data import anchor_days
from tests.fakes.github_api import FakeGitHub, Fault
from tests.fakes.server import FakeServer

DAY = anchor_days()[2]  # 2026-03-25


class SignInPage(FakeServer):
    """Answers every request with an HTML page: 200 (a sign-in page), or 404 (a web
    server's, as a GitHub Enterprise address without /api/v3 may); `json`: another
    service's JSON instead (a health endpoint: `{"status": "ok"}`)."""

    def __init__(self, status: int = 200, *, json: bool = False) -> None:
        super().__init__()
        self.handler = _SignIn
        self.status = status
        self.json = json


class _SignIn(BaseHTTPRequestHandler):
    fake: SignInPage
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        body = b"<!DOCTYPE html><html><body><form>Sign in to continue</form></body></html>"
        kind = "text/html; charset=utf-8"
        if self.fake.json:
            body, kind = b'{"status": "ok", "version": "2.4.1"}', "application/json"
        self.send_response(self.fake.status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_GET


def said(url: str) -> str:
    return (
        f"GITHUB_API_URL ({url}) does not answer like GitHub's API: it answered an HTML page, "
        "not JSON (a sign-in page?); set it to https://api.github.com, or to "
        "https://HOST/api/v3 for GitHub Enterprise Server"
    )


@pytest.mark.parametrize("status", [200, 404])
@pytest.mark.parametrize(
    "argv",
    [
        ["show", DAY.label, "--cutoff", DAY.cutoff],
        ["explain", "37880"],
    ],
    ids=["show", "explain"],
)
def test_a_page_instead_of_the_api_is_one_sentence(
    argv: list[str],
    status: int,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Never PyGithub's TypeError, nor (a 404 page) "no such repository"."""
    monkeypatch.setenv("VLLM_REPORT_GITHUB_RETRIES", "0")
    with SignInPage(status) as page:
        monkeypatch.setenv("GITHUB_API_URL", page.url)
        code = main(argv)
        url = page.url
    out, err = capsys.readouterr()
    assert code == 1, out + err
    assert "Traceback" not in out + err
    assert said(url) in err
    told = [line for line in err.splitlines() if line.startswith("vllm-report:")]
    assert len(told) == 1, err


def json_said(url: str) -> str:
    return (
        f"GITHUB_API_URL ({url}) does not answer like GitHub's API: it answered JSON that is "
        "not GitHub's (another service?); set it to https://api.github.com, or to "
        "https://HOST/api/v3 for GitHub Enterprise Server"
    )


@pytest.mark.parametrize("argv", [["show", DAY.label, "--cutoff", DAY.cutoff], ["doctor"]])
def test_another_services_json_is_one_sentence(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """JSON of another service at GITHUB_API_URL: it was a TypeError from PyGithub in
    `show` and an AttributeError in `doctor`."""
    monkeypatch.setenv("VLLM_REPORT_GITHUB_RETRIES", "0")
    with SignInPage(json=True) as page:
        monkeypatch.setenv("GITHUB_API_URL", page.url)
        code = main(argv)
        url = page.url
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in out + err, out + err
    assert json_said(url) in out + err


def test_doctor_names_the_setting_when_github_answers_a_page(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with SignInPage() as page:
        monkeypatch.setenv("GITHUB_API_URL", page.url)
        code = main(["doctor"])
        url = page.url
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in out + err
    failed = [line for line in out.splitlines() if line.startswith("✗")]
    assert len(failed) == 1 and said(url) in failed[0], out


def test_a_422_keeps_githubs_reason(
    fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """GitHub's 422 says "Validation Failed" in `message` and why in `errors`: both told."""
    monkeypatch.setenv("VLLM_REPORT_GITHUB_RETRIES", "0")
    reason = (
        "The listed users and repositories cannot be searched either because the resources "
        "do not exist or you do not have permission to view them."
    )
    fake_github.fail_next(
        Fault(
            status=422,
            body={
                "message": "Validation Failed",
                "errors": [
                    {"message": reason, "resource": "Search", "field": "q", "code": "invalid"}
                ],
                "documentation_url": "https://docs.github.com/v3/search/",
            },
        )
    )
    code = main(["show", DAY.label, "--cutoff", DAY.cutoff])
    _, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in err
    assert (
        f"vllm-report: GitHub rejected the query for 'vllm-project/vllm' (422): "
        f"Validation Failed: {reason}"
    ) in err
