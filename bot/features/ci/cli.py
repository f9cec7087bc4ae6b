"""`vllm-report ci [WINDOW]`: what was red on vLLM's main at the window's end, and `ci wrong`."""

from __future__ import annotations

import argparse
import json

from bot.cli.common import check_phrase, configured, now, opened, releases
from bot.cli.options import FORMATS, UsageError, command, day_options, lang_option
from bot.model.errors import ServiceError

CI_MAX_DAYS = 366  # a long look back: the archive answers what its reads covered


def add_ci_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ci = command(
        commands,
        "ci",
        "which CI jobs were failing on vLLM's main at the window's end, since when, and why",
        "Read vLLM's CI dashboard (VLLM_REPORT_CI_URL, one request, archived) and list the jobs "
        "failing on main at the window's end with the build they began failing in, the "
        "hardware, the PRs merged between the job's last pass and its first failure (the "
        "blame range), the suspect only when the evidence singles one out, and who to ask; "
        "then flaky-looking jobs, infrastructure trouble, what passed again or was closed "
        "by hand, and the CI failures reported on GitHub (AMD's CI among them). A day no "
        "read of the dashboard covers is unknown (exit 1), never "
        "'nothing failing'.",
        [
            "vllm-report ci",
            "vllm-report ci 2026-03-25 --topic amd",
            "vllm-report ci 7d --format json",
            "vllm-report ci yesterday --lang zh",
            "vllm-report ci wrong 1006 37483   # that PR did not cause failure 1006",
        ],
    )
    ci.add_argument(
        "when",
        nargs="*",
        default=["today"],
        help="the window (default today: the report day in progress, as it stands now), "
        "or `wrong <failure> <PR>`",
    )
    day_options(ci)
    lang_option(ci)
    ci.add_argument("--topic", help="one hardware: amd, nvidia, intel, tpu, neuron, ascend, cpu")
    ci.add_argument(
        "--format",
        choices=FORMATS,
        default="markdown",
        help="markdown (default), json (the report's `ci`), or the payload of /vllm-ci",
    )
    ci.set_defaults(func=run_ci)


def run_ci(args: argparse.Namespace) -> int:
    from bot.model import asking

    if args.when[:1] == ["wrong"]:
        return run_ci_wrong(args)
    check_phrase(args)
    settings, rules = configured(args)
    if settings.ci_source is None:
        if args.format == "json":  # the JSON is always printed: a script reads "off"
            from bot.features.ci.render_json import off

            print(json.dumps(off("VLLM_REPORT_CI_URL=none"), indent=2))
        raise UsageError(
            "Red on main is off (VLLM_REPORT_CI_URL=none): set it to the CI dashboard's "
            "address, or leave it out for https://ci.vllm.ai"
        )
    window = asking.window(
        " ".join(args.when),
        now=now(),
        tz=settings.tz,
        cutoff=settings.cutoff_time,
        max_days=CI_MAX_DAYS,
        releases=releases(settings),
    )
    topic = args.topic.strip().lower() if args.topic else None
    from bot.features.ci import render as drawn
    from bot.features.ci.render_json import ci_to_dict
    from bot.features.ci.service import ci_service
    from bot.platforms.registry import PLATFORMS

    with opened(settings, rules) as bot:
        service = ci_service(bot.context())
        if service is None:  # never: ci_source was checked above
            raise UsageError("Red on main is off (VLLM_REPORT_CI_URL=none)")
        state = service.state(window, ask=True, topic=topic)
    lang, label = settings.lang, window.label
    if not state.known and args.format == "markdown":  # the sentence says all there is
        raise ServiceError(f"the CI state of {label} is unknown: {state.why}")
    if args.format == "json":
        print(json.dumps(ci_to_dict(state), ensure_ascii=False, indent=2))
    elif args.format in PLATFORMS:
        payload = PLATFORMS[args.format].one_message(drawn.ci_message(state, label, lang), lang)
        print(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        print(drawn.render_ci_markdown(state, label, lang), end="")
    if not state.known:
        raise ServiceError(f"the CI state of {label} is unknown: {state.why}")
    return 0


def run_ci_wrong(args: argparse.Namespace) -> int:
    """Keep a person's word that a PR did not cause a CI failure (the archive alone)."""
    words = args.when[1:]
    if len(words) != 2:
        raise UsageError(
            f"a correction names a failure and a PR ({len(words)} given): "
            "`vllm-report ci wrong 1006 37483`"
        )
    settings, rules = configured(args)
    from bot.features.ci.service import ci_service

    with opened(settings, rules) as bot:
        service = ci_service(bot.context())
        if service is None:
            raise UsageError("Red on main is off (VLLM_REPORT_CI_URL=none)")
        print(service.correct(words[0], words[1], "cli"))
    return 0
