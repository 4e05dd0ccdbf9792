"""A local Google Docs + Drive API server for tests (stdlib only, 127.0.0.1, free port).

pbd talks to it through the real google-api-python-client (static discovery,
``client_options={"api_endpoint": ...}``), selected by ``PBD_DOCS_EMULATOR_HOST``.
It keeps the semantics pbd relies on, as the Docs v1 and Drive v3 discovery documents
shipped with googleapiclient (``discovery_cache/documents/docs.v1.json``, revision
20261006, and ``drive.v3.json``) and Google's guides describe them:

* indexes in UTF-16 code units, the body starting at index 1 after a section break;
* paragraphs split on newlines, text runs keeping their text style, paragraph styles
  kept on each paragraph's newline;
* the segment's final newline cannot be deleted (400), nor can text be inserted after it;
* a new ``revisionId`` per write, and a stale ``writeControl.requiredRevisionId`` refused
  with a 400 shaped like Google's error JSON;
* atomic batches: every request is validated and applied on a copy, committed only if
  all succeed;
* request bodies checked against the API's discovery schemas (unknown field names and
  wrong types are refused with Google's "Invalid JSON payload received" 400);
* Drive ``files.create/get/delete/list`` (``appProperties`` kept and searchable with
  ``appProperties has { key='K' and value='V' }``, as Drive's search-files guide shows) and
  ``permissions.create``, and an OAuth token endpoint (``/token``), consent page
  (``/auth``) and ``/tokeninfo`` so refresh, revocation and scopes can be tested offline.

What people put in real documents, each following the reference:

* **Tabs** (guide "Work with tabs", developers.google.com/docs/api/how-tos/tabs): with
  ``includeTabsContent=true`` the content is in ``tabs[].documentTab`` and the legacy
  ``body`` is left out; without it, ``body`` is the first tab.  ``Location.tabId``,
  ``Range.tabId`` and ``EndOfSegmentLocation.tabId`` pick the tab ("When omitted, the
  request is applied to the first tab"); ``addDocumentTab`` adds one.
* **Tables** (``DeleteContentRangeRequest.range``: refused are "Deleting the last newline
  character of a ... TableCell", "Deleting the start or end of a Table ... without deleting
  the entire element", "Deleting the newline character before a Table"; ``InsertTextRequest``
  "Text must be inserted inside the bounds of an existing Paragraph. For instance, text
  cannot be inserted at a table's start index").  A table takes one index, each row one,
  each cell one, then the cell's paragraphs (``TableCell.startIndex``).
* **Suggestions** (guide "Work with suggestions"; ``Document.suggestionsViewMode``: "When
  editing a document, changes must be based on a document with SUGGESTIONS_INLINE"): a
  suggested insertion is a text run with ``suggestedInsertionIds`` and takes indexes.  The
  mode each ``documents.get`` asked for is logged.
* **Lists** (``Paragraph.bullet``, ``List.listProperties.nestingLevels[].glyphType /
  glyphFormat / startNumber``; ``createParagraphBullets``, ``deleteParagraphBullets``); a
  newline inserted in a list paragraph makes a list paragraph too ("The paragraph style of
  the new paragraph will be copied from the paragraph at the current insertion index,
  including lists and bullets", ``InsertTextRequest.text``).
* **Shift+Enter** is a vertical tab (U+000B) inside a paragraph's text run.
* **Field masks**: ``fields=a,b(c,d)`` on ``documents.get`` returns only those fields.
* **Sign-in**: a request with ``Authorization: Bearer TOKEN`` must carry a token this
  server issued (else 401 UNAUTHENTICATED) with one of the method's scopes from the
  discovery document (else 403 "Request had insufficient authentication scopes.");
  requests without credentials are served (the anonymous emulator mode).
* **Quota**: a 429/5xx answer may carry ``Retry-After`` (seconds), as Google's usage-limits
  guide asks clients to honour with truncated exponential backoff.

Test hooks: :meth:`DocsServer.fail` injects 429/5xx answers (optionally with
``Retry-After``), :meth:`DocsServer.fail_after_write` loses the answer of a write it applied
(batchUpdate, or any path), :meth:`DocsServer.before_write` runs "the other player's" edit
between pbd's read and its write, :meth:`DocsServer.insert_table`, :meth:`DocsServer.add_tab`,
:meth:`DocsServer.make_list`, :meth:`DocsServer.suggest_insertion` shape a document the way
people do, :attr:`DocsServer.untick` narrows what the consent screen grants, and
:attr:`DocsServer.log` records every request (method, path, query, bytes in and out).
"""

from __future__ import annotations

import copy
import json
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import accumulate
from urllib.parse import parse_qs, unquote, urlencode, urlsplit

TEXT_STYLE_FIELDS = ("bold", "italic", "underline", "strikethrough", "smallCaps", "backgroundColor",
                     "foregroundColor", "fontSize", "weightedFontFamily", "baselineOffset", "link")
PARAGRAPH_STYLE_FIELDS = ("namedStyleType", "alignment", "lineSpacing", "direction", "spacingMode",
                          "spaceAbove", "spaceBelow", "indentFirstLine", "indentStart", "indentEnd",
                          "keepLinesTogether", "keepWithNext", "avoidWidowAndOrphan", "shading", "headingId")
STRIPPED = re.compile("[\u0000-\u0008\u000c-\u001f\ue000-\uf8ff]")
STATUS = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
          429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 502: "UNAVAILABLE", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED"}


class ApiError(Exception):
    """An error answer: HTTP status and Google's message (and extra headers, e.g. Retry-After)."""

    def __init__(self, code: int, message: str, status: str | None = None, errors: list | None = None,
                 headers: dict | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status or STATUS.get(code, "UNKNOWN")
        self.errors = errors
        self.headers = headers or {}

    def body(self) -> dict:
        """Return the error JSON the way Google shapes it (Drive adds an ``errors`` list with reasons)."""
        error = {"code": self.code, "message": self.message, "status": self.status}
        if self.errors:
            error["errors"] = self.errors
        return {"error": error}


#: Structural markers in a body's flat list of units: a table, a row and a cell take one
#: index each (as in Docs); the end of a table takes none (it only closes the table).
MARKERS = ("table", "row", "cell", "end")


@dataclass
class Unit:
    """One element of a body: a character (1 or 2 UTF-16 units), an inline object (1 unit) or a table marker."""

    char: str | None
    style: dict = field(default_factory=dict)
    pstyle: dict = field(default_factory=dict)
    obj: str | None = None
    bullet: dict | None = None
    suggested: str | None = None
    #: the length in UTF-16 code units (a unit's char and obj never change: worked out once)
    size: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.char is None:
            self.size = 0 if self.obj == "end" else 1
        elif len(self.char) == 1:
            self.size = 2 if ord(self.char) > 0xFFFF else 1
        else:
            self.size = len(self.char.encode("utf-16-le")) // 2

    def copy(self) -> Unit:
        """Return a copy whose styles can change without changing this unit's.

        Requests replace a style's or a bullet's values and never change them in place, so a
        copy of each style's top level is a copy (``copy.deepcopy`` of a long body is what made
        the test server slow).
        """
        return Unit(self.char, dict(self.style), dict(self.pstyle), self.obj, self.bullet, self.suggested)

    @property
    def marker(self) -> bool:
        """Return True for table structure (table, row, cell, end)."""
        return self.char is None and self.obj in MARKERS


@dataclass
class Tab:
    """One tab of a document: its id, title, body units and lists."""

    id: str
    title: str
    units: list[Unit]
    lists: dict = field(default_factory=dict)


@dataclass
class Doc:
    """A document: title, revision and its tabs (the first one is the legacy ``body``)."""

    id: str
    title: str
    revision: str
    tabs: list[Tab]
    app_properties: dict = field(default_factory=dict)
    #: when the document last changed, by the server's clock (Drive's ``modifiedTime``; epoch seconds)
    modified: float = field(default_factory=time.time)

    @property
    def units(self) -> list[Unit]:
        """Return the first tab's units."""
        return self.tabs[0].units

    @units.setter
    def units(self, value: list[Unit]) -> None:
        self.tabs[0].units = value

    def tab(self, tab_id: str | None) -> Tab:
        """Return the tab ``tab_id`` (the first one when empty).

        :raises ApiError: no such tab.
        """
        if not tab_id:
            return self.tabs[0]
        for t in self.tabs:
            if t.id == tab_id:
                return t
        raise ApiError(400, f"The tab with ID {tab_id} was not found in the document.")


@dataclass
class Logged:
    """One request the server received."""

    method: str
    path: str
    body_bytes: int
    status: int = 0
    query: str = ""
    resp_bytes: int = 0


def _rfc3339(when: float) -> str:
    """Return epoch seconds as Drive writes a time (``2026-11-28T23:40:05.123Z``)."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(when)) + f".{int(when % 1 * 1000):03d}Z"


def _new_revision() -> str:
    return "ALm37B" + secrets.token_urlsafe(18)


def _units_for(text: str) -> list[Unit]:
    if not text.endswith("\n"):
        text += "\n"
    return [Unit(c) for c in text]


class DocsServer:
    """The in-memory store and the HTTP server around it (start with :meth:`start`)."""

    def __init__(self):
        self.docs: dict[str, Doc] = {}
        self.permissions: dict[str, list[dict]] = {}
        self.log: list[Logged] = []
        self.revoked_refresh_tokens: set[str] = set()
        self.tokens_issued = 0
        #: scopes of every access token, refresh token and consent code this server issued
        self.access_scopes: dict[str, set[str]] = {}
        self.refresh_scopes: dict[str, set[str]] = {}
        self.code_scopes: dict[str, set[str]] = {}
        #: scopes the user unticks on the consent screen (granted: asked minus these)
        self.untick: set[str] = set()
        self._failures: list[tuple[int, str, float | None]] = []
        self._lost_answers: list[tuple[int, str]] = []
        #: writes to apply and then answer by closing the connection (no answer at all)
        self._dropped: list[tuple[str, object]] = []
        self.forbidden: set[str] = set()
        self._before_write: list = []
        self._lock = threading.RLock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- life cycle ------------------------------------------------------------------

    def start(self, port: int = 0) -> DocsServer:
        """Start serving on 127.0.0.1 on ``port`` (a free one if 0 or taken), in a daemon thread."""
        server = self

        class Handler(_Handler):
            owner = server

        try:
            self._httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        except OSError:
            self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving."""
        if self._httpd:
            self._httpd.shutdown()
            self._httpd.server_close()

    @property
    def host(self) -> str:
        """Return ``host:port`` for ``PBD_DOCS_EMULATOR_HOST``."""
        host, port = self._httpd.server_address[:2]
        return f"{host}:{port}"

    # -- test hooks -------------------------------------------------------------------

    def fail(self, count: int, status: int = 429, match: str = "", retry_after: float | None = None) -> None:
        """Answer the next ``count`` requests whose path contains ``match`` with ``status`` (and ``Retry-After``)."""
        with self._lock:
            self._failures.extend([(status, match, retry_after)] * count)

    def fail_after_write(self, count: int = 1, status: int = 500, match: str = ":batchUpdate") -> None:
        """Apply the next ``count`` writes whose path has ``match`` but answer ``status`` (the answer got lost)."""
        with self._lock:
            self._lost_answers.extend([(status, match)] * count)

    def drop_after_write(self, count: int = 1, match: str = ":batchUpdate", then=None) -> None:
        """Apply the next ``count`` writes whose path has ``match``, then close the connection without answering.

        The client's HTTP library may send the very same request again on a fresh connection
        (httplib2 does, once): the revision guard then refuses the copy.  ``then(server)`` runs
        right after the write is applied (another seat's pbd or a person editing meanwhile).
        """
        with self._lock:
            self._dropped.extend([(match, then)] * count)

    def grant(self, refresh_token: str, scopes) -> None:
        """Record the scopes a refresh token was granted (for token files made by a test)."""
        with self._lock:
            self.refresh_scopes[refresh_token] = set(scopes)

    def before_write(self, callback) -> None:
        """Run ``callback(server, doc_id)`` once, when the next batchUpdate arrives (before it is checked)."""
        with self._lock:
            self._before_write.append(callback)

    def create_document(self, text: str = "", title: str = "Untitled document") -> str:
        """Create a document holding ``text`` and return its id."""
        with self._lock:
            doc_id = "emu" + secrets.token_urlsafe(30).replace("-", "x").replace("_", "y")
            self.docs[doc_id] = Doc(doc_id, title, _new_revision(), [Tab("t.0", "Tab 1", _units_for(text))])
            self.permissions[doc_id] = [{"id": "owner", "type": "user", "role": "owner"}]
            return doc_id

    def set_modified(self, doc_id: str, when: float) -> None:
        """Set when the document last changed by the server's clock (Drive's ``modifiedTime``), as time passing would."""
        with self._lock:
            self._doc(doc_id).modified = when

    def edit(self, doc_id: str, requests: list[dict]) -> str:
        """Apply ``requests`` as another editor would (atomically); return the new revision."""
        with self._lock:
            return self._batch_update(doc_id, {"requests": requests})["writeControl"]["requiredRevisionId"]

    def append_text(self, doc_id: str, text: str) -> str:
        """Insert ``text`` before the final newline, as another editor typing at the end."""
        return self.edit(doc_id, [{"insertText": {"text": text, "endOfSegmentLocation": {}}}])

    def set_text(self, doc_id: str, text: str) -> str:
        """Replace a document's whole text (styles reset), as a new revision."""
        with self._lock:
            doc = self.docs[doc_id]
            doc.units = _units_for(text)
            doc.revision = _new_revision()
            return doc.revision

    def insert_inline_object(self, doc_id: str, index: int) -> str:
        """Put an inline object (an image) at ``index``; return the new revision."""
        with self._lock:
            doc = self.docs[doc_id]
            units = [u.copy() for u in doc.units]
            k = _position(units, index, "insertInlineImage")
            units.insert(k, Unit(None, obj="kix." + secrets.token_hex(6)))
            doc.units = units
            doc.revision = _new_revision()
            return doc.revision

    def add_tab(self, doc_id: str, title: str, text: str = "") -> str:
        """Add a tab holding ``text`` to a document; return its id."""
        with self._lock:
            doc = self.docs[doc_id]
            tab_id = "t." + secrets.token_hex(6)
            doc.tabs.append(Tab(tab_id, title, _units_for(text)))
            doc.revision = _new_revision()
            return tab_id

    def insert_table(self, doc_id: str, index: int, cells: list[list[str]], tab: str = "") -> str:
        """Put a table whose cells hold ``cells`` (rows of texts) before the paragraph at ``index``.

        ``index`` must start a paragraph (not the first one: a table follows a paragraph).
        Each cell's text gets its final newline.  Returns the new revision.
        """
        with self._lock:
            doc = self.docs[doc_id]
            units = doc.tab(tab).units
            k = _position(units, index, "insertTable")
            if k == 0 or units[k - 1].char != "\n":
                raise ApiError(400, "a table goes between two paragraphs")
            table = [Unit(None, obj="table")]
            for row in cells:
                table.append(Unit(None, obj="row"))
                for text in row:
                    table.append(Unit(None, obj="cell"))
                    table += _units_for(text)
            table.append(Unit(None, obj="end"))
            units[k:k] = table
            doc.revision = _new_revision()
            return doc.revision

    def make_list(self, doc_id: str, start: int, end: int, tab: str = "", start_number: int = 1) -> str:
        """Turn the paragraphs overlapping ``start..end`` into a numbered list, as Docs does when "N. " is typed."""
        with self._lock:
            revision = self.edit(doc_id, [{"createParagraphBullets": {
                "range": {"startIndex": start, "endIndex": end, **({"tabId": tab} if tab else {})},
                "bulletPreset": "NUMBERED_DECIMAL_ALPHA_ROMAN"}}])
            lists = self.docs[doc_id].tab(tab).lists
            newest = list(lists)[-1]
            lists[newest]["listProperties"]["nestingLevels"][0]["startNumber"] = start_number
            return revision

    def suggest_insertion(self, doc_id: str, index: int, text: str) -> str:
        """Insert ``text`` at ``index`` as another editor's pending suggestion; return the new revision."""
        with self._lock:
            doc = self.docs[doc_id]
            k = _position(doc.units, index, "suggestion")
            sid = "suggest." + secrets.token_hex(5)
            doc.units[k:k] = [Unit(c, suggested=sid) for c in text]
            doc.revision = _new_revision()
            return doc.revision

    def text(self, doc_id: str, tab: str = "") -> str:
        """Return a document's text (one tab; inline objects and table structure left out)."""
        with self._lock:
            return "".join(u.char for u in self.docs[doc_id].tab(tab).units if u.char is not None)

    def document(self, doc_id: str, tabs: bool = False) -> dict:
        """Return a document as documents.get would (with ``tabs``: as with includeTabsContent=true)."""
        with self._lock:
            return _render(self.docs[doc_id], tabs)

    def _paragraphs(self, doc_id: str, tab: str = ""):
        with self._lock:
            doc = self.docs[doc_id]
            t = doc.tab(tab)
            content = _body(t.units)

        def walk(elements):
            for element in elements:
                if "paragraph" in element:
                    yield element["paragraph"]
                for row in element.get("table", {}).get("tableRows", []):
                    for cell in row["tableCells"]:
                        yield from walk(cell["content"])

        return list(walk(content))

    def runs(self, doc_id: str, tab: str = "") -> list[tuple[str, dict]]:
        """Return ``(text, textStyle)`` of every text run in the body (table cells included), in order."""
        return [(part["textRun"]["content"], part["textRun"].get("textStyle", {}))
                for para in self._paragraphs(doc_id, tab) for part in para["elements"] if "textRun" in part]

    def paragraph_styles(self, doc_id: str, tab: str = "") -> list[tuple[str, str]]:
        """Return ``(paragraph text, namedStyleType)`` for every paragraph."""
        return [("".join(p.get("textRun", {}).get("content", "") for p in para["elements"]),
                 para["paragraphStyle"].get("namedStyleType", "")) for para in self._paragraphs(doc_id, tab)]

    def count(self, match: str = "", method: str = "") -> int:
        """Return how many logged requests have ``match`` in their path (and ``method``)."""
        return sum(1 for r in self.log if match in r.path and (not method or r.method == method))

    # -- the API --------------------------------------------------------------------

    def handle(self, method: str, path: str, query: dict, body: bytes,
               auth: str | None = None) -> tuple[int, dict | None, dict]:
        """Serve one request; return ``(status, json or None, extra headers)``."""
        with self._lock:
            self.log.append(Logged(method, path, len(body), query=urlencode(query, doseq=True)))
            for i, (status, match, retry_after) in enumerate(self._failures):
                if match in path:
                    del self._failures[i]
                    if status == 403:
                        raise ApiError(403, "User rate limit exceeded.", "PERMISSION_DENIED",
                                       [{"domain": "usageLimits", "reason": "userRateLimitExceeded",
                                         "message": "User rate limit exceeded."}])
                    msg = "Quota exceeded for quota metric 'Write requests'" if status == 429 else \
                        "Internal error encountered."
                    raise ApiError(status, msg, headers={"Retry-After": f"{retry_after:g}"} if retry_after else None)
            if path == "/tokeninfo":
                return self._tokeninfo(query)
            self._check_auth(method, path, auth)
            status, answer, headers = self._serve(method, path, query, body)
            for i, (lost, match) in enumerate(self._lost_answers):
                if method in ("POST", "DELETE", "PATCH") and match in path and status < 300:
                    del self._lost_answers[i]
                    raise ApiError(lost, "Internal error encountered.")
            for i, (match, then) in enumerate(self._dropped):
                if method in ("POST", "DELETE", "PATCH") and match in path and status < 300:
                    del self._dropped[i]
                    if then:
                        then(self)
                    raise ConnectionDropped()
            return status, answer, headers

    def _serve(self, method: str, path: str, query: dict, body: bytes) -> tuple[int, dict | None, dict]:
        """Serve one request that passed the failure hooks and the credentials check."""
        with self._lock:
            data = json.loads(body or b"{}") if not path.startswith("/token") else {}
            if path.endswith(":batchUpdate"):
                validate(data, {"$ref": "BatchUpdateDocumentRequest"}, "docs.v1")
            elif path == "/v1/documents":
                validate(data, {"$ref": "Document"}, "docs.v1")
            elif path.endswith("/permissions"):
                validate(data, {"$ref": "Permission"}, "drive.v3")
            elif path == "/drive/v3/files" and method == "POST":
                validate(data, {"$ref": "File"}, "drive.v3")
            if m := re.fullmatch(r"/v1/documents/([^/:]+):batchUpdate", path):
                if method != "POST":
                    raise ApiError(404, "Not found")
                hooks, self._before_write = self._before_write, []
                for hook in hooks:
                    hook(self, m.group(1))
                return 200, self._batch_update(m.group(1), data), {}
            if m := re.fullmatch(r"/v1/documents/([^/:]+)", path):
                tabs = query.get("includeTabsContent", ["false"])[0] == "true"
                answer = _render(self._doc(m.group(1)), tabs)
                mode = query.get("suggestionsViewMode", ["DEFAULT_FOR_CURRENT_ACCESS"])[0]
                answer["suggestionsViewMode"] = "SUGGESTIONS_INLINE" if mode.startswith("DEFAULT") else mode
                if "fields" in query:
                    answer = field_mask(answer, query["fields"][0])
                return 200, answer, {}
            if path == "/v1/documents" and method == "POST":
                doc_id = self.create_document("", data.get("title") or "Untitled document")
                return 200, _render(self.docs[doc_id]), {}
            if m := re.fullmatch(r"/drive/v3/files/([^/]+)/permissions", path):
                return 200, self._share(m.group(1), data), {}
            if m := re.fullmatch(r"/drive/v3/files/([^/]+)", path):
                doc = self._doc(m.group(1), drive=True)
                if method == "DELETE":
                    del self.docs[doc.id]
                    return 204, None, {}
                answer = {"kind": "drive#file", "id": doc.id, "name": doc.title,
                          "mimeType": "application/vnd.google-apps.document", "modifiedTime": _rfc3339(doc.modified)}
                if "fields" in query:
                    answer = field_mask(answer, query["fields"][0])
                return 200, answer, {}
            if path == "/drive/v3/files" and method == "POST":
                doc_id = self.create_document("", data.get("name") or "Untitled document")
                self.docs[doc_id].app_properties = dict(data.get("appProperties") or {})
                return 200, {"kind": "drive#file", "id": doc_id, "name": self.docs[doc_id].title,
                             "mimeType": "application/vnd.google-apps.document"}, {}
            if path == "/drive/v3/files" and method == "GET":
                return 200, {"kind": "drive#fileList", "files": self._search(query.get("q", [""])[0])}, {}
            if path == "/token" and method == "POST":
                return self._token(parse_qs(body.decode()))
            if path == "/auth":
                code = "emu-code-" + secrets.token_hex(4)
                asked = set(query.get("scope", [""])[0].split())
                self.code_scopes[code] = asked - self.untick
                target = query["redirect_uri"][0] + "?" + urlencode(
                    {"code": code, "state": query.get("state", [""])[0]})
                return 302, None, {"Location": target}
            raise ApiError(404, f"Method not found: {method} {path}")

    def forbid(self, doc_id: str) -> None:
        """Make a document answer 403, as one that is not shared with the caller."""
        with self._lock:
            self.forbidden.add(doc_id)

    def _doc(self, doc_id: str, drive: bool = False) -> Doc:
        if doc_id in self.forbidden:
            raise ApiError(403, "The caller does not have permission")
        doc = self.docs.get(doc_id)
        if doc is None:
            raise ApiError(404, f"File not found: {doc_id}." if drive else "Requested entity was not found.")
        return doc

    def _share(self, doc_id: str, data: dict) -> dict:
        self._doc(doc_id, drive=True)
        if data.get("type") not in ("user", "group", "domain", "anyone") or data.get("role") not in (
                "reader", "commenter", "writer", "owner", "organizer", "fileOrganizer"):
            raise ApiError(400, "The permission type or role field is invalid.")
        if data["type"] in ("user", "group") and "@" not in data.get("emailAddress", ""):
            raise ApiError(400, "The permission emailAddress field is required and must be valid.")
        perm = {"kind": "drive#permission", "id": secrets.token_hex(8), "type": data["type"],
                "role": data["role"]}
        self.permissions[doc_id].append({**perm, "emailAddress": data.get("emailAddress", "")})
        return perm

    def _token(self, form: dict) -> tuple[int, dict, dict]:
        grant = form.get("grant_type", [""])[0]
        refresh = form.get("refresh_token", [""])[0]
        if grant == "refresh_token" and refresh in self.revoked_refresh_tokens:
            return 400, {"error": "invalid_grant", "error_description": "Token has been expired or revoked."}, {}
        if grant not in ("refresh_token", "authorization_code"):
            return 400, {"error": "unsupported_grant_type"}, {}
        if grant == "authorization_code":
            granted = self.code_scopes.pop(form.get("code", [""])[0], set(PLAYER_SCOPES))
        else:
            granted = self.refresh_scopes.get(refresh, set(PLAYER_SCOPES))
            asked = set(form.get("scope", [""])[0].split())
            granted = granted & asked if asked else granted
        self.tokens_issued += 1
        access = f"emu-access-{self.tokens_issued}"
        self.access_scopes[access] = set(granted)
        answer = {"access_token": access, "expires_in": 3599, "token_type": "Bearer",
                  "scope": " ".join(sorted(granted))}
        if grant == "authorization_code":
            answer["refresh_token"] = "emu-refresh-" + secrets.token_hex(4)
            self.refresh_scopes[answer["refresh_token"]] = set(granted)
        return 200, answer, {}

    def _tokeninfo(self, query: dict) -> tuple[int, dict, dict]:
        """Answer like https://oauth2.googleapis.com/tokeninfo: the scopes an access token carries."""
        scopes = self.access_scopes.get(query.get("access_token", [""])[0])
        if scopes is None:
            return 400, {"error": "invalid_token", "error_description": "Invalid Value"}, {}
        return 200, {"aud": "1234-abc.apps.googleusercontent.com", "scope": " ".join(sorted(scopes)),
                     "expires_in": "3599", "access_type": "offline"}, {}

    def _check_auth(self, method: str, path: str, auth: str | None) -> None:
        """Refuse a bearer token this server did not issue (401) or one without the method's scopes (403)."""
        if not auth or path.startswith("/token") or path == "/auth":
            return
        token = auth.split(" ", 1)[-1].strip()
        scopes = self.access_scopes.get(token)
        if scopes is None:
            raise ApiError(401, "Request had invalid authentication credentials. Expected OAuth 2 access token, "
                                "login cookie or other valid authentication credential.")
        needed = method_scopes(method, path)
        if needed and not scopes & needed:
            raise ApiError(403, "Request had insufficient authentication scopes.", "PERMISSION_DENIED",
                           [{"reason": "ACCESS_TOKEN_SCOPE_INSUFFICIENT", "domain": "googleapis.com"}])

    def _search(self, q: str) -> list[dict]:
        """Return the files a Drive ``q`` selects (only ``appProperties has {...}`` and ``trashed`` are understood)."""
        wanted = dict(re.findall(r"appProperties has \{ key='([^']*)' and value='([^']*)' \}", q))
        return [{"id": d.id} for d in self.docs.values()
                if wanted and all(d.app_properties.get(k) == v for k, v in wanted.items())]

    def _batch_update(self, doc_id: str, data: dict) -> dict:
        doc = self._doc(doc_id)
        control = data.get("writeControl") or {}
        if "targetRevisionId" in control:
            raise ApiError(400, "targetRevisionId is not supported by the test server.")
        required = control.get("requiredRevisionId")
        if required is not None and required != doc.revision:
            raise ApiError(400, f"The document was modified since revision {required}; "
                                "the required revision ID does not match the latest revision.",
                           "FAILED_PRECONDITION")
        requests = data.get("requests")
        if not isinstance(requests, list) or not requests:
            raise ApiError(400, "Must specify at least one request.")
        tabs = [Tab(t.id, t.title, [u.copy() for u in t.units], copy.deepcopy(t.lists)) for t in doc.tabs]
        work = Doc(doc.id, doc.title, doc.revision, tabs)
        replies = []
        for i, request in enumerate(requests):
            if not isinstance(request, dict) or len(request) != 1:
                raise ApiError(400, f"Invalid requests[{i}]: exactly one kind of request must be set.")
            kind, args = next(iter(request.items()))
            op = _OPS.get(kind)
            if op is None:
                raise ApiError(400, f"Invalid JSON payload received. Unknown name \"{kind}\" at 'requests[{i}]'.")
            try:
                if kind == "addDocumentTab":
                    replies.append(_add_tab(work, args))
                    continue
                tab = work.tab(_tab_of(args))
                op(tab.units, args) if kind not in _LIST_OPS else op(tab, args)
            except ApiError as exc:
                raise ApiError(400, f"Invalid requests[{i}].{kind}: {exc.message}") from None
            replies.append({})
        doc.tabs = work.tabs
        doc.revision = _new_revision()
        doc.modified = time.time()
        return {"documentId": doc.id, "replies": replies, "writeControl": {"requiredRevisionId": doc.revision}}


# -- request bodies checked against the API's own schemas ------------------------------

_DISCOVERY: dict[str, dict] = {}


def _discovery(api: str) -> dict:
    """Return the discovery document of ``docs.v1`` or ``drive.v3`` (shipped with googleapiclient)."""
    if api not in _DISCOVERY:
        from pathlib import Path

        import googleapiclient

        folder = Path(googleapiclient.__file__).parent / "discovery_cache" / "documents"
        _DISCOVERY[api] = json.loads((folder / f"{api}.json").read_text(encoding="utf-8"))
    return _DISCOVERY[api]


def schemas(api: str) -> dict:
    """Return the discovery schemas of ``docs.v1`` or ``drive.v3``."""
    return _discovery(api)["schemas"]


def validate(value, schema: dict, api: str, where: str = "") -> None:
    """Refuse ``value`` the way Google does if it does not fit ``schema`` (unknown names, wrong types).

    :raises ApiError: 400 "Invalid JSON payload received. ..."
    """
    if "$ref" in schema:
        schema = schemas(api)[schema["$ref"]]
    kind = schema.get("type")
    bad = ApiError(400, f"Invalid JSON payload received. Invalid value at '{where or 'body'}' ({kind})")
    if kind == "object":
        if not isinstance(value, dict):
            raise bad
        props, extra = schema.get("properties"), schema.get("additionalProperties")
        for key, item in value.items():
            if props is not None and key in props:
                validate(item, props[key], api, f"{where}.{key}" if where else key)
            elif extra is not None:
                validate(item, extra, api, f"{where}[{key!r}]")
            else:
                raise ApiError(400, f"Invalid JSON payload received. Unknown name \"{key}\" at "
                                    f"'{where or 'body'}': Cannot find field.")
    elif kind == "array":
        if not isinstance(value, list):
            raise bad
        for i, item in enumerate(value):
            validate(item, schema.get("items", {}), api, f"{where}[{i}]")
    elif kind == "integer":
        if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).lstrip("-").isdigit():
            raise bad
    elif kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise bad
    elif kind == "boolean":
        if not isinstance(value, bool):
            raise bad
    elif kind == "string":
        if not isinstance(value, str):
            raise bad
        if "enum" in schema and value not in schema["enum"]:
            raise ApiError(400, f"Invalid value at '{where}' ({schema.get('id', 'enum')}), \"{value}\"")


# -- the body model -----------------------------------------------------------------

def _starts(units: list[Unit]) -> list[int]:
    """Return the index of each unit and, last, the end index of the body."""
    return list(accumulate([u.size for u in units], initial=1))


def _position(units: list[Unit], index: int, what: str, starts: list[int] | None = None) -> int:
    """Return the unit number starting at ``index`` (len(units) for the end); ``starts``: ``_starts(units)``."""
    starts = starts or _starts(units)
    if not isinstance(index, int) or index < 1:
        raise ApiError(400, f"Index {index} must be greater than zero.")
    if index > starts[-1]:
        raise ApiError(400, f"Index {index} must be less than the end index of the referenced segment, "
                            f"{starts[-1]}.")
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if starts[mid] < index:
            lo = mid + 1
        else:
            hi = mid
    if starts[lo] != index:
        raise ApiError(400, f"The {what} index {index} would split a surrogate pair (UTF-16).")
    while lo < len(units) and units[lo].size == 0:
        lo += 1
    return lo


def _range(units: list[Unit], args: dict) -> tuple[int, int, int, int]:
    rng = args.get("range") or {}
    if rng.get("segmentId"):
        raise ApiError(400, "only the body segment is supported by the test server")
    start, end = rng.get("startIndex", 0), rng.get("endIndex", 0)
    if not (isinstance(start, int) and isinstance(end, int)) or start >= end:
        raise ApiError(400, "The range should not be empty.")
    starts = _starts(units)
    return start, end, _position(units, start, "start", starts), _position(units, end, "end", starts)


def _insert_text(units: list[Unit], args: dict) -> None:
    text = STRIPPED.sub("", args.get("text", ""))
    if "endOfSegmentLocation" in args:
        if (args["endOfSegmentLocation"] or {}).get("segmentId"):
            raise ApiError(400, "only the body segment is supported by the test server")
        k = len(units) - 1
    else:
        loc = args.get("location") or {}
        if loc.get("segmentId"):
            raise ApiError(400, "only the body segment is supported by the test server")
        k = _position(units, loc.get("index", 0), "insertion")
        if k >= len(units):
            raise ApiError(400, f"Index {loc.get('index')} must be less than the end index of the referenced "
                                f"segment, {_starts(units)[-1]}.")
        if units[k].marker:
            raise ApiError(400, "Text must be inserted inside the bounds of an existing Paragraph. For instance, "
                                "text cannot be inserted at a table's start index.")
    if not text:
        raise ApiError(400, "The text to insert should not be empty.")
    before = units[k - 1] if k > 0 and units[k - 1].char not in (None, "\n") else None
    style = copy.deepcopy((before or units[k]).style)
    para = next(u for u in units[k:] if u.char == "\n")
    units[k:k] = [Unit(c, dict(style), dict(para.pstyle) if c == "\n" else {},
                       bullet=copy.deepcopy(para.bullet) if c == "\n" else None) for c in text]


def _delete_range(units: list[Unit], args: dict) -> None:
    _, _, i, j = _range(units, args)
    if j >= len(units):
        raise ApiError(400, "The range cannot include the newline character at the end of the segment.")
    for k in range(i, j):
        if units[k].marker:
            raise ApiError(400, "Invalid deletion range. Cannot delete the start or end of a Table without "
                                "deleting the entire element, or individual rows or cells of a table.")
        following = units[k + 1] if k + 1 < len(units) else None
        if units[k].char == "\n" and following is not None and following.marker:
            what = "the last newline character of a TableCell" if following.obj != "table" else \
                "the newline character before a Table without deleting the element"
            raise ApiError(400, f"Invalid deletion range. Cannot delete {what}.")
    del units[i:j]


def _fields(args: dict, known: tuple[str, ...]) -> list[str]:
    mask = args.get("fields")
    if not mask:
        raise ApiError(400, "The fields mask is required.")
    if mask.strip() == "*":
        return list(known)
    names = [f.strip() for f in mask.split(",") if f.strip()]
    for name in names:
        if name not in known:
            raise ApiError(400, f"Invalid field mask: {name!r} is not a field of the style.")
    return names


def _update_text_style(units: list[Unit], args: dict) -> None:
    _, _, i, j = _range(units, args)
    names, style = _fields(args, TEXT_STYLE_FIELDS), copy.deepcopy(args.get("textStyle") or {})
    for u in units[i:j]:                    # the units share the values: none is changed in place
        for name in names:
            if name in style:
                u.style[name] = style[name]
            else:
                u.style.pop(name, None)


def _update_paragraph_style(units: list[Unit], args: dict) -> None:
    _, _, i, j = _range(units, args)
    names, style = _fields(args, PARAGRAPH_STYLE_FIELDS), copy.deepcopy(args.get("paragraphStyle") or {})
    k = i
    while k < len(units):
        if units[k].char == "\n":
            for name in names:
                if name in style:
                    units[k].pstyle[name] = style[name]
                else:
                    units[k].pstyle.pop(name, None)
            if k >= j - 1:
                break
        k += 1


def _paragraph_newlines(units: list[Unit], i: int, j: int) -> list[Unit]:
    """Return the newline units of the paragraphs overlapping units ``i..j``."""
    out, k = [], i
    while k < len(units):
        if units[k].char == "\n":
            out.append(units[k])
            if k >= j - 1:
                break
        k += 1
    return out


def _create_bullets(tab: Tab, args: dict) -> None:
    _, _, i, j = _range(tab.units, args)
    if args.get("bulletPreset", "").split("_")[0] != "NUMBERED":
        raise ApiError(400, "only NUMBERED_* bullet presets are supported by the test server")
    list_id = "kix.list." + secrets.token_hex(5)
    tab.lists[list_id] = {"listProperties": {"nestingLevels": [
        {"glyphType": kind, "glyphFormat": f"%{n}.", "startNumber": 1, "bulletAlignment": "START"}
        for n, kind in enumerate(["DECIMAL", "ALPHA", "ROMAN"] * 3)]}}
    for nl in _paragraph_newlines(tab.units, i, j):
        nl.bullet = {"listId": list_id, "nestingLevel": 0}


def _delete_bullets(tab: Tab, args: dict) -> None:
    _, _, i, j = _range(tab.units, args)
    for nl in _paragraph_newlines(tab.units, i, j):
        nl.bullet = None


def _add_tab(doc: Doc, args: dict) -> dict:
    props = dict(args.get("tabProperties") or {})
    tab_id = "t." + secrets.token_hex(6)
    title = props.get("title") or f"Tab {len(doc.tabs) + 1}"
    doc.tabs.append(Tab(tab_id, title, _units_for("")))
    return {"addDocumentTab": {"tabProperties": {"tabId": tab_id, "title": title, "index": len(doc.tabs) - 1}}}


def _tab_of(args: dict) -> str:
    """Return the tabId a request names in its range, location or end-of-segment location."""
    for key in ("range", "location", "endOfSegmentLocation"):
        if isinstance(args.get(key), dict) and args[key].get("tabId"):
            return args[key]["tabId"]
    return ""


_OPS = {"insertText": _insert_text, "deleteContentRange": _delete_range,
        "updateTextStyle": _update_text_style, "updateParagraphStyle": _update_paragraph_style,
        "createParagraphBullets": _create_bullets, "deleteParagraphBullets": _delete_bullets,
        "addDocumentTab": _add_tab}
_LIST_OPS = ("createParagraphBullets", "deleteParagraphBullets")


def _render(doc: Doc, tabs: bool = False) -> dict:
    """Return a document as the Docs API's ``Document`` JSON (with ``tabs``: includeTabsContent=true)."""
    style = {"pageSize": {"height": {"magnitude": 792, "unit": "PT"}, "width": {"magnitude": 612, "unit": "PT"}}}
    out = {"documentId": doc.id, "title": doc.title, "revisionId": doc.revision,
           "suggestionsViewMode": "SUGGESTIONS_INLINE"}
    if not tabs:
        first = doc.tabs[0]
        return {**out, "body": {"content": _body(first.units)}, "documentStyle": style,
                "namedStyles": {"styles": []}, **({"lists": first.lists} if first.lists else {})}
    return {**out, "tabs": [{"tabProperties": {"tabId": t.id, "title": t.title, "index": n},
                             "documentTab": {"body": {"content": _body(t.units)}, "documentStyle": style,
                                             "namedStyles": {"styles": []}, "lists": t.lists}}
                            for n, t in enumerate(doc.tabs)]}


def _body(units: list[Unit]) -> list[dict]:
    """Return a body's structural elements: a section break, then paragraphs and tables."""
    content: list[dict] = [{"endIndex": 1, "sectionBreak": {"sectionStyle": {
        "columnSeparatorStyle": "NONE", "contentDirection": "LEFT_TO_RIGHT", "sectionType": "CONTINUOUS"}}}]
    starts = _starts(units)
    content += _elements(units, starts, 0, len(units))[0]
    return content


def _elements(units: list[Unit], starts: list[int], k: int, stop: int, cell: bool = False) -> tuple[list, int]:
    """Return ``(elements, next unit)`` from unit ``k``; in a cell, stop at the next row/cell/end marker."""
    out: list[dict] = []
    para: list[int] = []
    while k < stop:
        u = units[k]
        if cell and u.marker and u.obj != "table" and not para:
            break
        if u.obj == "table" and u.char is None and not para:
            table, k = _table(units, starts, k)
            out.append(table)
            continue
        para.append(k)
        k += 1
        if u.char == "\n":
            out.append(_paragraph(units, starts, para))
            para = []
    return out, k


def _table(units: list[Unit], starts: list[int], k: int) -> tuple[dict, int]:
    start, rows, k = starts[k], [], k + 1
    while units[k].obj == "row":
        row_start, cells, k = starts[k], [], k + 1
        while units[k].obj == "cell":
            cell_start = starts[k]
            content, k = _elements(units, starts, k + 1, len(units), cell=True)
            cells.append({"startIndex": cell_start, "endIndex": starts[k], "content": content,
                          "tableCellStyle": {"rowSpan": 1, "columnSpan": 1}})
        rows.append({"startIndex": row_start, "endIndex": starts[k], "tableCells": cells})
    k += 1  # the end marker
    columns = max((len(r["tableCells"]) for r in rows), default=0)
    return {"startIndex": start, "endIndex": starts[k],
            "table": {"rows": len(rows), "columns": columns, "tableRows": rows}}, k


def _paragraph(units: list[Unit], starts: list[int], ks: list[int]) -> dict:
    elements: list[dict] = []
    run: list[int] = []

    def flush():
        if run:
            text_run = {"content": "".join(units[k].char for k in run),
                        "textStyle": copy.deepcopy(units[run[0]].style)}
            if units[run[0]].suggested:
                text_run["suggestedInsertionIds"] = [units[run[0]].suggested]
            elements.append({"startIndex": starts[run[0]], "endIndex": starts[run[-1] + 1], "textRun": text_run})
            run.clear()

    for k in ks:
        u = units[k]
        if u.char is None:
            flush()
            elements.append({"startIndex": starts[k], "endIndex": starts[k + 1],
                             "inlineObjectElement": {"inlineObjectId": u.obj, "textStyle": {}}})
            continue
        if run and (units[run[0]].style, units[run[0]].suggested) != (u.style, u.suggested):
            flush()
        run.append(k)
    flush()
    last = units[ks[-1]]
    pstyle = {"namedStyleType": "NORMAL_TEXT", "direction": "LEFT_TO_RIGHT", **last.pstyle}
    element = {"startIndex": starts[ks[0]], "endIndex": starts[ks[-1] + 1],
               "paragraph": {"elements": elements, "paragraphStyle": pstyle}}
    if last.bullet:
        element["paragraph"]["bullet"] = copy.deepcopy(last.bullet)
    if element["startIndex"] == 0:
        del element["startIndex"]
    return element


# -- field masks and scopes -------------------------------------------------------------

def _mask_tree(mask: str) -> dict:
    """Parse a partial-response field mask (``a,b(c,d(e))``) into a tree of names."""
    tree: dict = {}
    stack = [tree]
    name = ""
    for ch in mask + ",":
        if ch in ",()":
            if name.strip():
                stack[-1][name.strip()] = stack[-1].get(name.strip()) or {}
            if ch == "(":
                stack.append(stack[-1][name.strip()])
            elif ch == ")":
                stack.pop()
            name = ""
        else:
            name += ch
    return tree


def field_mask(value, mask: str):
    """Return ``value`` with only the fields ``mask`` names (Google's ``fields=`` partial response)."""
    def keep(v, tree):
        if not tree:
            return v
        if isinstance(v, list):
            return [keep(x, tree) for x in v]
        if isinstance(v, dict):
            if "*" in tree:
                return {k: keep(x, tree["*"]) for k, x in v.items()}
            return {k: keep(v[k], sub) for k, sub in tree.items() if k in v}
        return v

    return keep(value, _mask_tree(mask))


#: What a player's sign-in is granted by default.
PLAYER_SCOPES = ("https://www.googleapis.com/auth/documents", "https://www.googleapis.com/auth/drive.file")
_METHODS = [("GET", r"/v1/documents/[^/:]+", "docs.v1", "documents", "get"),
            ("POST", r"/v1/documents/[^/:]+:batchUpdate", "docs.v1", "documents", "batchUpdate"),
            ("POST", r"/v1/documents", "docs.v1", "documents", "create"),
            ("POST", r"/drive/v3/files", "drive.v3", "files", "create"),
            ("GET", r"/drive/v3/files", "drive.v3", "files", "list"),
            ("GET", r"/drive/v3/files/[^/]+", "drive.v3", "files", "get"),
            ("DELETE", r"/drive/v3/files/[^/]+", "drive.v3", "files", "delete"),
            ("POST", r"/drive/v3/files/[^/]+/permissions", "drive.v3", "permissions", "create")]


def method_scopes(method: str, path: str) -> set[str]:
    """Return the OAuth scopes the discovery document lists for the API method at ``method path``."""
    for verb, pattern, api, resource, name in _METHODS:
        if verb == method and re.fullmatch(pattern, path):
            return set(_discovery(api)["resources"][resource]["methods"][name].get("scopes", []))
    return set()


class ConnectionDropped(Exception):
    """The request was served but the connection is closed with no answer (see :meth:`DocsServer.drop_after_write`)."""


class _Handler(BaseHTTPRequestHandler):
    """HTTP glue: JSON in, JSON out, errors shaped like Google's."""

    owner: DocsServer
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # keep test output quiet
        pass

    def _serve(self, method: str) -> None:
        parts = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        headers: dict = {}
        try:
            status, payload, headers = self.owner.handle(method, unquote(parts.path), parse_qs(parts.query), body,
                                                         auth=self.headers.get("Authorization"))
        except ApiError as exc:
            status, payload, headers = exc.code, exc.body(), exc.headers
        except ConnectionDropped:
            self.close_connection = True
            return
        except (ValueError, KeyError) as exc:
            status, payload = 400, ApiError(400, f"Invalid JSON payload received. {exc}").body()
        data = b"" if payload is None else json.dumps(payload).encode()
        with self.owner._lock:
            if self.owner.log:
                self.owner.log[-1].status = status
                self.owner.log[-1].resp_bytes = len(data)
        self.send_response(status)
        if payload is not None:
            self.send_header("Content-Type", "application/json; charset=UTF-8")
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._serve("GET")

    def do_POST(self):
        self._serve("POST")

    def do_DELETE(self):
        self._serve("DELETE")

    def do_PATCH(self):
        self._serve("PATCH")
