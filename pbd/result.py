"""What a command returns to the CLI: lines to print and data for ``--json``."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Result:
    """What a command did: lines to print and data for ``--json``."""

    lines: list[str]
    data: dict | None = None
    location: str | None = None
    #: ``(start, end, style)`` spans over ``"\n".join(lines)`` (see ``Game.styles``): a terminal colours them
    styles: list | None = None
    #: Said on stderr (a hand edit the log does not explain, say); the command still succeeds.
    warnings: list[str] = field(default_factory=list)
