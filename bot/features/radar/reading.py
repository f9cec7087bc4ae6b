"""The breakage radar's reading: which upstream vLLM changes a plugin PR or issue names,
what each one is to it, and why the PR names upstream at all.

A hardware plugin (vllm-ascend, vllm-gaudi, tpu-inference, vllm-spyre …) titles and
describes its fixes in its own words; this reads them for

- the upstream changes named: `https://github.com/vllm-project/vllm/pull/N` (or
  `/issues/N`, `/commit/<sha>`), `vllm-project/vllm#N`, `vllm#N`, "upstream PR #N",
  "PR22570", "upstream change 25510", "commit <sha>", and a bare `#N` only where it cannot
  be the plugin's own: above the highest number the plugin has given (`own_max`), or, when
  that is not known, in a gaudi `[FIX_FOR_VLLM_*]` PR. Never upstream: a fork's
  `github.com/someone/vllm/pull/N`, another repository's URL or `org/repo#N` (and the same
  number written bare), a number with a leading zero, a number that reads as a date
  ("main2main 0324", "vllm 1230");
- the role of each, from the words around it (the nearest phrase before it in its
  sentence, or the words right after it): `culprit` ("caused by", "broken by", "after",
  "fix for", "reverted in vllm" …, and by default), `upstream-fix` ("fixed in/by/via",
  "has been merged", "already fixed"), `pending` ("once … is merged", "depends on",
  "blocked on", "waiting for"), `ported` ("port", "backport", "cherry-pick", "integrate …
  from"), `related` ("related", "similar to", "see also"), `pin` (the commit an upgrade
  moves to: "bump … to", "aligned with", "as of"), `baseline` (the commit it was tested on:
  vllm-ascend's "vLLM main: …/commit/…" footer, "tested with"), `issue` (an upstream
  `/issues/N` URL: it reports a break, it is not the change that made it);
- the relation: `upgrade` (moves the plugin to a newer upstream: "main2main", "Upgrade
  vLLM to …", "update vllm pin", "add support for vX.Y"; its causes are what it `adapted`
  to), `breakage-fix` (adapts to or works around an upstream change; a revert of the
  plugin's own pin or patch only when it says upstream breaks it: "breaks", "broke the
  hourly CI", "introduced … causing"), or `mention-only` (a port, a backport, a patch
  removed because upstream fixed it, a pending upstream PR, docs, a nomination …, and any
  fix that names upstream only for such reasons).

Only causes count as links, and only causes GitHub confirmed are shown as culprits:
`verify` applies what GitHub says of each (`bot.features.radar.service` asks): a vLLM pull request
(not an issue, not a number GitHub does not know), merged, and merged before the fix; a
commit counts as the pull request that merged it.

Pure: title and body in, refs with roles and a relation out; GitHub's facts in, verdicts
out. `benchmarks/radar_accuracy.py` measures it against the plugin authors' own
attributions in ../shared/fixtures/radar/.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TypeGuard

from bot.features.radar import words as words
from bot.features.radar.model import (
    LONG_BEFORE_DAYS,
    NOT_NAMED,
    UPSTREAM,
    Culprit,
    PluginLink,
    Reading,
    UpstreamRef,
)
from bot.model.report import ActivityItem


@dataclass(frozen=True)
class _Named:
    """One place a text names an upstream change."""

    start: int
    end: int
    ref: UpstreamRef


def upstream_refs(title: str, body: str | None, own_max: int | None = None) -> list[UpstreamRef]:
    """The upstream changes `title` and `body` name, each once, in the order written, each
    with its role from the words around it (the first place it is named decides, but an
    `/issues/N` URL always makes N an issue).

    `own_max`: the highest number the plugin's own repository has given; a number that
    could be the plugin's (at or below it) is read as upstream's only where the text says
    upstream (a URL, `vllm#N`, "upstream PR N")."""
    body = body or ""
    baselines = [m.group(0) for m in words.BASELINE.finditer(body)]
    # A blank line between: the title is a sentence of its own.
    text = f"{title}\n\n{words.BASELINE.sub(' ', body)}"
    tagged = words.GAUDI_FIX_TAG.search(title) is not None
    found: dict[str, UpstreamRef] = {}
    previous = 0
    for named in _places(text, own_max, tagged):
        role = _role(text, named, previous)
        previous = named.end
        held = found.setdefault(named.ref.key, replace(named.ref, role=role))
        if named.ref.kind == "issue":  # GitHub's own URL says issue, whatever else said #N
            found[named.ref.key] = replace(held, kind="issue", role="issue")
    tested_on = {sha.lower() for said in baselines for sha in words.SHA.findall(said)}
    refs = [_as_baseline(ref, tested_on) for ref in found.values()]
    known = {ref.sha for ref in refs if ref.sha}
    refs += [
        UpstreamRef(UPSTREAM, "commit", sha=sha, role="baseline")
        for sha in sorted(tested_on)
        if not any(k.startswith(sha) or sha.startswith(k) for k in known)
    ]
    return refs


def _places(text: str, own_max: int | None, tagged: bool) -> list[_Named]:
    """Every place `text` names an upstream change, in order, overlaps dropped."""
    elsewhere = _elsewhere(text)
    found = sorted(
        [
            *_urls(text),
            *_qualified(text),
            *_said_upstream(text),
            *_commits(text),
            *_maybe_own(text, own_max, tagged, elsewhere),
        ],
        key=lambda named: named.start,
    )
    kept: list[_Named] = []
    for named in found:
        if not kept or named.start >= kept[-1].end:
            kept.append(named)
    return kept


def _number(digits: str) -> int | None:
    """A PR number as written, or None: GitHub's numbers have no leading zero."""
    return None if digits.startswith("0") else int(digits)


def _date_like(digits: str) -> bool:
    """`0324`, `1230`, `250919`: a month and day (after a year), or a year (`2025`), not a
    PR number."""
    if len(digits) not in (4, 6):
        return False
    month, day = int(digits[-4:-2]), int(digits[-2:])
    year = len(digits) == 4 and digits[:2] in ("19", "20")
    return year or (1 <= month <= 12 and 1 <= day <= 31)


def _upstream_repo(repo: str) -> bool:
    """`vllm` or `vllm-project/vllm`, as `org/repo#N` writes it (GitHub ignores case)."""
    return repo.lower() in ("vllm", UPSTREAM)


def _urls(text: str) -> Iterator[_Named]:
    for match in words.URL.finditer(text):
        if match.group("sha"):
            ref = UpstreamRef(UPSTREAM, "commit", sha=match.group("sha").lower())
            yield _Named(match.start(), match.end(), ref)
            continue
        number = _number(match.group("n"))
        if number is not None:
            kind = "pr" if match.group("what").lower() == "pull" else "issue"
            yield _Named(match.start(), match.end(), UpstreamRef(UPSTREAM, kind, number))


def _qualified(text: str) -> Iterator[_Named]:
    for match in words.QUALIFIED.finditer(text):
        number = _number(match.group("n"))
        if _upstream_repo(match.group("repo")) and number is not None:
            yield _Named(match.start(), match.end(), UpstreamRef(UPSTREAM, "pr-or-issue", number))


def _said_upstream(text: str) -> Iterator[_Named]:
    for match in words.SAID_UPSTREAM.finditer(text):
        digits = match.group("n")
        number = _number(digits)
        marked = "#" in match.group("mark") + match.group("hash")
        explicit = marked or (match.group("word") or "").lower() in ("pr", "change")
        if number is None or (not explicit and _date_like(digits)):
            continue  # "vllm main 0324", "vllm 1230": a day, not a PR
        yield _Named(match.start("n"), match.end(), UpstreamRef(UPSTREAM, "pr-or-issue", number))


def _commits(text: str) -> Iterator[_Named]:
    for match in words.COMMIT.finditer(text):
        sha = match.group("sha").lower()
        if any(c.isdigit() for c in sha) and any(c.isalpha() for c in sha):
            yield _Named(match.start("sha"), match.end(), UpstreamRef(UPSTREAM, "commit", sha=sha))


def _elsewhere(text: str) -> set[int]:
    """Numbers the text gives to another repository (its URL or `org/repo#N`)."""
    return {
        int(m.group("n"))
        for m in [*words.OTHER_URL.finditer(text), *words.QUALIFIED.finditer(text)]
        if not _upstream_repo(m.group("repo"))
    }


def _maybe_own(
    text: str, own_max: int | None, tagged: bool, elsewhere: set[int]
) -> Iterator[_Named]:
    """`PR N`, "caused by #N", a bare `#N`: upstream only where it cannot be the plugin's
    own number: above `own_max` when known, else only in a gaudi fix-tagged PR (whose
    numbers are upstream's) or with cause words."""
    for match in words.PLAIN.finditer(text):
        group = "p" if match.group("p") else "c"  # the words before the number stay context
        number = _number(match.group(group))
        if _could_be_upstream(number, own_max, elsewhere, said=True):
            ref = UpstreamRef(UPSTREAM, "pr-or-issue", number)
            yield _Named(match.start(group), match.end(), ref)
    for match in words.BARE.finditer(text):
        number = _number(match.group("n"))
        if _could_be_upstream(number, own_max, elsewhere, said=tagged):
            yield _Named(match.start(), match.end(), UpstreamRef(UPSTREAM, "pr-or-issue", number))


def _could_be_upstream(
    number: int | None, own_max: int | None, elsewhere: set[int], *, said: bool
) -> TypeGuard[int]:
    """Whether a number that may be the plugin's own is read as upstream's: above the
    plugin's highest when that is known, else where the words (`said`) make it upstream."""
    if number is None or number in elsewhere:
        return False
    return number > own_max if own_max is not None else said


def _role(text: str, named: _Named, previous: int) -> str:
    """What the words around a named change make it (see the module docstring)."""
    start = max(previous, named.start - words.BEFORE_CHARS)
    for boundary in words.BOUNDARY.finditer(text, start, named.start):
        start = boundary.end()
    before = text[start : named.start]
    if named.ref.sha is not None and words.PIN_WORDS.search(before):
        return "pin"
    near = _last(words.BEFORE.finditer(before))
    if near is not None and near.lastgroup == "culprit":
        return "culprit"
    after = words.AFTER.match(text[named.end : named.end + words.AFTER_CHARS])
    chosen = after if after is not None else near
    if chosen is None or chosen.lastgroup is None:
        return "culprit"
    return chosen.lastgroup.replace("_", "-")


def _last(matches: Iterator[re.Match[str]]) -> re.Match[str] | None:
    """The last of `matches`: the phrase nearest before a ref."""
    found = None
    for found in matches:  # noqa: B007 - the loop is the walk to the last one
        continue
    return found


def _as_baseline(ref: UpstreamRef, tested_on: set[str]) -> UpstreamRef:
    """A commit that is also the PR's "tested on" footer is where it stands, not a cause."""
    if ref.sha is not None and any(sha.startswith(ref.sha) for sha in tested_on):
        return replace(ref, role="baseline")
    return ref


# -- the relation --------------------------------------------------------------------------


def read(title: str, body: str | None, own_max: int | None = None) -> Reading:
    """What a plugin PR or issue says of upstream: the changes it names, each with its
    role, and why it names them."""
    refs = upstream_refs(title, body, own_max)
    named = any(ref.role not in NOT_NAMED for ref in refs)
    relation = _relation(title, body or "", named)
    if relation == "breakage-fix" and named and not any(ref.cause for ref in refs):
        relation = "mention-only"  # a fix that names upstream, never as its cause
    return Reading(relation, tuple(_in_relation(relation, refs, title)))


def _relation(title: str, body: str, named: bool) -> str:
    if words.REVERT.search(title):  # the plugin takes back its own pin or patch
        if words.ACTIVE_BREAK.search(f"{title}\n{body}"):
            return "breakage-fix"
        return "mention-only" if named else "none"
    upgrade, broke = words.UPGRADE.search(title), words.BREAK_TITLE.search(title)
    # "Upgrade vLLM to … and fix …" is an upgrade; "Fix … , also update vLLM pin" a fix.
    if upgrade is not None and (broke is None or upgrade.start() <= broke.start()):
        return "upgrade"
    if words.NOT_A_BREAK.search(title):
        return "mention-only" if named else "none"
    if broke is not None:
        return "breakage-fix" if named or words.UPSTREAM_WORD.search(title) else "none"
    if not named:
        return "none"
    if words.MENTION.search(title) or not words.BREAK_BODY.search(body):
        return "mention-only"
    return "breakage-fix"


def _in_relation(relation: str, refs: list[UpstreamRef], title: str) -> Iterator[UpstreamRef]:
    """The refs as the relation makes them: an upgrade's causes are what it adapted to (and
    a commit its title names is where it moved to); a mention names no cause."""
    pinned = {sha.lower() for sha in words.SHA.findall(title)} if relation == "upgrade" else set()
    for ref in refs:
        if ref.sha is not None and any(ref.sha.startswith(p) for p in pinned):
            yield replace(ref, role="pin")
        elif ref.cause and relation == "upgrade":
            yield replace(ref, role="adapted")
        elif ref.cause and relation == "mention-only":
            yield replace(ref, role="mentioned")
        else:
            yield ref


def plugin_links(plugin: str, items: Iterable[ActivityItem], own_max: int) -> list[PluginLink]:
    """Every item of `plugin` that names upstream (a pin or a baseline alone is not
    naming it), read: newest first. Nothing is checked with GitHub yet (`verify`)."""
    links = []
    for item in items:
        reading = read(item.title, item.body, own_max)
        named = tuple(ref for ref in reading.upstream if ref.role not in NOT_NAMED)
        if not named:  # (a relation of "none" names nothing)
            continue
        state = "merged" if item.merged_at else item.state
        links.append(
            PluginLink(
                plugin_repo=plugin,
                number=item.number,
                kind=item.kind,
                title=item.title,
                url=item.url,
                author=item.author,
                state=state,
                at=item.merged_at or item.created_at,
                relation=reading.relation,
                upstream=named,
                opened_at=item.created_at,
            )
        )
    return sorted(links, key=lambda link: (link.at, link.number), reverse=True)


# -- what GitHub says: verification ------------------------------------------------------------


def fact_key(ref: UpstreamRef) -> str:
    """What GitHub is asked about: `#N`, or a commit's sha as named."""
    return f"#{ref.number}" if ref.number is not None else str(ref.sha)


def check(
    ref: UpstreamRef,
    fixed_at: datetime,
    facts: Mapping[str, ActivityItem | None],
    opened_at: datetime | None = None,
) -> UpstreamRef:
    """A cause as GitHub has it. `facts`: what GitHub said of each number or commit asked
    about (`#N` → the item, None when GitHub has no such number; a sha → the pull request
    that merged it, None when none did); a key absent was not asked. A commit becomes the
    pull request that merged it. `opened_at`: when the fix was opened (a cause merged
    LONG_BEFORE_DAYS before it is not what broke it)."""
    key = fact_key(ref)
    if key not in facts:
        return replace(ref, verdict="unverified")
    item = facts[key]
    if item is None:
        return replace(ref, verdict="missing" if ref.number is not None else "no-pr")
    if item.kind != "pr":
        verdict = "issue"
    elif item.merged_at is None:
        verdict = "unmerged"
    else:
        verdict = "verified" if item.merged_at <= fixed_at else "after-fix"
        since = opened_at or fixed_at
        if verdict == "verified" and since - item.merged_at > timedelta(days=LONG_BEFORE_DAYS):
            verdict = "long-before"
    return replace(ref, kind=item.kind, number=item.number, verdict=verdict)


def verify(link: PluginLink, facts: Mapping[str, ActivityItem | None]) -> PluginLink:
    """The link with each cause checked (`check`) against the fix's time: its merge, or its
    opening when it is not merged. A commit and the pull request it resolves to are one."""
    found: dict[str, UpstreamRef] = {}
    for ref in link.upstream:
        checked = check(ref, link.at, facts, link.opened_at) if ref.cause else ref
        held = found.get(checked.key)
        if held is None or (checked.confirmed and not held.confirmed):
            found[checked.key] = checked
    return replace(link, upstream=tuple(found.values()))


def culprits(links: Iterable[PluginLink], titles: Mapping[str, str]) -> list[Culprit]:
    """The upstream changes named as causes by breakage fixes and confirmed by GitHub, the
    most plugins first, then the most fixes, then the newest. An upgrade's list is what it
    adapted to, not what broke it, so it counts for nobody's culprits. `titles`: the
    upstream PRs' titles by `#N`."""
    fixes: dict[str, list[PluginLink]] = {}
    refs: dict[str, UpstreamRef] = {}
    for link in links:
        if link.relation != "breakage-fix":
            continue
        for ref in link.confirmed:
            refs.setdefault(ref.key, ref)
            fixes.setdefault(ref.key, []).append(link)
    found = [
        Culprit(refs[key], titles.get(key) or None, tuple(found)) for key, found in fixes.items()
    ]
    return sorted(
        found,
        key=lambda c: (-len(c.plugins), -len(c.fixes), -max(f.at.timestamp() for f in c.fixes)),
    )
