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
- pins: each plugin's pin-file commits that pins.json dates (their shas, times and the
  lines they wrote, in a file of that kind), and vLLM main's history: the latest pins at
  their real times with as many commits after each as the records count up to `index_end`,
  and before them a stand-in commit every eight hours with each older pinned commit six
  hours before a plugin pinned it and each pinned release tag two days before (only the
  pinned commits, and the counts after the latest, are facts).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tests.fakes.github_api import FakeGitHub, FakeItem

DATA = Path(__file__).parents[2] / "data" / "radar"
UPSTREAM = "vllm-project/vllm"
BUSIEST = "2025-09"  # 41 records, the most of any month
STAND_IN_MERGE = timedelta(days=3)  # an upstream PR merged this long before it is first named
# Each plugin's pin files and the branch they are on (bot.features.radar.pins.PIN_FILES), and how
# the records' quoted lines sit in a whole file of that kind.
PIN_REFS = {"vllm-project/vllm-gaudi": "vllm/last-good-commit-for-vllm-gaudi"}
PIN_PATHS = {
    "vllm-project/vllm-gaudi": ("VLLM_STABLE_COMMIT",),
    "vllm-project/tpu-inference": (".buildkite/vllm_lkg.version",),
    "vllm-project/vllm-ascend": (
        ".github/vllm-main-verified.commit",
        ".github/workflows/pr_test_light.yaml",
        ".github/workflows/vllm_ascend_test.yaml",
    ),
    "vllm-project/vllm-spyre": ("pyproject.toml",),
    "vllm-project/vllm-metal": ("install.sh",),
}
MATRIX_FILE = "jobs:\n  test:\n    strategy:\n      matrix:\n{lines}\n"
SPYRE_FILE = '[project]\nname = "vllm-spyre"\ndependencies = [\n{lines}\n]\n'
# vLLM main before the records' latest pins: a stand-in commit this often (only the pinned
# commits are facts; each is placed this long before the plugin pinned it), and each
# release tag a plugin pins as a stand-in commit two days before the first bump to it.
MAIN_STEP = timedelta(hours=8)
MAIN_FROM = datetime(2025, 6, 1, tzinfo=UTC)
PINNED_AFTER = timedelta(hours=6)
TAGGED_BEFORE = timedelta(days=2)
SHA = re.compile(r"^[0-9a-f]{40}$")


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
        # Closed unmerged at a time the records do not give: closed as it opened, so the
        # fake never shows as open breakage what the plugin had closed.
        closed = merged or (created if record.get("plugin_state") == "closed" else None)
        found.setdefault(record["plugin_repo"], {})[record["plugin_number"]] = FakeItem(
            number=record["plugin_number"],
            kind="pr" if record["plugin_kind"] == "pr" else "issue",
            title=record["plugin_title"],
            author=record["plugin_author"] if record.get("plugin_author_is_login") else None,
            labels=list(record["plugin_labels"] or []),
            created_at=created,
            updated_at=merged or created,
            closed_at=closed,
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


def pin_file_histories() -> dict[tuple[str, str, str], list[tuple[str, datetime, str | None]]]:
    """Each pin file's commits with a date in the records (pins.json's examples), oldest
    first, and the file's text at each: the quoted lines, in a file of that kind."""
    found: dict[tuple[str, str, str], list[tuple[str, datetime, str | None]]] = {}
    for plugin in pins():
        repo = plugin["plugin_repo"]
        for mechanism in plugin["mechanisms"]:
            for example in mechanism.get("examples", []):
                path = example.get("path")
                if path not in PIN_PATHS.get(repo, ()) or not example.get("committed_at"):
                    continue
                key = (repo, path, PIN_REFS.get(repo, "main"))
                at = _time(example["committed_at"])
                found.setdefault(key, []).append((example["commit"], at, _text(path, example)))
    return {key: sorted(rows, key=lambda row: row[1]) for key, rows in found.items()}


def _text(path: str, example: dict[str, Any]) -> str:
    content = example["content"]
    lines = "\n".join(content) if isinstance(content, list) else content
    if path.endswith(".yaml"):
        return MATRIX_FILE.format(lines=lines)
    if path == "pyproject.toml":
        return SPYRE_FILE.format(lines=lines)
    return lines + "\n"


def pinned_values() -> list[tuple[datetime, str]]:
    """What each pin-file commit pinned, by when: 40-hex commits and release tags."""
    values = []
    for rows in pin_file_histories().values():
        for _, at, text in rows:
            for token in re.findall(r"\b[0-9a-f]{40}\b|\bv?\d+\.\d+\.\d+\b", text or ""):
                values.append((at, token if SHA.match(token) else "v" + token.lstrip("v")))
    return sorted(values)


def pin_state() -> tuple[list[tuple[str, datetime]], dict[str, str], datetime]:
    """vLLM main's history (oldest first), its release tags and the moment it ends."""
    anchors: list[tuple[datetime, str, int]] = []  # (time, sha, commits after it to the end)
    end = None
    for plugin in pins():
        latest = (plugin.get("lag") or {}).get("latest_pin")
        if plugin["plugin_repo"] not in PIN_PATHS or not latest:
            continue
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
    history, tags = _main_before(anchors[0][0], {sha for _, sha, _ in anchors})
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
    return history, tags, end


def _main_before(
    first: datetime, anchored: set[str]
) -> tuple[list[tuple[str, datetime]], dict[str, str]]:
    """Main before the first of the latest pins: stand-ins every MAIN_STEP, and each older
    pinned commit and release tag at its stand-in time."""
    placed: dict[str, datetime] = {}
    tags: dict[str, str] = {}
    for at, value in pinned_values():
        if value in anchored or value in placed or value in tags:
            continue
        if SHA.match(value):
            placed[value] = at - PINNED_AFTER
        else:
            stand_in = f"7a9{len(tags):05d}".ljust(40, "a")
            # A minute apart: two releases named by one file (>=0.19.0,<0.19.1) are two commits.
            moment = at - TAGGED_BEFORE + timedelta(minutes=len(tags))
            tags[value], placed[stand_in] = stand_in, moment
    steps = int((first - MAIN_FROM) / MAIN_STEP)
    rows = [(f"5e{n:06d}".ljust(40, "e"), MAIN_FROM + n * MAIN_STEP) for n in range(steps)]
    rows += [(sha, at) for sha, at in placed.items() if at < first]
    return sorted(rows, key=lambda row: row[1]), tags


@contextmanager
def radar_github(latency: float = 0.0) -> Iterator[FakeGitHub]:
    """The fake GitHub serving vLLM and every plugin of the records, with their pins."""
    plugins: dict[str, list[FakeItem]] = {"vllm-project/vllm-metal": [], **plugin_items()}
    fake = FakeGitHub(UPSTREAM, upstream_items(), latency, others=dict(plugins))
    history, tags, _ = pin_state()
    fake.file_history.update(pin_file_histories())
    fake.history[UPSTREAM], fake.tags = history, tags
    with fake:
        yield fake


def month_window_days() -> tuple[str, str]:
    """The busiest month as report days (first and last)."""
    first = datetime.fromisoformat(BUSIEST + "-01")
    last = (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
    return first.date().isoformat(), last.date().isoformat()


def pin_request(path: str) -> bool:
    """Whether a request to the fake GitHub reads a pin (its file's history, the file at a
    commit, vLLM main at a moment, or a comparison with it) rather than PRs and issues."""
    return path.endswith("/commits") or "/contents/" in path or "/compare/" in path
