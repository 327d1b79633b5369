"""Build the optional compiled core; pip falls back to pure Python if no compiler is found."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "numberplace._core",
            sources=["src/numberplace/engine/_core.c"],
            depends=["src/numberplace/engine/_fast9.h", "src/numberplace/engine/_lines.h",
                     "src/numberplace/engine/_canon.h", "src/numberplace/engine/_cdcl.h",
                     "src/numberplace/engine/_fish.h", "src/numberplace/engine/_vec9.h",
                     "src/numberplace/engine/_xchain.h"],
            extra_compile_args=["-O3", "-funroll-loops"],
            optional=True,
        )
    ]
)
