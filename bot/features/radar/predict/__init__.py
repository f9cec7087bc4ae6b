"""Warn before it breaks: which vLLM change breaks which lines of a hardware plugin.

Pure analysis with `ast` (no I/O, no clock, no SDK): source text in, frozen facts out.

    from bot.features.radar.predict import change_breaks, plugin_uses, predict

    uses = plugin_uses(plugin_files)        # path → text (None: unreadable) of the plugin
    change = change_breaks(before, after)   # path → text (None: absent) of vLLM's modules
    found = predict(uses, change)           # Prediction: status, warnings, unread

- `uses.plugin_uses(sources) -> PluginUses`: every line of the plugin that uses a vLLM name
  (`Use`: file, line, kind — import, attribute, call, subclass, override, inherited, patch —
  the name with the plugin's aliases resolved, a call's keywords and positional count, an
  override's signature, and its guard: a version check, `try/except ImportError`,
  `hasattr`, `TYPE_CHECKING`). A file that does not parse is `unreadable`, never skipped.
- `breaks.change_breaks(before, after) -> ChangeBreaks`: what the change takes away
  (`Break`: kind — module-removed, module-moved, name-removed, name-renamed, name-moved,
  member-removed, signature, base-removed — the vLLM name, its file and line before, what
  changed, where it went, the signatures before and after). A path given on one side only
  is unchanged context (a re-export, a base class), not compared. `index.needed(...)`
  tells which vLLM modules to hand over for a plugin's uses.
- `predict.predict(uses, change) -> Prediction`: one `BreakWarning` per break that meets a
  use: the break, the unguarded sites that fail as soon as it lands (`sites`, `count`), the
  guarded ones apart (`guarded`), and those that may break without failing at once
  (`possible`: an override of a method vLLM dropped, or lacking a new optional parameter).
  `status` is `breaks`, `no-break` (all was read), `incomplete` (no warning, but a file
  was not read) or `not-evaluated`
  (`predict.not_evaluated(reason)`: the plugin's or the change's source could not be had).

What it does not see: names reached through instances (`self.runner.x` where the runner is
vLLM's), behaviour changes behind an unchanged signature, and names built at run time
(`getattr(mod, name)` with a computed name). `benchmarks/predict_breaks.py` measures it on
real releases of vLLM, tpu-inference and vllm-ascend.
"""

from bot.features.radar.predict.breaks import change_breaks
from bot.features.radar.predict.model import (
    Break,
    BreakWarning,
    ChangeBreaks,
    PluginUses,
    Prediction,
    Unreadable,
    Use,
)
from bot.features.radar.predict.predict import not_evaluated, predict
from bot.features.radar.predict.uses import plugin_uses

__all__ = [
    "Break",
    "BreakWarning",
    "ChangeBreaks",
    "PluginUses",
    "Prediction",
    "Unreadable",
    "Use",
    "change_breaks",
    "not_evaluated",
    "plugin_uses",
    "predict",
]
