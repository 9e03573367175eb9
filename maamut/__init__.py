"""The ``maamut`` command line: one entry point in front of every part of the product."""
