"""The one door to the compiled core, ``numberplace._core``: no other module imports it.

The core is optional (pip builds it where a C compiler is found) and every search it runs
has a pure-Python reference that gives the same answers. This module loads it, says
whether it is here (:data:`core` is None where it is not, or where it was built from other
sources than this package's: :data:`stale` then says so), and owns the choice between the
two: :func:`backend_name` resolves ``backend=`` arguments and ``NUMBERPLACE_BACKEND``.
The core's limits (the largest grids its chain and fish searches take) and numbering (the
names of its chain hints, the kinds and categories of its fish) are read from it, never
copied into Python. Its functions are typed by ``_core.pyi`` beside it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from . import arguments
from .errors import NumberplaceError

if TYPE_CHECKING:
    from ._core import Engine as CompiledEngine  # noqa: F401  # the type others name

#: The revision of the core's interface that this package calls; the core says its own
#: (``_core.REVISION``), and one built from other sources is not used.
REVISION = 3

#: Why the core is not used though a build of it is present, or None.
stale: str | None = None

try:  # the compiled core is optional: pip builds it when a C compiler is available
    from . import _core
except ImportError:  # pragma: no cover - machines without a compiler
    _core = None  # type: ignore[assignment]  # typed as the module, None checked by callers
if _core is not None and getattr(_core, "REVISION", None) != REVISION:
    stale = (f"the compiled core was built from other sources (revision "
             f"{getattr(_core, 'REVISION', 'none')}, this package calls {REVISION}); "
             f"reinstall numberplace to build it again")
    _core = None  # type: ignore[assignment]

#: The compiled core, or None where it is not built (or :data:`stale`).
core = _core

__all__ = ["core", "stale", "REVISION", "available_backends", "backend_name", "compiled"]


def available_backends() -> tuple[str, ...]:
    """Back-ends usable on this machine: ``("c", "python")`` or ``("python",)``."""
    return ("c", "python") if core is not None else ("python",)


def backend_name(backend: str | None = None) -> str:
    """Resolve a back-end request (None: the environment's choice, else the fastest):
    ``"c"`` or ``"python"``; NumberplaceError for another name, or for ``"c"`` where the
    core is not built."""
    arguments.optional_text(backend, "backend")
    choice = (backend or os.environ.get("NUMBERPLACE_BACKEND") or "auto").lower()
    if choice == "auto":
        return "c" if core is not None else "python"
    if choice not in ("c", "python"):
        raise NumberplaceError(f"unknown engine back-end {choice!r}: use c or python")
    if choice == "c" and core is None:
        raise NumberplaceError(stale or "the compiled engine is not built on this machine")
    return choice


def compiled(backend: str | None = None) -> bool:
    """Whether a search asked to run on ``backend`` runs in the compiled core."""
    return backend_name(backend) == "c"
