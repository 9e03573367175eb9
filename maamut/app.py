"""The companion as one program: camera → tracker → table → journal → LEDs and page.

:class:`Companion` wires the parts that every mode shares around the table's one live
game (a :class:`session.TableSession`, resumed from the crash-safe journal): the web
page and its hub, the LEDs and the buttons are adapters that read it and propose
changes to it. ``maamut serve`` adds the camera loop (:mod:`maamut.serve`); ``maamut
demo`` runs the same camera loop on a simulated camera watching simulated players
(:mod:`maamut.demo`).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time

import engine
from companion_web import GameHub, create_app
from firmware_bridge.backends import DEFAULT_LED_COUNT, FirmwareBackend, SimulatedBackend
from firmware_bridge.scenes import SceneMaker
from session import Change, CommandError, Journal, TableSession

from .ai_seats import ai_config
from .config import Config

log = logging.getLogger("maamut")


def say(message: str) -> None:
    """Messages for the person at the table, on the console."""
    print(f"maamut: {message}", flush=True)


def build_leds(cfg: Config, led_count: int = DEFAULT_LED_COUNT):
    """Our Pico firmware when asked for or found, else the simulated strip (said aloud)."""
    wanted = cfg.leds.get("backend", "auto")
    port = cfg.leds.get("port") or None
    serial_number = cfg.leds.get("serial_number") or None
    if wanted in ("auto", "firmware"):
        from firmware_bridge.serial_link import find_pico

        found = port or find_pico(serial_number)
        if found:
            say(f"LED controller on {found}")
            # without a configured port the link finds the Pico by its USB id again after a replug
            return FirmwareBackend(port=port, serial_number=serial_number, led_count=led_count), f"firmware on {found}"
        if wanted == "firmware":
            say("no LED controller found (USB 2E8A:0005); the firmware backend will keep looking")
            return FirmwareBackend(port=None, serial_number=serial_number, led_count=led_count), \
                "firmware (not connected yet)"
        say("no LED controller found: LEDs are simulated and mirrored on the page")
    elif wanted == "adalight":
        from firmware_bridge.backends import AdalightBackend

        if not port:
            say("[leds] backend = adalight needs a port; using simulated LEDs")
        else:
            return AdalightBackend(port=port), f"adalight on {port}"
    return SimulatedBackend(led_count), "simulated"


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


class LedMirror:
    """Shows the LED strip on the page, at most ``rate_hz`` times a second.

    One move plays several scenes and each sets pixels several times; the page needs
    only the latest colours, so changes arriving faster are folded into one update.
    """

    def __init__(self, backend, hub: GameHub, rate_hz: float = 4.0):
        self.backend = backend
        self.hub = hub
        self.period = 1.0 / rate_hz
        self._lock = threading.Lock()
        self._last = 0.0
        self._timer: threading.Timer | None = None
        self.published = 0
        backend.on_change(self._changed)

    def _changed(self, state=None) -> None:
        with self._lock:
            if self._timer is not None:
                return  # an update is already due: it will show these colours too
            wait = self._last + self.period - time.monotonic()
            if wait > 0:
                self._timer = threading.Timer(wait, self._publish)
                self._timer.daemon = True
                self._timer.start()
                return
            self._last = time.monotonic()
        self._send()

    def _publish(self) -> None:
        with self._lock:
            self._timer = None
            self._last = time.monotonic()
        self._send()

    def _send(self) -> None:
        self.published += 1
        self.hub.update(leds=[list(map(int, rgb)) for rgb in self.backend.rendered(int(time.monotonic() * 1000))])

    def close(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None


class LedDirector:
    """Plays the LED scenes of each change of the table, holding a flight's path long
    enough to follow; subscribed to the table's session."""

    def __init__(self, backend, maker: SceneMaker, hold_s: float = 2.5):
        self.backend = backend
        self.maker = maker
        self.hold_s = hold_s
        self._generation = 0
        self._lock = threading.Lock()

    def on_change(self, change, snapshot, table: TableSession) -> None:
        game = table.game
        if game is None:
            return
        events = [] if change.kind in ("undo", "resumed", "imported", "marks") else list(change.events)
        try:
            scenes = self.maker.for_game(game, events, engine.needs_to_json(snapshot.needs), table.marks())
        except Exception:
            log.exception("no LED scene for these events")
            return
        self.play(scenes)

    def attract(self) -> None:
        self.play([self.maker.attract()])

    def play(self, scenes: list) -> None:
        """Show ``scenes`` in order; every scene but the last stays ``hold_s`` seconds."""
        with self._lock:
            self._generation += 1
            generation = self._generation
        if not scenes:
            return
        scenes[0].play(self.backend)
        if len(scenes) > 1:
            threading.Thread(target=self._rest, args=(scenes[1:], generation), daemon=True).start()

    def _rest(self, scenes, generation) -> None:
        for scene in scenes:
            time.sleep(self.hold_s)
            with self._lock:
                if generation != self._generation:
                    return  # a newer change took over the LEDs
            scene.play(self.backend)


class Companion:
    """The table's session, page, LEDs and buttons, wired together."""

    def __init__(self, cfg: Config, leds=None, buttons=None, web_config: dict | None = None):
        self.cfg = cfg
        self.hub = GameHub()
        self.journal = Journal(cfg.path(cfg.game.get("journal", "var/current-game.jsonl")))
        self.table = TableSession.resume(self.journal, players=seats_of(cfg), variants=cfg.variants())
        loaded = self.table.resumed
        if loaded.problem:
            say(f"the journal was damaged ({loaded.problem}): {loaded.dropped_lines} line(s) dropped, "
                f"the damaged file is kept as {loaded.damaged_copy}")
        if self.table.game is not None:
            say(f"resumed the game in {self.journal.path} after {self.table.game.turns_played()} turns")
        self.scenes = SceneMaker.from_config({"game": cfg.game, "leds": cfg.leds})
        if leds is None:
            leds, _ = build_leds(cfg, self.scenes.ledmap.led_count)
        self.leds = leds
        self.mirror = LedMirror(leds, self.hub)
        self.director = LedDirector(leds, self.scenes)
        self.table.subscribe(lambda change, snapshot: self.director.on_change(change, snapshot, self.table))
        self.buttons = buttons if buttons is not None else build_buttons(cfg)
        #: The camera loop, when one follows the game (the *done* button then asks it).
        self.camera = None
        config = {"HUB": self.hub, "SESSION": self.table}
        # AI seats of the configuration (their moves on the page and the LEDs) and hints
        self.ai_seats, ai_web = ai_config(cfg, self.table, self.director, self.scenes)
        config.update(ai_web)
        pin = str(cfg.web.get("pin") or "")
        if pin:
            config["REFEREE_PIN"] = pin
        config["CAMERA_RELEARN"] = self.request_relearn
        config.update(web_config or {})
        self.app = create_app(config)
        add_mammut_mode(self.app, cfg.path("var/mammut-game.jsonl"))
        self.server = None
        self.url = f"http://{local_address()}:{cfg.web.get('port', 8080)}/"
        self._publish_qr()
        if self.table.game is not None:
            snapshot = self.table.snapshot()
            self.director.on_change(Change(self.table.version, "resumed", "journal"), snapshot, self.table)
        else:
            self.director.attract()

    def _publish_qr(self) -> None:
        # the page draws its QR code (/join.svg) from this address, for visitors' phones
        self.hub.update(url=self.url)

    def start_web(self, host: str | None = None, port: int | None = None):
        from companion_web.serve import BackgroundServer

        host = host or self.cfg.web.get("host", "0.0.0.0")
        port = self.cfg.web.get("port", 8080) if port is None else port
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
        import cv2

        from engine.hexgrid import CELL_NAMES

        small = cv2.resize(frame, (640, int(640 * frame.shape[0] / frame.shape[1])))
        ok, jpeg = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 70])
        if not ok:
            return
        confidence = None
        if observation is not None:
            confidence = {CELL_NAMES[i]: round(float(c), 3) for i, c in enumerate(observation.cell_confidence)}
        self.hub.publish_frame(jpeg.tobytes(), confidence, light=light)

    def request_relearn(self) -> None:
        """The referee page's *re-learn the light*; ``LookupError`` when no camera follows."""
        if self.camera is None:
            raise LookupError("no camera follows the game on this table")
        self.camera.request_relearn()

    def handle_button(self, event: str) -> None:
        """``done`` confirms a pass (the camera checks the board first when it follows the
        game), ``undo`` takes back, ``new_game`` deals again with the table's seats and the
        tiles lying there."""
        try:
            if event == "done":
                if self.camera is not None:
                    self.camera.press_pass()
                else:
                    self.table.pass_turn(source="buttons")
            elif event == "undo":
                self.table.undo(source="buttons")
            elif event == "new_game":
                self.table.new_game(source="buttons")
        except CommandError as exc:
            say(f"button {event}: {exc.message}")

    def close(self) -> None:
        if self.server is not None:
            self.server.stop()
        self.mirror.close()
        self.hub.close()
        if self.buttons is not None:
            self.buttons.close()
        self.leds.close()
        self.table.close()


def add_mammut_mode(app, journal_path: str) -> None:
    """The companion's second game, Mammut (K. A. Østby), on ``/mammut/``.

    Its page changes the game only with the referee's authority, as Mâamut's does: a
    referee login on this browser, or the ``X-Referee-PIN`` header.
    """
    try:
        from ostby_mammut.web import register
    except ImportError as exc:  # the Mâamut companion runs without it
        log.warning("Mammut mode unavailable: %s", exc)
        return
    from flask import request

    from companion_web.jsonio import error_response
    from companion_web.security import is_referee

    register(app, journal_path)
    app.config["OTHER_GAMES"] = tuple(app.config.get("OTHER_GAMES", ())) + (("Mammut", "/mammut/"),)

    @app.before_request
    def _mammut_changes_need_the_referee():
        if request.method != "POST" or not request.path.startswith("/mammut/api/"):
            return None
        pin = request.headers.get("X-Referee-PIN")
        guard = app.extensions["maamut_pin"]
        if pin is not None and guard.check(request.remote_addr or "?", pin):
            return None
        if pin is None and is_referee():
            return None  # a custom header (X-Mammut) is required too: no cross-site form can send it
        return error_response(401, "referee_only", "Mammut mode: log in with the referee PIN first (/referee)")


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


def ensure_folder(path: str) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
