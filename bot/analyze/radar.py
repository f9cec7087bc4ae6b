"""The breakage radar's reading: which upstream vLLM changes a plugin PR or issue names,
and why it names them.

A hardware plugin (vllm-ascend, vllm-gaudi, tpu-inference, vllm-spyre …) titles and
describes its fixes in its own words; this reads them for

- the upstream changes named: `https://github.com/vllm-project/vllm/pull/N` (or
  `/issues/N`, `/commit/<sha>`), `vllm-project/vllm#N`, `vllm#N`, "upstream PR #N",
  "PR22570", "upstream change 25510", and a bare `#N` only where the words around it say
  upstream (a gaudi `[FIX_FOR_VLLM_LATEST]` title, "caused by", "after vllm #N" …): a bare
  `#N` is otherwise the plugin's own number, and `numba#N` another project's;
- not a cause: the commit a PR was tested against (vllm-ascend's "vLLM main: …/commit/…"
  footer, gaudi's `[FIX_FOR_VLLM_CUSTOM=<sha>]` tag);
- the relation: `upgrade` (moves the plugin to a newer upstream: "main2main", "Upgrade
  vLLM to …", "update vllm pin"), `breakage-fix` (adapts to or works around an upstream
  change), or `mention-only` (a port, a backport, a patch removed because upstream fixed
  it, docs, a maintainer nomination …).

Pure: title and body in, refs and a relation out. `benchmarks/radar_accuracy.py` measures
it against the plugin authors' own attributions in ../shared/fixtures/radar/.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.model.radar import UPSTREAM, Culprit, PluginLink, Reading, UpstreamRef
from bot.model.report import ActivityItem

# github.com/vllm-project/vllm/pull/N, and the "vllm/pull/N" some titles shorten it to.
_URL = re.compile(r"(?<![\w-])vllm/(?P<what>pull|issues|commit)/(?P<id>[0-9a-f]{7,40}|\d+)", re.I)
_QUALIFIED = re.compile(r"(?<![\w/-])(?P<repo>[\w.-]+/[\w.-]+|vllm)#(?P<n>\d{2,6})\b", re.I)
_CONTEXT_NUMBER = re.compile(
    r"(?:upstream|vllm|vLLM)(?:'s)?\s+(?:main\s+)?(?:pr|change|commit|update)?\s*[#:]?\s*#?(?P<n>\d{4,6})\b"
    r"|\bPR\s*#?(?P<p>\d{4,6})\b"
    r"|(?:caused by|broken by|culprit(?: commit| pr)?:?|due to|after|from|because of|following)"
    r"\s+(?:upstream\s+)?(?:vllm\s+)?(?:pr\s*)?#(?P<c>\d{4,6})\b",
    re.I,
)
_BARE = re.compile(r"(?<![\w/#-])#(?P<n>\d{4,6})\b")
# "- vLLM version: v0.9.2 - vLLM main: https://github.com/vllm-project/vllm/commit/<sha>":
# what the PR was tested on (vllm-ascend's template), on its own line or run together.
_BASELINE = re.compile(
    r"vLLM (?:main|version)\s*:\s*(?:https?://github\.com/vllm-project/vllm/(?:commit|tree)/)?"
    r"[\w.+-]+",
    re.I,
)
_GAUDI_FIX_TAG = re.compile(r"\[FIX_FOR_VLLM_(?:LATEST|CUSTOM[^\]]*)\]", re.I)

_UPGRADE = re.compile(
    r"main2main|\bupgrade\b.*\bvllm\b|\bvllm\b.*\b(?:upgrade|bump)\b|\bbump\b.*\bvllm\b"
    r"|\bupdate\b.*\bvllm\b.*\b(?:pin|version|commit|hash|to)\b|\bvllm pin\b"
    r"|\brebase\b.*\bvllm\b|\bpin vllm\b|\bvllm updates\b|\bupgrade to\b.*\bvllm"
    r"|compatib\w* with upstream",
    re.I,
)
# Words of a title that say the plugin had to change because upstream did.
_BREAK_TITLE = re.compile(
    r"\bfix|\bbroke|\bbreak|\bfail(?:s|ed|ing)? after\b|\bintroduced\b|\balign\b|\badapt"
    r"|\baccommodate|\bafter (?:upstream|change|pr|vllm)|\bcaused\b|\bdue to\b|\bbring back\b"
    r"|\brecover|\bcatch ?up\b|\bfollow\b|\bFIX_FOR_VLLM|\bcompatib|\bchanged\b|\bsync\b.*\bchange"
    r"|\bworkaround\b|\bTEMP-WA\b",
    re.I,
)
# Words that say upstream is named for another reason.
_MENTION = re.compile(
    r"\brevert\b|\bremove\b.*\bpatch\b|\bcleanup\b.*\bpatch\b|\bpatch\b.*\b(?:remove|cleanup)"
    r"|has been fixed in vllm|fixed (?:in|by) upstream|\buseless patch\b|\bport(?:ed|ing)?\b"
    r"|\bbackport\b|\bapplying of\b|\bnominat|\bmaintainers?\b|\bdocs?\b|\bmkdocs\b"
    r"|\bintegrate upstream\b|\bintree\b|\bin-tree\b|\brestore support\b|\btests?\b",
    re.I,
)
# In the description: the plugin adapted to, or worked around, an upstream change.
_BREAK_BODY = re.compile(
    r"\bbreak|\bbroke|\bculprit|\bcrash|\bdue to\b|\badapt|\baccommodate|\bcompat"
    r"|\bafter\b.*\bupstream|\bupstream change|\bchanges? in vllm\b|\bbecause of\b"
    r"|\bintroduced by\b|\bcaused by\b|\bfollow(?:s|ing)? (?:the )?(?:vllm|upstream)",
    re.I,
)
# Named because upstream fixed something (a patch goes away) or was copied: never a break.
_NOT_A_BREAK = re.compile(
    r"^revert\b|has been fixed in vllm|fixed (?:in|by) upstream|\b(?:remove|cleanup)\b.*\bpatch\b"
    r"|\bbackport\b|\bported\b",
    re.I,
)
_UPSTREAM_WORD = re.compile(r"\bupstream\b|\bvllm\b", re.I)
_SHA_IN_TITLE = re.compile(r"\b[0-9a-f]{7,12}\b")


def upstream_refs(title: str, body: str | None, own_max: int | None = None) -> list[UpstreamRef]:
    """The upstream changes `title` and `body` name, each once, in the order written.

    `own_max`: the highest number the plugin's own repository has given; a bare `#N` above
    it cannot be the plugin's and is read as upstream's."""
    text = f"{title}\n{_BASELINE.sub(' ', body or '')}"
    found: dict[str, UpstreamRef] = {}
    for match in _URL.finditer(text):
        what, ident = match.group("what").lower(), match.group("id")
        if what == "commit":
            ref = UpstreamRef(UPSTREAM, "commit", sha=ident.lower())
        else:
            ref = UpstreamRef(UPSTREAM, "pr" if what == "pull" else "issue", int(ident))
        found.setdefault(ref.key, ref)
    for match in _QUALIFIED.finditer(text):
        repo = match.group("repo").lower()
        if repo in ("vllm", UPSTREAM):
            ref = UpstreamRef(UPSTREAM, "pr-or-issue", int(match.group("n")))
            found.setdefault(ref.key, ref)
    for match in _CONTEXT_NUMBER.finditer(text):
        number = int(next(g for g in match.groups() if g))
        ref = UpstreamRef(UPSTREAM, "pr-or-issue", number)
        found.setdefault(ref.key, ref)
    tagged = _GAUDI_FIX_TAG.search(title) is not None  # its bare numbers are upstream's
    for match in _BARE.finditer(text):
        number = int(match.group("n"))
        in_title = match.start() < len(title)
        if (tagged and in_title) or (own_max is not None and number > own_max):
            ref = UpstreamRef(UPSTREAM, "pr-or-issue", number)
            found.setdefault(ref.key, ref)
    return list(found.values())


def read(title: str, body: str | None, own_max: int | None = None) -> Reading:
    """What a plugin PR or issue says of upstream: the changes it names and why."""
    refs = tuple(upstream_refs(title, body, own_max))
    upgrade, broke = _UPGRADE.search(title), _BREAK_TITLE.search(title)
    # "Upgrade vLLM to … and fix …" is an upgrade; "Fix … , also update vLLM pin" a fix.
    if upgrade is not None and (broke is None or upgrade.start() <= broke.start()):
        # The commit an upgrade's title names is where it moved to (the pin), not a cause.
        pinned = {sha.lower() for sha in _SHA_IN_TITLE.findall(title)}
        kept = tuple(
            r for r in refs if r.sha is None or not any(r.sha.startswith(p) for p in pinned)
        )
        return Reading("upgrade", kept)
    if _NOT_A_BREAK.search(title):
        return Reading("mention-only", refs) if refs else Reading("none", ())
    if broke is not None:
        if refs or _UPSTREAM_WORD.search(title):
            return Reading("breakage-fix", refs)
        return Reading("none", ())
    if not refs:
        return Reading("none", ())
    if _MENTION.search(title) or not _BREAK_BODY.search(body or ""):
        return Reading("mention-only", refs)
    return Reading("breakage-fix", refs)


def plugin_links(plugin: str, items: Iterable[ActivityItem], own_max: int) -> list[PluginLink]:
    """Every item of `plugin` that names upstream, read: newest first."""
    links = []
    for item in items:
        reading = read(item.title, item.body, own_max)
        if reading.relation == "none" or not reading.upstream:
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
                upstream=reading.upstream,
            )
        )
    return sorted(links, key=lambda link: (link.at, link.number), reverse=True)


def culprits(links: Iterable[PluginLink], titles: dict[int, str]) -> list[Culprit]:
    """The upstream changes named as causes by breakage fixes, the most plugins first,
    then the most fixes, then the newest. An upgrade's list is what it adapted to, not
    what broke it, so it counts for nobody's culprits."""
    fixes: dict[str, list[PluginLink]] = {}
    refs: dict[str, UpstreamRef] = {}
    for link in links:
        if link.relation != "breakage-fix":
            continue
        for ref in link.upstream:
            if ref.kind == "issue":
                continue  # an issue reports a break; it is not the change that made it
            refs.setdefault(ref.key, ref)
            fixes.setdefault(ref.key, []).append(link)
    found = [
        Culprit(refs[key], titles.get(refs[key].number or 0), tuple(found))
        for key, found in fixes.items()
    ]
    return sorted(
        found,
        key=lambda c: (-len(c.plugins), -len(c.fixes), -max(f.at.timestamp() for f in c.fixes)),
    )
