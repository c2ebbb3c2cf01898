"""The one base of the lab's input errors.

Each layer says what was wrong in its own error (a preset, a catalog, a record, a bot, a run, a
team mode, a report, a calibration), and every one of them is a :class:`LabError`: bad input a
user can fix, whose message names the file or entry and the fix in one line. The command line
prints it as that one line and exits with code 2 (``cli.friendly``), whatever layer raised it.
"""

from __future__ import annotations


class LabError(ValueError):
    """Bad input the user can fix: the message names the file or entry and what to do."""
