"""A local Google Docs + Drive API server for tests (stdlib only, 127.0.0.1, free port).

pbd talks to it through the real google-api-python-client (static discovery,
``client_options={"api_endpoint": ...}``), selected by ``PBD_DOCS_EMULATOR_HOST``.
It keeps the semantics pbd relies on:

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
* Drive ``files.create/get/delete`` and ``permissions.create``, and an OAuth token
  endpoint (``/token``) so refresh and revocation can be tested offline.

Test hooks: :meth:`DocsServer.fail` injects 429/5xx answers (and
:meth:`DocsServer.fail_after_write` loses the answer of a write it applied), :meth:`DocsServer.before_write`
runs "the other player's" edit between pbd's read and its write, :attr:`DocsServer.log`
records every request (method, path, body bytes) for assertions and benchmarks.
"""

from __future__ import annotations

import copy
import json
import re
import secrets
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
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
    """An error answer: HTTP status and Google's message."""

    def __init__(self, code: int, message: str, status: str | None = None, errors: list | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status or STATUS.get(code, "UNKNOWN")
        self.errors = errors

    def body(self) -> dict:
        """Return the error JSON the way Google shapes it (Drive adds an ``errors`` list with reasons)."""
        error = {"code": self.code, "message": self.message, "status": self.status}
        if self.errors:
            error["errors"] = self.errors
        return {"error": error}


@dataclass
class Unit:
    """One element of a body: a character (1 or 2 UTF-16 units) or an inline object (1 unit)."""

    char: str | None
    style: dict = field(default_factory=dict)
    pstyle: dict = field(default_factory=dict)
    obj: str | None = None

    @property
    def size(self) -> int:
        """Return the length in UTF-16 code units."""
        return 1 if self.char is None else len(self.char.encode("utf-16-le")) // 2


@dataclass
class Doc:
    """A document: title, revision and a flat list of units ending with the final newline."""

    id: str
    title: str
    revision: str
    units: list[Unit]


@dataclass
class Logged:
    """One request the server received."""

    method: str
    path: str
    body_bytes: int
    status: int = 0


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
        self._failures: list[tuple[int, str]] = []
        self._lost_answers: list[int] = []
        self.forbidden: set[str] = set()
        self._before_write: list = []
        self._lock = threading.RLock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- life cycle ------------------------------------------------------------------

    def start(self) -> DocsServer:
        """Start serving on 127.0.0.1 on a free port, in a daemon thread."""
        server = self

        class Handler(_Handler):
            owner = server

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

    def fail(self, count: int, status: int = 429, match: str = "") -> None:
        """Answer the next ``count`` requests whose path contains ``match`` with ``status``."""
        with self._lock:
            self._failures.extend([(status, match)] * count)

    def fail_after_write(self, count: int = 1, status: int = 500) -> None:
        """Apply the next ``count`` batchUpdates but answer them with ``status`` (the answer got lost)."""
        with self._lock:
            self._lost_answers.extend([status] * count)

    def before_write(self, callback) -> None:
        """Run ``callback(server, doc_id)`` once, when the next batchUpdate arrives (before it is checked)."""
        with self._lock:
            self._before_write.append(callback)

    def create_document(self, text: str = "", title: str = "Untitled document") -> str:
        """Create a document holding ``text`` and return its id."""
        with self._lock:
            doc_id = "emu" + secrets.token_urlsafe(30).replace("-", "x").replace("_", "y")
            self.docs[doc_id] = Doc(doc_id, title, _new_revision(), _units_for(text))
            self.permissions[doc_id] = [{"id": "owner", "type": "user", "role": "owner"}]
            return doc_id

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
            units = copy.deepcopy(doc.units)
            k = _position(units, index, "insertInlineImage")
            units.insert(k, Unit(None, obj="kix." + secrets.token_hex(6)))
            doc.units = units
            doc.revision = _new_revision()
            return doc.revision

    def text(self, doc_id: str) -> str:
        """Return a document's text (inline objects left out)."""
        with self._lock:
            return "".join(u.char for u in self.docs[doc_id].units if u.char is not None)

    def document(self, doc_id: str) -> dict:
        """Return a document as documents.get would."""
        with self._lock:
            return _render(self.docs[doc_id])

    def runs(self, doc_id: str) -> list[tuple[str, dict]]:
        """Return ``(text, textStyle)`` of every text run in the body, in order."""
        out = []
        for element in self.document(doc_id)["body"]["content"]:
            for part in element.get("paragraph", {}).get("elements", []):
                if "textRun" in part:
                    out.append((part["textRun"]["content"], part["textRun"].get("textStyle", {})))
        return out

    def paragraph_styles(self, doc_id: str) -> list[tuple[str, str]]:
        """Return ``(paragraph text, namedStyleType)`` for every paragraph."""
        out = []
        for element in self.document(doc_id)["body"]["content"]:
            if "paragraph" in element:
                para = element["paragraph"]
                text = "".join(p.get("textRun", {}).get("content", "") for p in para["elements"])
                out.append((text, para["paragraphStyle"].get("namedStyleType", "")))
        return out

    def count(self, match: str = "", method: str = "") -> int:
        """Return how many logged requests have ``match`` in their path (and ``method``)."""
        return sum(1 for r in self.log if match in r.path and (not method or r.method == method))

    # -- the API --------------------------------------------------------------------

    def handle(self, method: str, path: str, query: dict, body: bytes) -> tuple[int, dict | None, dict]:
        """Serve one request; return ``(status, json or None, extra headers)``."""
        with self._lock:
            self.log.append(Logged(method, path, len(body)))
            for i, (status, match) in enumerate(self._failures):
                if match in path:
                    del self._failures[i]
                    if status == 403:
                        raise ApiError(403, "User rate limit exceeded.", "PERMISSION_DENIED",
                                       [{"domain": "usageLimits", "reason": "userRateLimitExceeded",
                                         "message": "User rate limit exceeded."}])
                    msg = "Quota exceeded for quota metric 'Write requests'" if status == 429 else \
                        "Internal error encountered."
                    raise ApiError(status, msg)
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
                answer = self._batch_update(m.group(1), data)
                if self._lost_answers:
                    raise ApiError(self._lost_answers.pop(0), "Internal error encountered.")
                return 200, answer, {}
            if m := re.fullmatch(r"/v1/documents/([^/:]+)", path):
                return 200, _render(self._doc(m.group(1))), {}
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
                return 200, {"kind": "drive#file", "id": doc.id, "name": doc.title,
                             "mimeType": "application/vnd.google-apps.document"}, {}
            if path == "/drive/v3/files" and method == "POST":
                doc_id = self.create_document("", data.get("name") or "Untitled document")
                return 200, {"kind": "drive#file", "id": doc_id, "name": self.docs[doc_id].title,
                             "mimeType": "application/vnd.google-apps.document"}, {}
            if path == "/token" and method == "POST":
                return self._token(parse_qs(body.decode()))
            if path == "/auth":
                target = query["redirect_uri"][0] + "?" + urlencode(
                    {"code": "emu-code", "state": query.get("state", [""])[0]})
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
        self.tokens_issued += 1
        answer = {"access_token": f"emu-access-{self.tokens_issued}", "expires_in": 3599, "token_type": "Bearer",
                  "scope": "https://www.googleapis.com/auth/documents https://www.googleapis.com/auth/drive.file"}
        if grant == "authorization_code":
            answer["refresh_token"] = "emu-refresh-" + secrets.token_hex(4)
        return 200, answer, {}

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
        units = copy.deepcopy(doc.units)
        for i, request in enumerate(requests):
            if not isinstance(request, dict) or len(request) != 1:
                raise ApiError(400, f"Invalid requests[{i}]: exactly one kind of request must be set.")
            kind, args = next(iter(request.items()))
            op = _OPS.get(kind)
            if op is None:
                raise ApiError(400, f"Invalid JSON payload received. Unknown name \"{kind}\" at 'requests[{i}]'.")
            try:
                op(units, args)
            except ApiError as exc:
                raise ApiError(400, f"Invalid requests[{i}].{kind}: {exc.message}") from None
        doc.units = units
        doc.revision = _new_revision()
        return {"documentId": doc.id, "replies": [{} for _ in requests],
                "writeControl": {"requiredRevisionId": doc.revision}}


# -- request bodies checked against the API's own schemas ------------------------------

_SCHEMAS: dict[str, dict] = {}


def schemas(api: str) -> dict:
    """Return the discovery schemas of ``docs.v1`` or ``drive.v3`` (shipped with googleapiclient)."""
    if api not in _SCHEMAS:
        from pathlib import Path

        import googleapiclient

        folder = Path(googleapiclient.__file__).parent / "discovery_cache" / "documents"
        _SCHEMAS[api] = json.loads((folder / f"{api}.json").read_text(encoding="utf-8"))["schemas"]
    return _SCHEMAS[api]


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
    out, index = [], 1
    for u in units:
        out.append(index)
        index += u.size
    out.append(index)
    return out


def _position(units: list[Unit], index: int, what: str) -> int:
    """Return the unit number starting at ``index`` (len(units) for the end)."""
    starts = _starts(units)
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
    return lo


def _range(units: list[Unit], args: dict) -> tuple[int, int, int, int]:
    rng = args.get("range") or {}
    if rng.get("segmentId") or rng.get("tabId") not in (None, "", "t.0"):
        raise ApiError(400, "only the body segment of the first tab is supported by the test server")
    start, end = rng.get("startIndex", 0), rng.get("endIndex", 0)
    if not (isinstance(start, int) and isinstance(end, int)) or start >= end:
        raise ApiError(400, "The range should not be empty.")
    return start, end, _position(units, start, "start"), _position(units, end, "end")


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
    if not text:
        raise ApiError(400, "The text to insert should not be empty.")
    before = units[k - 1] if k > 0 and units[k - 1].char not in (None, "\n") else None
    style = copy.deepcopy((before or units[k]).style)
    para = next(u for u in units[k:] if u.char == "\n")
    units[k:k] = [Unit(c, copy.deepcopy(style), copy.deepcopy(para.pstyle) if c == "\n" else {}) for c in text]


def _delete_range(units: list[Unit], args: dict) -> None:
    _, _, i, j = _range(units, args)
    if j >= len(units):
        raise ApiError(400, "The range cannot include the newline character at the end of the segment.")
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
    names, style = _fields(args, TEXT_STYLE_FIELDS), args.get("textStyle") or {}
    for u in units[i:j]:
        for name in names:
            if name in style:
                u.style[name] = copy.deepcopy(style[name])
            else:
                u.style.pop(name, None)


def _update_paragraph_style(units: list[Unit], args: dict) -> None:
    _, _, i, j = _range(units, args)
    names, style = _fields(args, PARAGRAPH_STYLE_FIELDS), args.get("paragraphStyle") or {}
    k = i
    while k < len(units):
        if units[k].char == "\n":
            for name in names:
                if name in style:
                    units[k].pstyle[name] = copy.deepcopy(style[name])
                else:
                    units[k].pstyle.pop(name, None)
            if k >= j - 1:
                break
        k += 1


_OPS = {"insertText": _insert_text, "deleteContentRange": _delete_range,
        "updateTextStyle": _update_text_style, "updateParagraphStyle": _update_paragraph_style}


def _render(doc: Doc) -> dict:
    """Return a document as the Docs API's ``Document`` JSON."""
    content: list[dict] = [{"endIndex": 1, "sectionBreak": {"sectionStyle": {
        "columnSeparatorStyle": "NONE", "contentDirection": "LEFT_TO_RIGHT", "sectionType": "CONTINUOUS"}}}]
    starts = _starts(doc.units)
    para: list[int] = []
    for k, u in enumerate(doc.units):
        para.append(k)
        if u.char == "\n":
            content.append(_paragraph(doc.units, starts, para))
            para = []
    return {"documentId": doc.id, "title": doc.title, "revisionId": doc.revision,
            "body": {"content": content},
            "documentStyle": {"pageSize": {"height": {"magnitude": 792, "unit": "PT"},
                                           "width": {"magnitude": 612, "unit": "PT"}}},
            "namedStyles": {"styles": []}, "suggestionsViewMode": "SUGGESTIONS_INLINE"}


def _paragraph(units: list[Unit], starts: list[int], ks: list[int]) -> dict:
    elements: list[dict] = []
    run: list[int] = []

    def flush():
        if run:
            elements.append({"startIndex": starts[run[0]], "endIndex": starts[run[-1] + 1],
                             "textRun": {"content": "".join(units[k].char for k in run),
                                         "textStyle": copy.deepcopy(units[run[0]].style)}})
            run.clear()

    for k in ks:
        u = units[k]
        if u.char is None:
            flush()
            elements.append({"startIndex": starts[k], "endIndex": starts[k + 1],
                             "inlineObjectElement": {"inlineObjectId": u.obj, "textStyle": {}}})
            continue
        if run and units[run[0]].style != u.style:
            flush()
        run.append(k)
    flush()
    pstyle = {"namedStyleType": "NORMAL_TEXT", "direction": "LEFT_TO_RIGHT", **units[ks[-1]].pstyle}
    element = {"startIndex": starts[ks[0]], "endIndex": starts[ks[-1] + 1],
               "paragraph": {"elements": elements, "paragraphStyle": pstyle}}
    if element["startIndex"] == 0:
        del element["startIndex"]
    return element


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
            status, payload, headers = self.owner.handle(method, unquote(parts.path), parse_qs(parts.query), body)
        except ApiError as exc:
            status, payload = exc.code, exc.body()
        except (ValueError, KeyError) as exc:
            status, payload = 400, ApiError(400, f"Invalid JSON payload received. {exc}").body()
        with self.owner._lock:
            if self.owner.log:
                self.owner.log[-1].status = status
        data = b"" if payload is None else json.dumps(payload).encode()
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
