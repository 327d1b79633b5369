"""Build the optional compiled core; pip falls back to pure Python if no compiler is found.

The core is one extension module made of one C file per accelerator, each beside its
Python reference; engine/_core.h declares what they share, and engine/_core.c is the
module itself."""

from setuptools import Extension, setup

SRC = "src/numberplace/"

setup(
    ext_modules=[
        Extension(
            "numberplace._core",
            sources=[SRC + "engine/_core.c", SRC + "engine/_engine.c", SRC + "engine/_sums.c",
                     SRC + "cli/_lines.c", SRC + "engine/_canon.c", SRC + "logic/_fish.c",
                     SRC + "logic/_xchain.c", SRC + "logic/_aligned.c",
                     SRC + "logic/_chains.c", SRC + "logic/_als.c"],
            depends=[SRC + "engine/_core.h", SRC + "engine/_fast9.h", SRC + "engine/_vec9.h",
                     SRC + "engine/_cdcl.h", SRC + "logic/_fish_search.h"],
            extra_compile_args=["-O3", "-funroll-loops"],
            optional=True,
        )
    ]
)
