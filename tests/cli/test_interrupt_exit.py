"""An interrupted command leaves with its own exit status even while one of its steps is
still in a request on a daemon thread (bot/cli/__init__.py `run`): Python's exit would end
that thread mid-call, which native code on its stack can turn into an abort (SIGABRT, exit
134, "terminate called without an active exception"; 2 of 21 Ctrl-Cs of `post` with a
Slack destination in the operator's probe). `benchmarks/interrupts.py` counts it over 50
real interrupted posts."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

PROBE = """
import atexit, threading, time
import bot.cli
def step():
    time.sleep(600)  # a request that is not over when the command is
def main():
    if {with_step}:
        threading.Thread(target=step, daemon=True).start()
    print("the command's answer", flush=False)
    raise KeyboardInterrupt  # Ctrl-C during the command
bot.cli.main = lambda: bot.cli._guarded(lambda a: main(), None)
atexit.register(lambda: print("Python's exit ran with a step still running", flush=True))
bot.cli.run()
"""


@pytest.mark.parametrize("with_step", [True, False])
def test_an_interrupt_with_a_step_still_running_exits_130_without_pythons_exit(
    with_step: bool,
) -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(with_step=with_step)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env={k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"},  # a pipe buffers
    )
    assert result.returncode == 130
    assert result.stdout.startswith("the command's answer\n")  # flushed before leaving
    assert result.stderr.startswith("vllm-report: interrupted;")
    assert "Traceback" not in result.stderr
    # With a step still running, Python's exit (and its threads' teardown) is skipped;
    # with none, the exit is Python's own, atexit handlers included.
    assert ("Python's exit ran" in result.stdout) is not with_step


def test_a_reader_that_leaves_early_gets_no_traceback() -> None:
    """`vllm-report topics | head -1`: the reader closes the pipe after its line; the
    command ends with 141 (128 + SIGPIPE, as shells say) and no traceback."""
    probe = (
        "import bot.cli\n"
        "def main():\n"
        "    for n in range(200_000):\n"
        "        print(f'line {n}')\n"
        "    return 0\n"
        "bot.cli.main = main\n"
        "bot.cli.run()\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", probe],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"},
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline() == "line 0\n"
    process.stdout.close()  # as `head -1` does
    err = process.stderr.read()
    assert process.wait(timeout=60) == 141
    assert "Traceback" not in err and "BrokenPipeError" not in err
