"""The ``pbd`` console script and ``python -m pbd``: :func:`run`."""


def run() -> None:
    """Run the command line with the cyclic garbage collector off while its modules load.

    Loading click and pbd allocates tens of thousands of long-lived objects; every
    collection pass during start-up walks them all again, for nothing.  :func:`pbd.cli.main`
    turns the collector back on once everything is loaded.
    """
    import gc

    gc.disable()
    from pbd.cli import main

    main()


if __name__ == "__main__":
    run()
