"""Boys' Town catalogues: the bundled deck, players' own catalogues, every problem listed (exit 3)."""

from __future__ import annotations


from pbd.games.boystown.catalogue import GOODCUP, load


GOOD = """
[catalogue]
name = "tiny"
[[card]]
name = "Kid"
ap = 2
tp = 1
copies = 12
[[card]]
name = "Shop"
ap = 0
tp = 3
copies = 12
tags = ["shop"]
effects = [{ kind = "resident", do = "tp", amount = 1, per = "tag:shop" }]
"""


def test_the_standard_deck_has_60_cards_30_distinct_and_the_john_goodcup():
    cat = load("standard")
    assert len(cat.deck()) == 60 and len(cat.cards) >= 30 and GOODCUP in cat.cards
    assert cat.cards[GOODCUP].effects_of("resident", "goodcup")


def test_deck_check_of_the_bundled_catalogue(pbd):
    r = pbd("deck", "check", "standard", "--game", "boystown", ok=True)
    assert "60 cards, 34 distinct" in r.output


def test_a_players_own_catalogue_is_named_by_hash_never_by_path(pbd, tmp_path):
    mine = tmp_path / "secret-folder" / "my-cards.toml"
    mine.parent.mkdir()
    mine.write_text(GOOD)
    doc = tmp_path / "m.txt"
    pbd("new", "boystown", doc, "--as", "Ann", "--deck", mine, "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "b", ok=True)
    text = doc.read_text()
    assert "secret-folder" not in text and "my-cards" not in text
    assert "Catalogue: sha256:" in text
    assert "Options: catalogue=sha256:" in text
    pbd("move", doc, "--as", "Ann", "draw", ok=True)
    pbd("hand", doc, "--as", "Ben", ok=True)            # Ben's pbd unlocks Ann's card
    assert pbd("move", doc, "--as", "Ann", "keep; build Kid").exit_code == 0


def test_every_problem_is_listed_with_exit_3(pbd, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace("ap = 2", "ap = 99").replace('do = "tp"', 'do = "fly"')
                   + '\n[[combo]]\ncards = ["Kid", "Ghost"]\ntp = 1\n')
    r = pbd("deck", "check", bad, "--game", "boystown")
    assert r.exit_code == 3
    for words in ("ap must be a whole number 0..20", "do must be one of", "no card 'Ghost'"):
        assert words in r.output
    r = pbd("new", "boystown", tmp_path / "m.txt", "--as", "Ann", "--deck", bad)
    assert r.exit_code == 3 and not (tmp_path / "m.txt").exists()


def test_an_unknown_catalogue_hash_is_a_clear_error(pbd, tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text(GOOD)
    doc = tmp_path / "m.txt"
    pbd("new", "boystown", doc, "--as", "Ann", "--deck", mine, ok=True)
    text = doc.read_text()
    text = text.replace(text.split("catalogue=")[1].split("\n")[0], "sha256:" + "0" * 16)
    doc.write_text(text)
    r = pbd("score", doc)
    assert r.exit_code == 3 and "has not seen" in r.output


def test_a_document_naming_a_catalogue_file_is_refused(pbd, tmp_path, monkeypatch):
    mine = tmp_path / "mine.toml"
    mine.write_text(GOOD)
    doc = tmp_path / "m.txt"
    pbd("new", "boystown", doc, "--as", "Ann", "--deck", mine, ok=True)
    monkeypatch.chdir(tmp_path)             # a file of the reader's folder, named as an option's short value
    text = doc.read_text()
    doc.write_text(text.replace(text.split("catalogue=")[1].split("\n")[0], "mine.toml"))
    r = pbd("score", doc)
    assert r.exit_code == 3 and "which is neither bundled nor a content hash; a match never names a file" in r.output, \
        r.output


def test_a_bundled_catalogue_is_read_once_a_process_while_its_file_stays(tmp_path, monkeypatch):
    """A board names its catalogue on every seat line: the bundled file is read and hashed once, then only looked at
    (its size and time); a file changed since is read again and its new content is what loads."""
    import os

    from pbd.games.boystown import catalogue

    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "standard.toml").write_bytes(open(catalogue._bundled("standard"), "rb").read())
    (folder / "tiny.toml").write_text(GOOD)
    monkeypatch.setattr(catalogue, "bundled_dir", lambda: str(folder))
    reads = []
    real = catalogue._read_bytes
    monkeypatch.setattr(catalogue, "_read_bytes", lambda path: reads.append(path) or real(path))
    first = load("tiny", remember=False, from_document=True)
    assert load("tiny", remember=False, from_document=True) is first and len(reads) == 1
    (folder / "tiny.toml").write_text(GOOD.replace('name = "Kid"', 'name = "Kiddo"'))
    os.utime(folder / "tiny.toml", ns=(1, 1))
    again = load("tiny", remember=False, from_document=True)
    assert len(reads) == 2 and "Kiddo" in again.cards and "Kid" not in again.cards
