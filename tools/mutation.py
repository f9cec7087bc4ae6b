"""Mutation testing of the core logic (not part of CI: it takes many minutes).

    python tools/mutation.py            # mutate, run the fast tests against each mutant, report
    python tools/mutation.py --report   # only print the last run's results
    python tools/mutation.py --report --dir ../old   # another checkout's run

Mutated (mutmut, configured in pyproject.toml's [tool.mutmut]): report windows
(bot/model/windows.py), the five counts (bot/analyze/counts.py), coverage spans
(bot/store/spans.py), the delivery ledger (bot/store/ledger.py), delivery
(bot/delivery.py), text escaping (formatters/_text.py) and the HTTP replay guard
(bot/adapters/replay.py). Each mutant runs against the tests that reach the mutated
function, on SQLite (`-m "not postgres"`: the PostgreSQL matrix runs in CI). Prints the
score per file and every surviving mutant with its diff; the survivors that are equivalent
(no test could tell them apart) are listed with the reason in EQUIVALENT below.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if "--dir" in sys.argv:  # report on another checkout's run (e.g. the code before a change)
    ROOT = Path(sys.argv[sys.argv.index("--dir") + 1]).resolve()

# Survivors that behave exactly like the original, with the reason (checked by hand): every
# survivor of the last full run is classified, with its reason, in tools/mutation-survivors.md.
EQUIVALENT: dict[str, str] = {}
# A mutant that only changes what a log line says is not a change of behaviour: counted apart.
LOG_LINE = re.compile(r"^-\s*(log|logger)\.(debug|info|warning|error|exception)\(")


def run(*args: str, check: bool = True) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "mutmut", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if check and result.returncode not in (0, 1):
        sys.stderr.write(result.stdout[-4000:] + result.stderr[-4000:])
        raise SystemExit(result.returncode)
    return result.stdout


def results() -> dict[str, str]:
    """mutant name → status (killed, survived, timeout, ...), from `mutmut results --all`."""
    found = {}
    for line in run("results", "--all", "true").splitlines():
        match = re.match(r"\s*([\w.ǁ]+__mutmut_\d+):\s*(\w[\w ]*)", line)
        if match:
            found[match.group(1)] = match.group(2).strip()
    return found


def module_of(name: str) -> str:
    return name.split(".x")[0].split("__mutmut")[0].rsplit(".", 1)[0] if ".x" in name else name


def main() -> int:
    if "--report" not in sys.argv:
        subprocess.run([sys.executable, "-m", "mutmut", "run"], cwd=ROOT, check=False)
    statuses = results()
    if "--guard-only" in sys.argv:  # before the guard had a module: only its class of slack_app
        statuses = {
            n: s
            for n, s in statuses.items()
            if not n.startswith("bot.adapters.slack_app.") or "ReplayGuard" in n
        }
    survivors = {n: run("show", n, check=False) for n, s in statuses.items() if s == "survived"}
    log_only = {
        n for n, diff in survivors.items() if any(LOG_LINE.match(x) for x in diff.splitlines())
    }
    per_file: dict[str, Counter[str]] = defaultdict(Counter)
    for name, status in statuses.items():
        module = name.split(".x")[0] if ".x" in name else name.rsplit(".", 1)[0]
        per_file[module]["log" if name in log_only else status] += 1
    print(
        f"{'module':34} {'killed':>7} {'survived':>9} {'log text':>9} {'untested':>9} {'score':>7}"
    )
    totals: Counter[str] = Counter()
    for module, counts in sorted(per_file.items()):
        killed = counts["killed"] + counts["timeout"]
        survived, log_text, untested = counts["survived"], counts["log"], counts["no tests"]
        totals.update({"killed": killed, "survived": survived, "log": log_text, "none": untested})
        score = killed / max(1, killed + survived + untested)
        print(f"{module:34} {killed:7} {survived:9} {log_text:9} {untested:9} {score:7.1%}")
    killed, survived = totals["killed"], totals["survived"] + totals["none"]
    equivalent = [n for n in survivors if n in EQUIVALENT and n not in log_only]
    print(
        f"\nall: {killed} killed, {survived} survived or untested "
        f"({len(equivalent)} of them equivalent), {totals['log']} change a log line only; "
        f"score {killed / max(1, killed + survived):.1%} "
        f"(counting log-only mutants as survivors: "
        f"{killed / max(1, killed + survived + totals['log']):.1%}; "
        f"equivalent ones left out: {killed / max(1, killed + survived - len(equivalent)):.1%})"
    )
    if "--quiet" not in sys.argv:
        for name, diff in survivors.items():
            if name in log_only:
                continue
            print(f"\n--- survived: {name}  ({EQUIVALENT.get(name, 'NOT EXPLAINED')})")
            print("\n".join(x for x in diff.splitlines() if x[:2] in ("- ", "+ ")))
    if "--json" in sys.argv:
        print(json.dumps(statuses, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
