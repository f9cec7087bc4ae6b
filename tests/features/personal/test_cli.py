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


@pytest.mark.parametrize("fmt", ["markdown", "slack", "discord"])
def test_a_digest_with_nothing_in_it_says_so(
    fmt: str, fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """The ordinary empty case (`author:nobody`): nothing matched, said, exit 0."""
    words = ["digest", "author:nobody", DAY.label, "--cutoff", DAY.cutoff, "--format", fmt]
    assert main(words) == 0
    out = capsys.readouterr().out
    assert "Nothing in this window matches: opened by nobody." in out


def test_the_window_may_follow_the_options_as_the_help_shows(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """`vllm-report digest mine --login tjtanaa 2026-03-25` (the --help example's order)."""
    assert main(["digest", "mine", "--login", "tjtanaa", "--cutoff", DAY.cutoff, DAY.label]) == 0
    assert f"· {DAY.label}" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stopped:
        main(["digest", "mine", "--login", "tjtanaa", "--bogus", DAY.label])
    assert stopped.value.code == 2
