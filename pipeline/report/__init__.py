"""Balance reports for card designers: one self-contained HTML file (or a small static site).

- :mod:`pipeline.report.figures`: the figures, drawn from :mod:`pipeline.analytics` tables
  (also used by the notebooks);
- :mod:`pipeline.report.build`: gathers a run's tables and card texts and lays them out;
- :mod:`pipeline.report.templates`: the HTML, with every text from a data file escaped;
- :mod:`pipeline.report.balance`: the one-command job: simulate, analyse, write the report.

This package module stays light, so the command line can import it without loading matplotlib.
"""

from __future__ import annotations

from pipeline.errors import LabError


class ReportError(LabError):
    """A report that cannot be written as asked; the message says what to change."""
