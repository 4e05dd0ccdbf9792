"""What a command returns to the CLI: lines to print and data for ``--json``."""

from __future__ import annotations

from collections.abc import Callable

from pbd.record import Record


class Result(Record):
    """What a command did: lines to print and data for ``--json``.

    ``styles``: a function returning ``(start, end, style)`` spans over ``"\n".join(lines)`` (see
    ``Game.styles``), which a terminal colours; called only then (working them out may load a
    catalogue).  ``warnings`` are said on stderr (a hand edit the log does not explain, say);
    the command still succeeds.
    """

    FIELDS = ("lines", "data", "location", "styles", "warnings")

    def __init__(self, lines: list[str], data: dict | None = None, location: str | None = None,
                 styles: Callable[[], list] | None = None, warnings: list[str] | None = None):
        self.lines, self.data, self.location, self.styles = lines, data, location, styles
        self.warnings = [] if warnings is None else warnings
