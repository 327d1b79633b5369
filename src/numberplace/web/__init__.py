"""The web app: an ASGI app (Starlette) over the game layer, and its front end.

``create_app(store)`` builds it; ``run(app, host, port)`` serves it with uvicorn. The
front end (``static/``: HTML, CSS and JavaScript modules) ships in the package and needs no
build step.
"""

from .app import create_app
from .server import run
from .store import GameStore, default_path

__all__ = ["GameStore", "create_app", "default_path", "run"]
