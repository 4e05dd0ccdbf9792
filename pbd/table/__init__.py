"""What every game shares at the table: a shared deck dealt by mental poker, secret choices.

Modules: :mod:`.group` (the group, keys, locks and Chaum–Pedersen proofs), :mod:`.deck`
(:class:`~pbd.table.deck.SharedDeck`: piles of face-down slots, duties, verification,
its document section), :mod:`.secret` (secret simultaneous choice).
"""
