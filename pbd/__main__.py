"""Allow ``python -m pbd``."""

from pbd.cli import main

main()
