"""Mutation testing of the core logic (not part of CI: it takes many minutes).

    python tools/mutation.py            # mutate, run the fast tests against each mutant, report
    python tools/mutation.py --safety   # only the safety checks (about 35 minutes on 2 cores)
    python tools/mutation.py --truth    # only the checks that guard truth (see TRUTH)
    python tools/mutation.py --recovery # only where runs recover: retry loop, ledger, site build
    python tools/mutation.py --report   # only print the last run's results (add --safety:
                                        # only theirs; --by-function: a score per function)
    python tools/mutation.py --report --dir ../old   # another checkout's run

Mutated (mutmut, configured in pyproject.toml's [tool.mutmut]): report windows
(bot/model/windows.py), the five counts (bot/analyze/counts.py), coverage spans
(bot/store/spans.py), the delivery ledger (bot/store/ledger.py), delivery
(bot/delivery/), text escaping (formatters/_text.py), the HTTP replay guard
(bot/adapters/replay.py) and the leader's lease (bot/store/leases.py), each whole; and of
the modules that hold a safety check among much else, only the functions in SAFETY below:
the request checks of both HTTP endpoints (bot/platforms/discord/http.py,
bot/platforms/slack/app.py) and who may subscribe a channel (bot/platforms/slack/slash.py,
bot/platforms/discord/choices.py, bot/commands/subscribe.py and base.py). `--safety` runs SAFETY
alone: every signature, timestamp, replay, permission and lease check, with the functions
around them. Each mutant runs against the tests that reach the mutated function, on SQLite
(`-m "not postgres"`: the PostgreSQL matrix runs in CI). Prints the score per file and every
surviving mutant with its diff; the survivors that are equivalent (no test could tell them
apart) are listed with the reason in EQUIVALENT below.
"""

from __future__ import annotations

import fnmatch
import json
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if "--dir" in sys.argv:  # report on another checkout's run (e.g. the code before a change)
    ROOT = Path(sys.argv[sys.argv.index("--dir") + 1]).resolve()

# The safety checks, as mutmut names its mutants (module.x_function or module.xǁClassǁmethod).
SAFETY = [
    "bot.adapters.replay.*",  # the replay guard
    "bot.platforms.discord.http.x_verify__mutmut_*",  # Ed25519 over timestamp + body
    "bot.platforms.discord.http.xǁInteractionsǁhandle__mutmut_*",  # signature, window, replays
    "bot.platforms.discord.http.x_may_manage_channel__mutmut_*",  # who may subscribe a channel
    "bot.platforms.slack.app.x_build_slack_app__mutmut_*",  # verification on, the replay guard
    "bot.platforms.slack.slash.x_can_manage__mutmut_*",  # who may subscribe a channel (Slack)
    "bot.platforms.discord.gateway.x_asker__mutmut_*",  # ... (Discord's gateway)
    "bot.platforms.slack.app.x__stamp__mutmut_*",  # the timestamp the replay guard is given
    "bot.platforms.slack.app.x_slack_web_app__mutmut_*",  # the timestamp's pre-check
    "bot.commands.subscribe.xǁSubscribeǁanswer__mutmut_*",  # the permission, applied
    "bot.commands.base.xǁAskerǁcan_manage__mutmut_*",  # a DM, or the platform's word
    "bot.store.leases.*",  # the leader's lease and its fencing check
    "bot.store.ledger.xǁLedgerǁholds__mutmut_*",  # the delivery lease's fencing check
    "bot.delivery.deliverer.xǁDelivererǁ_parts__mutmut_*",  # the lease checked before each send
]
# Mutated whole: every function (with SAFETY, the default run).
WHOLE = [
    "bot.model.windows.*",
    "bot.analyze.counts.*",
    "bot.store.spans.*",
    "bot.store.ledger.*",
    "bot.delivery.*",
    "formatters._text.*",
    "bot.adapters.replay.*",
    "bot.store.leases.*",
]
# The checks that guard truth, whole: what `check` calls right or wrong (claims), what of a
# model's prose is shown (vetting), and which numbers the radar may blame (radar). Their
# mutants run against the fast tests that pin each rule (no CLI round trips: a survivor
# there would cost a minute each).
TRUTH = [
    "bot.analyze.claims.*",
    "bot.prose.vetting.*",
    "bot.features.radar.reading.*",
    "bot.features.radar.words.*",
    "bot.features.radar.culprits.*",
]
# Where a run recovers: the failed-day retry loop (which day is due, the backoff, when a
# day counts as posted), the delivery ledger (which part is sent, leased, recorded), and the
# incremental site build (which days are made again, which files stand, what is removed),
# against their in-process tests.
RECOVERY = [
    "bot.service.daily.*",
    "bot.store.ledger.*",
    *(
        f"bot.service.site.xǁ{owner}ǁ{function}__mutmut_*"
        for owner, function in (
            ("SiteBuilder", "build"),
            ("SiteBuilder", "_changes"),
            ("SiteBuilder", "_stale"),
            ("SiteBuilder", "_counted"),
            ("SiteBuilder", "_day_of"),
            ("SiteBuilder", "_chart"),
            ("_Files", "*"),
        )
    ),
]
if "--safety" in sys.argv:
    PATTERNS = SAFETY
elif "--recovery" in sys.argv:
    PATTERNS = RECOVERY
elif "--truth" in sys.argv:
    PATTERNS = TRUTH
else:
    PATTERNS = WHOLE + SAFETY

# Survivors that behave exactly like the original, with the reason (checked by hand): every
# survivor of the last full run is classified, with its reason, in tools/mutation-survivors.md.
EQUIVALENT: dict[str, str] = {
    # From the `--safety` run of 2026-12-01 (a mutant's number moves when its function
    # changes: check the diff before trusting a reason). Only functions of the safety checks.
    **{
        f"bot.platforms.discord.http.xǁInteractionsǁhandle__mutmut_{n}": "a missing header's "
        "default: None or 'XXXX' is refused like '' (no signature, or one that cannot verify)"
        for n in (5, 7, 10, 13, 15, 18)
    },
    "bot.platforms.discord.http.x_may_manage_channel__mutmut_5": "in a DM `where` is always "
    "dm, and the service asks for the permission only for `here`",
    "bot.platforms.discord.http.x_may_manage_channel__mutmut_16": "`or 1`: 1 has neither the "
    "Administrator (8) nor the Manage Channels (16) bit",
    "bot.platforms.slack.app.x_build_slack_app__mutmut_3": "the app is built only with a bot "
    "token (Settings.slack_commands_on)",
    "bot.platforms.slack.app.x_build_slack_app__mutmut_13": "Bolt verifies by default; it "
    "never verifies Socket Mode requests (no secret there)",
    "bot.platforms.slack.app.x_build_slack_app__mutmut_19": "the token is always set (see 3)",
    **{
        f"bot.store.leases.xǁLeasesǁacquire__mutmut_{n}": why
        for n, why in (
            (5, "RETURNING NULL still returns the one row the insert made"),
            (6, "ON CONFLICT DO NOTHING without a target: `name` is the only unique key"),
            (25, "Held.until is never read"),
            (89, "Held.until is never read"),
            (33, "synchronize_session=None is False in SQLAlchemy 2.1"),
            (54, "synchronize_session=None is False in SQLAlchemy 2.1"),
            (37, "leases.updated_at is never read"),
            (62, "leases.updated_at is never read"),
            (41, "one lease name in production (`scheduler`)"),
            (65, "one lease name in production (`scheduler`)"),
            (70, "the takeover runs only once the renewal failed: own lease ended or not own"),
            (72, "the takeover runs only once the renewal failed: own lease ended or not own"),
            (96, "the epoch is never NULL or 0"),
        )
    },
    **{
        f"bot.store.leases.xǁLeasesǁrelease__mutmut_{n}": why
        for n, why in (
            (2, "synchronize_session=None is False in SQLAlchemy 2.1"),
            (6, "leases.updated_at is never read"),
            (10, "one lease name in production (`scheduler`)"),
            (11, "(name, epoch) is one holding period: every takeover raises the epoch"),
            (12, "the Leader releases only its latest hold, the row's epoch when it holds it"),
        )
    },
    **{
        f"bot.store.leases.x__count__mutmut_{n}": "execute(update(...)) always has rowcount"
        for n in (5, 8, 11)
    },
    # From the `--truth` run of 2026-12-03: how `check` reads a report (claims/reading.py).
    **{
        f"bot.analyze.claims.reading.x_sentences__mutmut_{n}": "paragraphs are told apart "
        "only by equality (claims/__init__ groups sentences by the number): any numbering "
        "that never reuses one reads the same"
        for n in (3, 25, 34, 48)
    },
    **{
        f"bot.analyze.claims.reading.x_sentences__mutmut_{n}": "-2 and -1 both mean 'no "
        "depth yet' (`indent < 0`)"
        for n in (5, 27, 36)
    },
    "bot.analyze.claims.reading.x_sentences__mutmut_76": "only a line's last span can strip "
    "to nothing (every other ends in its stop): `break` there is `continue`",
    "bot.analyze.claims.reading.x_sentences__mutmut_79": "`stripped` is `said` without its "
    "ends, so it occurs in `said` once: index and rindex agree",
    **{
        f"bot.analyze.claims.reading.x__spans__mutmut_{n}": "an empty span strips to nothing "
        "and `sentences` skips it"
        for n in (4, 6)
    },
    "bot.analyze.claims.reading.x_quoted__mutmut_17": "_BEFORE_TITLE matches the empty "
    "string (every part optional): `gap` is never None",
    **{
        f"bot.analyze.claims.reading.x_quoted__mutmut_{n}": "a part is looked up as a "
        "substring of the quotes: another stand-in for the blank, or X's cut from its ends, "
        "leaves a substring of the same quote (only a part that is 'X' words alone differs)"
        for n in (65, 66, 67)
    },
    "bot.analyze.claims.reading.x__bodies__mutmut_13": "the separator only keeps two "
    "descriptions from reading as one; 'XX\\x00XX' does that as '\\x00' does",
    "bot.analyze.claims.reading.x__quote_parts__mutmut_1": "the line whole is looked up "
    "again as the last part when it has no separator; with one, the line without its first "
    "character is a substring of the same quote",
    # From the `--recovery` run of 2026-12-04: the delivery ledger (bot/store/ledger.py).
    **{
        f"bot.store.ledger.xǁLedgerǁ{name}": why
        for names, why in (
            (
                (
                    "claim__mutmut_75",
                    "holds__mutmut_3",
                    "renew__mutmut_3",
                    "release__mutmut_2",
                    "record__mutmut_40",
                    "sent__mutmut_2",
                ),
                "synchronize_session=None is False in SQLAlchemy 2.1",
            ),
            (
                (
                    "claim__mutmut_34",
                    "claim__mutmut_35",
                    "claim__mutmut_83",
                    "claim__mutmut_104",
                    "claim__mutmut_105",
                    "sent__mutmut_6",
                    "sent__mutmut_22",
                    "sent__mutmut_23",
                ),
                "deliveries.state is written for people reading the table; nothing reads it",
            ),
            (
                (
                    "claim__mutmut_28",
                    "claim__mutmut_36",
                    "claim__mutmut_84",
                    "claim__mutmut_106",
                    "claim__mutmut_107",
                    "record__mutmut_17",
                    "record__mutmut_21",
                ),
                "deliveries.attempts is never read",
            ),
            (("claim__mutmut_85", "sent__mutmut_9"), "deliveries.updated_at is never read"),
            (
                ("claim__mutmut_27", "record__mutmut_8", "record__mutmut_16"),
                "message_id is NULL by default; record's update sets it when it is given",
            ),
            (
                (
                    "claim__mutmut_40",
                    "claim__mutmut_42",
                    "claim__mutmut_44",
                    "claim__mutmut_46",
                    "claim__mutmut_48",
                    "record__mutmut_2",
                    "record__mutmut_23",
                    "record__mutmut_25",
                    "record__mutmut_27",
                    "record__mutmut_29",
                ),
                "the conflict target: SQLite's column names are case-insensitive, and "
                "(repo, window, destination, part) is the table's only unique key",
            ),
            (("claim__mutmut_39",), "RETURNING NULL still returns the one row the insert made"),
            (
                ("claim__mutmut_68", "claim__mutmut_69", "claim__mutmut_70"),
                "a busy claim's lease_until only sets how long the waiter sleeps (timing)",
            ),
            (
                (
                    "claim__mutmut_90",
                    "holds__mutmut_10",
                    "renew__mutmut_9",
                    "release__mutmut_8",
                    "record__mutmut_38",
                    "release__mutmut_3",
                ),
                "a sent part has no lease (sent and record clear it) and claim returns its "
                "message id before any update: the message_id / lease conditions repeat each "
                "other; a lease ended now or NULL is taken over alike",
            ),
            (
                ("claim__mutmut_95", "claim__mutmut_96", "claim__mutmut_99", "claim__mutmut_100"),
                "a row has no owner exactly when it has no lease (record writes neither, "
                "claim both): either condition finds the same rows",
            ),
            (
                (
                    "destination_failed__mutmut_10",
                    "destination_failed__mutmut_11",
                    "destination_failed__mutmut_14",
                    "destination_failed__mutmut_15",
                    "destination_failed__mutmut_17",
                ),
                "a new destination row's disabled and updated_at are set again before commit",
            ),
            (("disabled__mutmut_9",), "a disabled destination always has its reason"),
        )
        for name in names
    },
    **{
        f"bot.store.ledger.x__count__mutmut_{n}": "execute(update(...)) always has rowcount"
        for n in (5, 8, 11)
    },
    # From the `--recovery` run of 2026-12-04: the incremental site build (bot/service/site.py).
    **{
        f"bot.service.site.xǁ{name}": why
        for names, why in (
            (
                tuple(f"SiteBuilderǁbuild__mutmut_{n}" for n in range(142, 156)),
                "the summary log line's words and arguments (logging reports a bad one "
                "itself and never raises)",
            ),
            (
                (
                    "SiteBuilderǁbuild__mutmut_12",
                    "SiteBuilderǁbuild__mutmut_20",
                    "SiteBuilderǁbuild__mutmut_22",
                    "SiteBuilderǁbuild__mutmut_30",
                ),
                "with the recipe changed or no earlier build every day is new, hence made: "
                "what `kept`, `raw` and the earlier notes hold then is never read",
            ),
            (
                ("SiteBuilderǁbuild__mutmut_47", "SiteBuilderǁbuild__mutmut_58"),
                "a longer history than a fortnight: `history.ending` takes the last "
                "CHART_DAYS days before each made day, and nothing reads the others",
            ),
            (
                ("SiteBuilderǁbuild__mutmut_112", "SiteBuilderǁbuild__mutmut_115"),
                "a kept day's record dumped again is the record the last build wrote",
            ),
            (
                ("SiteBuilderǁ_chart__mutmut_1", "SiteBuilderǁ_chart__mutmut_2"),
                "every caller passes the language",
            ),
            (
                ("_Filesǁput__mutmut_6", "_Filesǁ__init____mutmut_6", "_Filesǁ__init____mutmut_9"),
                "'UTF-8' is 'utf-8'; the notes file is JSON in ASCII, read alike in any locale",
            ),
            (
                ("SiteBuilderǁ_changes__mutmut_25", "SiteBuilderǁ_changes__mutmut_27"),
                "notes with a mark always hold `seen`",
            ),
            (
                ("SiteBuilderǁ_changes__mutmut_40",),
                "a row stamped exactly at the band is remembered too: it is then not news "
                "to the next build, which it was not",
            ),
            (
                ("SiteBuilderǁ_counted__mutmut_4",),
                "`_counted` runs only with an earlier build, whose mark `since` always is",
            ),
        )
        for name in names
    },
}
# Lines that run only on PostgreSQL: the mutation run is SQLite-only (`-m "not postgres"`);
# tests/store/test_ledger.py runs each of them on PostgreSQL in CI. Counted apart.
POSTGRES_ONLY = {
    *(f"bot.store.ledger.xǁLedgerǁclaim__mutmut_{n}" for n in range(59, 65)),
    *(f"bot.store.ledger.x__insert__mutmut_{n}" for n in range(1, 5)),
}
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
    """mutant name → status (killed, survived, timeout, ...), from `mutmut results --all`,
    for the mutants this run is about (PATTERNS)."""
    found = {}
    for line in run("results", "--all", "true").splitlines():
        match = re.match(r"\s*([\w.ǁ]+__mutmut_\d+):\s*(\w[\w ]*)", line)
        if match and any(fnmatch.fnmatchcase(match.group(1), p) for p in PATTERNS):
            found[match.group(1)] = match.group(2).strip()
    return found


def module_of(name: str) -> str:
    return name.split(".x")[0].split("__mutmut")[0].rsplit(".", 1)[0] if ".x" in name else name


def main() -> int:
    if "--report" not in sys.argv:
        subprocess.run([sys.executable, "-m", "mutmut", "run", *PATTERNS], cwd=ROOT, check=False)
    statuses = results()
    if "--guard-only" in sys.argv:  # before the guard had a module: only its class of slack_app
        statuses = {
            n: s
            for n, s in statuses.items()
            if not n.startswith("bot.platforms.slack.app.") or "ReplayGuard" in n
        }
    survivors = {n: run("show", n, check=False) for n, s in statuses.items() if s == "survived"}
    log_only = {
        n for n, diff in survivors.items() if any(LOG_LINE.match(x) for x in diff.splitlines())
    }
    per_file: dict[str, Counter[str]] = defaultdict(Counter)
    for name, status in statuses.items():
        module = name.split(".x")[0] if ".x" in name else name.rsplit(".", 1)[0]
        if "--by-function" in sys.argv and ".x" in name:
            function = name.split("__mutmut_")[0].partition(".x")[2]
            label = function[1:] if function.startswith("_") else function.strip("ǁ")
            module = f"{module}.{label.replace('ǁ', '.')}"
        per_file[module]["log" if name in log_only else status] += 1
        if status == "survived" and name not in log_only:
            per_file[module]["explained"] += name in EQUIVALENT or name in POSTGRES_ONLY
    width = 64 if "--by-function" in sys.argv else 34
    print(
        f"{'module':{width}} {'killed':>7} {'survived':>9} {'log text':>9} {'untested':>9} "
        f"{'score':>7} {'without E/P':>12}"
    )
    totals: Counter[str] = Counter()
    for module, counts in sorted(per_file.items()):
        killed = counts["killed"] + counts["timeout"]
        survived, log_text, untested = counts["survived"], counts["log"], counts["no tests"]
        totals.update({"killed": killed, "survived": survived, "log": log_text, "none": untested})
        score = killed / max(1, killed + survived + untested)
        # E/P: the survivors EQUIVALENT or POSTGRES_ONLY explain, left out of the count
        plain = killed / max(1, killed + survived + untested - counts["explained"])
        print(
            f"{module:{width}} {killed:7} {survived:9} {log_text:9} {untested:9} {score:7.1%} "
            f"{plain:12.1%}"
        )
    killed, survived = totals["killed"], totals["survived"] + totals["none"]
    equivalent = [
        n for n in survivors if (n in EQUIVALENT or n in POSTGRES_ONLY) and n not in log_only
    ]
    print(
        f"\nall: {killed} killed, {survived} survived or untested "
        f"({len(equivalent)} of them equivalent or PostgreSQL-only), "
        f"{totals['log']} change a log line only; "
        f"score {killed / max(1, killed + survived):.1%} "
        f"(counting log-only mutants as survivors: "
        f"{killed / max(1, killed + survived + totals['log']):.1%}; "
        f"those left out: {killed / max(1, killed + survived - len(equivalent)):.1%})"
    )
    if "--quiet" not in sys.argv:
        for name, diff in survivors.items():
            if name in log_only:
                continue
            why = EQUIVALENT.get(name) or ("PostgreSQL only" if name in POSTGRES_ONLY else "")
            print(f"\n--- survived: {name}  ({why or 'NOT EXPLAINED'})")
            print("\n".join(x for x in diff.splitlines() if x[:2] in ("- ", "+ ")))
    if "--json" in sys.argv:
        print(json.dumps(statuses, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
