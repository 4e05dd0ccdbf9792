"""``pbd show DOC --svg FILE`` for Boys' Town: the picture shows what ``show --json`` shows, names escaped."""

from __future__ import annotations

import re

from svg_helpers import HOSTILE, NS, hostile
from svg_helpers import picture as _picture
from svg_helpers import texts as _texts


def _built(pbd, doc) -> str:
    """Play Ann's first turn up to one build; return the card she built."""
    pbd("new", "boystown", doc, "--as", "Ann", "--players", "2", "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "b", ok=True)
    pbd("move", doc, "--as", "Ann", "draw", ok=True)
    pbd("hand", doc, "--as", "Ben", ok=True)                     # Ben's pbd unlocks Ann's card
    pbd("move", doc, "--as", "Ann", "keep", ok=True)
    build = next(m for m in pbd.json("legal", doc, "--as", "Ann")["moves"] if m.startswith("build "))
    pbd("move", doc, "--as", "Ann", build, ok=True)
    return build.removeprefix("build ")


def test_the_picture_shows_towns_hands_piles_and_whose_turn(pbd, tmp_path):
    doc, path = tmp_path / "m.txt", tmp_path / "bt.svg"
    card = _built(pbd, doc)
    data = pbd.json("show", doc)
    root = _picture(pbd, doc, path)
    texts = _texts(root)
    assert texts[0] == f"Boys' Town · match {data['match']}"
    assert texts[1].startswith(f"Round {data['round']} · {data['turn']}'s turn")
    top = re.search(r"\(top: [^)]+\)", next(line for line in doc.read_text().splitlines()
                                            if line.startswith("Draw pile:"))).group(0)
    assert texts[2] == f"Draw pile: {data['draw_pile']} · Discard pile: {data['discard_pile']} {top}"
    bands = {g.get("data-name"): g for g in root.iter(f"{NS}g") if g.get("class") == "player"}
    assert list(bands) == [p["name"] for p in data["players"]]
    for p in data["players"]:
        head = _texts(bands[p["name"]])[0]
        assert head.startswith(f"{p['name']} · hand {p['hand']} · turns {p['turns']}")
        drawn = [g.get("data-name") for g in bands[p["name"]].iter(f"{NS}g") if g.get("class") == "resident"]
        assert drawn == p["town"]
    assert data["towns"]["Ann"] == [card]
    resident = next(g for g in bands["Ann"].iter(f"{NS}g") if g.get("class") == "resident")
    line = next(x for x in doc.read_text().splitlines() if x.startswith(f"  {card} (#"))
    ap, tp = re.search(r"· AP (\d+) · TP (\d+)", line).groups()
    assert f"AP {ap} · TP {tp}" in _texts(resident)
    assert _texts(bands["Ben"])[0].endswith("· to move")


def test_hostile_names_are_escaped_in_the_picture(pbd, tmp_path):
    doc, path = tmp_path / "m.txt", tmp_path / "bt.svg"
    _built(pbd, doc)
    hostile(doc)
    root = _picture(pbd, doc, path)
    raw = path.read_text(encoding="utf-8")
    assert "<script>" not in raw and "&lt;script&gt;&amp;Ann" in raw
    assert any(t.startswith(f"{HOSTILE} · hand ") for t in _texts(root))


def test_the_picture_shows_a_battle_and_who_must_answer(pbd, tmp_path):
    from boystown_helpers import arrange, catch_up, start

    doc, path = tmp_path / "m.txt", tmp_path / "bt.svg"
    start(pbd, doc, 3)
    arrange(doc, hands={"Ann": ["Gym"], "Ben": ["Arcade"], "Cy": ["Lemonade Stand"]},
            towns={"Ann": ["Old Mill"], "Ben": ["Town Clock", "Fire Station"]}, turn="Ann", phase="attack",
            turns={"Ann": 2, "Ben": 1, "Cy": 1})
    pbd("move", doc, "--as", "Ann", "attack Ben with Old Mill from town", ok=True)
    catch_up(doc)
    assert "Waiting on: Ben — defend against Ann with a Resident" in doc.read_text()
    texts = _texts(_picture(pbd, doc, path))
    assert texts[1].startswith("Round ") and "waiting on Ben: defend against Ann with a Resident" in texts[1]
    assert any(t.startswith("Ben · hand 1 · turns 1 · Town ") and t.endswith("· to answer") for t in texts)
    assert "Battle: Ann attacks Ben from town · defend" in texts
    assert "Ann: Old Mill · Ben: to choose" in texts
