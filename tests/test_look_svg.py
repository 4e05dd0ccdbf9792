"""``pbd show DOC --svg FILE`` for C&C and Twin Tower City: the picture shows what the board shows, and every
text taken from the document is escaped (issue 15 item 8)."""

from __future__ import annotations

import pytest

from svg_helpers import HOSTILE, NS
from svg_helpers import hostile as _hostile
from svg_helpers import picture as _picture
from svg_helpers import texts as _texts


@pytest.fixture
def cnc(pbd, tmp_path):
    """A C&C match between Ann and Ben, each with a character in play."""
    doc = tmp_path / "m.txt"
    ann, ben = "Ann", "Ben"
    pbd("new", "cnc", doc, "--as", ann, "--deck", "forces-of-justice", "--seed", "a", ok=True)
    pbd("join", doc, "--as", ben, "--deck", "forces-of-corruption", "--seed", "b", ok=True)
    for who in (ann, ben, ann):
        hand = pbd("hand", doc, "--as", who, ok=True).output
        name = next((ln.split(" — ")[0].strip() for ln in hand.splitlines() if " HP · " in ln), None)
        pbd("move", doc, "--as", who, f"play {name}; end turn" if name else "end turn", ok=True)
    return doc


def test_cnc_picture_shows_both_halves_hp_classes_and_whose_turn(pbd, tmp_path, cnc):
    data = pbd.json("show", cnc)
    root = _picture(pbd, cnc, tmp_path / "board.svg")
    texts = _texts(root)
    [to_move] = data["to_move"]
    mover = next(p for p in data["players"] if p["name"] == to_move)
    assert f"Turn {data['turn']}: {to_move} to move ({mover['ap']} AP)" in texts, texts[:3]
    for seat, player in enumerate(data["players"], 1):
        assert any(t.startswith(f"{player['name']} (player {seat})") for t in texts), texts
        assert f"CP {player['cp']} · AP {player['ap']}" in "\n".join(texts)
        assert f"discards {len(player['discards'])}/25" in "\n".join(texts)
        for char in player["characters"]:
            card = next(g for g in root.iter(f"{NS}g") if g.get("data-name") == char["key"])
            shown = _texts(card)
            assert f"HP {char['hp']}/{char['max_hp']}" in shown and char["class"] in shown
            frame = next(r for r in card.iter(f"{NS}rect") if r.get("stroke-width") == "3")
            assert frame.get("stroke") == {"Hero": "#1f5fbf", "Villain": "#c62828", "Civilian": "#c9a400",
                                           "Government": "#2e8b3d", "Anti-Hero": "#777777",
                                           "Anti-Villain": "#e07b00"}[char["class"]]
    assert next(t for t in texts if "to move" in t and "player" in t).startswith(to_move)


def test_cnc_picture_shows_a_status(pbd, tmp_path, cnc):
    text = cnc.read_text()
    first = pbd.json("show", cnc)["players"][0]["characters"][0]
    edited = text.replace(f"[{first['name']} HP={first['hp']}/{first['max_hp']}]",
                          f"[{first['name']} HP=3/{first['max_hp']} frozen]", 1)
    assert edited != text
    cnc.write_text(edited)
    root = _picture(pbd, cnc, tmp_path / "board.svg")
    card = next(g for g in root.iter(f"{NS}g") if g.get("data-name") == first["key"])
    assert "frozen" in _texts(card) and f"HP 3/{first['max_hp']}" in _texts(card)


def test_hostile_names_are_escaped_in_the_picture(pbd, tmp_path, cnc):
    _hostile(cnc)
    path = tmp_path / "board.svg"
    root = _picture(pbd, cnc, path)
    raw = path.read_text(encoding="utf-8")
    assert "<script>" not in raw and "&lt;script&gt;&amp;Ann" in raw
    assert not list(root.iter(f"{NS}script")) and not list(root.iter("script"))
    assert any(t.startswith(f"{HOSTILE} (player 1)") for t in _texts(root))


def test_ttc_picture_shows_rounds_power_and_rounds_won(pbd, tmp_path):
    doc = tmp_path / "ttc.txt"
    ann, ben = "Ann", "Ben"
    pbd("new", "ttc", doc, "--as", ann, "--deck", "sample", "--seed", "a", ok=True)
    pbd("join", doc, "--as", ben, "--seed", "b", ok=True)
    pbd("move", doc, "--as", ann, "flip", ok=True)
    for who in (ann, ben):
        pbd("move", doc, "--as", who, pbd.json("legal", doc, "--as", who)["moves"][0], ok=True)
    data = pbd.json("show", doc)
    path = tmp_path / "ttc.svg"
    root = _picture(pbd, doc, path)
    texts = _texts(root)
    assert f"Light: {ann} · Dark: {ben}" in texts and f"Turn: {data['turn']}" in texts
    assert "Rounds won: Light 0, Dark 0" in texts
    rounds = [g for g in root.iter(f"{NS}g") if g.get("class") == "round"]
    assert [g.get("data-round") for g in rounds] == ["1", "2", "3", "4", "5"]
    first = data["rounds"][0]["score"]
    for side in ("light", "dark"):
        power = next(t for t in rounds[0].iter(f"{NS}text") if t.get("class") == f"power-{side}")
        assert power.text == str(first[side]["total"])
    assert "face down" in _texts(rounds[1])
    _hostile(doc)
    root = _picture(pbd, doc, path)
    raw = path.read_text(encoding="utf-8")
    assert "<script>" not in raw and "&lt;script&gt;&amp;Ann" in raw
    assert f"Light: {HOSTILE} · Dark: Ben" in _texts(root)
