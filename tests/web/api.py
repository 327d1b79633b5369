"""The web API driven in-process: a fresh app on its own games database, and the two calls
every API test makes (a new game, an action), each checked for its status."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from numberplace.web import GameStore, create_app


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    """The app on a fresh games database (a test module imports this fixture by name)."""
    return TestClient(create_app(GameStore(tmp_path / "games.db")), raise_server_exceptions=False)


def post_game(client: TestClient, body: dict[str, object]) -> dict:
    """A new game made from ``body``; its record."""
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def act(client: TestClient, game: dict, **body: object) -> dict:
    """One action on a game; the answer."""
    answer = client.post(f"/api/games/{game['id']}/actions", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()
