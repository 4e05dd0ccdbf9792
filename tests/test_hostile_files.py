"""A document never makes pbd open a local file (issue 31, item 3).

Anyone with the link can edit the match document.  A path typed into any option or header
line of any game (``Options: catalogue=/etc/passwd`` in Boys' Town, ``Options: board=FILE``
in 2Xd6, ``Deck: FILE`` in Twin Tower City, ...) is refused or ignored: pbd opens no file
outside PBD_HOME, the document's own folder, its bundled data and the Python installation
(recorded with an audit hook), and never says anything read from such a file.
"""

from __future__ import annotations

import re

import pytest
from hostile_helpers import GAMES, SECRET, allowed_roots, opened, outside, started

KNOWN = {0, 1, 2, 3, 4, 5}
#: option keys any game might take a file for, and each game's own option words
OPTION_KEYS = ("catalogue", "starts", "board", "deck", "cards", "adjacency", "rc", "exact-finish", "team", "side")
HEADER = re.compile(r"^(?P<key>[A-Z][A-Za-z ]{1,20}):\s*(?P<value>.*)$")
COMMANDS = (["show"], ["check"], ["audit"], ["legal", "--as", "Ann"], ["hand", "--as", "Ben"], ["score"])


def _paths(tmp_path):
    secret_dir = tmp_path / "outside"
    secret_dir.mkdir(exist_ok=True)
    secret = secret_dir / "secret.toml"
    secret.write_text(SECRET)
    (secret_dir / "secret.txt").write_text(SECRET)
    return [str(secret), str(secret_dir / "secret.txt"), "../outside/secret.toml", str(secret_dir)]


def hostile_headers(text: str, path: str) -> list[str]:
    """Return documents like ``text`` with ``path`` typed into every header line and every option word."""
    lines = text.split("\n")
    head = lines[:lines.index("")] + [ln for ln in lines[lines.index(""):lines.index("") + 12] if HEADER.match(ln)]
    out = []
    for line in head:
        m = HEADER.match(line)
        if not m or m.group("key") in ("Seats", "Players", "Turn"):
            continue
        rest = m.group("value").split(" · ", 1)
        variants = [f"{m.group('key')}: {path}", f"{m.group('key')}: {path} · {rest[-1]}",
                    f"{m.group('key')}: {path} ({rest[0]})"]
        if m.group("key") == "Options":
            words = m.group("value").split()
            variants += [f"Options: {' '.join(words + [f'{k}={path}'])}" for k in OPTION_KEYS]
            variants += [f"Options: {' '.join(w.split('=')[0] + '=' + path if '=' in w else w for w in words)}"]
        out += [text.replace(line, v, 1) for v in variants]
    if not any(ln.startswith("Options:") for ln in head):      # a game whose documents carry no options line
        at = text.index("\n") + 1
        out += [text[:at] + f"Options: {k}={path}\n" + text[at:] for k in OPTION_KEYS]
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_path_in_any_option_or_header_line_is_never_opened(pbd, tmp_path, game):
    doc = started(game, tmp_path)
    home = tmp_path / "pbd-home"
    roots = allowed_roots(tmp_path / "pbd-home")
    text = doc.read_text()
    paths = _paths(tmp_path)
    tried = 0
    for path in paths[:1]:
        for hostile in hostile_headers(text, path):
            for command in COMMANDS:
                doc.write_text(hostile)
                with opened() as seen:
                    result = pbd(command[0], doc, *command[1:])
                bad = outside(seen, roots, doc)
                assert not bad, (command, hostile[:300], bad)
                assert result.exit_code in KNOWN, (command, result.output)
                assert "TOPSECRET" not in result.output and "internal error" not in result.output, result.output
                tried += 1
    assert tried > 20 and home.is_dir()


@pytest.mark.parametrize("game", [g if g in ("boystown", "2xd6") else pytest.param(g, marks=pytest.mark.long)
                                  for g in sorted(GAMES)])        # the games whose options name files: by default
def test_other_spellings_of_a_path_are_never_opened(pbd, tmp_path, game):
    doc = started(game, tmp_path)
    roots = allowed_roots(tmp_path / "pbd-home")
    text = doc.read_text()
    for path in _paths(tmp_path)[1:]:
        for hostile in hostile_headers(text, path):
            doc.write_text(hostile)
            with opened() as seen:
                result = pbd("show", doc)
            assert not outside(seen, roots, doc), (hostile[:300], outside(seen, roots, doc))
            assert "TOPSECRET" not in result.output and "internal error" not in result.output, result.output


def test_boys_town_catalogue_etc_passwd_is_refused_without_opening_it(pbd, tmp_path):
    doc = started("boystown", tmp_path)
    text = doc.read_text()
    doc.write_text(text.replace("Options: catalogue=standard", "Options: catalogue=/etc/passwd"))
    before = doc.read_bytes()
    for command in COMMANDS:
        with opened() as seen:
            result = pbd(command[0], doc, *command[1:])
        assert "/etc/passwd" not in seen, command
        assert result.exit_code == 3, (command, result.output)
        assert "passwd: not a TOML" not in result.output and "Expected '='" not in result.output, result.output
        assert "catalogue=/etc/passwd" in result.output or "/etc/passwd" in result.output, result.output
        assert doc.read_bytes() == before
