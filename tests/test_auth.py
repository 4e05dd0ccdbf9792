"""Google sign-in: bad credential files, the token cache, refresh and revocation, the OAuth flow.

Everything runs offline: token refresh and the OAuth flow go to tests/docs_server.py.
"""

import json
import os
import stat
import subprocess
import sys
import textwrap
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbd.cli import cli

SECRETS = ("emu-access", "emu-refresh", "s3cr3t-client", "PRIVATE KEY", "MIIE")


def run(*args, env=None):
    result = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)
    out = result.output + (result.stderr if result.stderr_bytes is not None else "")
    for secret in SECRETS:
        assert secret not in out, f"{secret!r} leaked: {out}"
    assert "Traceback" not in out
    return result.exit_code, out


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PBD_GOOGLE_CREDENTIALS", raising=False)
    monkeypatch.delenv("PBD_DOCS_EMULATOR_HOST", raising=False)
    return tmp_path / "home"


def client_file(path: Path, host: str = "127.0.0.1:9", **override) -> Path:
    section = {"client_id": "1234-abc.apps.googleusercontent.com", "client_secret": "s3cr3t-client",
               "project_id": "p", "auth_uri": f"http://{host}/auth", "token_uri": f"http://{host}/token",
               "redirect_uris": ["http://localhost"], **override}
    path.write_text(json.dumps({"installed": section}))
    return path


def token_file(path: Path, host: str, expired: bool, refresh="emu-refresh-1") -> Path:
    expiry = datetime.now(UTC).replace(tzinfo=None) + timedelta(hours=-1 if expired else 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({
        "type": "authorized_user", "token": "emu-access-0", "refresh_token": refresh,
        "token_uri": f"http://{host}/token", "client_id": "1234-abc.apps.googleusercontent.com",
        "client_secret": "s3cr3t-client", "scopes": ["https://www.googleapis.com/auth/documents",
                                                     "https://www.googleapis.com/auth/drive.file"],
        "expiry": expiry.isoformat() + "Z"}))
    os.chmod(path, 0o600)
    return path


def test_not_signed_in(home):
    code, out = run("auth", "status")
    assert code == 5 and "not signed in" in out and "pbd auth login" in out


def test_google_document_without_sign_in_is_exit_5(home):
    code, out = run("show", "gdoc:abcDEF123")
    assert code == 5 and "not signed in" in out


@pytest.mark.parametrize("content, message", [
    (None, "no OAuth client file"),
    ("{not json", "not valid JSON"),
    ("[1, 2]", "expected a JSON object"),
    ('{"type": "service_account"}', "expected an \"installed\" section"),
    ('{"installed": {"client_id": "x"}}', "lacks client_secret"),
])
def test_bad_client_files(home, tmp_path, content, message):
    path = tmp_path / "client.json"
    if content is not None:
        path.write_text(content)
    code, out = run("auth", "login", "--client", str(path), "--no-browser")
    assert code == 5 and message in out


def test_the_example_client_file_is_refused_as_placeholder(home):
    example = Path(__file__).parent.parent / "credentials.example.json"
    assert "installed" in json.loads(example.read_text())
    code, out = run("auth", "login", "--client", str(example), "--no-browser")
    assert code == 5 and "placeholder" in out


@pytest.mark.parametrize("content, message", [
    ("{oops", "not valid JSON"),
    ('{"installed": {"client_id": "x", "client_secret": "s3cr3t-client"}}', "is an OAuth client file"),
    ('{"type": "authorized_user", "refresh_token": "emu-refresh-9"}', "malformed"),
    (('{"type": "service_account", "client_email": "a@b", "private_key": "MIIE-not-a-key", '
      '"token_uri": "http://x"}'), "malformed"),
    ('{"hello": "world"}', "neither"),
])
def test_bad_credentials_files(home, tmp_path, content, message):
    path = tmp_path / "creds.json"
    path.write_text(content)
    code, out = run("auth", "status", env={"PBD_GOOGLE_CREDENTIALS": str(path)})
    assert code == 5 and message in out
    code, out = run("show", "gdoc:abcDEF123", env={"PBD_GOOGLE_CREDENTIALS": str(path)})
    assert code == 5


def test_missing_credentials_file(home, tmp_path):
    code, out = run("auth", "status", env={"PBD_GOOGLE_CREDENTIALS": str(tmp_path / "nope.json")})
    assert code == 5 and "does not exist" in out


def test_expired_token_is_refreshed_and_saved_0600(home, docs_server):
    monkey_home = Path(os.environ["PBD_HOME"])
    path = token_file(monkey_home / "google-token.json", docs_server.host, expired=True)
    code, out = run("auth", "status")
    assert code == 0 and "Signed in" in out
    saved = json.loads(path.read_text())
    assert saved["token"] == "emu-access-1" and saved["refresh_token"] == "emu-refresh-1"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    refreshes = lambda: sum(1 for r in docs_server.log if r.path == "/token")  # noqa: E731
    assert refreshes() == 1
    code, out = run("auth", "status")  # still valid: no new refresh
    assert code == 0 and refreshes() == 1


def test_revoked_token_is_exit_5(home, docs_server):
    token_file(Path(os.environ["PBD_HOME"]) / "google-token.json", docs_server.host, expired=True)
    docs_server.revoked_refresh_tokens.add("emu-refresh-1")
    code, out = run("auth", "status")
    assert code == 5 and "revoked" in out


def test_logout_forgets_the_token(home, docs_server):
    path = token_file(Path(os.environ["PBD_HOME"]) / "google-token.json", docs_server.host, expired=False)
    code, out = run("auth", "logout")
    assert code == 0 and not path.exists()
    code, out = run("auth", "logout")
    assert code == 0 and "Not signed in" in out


def _service_account_key(tmp_path: Path) -> Path:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    path = tmp_path / "sa.json"
    path.write_text(json.dumps({"type": "service_account", "project_id": "p", "private_key_id": "k1",
                                "private_key": pem, "client_email": "pbd-bot@p.iam.gserviceaccount.com",
                                "client_id": "1", "token_uri": "https://oauth2.googleapis.com/token"}))
    return path


def test_service_account_key_by_login_and_by_environment(home, tmp_path):
    key = _service_account_key(tmp_path)
    code, out = run("auth", "login", "--service-account", str(key))
    assert code == 0 and "pbd-bot@p.iam.gserviceaccount.com" in out
    saved = home / "google-token.json"
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    code, out = run("auth", "status")
    assert code == 0 and "service account pbd-bot@" in out
    code, out = run("auth", "status", env={"PBD_GOOGLE_CREDENTIALS": str(key)})
    assert code == 0 and "service account pbd-bot@" in out


def test_login_refuses_a_non_service_account_key(home, tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"type": "authorized_user"}')
    code, out = run("auth", "login", "--service-account", str(path))
    assert code == 5 and "not a service-account key" in out


FAKE_BROWSER = textwrap.dedent("""
    # Plays the user's browser: follows the sign-in address (the test server approves at once
    # and redirects to pbd's local callback).  Detaches first, as a real browser would.
    import os, sys, urllib.request
    if os.fork():
        sys.exit(0)
    os.setsid()
    urllib.request.urlopen(sys.argv[1], timeout=20).read()
""")


def browser_login(home, tmp_path, docs_server):
    """Run ``pbd auth login`` as a user would, a scripted browser answering the consent screen."""
    browser = tmp_path / "browser.py"
    browser.write_text(FAKE_BROWSER)
    client = client_file(tmp_path / "client.json", docs_server.host)
    env = {**os.environ, "BROWSER": f"{sys.executable} {browser} %s", "OAUTHLIB_INSECURE_TRANSPORT": "1",
           "PBD_HOME": str(home)}
    env.pop("PBD_DOCS_EMULATOR_HOST", None)
    pbd = Path(sys.executable).parent / "pbd"
    proc = subprocess.run([str(pbd), "auth", "login", "--client", str(client)], env=env, capture_output=True,
                          text=True, timeout=60, check=False)
    return proc, proc.stdout + proc.stderr


def test_full_oauth_installed_app_flow(home, tmp_path, docs_server):
    proc, out = browser_login(home, tmp_path, docs_server)
    assert proc.returncode == 0, out
    assert "Signed in" in out and "Traceback" not in out
    for secret in SECRETS:
        assert secret not in out
    token = home / "google-token.json"
    assert stat.S_IMODE(token.stat().st_mode) == 0o600
    saved = json.loads(token.read_text())
    assert saved["refresh_token"].startswith("emu-refresh-")
    assert set(saved["scopes"]) == {"https://www.googleapis.com/auth/documents",
                                    "https://www.googleapis.com/auth/drive.file"}


# -- scopes: what the token really has, spectators, narrowed consent ----------------------

READONLY = "https://www.googleapis.com/auth/documents.readonly"
DOCS = "https://www.googleapis.com/auth/documents"
DRIVE_FILE = "https://www.googleapis.com/auth/drive.file"


def _signed_in_with(docs_server, scopes, refresh="emu-refresh-x") -> Path:
    docs_server.grant(refresh, scopes)
    path = token_file(Path(os.environ["PBD_HOME"]) / "google-token.json", docs_server.host, expired=True,
                      refresh=refresh)
    saved = json.loads(path.read_text())
    saved["scopes"] = sorted(scopes)
    path.write_text(json.dumps(saved))
    return path


def test_status_reports_the_scopes_google_says_the_token_has(home, docs_server):
    _signed_in_with(docs_server, {DOCS})  # the user unticked "Drive files" on the consent screen
    code, out = run("auth", "status", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["scopes"] == [DOCS] and data["missing"] == [DRIVE_FILE]
    code, out = run("auth", "status")
    assert "Missing scope drive.file" in out and "create and share match documents" in out
    assert any(r.path == "/tokeninfo" for r in docs_server.log)


def test_an_expired_sign_in_says_why_and_what_to_do(home, docs_server):
    token_file(Path(os.environ["PBD_HOME"]) / "google-token.json", docs_server.host, expired=True)
    docs_server.revoked_refresh_tokens.add("emu-refresh-1")
    code, out = run("auth", "status")
    assert code == 5 and "expired" in out and "7 days" in out and "pbd auth login" in out


def _match_on_google(docs_server) -> str:
    from pbd import match

    gid = docs_server.create_document("")
    match.new("cnc", f"gdoc:{gid}", "Ann", "forces-of-justice", "a")
    match.join(f"gdoc:{gid}", "Ben", "forces-of-corruption", "b")
    return gid


def test_a_spectator_reads_with_the_read_only_scope_and_cannot_write(home, docs_server, monkeypatch):
    monkeypatch.setenv("PBD_HOME", str(home / "players"))
    gid = _match_on_google(docs_server)  # the players (anonymous to the test server)
    monkeypatch.setenv("PBD_HOME", str(home / "spectator"))
    _signed_in_with(docs_server, {READONLY}, refresh="emu-refresh-spectator")
    before = docs_server.text(gid)
    for command, words in (("show", "Ann to move"), ("check", "consistent with the rules"),
                           ("log", "2. Ben: joined"), ("audit", "2 log entries")):
        code, out = run(command, f"gdoc:{gid}")
        assert words in out and "insufficient" not in out, (command, out)
        # an audit before every seat revealed says "incomplete" and exits 1 (issue 25); the rest exit 0
        assert (code, "audit: incomplete" in out) == ((1, True) if command == "audit" else (0, False)), (command, out)
    refreshes = [r for r in docs_server.log if r.path == "/token"]
    assert refreshes and all(set(s) == {READONLY} for s in docs_server.access_scopes.values())
    gets = [r for r in docs_server.log if r.path.startswith("/v1/documents/")]
    assert gets and all(r.status == 200 for r in gets)
    code, out = run("move", f"gdoc:{gid}", "--as", "Ann", "draw")
    # refused before any request: a spectator holds no seat (the scope's own refusal: the next test)
    assert code == 2 and "no private state for 'Ann'" in out and docs_server.text(gid) == before
    assert docs_server.count(":batchUpdate") == 2  # only the players' new and join


def test_a_read_only_token_is_refused_before_any_write(home, docs_server, monkeypatch):
    from pbd.documents import open_document
    from pbd.errors import AuthError

    gid = docs_server.create_document("hello\n")
    _signed_in_with(docs_server, {READONLY}, refresh="emu-refresh-ro")
    doc = open_document(f"gdoc:{gid}")
    snap = doc.read()
    with pytest.raises(AuthError, match="read-only") as info:
        doc.write("hello there\n", snap)
    assert info.value.exit_code == 5 and docs_server.count(":batchUpdate") == 0


def test_the_test_server_refuses_a_write_without_a_write_scope(docs_server):
    import docs_server as emulator

    docs_server.grant("r", {READONLY})
    docs_server.access_scopes["emu-ro"] = {READONLY}
    gid = docs_server.create_document("x\n")
    with pytest.raises(emulator.ApiError, match="insufficient authentication scopes"):
        docs_server.handle("POST", f"/v1/documents/{gid}:batchUpdate", {}, b"{}", auth="Bearer emu-ro")
    with pytest.raises(emulator.ApiError, match="invalid authentication credentials") as info:
        docs_server.handle("GET", f"/v1/documents/{gid}", {}, b"", auth="Bearer forged")
    assert info.value.code == 401


def test_unticking_a_scope_on_the_consent_screen_is_named(home, tmp_path, docs_server):
    docs_server.untick = {DRIVE_FILE}
    proc, out = browser_login(home, tmp_path, docs_server)
    assert proc.returncode == 5, out
    assert "did not allow pbd to" in out and "[drive.file]" in out and "sign-in failed" not in out
    assert "Traceback" not in out and not (home / "google-token.json").exists()
