"""Companion for Mammut (Kristian Amundsen Østby), the loot-sharing game.

Not to be confused with ``maamut`` (the Mâamut companion). Parts: ``core`` (plain
types), ``sharing`` (the sharing-phase referee), ``scoring`` (the evaluation),
``rulebook`` (rule ids and our paraphrases), ``variants``, ``game`` (whole games),
``api``/``mammut_cli`` (``maamut mammut score``), ``web`` (the page: ``register(app,
journal_path)``). Rulings: ``docs/rulings-mammut.md``; contract: ``docs/mammut-api.md``.
"""
