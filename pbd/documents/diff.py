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


def edits(old: str, new: str, keep: tuple[list, list] | None = None, fixed=()) -> list[Edit]:
    """Return non-overlapping edits, in ascending order, that turn ``old`` into ``new``.

    Applying them (see :func:`apply`) to ``old`` gives ``new`` exactly; unchanged
    text is never inside an edit except where a character-level diff would cost more
    than it saves (very large rewritten blocks).

    ``keep`` is ``(old spans, new spans)`` of text that must stay untouched (players'
    notes, as ``(start, end)`` offsets): spans with the same text, in order, are paired
    and never inside or across an edit.  ``fixed`` lists offsets of ``old`` characters
    (newlines) that must not be deleted: an edit over one is split at a newline of its
    replacement, so the text still comes out as ``new`` when the replacement has enough
    newlines (otherwise one newline more per fixed character is left).
    """
    if keep:
        result = _edits_between(old, new, _pairs(old, new, *keep))
    else:
        result = _edits(old, new)
    return _around_fixed(old, result, sorted(fixed)) if fixed else result


def _pairs(old: str, new: str, old_spans: list, new_spans: list) -> list[tuple[int, int, int, int]]:
    """Return ``(old start, old end, new start, new end)`` of kept spans with equal text, in order."""
    out, j = [], 0
    for a, b in old_spans:
        text = old[a:b]
        k = next((k for k in range(j, len(new_spans)) if new[new_spans[k][0]:new_spans[k][1]] == text), None)
        if k is None:
            continue
        c, d = new_spans[k]
        if out and (a < out[-1][1] or c < out[-1][3]):
            continue
        out.append((a, b, c, d))
        j = k + 1
    return out


def _edits_between(old: str, new: str, pairs: list[tuple[int, int, int, int]]) -> list[Edit]:
    """Return the edits of the stretches between kept spans, each diffed on its own."""
    result: list[Edit] = []
    oa = na = 0
    for a, b, c, d in [*pairs, (len(old), len(old), len(new), len(new))]:
        result += [Edit(e.start + oa, e.end + oa, e.text) for e in _edits(old[oa:a], new[na:c])]
        oa, na = b, d
    return result


def _around_fixed(old: str, changes: list[Edit], fixed: list[int]) -> list[Edit]:
    """Return ``changes`` split so that no edit deletes a character at a ``fixed`` offset."""
    out: list[Edit] = []
    fixed_set = set(fixed)
    for e in changes:
        inside = [f for f in fixed if e.start <= f < e.end]
        if e.start == e.end and e.start - 1 in fixed_set and e.text.endswith("\n"):
            out.append(Edit(e.start - 1, e.start - 1, "\n" + e.text[:-1]))  # lines added at a cell's end stay in it
            continue
        if not inside:
            out.append(e)
            continue
        if (len(inside) == 1 and inside[0] == e.end - 1 and not e.text and e.start > 0
                and old[e.start - 1] == "\n" and e.start - 1 not in fixed):
            out.append(Edit(e.start - 1, e.end - 1, ""))  # drop "\nX" instead of "X\n": same text
            continue
        start, text, used = e.start, e.text, 0
        for f in inside:
            lines = old.count("\n", e.start, f)
            cut = _nth_newline(text, max(lines - used, 0))
            if cut is None:
                out.append(Edit(start, f, text))
                start, text = f + 1, ""
                continue
            out.append(Edit(start, f, text[:cut]))
            start, text, used = f + 1, text[cut + 1:], lines + 1
        out.append(Edit(start, e.end, text))
    return [e for e in out if e.start < e.end or e.text]


def _nth_newline(text: str, n: int) -> int | None:
    """Return the offset of the ``n``-th newline of ``text`` (0-based; the last one if fewer), or None."""
    at = -1
    for _ in range(n + 1):
        nxt = text.find("\n", at + 1)
        if nxt < 0:
            return at if at >= 0 else None
        at = nxt
    return at


def _edits(old: str, new: str) -> list[Edit]:
    """Return the edits of :func:`edits` without kept spans or fixed characters."""
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
