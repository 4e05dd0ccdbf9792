"""The Google Docs backend: a match document that lives in Google Drive.

Reading turns ``documents.get`` into plain text plus, for every character, its
index in the document (UTF-16 code units, the Docs API's unit).  Writing sends the
minimal edit between the text read and the new text (:mod:`pbd.documents.diff`) as
ONE ``documents.batchUpdate``, deletes and inserts ordered from the end backwards,
guarded by ``writeControl.requiredRevisionId`` so that an edit made by the other
player in between is never overwritten: the write is refused and pbd replays the
move on the new board.  Styles (headings, bold, class colours) are applied only to
lines the write changed; untouched text keeps its formatting and comments.

``PBD_DOCS_EMULATOR_HOST=host:port`` sends every call to a local Docs/Drive API
server over plain HTTP with anonymous credentials (tests, benchmarks).
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pbd.documents import Snapshot
from pbd.documents.diff import Edit, edits
from pbd.errors import AuthError, BackendError, PbdError, StaleRevision

URL = "https://docs.google.com/document/d/{}/edit"
#: Seconds before an HTTP request to Google is abandoned.
TIMEOUT = 30
#: HTTP statuses worth retrying (quota and server trouble).
TRANSIENT = frozenset({429, 500, 502, 503, 504})
#: Paragraph style used for spans styled "heading".
HEADING = "HEADING_2"
#: Text colours for the rulebook's character classes (readable on white).
COLOURS = {
    "Blue": (0.07, 0.33, 0.80), "Gray": (0.45, 0.45, 0.45), "Grey": (0.45, 0.45, 0.45),
    "Yellow": (0.72, 0.56, 0.0), "Green": (0.13, 0.55, 0.13), "Orange": (0.90, 0.45, 0.0),
    "Red": (0.80, 0.0, 0.0), "Black": (0.0, 0.0, 0.0),
}


@dataclass
class Backoff:
    """How transient failures are retried: exponential delays with jitter, bounded."""

    attempts: int = 5
    base: float = 0.5
    cap: float = 8.0
    sleep: Callable[[float], None] = time.sleep

    def delay(self, attempt: int) -> float:
        """Return the pause before retry number ``attempt`` (0-based), jittered."""
        return min(self.cap, self.base * 2 ** attempt) * (0.5 + random.random() / 2)


#: The retry policy (tests replace it with one that does not sleep).
BACKOFF = Backoff()


class NotFound(BackendError):
    """The document does not exist, or is not shared with this account."""


class BadRequest(BackendError):
    """Google refused a request (HTTP 400); on a guarded write it may mean "stale"."""


@dataclass
class Read:
    """A document as read: text, revision, and each character's index in the document."""

    text: str
    revision: str
    index: list[int] = field(default_factory=list)

    def snapshot(self) -> Snapshot:
        """Return the backend-neutral snapshot."""
        return Snapshot(self.text, self.revision)


# -- reading: Document JSON -> text + index map (pure) ------------------------------

def units(text: str) -> int:
    """Return the length of ``text`` in UTF-16 code units (an emoji counts 2)."""
    return len(text.encode("utf-16-le")) // 2


def document_text(document: dict) -> Read:
    """Return the text of a ``documents.get`` answer and where each character sits.

    Paragraph text runs become text; table cells are read in order, one paragraph
    per line; section breaks, tables of contents, images and other non-text
    elements are skipped (they leave gaps in the index map, so edits go around
    them).  Suggested insertions are not text yet and are skipped too.  A soft
    line break (vertical tab) reads as a newline.
    """
    chars: list[str] = []
    index: list[int] = []
    _content(document.get("body", {}).get("content", []), chars, index)
    return Read("".join(chars), document.get("revisionId", ""), index)


def _content(elements: list, chars: list[str], index: list[int]) -> None:
    for element in elements or []:
        if "paragraph" in element:
            for part in element["paragraph"].get("elements", []):
                run = part.get("textRun")
                if not run or run.get("suggestedInsertionIds"):
                    continue
                at = part.get("startIndex", 0)
                for ch in run.get("content", ""):
                    chars.append("\n" if ch == "\x0b" else ch)
                    index.append(at)
                    at += 2 if ord(ch) > 0xFFFF else 1
        elif "table" in element:
            for row in element["table"].get("tableRows", []):
                for cell in row.get("tableCells", []):
                    _content(cell.get("content", []), chars, index)


# -- writing: old text + new text -> batchUpdate requests (pure) --------------------

def plan(old: Read, new_text: str, styles=None) -> list[dict]:
    """Return the batchUpdate requests that turn document ``old`` into ``new_text``.

    Text edits come first, ordered from the end of the document backwards (so each
    index is still valid when its request runs), deletions split around non-text
    elements, never touching the final newline.  Then, if ``styles`` is not None,
    the lines the edit changed get pbd's formatting: bold and colour reset and set
    from the spans, and each changed paragraph's named style (heading or normal).

    :raises BackendError: the document does not end with a newline (not a body segment).
    """
    if not new_text.endswith("\n"):
        new_text += "\n"
    if not old.text.endswith("\n"):
        raise BackendError("the Google Doc does not end with a paragraph; pbd cannot edit it safely")
    changes = edits(old.text[:-1], new_text[:-1])
    requests = _text_requests(old, changes)
    if styles is not None and changes:
        new_index = _new_index(old, changes)
        requests += _style_requests(new_text, new_index, changes, styles)
    return requests


def _text_requests(old: Read, changes: list[Edit]) -> list[dict]:
    """Return delete/insert requests for ``changes``, from the end backwards."""
    out: list[dict] = []
    for e in reversed(changes):
        for start, end in reversed(_spans(old, e.start, e.end)):
            out.append({"deleteContentRange": {"range": {"startIndex": start, "endIndex": end}}})
        if e.text:
            out.append({"insertText": {"text": e.text, "location": {"index": old.index[e.start]}}})
    return out


def _spans(old: Read, start: int, end: int) -> list[tuple[int, int]]:
    """Return the contiguous document index ranges holding text characters ``start..end``."""
    spans: list[tuple[int, int]] = []
    for k in range(start, end):
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
        shift += units(e.text) - units(old.text[e.start:e.end])
        pos = e.end
    out.extend(old.index[k] + shift for k in range(pos, len(old.text)))
    return out


def _changed_lines(new_text: str, changes: list[Edit]) -> tuple[list[tuple[int, int]], set[int]]:
    """Return ``(lines, restyle)``: every line as ``(start, newline offset)``, and which to restyle.

    A line is restyled if an inserted character lies in its text, a deletion
    happened inside it, or its newline was inserted (paragraph style only: that
    case is reported as a negative line number).
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
        else:
            points.append(at)
        shift += len(e.text) - (e.end - e.start)
    restyle: set[int] = set()
    for n, (ls, le) in enumerate(lines):
        if any(a < le and b > ls for a, b in inserted) or any(ls <= p <= le for p in points):
            restyle.add(n)
        elif any(a <= le < b for a, b in inserted):
            restyle.add(-n - 1)
    return lines, restyle


def _style_requests(new_text: str, index: list[int], changes: list[Edit], styles) -> list[dict]:
    """Return updateTextStyle/updateParagraphStyle requests for the changed lines."""
    lines, restyle = _changed_lines(new_text, changes)
    spans = [(s, e, style) for s, e, style in styles or () if e > s]
    out: list[dict] = []

    def doc_range(s: int, e: int) -> dict:
        return {"startIndex": index[s], "endIndex": index[e - 1] + units(new_text[e - 1])}

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
                                            "fields": "bold,foregroundColor"}})
            for s, e, style in spans:
                cs, ce = max(s, bs), min(e, be)
                if ce <= cs:
                    continue
                text_style = _text_style(style)
                if text_style:
                    out.append({"updateTextStyle": {"range": doc_range(cs, ce), "textStyle": text_style,
                                                    "fields": ",".join(text_style)}})
        n = m + 1
    # paragraph styles, grouped by runs of the same named style
    wanted = []
    for n, (ls, le) in enumerate(lines):
        if n in restyle or -n - 1 in restyle:
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


def _text_style(style: str) -> dict:
    """Return the Docs ``TextStyle`` for a span style name ({} for unknown or paragraph styles)."""
    if style == "bold":
        return {"bold": True}
    rgb = COLOURS.get(style)
    if rgb:
        return {"foregroundColor": {"color": {"rgbColor": dict(zip(("red", "green", "blue"), rgb))}}}
    return {}


# -- the backend --------------------------------------------------------------------

class GoogleDocument:
    """A match document in Google Docs (``gdoc:ID``, a Docs URL, or ``gdoc:new``)."""

    def __init__(self, gid: str, *, title: str | None = None, share=(), **_options):
        self.gid = None if gid == "new" else gid
        self.title = title or "pbd match"
        self.share = tuple(share or ())
        self.label = URL.format(gid) if self.gid else "gdoc:new"
        self._reads: dict[str, Read] = {}
        self._docs = self._drive = None

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

        :raises BackendError: Google cannot be reached, or the document cannot be read.
        :raises AuthError: the credentials are missing or refused.
        """
        return self._read().snapshot()

    def write(self, text: str, base: Snapshot | None, styles=None) -> Snapshot:
        """Apply the minimal edit from ``base`` to ``text`` as one guarded batchUpdate.

        ``base=None`` creates the document (``gdoc:new``) or fills an empty one;
        then shares it with every ``share`` address as writer.

        :raises StaleRevision: the document changed since ``base`` (the other player edited it).
        :raises BackendError: Google failed or refused; nothing was written.
        :raises AuthError: the credentials are missing or refused.
        """
        if base is None and self.gid is None:
            return self._create(text, styles)
        if base is None:
            current = self._read()
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
        answer = self._call(lambda: self._api().documents().get(documentId=self.gid))
        read = document_text(answer)
        self._reads = {read.revision: read}
        return read

    def _guarded_write(self, current: Read, text: str, styles) -> Snapshot:
        wanted = text if text.endswith("\n") else text + "\n"
        requests = plan(current, wanted, styles)
        if not requests:
            return current.snapshot()
        body = {"requests": requests, "writeControl": {"requiredRevisionId": current.revision}}
        try:
            answer = self._call(lambda: self._api().documents().batchUpdate(documentId=self.gid, body=body))
        except BadRequest as exc:
            now = self._read()
            if now.text == wanted:  # an earlier attempt of ours landed before an error answer
                return now.snapshot()
            if now.revision != current.revision:
                raise StaleRevision(f"{self.label} changed since pbd read it (the other player edited it)") from None
            raise BackendError(f"Google Docs refused the edit: {exc.message}") from None
        revision = (answer.get("writeControl") or {}).get("requiredRevisionId") or ""
        return Snapshot(wanted, revision)

    def _create(self, text: str, styles) -> Snapshot:
        answer = self._call(lambda: self._api().documents().create(body={"title": self.title}))
        self.gid = answer["documentId"]
        self.label = URL.format(self.gid)
        try:
            current = document_text(answer) if answer.get("revisionId") else self._read()
            snap = self._guarded_write(current, text, styles)
            self._share_all()
        except PbdError:
            self._discard()
            raise
        return snap

    def create_empty(self) -> None:
        """Create the (empty) document now, for ``gdoc:new``; fills :attr:`gid` and :attr:`label`.

        :raises BackendError: Google failed or refused.
        """
        if self.gid is None:
            answer = self._call(lambda: self._api().documents().create(body={"title": self.title}))
            self.gid = answer["documentId"]
            self.label = URL.format(self.gid)

    def discard(self) -> None:
        """Delete the document (best effort): undo a creation when the command failed."""
        if self.gid is not None:
            self._discard()

    def _share_all(self) -> None:
        for email in self.share:
            body = {"type": "user", "role": "writer", "emailAddress": email}
            self._call(lambda body=body: self._drive_api().permissions().create(
                fileId=self.gid, body=body, sendNotificationEmail=True, fields="id"))

    def _discard(self) -> None:
        """Delete a document we just created (best effort, after a failed write)."""
        try:
            self._call(lambda: self._drive_api().files().delete(fileId=self.gid), attempts=1)
        except PbdError:
            pass

    def _api(self):
        if self._docs is None:
            self._docs = build_service("docs", "v1")
        return self._docs

    def _drive_api(self):
        if self._drive is None:
            self._drive = build_service("drive", "v3")
        return self._drive

    def _call(self, make, attempts: int | None = None) -> dict:
        """Execute ``make()``'s request, retrying transient failures with backoff.

        :raises NotFound: 404.  :raises BadRequest: 400.
        :raises AuthError: 401, 403 for scopes, or refused credentials.
        :raises BackendError: anything else, or retries exhausted.
        """
        import httplib2
        from google.auth.exceptions import InvalidOperation, RefreshError, TransportError
        from googleapiclient.errors import HttpError

        attempts = attempts or BACKOFF.attempts
        for attempt in range(attempts):
            last = attempt + 1 >= attempts
            try:
                return make().execute(num_retries=0) or {}
            except HttpError as exc:
                status = int(exc.resp.status)
                if (status in TRANSIENT or _rate_limited(status, exc)) and not last:
                    BACKOFF.sleep(BACKOFF.delay(attempt))
                    continue
                raise self._http_error(status, _message(exc), attempt + 1) from None
            except (RefreshError, InvalidOperation):  # InvalidOperation: anonymous credentials got a 401
                raise AuthError("Google refused the saved sign-in (expired or revoked)",
                                hint="run: pbd auth login") from None
            except (TransportError, OSError, httplib2.HttpLib2Error) as exc:
                if not last:
                    BACKOFF.sleep(BACKOFF.delay(attempt))
                    continue
                raise BackendError(f"cannot reach Google Docs ({type(exc).__name__}: {exc}); "
                                   "nothing was changed", hint="check your network connection") from None
        raise AssertionError("unreachable")

    def _http_error(self, status: int, message: str, tries: int) -> BackendError:
        if status == 400:
            return BadRequest(message)
        if status == 401:
            return AuthError(f"Google did not accept the credentials: {message}", hint="run: pbd auth login")
        if status == 403:
            if "scope" in message.lower():
                return AuthError(f"the saved sign-in lacks a permission pbd needs: {message}",
                                 hint="run: pbd auth login")
            return BackendError(f"no permission to edit {self.label}: {message}",
                                hint="ask the document's owner to share it with you as editor")
        if status == 404:
            return NotFound(f"no such Google Doc: {self.label} (or it is not shared with you)")
        if status in TRANSIENT:
            return BackendError(f"Google Docs kept failing (HTTP {status}, {tries} tries): {message}; "
                                "nothing was changed", hint="try again in a minute")
        return BackendError(f"Google Docs answered HTTP {status}: {message}")


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


def build_service(name: str, version: str):
    """Return a googleapiclient service (static discovery), pointed at the emulator if one is set.

    :raises AuthError: no usable credentials (real Google only).
    """
    import google_auth_httplib2
    import httplib2
    from googleapiclient.discovery import build

    emulator = os.environ.get("PBD_DOCS_EMULATOR_HOST", "").strip()
    if emulator:
        from google.auth.credentials import AnonymousCredentials

        credentials = AnonymousCredentials()
        path = "drive/v3/" if name == "drive" else ""
        options = {"api_endpoint": f"http://{emulator.rstrip('/')}/{path}"}
    else:
        from pbd import auth

        credentials = auth.credentials()
        options = None
    http = google_auth_httplib2.AuthorizedHttp(credentials, http=httplib2.Http(timeout=TIMEOUT))
    return build(name, version, http=http, static_discovery=True, cache_discovery=False, client_options=options)
