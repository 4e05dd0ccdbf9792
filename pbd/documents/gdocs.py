"""The Google Docs backend: a match document that lives in Google Drive.

Reading turns ``documents.get`` into plain text plus, for every character, its
index in the document (UTF-16 code units, the Docs API's unit).  Writing sends the
minimal edit between the text read and the new text (:mod:`pbd.documents.diff`) as
ONE ``documents.batchUpdate``, deletes and inserts ordered from the end backwards,
guarded by ``writeControl.requiredRevisionId`` so that an edit made by the other
player in between is never overwritten: the write is refused and pbd replays the
move on the new board.  Styles (headings, bold, class colours) are applied only to
lines the write changed; untouched text keeps its formatting and comments, and the
players' own notes (:func:`pbd.games.base.note_spans`) are never edited or restyled.

A document as people use it:

* **Tabs.** ``documents.get`` is asked for every tab (``includeTabsContent=true``);
  the board is the tab named by the URL's ``?tab=t.xxx`` (or by ``--tab`` with
  ``new``), else the first one; every location and range carries that ``tabId``.
* **Tables.** Cells are read in order, one paragraph per line.  A cell's last
  newline (and the newline before a table) cannot be deleted, so those newlines are
  fixed points of the edit: lines added after a cell's last line go at the end of that
  cell, not into the next cell or after the table, and a cell that loses all its lines
  keeps one empty line.
* **Lists.** A numbered list item (Docs turns a typed "1. " into one) reads with its
  number, taken from the paragraph's bullet and the list's glyph format.  Before pbd
  edits such a paragraph, its list numbers become plain text (``deleteParagraphBullets``),
  so that what the players see does not change.
* **Shift+Enter** (a vertical tab, U+000B) reads as a line break; pbd never changes the
  paragraph style of a paragraph holding one, so its neighbours keep their style.
* **Suggestions.** The document is read with ``suggestionsViewMode=SUGGESTIONS_INLINE``
  (edits must be based on it): a suggested insertion is not text until accepted and
  pbd edits around it; text suggested for deletion still counts until accepted.

Failures: 429 and 5xx are retried with truncated exponential backoff (1, 2, 4 … 32 s
plus up to 1 s of jitter, Google's recommended algorithm) honouring ``Retry-After``.
A guarded write refused because the document moved waits a short random pause,
re-reads, and hands that fresh read to the pipeline's next :meth:`GoogleDocument.read`
(4 calls for a move whose first write was refused).  A write whose answer was lost
(5xx or network after it was sent) is never reported as "nothing was changed": pbd
re-reads and either recognises its own text or raises :class:`~pbd.errors.WriteUncertain`.
A new document is created through Drive with a private ``appProperties`` tag, so a
lost answer is resolved by finding the tagged file instead of creating a second one.

``PBD_DOCS_EMULATOR_HOST=host:port`` sends every call to a local Docs/Drive API
server over plain HTTP (tests, benchmarks), anonymously unless a sign-in is saved.
"""

from __future__ import annotations

import email.utils
import json
import os
import random
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pbd.documents.snapshot import Snapshot
from pbd.documents.diff import Edit, edits
from pbd.errors import AuthError, BackendError, PbdError, StaleRevision, UsageError, WriteUncertain

URL = "https://docs.google.com/document/d/{}/edit"
DOC_MIME = "application/vnd.google-apps.document"
#: The Drive appProperties key that tags a document pbd is creating (found again if the answer is lost).
TAG = "pbdCreate"
#: Seconds before an HTTP request to Google is abandoned.
TIMEOUT = 30
#: HTTP statuses worth retrying (quota and server trouble).
TRANSIENT = frozenset({429, 500, 502, 503, 504})
#: Statuses after which a write may have been applied although no answer says so.
UNCERTAIN = frozenset({500, 502, 503, 504})
#: Paragraph style used for spans styled "heading".
HEADING = "HEADING_2"
#: Text colours for the rulebook's character classes (readable on white).
#: the font size of the machinery (the document's last part, grey: see :func:`pbd.games.base.machinery_styles`)
MACHINERY_PT = 7
COLOURS = {
    "Blue": (0.07, 0.33, 0.80), "Gray": (0.45, 0.45, 0.45), "Grey": (0.45, 0.45, 0.45),
    "Yellow": (0.72, 0.56, 0.0), "Green": (0.13, 0.55, 0.13), "Orange": (0.90, 0.45, 0.0),
    "Red": (0.80, 0.0, 0.0), "Black": (0.0, 0.0, 0.0),
}
#: List glyph types read as numbers (a typed "1. " becomes a DECIMAL list item).
NUMBERED = frozenset({"DECIMAL", "ZERO_DECIMAL"})
EMAIL = re.compile(r"^[^@\s,;]+@[^@\s,;]+\.[^@\s,;]+$")
ROLES = ("reader", "commenter", "writer")

_TEXT = "textRun(content,suggestedInsertionIds)"
_PARAGRAPH = f"paragraph(elements(startIndex,{_TEXT}),bullet(listId,nestingLevel))"
_CELL = f"content({_PARAGRAPH})"
_CONTENT = f"content({_PARAGRAPH},table(tableRows(tableCells({_CELL}))))"
_LISTS = "lists"
_TAB = f"tabProperties(tabId,title),documentTab(body({_CONTENT}),{_LISTS})"
#: The fields of ``documents.get`` pbd reads (a field mask: Google sends nothing else).
FIELDS = f"revisionId,suggestionsViewMode,tabs({_TAB},childTabs({_TAB},childTabs({_TAB})))"


@dataclass
class Backoff:
    """How transient failures are retried: truncated exponential delays with jitter.

    Delay number n (0-based) is ``min(2**n * base + U(0, jitter), cap)``; a server's
    ``Retry-After`` wins when it asks for longer (up to ``longest``; beyond it pbd gives up).
    """

    attempts: int = 7
    base: float = 1.0
    cap: float = 32.0
    jitter: float = 1.0
    longest: float = 64.0
    sleep: Callable[[float], None] = time.sleep

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Return the pause before retry number ``attempt`` (0-based), honouring ``retry_after``."""
        wait = min(self.base * 2 ** attempt + random.uniform(0, self.jitter), self.cap)
        return max(wait, retry_after or 0.0)

    def refused(self, count: int) -> float:
        """Return the short random pause after the ``count``-th refused (stale) write of a command."""
        return random.uniform(0.25, 1.0) * 2 ** min(count, 3)


#: The retry policy (tests replace it with one that records its pauses instead of sleeping).
BACKOFF = Backoff()


class NotFound(BackendError):
    """The document does not exist, or is not shared with this account."""


class BadRequest(BackendError):
    """Google refused a request (HTTP 400); on a guarded write it may mean "stale"."""


class _Failed(BackendError):
    """Retries ran out; ``uncertain`` says whether a write may have been applied anyway."""

    def __init__(self, message: str, uncertain: bool, hint: str | None = None):
        super().__init__(message, hint=hint)
        self.uncertain = uncertain


@dataclass
class Read:
    """A document as read: text, revision, and each character's index in the document.

    ``virtual`` holds the text offsets of characters that are not in the document (list
    numbers), ``fixed`` those of newlines that cannot be deleted (a table cell's last),
    ``soft`` those of line breaks typed with Shift+Enter; ``bullets`` the numbered list
    paragraphs as ``(text start, newline offset, list id)``.
    """

    text: str
    revision: str
    index: list[int] = field(default_factory=list)
    tab: str = ""
    virtual: set[int] = field(default_factory=set)
    fixed: set[int] = field(default_factory=set)
    soft: set[int] = field(default_factory=set)
    bullets: list[tuple[int, int, str]] = field(default_factory=list)

    def snapshot(self) -> Snapshot:
        """Return the backend-neutral snapshot."""
        return Snapshot(self.text, self.revision)


# -- reading: Document JSON -> text + index map (pure) ------------------------------

def units(text: str) -> int:
    """Return the length of ``text`` in UTF-16 code units (an emoji counts 2)."""
    return len(text.encode("utf-16-le")) // 2


def find_tab(document: dict, tab: str = "") -> tuple[dict, str]:
    """Return ``(documentTab or the legacy document, tabId)`` of the tab ``tab`` (id or title; '' = first).

    :raises NotFound: the document has no such tab.
    """
    tabs = list(_all_tabs(document.get("tabs") or []))
    if not tabs:
        if tab and tab != "t.0":
            raise NotFound(f"the document has no tab {tab!r}")
        return document, ""
    if not tab:
        first = tabs[0]
        return first.get("documentTab") or {}, first.get("tabProperties", {}).get("tabId", "")
    for t in tabs:
        props = t.get("tabProperties", {})
        if tab in (props.get("tabId"), props.get("title")):
            return t.get("documentTab") or {}, props.get("tabId", "")
    names = ", ".join(repr(t.get("tabProperties", {}).get("title", "")) for t in tabs)
    raise NotFound(f"the document has no tab {tab!r} (its tabs: {names})")


def _all_tabs(tabs: list):
    for t in tabs:
        yield t
        yield from _all_tabs(t.get("childTabs") or [])


def document_text(document: dict, tab: str = "") -> Read:
    """Return the text of a ``documents.get`` answer (one tab of it) and where each character sits.

    Paragraph text runs become text; table cells are read in order, one paragraph
    per line; section breaks, tables of contents, images and other non-text
    elements are skipped (they leave gaps in the index map, so edits go around
    them).  Suggested insertions are not text yet and are skipped too.  A soft
    line break (vertical tab) reads as a newline; a numbered list item starts with
    its number.

    :raises NotFound: no tab ``tab``.
    """
    source, tab_id = find_tab(document, tab)
    reader = _Reader(source.get("lists") or {})
    reader.content(source.get("body", {}).get("content", []))
    return Read("".join(reader.chars), document.get("revisionId", ""), reader.index, tab_id, reader.virtual,
                reader.fixed, reader.soft, reader.bullets)


class _Reader:
    """Accumulates the text of structural elements (see :func:`document_text`)."""

    def __init__(self, lists: dict):
        self.lists = lists
        self.chars: list[str] = []
        self.index: list[int] = []
        self.virtual: set[int] = set()
        self.fixed: set[int] = set()
        self.soft: set[int] = set()
        self.bullets: list[tuple[int, int, str]] = []
        self.counters: dict[str, list[int]] = {}

    def content(self, elements: list, cell: bool = False) -> None:
        for element in elements or []:
            if "paragraph" in element:
                self.paragraph(element)
            elif "table" in element:
                if self.chars and self.chars[-1] == "\n":
                    self.fixed.add(len(self.chars) - 1)  # the newline before a table stays
                for row in element["table"].get("tableRows", []):
                    for c in row.get("tableCells", []):
                        self.content(c.get("content", []), cell=True)
                        if self.chars and self.chars[-1] == "\n":
                            self.fixed.add(len(self.chars) - 1)

    def paragraph(self, element: dict) -> None:
        para = element["paragraph"]
        start = len(self.chars)
        prefix = self.number(para.get("bullet"))
        if prefix:
            at = next((p["startIndex"] for p in para.get("elements", []) if "startIndex" in p), 0)
            for ch in prefix:
                self.virtual.add(len(self.chars))
                self.chars.append(ch)
                self.index.append(at)
        for part in para.get("elements", []):
            run = part.get("textRun")
            if not run or run.get("suggestedInsertionIds"):
                continue
            at = part.get("startIndex", 0)
            for ch in run.get("content", ""):
                if ch == "\x0b":
                    self.soft.add(len(self.chars))
                self.chars.append("\n" if ch == "\x0b" else ch)
                self.index.append(at)
                at += 2 if ord(ch) > 0xFFFF else 1
        if prefix:
            self.bullets.append((start, len(self.chars) - 1, para["bullet"].get("listId", "")))

    def number(self, bullet: dict | None) -> str:
        """Return the visible number of a list paragraph ("3. "), or '' (no bullet, or not numbered)."""
        if not bullet:
            return ""
        list_id, level = bullet.get("listId", ""), int(bullet.get("nestingLevel") or 0)
        levels = (self.lists.get(list_id, {}).get("listProperties", {}).get("nestingLevels") or [])
        spec = levels[level] if level < len(levels) else {}
        counts = self.counters.setdefault(list_id, [0] * 9)
        counts[level] += 1
        for deeper in range(level + 1, 9):
            counts[deeper] = 0
        if spec.get("glyphType") not in NUMBERED:
            return ""
        glyph = spec.get("glyphFormat") or f"%{level}."
        out = glyph
        for n in range(level, -1, -1):
            start = int((levels[n] if n < len(levels) else {}).get("startNumber") or 1)
            out = out.replace(f"%{n}", str(start + counts[n] - 1))
        return out + " "


# -- writing: old text + new text -> batchUpdate requests (pure) --------------------

def plan(old: Read, new_text: str, styles=None, keep: tuple[list, list] | None = None) -> list[dict]:
    """Return the batchUpdate requests that turn document ``old`` into ``new_text``.

    Numbered list paragraphs the edit touches first get their numbers as plain text.
    Text edits follow, ordered from the end of the document backwards (so each index
    is still valid when its request runs), deletions split around non-text elements,
    never touching the final newline or a table cell's last newline.  Then, if
    ``styles`` is not None, the lines the edit changed get pbd's formatting: bold and
    colour reset and set from the spans, and each changed paragraph's named style
    (heading or normal).  ``keep`` pairs the spans of the players' notes in the old and
    the new text: they are never inside an edit and never restyled.

    :raises BackendError: the document does not end with a newline (not a body segment).
    """
    if not new_text.endswith("\n"):
        new_text += "\n"
    if not old.text.endswith("\n"):
        raise BackendError("the Google Doc does not end with a paragraph; pbd cannot edit it safely")
    fixed = sorted(f for f in old.fixed if f < len(old.text) - 1)
    changes = edits(old.text[:-1], new_text[:-1], keep=keep, fixed=fixed)
    requests, old = _materialise(old, changes)
    requests += _text_requests(old, changes)
    if styles is not None and changes:
        new_index = _new_index(old, changes)
        kept = keep[1] if keep else []
        requests += _style_requests(new_text, new_index, changes, styles, old.text, kept,
                                    _soft_lines(old, changes, new_text), old.tab)
    return requests


def _materialise(old: Read, changes: list[Edit]) -> tuple[list[dict], Read]:
    """Turn the numbers of the list paragraphs ``changes`` touch into text; return the requests and the new read.

    Every paragraph of a list one of whose paragraphs is touched loses its bullet
    (``deleteParagraphBullets``: nothing else moves) and gets its number inserted as
    text, so the numbering the players see stays as it was.
    """
    touched = {lid for s, e, lid in old.bullets if any(c.start <= e and c.end >= s for c in changes)}
    paras = [(s, e, lid) for s, e, lid in old.bullets if lid in touched]
    if not paras:
        return [], old
    tab = {"tabId": old.tab} if old.tab else {}
    requests: list[dict] = []
    for s, e, _ in reversed(paras):
        start = old.index[s]
        end = old.index[e] + 1
        requests.append({"deleteParagraphBullets": {"range": {"startIndex": start, "endIndex": end, **tab}}})
    for s, e, _ in reversed(paras):
        prefix = "".join(old.text[k] for k in range(s, e + 1) if k in old.virtual)
        requests.append({"insertText": {"text": prefix, "location": {"index": old.index[s], **tab}}})
    # the new read: virtual characters of those paragraphs are real now, later indexes shifted
    starts = {s for s, _, _ in paras}
    index, shift, k = [], 0, 0
    while k < len(old.text):
        if k in starts:
            base = old.index[k] + shift
            n = 0
            while k + n < len(old.text) and k + n in old.virtual:
                index.append(base + units("".join(old.text[k:k + n])))
                n += 1
            shift += units(old.text[k:k + n])
            k += n
            continue
        index.append(old.index[k] + shift)
        k += 1
    virtual = {v for v in old.virtual if not any(s <= v <= e for s, e, _ in paras)}
    bullets = [b for b in old.bullets if b[2] not in touched]
    return requests, Read(old.text, old.revision, index, old.tab, virtual, old.fixed, old.soft, bullets)


def _text_requests(old: Read, changes: list[Edit]) -> list[dict]:
    """Return delete/insert requests for ``changes``, from the end backwards."""
    tab = {"tabId": old.tab} if old.tab else {}
    out: list[dict] = []
    for e in reversed(changes):
        for start, end in reversed(_spans(old, e.start, e.end)):
            out.append({"deleteContentRange": {"range": {"startIndex": start, "endIndex": end, **tab}}})
        if e.text:
            out.append({"insertText": {"text": e.text, "location": {"index": old.index[e.start], **tab}}})
    return out


def _spans(old: Read, start: int, end: int) -> list[tuple[int, int]]:
    """Return the contiguous document index ranges holding text characters ``start..end``.

    Virtual characters (list numbers) are not in the document and are left out.
    """
    spans: list[tuple[int, int]] = []
    for k in range(start, end):
        if k in old.virtual:
            continue
        a = old.index[k]
        b = a + units(old.text[k])
        if spans and spans[-1][1] == a:
            spans[-1] = (spans[-1][0], b)
        else:
            spans.append((a, b))
    return spans


def _new_index(old: Read, changes: list[Edit]) -> list[int]:
    """Return each new-text character's document index once ``changes`` are applied."""
    out: list[int] = []
    shift = pos = 0
    for e in changes:
        out.extend(old.index[k] + shift for k in range(pos, e.start))
        at = old.index[e.start] + shift
        for ch in e.text:
            out.append(at)
            at += units(ch)
        shift += units(e.text) - units("".join(old.text[k] for k in range(e.start, e.end) if k not in old.virtual))
        pos = e.end
    out.extend(old.index[k] + shift for k in range(pos, len(old.text)))
    return out


def _soft_lines(old: Read, changes: list[Edit], new_text: str) -> set[int]:
    """Return the new-text offsets of newlines that are soft line breaks (Shift+Enter) kept from ``old``."""
    out, shift, pos = set(), 0, 0
    soft = sorted(old.soft)
    for e in changes:
        out.update(k + shift for k in soft if pos <= k < e.start)
        shift += len(e.text) - (e.end - e.start)
        pos = e.end
    out.update(k + shift for k in soft if k >= pos)
    return {k for k in out if k < len(new_text) and new_text[k] == "\n"}


def _changed_lines(new_text: str, changes: list[Edit], old_text: str) -> tuple[list[tuple[int, int]], set[int]]:
    """Return ``(lines, restyle)``: every line as ``(start, newline offset)``, and which to restyle.

    A line is restyled if an inserted character lies in its text, a deletion
    happened inside it, or its newline was inserted (paragraph style only: that
    case is reported as a negative line number).  Deleting whole lines restyles
    none of the lines around them.
    """
    lines, start = [], 0
    while start < len(new_text):
        nl = new_text.index("\n", start)
        lines.append((start, nl))
        start = nl + 1
    inserted: list[tuple[int, int]] = []
    points: list[int] = []
    shift = 0
    for e in changes:
        at = e.start + shift
        if e.text:
            inserted.append((at, at + len(e.text)))
        elif not _whole_lines(old_text, e):
            points.append(at)
        shift += len(e.text) - (e.end - e.start)
    restyle: set[int] = set()
    for n, (ls, le) in enumerate(lines):
        if any(a < le and b > ls for a, b in inserted) or any(ls <= p <= le for p in points):
            restyle.add(n)
        elif any(a <= le < b for a, b in inserted):
            restyle.add(-n - 1)
    return lines, restyle


def _whole_lines(old_text: str, e: Edit) -> bool:
    """Return True if the pure deletion ``e`` removed whole lines of ``old_text`` only."""
    return (e.start == 0 or old_text[e.start - 1] == "\n") and old_text[e.start:e.end].endswith("\n")


def _style_requests(new_text: str, index: list[int], changes: list[Edit], styles, old_text: str, kept=(),
                    soft=frozenset(), tab: str = "") -> list[dict]:
    """Return updateTextStyle/updateParagraphStyle requests for the changed lines.

    Lines inside ``kept`` spans (players' notes) are never restyled; a paragraph holding a
    soft line break (new-text offsets ``soft``) never gets a paragraph style.
    """
    lines, restyle = _changed_lines(new_text, changes, old_text)
    restyle = {n for n in restyle if not _inside(lines[n if n >= 0 else -n - 1], kept)}
    spans = [(s, e, style) for s, e, style in styles or () if e > s]
    out: list[dict] = []
    where = {"tabId": tab} if tab else {}

    def doc_range(s: int, e: int) -> dict:
        return {"startIndex": index[s], "endIndex": index[e - 1] + units(new_text[e - 1]), **where}

    # text styles, block by block of consecutive changed lines
    n = 0
    while n < len(lines):
        if n not in restyle:
            n += 1
            continue
        m = n
        while m + 1 < len(lines) and m + 1 in restyle:
            m += 1
        bs, be = lines[n][0], lines[m][1]  # be: offset of the block's last newline
        if be > bs:
            out.append({"updateTextStyle": {"range": doc_range(bs, be), "textStyle": {},
                                            "fields": "bold,foregroundColor,fontSize"}})
            for s, e, style in spans:
                cs, ce = max(s, bs), min(e, be)
                if ce <= cs:
                    continue
                text_style = _text_style(style)
                if text_style:
                    out.append({"updateTextStyle": {"range": doc_range(cs, ce), "textStyle": text_style,
                                                    "fields": ",".join(text_style)}})
        n = m + 1
    # paragraph styles, grouped by runs of the same named style; never across a soft line break
    wanted = []
    for n, (ls, le) in enumerate(lines):
        if (n in restyle or -n - 1 in restyle) and le not in soft and ls - 1 not in soft:
            heading = any(style == "heading" and s <= le and e > ls for s, e, style in spans)
            wanted.append((n, HEADING if heading else "NORMAL_TEXT"))
    k = 0
    while k < len(wanted):
        j = k
        while j + 1 < len(wanted) and wanted[j + 1][0] == wanted[j][0] + 1 and wanted[j + 1][1] == wanted[k][1]:
            j += 1
        first, last = lines[wanted[k][0]], lines[wanted[j][0]]
        out.append({"updateParagraphStyle": {"range": doc_range(first[0], last[1] + 1),
                                             "paragraphStyle": {"namedStyleType": wanted[k][1]},
                                             "fields": "namedStyleType"}})
        k = j + 1
    return out


def _inside(line: tuple[int, int], kept) -> bool:
    """Return True if the line ``(start, newline)`` lies within one of the ``kept`` spans."""
    return any(s <= line[0] and line[1] <= e for s, e in kept)


def _text_style(style: str) -> dict:
    """Return the Docs ``TextStyle`` for a span style name ({} for unknown or paragraph styles)."""
    if style == "bold":
        return {"bold": True}
    if style == "machinery":                # the machinery: the last part of the document, small and grey
        return {"foregroundColor": {"color": {"rgbColor": dict(zip(("red", "green", "blue"), COLOURS["Gray"]))}},
                "fontSize": {"magnitude": MACHINERY_PT, "unit": "PT"}}
    rgb = COLOURS.get(style)
    if rgb:
        return {"foregroundColor": {"color": {"rgbColor": dict(zip(("red", "green", "blue"), rgb))}}}
    return {}


# -- the backend --------------------------------------------------------------------

def check_shares(share=(), anyone: str | None = None) -> tuple[str, ...]:
    """Return the addresses to share a new document with, checked before anything is created.

    Each entry may hold several addresses separated by commas or spaces.

    :raises UsageError: an address that is not an email address, or an unknown role.
    """
    out: list[str] = []
    for entry in share or ():
        for address in re.split(r"[,;\s]+", str(entry).strip()):
            if not address:
                continue
            if not EMAIL.match(address):
                raise UsageError(f"--share {address!r} is not an email address; no document was created",
                                 hint="for example: --share ben@example.com (repeat --share for several people)")
            if address.casefold() not in {a.casefold() for a in out}:
                out.append(address)
    if anyone is not None and anyone not in ROLES:
        raise UsageError(f"--share-anyone-with-link takes {', '.join(ROLES)}, not {anyone!r}")
    return tuple(out)


class GoogleDocument:
    """A match document in Google Docs (``gdoc:ID``, a Docs URL, or ``gdoc:new``)."""

    styled = True

    def __init__(self, gid: str, *, title: str | None = None, share=(), tab: str | None = None,
                 anyone: str | None = None, **_options):
        self.gid = None if gid == "new" else gid
        self.title = title or "pbd match"
        self.share = check_shares(share, anyone)
        self.anyone = anyone
        self.tab = tab or ""
        self.label = self._url() if self.gid else "gdoc:new"
        self._reads: dict[str, Read] = {}
        self._fresh: Read | None = None
        self._refusals = 0
        self._http = None

    def _url(self) -> str:
        return URL.format(self.gid) + (f"?tab={self.tab}" if self.tab.startswith("t.") else "")

    # -- protocol -------------------------------------------------------------------

    def exists(self) -> bool:
        """Return True if the document exists and can be read.

        :raises BackendError: Google cannot be reached or refuses for another reason.
        """
        if self.gid is None:
            return False
        try:
            self._read()
        except NotFound:
            return False
        return True

    def read(self) -> Snapshot:
        """Return the document's text and revisionId.

        A read made moments ago by a refused write (see :meth:`write`) is handed out
        instead of asking Google again.

        :raises BackendError: Google cannot be reached, or the document cannot be read.
        :raises AuthError: the credentials are missing or refused.
        """
        fresh, self._fresh = self._fresh, None
        return (fresh or self._read()).snapshot()

    def modified(self) -> float:
        """Return when the document was last changed, as Google Drive reports it (``modifiedTime``, epoch seconds).

        The time a forfeit's patience is measured by (:mod:`pbd.forfeit`), never a time typed into the text.

        :raises BackendError: Drive cannot be reached, or does not tell this account (an account whose
            only scopes are ``documents`` and ``drive.file`` may not see a document another player created).
        :raises AuthError: the credentials are missing or refused.
        """
        from datetime import datetime

        try:
            answer = self._call(lambda: self._drive_api().files().get(fileId=self.gid, fields="modifiedTime"))
        except (NotFound, AuthError) as exc:
            raise BackendError(f"Google Drive does not tell this account when {self.label} last changed "
                               f"({exc.message})", hint="the player who created the document can tell; an account "
                               "with only the documents and drive.file scopes may not see another's file") from None
        stamp = (answer or {}).get("modifiedTime", "")
        try:
            return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
        except (ValueError, AttributeError):
            raise BackendError(f"Google Drive did not say when {self.label} last changed "
                               f"(modifiedTime {str(stamp)[:40]!r})") from None

    def peek(self) -> Snapshot:
        """Return the document as :meth:`read` would, and keep that read for the next :meth:`read`.

        After a refused write the pipeline looks for its own log entry here, then reads again
        to retry: one documents.get serves both.

        :raises BackendError: Google cannot be reached, or the document cannot be read.
        """
        if self._fresh is None:
            self._fresh = self._read()
        return self._fresh.snapshot()

    def write(self, text: str, base: Snapshot | None, styles=None) -> Snapshot:
        """Apply the minimal edit from ``base`` to ``text`` as one guarded batchUpdate.

        ``base=None`` creates the document (``gdoc:new``) or fills an empty one;
        then shares it with every ``share`` address as writer (and with anyone who
        has the link, as ``anyone``).  ``new`` with ``tab`` puts the board in that
        tab of an existing document, adding the tab if there is none of that name.

        :raises StaleRevision: the document changed since ``base`` (the other player edited it).
        :raises WriteUncertain: Google's answer was lost: the write may have landed.
        :raises BackendError: Google failed or refused; the document was not changed.
        :raises AuthError: the credentials are missing, refused or read-only.
        """
        if base is None and self.gid is None:
            return self._create(text, styles)
        if base is None:
            current = self._read_for_new()
            if current.text.strip():
                raise StaleRevision(f"{self.label} already has something in it")
        else:
            current = self._reads.get(base.revision) or self._read()
            if current.revision != base.revision:
                raise StaleRevision(f"{self.label} changed since pbd read it (the other player edited it)")
        snap = self._guarded_write(current, text, styles)
        if base is None:
            self._share_all()
        return snap

    # -- internals --------------------------------------------------------------------

    def _read(self) -> Read:
        answer = self._call(lambda: self._api().get(
            documentId=self.gid, includeTabsContent=True, suggestionsViewMode="SUGGESTIONS_INLINE", fields=FIELDS))
        read = document_text(answer, self.tab)
        if read.tab and self.tab and not self.tab.startswith("t."):
            self.tab = read.tab  # a tab named by its title: keep its id from now on
            self.label = self._url()
        self._reads = {read.revision: read}
        return read

    def _read_for_new(self) -> Read:
        """Return the (empty) place ``new`` writes to: the tab named ``tab``, added if missing."""
        try:
            return self._read()
        except NotFound:
            if not self.tab or self.tab.startswith("t."):
                raise
        title = self.tab
        answer = self._call(lambda: self._api().batchUpdate(documentId=self.gid, body={
            "requests": [{"addDocumentTab": {"tabProperties": {"title": title}}}]}), write=True)
        replies = answer.get("replies") or [{}]
        self.tab = (replies[0].get("addDocumentTab") or {}).get("tabProperties", {}).get("tabId") or title
        self.label = self._url()
        return self._read()

    def _guarded_write(self, current: Read, text: str, styles) -> Snapshot:
        wanted = text if text.endswith("\n") else text + "\n"
        keep = _keep(current.text, wanted)
        requests = plan(current, wanted, styles, keep)
        if not requests:
            return current.snapshot()
        if not current.revision:
            raise BackendError(f"Google Docs gave no revision for {self.label}, so pbd cannot guard its write "
                               "against the other player's edits; it was not changed", hint="try again")
        self._check_can_write()
        body = {"requests": requests, "writeControl": {"requiredRevisionId": current.revision}}
        try:
            answer = self._call(lambda: self._api().batchUpdate(documentId=self.gid, body=body),
                                write=True)
        except BadRequest as exc:
            return self._after_refusal(current, wanted, exc)
        except _Failed as exc:
            if not exc.uncertain:
                raise BackendError(f"{exc.message}; {self.label} was not changed", hint=exc.hint) from None
            return self._after_lost_answer(current, wanted, exc)
        revision = (answer.get("writeControl") or {}).get("requiredRevisionId") or ""
        return Snapshot(wanted, revision)

    def _after_refusal(self, current: Read, wanted: str, exc: BadRequest) -> Snapshot:
        """Decide what a 400 on a guarded write meant: stale (the usual), our own earlier attempt, or a real error."""
        uncertain = getattr(self, "_uncertain", False)
        if not uncertain:
            self._refusals += 1
            BACKOFF.sleep(BACKOFF.refused(self._refusals))
        now = self._read()
        if now.text == wanted:  # an earlier attempt of ours landed before an error answer
            return now.snapshot()
        if uncertain:
            raise self._uncertain_error(exc.message)
        if now.revision != current.revision:
            self._fresh = now  # the pipeline's next read: no second documents.get
            stale = StaleRevision(f"{self.label} changed since pbd read it (the other player edited it)")
            stale.sent = True       # our write went out: a copy of it may have landed before (httplib2 re-sends)
            raise stale
        raise BackendError(f"Google Docs refused the edit: {exc.message}; {self.label} was not changed")

    def _after_lost_answer(self, current: Read, wanted: str, exc: _Failed) -> Snapshot:
        """Tell what became of a write whose answers were all lost: landed, not landed, or unknown."""
        try:
            now = self._read()
        except PbdError:
            raise self._uncertain_error(exc.message) from None
        if now.text == wanted:
            return now.snapshot()
        if now.revision == current.revision:
            raise BackendError(f"{exc.message}; {self.label} was not changed", hint=exc.hint)
        raise self._uncertain_error(exc.message)

    def _uncertain_error(self, message: str) -> WriteUncertain:
        return WriteUncertain(f"Google Docs did not confirm the edit of {self.label} ({message}), and the "
                              "document has changed since: the edit may or may not have landed",
                              hint="pbd looks for its own log entry before trying again")

    def _check_can_write(self) -> None:
        """Refuse early when the sign-in is read-only (a spectator's).

        :raises AuthError: the credentials carry no scope that lets pbd edit documents.
        """
        creds = self._signed().credentials
        from pbd import auth

        missing = auth.write_scopes_missing(creds)
        if missing:
            raise AuthError(f"your Google sign-in is read-only ({missing}): it can show matches but not play them",
                            hint="to play, sign in with: pbd auth login")

    def _create(self, text: str, styles) -> Snapshot:
        self.create_empty()
        try:
            current = self._read()
            snap = self._guarded_write(current, text, styles)
            self._share_all()
        except WriteUncertain:
            raise
        except PbdError:
            self._discard()
            raise
        return snap

    def create_empty(self) -> None:
        """Create the (empty) document now, for ``gdoc:new``; fills :attr:`gid` and :attr:`label`.

        It is created through Drive with a private tag (``appProperties``); if Google's
        answer is lost, the tagged file is looked up before trying again, so no second
        document is ever made.

        :raises BackendError: Google failed or refused.
        :raises WriteUncertain: Google kept failing and it cannot be told whether the document exists.
        """
        if self.gid is not None:
            return
        tag = secrets.token_hex(12)
        body = {"name": self.title, "mimeType": DOC_MIME, "appProperties": {TAG: tag}}
        for attempt in range(BACKOFF.attempts):
            try:
                answer = self._call(lambda: self._drive_api().files().create(body=body, fields="id"),
                                    attempts=1, write=True)
                self.gid = answer["id"]
                break
            except _Failed as exc:
                found = self._find_tagged(tag) if exc.uncertain else None
                if found:
                    self.gid = found
                    break
                if attempt + 1 >= BACKOFF.attempts:
                    if exc.uncertain:
                        raise WriteUncertain(f"Google Drive did not confirm creating the document ({exc.message}) "
                                             f"and it cannot be found yet; look in your Drive for '{self.title}'",
                                             hint="delete it if it is empty, then run the command again") from None
                    raise
                BACKOFF.sleep(BACKOFF.delay(attempt))
        self.label = self._url()

    def _find_tagged(self, tag: str) -> str | None:
        """Return the id of the file pbd tagged with ``tag`` while creating it, if it exists."""
        query = f"appProperties has {{ key='{TAG}' and value='{tag}' }} and trashed = false"
        try:
            answer = self._call(lambda: self._drive_api().files().list(q=query, fields="files(id)", spaces="drive"))
        except PbdError:
            return None
        files = answer.get("files") or []
        return files[0]["id"] if files else None

    def discard(self) -> None:
        """Delete the document (best effort): undo a creation when the command failed."""
        if self.gid is not None:
            self._discard()

    def _share_all(self) -> None:
        bodies = [{"type": "user", "role": "writer", "emailAddress": email} for email in self.share]
        if self.anyone:
            bodies.append({"type": "anyone", "role": self.anyone, "allowFileDiscovery": False})
        for body in bodies:
            notify = body["type"] == "user"
            self._call(lambda body=body, notify=notify: self._drive_api().permissions().create(
                fileId=self.gid, body=body, fields="id", **({"sendNotificationEmail": True} if notify else {})),
                write=True)

    def _discard(self) -> None:
        """Delete a document we just created (best effort, after a failed write)."""
        try:
            self._call(lambda: self._drive_api().files().delete(fileId=self.gid), attempts=1)
        except PbdError:
            pass

    def _api(self):
        """Return the Docs API's ``documents`` collection (see :func:`collection`)."""
        return collection("docs", "v1", "documents")

    def _drive_api(self):
        return collection("drive", "v3")

    def _signed(self):
        """Return this document's HTTP client, signed with the credentials read at its first call.

        :raises AuthError: no usable credentials (real Google only).
        """
        if self._http is None:
            self._http = authorized_http()
        return self._http

    def _call(self, make, attempts: int | None = None, write: bool = False) -> dict:
        """Execute ``make()``'s request, retrying transient failures with backoff.

        With ``write``, a 5xx or a network failure after the request was sent marks the
        write as uncertain (:attr:`_uncertain`; it may have been applied).

        :raises NotFound: 404.  :raises BadRequest: 400.
        :raises AuthError: 401, 403 for scopes, or refused credentials.
        :raises _Failed: retries exhausted (``uncertain`` set for a write that may have landed).
        :raises BackendError: anything else.
        """
        import httplib2
        from google.auth.exceptions import InvalidOperation, RefreshError, TransportError
        from googleapiclient.errors import HttpError

        attempts = attempts or BACKOFF.attempts
        self._uncertain = False
        for attempt in range(attempts):
            last = attempt + 1 >= attempts
            try:
                return make().execute(http=self._signed(), num_retries=0) or {}
            except HttpError as exc:
                status = int(exc.resp.status)
                if status in TRANSIENT or _rate_limited(status, exc):
                    self._uncertain |= write and status in UNCERTAIN
                    wait = _retry_after(exc)
                    if not last and (wait is None or wait <= BACKOFF.longest):
                        BACKOFF.sleep(BACKOFF.delay(attempt, wait))
                        continue
                    raise self._exhausted(status, _message(exc), attempt + 1, wait) from None
                raise self._http_error(status, _message(exc)) from None
            except (RefreshError, InvalidOperation):  # InvalidOperation: anonymous credentials got a 401
                from pbd import auth

                raise AuthError(auth.EXPIRED, hint="run: pbd auth login") from None
            except (TransportError, OSError, httplib2.HttpLib2Error) as exc:
                self._uncertain |= write
                if not last:
                    BACKOFF.sleep(BACKOFF.delay(attempt))
                    continue
                raise _Failed(f"cannot reach Google Docs ({type(exc).__name__}: {exc})", self._uncertain,
                              hint="check your network connection") from None
        raise AssertionError("unreachable")

    def _exhausted(self, status: int, message: str, tries: int, wait: float | None) -> _Failed:
        if wait is not None and wait > BACKOFF.longest:
            return _Failed(f"Google Docs asks pbd to wait {wait:.0f} s before trying again (HTTP {status}: "
                           f"{message})", self._uncertain, hint="try again later")
        return _Failed(f"Google Docs kept failing (HTTP {status}, {tries} tries): {message}", self._uncertain,
                       hint="try again in a minute")

    def _http_error(self, status: int, message: str) -> BackendError:
        if status == 400:
            return BadRequest(message)
        if status == 401:
            return AuthError(f"Google did not accept the credentials: {message}", hint="run: pbd auth login")
        if status == 403:
            if "scope" in message.lower():
                return AuthError(f"the saved sign-in lacks a permission pbd needs: {message}",
                                 hint="run: pbd auth login (and tick every box on Google's consent screen)")
            return BackendError(f"no permission to edit {self.label}: {message}",
                                hint="ask the document's owner to share it with you as editor")
        if status == 404:
            return NotFound(f"no such Google Doc: {self.label} (or it is not shared with you)")
        return BackendError(f"Google Docs answered HTTP {status}: {message}")


def _keep(old: str, new: str) -> tuple[list, list] | None:
    """Return the players' notes in ``old`` and ``new`` (spans to keep untouched), if any."""
    from pbd.games.base import note_spans

    a, b = note_spans(old), note_spans(new)
    return (a, b) if a and b else None


def _retry_after(exc) -> float | None:
    """Return the seconds a ``Retry-After`` header asks for (a number or an HTTP date), if any."""
    value = None
    try:
        value = exc.resp.get("retry-after")
    except AttributeError:
        return None
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    import datetime as _dt

    return max(0.0, (when - _dt.datetime.now(_dt.UTC)).total_seconds())


def _rate_limited(status: int, exc) -> bool:
    """Return True for Drive's way of saying "slow down": a 403 whose reason is a rate limit."""
    if status != 403:
        return False
    try:
        content = exc.content.decode("utf-8", "replace")
    except AttributeError:
        return False
    return any(reason in content for reason in ("rateLimitExceeded", "userRateLimitExceeded",
                                                "sharingRateLimitExceeded", "RATE_LIMIT_EXCEEDED"))


def _message(exc) -> str:
    """Return the human message of a googleapiclient HttpError (never its headers or URI)."""
    try:
        data = json.loads(exc.content.decode("utf-8", "replace"))
        return str(data["error"]["message"] if isinstance(data["error"], dict) else data["error"])
    except (ValueError, KeyError, TypeError, AttributeError):
        return getattr(exc, "reason", "") or f"HTTP {exc.resp.status}"


#: API services and collections built in this process (see :func:`collection`), by API and endpoint.
_BUILT: dict[tuple, object] = {}


def collection(name: str, version: str, which: str | None = None):
    """Return the service ``name`` ``version`` (or its collection ``which``), built once per process.

    googleapiclient makes every method of a collection anew, with its documentation,
    each time the collection is asked for: about 50 ms of CPU for Docs' ``documents``,
    140 ms the first time on a service, where a request itself costs under 1 ms.  What
    it builds holds no credentials pbd uses: every request is executed with the
    command's own :func:`authorized_http` (``execute(http=...)``), so a request sent
    without it goes out unsigned and is refused rather than sent as someone else.
    """
    import httplib2
    from googleapiclient.discovery import build

    emulator = os.environ.get("PBD_DOCS_EMULATOR_HOST", "").strip()
    key = (name, version, emulator)
    service = _BUILT.get(key)
    if service is None:
        for other in [k for k in _BUILT if k[2] != emulator]:   # another endpoint (an earlier test's server)
            del _BUILT[other]
        options = None
        if emulator:
            path = "drive/v3/" if name == "drive" else ""
            options = {"api_endpoint": f"http://{emulator.rstrip('/')}/{path}"}
        service = _BUILT[key] = build(name, version, http=httplib2.Http(timeout=TIMEOUT), static_discovery=True,
                                      cache_discovery=False, client_options=options)
    if which is None:
        return service
    if (*key, which) not in _BUILT:
        _BUILT[(*key, which)] = getattr(service, which)()
    return _BUILT[(*key, which)]


def authorized_http():
    """Return an HTTP client signed with the saved credentials (read now, an expired token refreshed).

    With the emulator, the saved sign-in is used if there is one (its scopes are checked
    by the test server), else anonymous credentials.

    :raises AuthError: no usable credentials (real Google only).
    """
    import google_auth_httplib2
    import httplib2

    from pbd import auth

    if os.environ.get("PBD_DOCS_EMULATOR_HOST", "").strip() and not auth.signed_in():
        from google.auth.credentials import AnonymousCredentials

        credentials = AnonymousCredentials()
    else:
        credentials = auth.credentials()
    return google_auth_httplib2.AuthorizedHttp(credentials, http=httplib2.Http(timeout=TIMEOUT))
