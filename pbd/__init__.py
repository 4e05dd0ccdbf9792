"""pbd, the play-by-document assistant."""

__version__ = "0.3.0"
