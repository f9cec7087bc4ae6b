"""A report day for the radar's warnings, served by the fake GitHub from a real break:
vLLM 0.20.0 removed `SharedFusedMoE` (its re-export and its module) and `FusedMoE`'s
`reduce_results`, which tpu-inference 0.19.0 used (tests/data/predict/tpu-inference-0.19.0-
0.20.0/, extracted from the released wheels; its README says how).

The day (2026-03-24, Asia/Shanghai, 11:45 to 11:45) has four upstream PRs, all open and
updated in it (their numbers, titles and commits are stand-ins; the code is real):

- BREAK: changes `fused_moe/__init__.py`, deletes `shared_fused_moe.py` and changes
  `layer.py` exactly as 0.19.0 → 0.20.0 did: at its base the 0.19.0 files, at its head the
  0.20.0 ones (the contents API at each commit);
- LAYER: changes `layer.py` alone, as 0.20.0 did (`FusedMoE` drops `reduce_results`): the
  plugin imports `FusedMoE` from the package, whose unchanged `__init__.py` (0.19.0's, at
  vLLM main's head) re-exports it;
- DOCS: changes a Markdown file and a module no plugin uses;
- FAILING: its file list answers 500 every time.

Plugins: tpu-inference (its default branch's head is a commit whose tarball, a real gzip
tar built here, holds 0.19.0's two files, a package `__init__` and a template that does not
parse), and vllm-gaudi (a head commit, but no tarball: 404). `next_release` moves
tpu-inference's head to a commit with 0.20.0's `fused_moe.py`: what the plugin did about
the break.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import tarfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.model.windows import Window, day_window
from tests.fakes.github_api import FakeGitHub, FakeItem, Fault

PAIR = Path(__file__).resolve().parents[2] / "data" / "predict" / "tpu-inference-0.19.0-0.20.0"
UPSTREAM = "vllm-project/vllm"
TPU = "vllm-project/tpu-inference"
GAUDI = "vllm-project/vllm-gaudi"
PLUGINS = f"{TPU},{GAUDI}"
TZ = ZoneInfo("Asia/Shanghai")
CUTOFF = time(11, 45)
DAY = date(2026, 3, 24)
BREAK, DOCS, FAILING, LAYER = 41001, 41002, 41003, 41004
MOE = "vllm/model_executor/layers/fused_moe"


def sha(text: str) -> str:
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()


BASE, HEAD = sha("vllm base"), sha("vllm head")
MAIN = sha("vllm main")
TPU_0190, TPU_0200 = sha("tpu-inference at 0.19.0"), sha("tpu-inference at 0.20.0")
GAUDI_HEAD = sha("vllm-gaudi head")


def window(n: int = 0) -> Window:
    """Report day DAY + n."""
    return day_window(DAY + timedelta(days=n), TZ, CUTOFF)


def now(n: int = 0) -> datetime:
    """Two hours after day n's window closed: when its daily run reads it."""
    return window(n).end.astimezone(UTC) + timedelta(hours=2)


def tree(name: str) -> dict[str, str]:
    """A fixture folder: path (without `.txt`) → text."""
    root = PAIR / name
    return {
        str(p.relative_to(root)).removesuffix(".txt"): p.read_text(encoding="utf-8")
        for p in sorted(root.rglob("*.txt"))
    }


def tarball(repo: str, commit: str, files: dict[str, str]) -> bytes:
    """GitHub's tarball of `repo` at `commit`: one top folder `owner-name-sha7/`, gzip."""
    top = f"{repo.replace('/', '-')}-{commit[:7]}"
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tar:
        for path, text in {"README.md": "# plugin\n", **files}.items():
            data = text.encode("utf-8")
            info = tarfile.TarInfo(f"{top}/{path}")
            info.size = len(data)
            info.mtime = 1_774_000_000
            tar.addfile(info, io.BytesIO(data))
    return gzip.compress(raw.getvalue(), mtime=0)


def plugin_files(release: str) -> dict[str, str]:
    """The plugin's files at a release, with a template that is not Python (as plugins keep
    some): it is read in part, and says so."""
    files = {
        **tree("tpu-inference-0.19.0"),
        "tpu_inference/__init__.py": "",
        "tools/templates/kernel.py": "def {{ name }}(x):\n    return x\n",
    }
    if release == "0.20.0":
        files.update(tree("tpu-inference-0.20.0"))
    return files


def pull(number: int, title: str, updated: datetime, **more: object) -> FakeItem:
    created = window().start.astimezone(UTC) - timedelta(days=3)
    item = FakeItem(
        number=number,
        kind="pr",
        title=title,
        author="someone",
        labels=[],
        created_at=created,
        updated_at=updated,
        head_sha=sha(f"head of {number}"),
        base_sha=BASE,
    )
    for name, value in more.items():
        setattr(item, name, value)
    return item


def touch(fake: FakeGitHub, number: int, n: int) -> None:
    """The PR was updated on day n (a push, a comment): it is among that day's PRs."""
    item = fake.items[number]
    item.updated_at = window(n).start.astimezone(UTC) + timedelta(hours=3)


def approve(fake: FakeGitHub, number: int, n: int) -> None:
    item = fake.items[number]
    at = window(n).start.astimezone(UTC) + timedelta(hours=4)
    item.reviews.append(
        {"id": len(item.reviews) + 1, "user": "maintainer", "state": "APPROVED", "submitted_at": at}
    )
    item.updated_at = at


def merge(fake: FakeGitHub, number: int, n: int) -> None:
    item = fake.items[number]
    at = window(n).start.astimezone(UTC) + timedelta(hours=5)
    item.merged_at = item.closed_at = item.updated_at = at


def next_release(fake: FakeGitHub, n: int) -> None:
    """tpu-inference's default branch moves to a commit with 0.20.0's `fused_moe.py`."""
    at = window(n).start.astimezone(UTC) + timedelta(hours=6)
    fake.history[TPU] = [*fake.history[TPU], (TPU_0200, at)]
    fake.tarballs[(TPU, TPU_0200)] = tarball(TPU, TPU_0200, plugin_files("0.20.0"))


@contextmanager
def predict_github() -> Iterator[FakeGitHub]:
    """The fake GitHub of the day: vLLM with the three PRs, and the two plugins."""
    updated = window().start.astimezone(UTC) + timedelta(hours=2)
    old, new = tree("vllm-0.19.0"), tree("vllm-0.20.0")
    changed = [(path, "removed" if path not in new else "modified", None) for path in sorted(old)]
    items = [
        pull(
            BREAK,
            "[MoE] Fold SharedFusedMoE into FusedMoE",
            updated,
            head_sha=HEAD,
            changes=changed,
        ),
        pull(
            DOCS,
            "[Docs] Explain the scheduler's budget",
            updated,
            changes=[
                ("docs/usage/scheduler.md", "modified", None),
                ("vllm/entrypoints/cli/banner.py", "modified", None),
            ],
        ),
        pull(FAILING, "[Core] A PR whose files GitHub cannot list", updated),
        pull(
            LAYER,
            "[MoE] FusedMoE: drop reduce_results",
            updated,
            changes=[(f"{MOE}/layer.py", "modified", None)],
        ),
    ]
    fake = FakeGitHub(UPSTREAM, items, others={TPU: [], GAUDI: []})
    for path, text in old.items():
        fake.files[(UPSTREAM, path, BASE)] = text
    for path, text in new.items():
        fake.files[(UPSTREAM, path, HEAD)] = text
    banner = "def banner() -> str:\n    return 'vLLM'\n"
    fake.files[(UPSTREAM, "vllm/entrypoints/cli/banner.py", BASE)] = banner
    head_of_docs = fake.items[DOCS].head_sha or ""
    fake.files[(UPSTREAM, "vllm/entrypoints/cli/banner.py", head_of_docs)] = banner + "\n"
    head_of_layer = fake.items[LAYER].head_sha or ""
    fake.files[(UPSTREAM, f"{MOE}/layer.py", head_of_layer)] = new[f"{MOE}/layer.py"]
    fake.files[(UPSTREAM, f"{MOE}/__init__.py", MAIN)] = old[f"{MOE}/__init__.py"]
    first = window().start.astimezone(UTC) - timedelta(days=10)
    fake.history[UPSTREAM] = [(MAIN, first)]
    fake.history[TPU] = [(TPU_0190, first)]
    fake.history[GAUDI] = [(GAUDI_HEAD, first)]
    fake.tarballs[(TPU, TPU_0190)] = tarball(TPU, TPU_0190, plugin_files("0.19.0"))
    failing = f"/repos/{UPSTREAM}/pulls/{FAILING}/files"
    fake.fault_rule = lambda _, path: Fault.server_error(500) if path == failing else None
    with fake:
        yield fake


def requests_to(fake: FakeGitHub, part: str) -> list[str]:
    return [r.path for r in fake.requests if part in r.path]


def predict_env(monkeypatch: pytest.MonkeyPatch, fake: FakeGitHub, data: Path) -> None:
    """The bot pointed at `fake` with a token and the watched plugins, its store in `data`,
    no waits between requests and Red on main off (no dashboard in these tests)."""
    for name, value in {
        "GITHUB_API_URL": fake.url,
        "GITHUB_TOKEN": "ghp-test",
        "VLLM_REPORT_DATA_DIR": str(data),
        "VLLM_REPORT_PLUGINS": PLUGINS,
        "VLLM_REPORT_GITHUB_REQUEST_INTERVAL": "0",
        "VLLM_REPORT_GITHUB_RETRIES": "1",
        "VLLM_REPORT_GITHUB_BACKOFF": "0",
        "VLLM_REPORT_CI_URL": "none",
    }.items():
        monkeypatch.setenv(name, value)
