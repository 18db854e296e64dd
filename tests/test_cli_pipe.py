"""The command line stops quietly when its reader goes away (``ttr | head``)."""

from __future__ import annotations

import subprocess
import sys


def test_a_closed_pipe_ends_the_command_without_a_traceback() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "ttr_core", "--map", "usa", "--players", "5"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader is gone before the first line is written
    errors = process.stderr.read().decode()
    process.wait(timeout=60)
    assert "Traceback" not in errors and "BrokenPipeError" not in errors
    assert process.returncode == 0
