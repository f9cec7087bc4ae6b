"""Mutation testing of the core logic (not part of CI: it takes many minutes).

    python tools/mutation.py            # mutate, run the fast tests against each mutant, report
    python tools/mutation.py --report   # only print the last run's results

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

# Survivors that behave exactly like the original, with the reason (checked by hand).
EQUIVALENT: dict[str, str] = {}


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
    per_file: dict[str, Counter[str]] = defaultdict(Counter)
    for name, status in statuses.items():
        per_file[name.split(".x")[0] if ".x" in name else name.rsplit(".", 1)[0]][status] += 1
    total = Counter(statuses.values())
    print(f"{'module':40} {'killed':>7} {'survived':>9} {'other':>6} {'score':>7}")
    for module, counts in sorted(per_file.items()):
        killed, survived = counts["killed"] + counts["timeout"], counts["survived"]
        other = sum(counts.values()) - killed - survived
        score = killed / max(1, killed + survived)
        print(f"{module:40} {killed:7} {survived:9} {other:6} {score:7.1%}")
    killed = total["killed"] + total["timeout"]
    survived = [n for n, s in statuses.items() if s == "survived"]
    equivalent = [n for n in survived if n in EQUIVALENT]
    print(
        f"\nall: {killed} killed, {len(survived)} survived ({len(equivalent)} equivalent), "
        f"score {killed / max(1, killed + len(survived)):.1%}, "
        f"excluding equivalent {killed / max(1, killed + len(survived) - len(equivalent)):.1%}"
    )
    for name in survived:
        print(f"\n--- survived: {name}  ({EQUIVALENT.get(name, 'NOT EXPLAINED')})")
        print(run("show", name, check=False).strip())
    if "--json" in sys.argv:
        print(json.dumps(statuses, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
