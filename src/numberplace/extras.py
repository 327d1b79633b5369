"""The optional parts of numberplace (its pip extras) and how to install one that is
missing, said the way this copy of numberplace was installed."""

from __future__ import annotations

import importlib.metadata
import json
import shlex
from urllib.parse import unquote, urlparse

from .errors import NumberplaceError


def install_command(extra: str) -> str:
    """The pip command that adds ``extra`` to this installation: from the checkout it was
    installed from (``pip install -e '/src/numberplace[print]'``), else from PyPI."""
    try:
        said = importlib.metadata.distribution("numberplace").read_text("direct_url.json")
        origin = json.loads(said) if said else {}
    except (importlib.metadata.PackageNotFoundError, ValueError):
        origin = {}
    url = urlparse(str(origin.get("url", "")))
    if url.scheme == "file" and "dir_info" in origin:
        editable = "-e " if origin["dir_info"].get("editable") else ""
        return f"pip install {editable}{shlex.quote(unquote(url.path) + f'[{extra}]')}"
    return f"pip install {shlex.quote(f'numberplace[{extra}]')}"


def missing(what: str, extra: str) -> NumberplaceError:
    """The error for a feature whose extra is not installed: ``what`` says what needs which
    library, the error ends with the command that installs it."""
    return NumberplaceError(f"{what}: {install_command(extra)}")
