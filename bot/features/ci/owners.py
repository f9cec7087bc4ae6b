"""Who to ask about a failing test: the owners its path has in vLLM's `.github/CODEOWNERS`
(gitignore-style patterns, the last matching line wins, as GitHub reads the file)."""

from __future__ import annotations

import pathspec


def owners_of(codeowners: str, path: str) -> tuple[str, ...]:
    """The owners (`@login`, `@org/team`) of `path`; () when no line matches or the
    matching line names none."""
    found: tuple[str, ...] = ()
    for raw in codeowners.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        pattern, *owners = line.split()
        try:
            spec = pathspec.GitIgnoreSpec.from_lines([pattern])
        except ValueError:  # a line GitHub would also skip
            continue
        if spec.match_file(path):
            found = tuple(o for o in owners if o.startswith("@"))
    return found
