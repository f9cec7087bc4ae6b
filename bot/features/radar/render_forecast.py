"""The radar's warnings drawn: one line per warning, what was not evaluated, the grades; as
the Plugins section's "Will break" block (every renderer), `vllm-report radar --predict`'s
Markdown and `/vllm-radar predict`'s one message.

A warning reads as a code review would say it: "⚠ vllm#41234 (open, approved) removes
`RoutedExpertsReader`, used at 2 places in tpu-inference (`tpu_inference/core/sched/
utils.py:18`, `tpu_inference/core/sched/utils.py:37`)": the PR and how far it has come, the
change said plainly, how many of the plugin's lines fail when it lands and the first
SITES of them; lines behind a version check or an import guard are counted apart. Names
and paths are strangers' text (cleaned and escaped by each renderer), in code spans.
"""

from __future__ import annotations

from typing import Any

from bot.features.radar.forecast import Forecast, Graded, NotEvaluated, Warned
from bot.features.radar.model import UPSTREAM
from bot.features.radar.phrases import RADAR_TEXT, said, unread_reason, window_label
from bot.features.radar.predict.surface import module_name
from bot.features.radar.render import short
from bot.model import outline_parts as ol
from bot.platforms.registry import Platform
from formatters._text import item_url
from formatters.markdown import line as markdown_line

SHOWN = 5  # warnings in the daily report's section and its chat reply, the most sites first
SITES = 3  # a warning's sites shown, then "…"
NAME_CHARS = 90  # a name or a signature in a code span
# A signature change is said as `f(a, b)` → `f(a, *, b)` when the longer side fits this
# many characters with its name, else by what changes in it (the first SIGNATURE_CHANGES).
SIGNATURE_CHARS = 70
SIGNATURE_CHANGES = 3
NOT_EVALUATED_SHOWN = 5  # reasons in the not-evaluated line, then "; N more"
EVENT_TYPE = "vllm_radar_predict"


def warning_line(warned: Warned, lang: str) -> ol.Line:
    """`⚠ vllm#N (open, approved) removes `f`, used at 16 places in vllm-ascend (`a:1`, …)`."""
    words = RADAR_TEXT[lang]
    stage = said(lang, "warn_stage", stage=words.get(f"warn_stage_{warned.stage}", warned.stage))
    parts: list[ol.Part] = [
        ol.Our("⚠ "),
        ol.Ref(warned.number, item_url(UPSTREAM, "pr", warned.number), "vllm"),
        ol.Our(stage),
    ]
    parts += _change(warned, lang)
    sites = [ol.Theirs(f"`{site.text}`", NAME_CHARS) for site in warned.sites[:SITES]]
    listed: list[ol.Part] = []
    for index, site in enumerate(sites):
        if index:
            listed.append(ol.Our(words["warn_site_sep"]))
        listed.append(site)
    if warned.count > SITES:
        listed.append(ol.Our(words["warn_more_sites"]))
    key = "warn_used_one" if warned.count == 1 else "warn_used"
    parts += _filled(
        said(lang, key, n=warned.count, plugin=short(warned.plugin_repo), sites="\0"), listed
    )
    if warned.guarded:
        parts.append(ol.Our(said(lang, "warn_guarded", n=len(warned.guarded))))
    if warned.possible:
        parts.append(ol.Our(said(lang, "warn_possible", n=len(warned.possible))))
    return tuple(parts)


def _change(warned: Warned, lang: str) -> list[ol.Part]:
    """What the change takes away, in the radar's words, names in code spans."""
    module = module_name(warned.file) if warned.file else ""
    name = _local(warned.name, module)
    now = warned.now or ""
    if warned.kind in ("module-removed", "module-moved"):
        name = warned.name
    elif warned.kind == "name-renamed":
        now = _local(now, module)
    elif warned.kind == "base-removed":
        now = now.rsplit(".", 1)[-1]
    key = f"warn_{warned.kind}"
    before, after = warned.before or "", warned.after or ""
    if warned.kind == "signature" and len(name) + max(len(before), len(after)) > SIGNATURE_CHARS:
        # A long signature said by what changes in it (both whole would not fit a line).
        key = "warn_signature_changes"
        before = _signature_changes(warned.detail, lang)
    if key not in RADAR_TEXT[lang]:  # a kind the analysis learnt later: said as it says
        return [ol.Theirs(f"{warned.kind} `{warned.name}`", NAME_CHARS)]
    values: dict[str, ol.Part] = {
        "name": ol.Theirs(name, NAME_CHARS),
        "now": ol.Theirs(now, NAME_CHARS),
        "before": ol.Theirs(before, NAME_CHARS),
        "after": ol.Theirs(after, NAME_CHARS),
        "changes": ol.Theirs(before, 2 * NAME_CHARS),  # vLLM's parameter names
    }
    text = RADAR_TEXT[lang][key]
    out: list[ol.Part] = []
    rest = text
    while "{" in rest:
        head, _, tail = rest.partition("{")
        field, _, rest = tail.partition("}")
        if head:
            out.append(ol.Our(head))
        out.append(values[field])
    if rest:
        out.append(ol.Our(rest))
    return out


# What a signature change does, as `bot.features.radar.predict.signatures.changes` says it
# ("removed: reduce_results"): the radar's words for each, in code spans.
_SIGNATURE_SAID = (
    ("removed: ", "sig_removed"),
    ("made required: ", "sig_required"),
    ("keyword-only now: ", "sig_keyword"),
    ("newly required: ", "sig_new_required"),
    ("added: ", "sig_added"),
)


def _signature_changes(detail: str, lang: str) -> str:
    """`removed: a; added: b; positional order changed` → "drops `a`, adds `b`, reorders the
    positional parameters" (at most SIGNATURE_CHANGES, then "…")."""
    words = RADAR_TEXT[lang]
    told = []
    # What breaks a caller first: a parameter gone or now required before one added.
    parts = sorted(
        (p.strip() for p in detail.split(";") if p.strip()), key=lambda p: p.startswith("added: ")
    )
    for part in parts:
        key = next((k for prefix, k in _SIGNATURE_SAID if part.startswith(prefix)), None)
        if key is not None:
            name = part.split(": ", 1)[1]
            told.append(said(lang, key, name=name))
        elif part == "positional order changed":
            told.append(words["sig_order"])
        elif part.endswith(" removed") and part.startswith("*"):
            told.append(said(lang, "sig_removed", name=part.removesuffix(" removed")))
        else:
            told.append(part)
    shown = words["warn_site_sep"].join(told[:SIGNATURE_CHANGES])
    return shown + (words["warn_more_sites"] if len(told) > SIGNATURE_CHANGES else "")


def _local(name: str, module: str) -> str:
    """A name as its module's reader says it: `Cls.method`, `function` (a module's own
    name: whole)."""
    if module and name.startswith(module + "."):
        return name[len(module) + 1 :]
    return name.rsplit(".", 1)[-1] if "." in name else name


def _filled(text: str, parts: list[ol.Part]) -> list[ol.Part]:
    """`text` with the parts where its `\\0` stands."""
    head, _, tail = text.partition("\0")
    return [ol.Our(head), *parts, *([ol.Our(tail)] if tail else [])]


def not_evaluated_text(forecast: Forecast, lang: str) -> str | None:
    """What could not be evaluated, in one line: the upstream PRs (each with why, said
    short) and the plugins whose source could not be read."""
    if not forecast.not_evaluated:
        return None
    words = RADAR_TEXT[lang]
    prs = [n for n in forecast.not_evaluated if n.number is not None]
    plugins = [n for n in forecast.not_evaluated if n.number is None and n.plugin_repo]
    whole = [n for n in forecast.not_evaluated if n.number is None and not n.plugin_repo]
    told: list[str] = []
    if prs:
        reasons = [
            said(lang, "ne_pr", number=n.number, reason=reason_text(n, lang))
            for n in prs[:NOT_EVALUATED_SHOWN]
        ]
        more = len(prs) - NOT_EVALUATED_SHOWN
        joined = words["ne_sep"].join(reasons) + (said(lang, "ne_more", n=more) if more > 0 else "")
        key = "ne_prs_one" if len(prs) == 1 else "ne_prs"
        told.append(said(lang, key, n=len(prs), reasons=joined))
    told += [said(lang, "ne_all", reason=reason_text(n, lang)) for n in whole]
    told += [
        said(
            lang, "ne_plugin_partial", plugin=short(n.plugin_repo or ""), n=n.unread, files=n.files
        )
        if n.partial
        else said(lang, "ne_plugin", plugin=short(n.plugin_repo or ""), reason=reason_text(n, lang))
        for n in plugins
    ]
    return said(lang, "not_evaluated", what=words["ne_join"].join(told))


def reason_text(entry: NotEvaluated, lang: str) -> str:
    """Why something was not evaluated, said short in `lang` (the whole reason is in the
    JSON and the log)."""
    why = entry.why
    for needle, key in (
        ("does not parse", "parse"),
        ("too large", "large"),
        ("over ", "large"),
        ("UTF-8", "text"),
        ("past what GitHub lists", "files"),
        ("analysis failed", "analysis"),
        ("not in the archive", "archive"),
        ("only the archive", "archive"),
        ("has no Python source", "source"),
        ("no Python file could be read", "unread"),
    ):
        if needle in why:
            return said(lang, f"ne_why_{key}")
    return unread_reason(lang, why)[0]


def grades_text(forecast: Forecast, lang: str) -> str | None:
    """How the plugins' past warnings fared, like the radar's precision line."""
    shown = [g for g in forecast.grades if g.graded or g.pending]
    if not shown:
        return None
    words = RADAR_TEXT[lang]
    plugins = words["ne_sep"].join(
        said(lang, "graded_one", plugin=short(g.plugin_repo), counts=_counts(g, lang))
        for g in shown
    )
    return said(lang, "graded", plugins=plugins)


def _counts(graded: Graded, lang: str) -> str:
    words = RADAR_TEXT[lang]
    counts = [
        said(lang, "graded_confirmed", n=graded.confirmed),
        said(lang, "graded_not", n=graded.not_confirmed),
        said(lang, "graded_missed", n=graded.missed),
    ]
    if graded.pending:
        counts.append(said(lang, "graded_pending", n=graded.pending))
    return words["warn_site_sep"].join(counts)


def headline_text(forecast: Forecast | None, lang: str) -> str | None:
    """`2 upstream PRs will break vllm-ascend, tpu-inference`, for the post's first message."""
    if forecast is None or not forecast.warnings:
        return None
    numbers = {w.number for w in forecast.warnings}
    plugins = RADAR_TEXT[lang]["list_sep"].join(
        dict.fromkeys(short(w.plugin_repo) for w in forecast.warnings)
    )
    key = "plugins_line_warn_one" if len(numbers) == 1 else "plugins_line_warn"
    return said(lang, key, n=len(numbers), plugins=plugins)


def forecast_blocks(forecast: Forecast, lang: str, command: str) -> tuple[ol.Block, ...]:
    """The "Will break" block (the most sites first, SHOWN of them, the rest named by
    `command`), then what was not evaluated and the grades, each one line."""
    blocks: list[ol.Block] = []
    if forecast.warnings:
        entries = tuple(
            ol.Entry(warning_line(w, lang), number=w.number) for w in forecast.warnings[:SHOWN]
        )
        hidden = len(forecast.warnings) - SHOWN
        rest = (ol.Our(said(lang, "warn_more", n=hidden, command=command)),) if hidden > 0 else None
        blocks.append(ol.Block(said(lang, "will_break"), entries, "list", rest=rest))
    lines = [
        text for text in (not_evaluated_text(forecast, lang), grades_text(forecast, lang)) if text
    ]
    if lines:
        space = said(lang, "sentence_sep")
        blocks.append(ol.Block(None, (ol.Entry((ol.Our(space.join(lines)),)),), "text"))
    return tuple(blocks)


# -- `vllm-report radar --predict` and `/vllm-radar predict` ------------------------------------


def forecast_section(forecast: Forecast, lang: str, command: str) -> ol.Section:
    """Every warning (the command shows them all), what was not evaluated, the grades."""
    blocks: list[ol.Block] = []
    if forecast.warnings:
        entries = tuple(ol.Entry(warning_line(w, lang), number=w.number) for w in forecast.warnings)
        blocks.append(ol.Block(said(lang, "will_break"), entries))
    else:
        blocks.append(_text(said(lang, "warn_none")))
    blocks += [b for b in forecast_blocks(forecast, lang, command) if b.style == "text"]
    return ol.Section("predict", _title(forecast, lang), tuple(blocks))


def _title(forecast: Forecast, lang: str) -> str:
    return said(lang, "will_title", label=window_label(lang, forecast.label or "—"))


def _context(forecast: Forecast, lang: str) -> str:
    plugins = RADAR_TEXT[lang]["list_sep"].join(short(p) for p in forecast.plugins)
    key = "warn_evaluated_one" if forecast.evaluated == 1 else "warn_evaluated"
    told = [said(lang, "watched", plugins=plugins), said(lang, key, n=forecast.evaluated)]
    if forecast.made_at is not None:
        told.append(said(lang, "warn_as_of", at=f"{forecast.made_at:%Y-%m-%d %H:%M} UTC"))
    return said(lang, "sentence_sep").join(told)


def forecast_markdown(forecast: Forecast, lang: str) -> str:
    """`vllm-report radar --predict` as Markdown."""
    section = forecast_section(forecast, lang, said(lang, "warn_more_cli"))
    lines = [f"# {section.title}", "", _context(forecast, lang)]
    for block in section.blocks:
        lines.append("")
        if block.heading:
            lines += [f"## {block.heading}", ""]
        for entry in block.entries:
            marker = "" if block.style == "text" else "- "
            lines.append(marker + markdown_line(entry.head))
    return "\n".join(lines) + "\n"


def forecast_message(platform: Platform, forecast: Forecast, lang: str) -> dict[str, Any]:
    """`/vllm-radar predict` as one message on `platform`."""
    section = forecast_section(forecast, lang, "`vllm-report radar --predict`")
    payload = {"window": forecast.label, "plugins": ",".join(forecast.plugins), "part": "predict"}
    outline = ol.OneMessage(section.title, _context(forecast, lang), section, EVENT_TYPE, payload)
    (message,) = platform.one_message(outline, lang)
    return message


def _text(sentence: str) -> ol.Block:
    return ol.Block(None, (ol.Entry((ol.Our(sentence),)),), "text")
