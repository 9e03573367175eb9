"""``maamut firmware ...``, ``maamut leds ...`` and ``maamut bench leds``."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time

from firmware_bridge import protocol as p


def register(subparsers) -> None:
    firmware = subparsers.add_parser("firmware", help="flash or emulate the LED controller firmware",
                                     description="Flash our firmware onto the Pico that drives the LEDs, or run it "
                                                 "emulated.")
    actions = firmware.add_subparsers(dest="firmware_action", metavar="ACTION")
    actions.required = True

    install = actions.add_parser("install", help="copy the firmware to a Pico with mpremote",
                                 description="Copy the firmware to a Pico running MicroPython, with mpremote.")
    install.add_argument("--port", help="serial port (default: find the Pico by USB VID:PID)")
    install.add_argument("--serial", help="USB serial number of the Pico to use")
    install.add_argument("--dry-run", action="store_true",
                         help="print the mpremote command instead of running it")
    install.set_defaults(handler=cmd_install)

    emulate = actions.add_parser(
        "emulate", help="run the firmware under MicroPython (WASI) on a pseudo-terminal",
        description="Run the unchanged firmware under MicroPython (WASI) behind a pseudo-terminal, "
                    "for use without a board.")
    emulate.add_argument("--seconds", type=float, default=0,
                         help="stop after this long (default: until Ctrl-C)")
    emulate.set_defaults(handler=cmd_emulate)

    leds = subparsers.add_parser("leds", help="talk to the LED controller directly",
                                 description="Talk to the LED controller directly: check it, light LEDs, play "
                                             "the game scenes.")
    leds_actions = leds.add_subparsers(dest="leds_action", metavar="ACTION")
    leds_actions.required = True

    def target(parser):
        parser.add_argument("--port", help="serial port (default: find the Pico by USB VID:PID)")
        parser.add_argument("--serial", help="USB serial number of the Pico to use")
        parser.add_argument("--emulate", action="store_true",
                            help="use the firmware under MicroPython instead of a board")

    ping = leds_actions.add_parser("ping", help="firmware version and LED count",
                                   description="Print the controller's firmware version and LED count.")
    target(ping)
    ping.set_defaults(handler=cmd_leds, leds_call=_ping)

    fill = leds_actions.add_parser("set", help="set every LED, or one, to a colour",
                                   description="Set every LED, or one with --led, to a colour.")
    target(fill)
    fill.add_argument("colour", type=parse_colour, help="r,g,b (0..255 each)")
    fill.add_argument("--led", type=int, help="only this LED index")
    fill.set_defaults(handler=cmd_leds, leds_call=_set)

    anim = leds_actions.add_parser("animate", help="start an animation on some LEDs",
                                   description="Start one of the firmware's animations on some LEDs.")
    target(anim)
    anim.add_argument("kind", choices=sorted(p.ANIMATION_NAMES), help="the animation")
    anim.add_argument("leds", type=parse_indices, help="comma-separated LED indices, chase order")
    anim.add_argument("--colour", type=parse_colour, default=(255, 255, 255),
                      help="r,g,b (0..255 each; default white)")
    anim.add_argument("--period", type=int, default=1000, help="period in ms (1000)")
    anim.set_defaults(handler=cmd_leds, leds_call=_animate)

    pixels = leds_actions.add_parser("pixels", help="print what the strip shows now (JSON)",
                                     description="Print the colour of every LED as the strip shows it now (JSON).")
    target(pixels)
    pixels.set_defaults(handler=cmd_leds, leds_call=_pixels)

    walk = leds_actions.add_parser(
        "walk", help="light one LED at a time in index order (check the wiring and LED map)",
        description="Light one LED at a time in index order, to check the wiring and the LED map.")
    target(walk)
    walk.add_argument("--delay", type=float, default=0.5, help="seconds per LED (0.5)")
    walk.set_defaults(handler=cmd_leds_sequence, sequence=_walk_steps)

    demo = leds_actions.add_parser("demo", help="play every game scene (from a demo game) in turn",
                                   description="Play every game scene, taken from a demo game, in turn.")
    target(demo)
    demo.add_argument("--delay", type=float, default=3.0, help="seconds per scene (3)")
    demo.set_defaults(handler=cmd_leds_sequence, sequence=_demo_steps)

    bright = leds_actions.add_parser("brightness", help="set the brightness 0..255",
                                     description="Set the brightness of the whole strip.")
    target(bright)
    bright.add_argument("value", type=int, help="brightness, 0..255")
    bright.set_defaults(handler=cmd_leds, leds_call=_brightness)


def register_bench(bench_subparsers) -> None:
    bench = bench_subparsers.add_parser(
        "leds", help="engine event -> firmware ACK latency and frame rate, firmware emulated",
        description="Time engine event to firmware ACK latency and the frame rate, with the firmware emulated.")
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")
    bench.add_argument("--events", type=int, default=30, help="engine events to time (30)")
    bench.add_argument("--seconds", type=float, default=3.0,
                       help="how long to stream frames for the frame rate (3)")
    bench.set_defaults(handler=cmd_bench)


# -- argument parsing -----------------------------------------------------------------

def parse_colour(text: str) -> tuple[int, int, int]:
    """``"255,0,10"`` -> ``(255, 0, 10)``.

    >>> parse_colour("255, 0,10")
    (255, 0, 10)
    >>> parse_colour("red")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: colour must be r,g,b with values 0..255, not 'red'
    """
    try:
        values = tuple(int(part) for part in text.split(","))
    except ValueError:
        values = ()
    if len(values) != 3 or not all(0 <= v <= 255 for v in values):
        raise argparse.ArgumentTypeError("colour must be r,g,b with values 0..255, not %r" % text)
    return values


def parse_indices(text: str) -> list[int]:
    """``"3,4,5"`` -> ``[3, 4, 5]``."""
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        values = []
    if not values or min(values) < 0:
        raise argparse.ArgumentTypeError("LED list must be indices like 0,1,2, not %r" % text)
    return values


# -- firmware install / emulate -------------------------------------------------------

def mpremote_command(port: str | None, serial_number: str | None) -> list[str]:
    """The mpremote invocation that copies every firmware file and restarts the board."""
    from firmware_bridge.emulator import firmware_files

    if port:
        device = port
    elif serial_number:
        device = "id:" + serial_number
    else:
        device = "auto"
    executable = shutil.which("mpremote")
    base = [executable] if executable else [sys.executable, "-m", "mpremote"]
    sources = [str(source) for source, _name in firmware_files()]
    # main.py last: if the copy is interrupted the board keeps booting the old one.
    sources.sort(key=lambda path: path.endswith("main.py"))
    return base + ["connect", device, "fs", "cp", *sources, ":", "+", "reset"]


def _stop_running_firmware(port: str | None, serial_number: str | None) -> str:
    """Ask a running firmware to give the REPL back (it ignores Ctrl-C by design)."""
    from firmware_bridge.serial_link import FirmwareClient, LinkError, find_pico, open_port

    name = port or find_pico(serial_number)
    if name is None:
        return "no Pico found by VID:PID; mpremote will search itself"
    try:
        serial_port = open_port(name)
    except Exception as exc:
        return "could not open %s (%s); mpremote will try" % (name, exc)
    try:
        FirmwareClient(serial_port, timeout=0.5, retries=1).request(p.EXIT_TO_REPL)
        return "running firmware on %s stopped" % name
    except LinkError:
        return "no firmware answering on %s (blank board or REPL already)" % name
    finally:
        serial_port.close()


def cmd_install(args) -> int:
    command = mpremote_command(args.port, args.serial)
    if args.dry_run:
        print(" ".join(command))
        return 0
    if command[1:3] == ["-m", "mpremote"]:
        try:
            import mpremote  # noqa: F401
        except ImportError:
            print("mpremote is not installed: pip install 'maamut-companion[pi]' "
                  "(or pip install mpremote)", file=sys.stderr)
            return 1
    print(_stop_running_firmware(args.port, args.serial))
    try:
        result = subprocess.run(command)
    except OSError as exc:
        print("could not run mpremote: %s" % exc, file=sys.stderr)
        return 1
    if result.returncode != 0:
        print("mpremote failed (exit %d). If the board ignores it, hold the safe-boot pin "
              "(GP22) to GND while plugging it in, then retry." % result.returncode,
              file=sys.stderr)
        return 1
    print("firmware installed; the board restarts and answers `maamut leds ping`")
    return 0


def cmd_emulate(args) -> int:
    from firmware_bridge.emulator import EmulatedPico

    with EmulatedPico() as pico:
        print("firmware running under MicroPython (WASI) on %s" % pico.port, flush=True)
        print("try: maamut leds ping --port %s" % pico.port, flush=True)
        deadline = time.monotonic() + args.seconds if args.seconds > 0 else None
        try:
            while pico.alive() and (deadline is None or time.monotonic() < deadline):
                time.sleep(0.2)
        except KeyboardInterrupt:
            pass
        if not pico.alive():
            print("the firmware stopped:\n" + pico.log(), file=sys.stderr)
            return 1
    return 0


# -- leds ------------------------------------------------------------------------------

def _ping(client, args):
    print(json.dumps(client.ping()))


def _set(client, args):
    if args.led is None:
        client.set_all([args.colour] * client.info["led_count"])
    else:
        client.set_one(args.led, args.colour)


def _animate(client, args):
    client.animate(p.ANIMATION_NAMES[args.kind], args.leds, args.colour, args.period)


def _pixels(client, args):
    mode, pixels = client.pixels()
    print(json.dumps({"mode": "idle" if mode == p.MODE_IDLE else "host",
                      "pixels": [list(rgb) for rgb in pixels]}))


def _brightness(client, args):
    client.set_brightness(args.value)


def cmd_leds(args) -> int:
    from firmware_bridge.emulator import EmulatedPico
    from firmware_bridge.serial_link import FirmwareClient, LinkError, find_pico, open_port

    pico = EmulatedPico() if args.emulate else None
    try:
        if pico is not None:
            name = pico.plug()
        else:
            name = args.port or find_pico(args.serial)
        if name is None:
            print("no Raspberry Pi Pico (USB 2E8A:0005) found; give --port", file=sys.stderr)
            return 1
        try:
            serial_port = open_port(name)
        except Exception as exc:
            print("cannot open %s: %s" % (name, exc), file=sys.stderr)
            return 1
        try:
            client = FirmwareClient(serial_port, timeout=1.0, retries=3)
            if pico is not None:
                client.wait_for_board()  # the interpreter is still booting
            else:
                client.ping()
            args.leds_call(client, args)
        except LinkError as exc:
            print("LED controller on %s: %s" % (name, exc), file=sys.stderr)
            return 1
        finally:
            serial_port.close()
        return 0
    finally:
        if pico is not None:
            pico.close()


def _walk_steps(led_count):
    for index in range(led_count):
        frame = [(0, 0, 0)] * led_count
        frame[index] = (255, 255, 255)
        yield "LED %d" % index, lambda backend, frame=frame: backend.show(frame)


def _demo_steps(led_count):
    from firmware_bridge.scenes import demo_scenes

    for scene in demo_scenes():
        yield scene.name, scene.play


def cmd_leds_sequence(args) -> int:
    """Play a sequence of steps through the real bridge (worker thread, retries)."""
    from firmware_bridge.backends import FirmwareBackend
    from firmware_bridge.emulator import EmulatedPico
    from firmware_bridge.serial_link import find_pico

    if args.delay < 0:
        print("--delay must be >= 0", file=sys.stderr)
        return 2
    pico = EmulatedPico() if args.emulate else None
    name = pico.plug() if pico is not None else (args.port or find_pico(args.serial))
    if name is None:
        print("no Raspberry Pi Pico (USB 2E8A:0005) found; give --port", file=sys.stderr)
        return 1
    backend = FirmwareBackend(port=name)
    try:
        # A board answers at once; the emulator's interpreter takes a few seconds to boot.
        deadline = time.monotonic() + (30 if pico is not None else 3)
        while not backend.link.connected and time.monotonic() < deadline:
            time.sleep(0.05)
        if not backend.link.connected:
            print("LED controller on %s: %s" % (name, backend.link.last_error or "no answer"),
                  file=sys.stderr)
            return 1
        for label, play in args.sequence(backend.led_count):
            play(backend)
            if not backend.link.wait_synced(15):
                print("LED controller on %s: %s" % (name, backend.link.last_error or "no answer"),
                      file=sys.stderr)
                return 1
            print(label, flush=True)
            time.sleep(args.delay)
        return 0
    except KeyboardInterrupt:
        return 130
    finally:
        backend.close()
        if pico is not None:
            pico.close()


# -- benchmark -------------------------------------------------------------------------

def cmd_bench(args) -> dict | int:
    from firmware_bridge.bench import run_benchmark

    if args.events < 1 or args.seconds <= 0:
        print("--events must be >= 1 and --seconds > 0", file=sys.stderr)
        return 2
    return run_benchmark(events=args.events, seconds=args.seconds)
