"""Vendor and topic classification on real vLLM items, including the noise it must ignore."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.analyze.topics import classify, explain, group_of, label_noise
from bot.model.report import ActivityItem
from bot.model.rules import RulesError, load_rules, parse_rules
from tests.anchor_data import REPO, anchor_days
from tests.factories import item

RULES = load_rules()

# The numbers each published report's AMD/ROCm section names (facts read off the three
# reports in ../shared/fixtures/anchor-reports/), keyed by report day.
REFERENCE_AMD = {
    "2026-03-11": {35093, 35923, 36274, 36499, 36743, 36769, 36785, 36805, 36810},
    "2026-03-24": {37128, 37787, 37973, 37980, 37992, 37993, 37996, 38043},
    "2026-03-25": {
        31282,
        31380,
        31816,
        36574,
        36702,
        37833,
        38086,
        38088,
        38107,
        38108,
        38109,
        38145,
        38146,
        38155,
        38167,
        38180,
        38181,
    },
}
# #37980 ("[UX] Integrate DeepGEMM into vLLM wheel via CMake", by mgoin, no ROCm label) is
# named in the 03-24 AMD section only in passing ("simplifies deployment on all platforms,
# including ROCm"): exactly the kind of mention that must not place an item.
PASSING_MENTIONS = {37980}


def day_items(label: str) -> dict[int, ActivityItem]:
    day = next(d for d in anchor_days() if d.label == label)
    found = {}
    for entries in day.raw["lists"].values():
        for entry in entries:
            found[entry["number"]] = item(
                entry["number"],
                "pr" if entry["kind"] != "issue" else "issue",
                title=entry["title"],
                author=entry["author"],
                labels=tuple(entry["labels"]),
            )
    return found


@pytest.mark.parametrize("label", sorted(REFERENCE_AMD))
def test_every_amd_item_the_reference_names_is_in_amd(label: str) -> None:
    """Items the reference's AMD section names, inside the window, are all classified amd."""
    items = day_items(label)
    named = {n for n in REFERENCE_AMD[label] if n in items} - PASSING_MENTIONS
    ours = {n for n, it in items.items() if "amd" in classify(it, RULES)}
    assert named - ours == set()
    assert len(named) >= 6  # the test is not vacuous: 9, 6 and 14 items


def test_a_passing_mention_in_the_reference_is_not_amd() -> None:
    """#37980 has no AMD signal at all; explain says so."""
    deepgemm = day_items("2026-03-24")[37980]
    assert "amd" not in classify(deepgemm, RULES)
    assert not any(line.startswith("amd:") for line in explain(deepgemm, RULES))


def test_rebase_noise_labels_do_not_make_an_item_amd() -> None:
    """A real PR whose labels came with a bad rebase (8 labels, needs-rebase) is not AMD."""
    openvla = day_items("2026-03-11")[36820]  # "Mkorhone openvla pr merge"
    assert "rocm" in openvla.labels
    assert label_noise(openvla, RULES) is not None
    assert "amd" not in classify(openvla, RULES)
    piled = replace(
        day_items("2026-03-24")[37980],
        labels=("rocm", "nvidia", "tpu", "cpu", "ci/build", "multi-modality", "frontend", "v1"),
    )
    assert "amd" not in classify(piled, RULES)


def test_a_body_mentioning_rocm_in_passing_is_not_amd() -> None:
    """Every bug report's environment dump names ROCm; the body never decides."""
    body = (
        "### Your current environment\n```\nPyTorch version: 2.10.0+cu129\n"
        "ROCM used to build PyTorch: N/A\nIs CUDA available: True\n```\n"
        "### 🐛 Describe the bug\nQwen3.5 fails to load from GGUF"
    )
    gguf = replace(day_items("2026-03-25")[38122], body=body)
    assert "amd" not in classify(gguf, RULES)
    assert "amd: no (named only in the body)" in explain(gguf, RULES)


def test_real_signals_each_place_an_item() -> None:
    """A title tag, a title word (even inside ROCM_AITER_...), an -amd author, a clean label."""
    tagged = item(1, "pr", title="[ROCm][Perf] Fused GEMM + static FP8 output quantization")
    worded = item(2, "pr", title="[Bugfix] Fix ROCM_AITER_TRITON_MLA accuracy for DeepSeek-V3")
    authored = item(3, "pr", title="[Bugfix] Pass drafter quant_config", author="mgehre-amd")
    labelled = item(4, "issue", title="[Bug]: slow decode", labels=("bug", "rocm"))
    for case in (tagged, worded, authored, labelled):
        assert "amd" in classify(case, RULES), case.title
    assert classify(worded, RULES)["amd"].reasons[0] == "title says 'ROCM'"
    assert "author mgehre-amd" in classify(authored, RULES)["amd"].reasons


def test_two_vendor_labels_alone_are_not_enough() -> None:
    """Labelled both rocm and nvidia with no other signal: neither vendor claims it."""
    both = item(5, "pr", title="[Misc] Simplify platform check", labels=("rocm", "nvidia"))
    assert "amd" not in classify(both, RULES)
    assert "nvidia" not in classify(both, RULES)


@pytest.mark.parametrize(
    ("title", "labels", "group"),
    [
        ("[ROCm][Perf] Fused GEMM + static FP8 output quantization", (), "performance"),
        ("[Bugfix][Backport][ROCm] Backport PR #31380 to v0.13.0", ("bug",), "release"),
        ("[Releases] [ROCm] Enable Nightly Docker Image and Wheel Releases", (), "release"),
        ("[ROCm][CI] Fix wvSplitKrc mock argument order", ("rocm",), "platform"),
        ("[ROCm] Fall back to native rotary embedding when kernel fails", (), "bugfix"),
        ("[ROCm] Utilize persistent MLA kernel from AITER", (), "performance"),
        ("[Feature] Use Fp8 Query for Triton Attention on ROCm", (), "features"),
        ("Update rocm get gpu info capability", ("rocm",), "other"),
    ],
)
def test_groups_follow_the_reference_layout(
    title: str, labels: tuple[str, ...], group: str
) -> None:
    """Performance, bug fixes, platform & CI, release & ecosystem, features, other."""
    assert group_of(item(9, "pr", title=title, labels=labels), RULES) == group


def test_vendors_come_in_the_reference_order() -> None:
    """AMD first, then NVIDIA, Intel, TPU, and the rest, as the file lists them."""
    assert [t.key for t in RULES.vendors][:4] == ["amd", "nvidia", "intel", "tpu"]
    assert {"quantization", "spec_decode", "tool_calling", "kv_cache", "moe"} <= {
        t.key for t in RULES.topics
    }


def test_bad_rules_are_refused_with_the_key_named(tmp_path: Path) -> None:
    """A broken pattern or a missing name is reported where it is."""
    with pytest.raises(RulesError, match=r"topics.amd.keywords: bad pattern"):
        parse_rules({"topics": {"amd": {"name": "AMD", "keywords": ["(unclosed"]}}})
    with pytest.raises(RulesError, match=r"topics.x needs a 'name'"):
        parse_rules({"topics": {"x": {"kind": "topic"}}})
    bad = tmp_path / "topics.toml"
    bad.write_text("[topics.amd\n")
    with pytest.raises(RulesError, match="not valid TOML"):
        load_rules(bad)


def test_bots_are_recognised_by_login() -> None:
    """`[bot]` logins are bots; a login merely ending in b, o or t is not."""
    assert RULES.is_bot("gemini-code-assist[bot]")
    assert RULES.is_bot("mergify")
    assert not RULES.is_bot("robot")
    assert not RULES.is_bot(REPO.split("/")[0])
