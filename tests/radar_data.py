"""The fake GitHub's data for the breakage radar, from the real 2025 records in
tests/data/radar/ (copied from ../shared/fixtures/radar/).

- plugin PRs: one FakeItem per record (number, title, author, labels, body, and its times:
  opened on `plugin_created_at` or, where unknown, at its merge; merged at `plugin_merged_at`);
- upstream PRs and issues: every upstream number the records name, as GitHub would answer
  the radar's check of it: a PR where any record gives it as one (else an issue), with its
  title and author where a record knows them (else an empty title: the records carry a
  number only). When each merged is not in the records: a PR is served as merged a stand-in
  three days before the first plugin PR that names it, except one a record says is still
  pending upstream (served open). Which PR merged a commit is not in the records either: a
  commit is a commit GitHub does not know, so the radar shows no commit as a culprit here;
- pins: each plugin's pin file as the records show its latest value, and vLLM main's history
  around the pins: the pinned commits at their real times, with as many commits after each
  as the records count up to `index_end` (the commits between are stand-ins: only their
  number and span are facts).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tests.fakes.github_api import FakeGitHub, FakeItem

DATA = Path(__file__).parent / "data" / "radar"
UPSTREAM = "vllm-project/vllm"
BUSIEST = "2025-09"  # 41 records, the most of any month
STAND_IN_MERGE = timedelta(days=3)  # an upstream PR merged this long before it is first named
# Where each plugin's pin is read (bot.service.radar.PIN_FILES), and the file's text.
# Release-pinned plugins: the lines of their files the records quote.
RELEASE_FILES = {
    ("vllm-project/vllm-spyre", "pyproject.toml", "main"): (
        '[project]\ndependencies = [\n    "vllm>=0.19.0,<0.19.1",\n]\n[tool.uv.sources]\n'
        'vllm = { git = "https://github.com/vllm-project/vllm", rev = "v0.19.0" }\n'
    ),
    ("vllm-project/vllm-metal", "install.sh", "main"): 'VLLM_VERSION="0.27.1"\n',
}
PIN_PATHS = {
    "vllm-project/vllm-gaudi": ("VLLM_STABLE_COMMIT", "vllm/last-good-commit-for-vllm-gaudi"),
    "vllm-project/tpu-inference": (".buildkite/vllm_lkg.version", "main"),
    "vllm-project/vllm-ascend": (".github/vllm-main-verified.commit", "main"),
}


def records() -> list[dict[str, Any]]:
    loaded: list[dict[str, Any]] = json.loads((DATA / "links-2025.json").read_text("utf-8"))
    return loaded


def pins() -> list[dict[str, Any]]:
    loaded: list[dict[str, Any]] = json.loads((DATA / "pins.json").read_text("utf-8"))
    return loaded


def _time(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)


def plugin_items() -> dict[str, list[FakeItem]]:
    found: dict[str, dict[int, FakeItem]] = {}
    for record in records():
        merged = _time(record["plugin_merged_at"]) if record["plugin_merged_at"] else None
        opened = record["plugin_created_at"]
        created = _time(opened + "T00:00:00+00:00") if opened else merged
        if created is None:
            continue  # neither time known: nothing places it in a window
        if merged is not None and created > merged:
            created = merged
        found.setdefault(record["plugin_repo"], {})[record["plugin_number"]] = FakeItem(
            number=record["plugin_number"],
            kind="pr" if record["plugin_kind"] == "pr" else "issue",
            title=record["plugin_title"],
            author=record["plugin_author"] if record.get("plugin_author_is_login") else None,
            labels=list(record["plugin_labels"] or []),
            created_at=created,
            updated_at=merged or created,
            closed_at=merged,
            merged_at=merged,
            body=record.get("plugin_body") or record.get("plugin_body_excerpt"),
        )
    return {repo: list(items.values()) for repo, items in found.items()}


def upstream_items() -> list[FakeItem]:
    named: dict[int, list[tuple[dict[str, Any], datetime]]] = {}
    for record in records():
        at = _time(record["plugin_merged_at"]) if record["plugin_merged_at"] else None
        opened = record["plugin_created_at"]
        first = _time(opened + "T00:00:00+00:00") if opened else at
        for ref in record["upstream_refs"]:
            if ref.get("repo") == UPSTREAM and ref.get("number") and first is not None:
                named.setdefault(ref["number"], []).append((ref, min(first, at or first)))
    return [_upstream_item(number, refs) for number, refs in sorted(named.items())]


def _upstream_item(number: int, named: list[tuple[dict[str, Any], datetime]]) -> FakeItem:
    """One upstream number as GitHub would serve it (see the module docstring)."""
    refs = [ref for ref, _ in named]
    known = next((ref for ref in refs if ref.get("title")), {})
    merged_at = min(at for _, at in named) - STAND_IN_MERGE
    kind = "pr" if any(ref["kind"] == "pr" for ref in refs) else "issue"
    pending = any(ref["role"] == "upstream-pending" for ref in refs)
    merged = None if kind == "issue" or pending else merged_at
    said_created = known.get("created_at")
    created = _time(said_created + "T00:00:00+00:00") if said_created else merged_at
    created = min(created, merged_at)
    return FakeItem(
        number=number,
        kind=kind,
        title=known.get("title") or "",
        author=known.get("upstream_author"),
        labels=[],
        created_at=created,
        updated_at=merged or created,
        closed_at=merged,
        merged_at=merged,
    )


def pin_state() -> tuple[dict[tuple[str, str, str], str], list[tuple[str, datetime]], datetime]:
    """The pin files, vLLM main's history (oldest first) and the moment it ends."""
    files: dict[tuple[str, str, str], str] = {}
    anchors: list[tuple[datetime, str, int]] = []  # (time, sha, commits after it to the end)
    end = None
    for plugin in pins():
        latest = (plugin.get("lag") or {}).get("latest_pin")
        if plugin["plugin_repo"] not in PIN_PATHS or not latest:
            continue
        path, ref = PIN_PATHS[plugin["plugin_repo"]]
        files[(plugin["plugin_repo"], path, ref)] = latest["pinned"] + "\n"
        anchors.append(
            (
                _time(latest["upstream_commit_time"]),
                latest["pinned"],
                latest["upstream_commits_after_pin_until_index_end"],
            )
        )
        end = _time(latest["index_end"])
    assert end is not None
    anchors.sort()
    history: list[tuple[str, datetime]] = []
    for index, (at, sha, after) in enumerate(anchors):
        history.append((sha, at))
        upto, until = (
            (anchors[index + 1][2], anchors[index + 1][0]) if index + 1 < len(anchors) else (0, end)
        )
        between = after - upto - (1 if index + 1 < len(anchors) else 0)
        last = index + 1 == len(anchors)
        for step in range(between):  # stand-ins, spread evenly to the next anchor (or end)
            moment = at + (until - at) * (step + 1) / (between if last else between + 1)
            history.append((f"{index:02d}{step:06d}".ljust(40, "0"), moment))
    return files, history, end


@contextmanager
def radar_github(latency: float = 0.0) -> Iterator[FakeGitHub]:
    """The fake GitHub serving vLLM and every plugin of the records, with their pins."""
    plugins: dict[str, list[FakeItem]] = {"vllm-project/vllm-metal": [], **plugin_items()}
    fake = FakeGitHub(UPSTREAM, upstream_items(), latency, others=dict(plugins))
    files, history, _ = pin_state()
    fake.files.update(files)
    fake.files.update(RELEASE_FILES)
    fake.history[UPSTREAM] = history
    with fake:
        yield fake


def month_window_days() -> tuple[str, str]:
    """The busiest month as report days (first and last)."""
    first = datetime.fromisoformat(BUSIEST + "-01")
    last = (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
    return first.date().isoformat(), last.date().isoformat()
