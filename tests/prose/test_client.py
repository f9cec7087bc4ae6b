"""The model endpoint (bot/prose/client.py) over real HTTP, through the `openai` SDK.

Giving up hangs up: at LLM_TIMEOUT the client closes the connection, so a server that stops
work when its client goes (vLLM) stops, and a server that sends its headers and then
trickles is not waited on past the deadline. An answer that cannot change (400, 404, a 200
that is not an OpenAI chat completion) is asked once per part, never again; what may change
(429, 5xx) is retried as before. None of it escapes as a traceback; readers are told nothing.
"""

from __future__ import annotations

import json
import select
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from bot.cli import main
from bot.prose.client import LLMConfig, ModelClient, ProseError, check_model
from tests.anchor_data import anchor_days
from tests.fakes.github_api import FakeGitHub
from tests.fakes.openai_api import FakeOpenAI, Scripted
from tests.fakes.server import FakeServer
from tests.prose.script import asked, section_of

DAY = anchor_days()[2]  # 2026-03-25: items asked in Chinese, the day in either language
HOLD = 15.0  # how long the holding server would keep a request (far past any timeout here)


class Holding(FakeServer):
    """Takes a chat request and never answers it: silent, or (`trickle`) with the headers
    and a byte of the body sent at once and a space every 0.2 s after, as a slow proxy
    might. `hung_up` is set when the client closes the connection."""

    def __init__(self, trickle: bool) -> None:
        super().__init__()
        self.handler = _Holding
        self.trickle = trickle
        self.received = threading.Event()
        self.hung_up = threading.Event()

    @property
    def api(self) -> str:
        return self.url + "/v1"


class _Holding(BaseHTTPRequestHandler):
    fake: Holding
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.fake.received.set()
        conn, end = self.connection, time.monotonic() + HOLD
        try:
            if self.fake.trickle:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "100000")
                self.end_headers()
                self.wfile.write(b"{")
                self.wfile.flush()
            while time.monotonic() < end:
                # Readable while waiting: the client sent nothing more, so it hung up.
                if select.select([conn], [], [], 0.2)[0] and conn.recv(1) == b"":
                    self.fake.hung_up.set()
                    return
                if self.fake.trickle:
                    self.wfile.write(b" ")
                    self.wfile.flush()
        except OSError:  # the client hung up mid-write
            self.fake.hung_up.set()
        self.close_connection = True


class Page(FakeServer):
    """Answers every request 200 with a sign-in page (a proxy in front of the model)."""

    def __init__(self) -> None:
        super().__init__()
        self.handler = _Page
        self.requests = 0

    @property
    def api(self) -> str:
        return self.url + "/v1"


class _Page(BaseHTTPRequestHandler):
    fake: Page
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.fake.requests += 1
        body = b"<html><body>Sign in to continue</body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def ask(url: str, timeout: float = 1.0) -> ProseError:
    """One request given up on or refused: the error it raised."""
    client = ModelClient(LLMConfig(base_url=url, model="m", timeout=timeout))
    try:
        with pytest.raises(ProseError) as raised:
            client.ask("day", "en", {"merged_prs": 3}, timeout=timeout)
    finally:
        client.close()
    return raised.value


# -- (a) giving up hangs up ------------------------------------------------------------------


@pytest.mark.parametrize("trickle", [False, True], ids=["silent", "headers-then-trickle"])
def test_giving_up_at_the_timeout_closes_the_connection(trickle: bool) -> None:
    """The client gives up at LLM_TIMEOUT (1 s) and closes the connection itself (seen by
    the server before the client is closed), whether the server says nothing or sends its
    headers and trickles (which a per-read timeout alone would wait out: 15 s here)."""
    with Holding(trickle) as server:
        client = ModelClient(LLMConfig(base_url=server.api, model="m", timeout=1.0))
        began = time.monotonic()
        with pytest.raises(ProseError) as raised:
            client.ask("day", "en", {"merged_prs": 3}, timeout=1.0)
        took = time.monotonic() - began
        assert server.received.is_set()
        assert server.hung_up.wait(10), "the client kept the connection open"
        client.close()
    assert str(raised.value) == "no answer within 1 s"
    assert raised.value.down and raised.value.reason == "timeout"
    assert took < HOLD / 3, took


# -- (b) answers that cannot change are not asked again ---------------------------------------


def test_a_page_instead_of_a_completion_is_one_sentence_and_final() -> None:
    with Page() as server:
        url = server.api
        error = ask(url)
        assert server.requests == 1
    assert error.final and error.reason == "not_the_api"
    assert str(error) == (
        f"{url} did not answer with an OpenAI chat completion (is it the server's /v1 address?)"
    )


@pytest.fixture
def llm_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setenv("LLM_MODEL", "fake-model")
    monkeypatch.setenv("LLM_RETRIES", "2")  # what may change is asked three times
    return monkeypatch


@pytest.mark.parametrize(
    ("answer", "says", "tries"),
    [
        (Scripted(status=400), "the server answered 400", 1),
        (Scripted(raw_body='{"error": "no such model"}', status=404), "no such model (404)", 1),
        (
            Scripted(raw_body="<html>Sign in to continue</html>", status=200),
            "did not answer with an OpenAI chat completion",
            1,
        ),
        (
            Scripted(raw_body='{"object": "list", "data": []}', status=200),
            "did not answer with an OpenAI chat completion",
            1,
        ),
        (Scripted(raw_body="busy", status=503), "the server answered 503", 3),
        (Scripted(raw_body="slow down", status=429), "the server answered 429", 3),
    ],
    ids=["400", "404", "200-not-json", "200-not-a-completion", "503", "429"],
)
def test_only_what_may_change_is_asked_again(
    answer: Scripted,
    says: str,
    tries: int,
    fake_github: FakeGitHub,
    llm_env: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`show` with a model that fails each request the same way: each part (the items of
    the Chinese edition, the day) is asked once when the answer cannot change, thrice
    (LLM_RETRIES=2) when it may; the report is the one without a model, exit 0; the reason
    is in the operator's log, not in the report."""
    with FakeOpenAI(lambda request: answer) as llm:
        llm_env.setenv("LLM_BASE_URL", llm.url)
        argv = ["show", DAY.label, "--cutoff", DAY.cutoff, "--format", "json", "--lang", "zh"]
        code = main(argv)
        out, err = capsys.readouterr()
        requests = list(llm.requests)
    assert code == 0 and "Traceback" not in err, err
    per_part = Counter((section_of(r), asked(r)) for r in requests)
    assert {section for section, _ in per_part} == {"item", "day"}
    assert set(per_part.values()) == {tries}
    assert says in err
    data = json.loads(out)
    assert "prose" not in data
    assert says not in out and "answered" not in out


def test_doctor_says_a_page_is_not_the_model_api() -> None:
    """`doctor`'s one-token request answered 200 with a page: one sentence, never "✓"."""
    with Page() as server:
        url = server.api
        said = check_model(LLMConfig(base_url=url, model="m", timeout=5))
    assert said == (
        f"{url} did not answer with an OpenAI chat completion: check LLM_BASE_URL (the "
        "server's /v1 address)"
    )
