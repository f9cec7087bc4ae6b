"""Where each hardware plugin writes the upstream vLLM it was last verified against, and how
to read the pin out of that file's text. Pure: text in, a commit sha or a release tag out.

From ../shared/fixtures/radar/pins.json, each plugin's own mechanism, newest first: a
plugin that moved its pin to another file has the older files after the newer, so a day
before the move reads the file that held the pin then (`bot.features.radar.collect_pins`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class PinFile:
    """A file a plugin writes its pin in, on a branch."""

    path: str
    ref: str
    patterns: tuple[re.Pattern[str], ...]  # the first that matches; its group 1 is the pin

    @property
    def where(self) -> str:
        return f"{self.path} on {self.ref}"


_SHA_LINE = re.compile(r"^\s*([0-9a-f]{40})\b", re.M)
# vllm-spyre's pyproject: the git source's `rev`, else the release a range allows at most.
_UV_REV = re.compile(r'vllm\s*=\s*\{[^}\n]*\brev\s*=\s*"(v?\d[\w.]*)"')
_EXACT = re.compile(r'"vllm\s*==\s*(\d[\w.]*)"')
_MATRIX = re.compile(r"vllm_version:\s*\[\s*([0-9a-f]{40})\b")
_AT_MOST = re.compile(r'"vllm\s*>=?\s*[\w.]+\s*,\s*<=\s*(\d[\w.]*)"')

PIN_FILES: dict[str, tuple[PinFile, ...]] = {
    "vllm-project/vllm-gaudi": (
        PinFile("VLLM_STABLE_COMMIT", "vllm/last-good-commit-for-vllm-gaudi", (_SHA_LINE,)),
    ),
    "vllm-project/tpu-inference": (PinFile(".buildkite/vllm_lkg.version", "main", (_SHA_LINE,)),),
    "vllm-project/vllm-ascend": (
        PinFile(".github/vllm-main-verified.commit", "main", (_SHA_LINE,)),
        # Before 2026-06: the PR workflow's matrix, `vllm_version: [<sha>, vX.Y.Z]`.
        PinFile(".github/workflows/pr_test_light.yaml", "main", (_MATRIX,)),
        PinFile(".github/workflows/vllm_ascend_test.yaml", "main", (_MATRIX,)),
    ),
    "vllm-project/vllm-spyre": (PinFile("pyproject.toml", "main", (_UV_REV, _EXACT, _AT_MOST)),),
    "vllm-project/vllm-metal": (
        # `VLLM_VERSION="0.27.1"` since 2026-08; `local vllm_v="0.26.0"` before.
        PinFile("install.sh", "main", (re.compile(r'\b(?:VLLM_VERSION|vllm_v)="?(\d[\w.]*)"?'),)),
    ),
    "vllm-project/vllm-omni": (
        PinFile(
            "docker/Dockerfile.ci",
            "main",
            (
                re.compile(r"vLLM (?:wheel )?commit:\s*([0-9a-f]{40})"),
                re.compile(r"ARG VLLM_BASE_TAG=(v\d[\w.]*)"),
            ),
        ),
    ),
}


def pinned(spec: PinFile, text: str) -> str | None:
    """The upstream `text` pins: a 40-hex commit, or a release tag (`v0.27.1`: a bare
    `0.27.1` is written as its tag); None when the file names none."""
    for pattern in spec.patterns:
        found = pattern.search(text)
        if found is not None:
            value = found.group(1)
            return "v" + value if value[0].isdigit() and "." in value else value
    return None


def where(repo: str) -> str:
    """Where `repo`'s pin is read, as the radar says it ("none": no file is known)."""
    specs = PIN_FILES.get(repo)
    return specs[0].where if specs else "none"
