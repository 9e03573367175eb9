"""One table's live La Vallée game for the page: the journaled game, its story in words,
the public view every device follows and each player's private view.

:class:`ValleeTable` wraps :class:`vallee.game_table.GameTable` (validate on a copy →
journal → keep) with a lock (one change at a time), the subscribers of the page's live
updates (``companion_web.games``: ``state()`` and ``subscribe(fn)``), and the history
in words: every kept entry said as people say it ("blue moves 3 warriors 0,1 → 1,1")
with the events it caused, in English and French. An undo is said the same way
("undo: blue moves …"); it never draws again (the journal keeps the drawn values).

The public view never carries a hand: a hand is a number of cards there, and the cards a
player may play now are listed only in that player's own view, reached by a short link
(:meth:`ValleeTable.token`) the referee hands out. The links are keyed on a secret kept
beside the journal and made anew for each game: they survive a restart and change with
every new game.

>>> import os, tempfile
>>> table = ValleeTable(os.path.join(tempfile.mkdtemp(), "vallee.jsonl"))
>>> table.start({"players": ["red", "blue"], "map": "sample", "seed": 4})
>>> _ = table.play({"kind": "lot"})
>>> table.history[-1]["en"].startswith("Lot drawn:")
True
>>> said = table.undo()
>>> said["en"].startswith("Undo: Lot drawn:"), len(table.history)
(True, 0)
>>> "hand" in table.state()["game"]["tribes"]["red"]
False
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading
from pathlib import Path

from rulekit.followers import Followers

from .calendar import PHASE_EN, PHASE_FR, PHASES
from .core import SPECIES, BadRequest, IllegalRequest
from .events import CARDS
from .explain import QUIET_REASONS, say
from .game import Game, entry_line, setup_line
from .game_table import GameTable
from .tricks import TRICKS

#: Seat colours for the pieces (the box's colours, in seat order).
COLOURS = ("#d7263d", "#1f6fd1", "#2a9d3f", "#e9c46a", "#8e44ad", "#f4f4f4")
#: The phase in which each trick moment falls (rules «Texte des cartes astuces»); a card
#: whose moment falls in a phase already over this turn waits for the next turn.
MOMENT_PHASE = {
    "events": "events", "animals": "animals", "after_animals": "animals", "after_animals_or_movement": "tribes",
    "movement": "tribes", "end_of_movement": "tribes", "movement_or_events": "tribes", "movement_or_combat": "combat",
    "events_or_combat": "combat", "before_combat": "combat", "combat": "combat", "survival": "survival",
    "births": "births", "end_of_births": "births", "end_of_first_summer_turn": "births", "sowing": "sowing",
}


# -- entries in words ----------------------------------------------------------------

def _fr_species(name) -> str:
    return SPECIES[name].fr if name in SPECIES else str(name)


def _pawns(w: int, f: int) -> tuple[str, str]:
    en = [f"{w} warrior{'s' * (w != 1)}"] * bool(w) + [f"{f} wom{'e' if f != 1 else 'a'}n"] * bool(f)
    fr = [f"{w} guerrier{'s' * (w > 1)}"] * bool(w) + [f"{f} femme{'s' * (f > 1)}"] * bool(f)
    return " and ".join(en) or "nobody", " et ".join(fr) or "personne"


def entry_words(entry: dict) -> tuple[str, str]:
    """An entry as people say it, in English and French.

    >>> entry_words({"kind": "move", "player": "blue", "from": "0,1", "path": ["1,1", "2,1"], "warriors": 3, "women": 0})
    ('blue moves 3 warriors 0,1 → 2,1', 'blue déplace 3 guerriers 0,1 → 2,1')
    >>> entry_words({"kind": "roll", "dice": [4, 2]})
    ('Dice rolled: 4, 2', 'Dés lancés : 4, 2')
    """
    kind, who = entry.get("kind"), entry.get("player", "")
    cell = entry.get("cell", "")
    if kind == "lot":
        return f"Lot drawn: {who}", f"Tirage au sort : {who}"
    if kind == "place_camp":
        field = (" and sows a field", " et sème un champ") if entry.get("field") else ("", "")
        return f"{who} sets up camp on {cell}{field[0]}", f"{who} s'installe en {cell}{field[1]}"
    if kind == "roll":
        dice = ", ".join(str(d) for d in entry.get("dice", []))
        mine = (f" for {who}", f" pour {who}") if who else ("", "")
        return f"Dice rolled{mine[0]}: {dice}", f"Dés lancés{mine[1]} : {dice}"
    if kind == "card":
        card = CARDS.get(entry.get("card"))
        title = card.title if card else str(entry.get("card"))
        return f"Event card: {title}", f"Carte événement : {title}"
    if kind == "tokens":
        tokens = entry.get("tokens", [])
        return ("Drawn from the bag: " + ", ".join(f"{t['species']} {t['letter']}" for t in tokens),
                "Tirés du sac : " + ", ".join(f"{_fr_species(t['species'])} {t['letter']}" for t in tokens))
    if kind == "return":
        return f"{who} comes back on {cell}", f"{who} revient en {cell}"
    if kind == "pass":
        return "No card played at this moment", "Aucune carte jouée à ce moment"
    if kind == "move":
        en, fr = _pawns(entry.get("warriors", 0), entry.get("women", 0))
        path = entry.get("path") or [""]
        cards = [TRICKS[c].title for c in entry.get("cards", []) if c in TRICKS]
        extra = (f" (with {', '.join(cards)})", f" (avec {', '.join(cards)})") if cards else ("", "")
        return (f"{who} moves {en} {entry.get('from')} → {path[-1]}{extra[0]}",
                f"{who} déplace {fr} {entry.get('from')} → {path[-1]}{extra[1]}")
    if kind == "found_camp":
        return f"{who} founds a camp on {cell}", f"{who} installe un camp en {cell}"
    if kind == "take_fire":
        return f"{who} takes fire on {cell}", f"{who} prend le feu en {cell}"
    if kind == "done":
        return f"{who} has finished moving", f"{who} a fini ses déplacements"
    if kind == "combat_cell":
        return f"{who} fights on {cell} next", f"{who} combat ensuite en {cell}"
    if kind == "species_order":
        order = entry.get("order", [])
        return ("Species fight in this order: " + ", ".join(order),
                "Ordre des espèces au combat : " + ", ".join(_fr_species(s) for s in order))
    if kind == "lose":
        pawn = entry.get("pawn")
        if pawn:
            return (f"{who} loses a {pawn}", f"{who} perd {'un guerrier' if pawn == 'warrior' else 'une femme'}")
        return f"{who} loses a pawn on {cell}", f"{who} perd un pion en {cell}"
    if kind == "camp_taken":
        keep = entry.get("choice") == "keep"
        return (f"{who} {'keeps' if keep else 'burns'} the camp taken",
                f"{who} {'garde' if keep else 'brûle'} le camp pris")
    if kind == "feed":
        starve = sum(s.get("warriors", 0) + s.get("women", 0) for s in entry.get("starve", []))
        return ((f"{who} feeds the tribe" + (f"; {starve} starve" if starve else "")),
                (f"{who} nourrit sa tribu" + (f" ; {starve} meurent de faim" if starve else "")))
    if kind == "sow":
        cells = ", ".join(entry.get("cells", []))
        return ((f"{who} sows on {cells}", f"{who} sème en {cells}") if cells else
                (f"{who} sows nothing", f"{who} ne sème rien"))
    if kind == "trick":
        card = TRICKS.get(entry.get("card"))
        title = card.title if card else str(entry.get("card"))
        return f"{who} plays {title}", f"{who} joue {title}"
    return str(kind), str(kind)


def events_words(events) -> dict:
    """The events of one entry as lines in both languages (quiet pawn changes left out,
    as in ``maamut vallee replay``)."""
    shown = [e for e in events if not (e["type"] == "pawns" and e.get("reason") in QUIET_REASONS)]
    return {"en": [line for e in shown for line in say(e, "en").split("\n")],
            "fr": [line for e in shown for line in say(e, "fr").split("\n")]}


def _chain(previous: str, line: str) -> str:
    return hashlib.sha256((previous + "\n" + line).encode()).hexdigest()[:16]


class NotTheirs(IllegalRequest):
    """A write from a player's own link that is not that player's to make (a 403)."""


def theirs(game, player: str, entry: dict) -> None:
    """Refuse (:class:`NotTheirs`) an entry a player's link may not give: only the
    question asked of that player now, or a trick card played in that player's name (its
    moment is then the game's to check, as for the referee).

    >>> from vallee.game import Game
    >>> game = Game.new({"players": ["red", "blue"], "map": "sample", "seed": 4, "first": "red"})
    >>> game.pending()["player"]
    'red'
    >>> theirs(game, "red", {"kind": "place_camp", "cell": "0,-3"})
    >>> theirs(game, "blue", {"kind": "place_camp", "cell": "0,-3"})
    Traceback (most recent call last):
    vallee.live.NotTheirs: this is red's choice, not blue's
    >>> theirs(game, "blue", {"kind": "trick", "player": "red", "card": "pont"})
    Traceback (most recent call last):
    vallee.live.NotTheirs: blue may play only their own cards
    """
    ask = game.pending() if game is not None else None
    if ask is None:
        raise NotTheirs("nothing is asked now", "rien n'est demandé maintenant", "request.rights")
    named = entry.get("player", player)
    if entry.get("kind") == "trick":
        if named != player:
            raise NotTheirs(f"{player} may play only their own cards",
                            f"{player} ne peut jouer que ses propres cartes", "request.rights")
        return
    owner = ask.get("player")
    if owner is None:
        raise NotTheirs("this is the table's to give, on the game master's page",
                        "c'est à la table de le donner, sur la page du maître du jeu", "request.rights")
    if owner != player or named != player:
        raise NotTheirs(f"this is {owner}'s choice, not {player}'s",
                        f"c'est le choix de {owner}, pas celui de {player}", "request.rights")


# -- the table ------------------------------------------------------------------------

class ValleeTable:
    """The table's one La Vallée game (see the module docstring)."""

    def __init__(self, journal_path: str | os.PathLike):
        self.path = Path(journal_path)
        self.lock = threading.RLock()
        self.table = GameTable(str(self.path))
        self._followers = Followers()
        self._key = _secret(self.path.with_name(self.path.name + ".key"))
        #: Each kept entry: its words, its events in words, and the chained hash (the ETag).
        self.history: list[dict] = []
        #: What was said last (an undo, a refusal is never kept): the page's status line.
        self.said: dict | None = None
        #: The events of the last change (none after an undo or a new game), for the LEDs.
        self.last_events: list = []
        self._origin = ""
        if self.table.game is not None:
            self._rebuild()

    @property
    def game(self) -> Game | None:
        return self.table.game

    # -- changes ---------------------------------------------------------------------
    def start(self, setup: dict) -> None:
        with self.lock:
            self.table.new_game(setup)
            self._key = _secret(self.path.with_name(self.path.name + ".key"), fresh=True)
            self._rebuild()
            self.said = {"en": "New game", "fr": "Nouvelle partie"}
            self.last_events = []
            self._changed()

    def play(self, entry: dict, by: str | None = None) -> list:
        """Keep one entry; ``by`` a player: only what is theirs (:func:`theirs`)."""
        with self.lock:
            if not isinstance(entry, dict):
                raise BadRequest("entry", "must be an object with a kind")
            if by is not None:
                theirs(self.game, by, entry)
            events = self.table.play(entry)
            self._note(self.game.entries[-1], events)
            self.said = None
            self.last_events = events
            self._changed()
            return events

    def undo(self) -> dict:
        with self.lock:
            if self.game is None or not self.game.entries:
                raise IllegalRequest("nothing to undo", "rien à annuler", "request.format")
            last = self.history[-1]
            self.table.undo()
            self.history.pop()
            self.said = {"en": "Undo: " + last["en"], "fr": "Annulé : " + last["fr"]}
            self.last_events = []
            self._changed()
            return self.said

    def roll_out(self, policy: str, limit: int = 400) -> list:
        """Play the fight asked now to its end: the dice as they fall (virtual), each loss
        by ``policy`` (``women_first`` or ``warriors_first``, the other pawn when none is
        left). Every roll and loss is its own entry, so each can be undone."""
        if policy not in ("women_first", "warriors_first"):
            raise BadRequest("policy", "must be women_first or warriors_first")
        with self.lock:
            ask = self.game.pending() if self.game else None
            if not ask or ask["step"] != "fight":
                raise IllegalRequest("no fight is being played now", "aucun combat en cours", "phase.combat")
            if ask["kind"] == "roll" and ask.get("random") == "physical":
                raise IllegalRequest("the dice are physical: enter each roll", "les dés sont physiques : saisissez chaque jet",
                                     "random.virtual")
            cell, events = ask["cell"], []
            for _ in range(limit):
                ask = self.game.pending()
                if not ask or ask["step"] != "fight" or ask.get("cell") != cell or ask.get("random") == "physical":
                    break
                if ask["kind"] == "roll":
                    entry = {"kind": "roll"}
                elif ask["kind"] == "lose" and "pawn" not in ask:
                    entry = {"kind": "lose", "pawn": _by_policy(self.game, ask, policy)}
                else:
                    break  # a question the policy does not answer (a species order): asked on the page
                caused = self.table.play(entry)
                self._note(self.game.entries[-1], caused)
                events += caused
            self.said = None
            self.last_events = events
            self._changed()
            return events

    # -- history ---------------------------------------------------------------------
    def _rebuild(self) -> None:
        """The history replayed from the setup (at start and for a new game)."""
        game = self.game
        self._origin = _chain("", setup_line(game.setup["json"]))
        self.history = []
        replay = Game.new(game.setup["json"])
        self.history_setup = events_words(replay.setup_events)
        for entry in game.entries:
            self._note(entry, replay.apply(dict(entry)))

    def _note(self, entry: dict, events: list) -> None:
        en, fr = entry_words(entry)
        previous = self.history[-1]["hash"] if self.history else self._origin
        turn, phase = (events[0]["turn"], events[0]["phase"]) if events else (None, None)
        from .page_view import animal_phase

        self.history.append({"n": len(self.history) + 1, "en": en, "fr": fr, "lines": events_words(events),
                             "turn": turn, "phase": phase, "hash": _chain(previous, entry_line(entry)),
                             "animals": animal_phase(events)})

    @property
    def etag(self) -> str:
        if self.game is None:
            return "none"
        return self.history[-1]["hash"] if self.history else self._origin

    # -- views -----------------------------------------------------------------------
    def subscribe(self, fn) -> None:
        with self.lock:
            self._followers.add(fn)

    def _changed(self) -> None:
        self._followers.announce(self._state)

    def state(self) -> dict:
        """The public view: what every device at the table may see."""
        with self.lock:
            return self._state()

    def _state(self) -> dict:
        from .page_view import public_view

        base = {"ok": True, "etag": self.etag, "said": self.said, "log": [_public_line(h) for h in self.history]}
        notice = self.table.notice()
        if notice:
            base["journal"] = notice
        if self.game is None:
            return {**base, "game": None}
        return {**base, **public_view(self.game, colours=self.colours()), "animals": self._animals_now()}

    def _animals_now(self) -> dict | None:
        """This turn's animal phase (the entry that moved them, its number ``n``), or None."""
        for h in reversed(self.history):
            if h["turn"] is not None and h["turn"] < self.game.turn:
                return None
            if h["animals"]:
                return {"n": h["n"], **h["animals"]}
        return None

    def colours(self) -> dict:
        return {p: COLOURS[i % len(COLOURS)] for i, p in enumerate(self.game.seats)} if self.game else {}

    def token(self, player: str) -> str:
        """The short secret of ``player``'s own view in this game."""
        message = (self._origin + "/" + player).encode()
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()[:12]

    def links(self) -> dict:
        with self.lock:
            if self.game is None:
                raise IllegalRequest("no game: start one first", "pas de partie : commencez-en une", "request.format")
            return {p: self.token(p) for p in self.game.seats}

    def player_of(self, token: str) -> str | None:
        with self.lock:
            if self.game is None:
                return None
            return next((p for p in self.game.seats if hmac.compare_digest(self.token(p), str(token))), None)

    def private(self, player: str) -> dict:
        from .page_view import private_view

        with self.lock:
            return {"ok": True, "etag": self.etag, **private_view(self.game, player, self.colours())}


def _public_line(h: dict) -> dict:
    return {k: h[k] for k in ("n", "en", "fr", "lines", "turn", "phase")}


def _by_policy(game, ask, policy: str) -> str:
    first, other = ("woman", "warrior") if policy == "women_first" else ("warrior", "woman")
    options = ask.get("options") or [first, other]
    from .page_view import fight_pawns

    left = fight_pawns(game, ask["player"])
    if left is not None:
        if first == "woman" and not left[1]:
            return other
        if first == "warrior" and not left[0]:
            return other
    return first if first in options else other


def _secret(path: Path, fresh: bool = False) -> bytes:
    """The key of the players' links, kept (0600) beside the journal; made anew for each
    game (``fresh``), so that a new game's links are new."""
    try:
        key = path.read_bytes()
        if len(key) >= 32 and not fresh:
            return key
    except OSError:
        pass
    key = secrets.token_bytes(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(key)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except OSError:
        pass  # links then last until the server stops; the game itself is unaffected
    return key


def timing(game, player: str, card: str, playable: set) -> dict:
    """Whether a card in hand may be played now, and if not, why, in both languages."""
    if card in playable:
        return {"now": True, "en": "playable now", "fr": "jouable maintenant"}
    trick = TRICKS.get(card)
    if trick is None:
        return {"now": False, "en": "hidden card (physical deck)", "fr": "carte cachée (pioche physique)"}
    ask = game.pending()
    phase = ask["phase"] if ask else "end"
    moment = MOMENT_PHASE.get(trick.when)
    if moment and phase in PHASES and PHASES.index(moment) < PHASES.index(phase):
        return {"now": False, "en": f"its moment ({PHASE_EN[moment]}) has passed this turn",
                "fr": f"son moment ({PHASE_FR[moment]}) est passé pour ce tour"}
    if moment:
        return {"now": False, "en": f"wait for its moment: {PHASE_EN[moment]}",
                "fr": f"attendez son moment : {PHASE_FR[moment]}"}
    return {"now": False, "en": "not at this step", "fr": "pas à cette étape"}


__all__ = ["ValleeTable", "NotTheirs", "theirs", "entry_words", "events_words", "timing", "COLOURS", "MOMENT_PHASE"]
