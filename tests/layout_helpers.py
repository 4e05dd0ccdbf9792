"""Editing a two-part match document's log the way a forger would: on whole entry lines (issue 27).

A log entry's line is its view line (``12. Ann: play Torch on 7``) joined with its machine
fields in the machinery (``12 · rng … · seal … · #…``).  :func:`log_lines` returns the whole
lines; :func:`rewrite_log` writes a changed list of whole lines back into both parts (the
view's words, the machinery's fields; a duty entry whole in the machinery), as a forger who
edits both parts would.
"""

from __future__ import annotations

from pbd.games.base import ENTRIES, LOG_GROUP_RE, LOG_RE, MACHINERY, LogEntry, _parse_entry, is_duty, split_frame


def log_lines(text: str) -> list[str]:
    """Return the whole line of every log entry of a document, in order."""
    return [line.text for line in split_frame(text).log]


def _entry(line: str) -> LogEntry:
    m = LOG_RE.match(line)
    return _parse_entry(int(m.group("n")), m.group("player").strip(), m.group("text"))


def rewrite_log(text: str, change) -> str:
    """Return ``text`` with its log replaced by ``change(whole lines)`` in both parts of the document."""
    new = change(log_lines(text))
    lines = text.split("\n")
    log_at = next(k for k, line in enumerate(lines) if line.strip() == "Log")
    cut = next(k for k in range(log_at, len(lines)) if lines[k].strip() == MACHINERY)
    entries_at = next(k for k in range(cut, len(lines)) if lines[k].strip() == ENTRIES)
    entries_end = next((k for k in range(entries_at + 1, len(lines)) if not lines[k].strip()), len(lines))
    view, fields = [], []
    for line in new:
        m = LOG_RE.match(line)
        entry = _entry(line)
        head = f"{m.group('n')}. {m.group('player').strip()}: {entry.text}"
        if is_duty(entry):
            fields.append(line)
        else:
            view.append(head)
            fields.append(f"{m.group('n')}{line[len(head):]}")
    kept_view = [ln for ln in lines[log_at + 1:cut] if not LOG_RE.match(ln) and not LOG_GROUP_RE.match(ln)]
    while kept_view and not kept_view[-1].strip():
        kept_view.pop()
    return "\n".join([*lines[:log_at + 1], *view, *kept_view, "", *lines[cut:entries_at + 1], *fields,
                      *lines[entries_end:]])


def replace_entry(text: str, old: str, new: str) -> str:
    """Return ``text`` with the log entry whose whole line is ``old`` made ``new`` (both parts)."""
    return rewrite_log(text, lambda lines: [new if line == old else line for line in lines])


def whole(text: str) -> str:
    """Return the whole lines of a document's log, one a line (to search as a log was searched in one part)."""
    return "\n".join(log_lines(text))
