"""Text views of a player's private answers: the hand in words, the legal moves grouped.

Pure formatting over what the game returns; a game may add detail through optional hooks:
``card_line(state, card, player) -> str`` (a hand card: cost and a one-line summary) and
``legal_text(state, player, moves) -> list[str]`` (the legal moves, grouped, with costs and
outcomes).  ``--json`` output never goes through here.
"""

from __future__ import annotations

from pbd.errors import PbdError

#: the words ``pbd hand`` prints for the keys games return beside the hand
LABELS = {
    "deck": "Cards left in your deck", "ap": "Action points", "cp": "City points", "tile": "Your tile",
    "holding": "Holding", "side": "Side", "note": "Note", "drawn": "Drawn card (set aside)",
    "face_down": "Your face-down card",
}
#: a legal-move list longer than this is folded (moves that differ only in their target share a line)
FOLD_OVER = 12
#: the words after which a move names its target or variant
SEPARATORS = (" replacing ", " attacks ", " on ", " with ")


def label(key: str) -> str:
    """Return the words for a key of a game's hand data (``ap`` -> ``Action points``)."""
    return LABELS.get(key) or key.replace("_", " ").capitalize()


def hand_lines(game, state, name: str, data: dict) -> list[str]:
    """Return ``pbd hand``'s lines: the cards (with the game's one-line summary, if any), then the rest in words."""
    cards = data.get("hand", [])
    describe = getattr(game, "card_line", None)
    lines = [f"{name}'s hand ({len(cards)}):"]
    lines += [f"  {describe(state, c, name) if describe else c}" for c in cards]
    lines += [f"{label(k)}: {_words(v)}" for k, v in data.items() if k != "hand"]
    return lines


def _words(value) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value)) or "none"
    return str(value)


def legal_lines(game, state, name: str, moves: list[str]) -> list[str]:
    """Return ``pbd legal``'s lines: the game's own grouped view, else the moves (folded when the list is long)."""
    own = getattr(game, "legal_text", None)
    if own is not None:
        try:
            return own(state, name, moves)
        except PbdError:                 # a view that cannot be built: the plain list is still right
            pass
    return fold(moves) if len(moves) > FOLD_OVER else list(moves)


def split_move(move: str) -> tuple[str, str, str]:
    """Return ``(head, separator, rest)``: ``play Rope on 17`` -> ``("play Rope", " on ", "17")``.

    A move without a separator is ``(move, "", "")``.
    """
    cuts = [(move.find(sep), sep) for sep in SEPARATORS if move.find(sep) > 0]
    if not cuts:
        return move, "", ""
    at, sep = min(cuts)
    return move[:at], sep, move[at + len(sep):]


def fold(moves: list[str]) -> list[str]:
    """Return ``moves`` with those that share a head and separator on one line: ``play Rope on 17 | 18 | 30``."""
    groups: dict[tuple[str, str], list[str]] = {}
    for move in moves:
        head, sep, rest = split_move(move)
        groups.setdefault((head, sep), []).append(rest)
    out = []
    for (head, sep), rests in groups.items():
        shown = _runs([int(r) for r in rests]) if all(r.isdigit() for r in rests) else " | ".join(rests)
        out.append(head + (sep + shown if sep else ""))
    return out


def _runs(numbers: list[int]) -> str:
    """Return numbers as runs: ``[2, 3, 4, 9]`` -> ``2–4, 9``."""
    out: list[tuple[int, int]] = []
    for n in numbers:
        if out and out[-1][1] == n - 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return ", ".join(f"{a}–{b}" if b > a + 1 else f"{a}, {b}" if b == a + 1 else f"{a}" for a, b in out)
