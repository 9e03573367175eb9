"""Subcommands of the whole product (``serve``, ``demo``); filled in by the app."""


def register(subparsers) -> None:
    pass
