"""The warnings' reads one by one, against the fake GitHub serving the real break
(tests/features/radar/predict_day.py): a tarball and its Python files, a file at a commit,
a PR's changed files, PRs' heads; what cannot be read is said, never read as empty."""

from __future__ import annotations

import gzip
import io
import tarfile
from collections.abc import Iterator

import pytest

from bot.collect.client import Collector
from bot.collect.code import (
    TooLarge,
    code_text,
    head_commit,
    pull_files,
    pull_heads,
    python_files,
    tarball,
)
from bot.collect.source import CollectError, GitHubSource
from tests.fakes.github_api import FakeGitHub
from tests.features.radar.predict_day import (
    BASE,
    BREAK,
    GAUDI,
    GAUDI_HEAD,
    HEAD,
    MOE,
    TPU,
    TPU_0190,
    UPSTREAM,
    predict_github,
)


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    with predict_github() as fake:
        yield fake


def collector(fake: FakeGitHub, repo: str, token: str | None = "ghp-test") -> Collector:  # noqa: S107
    source = GitHubSource(
        repo, api_url=fake.url, token=token, retries=1, backoff=0, request_interval=0
    )
    return Collector(source)


def gzip_tar(files: dict[str, bytes]) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tar:
        for path, data in files.items():
            info = tarfile.TarInfo(path)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return gzip.compress(raw.getvalue())


def test_a_tarballs_python_files_are_read_and_the_unreadable_named() -> None:
    data = gzip_tar(
        {
            "org-plugin-abc1234/plugin/a.py": b"import vllm\n",
            "org-plugin-abc1234/plugin/big.py": b"x = 1\n" * 100,
            "org-plugin-abc1234/plugin/latin.py": "café = 1\n".encode("latin-1"),
            "org-plugin-abc1234/README.md": b"# not Python\n",
        }
    )
    tree = python_files(data, file_bytes=100)
    assert tree.files == {"plugin/a.py": "import vllm\n"}
    assert tree.unreadable == {
        "plugin/big.py": "too large (600 bytes)",
        "plugin/latin.py": "not UTF-8 text",
    }
    with pytest.raises(CollectError, match="tarball could not be read"):
        python_files(data[: len(data) // 2])


def test_a_plugins_head_and_tarball_through_the_api_and_codeload(github: FakeGitHub) -> None:
    tpu = collector(github, TPU)
    commit, _ = head_commit(tpu)
    assert commit == TPU_0190
    tree = python_files(tarball(tpu, commit))
    assert "tpu_inference/layers/vllm/custom_ops/fused_moe.py" in tree.files
    paths = [r.path for r in github.requests]
    assert paths[-2:] == [
        f"/repos/{TPU}/tarball/{TPU_0190}",
        f"/_codeload/{TPU}/legacy.tar.gz/{TPU_0190}",
    ]
    with pytest.raises(TooLarge, match="tarball is over 0 MB"):
        tarball(tpu, commit, limit=100)
    with pytest.raises(CollectError, match="GitHub has no repository 'vllm-project/vllm-gaudi'"):
        tarball(collector(github, GAUDI), GAUDI_HEAD)


def test_a_file_at_a_commit_a_prs_files_and_heads(github: FakeGitHub) -> None:
    vllm = collector(github, UPSTREAM)
    assert code_text(vllm, f"{MOE}/shared_fused_moe.py", BASE) is not None
    assert code_text(vllm, f"{MOE}/shared_fused_moe.py", HEAD) is None  # deleted: no file
    with pytest.raises(TooLarge, match=r"layer\.py is too large to read \(2,063 bytes\)"):
        code_text(vllm, f"{MOE}/layer.py", HEAD, limit=100)
    github.files[(UPSTREAM, "vllm/latin.py", HEAD)] = "x = 1\n"
    assert code_text(vllm, "vllm/latin.py", HEAD) == "x = 1\n"
    listed = pull_files(vllm, BREAK)
    assert [(f.path, f.status) for f in listed] == [
        (f"{MOE}/__init__.py", "modified"),
        (f"{MOE}/layer.py", "modified"),
        (f"{MOE}/shared_fused_moe.py", "removed"),
    ]
    heads = pull_heads(vllm, [BREAK, 99999])
    assert heads[99999] is None
    head = heads[BREAK]
    assert head is not None and (head.head, head.base, head.approved) == (HEAD, BASE, False)
    anonymous = pull_heads(collector(github, UPSTREAM, token=None), [BREAK])[BREAK]
    assert anonymous is not None and (anonymous.head, anonymous.approved) == (HEAD, None)


def test_a_removed_name_and_its_module_at_the_same_lines_are_one_warning() -> None:
    """The name's warning stays, the module's is left to it; a warning with lines of its
    own stays; one with guarded lines only is none."""
    from bot.features.radar.predict.model import Break, BreakWarning, Use
    from bot.features.radar.warnings import _folded

    def use(line: int, guard: str | None = None) -> Use:
        return Use("p/a.py", line, "import", "vllm.x.Shared", guard)

    module = BreakWarning(
        Break("module-removed", "vllm.x.shared", "vllm/x/shared.py", 0), (use(16), use(31))
    )
    name = BreakWarning(
        Break("name-removed", "vllm.x.Shared", "vllm/x/__init__.py", 3), (use(16), use(31))
    )
    other = BreakWarning(
        Break("name-removed", "vllm.x.other", "vllm/x/__init__.py", 4), (use(31), use(40))
    )
    guarded = BreakWarning(
        Break("name-removed", "vllm.x.g", "vllm/x/__init__.py", 5), (), (use(7, "version"),)
    )
    assert _folded([module, name, other, guarded]) == [name, other]
