"""Contract tests: games built on pbd.table run on its in-memory stand-in until the table lands."""

import pytest


@pytest.fixture(autouse=True)
def _shared_table_stand_in(monkeypatch):
    """Give Boys' Town the test stand-in for pbd.table's SharedDeck when pbd.table is not installed."""
    try:
        import pbd.table.deck  # noqa: F401
    except ImportError:
        import sys
        from pathlib import Path

        sys.path.insert(0, str(Path(__file__).parent.parent))
        from boystown_fake_table import FakeDeck

        from pbd.games.boystown import cards

        monkeypatch.setattr(cards, "DECK_CLASS", FakeDeck)
