"""Did you mean: name the move word a player probably meant (shared by every game's notation).

A move that matches no form often has one misspelt word (``drwa``, ``Spider-Man atack Nill``);
:func:`notation_hint` finds it among the game's move words and offers the move rewritten.
"""

from __future__ import annotations

from collections.abc import Iterable

#: how close a typed word must be to a move word to be offered (difflib ratio)
CUTOFF = 0.75


def close_word(word: str, vocabulary: Iterable[str], cutoff: float = CUTOFF) -> str | None:
    """Return the word of ``vocabulary`` closest to ``word`` (case-insensitive), or None if none is close."""
    import difflib      # only for a move that matches no form

    hits = difflib.get_close_matches(word.casefold(), [v.casefold() for v in vocabulary], n=1, cutoff=cutoff)
    return hits[0] if hits else None


def corrected(text: str, vocabulary: Iterable[str]) -> str | None:
    """Return ``text`` with its first misspelt move word replaced, or None if no word looks misspelt.

    Words already in ``vocabulary`` and words of fewer than three letters are kept as typed.
    """
    vocab = {v.casefold() for v in vocabulary}
    words = text.split()[:40]
    for i, word in enumerate(words):
        low = word.casefold()
        if low in vocab or len(low) < 3:
            continue
        hit = close_word(low, vocab)
        if hit:
            return " ".join([*words[:i], hit, *words[i + 1:]])
    return None


def notation_hint(text: str, vocabulary: Iterable[str], examples: str) -> str:
    """Return the hint of a move that cannot be read: the corrected move, if any, then the examples."""
    fixed = corrected(text, vocabulary)
    shown = fixed if fixed is None or len(fixed) <= 80 else fixed[:80] + "…"
    return (f"did you mean {shown!r}? " if shown else "") + f"moves look like: {examples}"
