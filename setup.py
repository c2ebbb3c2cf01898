"""Builds the optional compiled parts: the bots' kernel (pipeline/bots/_kernel.c), the rules' waits
(pipeline/rules/_waits.c) and the engine, card and bot modules listed in pipeline/_compiled.py,
compiled with Cython from their .py files. Their declarations (extension types, their fields
and cpdef functions) are in the .py too: pipeline/_pxd.py writes each module's .pxd from it
under build/pxd/ before Cython runs; a hand-written .pxd beside a module holds cimports and
cpdef methods only, never fields.

Everything else is configured in pyproject.toml. Every extension is optional: without a C
compiler (or without Cython) the install still succeeds and the lab runs its pure-Python
modules, with the same results, only slower. Each source's hash is compiled in, so a build
older than its source is noticed and not used (see pipeline/bots/shanten.py for the kernel,
pipeline/_compiled.py for the modules).
"""

import hashlib
import os
import runpy
from pathlib import Path

from setuptools import Extension, setup

COMPILED = runpy.run_path("pipeline/_compiled.py")
DECLARATIONS = runpy.run_path("pipeline/_pxd.py")
STAMPS = Path("build/cython/stamps")
# each module's Cython declarations, written from its .py (pipeline/_pxd.py), never tracked
GENERATED_PXD = Path("build/pxd")


def c_extension(name: str, source: Path, macro: str) -> Extension:
    """An optional C extension with its source's hash compiled in (a stale build is refused)."""
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    return Extension(name, [str(source)], define_macros=[(macro, f'"{digest}"')], optional=True)


kernel = c_extension("pipeline.bots._kernel", Path("pipeline/bots/_kernel.c"),
                     "KERNEL_SOURCE_HASH")
waits = c_extension("pipeline.rules._waits", Path("pipeline/rules/_waits.c"), "WAITS_SOURCE_HASH")


def stamp(name: str, source: Path) -> str:
    """A one-line C file holding the source's hash under the symbol the import hook reads."""
    STAMPS.mkdir(parents=True, exist_ok=True)
    path = STAMPS / f"{name.replace('.', '_')}_stamp.c"
    text = ("#if defined(_WIN32)\n__declspec(dllexport)\n#elif defined(__GNUC__)\n"
            "__attribute__((visibility(\"default\")))\n#endif\n"
            f'const char *const {COMPILED["STAMP_SYMBOL"]} = '
            f'"{COMPILED["source_hash"](source)}";\n')
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return str(path)


# without debugging symbols the modules are a sixth of the size and build faster
NO_DEBUG_INFO = [] if os.name == "nt" else ["-g0"]
DIRECTIVES = {
    "language_level": 3,
    # annotations stay documentation: typing by annotation would turn ``float`` arguments into
    # C doubles (and reject a None), which the .py never does
    "annotation_typing": False,
    "binding": True,
}


def compiled_modules() -> list[Extension]:
    try:
        from Cython.Build import cythonize
    except ImportError:  # no Cython: the pure-Python modules only
        print("Cython is not installed: the lab's modules stay pure Python")
        return []
    # the declarations first: a module's cimports read the others'
    DECLARATIONS["write_all"](COMPILED["COMPILED"], Path("."), GENERATED_PXD)
    extensions = []
    for name in COMPILED["COMPILED"]:
        source = Path(*name.split(".")).with_suffix(".py")
        extension = Extension(name, [str(source), stamp(name, source)], optional=True,
                              extra_compile_args=NO_DEBUG_INFO)
        # Cython skips a module whose C file is newer than its source: a source given back an
        # older time would then be stamped with its own hash but built from other code, so the
        # C file is made again whenever the source's hash is not the one it was made from
        generated = Path("build/cython", source.with_suffix(".c"))
        made_from = generated.with_name(generated.name + ".source-hash")
        want = COMPILED["source_hash"](source)
        # its own declarations written under build/pxd, which Cython does not count among the
        # module's dependencies (it does count those of the modules it cimports)
        declared = GENERATED_PXD / source.with_suffix(".pxd")
        if declared.exists():
            want += " " + hashlib.sha256(declared.read_bytes()).hexdigest()[:16]
        fresh = made_from.exists() and made_from.read_text() == want
        try:
            built = cythonize([extension], build_dir="build/cython", quiet=True,
                              include_path=[str(GENERATED_PXD), "."],
                              compiler_directives=DIRECTIVES, force=not fresh)
            made_from.parent.mkdir(parents=True, exist_ok=True)
            made_from.write_text(want)
        except Exception as error:  # the module stays pure Python, like a failed C build
            print(f"not compiling {name}: Cython failed ({error})")
            continue
        for ext in built:
            ext.optional = True  # cythonize does not carry it over
        extensions.extend(built)
    return extensions


setup(ext_modules=[kernel, waits, *compiled_modules()],
      options={"build_ext": {"parallel": os.cpu_count() or 1}})
