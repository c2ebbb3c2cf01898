#!/bin/sh
# Installs the lab into its own virtual environment (.venv next to this file), so it works with
# a system Python that refuses `pip install` (Debian and Ubuntu: "externally-managed-
# environment") and touches nothing outside the folder. Run again at any time: it reinstalls
# only when pyproject.toml, setup.py, the bots' C kernel or a compiled module's source changed.
#   PYTHON=python3.12 ./install.sh    choose the Python (3.11 or newer; default python3)
#   SAKI_VENV=/path ./install.sh      put the environment elsewhere
set -eu
cd "$(dirname "$0")"
python=${PYTHON:-python3}
venv=${SAKI_VENV:-.venv}

fail() { echo "install.sh: $*" >&2; exit 2; }

command -v "$python" >/dev/null 2>&1 \
    || fail "no $python found; install Python 3.11 or newer (Debian/Ubuntu: sudo apt install python3 python3-venv)"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || fail "$("$python" -V 2>&1) is too old: the lab needs Python 3.11 or newer; install one and run PYTHON=python3.11 ./install.sh"

if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pip' >/dev/null 2>&1; then
    if [ -e "$venv" ] && [ ! -f "$venv/pyvenv.cfg" ]; then
        fail "$venv exists and is not a virtual environment; move it away or set SAKI_VENV"
    fi
    "$python" -m venv --clear "$venv" >/dev/null 2>&1 \
        || fail "could not create a virtual environment with $python; on Debian/Ubuntu install its venv module: sudo apt install python3-venv"
fi

stamp="$venv/.saki-installed"
# the packaging, the C sources (the bots' kernel, the rules' waits) and every module the install compiles (the list is in
# pipeline/_compiled.py): an edit to any of them rebuilds
want=$("$venv/bin/python" -c 'import hashlib, runpy
from pathlib import Path
files = ["pyproject.toml", "setup.py", "pipeline/bots/_kernel.c", "pipeline/rules/_waits.c",
         "pipeline/_compiled.py"]
for name in runpy.run_path("pipeline/_compiled.py")["COMPILED"]:
    source = Path(*name.split(".")).with_suffix(".py")
    files += [str(source), *([str(source.with_suffix(".pxd"))]
                             if source.with_suffix(".pxd").exists() else [])]
print(hashlib.sha256(b"".join(Path(f).read_bytes() for f in files)).hexdigest())')
if [ ! -x "$venv/bin/saki" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "installing the lab and its dependencies into $venv (a few minutes the first time)" >&2
    if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e '.[dev]'; then
        # riichienv (a test-only second engine) may have no wheel for this machine: install the
        # rest, and its tests skip with a message
        echo "installing without riichienv (its tests will skip)" >&2
        rest=$("$venv/bin/python" -c 'import tomllib; print(" ".join(d.split(";")[0] for d in
tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["dev"]
if not d.startswith("riichienv")))')
        # shellcheck disable=SC2086
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e . $rest \
            || fail "pip could not install the lab into $venv (see the messages above)"
    fi
    echo "$want" > "$stamp"
fi
echo "ready: $venv ($("$venv/bin/python" -V)); the lab's command is $venv/bin/saki" >&2
