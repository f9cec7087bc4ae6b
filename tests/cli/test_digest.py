"""`vllm-report digest`: the personal digest a subscription would get, in the terminal."""

from __future__ import annotations

import json
import re

import pytest

from bot.cli import main
from tests.anchor_data import anchor_days
from tests.fakes.github_api import FakeGitHub

DAY = anchor_days()[2]


def test_a_label_digest_of_a_day(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["digest", "label:ROCm", DAY.label, "--cutoff", DAY.cutoff, "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"# 你的 vLLM 摘要 · {DAY.label}\n")
    assert "### 匹配的条目（33）" in out
    assert len(set(re.findall(r"\[#(\d+)\]\(", out))) == 33
    assert (
        main(
            [
                "digest",
                "author:AndreasKaratzas",
                DAY.label,
                "--cutoff",
                DAY.cutoff,
                "--format",
                "discord",
            ]
        )
        == 0
    )
    (message,) = json.loads(capsys.readouterr().out)
    assert message["allowed_mentions"] == {"parse": []}
    assert "Matching items (14)" in message["embeds"][0]["description"]


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["mine"], "`mine` is someone's: say whose with --login <GitHub login>"),
        (["labels:rocm"], "`labels:` is not a filter"),
        (["path:a b"], "a path has no spaces"),
        (["path:?*"], "that path matches every file"),
        (["path:[<!channel>]*"], "a path has no `<`, `>`, `|` or backquote"),
        (["mine", "--login", "not/me"], "`not/me` is not a GitHub login"),
    ],
)
def test_bad_words_are_one_sentence(
    words: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["digest", *words]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
