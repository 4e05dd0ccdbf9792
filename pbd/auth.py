"""Google sign-in for players: OAuth installed-app flow, cached token, service-account keys.

The token lives at ``PBD_HOME/google-token.json`` with mode 0600 and is refreshed
when it has expired.  ``PBD_GOOGLE_CREDENTIALS=FILE`` uses a service-account key (or
an authorized-user token file) instead.  No message from here ever contains a token,
a refresh token, a client secret or a private key.

Players sign in with :data:`SCOPES` (edit Docs, create and share pbd's own files);
spectators with ``pbd auth login --read-only`` (:data:`READ_SCOPES`, read Docs only).
A token keeps the scopes it was granted: ``pbd auth status`` asks Google's tokeninfo
endpoint which ones they really are.  Refresh tokens of an OAuth client whose consent
screen is in "Testing" status expire after 7 days (publish the client to avoid that).

Google libraries are imported inside the functions, so ``pbd --help`` and local
commands never load them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from pbd import paths
from pbd.errors import AuthError, BackendError

DOCUMENTS = "https://www.googleapis.com/auth/documents"
DRIVE_FILE = "https://www.googleapis.com/auth/drive.file"
DOCUMENTS_READONLY = "https://www.googleapis.com/auth/documents.readonly"
#: What a player's sign-in asks for: edit the match documents, create and share pbd's own.
SCOPES = [DOCUMENTS, DRIVE_FILE]
#: What a spectator's sign-in asks for (``pbd auth login --read-only``).
READ_SCOPES = [DOCUMENTS_READONLY]
#: Scopes that let pbd edit a document (any one of them).
WRITE_SCOPES = {DOCUMENTS, DRIVE_FILE, "https://www.googleapis.com/auth/drive"}
#: What each scope lets pbd do, in the words the consent screen uses.
SCOPE_NAMES = {DOCUMENTS: "See, edit, create and delete your Google Docs documents (to play on them)",
               DRIVE_FILE: "See, edit, create and delete only the specific Google Drive files you use with "
                           "this app (to create and share match documents)",
               DOCUMENTS_READONLY: "See all your Google Docs documents (to watch a match)"}
TOKENINFO = "https://oauth2.googleapis.com/tokeninfo"
EXPIRED = ("your Google sign-in expired or was revoked (sign-ins of an OAuth client in \"Testing\" status "
           "expire after 7 days)")
TOKEN_FILE = "google-token.json"
CLIENT_FILE = "google-client.json"
SIGN_IN_HINT = ("run: pbd auth login --client CLIENT.json  (an OAuth client file, shaped like credentials.example.json: "
                "make your own, or save the one a friend shares as google-client.json in PBD_HOME; docs/google.md "
                "shows both, screen by screen)")


def token_path() -> Path:
    """Return where the sign-in is cached (``PBD_HOME/google-token.json``)."""
    return Path(paths.home()) / TOKEN_FILE


def signed_in() -> bool:
    """Return True if a sign-in is saved or named by ``PBD_GOOGLE_CREDENTIALS``."""
    return bool(os.environ.get("PBD_GOOGLE_CREDENTIALS", "").strip()) or token_path().exists()


def credentials(scopes: list[str] | None = None):
    """Return usable Google credentials, refreshing (and re-saving) an expired user token.

    ``PBD_GOOGLE_CREDENTIALS`` wins over the cached token.  A user token keeps the
    scopes it was granted; a service-account key is given ``scopes`` (default :data:`SCOPES`).

    :raises AuthError: not signed in, or the file is missing, malformed or refused.
    :raises BackendError: Google cannot be reached to refresh the token.
    """
    env = os.environ.get("PBD_GOOGLE_CREDENTIALS", "").strip()
    path = Path(env).expanduser() if env else token_path()
    if not env and not path.exists():
        raise AuthError("not signed in to Google", hint=SIGN_IN_HINT)
    source = f"PBD_GOOGLE_CREDENTIALS file {path}" if env else f"saved sign-in {path}"
    creds = from_info(read_json(path, source), source, scopes)
    local = emulator_token_uri()
    if local and hasattr(creds, "with_token_uri") and getattr(creds, "refresh_token", None) \
            and not str(getattr(creds, "token_uri", "")).startswith(local.rsplit("/", 1)[0]):
        expiry, creds = creds.expiry, creds.with_token_uri(local)
        creds.expiry = expiry  # the copy forgets it
    if getattr(creds, "refresh_token", None) and not creds.valid:
        refresh(creds)
        if not env:
            save_token(creds.to_json())
    return creds


def emulator_token_uri() -> str | None:
    """Return the local test server's token endpoint, if ``PBD_DOCS_EMULATOR_HOST`` is a loopback address.

    google-auth always refreshes user tokens at Google's endpoint; with a local
    Docs API server (tests) the refresh goes to ``http://HOST/token`` instead.  Only
    loopback hosts qualify, so the variable cannot send a refresh token off the machine.
    """
    host = os.environ.get("PBD_DOCS_EMULATOR_HOST", "").strip()
    name = host.rsplit(":", 1)[0].strip("[]")
    if name in ("127.0.0.1", "localhost", "::1"):
        return f"http://{host}/token"
    return None


def read_json(path: Path, what: str) -> dict:
    """Return the JSON object in ``path``.

    :raises AuthError: the file is missing, unreadable or not a JSON object.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AuthError(f"{what} does not exist", hint=SIGN_IN_HINT) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise AuthError(f"cannot read {what}: {getattr(exc, 'strerror', None) or type(exc).__name__}") from None
    except ValueError as exc:
        raise AuthError(f"{what} is not valid JSON (line {getattr(exc, 'lineno', '?')})",
                        hint=SIGN_IN_HINT) from None
    if not isinstance(data, dict):
        raise AuthError(f"{what} is not a Google credentials file (expected a JSON object)", hint=SIGN_IN_HINT)
    return data


def from_info(info: dict, source: str, scopes: list[str] | None = None):
    """Return credentials for a service-account key or an authorized-user token.

    A user token keeps the scopes saved with it.  The type-specific loaders are used,
    as google-auth recommends for files from outside (its generic
    ``load_credentials_from_file``/``_dict`` now warn that they are deprecated for that),
    after the shape has been checked here.

    :raises AuthError: the shape is wrong (an OAuth client file, missing fields, bad key).
    """
    kind = info.get("type")
    if "installed" in info or "web" in info:
        raise AuthError(f"{source} is an OAuth client file, not a sign-in",
                        hint="sign in with it: pbd auth login --client FILE")
    try:
        if kind == "service_account":
            from google.oauth2 import service_account

            return service_account.Credentials.from_service_account_info(info, scopes=scopes or SCOPES)
        if kind == "authorized_user" or "refresh_token" in info:
            from google.oauth2.credentials import Credentials

            return Credentials.from_authorized_user_info(info)
    except (ValueError, KeyError, TypeError) as exc:
        raise AuthError(f"{source} is malformed ({_safe(exc)})", hint=SIGN_IN_HINT) from None
    raise AuthError(f"{source} is neither a saved sign-in nor a service-account key", hint=SIGN_IN_HINT)


def write_scopes_missing(creds) -> str:
    """Return a description of a read-only sign-in (its scopes), or '' if it may edit (or cannot be told)."""
    scopes = set(getattr(creds, "granted_scopes", None) or getattr(creds, "scopes", None) or ())
    if not scopes or scopes & WRITE_SCOPES:
        return ""
    return ", ".join(sorted(s.rsplit("/", 1)[-1] for s in scopes))


def refresh(creds) -> None:
    """Refresh an expired user token in place.

    :raises AuthError: Google refused it (revoked, expired, client deleted).
    :raises BackendError: Google cannot be reached.
    """
    from google.auth.exceptions import RefreshError, TransportError
    from google.auth.transport.requests import Request

    try:
        creds.refresh(Request())
    except RefreshError:
        raise AuthError(EXPIRED, hint="run: pbd auth login") from None
    except TransportError:
        raise BackendError("cannot reach Google to refresh the sign-in", hint="check your network connection") from None


def save_token(data: str) -> Path:
    """Write the token JSON ``data`` to the token file atomically, mode 0600.

    :raises BackendError: PBD_HOME cannot be written.
    """
    path = token_path()
    try:
        paths.write_private(path, data.encode("utf-8"))
    except OSError as exc:
        raise BackendError(f"cannot save the sign-in in {path.parent}: {exc.strerror or exc}") from None
    return path


def client_config(path: Path) -> dict:
    """Return an OAuth client file's contents after checking its shape.

    :raises AuthError: missing, not JSON, not an "installed"/"web" client, or still placeholders.
    """
    info = read_json(path, f"OAuth client file {path}")
    section = info.get("installed") or info.get("web")
    if not isinstance(section, dict):
        raise AuthError(f"{path} is not an OAuth client file (expected an \"installed\" section)",
                        hint="download a Desktop-app OAuth client from Google Cloud console, "
                             "APIs & Services > Credentials; see credentials.example.json")
    missing = [k for k in ("client_id", "client_secret", "auth_uri", "token_uri") if not section.get(k)]
    if missing:
        raise AuthError(f"{path} lacks {', '.join(missing)} in its OAuth client section")
    if "YOUR" in str(section["client_id"]).upper() or "PLACEHOLDER" in str(section["client_secret"]).upper():
        raise AuthError(f"{path} still has the placeholder values of credentials.example.json",
                        hint="put your own OAuth client's values in it")
    return info


def login(client_file: str | None = None, service_account: str | None = None, open_browser: bool = True,
          read_only: bool = False):
    """Sign in (browser OAuth flow) or register a service-account key; save it under PBD_HOME.

    With ``read_only`` the sign-in asks only to read Google Docs (a spectator's).

    :raises AuthError: the client or key file is missing or malformed, the sign-in failed,
        or the user did not grant every permission pbd asked for (each one is named).
    """
    from pbd.result import Result

    if service_account:
        info = read_json(Path(service_account).expanduser(), f"service-account key {service_account}")
        if info.get("type") != "service_account":
            raise AuthError(f"{service_account} is not a service-account key (its \"type\" is not service_account)")
        creds = from_info(info, f"service-account key {service_account}")
        path = save_token(json.dumps(info))
        return Result([f"Using service account {creds.service_account_email}; key saved in {path} (mode 0600).",
                       "It can edit documents shared with that address; it cannot create them (gdoc:new)."],
                      {"kind": "service_account", "account": creds.service_account_email, "file": str(path)})
    path = Path(client_file or os.environ.get("PBD_GOOGLE_CLIENT") or Path(paths.home()) / CLIENT_FILE).expanduser()
    if not path.exists():
        raise AuthError(f"no OAuth client file at {path}", hint=SIGN_IN_HINT)
    config = client_config(path)
    from google_auth_oauthlib.flow import InstalledAppFlow

    wanted = READ_SCOPES if read_only else SCOPES
    flow = InstalledAppFlow.from_client_config(config, wanted)
    relax = os.environ.get("OAUTHLIB_RELAX_TOKEN_SCOPE")
    os.environ["OAUTHLIB_RELAX_TOKEN_SCOPE"] = "1"  # a narrowed grant is explained below, not a crash
    try:
        creds = flow.run_local_server(
            port=0, open_browser=open_browser,
            authorization_prompt_message="Open this address to let pbd " + (
                "read" if read_only else "edit") + " your Google Docs:\n{url}",
            success_message="pbd is signed in. You can close this tab.")
    except Exception as exc:  # noqa: BLE001 -- oauthlib/requests raise many types; none may leak a secret
        raise AuthError(f"Google sign-in failed ({type(exc).__name__}: {_safe(exc)})") from None
    finally:
        if relax is None:
            os.environ.pop("OAUTHLIB_RELAX_TOKEN_SCOPE", None)
    granted = set(getattr(creds, "granted_scopes", None) or creds.scopes or wanted)
    missing = [s for s in wanted if s not in granted]
    if missing:
        raise AuthError("you did not allow pbd to: " + "; ".join(_scope_name(s) for s in missing)
                        + " — nothing was saved", hint="run pbd auth login again and tick every box on "
                                                       "Google's consent screen")
    saved = save_token(creds.to_json())
    kind = "read-only (spectator)" if read_only else "player"
    return Result([f"Signed in to Google ({kind}); token saved in {saved} (mode 0600)."],
                  {"kind": "authorized_user", "file": str(saved), "scopes": sorted(granted)})


def _scope_name(scope: str) -> str:
    return f"{SCOPE_NAMES.get(scope, scope)} [{scope.rsplit('/', 1)[-1]}]"


def granted_scopes(creds) -> tuple[list[str], str]:
    """Return ``(scopes, source)``: the scopes Google says the token has, or the saved ones if it cannot be asked."""
    token = getattr(creds, "token", None)
    if token and getattr(creds, "refresh_token", None):
        local = emulator_token_uri()
        url = local.rsplit("/", 1)[0] + "/tokeninfo" if local else TOKENINFO
        try:
            import requests

            answer = requests.get(url, params={"access_token": token}, timeout=10)
            if answer.status_code == 200:
                return sorted(str(answer.json().get("scope", "")).split()), "Google's tokeninfo"
        except (OSError, ValueError, ImportError):
            pass
    saved = getattr(creds, "granted_scopes", None) or getattr(creds, "scopes", None) or []
    return sorted(saved), "the saved sign-in"


def status():
    """Describe the sign-in in use, refreshing it if it expired.

    :raises AuthError: not signed in, or the sign-in is broken or revoked.
    """
    from pbd.result import Result

    lines = []
    emulator = os.environ.get("PBD_DOCS_EMULATOR_HOST")
    if emulator:
        lines.append(f"PBD_DOCS_EMULATOR_HOST={emulator}: documents go to that local server.")
    creds = credentials()
    env = os.environ.get("PBD_GOOGLE_CREDENTIALS")
    source = env or str(token_path())
    email = getattr(creds, "service_account_email", None)
    if email:
        lines.append(f"Signed in as service account {email} (from {source}).")
        data = {"kind": "service_account", "account": email, "file": source}
    else:
        expiry = creds.expiry.strftime("%Y-%m-%d %H:%M UTC") if creds.expiry else "unknown"
        lines.append(f"Signed in with a saved Google sign-in (from {source}); access valid until {expiry} "
                     "(pbd renews it; the sign-in itself lasts until revoked, or 7 days for an OAuth client "
                     "in Testing status).")
        data = {"kind": "authorized_user", "file": source, "expiry": expiry}
    if email:
        granted, where = sorted(creds.scopes or SCOPES), "the key's request"
    else:
        granted, where = granted_scopes(creds)
    data["scopes"] = granted
    lines.append(f"Scopes (from {where}): " + (", ".join(s.rsplit("/", 1)[-1] for s in granted) or "none"))
    if set(granted) & set(READ_SCOPES) and not set(granted) & WRITE_SCOPES:
        lines.append("This sign-in is read-only: it can show, check and audit matches, not play them.")
    else:
        lacking = [s for s in SCOPES if s not in granted]
        data["missing"] = lacking
        for scope in lacking:
            lines.append(f"Missing scope {scope.rsplit('/', 1)[-1]}: {SCOPE_NAMES.get(scope, scope)} "
                         "(run pbd auth login again and tick every box).")
    return Result(lines, data)


def logout():
    """Forget the saved sign-in (delete the token file)."""
    from pbd.result import Result

    path = token_path()
    if not path.exists():
        return Result([f"Not signed in (no {path})."], {"removed": False})
    try:
        path.unlink()
    except OSError as exc:
        raise BackendError(f"cannot remove {path}: {exc.strerror or exc}") from None
    return Result([f"Signed out: removed {path}.",
                   "To revoke pbd's access entirely: https://myaccount.google.com/permissions"], {"removed": True})


def _safe(exc: Exception) -> str:
    """Return a short description of ``exc`` that cannot carry a secret (no long tokens)."""
    text = str(exc).split("\n")[0][:160]
    return " ".join(w if len(w) < 40 else "…" for w in text.split())
