"""Builds the optional compiled kernel of the bots (pipeline/bots/_kernel.c).

Everything else is configured in pyproject.toml. The extension is optional: without a C
compiler the install still succeeds and the bots use the pure-Python functions, with the same
results, only slower. The source's hash is compiled in, so a build older than its source is
noticed and not used (see pipeline/bots/shanten.py).
"""

import hashlib
from pathlib import Path

from setuptools import Extension, setup

SOURCE = Path("pipeline/bots/_kernel.c")
SOURCE_HASH = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]

setup(
    ext_modules=[
        Extension(
            "pipeline.bots._kernel",
            [str(SOURCE)],
            define_macros=[("KERNEL_SOURCE_HASH", f'"{SOURCE_HASH}"')],
            optional=True,
        )
    ]
)
