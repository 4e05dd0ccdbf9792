"""Minimal text edits between two versions of a document (pure functions, no I/O).

Rich backends (Google Docs) must not rewrite the whole document: text that did not
change keeps its formatting, comments and suggestions.  :func:`edits` finds a small
set of replacements that turn the old text into the new one: a line-level diff
first (fast, and it keeps whole untouched lines untouched), then a character-level
diff inside each changed block of lines, so that changing ``CP 7`` to ``CP 5``
touches one character.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

#: Changed blocks bigger than this (old chars x new chars) are replaced whole
#: instead of being diffed character by character (difflib is quadratic).
CHAR_DIFF_LIMIT = 4_000_000


@dataclass(frozen=True)
class Edit:
    """Replace ``old[start:end]`` with ``text`` (offsets are Python string indexes into the old text)."""

    start: int
    end: int
    text: str


def edits(old: str, new: str) -> list[Edit]:
    """Return non-overlapping edits, in ascending order, that turn ``old`` into ``new``.

    Applying them (see :func:`apply`) to ``old`` gives ``new`` exactly; unchanged
    text is never inside an edit except where a character-level diff would cost more
    than it saves (very large rewritten blocks).
    """
    if old == new:
        return []
    old_lines = old.splitlines(keepends=True)
    new_lines = new.splitlines(keepends=True)
    old_offsets = _offsets(old_lines)
    new_offsets = _offsets(new_lines)
    result: list[Edit] = []
    matcher = SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        start, end = old_offsets[i1], old_offsets[i2]
        replacement = new[new_offsets[j1]:new_offsets[j2]]
        result.extend(_char_edits(old[start:end], replacement, start))
    return _merge(result)


def apply(old: str, changes: list[Edit]) -> str:
    """Return ``old`` with ``changes`` (ascending, non-overlapping) applied."""
    out, pos = [], 0
    for e in changes:
        out.append(old[pos:e.start])
        out.append(e.text)
        pos = e.end
    out.append(old[pos:])
    return "".join(out)


def _offsets(lines: list[str]) -> list[int]:
    """Return the start offset of each line, plus the total length at the end."""
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    return offsets


def _char_edits(old: str, new: str, base: int) -> list[Edit]:
    """Return the character-level edits turning block ``old`` into ``new``, offset by ``base``."""
    if not old or not new or len(old) * len(new) > CHAR_DIFF_LIMIT:
        return [Edit(base, base + len(old), new)]
    matcher = SequenceMatcher(None, old, new, autojunk=False)
    return [Edit(base + i1, base + i2, new[j1:j2])
            for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _merge(changes: list[Edit]) -> list[Edit]:
    """Return ``changes`` with edits that touch each other joined into one."""
    merged: list[Edit] = []
    for e in changes:
        if merged and merged[-1].end == e.start:
            last = merged.pop()
            e = Edit(last.start, e.end, last.text + e.text)
        merged.append(e)
    return merged
