"""A real break, predicted from the released sources: vLLM 0.20.0 removed `SharedFusedMoE`
and `FusedMoE`'s `reduce_results`, which tpu-inference 0.19.0 used
(tests/data/predict/tpu-inference-0.19.0-0.20.0/, see its README)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.features.radar.predict import change_breaks, plugin_uses, predict
from bot.features.radar.predict.model import Prediction

PAIR = Path(__file__).resolve().parents[3] / "data" / "predict" / "tpu-inference-0.19.0-0.20.0"
MOE = "vllm.model_executor.layers.fused_moe"


def tree(name: str) -> dict[str, str]:
    """A fixture folder as the archive held it: path (without `.txt`) → text."""
    root = PAIR / name
    return {
        str(p.relative_to(root)).removesuffix(".txt"): p.read_text(encoding="utf-8")
        for p in sorted(root.rglob("*.txt"))
    }


def sides() -> tuple[dict[str, str | None], dict[str, str | None]]:
    old, new = tree("vllm-0.19.0"), tree("vllm-0.20.0")
    before: dict[str, str | None] = dict(old)
    after: dict[str, str | None] = {path: new.get(path) for path in old}  # None: deleted
    return before, after


@pytest.fixture(scope="module")
def found() -> Prediction:
    return predict(plugin_uses(tree("tpu-inference-0.19.0")), change_breaks(*sides()))


def sites(found: Prediction, kind: str, name: str) -> list[str]:
    return [
        f"{use.site} {use.kind}"
        for w in found.warnings
        if (w.change.kind, w.change.name) == (kind, name)
        for use in w.sites
    ]


def test_the_removed_class_is_predicted_at_the_plugins_real_lines(found: Prediction) -> None:
    """tpu-inference 0.19.0 imports SharedFusedMoE at line 16 and subclasses it at 31."""
    assert found.status == "breaks"
    hit = sites(found, "name-removed", f"{MOE}.SharedFusedMoE")
    plugin = "tpu_inference/layers/vllm/custom_ops/fused_moe.py"
    assert f"{plugin}:16 import" in hit
    assert f"{plugin}:31 subclass" in hit
    assert f"{plugin}:30 attribute" in hit  # @SharedFusedMoE.register_oot
    # The module it lived in went too; the plugin never named that module, so its lines are
    # told once, by the name the plugin imports.
    assert sites(found, "module-removed", f"{MOE}.shared_fused_moe") == []


def test_the_removed_parameter_is_predicted_at_the_call_that_passes_it(
    found: Prediction,
) -> None:
    """`FusedMoE(..., reduce_results=False, ...)` in the plugin's tests, lines 500 and 623."""
    (warning,) = [w for w in found.warnings if w.change.name == f"{MOE}.layer.FusedMoE.__init__"]
    assert "removed: reduce_results" in warning.change.detail
    assert warning.change.before is not None and warning.change.after is not None
    assert "reduce_results" in warning.change.before.text
    assert "reduce_results" not in warning.change.after.text
    assert [u.site for u in warning.sites] == [
        "tests/layers/vllm/test_unquantized.py:500",
        "tests/layers/vllm/test_unquantized.py:623",
    ]


def test_what_the_plugin_keeps_using_is_not_warned_of(found: Prediction) -> None:
    """FusedMoE itself stays (and is still re-exported): its import and subclass are fine."""
    warned = {u.site for w in found.warnings for u in w.sites}
    assert "tpu_inference/layers/vllm/custom_ops/fused_moe.py:19 subclass" not in {
        f"{u.site} {u.kind}" for w in found.warnings for u in w.sites
    }
    assert "tpu_inference/layers/vllm/custom_ops/fused_moe.py:20" not in warned


def test_the_base_class_swap_is_listed_as_a_break() -> None:
    """FusedMoE is a PluggableLayer now, no longer a CustomOp."""
    change = change_breaks(*sides())
    (base,) = [b for b in change.breaks if b.kind == "base-removed"]
    assert (base.name, base.now) == (
        f"{MOE}.layer.FusedMoE",
        "vllm.model_executor.custom_op.CustomOp",
    )


def test_the_next_release_dropped_what_was_predicted() -> None:
    """What the plugin did: tpu-inference 0.20.0 no longer uses SharedFusedMoE."""
    after = plugin_uses(tree("tpu-inference-0.20.0"))
    assert not [u for u in after.uses if "SharedFusedMoE" in u.name]
    assert [u for u in after.uses if u.name == f"{MOE}.FusedMoE" and u.kind == "subclass"]
