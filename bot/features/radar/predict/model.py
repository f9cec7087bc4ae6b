"""The facts of a prediction: what a plugin uses of vLLM, what a vLLM change takes away, and
the warnings where the two meet. Frozen and typed, like the radar's own `model.py`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# How a plugin's line uses a vLLM name.
USE_KINDS = (
    "import",  # `import vllm.x`, `from vllm.x import a as b`
    "attribute",  # `vllm.x.y.z` read off an imported module or name
    "call",  # `vllm.x.f(a, k=1)`, `Cls(...)`, `super().__init__(...)` in a vLLM subclass
    "subclass",  # `class P(vllm.x.Base)`
    "override",  # a method of a vLLM subclass that vLLM's own method of that name had
    "inherited",  # `self.y` in a vLLM subclass that the class itself never sets
    "patch",  # `vllm.x.Y.m = f`, `setattr(vllm.x, "n", v)`, `patch("vllm.x.n")`
)
# Why a use may never run against a vLLM that lacks the name: it is a lower risk.
GUARDS = (
    "import-error",  # inside `try:` whose `except` catches ImportError or AttributeError
    "version",  # under an `if` that tests a version (`vllm_version_is("0.18.0")`)
    "hasattr",  # under `if hasattr(...)`, or `getattr(x, "n", default)`
    "typing",  # under `if TYPE_CHECKING:`: never imported at run time
)
# What a vLLM change takes away.
BREAK_KINDS = (
    "module-removed",  # the module is gone
    "module-moved",  # gone, and a module of the same name appeared elsewhere (`now`)
    "name-removed",  # a module-level name no longer bound (def, class, assignment, import)
    "name-renamed",  # … and a definition with the same body appeared under another name
    "name-moved",  # … and a definition of that name appeared in another module
    "member-removed",  # a class no longer has (or inherits) a method or attribute
    "signature",  # parameters removed, newly required, reordered, `*args`/`**kwargs` gone
    "base-removed",  # a base class is no longer among the class's ancestors
)
PARAM_KINDS = ("positional-only", "positional", "keyword-only", "var-positional", "var-keyword")


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # one of PARAM_KINDS
    default: bool  # has a default: a caller may leave it out


@dataclass(frozen=True)
class Signature:
    """A callable's parameters as written, with the first one (`self`, `cls`) still in."""

    params: tuple[Param, ...]
    text: str  # `(self, x: int, *, y=None)`, as the source writes it
    method: str = "function"  # function, instance, class, static

    def bound(self) -> tuple[Param, ...]:
        """The parameters a caller fills when the callable is reached through an instance or
        its class (`self`/`cls` taken off)."""
        first = self.params[0].kind if self.params else None
        if self.method in ("instance", "class") and first in ("positional-only", "positional"):
            return self.params[1:]
        return self.params


@dataclass(frozen=True)
class Use:
    """One line of a plugin that uses a vLLM name."""

    file: str
    line: int
    kind: str  # one of USE_KINDS
    name: str  # the vLLM name, the plugin's aliases resolved: `vllm.v1.worker.x.Runner.run`
    guard: str | None = None  # one of GUARDS, or None: it runs whatever vLLM is installed
    # A call's arguments (the keyword names, how many positional), and whether it spreads
    # `*args`/`**kwargs` (then which parameters it fills is not known).
    keywords: tuple[str, ...] = ()
    positional: int = 0
    star: bool = False
    # A call through `self` or `super()` passes the instance itself; None: as written.
    bound: bool | None = None
    # An override's (or a patch's replacement's) own parameters, when known.
    signature: Signature | None = None

    @property
    def site(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Unreadable:
    """A file that could not be read or parsed, and why: it was not evaluated."""

    file: str
    why: str


@dataclass(frozen=True)
class PluginUses:
    """What a plugin's source tree uses of vLLM (`uses.plugin_uses`)."""

    uses: tuple[Use, ...]
    files: int  # Python files read
    unreadable: tuple[Unreadable, ...] = ()

    @property
    def modules(self) -> frozenset[str]:
        """Every dotted prefix of every name used: the vLLM modules it may touch are among
        them."""
        found: set[str] = set()
        for use in self.uses:
            parts = use.name.split(".")
            found.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
        return frozenset(found)


@dataclass(frozen=True)
class Break:
    """One thing a vLLM change takes away."""

    kind: str  # one of BREAK_KINDS
    name: str  # the vLLM name that changed: `vllm.x.f`, `vllm.x.Cls.method`, `vllm.x`
    file: str  # the vLLM file it was in, before
    line: int  # its line there (0: the whole module)
    detail: str = ""  # what changed, in the words of a code review: `removed: device`
    now: str | None = None  # where it went: a renamed or moved name, a moved module
    before: Signature | None = None
    after: Signature | None = None
    members: tuple[str, ...] = ()  # base-removed: the members the class had through it


@dataclass(frozen=True)
class Index:
    """How one side of vLLM resolves names: what each module re-exports, each class's bases
    and own members. The join uses the old side's to read a plugin's name as vLLM defines it
    (`vllm.config.VllmConfig` is `vllm.config.vllm.VllmConfig`)."""

    modules: frozenset[str] = frozenset()
    aliases: Mapping[str, str] = field(default_factory=dict)  # `mod.name` → what it imports
    bases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # class → its bases
    members: Mapping[str, frozenset[str]] = field(default_factory=dict)  # class → own members
    signatures: Mapping[str, Signature] = field(default_factory=dict)  # callable → signature


@dataclass(frozen=True)
class ChangeBreaks:
    """What a vLLM change (old and new text of its modules) takes away (`breaks.change_breaks`)."""

    breaks: tuple[Break, ...]
    modules: int  # changed modules compared
    unreadable: tuple[Unreadable, ...] = ()
    before: Index = field(default_factory=Index)


@dataclass(frozen=True)
class BreakWarning:
    """A break that meets a plugin's uses: the change, and each line of the plugin it hits."""

    change: Break
    sites: tuple[Use, ...]  # unguarded: they fail as soon as the change is in
    guarded: tuple[Use, ...] = ()  # behind a version check, `try`/`except ImportError` …
    # What may break but need not fail at once: an override of a method vLLM no longer has
    # (the plugin's code is just never called again), an override lacking a new optional
    # parameter (it fails where vLLM's callers pass it).
    possible: tuple[Use, ...] = ()

    @property
    def count(self) -> int:
        return len(self.sites)


STATUSES = (
    "breaks",  # at least one warning
    "no-break",  # everything was read, and no use meets a break
    "incomplete",  # no warning in what was read, but some files were not: no verdict
    "not-evaluated",  # nothing could be read of the plugin or of the change
)


@dataclass(frozen=True)
class Prediction:
    """Which lines of a plugin a vLLM change breaks (`predict.predict`), or why it could not
    be said. Never "no break" for what was not read."""

    status: str  # one of STATUSES
    warnings: tuple[BreakWarning, ...] = ()
    unread: tuple[Unreadable, ...] = ()  # the plugin's and the change's files not read
    reason: str | None = None  # why it was not evaluated

    @property
    def sites(self) -> int:
        return sum(w.count for w in self.warnings)
