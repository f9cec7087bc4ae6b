"""The report site's folder as `SiteBuilder` writes it: each file replaced whole and only
when its bytes change, a chart or page drawn again only when what it is made of changed,
and what an earlier build wrote but this one did not removed."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

INPUTS = ".site-inputs.json"  # chart digests, the files and day records of the last build


class SiteFiles:
    """The site's folder: a file is replaced whole, and only when its bytes change."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.produced: list[str] = []
        self._written: list[str] = []
        try:
            self.before: dict[str, Any] = json.loads((root / INPUTS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.before = {}
        self.digests: dict[str, str] = {}

    def put(self, name: str, content: str | bytes) -> None:
        data = content.encode("utf-8") if isinstance(content, str) else content
        self.produced.append(name)
        path = self.root / name
        try:
            if path.read_bytes() == data:
                return
        except OSError:
            pass
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
        self._written.append(name)

    def drawn(self, name: str, digest: str, draw: Callable[[], bytes]) -> None:
        """A file made again only when what it is made of changed (`digest`): a chart, a topic
        page."""
        self.digests[name] = digest
        if self.before.get("charts", {}).get(name) == digest and (self.root / name).is_file():
            self.produced.append(name)
            return
        self.put(name, draw())

    def keep(self, names: list[str], charts: dict[str, str]) -> None:
        """Files an earlier build wrote that stand unchanged (their day was not made again)."""
        self.produced += names
        self.digests.update(charts)

    def finish(self, **remember: Any) -> tuple[list[str], list[str]]:
        """Remove what an earlier build wrote and this one did not; remember this build."""
        removed = sorted(set(self.before.get("files", [])) - set(self.produced))
        for name in removed:
            (self.root / name).unlink(missing_ok=True)
        inputs = {"charts": self.digests, "files": sorted(self.produced), **remember}
        self.put(INPUTS, json.dumps(inputs, separators=(",", ":")))  # compact: read by us alone
        self.produced.remove(INPUTS)
        if INPUTS in self._written:
            self._written.remove(INPUTS)
        return self._written, removed


@cache
def source_digest() -> bytes:
    """The chart code itself is an input: a change to how charts are drawn redraws them."""
    from formatters import charts

    return hashlib.sha256(Path(charts.__file__).read_bytes()).digest()
