"""The companion as one program: camera → tracker → table → journal → LEDs and page.

This module only wires parts that live elsewhere: :class:`Companion` builds, around the
table's one live game (a :class:`session.TableSession`, resumed from the crash-safe
journal), the page (:func:`companion_web.create_app`, built whole in one call, with
Mammut's blueprint and its guard), the LEDs (:func:`firmware_bridge.backend_choice.open_leds`,
:class:`firmware_bridge.director.LedDirector`, :class:`firmware_bridge.mirror.LedMirror`),
the buttons (:func:`firmware_bridge.buttons.open_buttons`) and the AI seats
(:class:`ai.seats.AiSeats`). ``maamut serve`` adds the camera loop (:mod:`vision.camera_loop`);
``maamut demo`` (which the simulation plugs in) runs the same camera loop on a
simulated camera watching simulated players.
"""

from __future__ import annotations

import logging
import socket
import threading

from companion_web import GameHub, GameMode, create_app
from firmware_bridge.backend_choice import open_leds
from firmware_bridge.director import LedDirector
from firmware_bridge.mirror import LedMirror
from firmware_bridge.scenes import SceneMaker
from session import Change, CommandError, Journal, TableSession

from .config import Config

log = logging.getLogger("maamut")


def say(message: str) -> None:
    """Messages for the person at the table, on the console."""
    print(f"maamut: {message}", flush=True)


def build_buttons(cfg: Config):
    """The done/undo buttons through gpiozero, or ``None`` where there is no GPIO."""
    from firmware_bridge.buttons import ButtonError, open_buttons

    try:
        panel = open_buttons(cfg.buttons)
    except ButtonError as exc:
        say(f"buttons: {exc}; use the page's controls")
        return None
    if panel is not None:
        say("buttons ready")
    return panel


def local_address() -> str:
    """This machine's address on the local network (for the QR code), without sending anything."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: connect() on UDP sends no packet
            return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"


class Companion:
    """The table's session, page, LEDs and buttons, wired together."""

    def __init__(self, cfg: Config, leds=None, buttons=None, web_config: dict | None = None,
                 vallee_journal: str = "var/vallee-game.jsonl"):
        self.cfg = cfg
        self.vallee_journal = vallee_journal
        #: La Vallée's live table (:class:`vallee.live.ValleeTable`), when La Vallée is installed.
        self.vallee = None
        self.hub = GameHub()
        self.journal = Journal(cfg.path(cfg.game["journal"]))
        self.table = TableSession.resume(self.journal, players=seats_of(cfg), variants=cfg.variants())
        loaded = self.table.resumed
        if loaded.problem:
            say(f"the journal was damaged ({loaded.problem}): {loaded.dropped_lines} line(s) dropped, "
                f"the damaged file is kept as {loaded.damaged_copy}")
        if self.table.game is not None:
            say(f"resumed the game in {self.journal.path} after {self.table.game.turns_played()} turns")
        self.scenes = SceneMaker.from_config({"game": cfg.game, "leds": cfg.leds})
        if leds is None:
            leds, _ = open_leds(cfg.leds, self.scenes.ledmap.led_count, tell=say)
        self.leds = leds
        self.mirror = LedMirror(leds, self.hub)
        self.director = LedDirector(leds, self.scenes)
        self.table.subscribe(lambda change, snapshot: self.director.on_change(change, snapshot, self.table))
        self.buttons = buttons if buttons is not None else build_buttons(cfg)
        #: The camera loop, when one follows the game (the *done* button then asks it).
        self.camera = None
        self.ai_seats = self._ai_seats()
        self.app = self._web_app(web_config)
        if self.vallee is not None:
            # La Vallée's current step on the same LEDs, when its map lies on the board's 37 cells.
            from firmware_bridge.vallee_leds import ValleeLeds

            self.vallee_leds = ValleeLeds(self.director).follow(self.vallee)
        self.server = None
        self.url = f"http://{local_address()}:{cfg.web['port']}/"
        self._publish_qr()
        if self.table.game is not None:
            snapshot = self.table.snapshot()
            self.director.on_change(Change(self.table.version, "resumed", "journal"), snapshot, self.table)
        else:
            self.director.attract()

    def _ai_seats(self):
        """The seats the configuration gives to the AI (their moves pulse on the LEDs), or ``None``."""
        levels = self.cfg.ai_seats()
        if not levels:
            return None
        from ai.seats import AiSeats

        return AiSeats(self.table, levels, on_move=self._show_ai_move)

    def _show_ai_move(self, player: str, move: dict) -> None:
        if move.get("cells"):
            self.director.show_placement(move.get("hunter", player), move["cells"][-1:], self.table.snapshot().position)

    def _web_app(self, web_config: dict | None):
        """The page, whole: its settings, the live parts it reads, and Mammut on ``/mammut/``."""
        from ai import hints_for_page

        settings = {"REFEREE_PIN": str(self.cfg.web["pin"])} if self.cfg.web.get("pin") else {}
        settings.update(web_config or {})
        mammut = mammut_mode(self.cfg.path("var/mammut-game.jsonl"))
        vallee = vallee_mode(self.cfg.path("var/vallee-maps"), self.cfg.path(self.vallee_journal))
        self.vallee = vallee.live if vallee else None
        return create_app(settings, session=self.table, hub=self.hub, hints=hints_for_page, ai_seats=self.ai_seats,
                          camera_relearn=self.request_relearn, camera_questions=CameraQuestionDesk(self),
                          games=[g for g in (mammut, vallee) if g])

    def _publish_qr(self) -> None:
        # the page draws its QR code (/join.svg) from this address, for visitors' phones
        self.hub.update(url=self.url)

    def start_web(self, host: str | None = None, port: int | None = None):
        from companion_web.serve import BackgroundServer

        host = host or self.cfg.web["host"]
        port = self.cfg.web["port"] if port is None else port
        try:
            self.server = BackgroundServer(self.app, host=host, port=port).start()
        except OSError as exc:
            raise SystemExit(f"maamut: cannot serve the page on {host}:{port} ({exc.strerror}); "
                             f"is another companion running? Try --port") from None
        actual = int(self.server.server.effective_port)
        self.url = f"http://{local_address()}:{actual}/"
        self._publish_qr()
        say(f"page on {self.url} (this machine: http://localhost:{actual}/) — referee PIN "
            f"{self.app.config['REFEREE_PIN']}")
        return self.server

    def show_camera(self, frame, observation=None, light: dict | None = None) -> None:
        """Send a camera frame (640 px wide), the per-cell confidences and the camera's
        word on the light (warnings, the last re-learn) to the page."""
        from vision.preview import cell_confidences, preview_jpeg

        jpeg = preview_jpeg(frame)
        if jpeg is not None:
            self.hub.publish_frame(jpeg, cell_confidences(observation), light=light)

    def show_question(self, question: dict | None) -> None:
        """The camera's question about an unsure cell (``None``: no longer asked) to the
        referee's page, in the live state (:mod:`companion_web.camera_questions`)."""
        self.hub.update(camera_question=question)

    def camera_loop(self, spec: str, stop: threading.Event, required: int = 5):
        """The camera loop reading ``spec`` for this table (not started): its frames go to
        the page, its words to the console, and the *done* button asks it first."""
        from vision.camera_loop import CameraLoop

        path = self.cfg.path(self.cfg.camera.get("calibration", "var/calibration.json"))
        self.camera = CameraLoop(self.table, spec, stop, calibration_path=path, show=self.show_camera, tell=say,
                                 required=required, ask=self.show_question)
        return self.camera

    def start_camera(self, stop: threading.Event, required: int = 5):
        """The configured camera's loop, started, or ``None`` when no camera opens."""
        from vision.camera_loop import first_working_source

        spec = first_working_source(str(self.cfg.camera.get("source", "auto")))
        if spec is None:
            return None
        say(f"camera: {spec}")
        loop = self.camera_loop(spec, stop, required)
        loop.start()
        return loop

    def request_relearn(self) -> None:
        """The referee page's *re-learn the light*; ``LookupError`` when no camera follows."""
        if self.camera is None:
            raise LookupError("no camera follows the game on this table")
        self.camera.request_relearn()

    def handle_button(self, event: str) -> bool:
        """``done`` confirms a pass (the camera checks the board first when it follows the
        game), ``undo`` takes back, ``new_game`` deals again with the table's seats and the
        tiles lying there; whether the press was taken (a refusal is told)."""
        try:
            if event == "done":
                if self.camera is not None:
                    return self.camera.press_pass()
                else:
                    self.table.pass_turn(source="buttons")
            elif event == "undo":
                self.table.undo(source="buttons")
            elif event == "new_game":
                self.table.new_game(source="buttons")
        except CommandError as exc:
            say(f"button {event}: {exc.message}")
            return False
        return True

    def close(self) -> None:
        if self.server is not None:
            self.server.stop()
        self.mirror.close()
        self.hub.close()
        if self.buttons is not None:
            self.buttons.close()
        self.leds.close()
        self.table.close()


class CameraQuestionDesk:
    """The page's side of the camera's questions (``create_app(camera_questions=...)``):
    whichever camera loop follows the table's game; ``LookupError`` when none does."""

    def __init__(self, companion: Companion):
        self.companion = companion

    def _camera(self):
        if self.companion.camera is None:
            raise LookupError("no camera follows the game on this table")
        return self.companion.camera

    def crop(self, question_id: int) -> bytes | None:
        return self._camera().question_crop(question_id)

    def answer(self, question_id: int, option: int) -> dict:
        return self._camera().answer_question(question_id, option)


def mammut_mode(journal_path: str) -> GameMode | None:
    """The companion's second game, Mammut (K. A. Østby), on ``/mammut/``, its game kept in
    ``journal_path``; its page changes the game only with the referee's authority, as
    Mâamut's does (:mod:`companion_web.games`). ``None`` when it is not installed."""
    try:
        from ostby_mammut.web import EXTENSION, MammutSession, bp
    except ImportError as exc:  # the Mâamut companion runs without it
        log.warning("Mammut mode unavailable: %s", exc)
        return None
    table = MammutSession(journal_path)
    # ``live``: every device at the table follows the game, as on Mâamut's pages.
    return GameMode("Mammut", bp, {EXTENSION: table}, live=table)


def vallee_mode(maps_folder: str, journal_path: str | None = None) -> GameMode | None:
    """La Vallée des Mammouths on ``/vallee/``: the game master's page over the table's
    one game, kept in ``journal_path`` (resumed from it; ``None``: no live game, the
    valley view only), the map editor, the group's maps kept in ``maps_folder``; writes
    need the referee, as Mâamut's do, and every device follows the game live. ``None``
    when it is not installed."""
    try:
        from vallee.live import ValleeTable
        from vallee.web import EXTENSION, MapShelf, bp
        from vallee.web_game import TABLE
    except ImportError as exc:  # the Mâamut companion runs without it
        log.warning("La Vallée mode unavailable: %s", exc)
        return None
    extensions: dict = {EXTENSION: MapShelf(maps_folder)}
    if journal_path is None:
        return GameMode("La Vallée", bp, extensions)
    table = ValleeTable(journal_path)
    notice = table.table.notice()
    if notice:
        say(f"La Vallée: {notice['en']}")
    return GameMode("La Vallée", bp, {**extensions, TABLE: table}, live=table)


def seats_of(cfg: Config) -> list[dict]:
    """The configured players in seating order, as the table's seats."""
    return [{"id": p["id"], "name": p.get("name", p["id"]), **({"colour": p["colour"]} if p.get("colour") else {})}
            for p in cfg.players()]


def wait_forever(stop: threading.Event) -> None:
    try:
        while not stop.wait(1.0):
            pass
    except KeyboardInterrupt:
        stop.set()

