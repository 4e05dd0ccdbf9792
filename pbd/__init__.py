"""pbd, the play-by-document assistant."""

__version__ = "0.1.0"
