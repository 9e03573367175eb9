"""What an installed (non-editable) copy of the project holds and needs.

``maamut firmware install`` copies the Pico's MicroPython sources from the installed
package, so they must be package data; psutil is only for ``maamut bench soak``.
"""

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from firmware_bridge.emulator import FIRMWARE_DIR, firmware_files

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "vision", "firmware_bridge", "companion_web", "maamut")
FIRMWARE = ["config.py", "hal.py", "main.py"]


def build_lib(tmp_path: Path) -> Path:
    """The files setuptools puts in a wheel, built from a copy of the checkout.

    ``build_py`` is what ``pip wheel`` runs to choose the modules and package data;
    it works offline, and the copy keeps the build out of the shared working tree.
    """
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(ROOT / "pyproject.toml", src)
    shutil.copy(ROOT / "README.md", src)
    for name in PACKAGES:
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    lib = tmp_path / "lib"
    result = subprocess.run(
        [sys.executable, "-c", "from setuptools import setup; setup()", "-q",
         "build_py", "--build-lib", str(lib)],
        cwd=src, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return lib


def test_the_firmware_is_package_data_of_firmware_bridge():
    assert FIRMWARE_DIR == ROOT / "firmware_bridge" / "firmware"
    assert sorted(p.name for p in FIRMWARE_DIR.glob("*.py")) == FIRMWARE
    for source, _name in firmware_files():
        assert source.is_file() and (ROOT / "firmware_bridge") in source.parents


def test_an_installed_copy_has_the_firmware_and_installs_it_from_there(tmp_path):
    """Built like a wheel and imported from there (not the checkout), ``maamut firmware
    install`` finds every file it copies to the Pico inside the installed package."""
    lib = build_lib(tmp_path)
    assert sorted(p.name for p in (lib / "firmware_bridge" / "firmware").glob("*.py")) == FIRMWARE
    script = (
        "import firmware_bridge, sys\n"
        "from firmware_bridge.leds_cli import mpremote_command\n"
        "print(firmware_bridge.__file__)\n"
        "print('\\n'.join(mpremote_command('/dev/ttyACM0', None)))\n")
    env = dict(os.environ, PYTHONPATH=str(lib))
    result = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert Path(lines[0]).parent == lib / "firmware_bridge", "imported from the built copy"
    copied = [Path(line) for line in lines[1:] if line.endswith(".py")]
    assert [p.name for p in copied] == ["config.py", "hal.py", "protocol.py", "render.py",
                                        "main.py"]
    for path in copied:
        assert path.is_file() and lib in path.parents, path


def test_the_checkout_keeps_pointers_to_the_firmware_in_hardware_firmware():
    old = ROOT / "hardware" / "firmware"
    assert "firmware_bridge/firmware" in (old / "README.md").read_text(encoding="utf-8")
    for name in FIRMWARE:
        if (old / name).exists():  # a symbolic link where the checkout keeps them
            assert (old / name).resolve() == (FIRMWARE_DIR / name).resolve()


def test_psutil_is_in_the_bench_extra_not_a_core_dependency():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert not [d for d in project["dependencies"] if d.startswith("psutil")]
    assert [d for d in project["optional-dependencies"]["bench"] if d.startswith("psutil")]


def test_the_soak_benchmark_without_psutil_says_which_extra_to_install():
    # psutil cannot be imported; the app the soak would drive is stubbed, since the
    # message must come before it is even built.
    script = ("import sys, types\n"
              "sys.modules['psutil'] = None\n"
              "for name in ('maamut.app', 'sim.demo'):\n"
              "    stub = sys.modules[name] = types.ModuleType(name)\n"
              "    stub.Companion = stub.Demo = None\n"
              "from maamut.cli import main\n"
              "sys.exit(main(['bench', 'soak', '--games', '1']))\n")
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 1
    assert "pip install 'maamut-companion[bench]'" in result.stderr
    assert "Traceback" not in result.stderr
