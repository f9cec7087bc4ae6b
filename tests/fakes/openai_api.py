"""A fake OpenAI-compatible server (`POST /v1/chat/completions`) on 127.0.0.1.

Each test scripts the answers: a function of the request body returning the assistant's
text, or a `Scripted` answer with an HTTP status, a delay or a non-JSON body. Every request
body is recorded, so tests can read the prompt the real `openai` client sent.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.fakes.server import FakeServer


@dataclass
class Scripted:
    content: str | None = None  # the assistant message
    status: int = 200
    delay: float = 0.0
    raw_body: str | None = None  # sent as is instead of a completion object


Responder = Callable[[dict[str, Any]], "Scripted | str"]


class FakeOpenAI(FakeServer):
    def __init__(self, responder: Responder) -> None:
        super().__init__()
        self.handler = _Handler
        self.responder = responder
        self.requests: list[dict[str, Any]] = []

    @property
    def url(self) -> str:
        return super().url + "/v1"


class _Handler(BaseHTTPRequestHandler):
    fake: FakeOpenAI
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        self.fake.requests.append(body)
        if self.path != "/v1/chat/completions":
            self._send(404, json.dumps({"error": {"message": "not found"}}))
            return
        answer = self.fake.responder(body)
        scripted = answer if isinstance(answer, Scripted) else Scripted(content=answer)
        if scripted.delay:
            time.sleep(scripted.delay)
        if scripted.raw_body is not None:
            self._send(scripted.status, scripted.raw_body)
            return
        if scripted.status != 200:
            error = {"error": {"message": "scripted failure", "type": "server_error"}}
            self._send(scripted.status, json.dumps(error))
            return
        completion = {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": scripted.content},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
        }
        self._send(200, json.dumps(completion))

    def _send(self, status: int, text: str) -> None:
        payload = text.encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test)
