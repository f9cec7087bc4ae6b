"""Each rule of the prediction on a small hand-written case: what a plugin uses, what a
vLLM change takes away, and where the two meet (`bot.features.radar.predict`)."""

from __future__ import annotations

from textwrap import dedent

from bot.features.radar.predict import change_breaks, not_evaluated, plugin_uses, predict
from bot.features.radar.predict.model import Prediction


def run(
    before: dict[str, str | None], after: dict[str, str | None], plugin: dict[str, str | None]
) -> Prediction:
    def clean(files: dict[str, str | None]) -> dict[str, str | None]:
        return {p: dedent(t) if t is not None else None for p, t in files.items()}

    return predict(plugin_uses(clean(plugin)), change_breaks(clean(before), clean(after)))


def warned(found: Prediction) -> dict[tuple[str, str], list[str]]:
    """(kind, name) → the unguarded sites of each warning."""
    return {(w.change.kind, w.change.name): [u.site for u in w.sites] for w in found.warnings}


# -- uses --------------------------------------------------------------------------------------


def test_aliases_are_resolved_to_vllms_names() -> None:
    uses = plugin_uses(
        {
            "p/a.py": dedent(
                """\
                from vllm.v1 import worker as w
                import vllm.config as cfg
                from vllm.platforms import current_platform as cp
                import vllm.envs

                w.gpu_model_runner.GPUModelRunner.execute_model
                cfg.VllmConfig(model="m", seed=1)
                cp.device_name
                vllm.envs.VLLM_USE_V1
                from . import sibling
                """
            )
        }
    )
    said = {(u.line, u.kind, u.name) for u in uses.uses}
    assert (6, "attribute", "vllm.v1.worker.gpu_model_runner.GPUModelRunner.execute_model") in said
    assert (7, "call", "vllm.config.VllmConfig") in said
    assert (8, "attribute", "vllm.platforms.current_platform.device_name") in said
    assert (9, "attribute", "vllm.envs.VLLM_USE_V1") in said
    assert (1, "import", "vllm.v1.worker") in said
    (call,) = [u for u in uses.uses if u.kind == "call"]
    assert (call.keywords, call.positional) == (("model", "seed"), 0)
    assert not [u for u in uses.uses if "sibling" in u.name]  # relative: the plugin's own


def test_subclasses_overrides_inherited_members_and_patches_are_read() -> None:
    text = """\
        from unittest.mock import patch
        import vllm.worker.base as base
        from vllm.worker.base import Worker

        def _load(self): ...

        class TPUWorker(Worker):
            def __init__(self, config):
                super().__init__(config, rank=0)
                self.mine = 1

            def load_model(self, dummy=False):
                self.mine
                return self.device

        base.Worker.load_model = _load
        setattr(base, "helper", None)
        patch("vllm.worker.base.helper")
        """
    uses = plugin_uses({"p/w.py": dedent(text)})
    said = {(u.line, u.kind, u.name) for u in uses.uses}
    assert (7, "subclass", "vllm.worker.base.Worker") in said
    assert (8, "override", "vllm.worker.base.Worker.__init__") in said
    assert (12, "override", "vllm.worker.base.Worker.load_model") in said
    assert (9, "call", "vllm.worker.base.Worker.__init__") in said  # super().__init__
    assert (14, "inherited", "vllm.worker.base.Worker.device") in said
    assert not [u for u in uses.uses if u.name.endswith(".mine")]  # its own attribute
    assert (16, "patch", "vllm.worker.base.Worker.load_model") in said
    assert (17, "patch", "vllm.worker.base.helper") in said
    assert (18, "patch", "vllm.worker.base.helper") in said
    (patched,) = [u for u in uses.uses if u.line == 16]
    assert patched.signature is not None and patched.signature.text == "(self)"


def test_guarded_uses_say_by_what() -> None:
    text = """\
        try:
            from vllm.new import A
        except ImportError:
            from vllm.old import A
        if vllm_version_is("0.18.0"):
            from vllm.x import B
        else:
            from vllm.y import B
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from vllm.z import C
        if hasattr(vllm.z, "D"):
            pass
        from vllm.plain import E
        """
    guards = {u.name: u.guard for u in plugin_uses({"p/g.py": dedent(text)}).uses}
    assert guards["vllm.new.A"] == guards["vllm.old.A"] == "import-error"
    assert guards["vllm.x.B"] == guards["vllm.y.B"] == "version"
    assert guards["vllm.z.C"] == "typing"
    assert guards["vllm.plain.E"] is None


def test_a_plugin_file_that_does_not_parse_is_reported_not_skipped() -> None:
    uses = plugin_uses({"p/ok.py": "import vllm.a\n", "p/bad.py": "def (:\n", "p/x.py": None})
    assert uses.files == 1
    assert [(u.file, u.why.split(":")[0]) for u in uses.unreadable] == [
        ("p/bad.py", "does not parse"),
        ("p/x.py", "could not be read"),
    ]


# -- breaks, each rule -------------------------------------------------------------------------


def test_a_renamed_function_is_caught_with_its_new_name() -> None:
    found = run(
        {"vllm/a.py": "def old_name(x):\n    return x + 1\n"},
        {"vllm/a.py": "def new_name(x):\n    return x + 1\n"},
        {"p.py": "from vllm.a import old_name\nold_name(1)\n"},
    )
    (warning,) = found.warnings
    assert (warning.change.kind, warning.change.now) == ("name-renamed", "vllm.a.new_name")
    assert [u.site for u in warning.sites] == ["p.py:1", "p.py:2"]
    assert found.status == "breaks"


def test_a_removed_parameter_breaks_only_the_calls_that_pass_it() -> None:
    found = run(
        {"vllm/a.py": "def f(a, b=1):\n    pass\n"},
        {"vllm/a.py": "def f(a):\n    pass\n"},
        {"p.py": "from vllm.a import f\nf(1, b=2)\nf(1)\nf(1, 2)\n"},
    )
    assert warned(found) == {("signature", "vllm.a.f"): ["p.py:2", "p.py:4"]}
    (warning,) = found.warnings
    assert warning.change.detail == "removed: b"
    assert warning.change.before is not None and warning.change.before.text == "(a, b=1)"


def test_a_removed_keyword_only_parameter_is_caught() -> None:
    found = run(
        {"vllm/a.py": "def f(a, *, flag=False):\n    pass\n"},
        {"vllm/a.py": "def f(a):\n    pass\n"},
        {"p.py": "import vllm.a\nvllm.a.f(1, flag=True)\nvllm.a.f(1)\n"},
    )
    assert warned(found) == {("signature", "vllm.a.f"): ["p.py:2"]}


def test_a_new_required_parameter_breaks_calls_and_super_calls_that_lack_it() -> None:
    before = "class Runner:\n    def __init__(self, config):\n        self.config = config\n"
    after = "class Runner:\n    def __init__(self, config, device):\n        self.config = config\n"
    plugin = """\
        from vllm.runner import Runner
        Runner(cfg)
        Runner(config=cfg, device=dev)
        class Mine(Runner):
            def __init__(self, cfg):
                super().__init__(cfg)
        """
    found = run({"vllm/runner.py": before}, {"vllm/runner.py": after}, {"p.py": plugin})
    # Line 5 too: the subclass's own __init__ does not take `device` if vLLM builds it.
    assert warned(found) == {
        ("signature", "vllm.runner.Runner.__init__"): ["p.py:2", "p.py:5", "p.py:6"]
    }
    (warning,) = found.warnings
    assert "newly required: device" in warning.change.detail


def test_a_parameter_made_required_or_moved_in_order_is_caught() -> None:
    found = run(
        {"vllm/a.py": "def f(a, b=None):\n    pass\ndef g(x, y):\n    pass\n"},
        {"vllm/a.py": "def f(a, b):\n    pass\ndef g(y, x):\n    pass\n"},
        {"p.py": "from vllm.a import f, g\nf(1)\nf(1, b=2)\ng(1, 2)\ng(x=1, y=2)\n"},
    )
    assert warned(found) == {
        ("signature", "vllm.a.f"): ["p.py:2"],
        ("signature", "vllm.a.g"): ["p.py:4"],
    }


def test_an_override_breaks_when_vllm_must_pass_a_parameter_it_does_not_take() -> None:
    before = "class W:\n    def load_model(self):\n        pass\n"
    after = "class W:\n    def load_model(self, *, dummy):\n        pass\n"
    plugin = """\
        from vllm.w import W
        class A(W):
            def load_model(self):
                pass
        class B(W):
            def load_model(self, **kwargs):
                pass
        """
    found = run({"vllm/w.py": before}, {"vllm/w.py": after}, {"p.py": plugin})
    assert warned(found) == {("signature", "vllm.w.W.load_model"): ["p.py:3"]}
    # With a default, it fails only where vLLM's callers pass it: a possible break.
    optional = run(
        {"vllm/w.py": before},
        {"vllm/w.py": after.replace("dummy", "dummy=False")},
        {"p.py": plugin},
    )
    (warning,) = optional.warnings
    assert (warning.sites, [u.site for u in warning.possible]) == ((), ["p.py:3"])


def test_an_override_of_a_method_vllm_dropped_is_a_possible_break() -> None:
    plugin = "from vllm.w import W\nclass A(W):\n    def old_hook(self):\n        pass\n"
    found = run(
        {"vllm/w.py": "class W:\n    def old_hook(self):\n        pass\n"},
        {"vllm/w.py": "class W:\n    pass\n"},
        {"p.py": plugin},
    )
    (warning,) = found.warnings
    assert warning.change.kind == "member-removed"
    assert (warning.sites, [u.site for u in warning.possible]) == ((), ["p.py:3"])


def test_a_moved_module_is_caught_with_where_it_went() -> None:
    found = run(
        {"vllm/v1/old/utils.py": "X = 1\n", "vllm/v2/utils.py": None},
        {"vllm/v1/old/utils.py": None, "vllm/v2/utils.py": "X = 1\n"},
        {
            "p.py": "import vllm.v1.old.utils\nvllm.v1.old.utils.X\n"
            + "from vllm.v1.old.utils import X\n"
        },
    )
    (warning,) = found.warnings
    assert (warning.change.kind, warning.change.now) == ("module-moved", "vllm.v2.utils")
    assert [u.site for u in warning.sites] == ["p.py:1", "p.py:2", "p.py:3"]


def test_a_removed_base_class_breaks_what_the_plugin_had_through_it() -> None:
    before = """\
        class Mixin:
            def helper(self):
                return 1
        class Base(Mixin):
            def run(self):
                return 2
        """
    after = """\
        class Mixin:
            def helper(self):
                return 1
        class Base:
            def run(self):
                return 2
        """
    plugin = """\
        from vllm.base import Base
        class Mine(Base):
            def go(self):
                return self.helper() + self.run()
        """
    found = run({"vllm/base.py": before}, {"vllm/base.py": after}, {"p.py": plugin})
    (base,) = [w for w in found.warnings if w.change.kind == "base-removed"]
    assert (base.change.name, base.change.now) == ("vllm.base.Base", "vllm.base.Mixin")
    assert [u.site for u in base.sites] == ["p.py:4"]  # self.helper(), not self.run()
    assert warned(found)[("member-removed", "vllm.base.Base.helper")] == ["p.py:4"]


def test_a_removed_class_member_is_caught() -> None:
    found = run(
        {"vllm/c.py": "class C:\n    LIMIT = 3\n    def keep(self):\n        pass\n"},
        {"vllm/c.py": "class C:\n    def keep(self):\n        pass\n"},
        {"p.py": "from vllm.c import C\nC.LIMIT\nC.keep\n"},
    )
    assert warned(found) == {("member-removed", "vllm.c.C.LIMIT"): ["p.py:2"]}


def test_a_re_export_keeps_a_name_alive() -> None:
    """The class moved to another module, and the old one imports it from there."""
    found = run(
        {"vllm/a.py": "class X:\n    pass\n", "vllm/b.py": None},
        {"vllm/a.py": "from vllm.b import X\n", "vllm/b.py": "class X:\n    pass\n"},
        {"p.py": "from vllm.a import X\nX()\n"},
    )
    assert found.warnings == ()
    assert found.status == "no-break"


def test_a_name_a_module_getattr_still_hands_out_is_alive() -> None:
    after = dedent(
        """\
        def __getattr__(name):
            if name == "old":
                return 1
            raise AttributeError
        """
    )
    found = run(
        {"vllm/a.py": "old = 1\n"}, {"vllm/a.py": after}, {"p.py": "from vllm.a import old\n"}
    )
    assert found.status == "no-break"


def test_a_guarded_use_is_warned_of_apart() -> None:
    plugin = """\
        try:
            from vllm.a import gone
        except ImportError:
            gone = None
        """
    found = run({"vllm/a.py": "gone = 1\n"}, {"vllm/a.py": "kept = 1\n"}, {"p.py": plugin})
    (warning,) = found.warnings
    assert (warning.sites, [u.site for u in warning.guarded]) == ((), ["p.py:2"])


# -- what was not read is never "no break" ------------------------------------------------------


def test_an_unreadable_plugin_file_makes_a_clean_answer_incomplete() -> None:
    found = run(
        {"vllm/a.py": "x = 1\n"},
        {"vllm/a.py": "y = 1\n"},
        {"p/ok.py": "import vllm\n", "p/bad.py": "def (:\n"},
    )
    assert found.status == "incomplete"
    assert [u.file for u in found.unread] == ["p/bad.py"]


def test_a_plugin_with_nothing_readable_is_not_evaluated() -> None:
    found = run({"vllm/a.py": "x = 1\n"}, {"vllm/a.py": "y = 1\n"}, {"p/bad.py": "def (:\n"})
    assert found.status == "not-evaluated"
    assert found.reason == "no Python file of the plugin could be read"


def test_an_unreadable_vllm_change_is_not_evaluated() -> None:
    found = run({"vllm/a.py": "x = 1\n"}, {"vllm/a.py": "def (:\n"}, {"p.py": "import vllm.a\n"})
    assert found.status == "not-evaluated"
    assert [u.file for u in found.unread] == ["vllm/a.py"]


def test_a_source_that_could_not_be_had_is_not_evaluated() -> None:
    found = not_evaluated("the plugin's archive could not be downloaded")
    assert (found.status, found.reason, found.warnings) == (
        "not-evaluated",
        "the plugin's archive could not be downloaded",
        (),
    )


def test_a_parameter_renamed_in_its_place_breaks_keyword_calls_only() -> None:
    found = run(
        {"vllm/a.py": "def hasher(block_size, fn):\n    pass\n"},
        {"vllm/a.py": "def hasher(hash_block_size, fn):\n    pass\n"},
        {"p.py": "from vllm.a import hasher\nhasher(16, h)\nhasher(block_size=16, fn=h)\n"},
    )
    assert warned(found) == {("signature", "vllm.a.hasher"): ["p.py:3"]}


def test_a_package_that_still_re_exports_a_moved_class_keeps_it_alive() -> None:
    """The class left the module the package imported it from; the package imports it from
    its new home: the plugin's `from vllm.pkg import X` still works."""
    found = run(
        {
            "vllm/pkg/__init__.py": "from vllm.pkg.layer import X\n",
            "vllm/pkg/layer.py": "class X:\n    pass\n",
            "vllm/pkg/kinds.py": None,
        },
        {
            "vllm/pkg/__init__.py": "from vllm.pkg.kinds import X\n",
            "vllm/pkg/layer.py": "Y = 1\n",
            "vllm/pkg/kinds.py": "class X:\n    pass\n",
        },
        {"p.py": "from vllm.pkg import X\nX.__name__\n"},
    )
    assert found.status == "no-break"
    moved = [
        b
        for b in change_breaks(
            {"vllm/pkg/layer.py": "class X:\n    pass\n", "vllm/pkg/kinds.py": None},
            {"vllm/pkg/layer.py": "Y = 1\n", "vllm/pkg/kinds.py": "class X:\n    pass\n"},
        ).breaks
    ]
    assert [(b.kind, b.name, b.now) for b in moved] == [
        ("name-moved", "vllm.pkg.layer.X", "vllm.pkg.kinds.X")
    ]


def test_a_name_a_module_getattr_no_longer_hands_out_is_gone() -> None:
    """vllm.envs hands out its variables through `__getattr__`: one dropped is gone."""
    before = dedent(
        """\
        variables = {"VLLM_OLD": lambda: 1, "VLLM_KEPT": lambda: 2}
        def __getattr__(name):
            return variables[name]()
        """
    )
    after = before.replace('"VLLM_OLD": lambda: 1, ', "")
    found = run(
        {"vllm/envs.py": before},
        {"vllm/envs.py": after},
        {"p.py": "import vllm.envs as envs\nenvs.VLLM_OLD\nenvs.VLLM_KEPT\n"},
    )
    assert warned(found) == {("name-removed", "vllm.envs.VLLM_OLD"): ["p.py:2"]}


def test_a_deprecation_tables_values_and_submodules_are_not_names_handed_out() -> None:
    """vllm.utils' table maps old names to the submodule they went to: dropping the table
    drops the old names, never the submodule (`vllm.utils.network_utils` is still there)."""
    before = dedent(
        """\
        _MOVED = {"get_open_port": "network_utils"}
        def __getattr__(name):
            return _MOVED[name]
        """
    )
    after = "def __getattr__(name):\n    raise AttributeError(name)\n"
    found = run(
        {"vllm/utils/__init__.py": before, "vllm/utils/network_utils.py": "def f():\n    pass\n"},
        {"vllm/utils/__init__.py": after},
        {"p.py": "from vllm.utils.network_utils import f\nfrom vllm.utils import get_open_port\n"},
    )
    assert warned(found) == {("name-removed", "vllm.utils.get_open_port"): ["p.py:2"]}


def test_a_submodule_is_not_a_removed_name() -> None:
    """The package stopped importing its submodule; `from vllm.pkg import sub` still works."""
    found = run(
        {"vllm/pkg/__init__.py": "from vllm.pkg import sub\n", "vllm/pkg/sub.py": "X = 1\n"},
        {"vllm/pkg/__init__.py": "Y = 1\n"},
        {"p.py": "from vllm.pkg import sub\n"},
    )
    assert found.status == "no-break"


def test_a_deprecation_tables_value_is_not_a_name_handed_out() -> None:
    """Where a deprecated name went is not a name the module hands out: it is not 'gone'."""
    table = 'def __getattr__(name):\n    return _MOVED[name]\n_MOVED = {"old_fn": "%s"}\n'
    found = run(
        {"vllm/u.py": table % "helpers"},
        {"vllm/u.py": table % "tools"},
        {"p.py": "import vllm.u\nvllm.u.old_fn\nvllm.u.helpers\n"},
    )
    assert found.status == "no-break"


def test_a_name_gone_from_a_module_is_gone_from_what_star_imports_it() -> None:
    """vllm.distributed re-exports parallel_state with `*`: a function parallel_state drops
    is gone from vllm.distributed too (vLLM 0.23's get_decode_context_model_parallel_rank)."""
    package = "from .parallel_state import *\n"
    found = run(
        {
            "vllm/distributed/__init__.py": package,
            "vllm/distributed/parallel_state.py": "def get_rank():\n    pass\n" + "keep = 1\n",
        },
        {"vllm/distributed/parallel_state.py": "keep = 1\n"},
        {"p.py": "from vllm.distributed import get_rank, keep\nget_rank()\nkeep()\n"},
    )
    assert warned(found) == {("name-removed", "vllm.distributed.get_rank"): ["p.py:1", "p.py:2"]}
