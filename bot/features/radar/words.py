"""The phrases the breakage radar reads (bot.features.radar.reading): where a plugin PR names
upstream vLLM, and the words around a reference that say what it is to the plugin. Kept
apart from the reading so the vocabulary can grow without the logic around it moving."""

from __future__ import annotations

import re

# -- where upstream is named ---------------------------------------------------------------

# github.com/vllm-project/vllm/pull/N, and the "vllm/pull/N" some titles shorten it to; a
# fork's "someone/vllm/pull/N" is not upstream.
URL = re.compile(
    r"(?:(?:https?://)?(?:www\.)?github\.com/vllm-project/|(?<![\w/.@-])vllm-project/"
    r"|(?<![\w/.@-]))vllm/(?:(?P<what>pull|issues)/(?P<n>\d+)|commit/(?P<sha>[0-9a-f]{7,40}))"
    r"(?![\w-])",
    re.I,
)
# Another repository's URL: its number is that repository's, however else it is written.
OTHER_URL = re.compile(r"github\.com/(?P<repo>[\w.-]+/[\w.-]+)/(?:pull|issues)/(?P<n>\d+)", re.I)
QUALIFIED = re.compile(r"(?<![\w/.-])(?P<repo>[\w.-]+/[\w.-]+|vllm)#(?P<n>\d{2,6})\b", re.I)
# "upstream #N", "vllm PR 22570", "upstream change 25510": upstream said in words.
SAID_UPSTREAM = re.compile(
    r"(?<![\w/-])(?:upstream|vllm)(?:'s)?\s+(?:main\s+)?(?:(?P<word>pr|change|commit|update)\s*)?"
    r"(?P<mark>[#:]?)\s*(?P<hash>#?)(?P<n>\d{4,6})\b",
    re.I,
)
# "PR 22570", "PR#25896", "caused by #20059": a PR, but maybe the plugin's own.
PLAIN = re.compile(
    r"\bPR[\s#:-]*(?P<p>\d{4,6})\b"
    r"|(?:caused by|broken by|brought by|introduced by|culprit(?: commit| pr)?:?|due to|after"
    r"|from|because of|following|fix(?:es)? for)\s+(?:upstream\s+)?(?:vllm\s+)?(?:pr\s*)?"
    r"#(?P<c>\d{4,6})\b",
    re.I,
)
BARE = re.compile(r"(?<![\w/#&-])#(?P<n>\d{4,6})\b")
# A commit named without a URL: "commit 3e04107", "vllm@3e04107d9".
COMMIT = re.compile(r"(?:\bcommit\s*:?\s*|\bvllm@)(?P<sha>[0-9a-f]{7,40})\b", re.I)
# "- vLLM version: v0.9.2 - vLLM main: https://github.com/vllm-project/vllm/commit/<sha>":
# what the PR was tested on (vllm-ascend's template), on its own line or run together.
BASELINE = re.compile(
    r"vLLM (?:main|version)\s*:\s*(?:https?://github\.com/vllm-project/vllm/(?:commit|tree)/)?"
    r"[\w.+-]+",
    re.I,
)
GAUDI_FIX_TAG = re.compile(r"\[FIX_FOR_VLLM_(?:LATEST|CUSTOM[^\]]*)\]", re.I)
SHA = re.compile(r"\b[0-9a-f]{7,40}\b")

# -- what a named change is to the plugin: the words around it -----------------------------

# Where a sentence (and so the words that belong to a ref) starts: a blank line, a list
# item, the end of a sentence.
BOUNDARY = re.compile(r"\n\s*\n|\n\s*(?:[-*•>]|\d+[.)、])\s|[.;!?](?=\s)")
BEFORE_CHARS = 160  # at most this much of its sentence before a ref is read
AFTER_CHARS = 60
# The phrase nearest before a ref decides, unless the words right after it say more.
BEFORE = re.compile(
    r"(?P<upstream_fix>fixed (?:in|by|via|with)|(?:has|have|had) been (?:fixed|resolved)"
    r"|resolved (?:in|by)|already (?:fixed|merged|landed)|upstream merged|merged upstream)"
    r"|(?P<pending>\bonce\b|\bdepends? on|\bdependent on|\bdependency on|requirement on"
    r"|blocked (?:on|by)|\bwait(?:s|ing)? (?:for|on)|\bpending\b|\buntil\b)"
    r"|(?P<ported>\bport(?:s|ed|ing)?\b|\bback-?port\w*|cherry[- ]?pick\w*|copied from"
    r"|\bintegrat\w+\b[^\n]{0,60}?\bfrom\b|applying of)"
    r"|(?P<related>\brelated\b|similar to|see also|same as|inspired by|\bcompare\b|\[?\bref\b)"
    r"|(?P<baseline>\btest(?:ed|ing)? (?:[\w.`-]+ ){0,6}?(?:with|on|against)\b)"
    r"|(?P<culprit>caused by|introduced (?:by|in)|brought by|broken by|\bbroke\b|\bbreaks?\b"
    r"|due to|because of|\bafter\b|culprit|reverted (?:in|by)|changed (?:by|in)|\bfix(?:es)?\b"
    r"|\badapt\w*|\bfollow\w*|workaround (?:of|for))",
    re.I,
)
AFTER = re.compile(
    r"\S{0,12}?\W{0,3}(?:"
    r"(?P<upstream_fix>(?:has|have|had|got|was|were|is|are)\s+(?:been\s+|already\s+)?"
    r"(?:merged|fixed|resolved|landed)\b)"
    r"|(?P<pending>(?:is|gets?|will be|are)\s+(?:implemented|merged|landed|released)\b"
    r"|(?:is\s+)?(?:still\s+)?(?:pending|not (?:yet )?merged)\b)"
    r"|(?P<culprit>(?:breaks|broke|has broken|introduced|introduces|caused|causes|is causing)\b)"
    r")",
    re.I,
)
# A commit the words put the plugin on: where an upgrade moves to, what a refactor aligns with.
PIN_WORDS = re.compile(
    r"(?:\bto|\bas of|\baligned? with|\bbump(?:ed|s)?|\bupgrade[sd]?|\bpin(?:ned|s)?)"
    r"(?:\W+(?:new|newest|latest|the|vllm|main|upstream|commit|hash|id|sha|version))*\W*$",
    re.I,
)

# -- why upstream is named: the relation -----------------------------------------------------

UPGRADE = re.compile(
    r"main2main|\bupgrade\b.*\bvllm\b|\bvllm\b.*\b(?:upgrade|bump)\b|\bbump\b.*\bvllm\b"
    r"|\bupdate\b.*\bvllm\b.*\b(?:pin|version|commit|hash|to)\b|\bvllm pin\b"
    r"|\brebase\b.*\bvllm\b|\bpin vllm\b|\bvllm updates\b|\bupgrade to\b.*\bvllm"
    r"|compatib\w* with upstream|\badd(?:s|ed|ing)? support for (?:vllm )?v?\d+\.\d+",
    re.I,
)
# Words of a title that say the plugin had to change because upstream did.
BREAK_TITLE = re.compile(
    r"(?:\b|bug|hot|quick)fix|\bbroke|\bbreak|\bfail(?:s|ed|ing)? after\b|\bintroduced\b"
    r"|\balign\b|\badapt|\baccommodate|\bafter (?:upstream|change|pr|vllm)|\bcaused\b"
    r"|\bdue to\b|\bbring back\b|\brecover|\bcatch ?up\b|\bfollow\b|\bFIX_FOR_VLLM|\bcompatib"
    r"|\bchanged\b|\bsync\b.*\bchange|\bworkaround\b|\bTEMP-WA\b",
    re.I,
)
# A revert of the plugin's own change (its pin, a patch): breakage only with these words.
REVERT = re.compile(r"^\W*revert\b", re.I)
ACTIVE_BREAK = re.compile(
    r"\bbreaks\b|\bbroke\b|\bbroken by\b|\bintroduced\b[^.]{0,80}\bcausing\b"
    r"|\bcaus(?:es|ing)\b[^.]{0,40}\b(?:fail\w*|error|crash\w*|break\w*|regression)",
    re.I,
)
# Words of a title that say upstream is named for another reason.
MENTION = re.compile(
    r"\brevert\b|\bremove\b.*\bpatch\b|\bcleanup\b.*\bpatch\b|\bpatch\b.*\b(?:remove|cleanup)"
    r"|has been fixed in vllm|fixed (?:in|by) upstream|\buseless patch\b|\bport(?:s|ed|ing)?\b"
    r"|\bbackport\b|\bapplying of\b|\bnominat|\bmaintainers?\b|\bdocs?\b|\bmkdocs\b"
    r"|\bintegrate upstream\b|\bintree\b|\bin-tree\b|\brestore support\b|\btests?\b",
    re.I,
)
# In the description: the plugin adapted to, or worked around, an upstream change.
BREAK_BODY = re.compile(
    r"\bbreak|\bbroke|\bculprit|\bcrash|\bdue to\b|\badapt|\baccommodate|\bcompat|incompatib"
    r"|\bafter\b.*\bupstream|\bupstream change|\bchanges? in vllm\b|\bbecause of\b"
    r"|\bintroduced by\b|\bcaus(?:e|es|ed|ing)\b|\bfollow(?:s|ing)? (?:the )?(?:vllm|upstream)"
    r"|\bfollow[- ]?up\b",
    re.I,
)
# A title that says upstream is named because it fixed or gave something: never a break.
NOT_A_BREAK = re.compile(
    r"has been fixed in vllm|fixed (?:in|by) upstream|already fixed|\b(?:remove|cleanup)\b.*"
    r"\bpatch\b|\bbackport\b|\bported\b|\bports?\b|\bblocked on\b",
    re.I,
)
UPSTREAM_WORD = re.compile(r"\bupstream\b|\bvllm\b", re.I)
