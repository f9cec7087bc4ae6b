"""`benchmarks/radar_requests.py --warnings` keeps running, and its figures keep the shape the
docs state: a plugin's tarball once per commit, a PR's files once per head, a day read again
costs its searches, its GraphQL heads and each plugin's head alone."""

from __future__ import annotations

from tests.project.test_benchmarks import run_script


def test_the_warnings_benchmark_prints_a_first_a_steady_and_a_repeated_day() -> None:
    result = run_script(
        "benchmarks/radar_requests.py", "--warnings", "--prs", "20", "--touching", "0.5"
    )
    lines = result.stdout.splitlines()
    kinds = lines[1].split()[1:-1]
    rows = {
        line[:20].strip(): dict(zip(kinds, map(int, line[20:].split()[:-1]), strict=True))
        for line in lines[2:]
    }
    assert list(rows) == ["first day", "steady day", "steady day, again"]
    first, steady, again = rows.values()
    for row in rows.values():
        assert row["API"] == sum(row[k] for k in kinds if k not in ("API", "download"))
        assert (row["heads"], row["graphql"], row["search"]) == (6, 1, 1)  # 100 PRs a page
    assert (first["tarball"], first["download"], first["files"]) == (6, 6, 20)
    assert (steady["tarball"], steady["download"], steady["files"]) == (1, 1, 12)
    # 10 PRs change the plugins' modules: 3 files at their shared base, 2 at each head,
    # and the 3 packages above them once at main's head; the next day 10 pushed again.
    assert first["contents"] == 3 + 2 * 10 + 3 and steady["contents"] == 2 * 10
    assert again["API"] == 1 + 1 + 6 + 1 and again["download"] == 0
