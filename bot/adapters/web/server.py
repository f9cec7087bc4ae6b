"""The bot's own web server (aiohttp): the report site's files, `/healthz` and `/metrics`.

`vllm-report serve` starts it when `VLLM_REPORT_HTTP_PORT` is set. `/healthz` answers 200
while the daily job is healthy and 503 with the reason when it is not (JSON either way);
`/metrics` is Prometheus' text format. The site is served from `VLLM_REPORT_SITE_DIR` (the
folder the daily job rebuilds, or one `vllm-report site build` wrote), exactly as a static
host would serve it: a
folder's `index.html` for `…/2026-03-26/`, a redirect from `…/2026-03-26` to the slash form
(so the page's relative links resolve), 404 for anything else. A path can never leave the
folder (`..`, symlinks and encoded tricks resolve first and are refused).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web

log = logging.getLogger(__name__)

Health = Callable[[], Awaitable[tuple[bool, dict[str, Any]]]]
Exposition = Callable[[], tuple[bytes, str]]  # the metrics' text and its content type
TYPES = {".xml": "application/atom+xml"}  # our only XML files are Atom feeds


def web_app(
    site: Path | None, health: Health, metrics: Exposition | None = None
) -> web.Application:
    app = web.Application()

    async def healthz(request: web.Request) -> web.Response:
        ok, facts = await health()
        body = {"status": "ok" if ok else "failing", **facts}
        return web.json_response(body, status=200 if ok else 503)

    app.router.add_get("/healthz", healthz)
    if metrics is not None:

        async def exposition(request: web.Request) -> web.Response:
            body, content_type = metrics()
            response = web.Response(body=body)
            response.headers["Content-Type"] = content_type  # carries version and charset
            return response

        app.router.add_get("/metrics", exposition)
    if site is not None:
        app.router.add_get("/{path:.*}", _site_handler(site.resolve()))
    return app


def _site_handler(root: Path) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    async def serve(request: web.Request) -> web.StreamResponse:
        relative = request.match_info["path"]
        try:
            target = (root / relative).resolve()
            is_dir = target.is_dir()
        except (ValueError, OSError):  # a NUL byte, a name too long for the file system
            raise web.HTTPNotFound() from None
        if not target.is_relative_to(root):
            raise web.HTTPNotFound()
        if is_dir:
            if relative and not relative.endswith("/"):
                raise web.HTTPMovedPermanently(request.path + "/")
            target = target / "index.html"
        hidden = any(part.startswith(".") for part in target.relative_to(root).parts)
        if hidden or not target.is_file():  # the build's own notes are not part of the site
            raise web.HTTPNotFound()
        response = web.FileResponse(target)
        if target.suffix in TYPES:
            response.content_type = TYPES[target.suffix]
        return response

    return serve


async def start_web(app: web.Application, host: str, port: int) -> web.AppRunner:
    """Listen on `host:port`; the caller cleans the runner up on shutdown."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("http: the report site, /healthz and /metrics on http://%s:%d/", host, port)
    return runner
