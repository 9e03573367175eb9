"""La Vallée des Mammouths (Bruno Faidutti, 2001 edition): the rules as plain types.

A third game for the same table, beside Mâamut's ``engine`` and Mammut's
``ostby_mammut``; it imports nothing of theirs and shares only ``rulekit``'s
game-agnostic scaffolding. The pieces, each a module of its own:

- :mod:`vallee.core`: terrain, species, hex directions, cell names, errors;
- :mod:`vallee.board`: the map as data, its loader and its validator (the sample valley
  ships in ``vallee/maps/``);
- :mod:`vallee.calendar`: which phases run on which game turn;
- :mod:`vallee.animals`: the animal movement phase, herds and trampled fields;
- :mod:`vallee.combat`: exact combat odds and fights played roll by roll;
- :mod:`vallee.survival`: the food ledger of one tribe for one turn;
- :mod:`vallee.api`: the JSON requests of ``maamut vallee …`` (docs/vallee-api.md).

Rules cite the French rulebook (``/work/shared/rules/004_9d0d0b401f7e9efe.txt``) by
section, and our rulings (docs/rulings-vallee.md) where it is silent; see
:mod:`vallee.rulebook`.
"""
