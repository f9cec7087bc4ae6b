"""A threaded HTTP server on 127.0.0.1 with a random port, for the fake platforms."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


class FakeServer:
    """Start with `with Fake(...) as fake:`; `fake.url` is `http://127.0.0.1:PORT`."""

    handler: type[BaseHTTPRequestHandler]

    def __init__(self) -> None:
        self._server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None, "server not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> Self:
        handler = type("Handler", (self.handler,), {"fake": self})
        self._server = _QuietServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


class _QuietServer(ThreadingHTTPServer):
    """A client that hangs up (a poster killed mid-request) is not an error of the fake's."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)
