"""How well `bot.features.radar.predict` foretells which plugin lines a vLLM release breaks,
scored on real releases of vLLM, tpu-inference and vllm-ascend. Not part of CI.

    python benchmarks/predict_breaks.py                 # the table
    python benchmarks/predict_breaks.py --misses        # and every miss, false or missed
    python benchmarks/predict_breaks.py --cache DIR     # or VLLM_REPORT_PREDICT_CACHE=DIR

Packages come from the package registry (`pip download --no-deps`) into the cache folder
(default `~/.cache/vllm-report-bot/predict`), never into the repository; they are read
where they lie (a wheel is a zip): only the plugin's `.py` files and the vLLM modules its
uses lead to (through re-exports and base classes) are read.

Which vLLM each plugin release is for:
- tpu-inference: its own metadata pins no vLLM; vLLM's TPU build `vllm-tpu==V` requires
  `tpu-inference==T` (read from each vllm-tpu wheel's `Requires-Dist`), so T is for vLLM V.
- vllm-ascend: each release's source tests `vllm_version_is("V")` for one V, its own
  version (read from the source: the V most often tested).

A pair is a plugin release P0 (for vLLM V0) and its next release P1 (for V1). From V0's and
V1's sources, predict which lines of P0 break (`change_breaks` → `predict`); then look at P1.

- A predicted site is a (file, line, use) of P0 that a warning names, unguarded (guarded
  sites — version checks, `try/except ImportError`, `hasattr`, `TYPE_CHECKING` — are
  counted apart and left out of precision).
- A use's key is its kind and vLLM name, with a call's keywords and positional count, an
  override's signature text. A predicted site is **confirmed** when P1 adapted it: P1's same
  file (or the one file of the same name elsewhere, if the file moved) has fewer unguarded
  uses with that key than P0's file had (the use is gone, changed, or now guarded), or P1
  has no such file at all (counted apart: `gone`). When a file has n such uses and P1 has m,
  n - m of the predicted sites with that key are confirmed.
- **Precision** = confirmed sites / predicted sites.
- **Truth for recall**: the unguarded uses of P0 whose name resolved in V0 and does not in V1
  (an independent walk of V1's modules: bindings, re-exports, submodules, class members
  and bases; a base outside vLLM, or a name a module's `__getattr__` hands out, counts as
  resolving), and that P1 adapted (confirmed as above). **Recall** = such sites predicted /
  such sites. It measures removed names only; a signature break has no independent truth.
- **Churn** = the share of all of P0's unguarded uses that P1 changed by the same test: the
  rate a guess would be confirmed by chance. Precision means something only well above it.
- **Stale** = unconfirmed sites whose name V1 lacks: P1 kept a use that no longer resolves
  (a break the plugin did not fix, or code nothing imports). Counted as false all the same.
- **Maybe** = sites warned of as `possible` (an override of a method vLLM dropped, or
  lacking a new optional parameter), adapted / warned; left out of precision like `guard`.
- **Records**: the plugin's breakage-fix records of tests/data/radar/links-2025.json
  (../shared/fixtures/radar/) merged between P0's and P1's build dates (each wheel's
  METADATA date); their titles are listed with `--misses`. The records end in 2025, the
  releases from 0.18 on are of 2026: only the oldest pairs have any.

No held-out set went into the rules at first; they were changed after the first run where
a false warning or a miss showed a rule wrong in general, never per pair: a name or module
break meets a use as the plugin wrote it (a package that still re-exports a moved class
keeps it alive); a parameter renamed in its place breaks keyword calls only; an override
lacking a new optional parameter, or of a method vLLM dropped, is `possible`, not a site;
a module's `__getattr__` hands out its tables' keys (vllm.envs' variables: a dropped one is
a break), not its tables' values, and a submodule is never a removed name; a name gone from
a module is gone from what star-imports it. The first run also had a bug of this script
(a module read for an earlier pair was not handed over for the next). The figures of these
17 pairs are therefore in-sample; `--held-out` runs three older pairs nothing was looked
at on before the rules were settled.

The figures, with the date, the versions and what the false warnings and misses were:
benchmarks/README.md, "predict_breaks.py".
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import itertools
import json
import os
import re
import subprocess
import sys
import tarfile
import time
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.features.radar.predict import change_breaks, plugin_uses, predict
from bot.features.radar.predict.index import needed, owning_module
from bot.features.radar.predict.model import PluginUses, Use
from bot.features.radar.predict.surface import ModuleSurface, module_name, read_module

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "tests" / "data" / "radar" / "links-2025.json"
DEFAULT_CACHE = Path.home() / ".cache" / "vllm-report-bot" / "predict"
TPU = ["0.18.0", "0.19.0", "0.20.0", "0.21.0", "0.22.1", "0.23.0", "0.24.0", "0.25.0",
       "0.26.0", "0.27.0", "0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0"]  # fmt: skip
VLLM_TPU = ["0.18.0", "0.19.0", "0.20.0", "0.21.0", "0.22.0", "0.23.0", "0.24.0", "0.25.0",
            "0.26.0", "0.27.0", "0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0"]  # fmt: skip
# An sdist's metadata is built before pip saves it (vllm-tpu's installs its build
# requirements first): past this, the release counts as not to be had.
PIP_SECONDS = 180
UNPINNED: set[str] = set()  # tpu-inference releases paired by number, not by a pin
ASCEND = ["0.11.0", "0.13.0", "0.18.0", "0.23.0"]


# -- packages --------------------------------------------------------------------------------


class Archive:
    """A downloaded wheel or sdist, read in place."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.files: dict[str, bytes | None] = {}
        self.date: datetime | None = None
        if path.suffix == ".whl":
            self.zip: zipfile.ZipFile | None = zipfile.ZipFile(path)
            for info in self.zip.infolist():
                self.files[info.filename] = None
                if info.filename.endswith(".dist-info/METADATA"):
                    self.date = datetime(*info.date_time, tzinfo=UTC)
        else:
            self.zip = None
            with tarfile.open(path) as tar:
                for member in tar.getmembers():
                    if member.isfile() and member.name.endswith((".py", "PKG-INFO")):
                        name = member.name.split("/", 1)[1]
                        if name.endswith("PKG-INFO") and name != "PKG-INFO":
                            continue  # the egg-info's copy
                        handle = tar.extractfile(member)
                        self.files[name] = handle.read() if handle else None
                        if name == "PKG-INFO":
                            self.date = datetime.fromtimestamp(member.mtime, tz=UTC)

    def read(self, name: str) -> bytes:
        held = self.files.get(name)
        if held is not None:
            return held
        assert self.zip is not None, name
        return self.zip.read(name)

    def text(self, name: str) -> str | None:
        try:
            return self.read(name).decode("utf-8")
        except UnicodeDecodeError:
            return None

    def metadata(self) -> str:
        name = next(n for n in self.files if n.endswith(("dist-info/METADATA", "PKG-INFO")))
        return self.read(name).decode("utf-8", "replace")


def fetch(cache: Path, package: str, version: str, binary: bool = True) -> Archive:
    stem = package.replace("-", "_")
    found = sorted(cache.glob(f"{stem}-{version}[-.]*"))
    found = [p for p in found if p.suffix == ".whl" or p.name.endswith(".tar.gz")]
    refused = cache / f"{stem}-{version}.unavailable"
    if not found and refused.exists():
        raise subprocess.CalledProcessError(1, ["pip", "download"], refused.read_text())
    if not found:
        command = [sys.executable, "-m", "pip", "download", f"{package}=={version}",
                   "--no-deps", "-d", str(cache), "-q", "--disable-pip-version-check"]  # fmt: skip
        if binary:
            command += ["--only-binary", ":all:"]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=PIP_SECONDS)  # noqa: S603
        except subprocess.TimeoutExpired:
            done = subprocess.CompletedProcess(command, 1, "", f"no answer in {PIP_SECONDS} s")
        if done.returncode:
            refused.write_text(done.stderr[-2000:])  # asked once: the registry said no
            raise subprocess.CalledProcessError(done.returncode, command, done.stderr)
        return fetch(cache, package, version, binary)
    return Archive(found[0])


def plugin_sources(archive: Archive) -> dict[str, str | None]:
    return {
        name: archive.text(name)
        for name in archive.files
        if name.endswith(".py") and ".dist-info/" not in name
    }


class Side:
    """One vLLM release: its modules, read when first needed."""

    def __init__(self, archive: Archive) -> None:
        self.archive = archive
        self.paths = {
            module_name(n): n for n in archive.files if n.startswith("vllm/") and n.endswith(".py")
        }
        self.surfaces: dict[str, ModuleSurface] = {}

    def text(self, module: str) -> str | None:
        path = self.paths.get(module)
        return self.archive.text(path) if path else None

    def load(self, module: str) -> None:
        text = self.text(module)
        if text is not None and module not in self.surfaces:
            with contextlib.suppress(SyntaxError):
                self.surfaces[module] = read_module(self.paths[module], text)


def vllm_sources(names: list[str], old: Side, new: Side) -> tuple[dict[str, str | None], ...]:
    """The old and new text of every module the names lead to, on either side."""
    modules: set[str] = set()
    # Per pair: a module the side read for an earlier pair still counts as reached here.
    reached: tuple[dict[str, ModuleSurface], dict[str, ModuleSurface]] = ({}, {})
    for _ in range(10):
        missing = needed(names, old.paths, reached[0]) | needed(names, new.paths, reached[1])
        missing -= modules
        if not missing:
            break
        for module in missing:
            for side, held in zip((old, new), reached, strict=True):
                side.load(module)
                if module in side.surfaces:
                    held[module] = side.surfaces[module]
        modules |= missing
    before: dict[str, str | None] = {}
    after: dict[str, str | None] = {}
    for module in modules:
        for path in {old.paths.get(module), new.paths.get(module)} - {None}:
            assert path is not None
            before[path] = old.archive.text(path) if path in old.archive.files else None
            after[path] = new.archive.text(path) if path in new.archive.files else None
    return before, after


# -- truth -------------------------------------------------------------------------------------


def resolves(side: Side, name: str, depth: int = 0) -> bool:
    """Whether `name` is there in this vLLM: an independent walk of its modules."""
    if depth > 15:
        return True
    module = owning_module(name, side.paths)
    if module is None:
        return False
    side.load(module)
    surface = side.surfaces.get(module)
    if surface is None:
        return True  # a module that does not parse: not known
    rest = name[len(module) + 1 :].split(".") if name != module else []
    if not rest:
        return True
    head, tail = rest[0], rest[1:]
    kind, _, target = surface.bindings.get(head, ("", 0, None))
    if kind == "import" and target:
        if not target.startswith("vllm"):
            return True
        return resolves(side, ".".join([target, *tail]), depth + 1)
    if kind == "class":
        return not tail or member_resolves(side, f"{module}.{head}", tail, depth)
    if kind in ("def", "assign") or (surface.lazy is not None and head in surface.lazy):
        return True
    if surface.stars:
        return any(resolves(side, ".".join([s, *rest]), depth + 1) for s in surface.stars)
    return False


def member_resolves(side: Side, cls: str, tail: list[str], depth: int) -> bool:
    module, _, local = cls.rpartition(".")
    surface = side.surfaces.get(module)
    info = surface.classes.get(local) if surface else None
    if info is None:
        return True
    if tail[0] in info.own:
        return True
    for base in info.bases:
        if not base.startswith("vllm."):
            return True  # a base outside vLLM (torch, typing …) may give it
        if resolves(side, ".".join([base, *tail]), depth + 1):
            return True
    return False


def key(use: Use) -> tuple[object, ...]:
    extra: tuple[object, ...] = ()
    if use.kind == "call":
        extra = (tuple(sorted(use.keywords)), use.positional, use.star)
    elif use.kind in ("override", "patch") and use.signature is not None:
        extra = (use.signature.text,)
    return (use.kind, use.name, *extra)


@dataclass
class Adapted:
    """Which of P0's uses P1 adapted, file by file."""

    old: PluginUses
    new: PluginUses
    new_files: set[str]
    gone_files: set[str] = field(default_factory=set)
    budget: dict[tuple[str, tuple[object, ...]], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        basenames = collections.Counter(Path(f).name for f in self.new_files)
        by_name = {Path(f).name: f for f in self.new_files}
        new_counts: collections.Counter[tuple[str, tuple[object, ...]]] = collections.Counter(
            (u.file, key(u)) for u in self.new.uses if u.guard is None
        )
        old_counts = collections.Counter((u.file, key(u)) for u in self.old.uses if u.guard is None)
        for (file, k), n in old_counts.items():
            other = file
            if file not in self.new_files:
                name = Path(file).name
                if basenames[name] == 1:
                    other = by_name[name]
                else:
                    self.gone_files.add(file)
                    self.budget[(file, k)] = n
                    continue
            self.budget[(file, k)] = max(0, n - new_counts[(other, k)])

    def take(self, use: Use) -> bool:
        """Whether this site counts as adapted (each change counted once)."""
        slot = (use.file, key(use))
        if self.budget.get(slot, 0) > 0:
            self.budget[slot] -= 1
            return True
        return False

    def changed(self, use: Use) -> bool:
        return self.budget.get((use.file, key(use)), 0) > 0


# -- a pair --------------------------------------------------------------------------------------


@dataclass
class Score:
    plugin: str
    pair: str
    predicted: int = 0
    confirmed: int = 0
    gone: int = 0  # confirmed because P1 has no such file
    guarded: int = 0
    # Unconfirmed sites whose name V1 lacks: P1 kept a use that no longer resolves (a break
    # it did not fix, or code nothing imports); counted as false all the same.
    stale: int = 0
    possible: int = 0  # may break (`BreakWarning.possible`): apart, like the guarded
    possible_adapted: int = 0
    truth: int = 0
    found: int = 0
    churn: float = 0.0
    records: list[str] = field(default_factory=list)
    false: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    kinds: collections.Counter[tuple[str, str, bool]] = field(default_factory=collections.Counter)
    seconds: float = 0.0

    @property
    def precision(self) -> float | None:
        return self.confirmed / self.predicted if self.predicted else None

    @property
    def recall(self) -> float | None:
        return self.found / self.truth if self.truth else None


def score_pair(plugin: str, p0: Archive, p1: Archive, v0: Side, v1: Side, pair: str) -> Score:
    started = time.monotonic()
    old_uses = plugin_uses(plugin_sources(p0))
    new_sources = plugin_sources(p1)
    new_uses = plugin_uses(new_sources)
    before, after = vllm_sources([u.name for u in old_uses.uses], v0, v1)
    found = predict(old_uses, change_breaks(before, after))
    adapted = Adapted(old_uses, new_uses, set(new_sources))
    score = Score(plugin, pair)
    sites: dict[Use, str] = {}
    for warning in found.warnings:
        for use in warning.sites:
            sites.setdefault(
                use, f"{warning.change.kind} {warning.change.name} ({warning.change.detail})"
            )
        score.guarded += len(warning.guarded)
        score.possible += len(warning.possible)
        score.possible_adapted += sum(adapted.changed(u) for u in warning.possible)
    # Whether each site was adapted, settled once (a site named by two warnings counts once).
    confirmed = {use: adapted.changed(use) for use in sites}
    for use, why in sorted(sites.items(), key=lambda x: (x[0].file, x[0].line)):
        score.predicted += 1
        hit = adapted.take(use) if confirmed[use] else False
        kind = why.split(" ", 1)[0]
        score.kinds[(kind, use.kind, hit)] += 1
        if hit:
            score.confirmed += 1
            score.gone += use.file in adapted.gone_files
        else:
            stale = not resolves(v1, use.name)
            score.stale += stale
            mark = " [still broken in P1]" if stale else ""
            score.false.append(f"{use.site} {use.kind} {use.name}: {why}{mark}")
    check = Adapted(old_uses, new_uses, set(new_sources))
    unguarded = [u for u in old_uses.uses if u.guard is None]
    score.churn = sum(check.changed(u) for u in unguarded) / max(1, len(unguarded))
    for use in unguarded:
        if resolves(v0, use.name) and not resolves(v1, use.name) and check.take(use):
            score.truth += 1
            if use in sites:
                score.found += 1
            else:
                score.missed.append(f"{use.site} {use.kind} {use.name}")
    score.seconds = time.monotonic() - started
    return score


def records_between(repo: str, start: datetime | None, end: datetime | None) -> list[str]:
    if start is None or end is None or not RECORDS.exists():
        return []
    out = []
    for record in json.loads(RECORDS.read_text(encoding="utf-8")):
        merged = record.get("plugin_merged_at")
        if record["plugin_repo"] != repo or record["relation"] != "breakage-fix" or not merged:
            continue
        if start < datetime.fromisoformat(merged) <= end:
            out.append(record["plugin_title"])
    return out


def tpu_pairs(cache: Path) -> list[tuple[str, str, str, str]]:
    """(plugin old, plugin new, vLLM old, vLLM new), from vllm-tpu's pins; where the
    registry's vllm-tpu cannot be had (from 0.26.0 its sdist builds its metadata as
    `0.26.0+cpu`, which pip refuses), the vLLM release of the same minor number (what every
    readable pin shows: 0.18 to 0.25, with tpu-inference 0.22.1 for vLLM 0.22.0)."""
    pinned: dict[str, str] = {}
    for v in VLLM_TPU:
        try:
            meta = fetch(cache, "vllm-tpu", v, binary=False).metadata()
        except subprocess.CalledProcessError:
            continue
        pin = re.search(r"^Requires-Dist: tpu-inference==(\S+)", meta, re.M)
        if pin:
            pinned[pin.group(1)] = v
    for t, v in zip(TPU, VLLM_TPU, strict=True):
        if t not in pinned:
            pinned[t] = v
            UNPINNED.add(t)
    return [(old, new, pinned[old], pinned[new]) for old, new in itertools.pairwise(TPU)]


def held_out(cache: Path) -> list[tuple[str, str, str, str, str]]:
    """Older pairs, run once after the rules were settled on the pairs above: tpu-inference
    0.11.1 → 0.12.0 → 0.13.3 (vllm-tpu 0.11.1, 0.12.0 and 0.13.3 pin them; vLLM has no
    0.13.3 release, so vllm-tpu 0.13.3's own `vllm` package is that side) and vllm-ascend
    0.9.1 → 0.11.0 (0.9.1 tests no version; its README ties its v0.9.1-dev branch to vLLM
    0.9.1, and its patches are `patch_0_9_1`)."""
    return [
        ("tpu-inference", "0.11.1", "0.12.0", "0.11.1", "0.12.0"),
        ("tpu-inference", "0.12.0", "0.13.3", "0.12.0", "vllm-tpu:0.13.3"),
        ("vllm-ascend", "0.9.1", "0.11.0", "0.9.1", "0.11.0"),
    ]


def ascend_vllm(archive: Archive) -> str:
    said: collections.Counter[str] = collections.Counter()
    for name, text in plugin_sources(archive).items():
        said.update(re.findall(r'vllm_version_is\("([0-9.]+)"\)', text or ""))
        del name
    return said.most_common(1)[0][0]


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(os.environ.get("VLLM_REPORT_PREDICT_CACHE", DEFAULT_CACHE)),
    )
    parser.add_argument("--misses", action="store_true", help="list every false or missed site")
    parser.add_argument("--only", choices=["tpu-inference", "vllm-ascend"], default=None)
    parser.add_argument("--pairs", type=int, default=None, help="at most this many pairs each")
    parser.add_argument(
        "--held-out", action="store_true", help="the pairs no rule was ever looked at on"
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    args.cache.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    plan: list[tuple[str, str, str, str, str]] = []
    if args.held_out:
        plan = held_out(args.cache)
    elif args.only in (None, "tpu-inference"):
        plan += [("tpu-inference", *p) for p in tpu_pairs(args.cache)][: args.pairs]
    if args.only in (None, "vllm-ascend") and not args.held_out:
        ascend = [(v, ascend_vllm(fetch(args.cache, "vllm-ascend", v, False))) for v in ASCEND]
        plan += [("vllm-ascend", a, b, va, vb) for (a, va), (b, vb) in itertools.pairwise(ascend)][
            : args.pairs
        ]
    scores: list[Score] = []
    sides: dict[str, Side] = {}

    def side(version: str) -> Side:
        if version not in sides:
            while len(sides) >= 2:
                del sides[next(iter(sides))]  # the oldest: pairs go up in order
            package, _, number = version.rpartition(":")  # `vllm-tpu:0.13.3`: vLLM's TPU build
            sides[version] = Side(fetch(args.cache, package or "vllm", number))
        return sides[version]

    for plugin, old, new, v_old, v_new in plan:
        binary = plugin == "tpu-inference"
        p0, p1 = fetch(args.cache, plugin, old, binary), fetch(args.cache, plugin, new, binary)
        mark = "*" if old in UNPINNED or new in UNPINNED else ""
        pair = f"{old}→{new} (vLLM {v_old}→{v_new}){mark}"
        score = score_pair(plugin, p0, p1, side(v_old), side(v_new), pair)
        score.records = records_between(f"vllm-project/{plugin}", p0.date, p1.date)
        scores.append(score)
        print(f"  {plugin} {pair}: {score.seconds:.0f} s", file=sys.stderr)
    print_table(scores, args.misses)
    print(f"\n{len(scores)} pairs in {time.monotonic() - started:.0f} s")
    return 0


def ratio(a: float | None) -> str:
    return "   -" if a is None else f"{a:.2f}"


def print_table(scores: list[Score], misses: bool) -> None:
    widths = {"plugin": -14, "pair": -36, "pred": 5, "conf": 5, "gone": 5, "prec": 6}
    widths |= {"stale": 6}
    widths |= {"truth": 6, "found": 6, "recall": 7, "churn": 6, "guard": 6, "maybe": 8}
    widths |= {"recs": 5}
    head = "".join(f"{n:<{-w}}" if w < 0 else f"{n:>{w}}" for n, w in widths.items())
    print(head)
    print("-" * len(head))
    totals: dict[str, Score] = {}
    for s in scores:
        print(row(s.plugin, s.pair, s))
        total = totals.setdefault(s.plugin, Score(s.plugin, "total"))
        add(total, s)
    everything = Score("all", "total")
    print("-" * len(head))
    for total in totals.values():
        print(row(total.plugin, "total", total))
        add(everything, total)
    print(row("all", "total", everything))
    kinds: collections.Counter[tuple[str, str]] = collections.Counter()
    hits: collections.Counter[tuple[str, str]] = collections.Counter()
    for s in scores:
        for (brk, use, hit), n in s.kinds.items():
            kinds[(brk, use)] += n
            hits[(brk, use)] += n if hit else 0
    print("\nby break kind and use kind: predicted, confirmed")
    for (brk, use), n in kinds.most_common():
        print(f"  {brk:<16}{use:<11}{n:>5}{hits[(brk, use)]:>5}")
    for s in scores:
        if misses:
            print(f"\n{s.plugin} {s.pair}")
            for line in s.false:
                print(f"  false  {line}")
            for line in s.missed:
                print(f"  missed {line}")
            for title in s.records:
                print(f"  record {title}")


def add(total: Score, s: Score) -> None:
    for name in (
        "stale",
        "predicted",
        "confirmed",
        "gone",
        "guarded",
        "possible",
        "possible_adapted",
        "truth",
        "found",
    ):
        setattr(total, name, getattr(total, name) + getattr(s, name))
    total.records += s.records
    n = getattr(total, "_n", 0)
    total.churn = (total.churn * n + s.churn) / (n + 1)
    total._n = n + 1  # type: ignore[attr-defined]


def row(plugin: str, pair: str, s: Score) -> str:
    maybe = f"{s.possible_adapted}/{s.possible}"
    return (
        f"{plugin:<14}{pair:<36}{s.predicted:>5}{s.confirmed:>5}{s.gone:>5}{ratio(s.precision):>6}"
        f"{s.stale:>6}{s.truth:>6}{s.found:>6}{ratio(s.recall):>7}{s.churn:>6.2f}{s.guarded:>6}{maybe:>8}{len(s.records):>5}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
