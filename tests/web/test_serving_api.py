"""Serving the installable app: the service worker and the manifest at the root, answers
compressed, pages and static files revalidated on every load, and no answer whose type a
browser may guess."""

from __future__ import annotations

from pathlib import Path

import pytest
from api import client  # noqa: F401  # client: a fixture
from starlette.testclient import TestClient

from numberplace.web.app import STATIC


def test_the_service_worker_may_control_the_whole_app(client: TestClient) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["service-worker-allowed"] == "/"
    assert answer.headers["cache-control"] == "no-cache"
    assert answer.text == (STATIC / "sw.js").read_text()


def test_the_manifest(client: TestClient) -> None:
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    assert answer.content == (STATIC / "manifest.webmanifest").read_bytes()


@pytest.mark.parametrize("path", ["/", "/live", "/sw.js", "/manifest.webmanifest",
                                  "/static/app.js", "/static/style.css"])
def test_pages_and_files_are_revalidated_by_their_etag(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-cache"
    etag = answer.headers["etag"]
    again = client.get(path, headers={"if-none-match": etag})
    assert again.status_code == 304 and not again.content


def test_answers_are_compressed(client: TestClient) -> None:
    name = "app.js"
    assert (STATIC / name).stat().st_size > 500
    answer = client.get(f"/static/{name}", headers={"accept-encoding": "gzip"})
    assert answer.headers["content-encoding"] == "gzip"
    assert answer.content == Path(STATIC / name).read_bytes()  # decoded by the client
    game = client.post("/api/games", json={"puzzle": "." * 81},
                       headers={"accept-encoding": "gzip"})
    assert game.headers["content-encoding"] == "gzip" and game.json()["shape"]
    small = client.get("/api/shapes", headers={"accept-encoding": "gzip"})
    assert len(small.content) < 500 and "content-encoding" not in small.headers


@pytest.mark.parametrize(("method", "path"), [
    ("get", "/"), ("get", "/static/app.js"), ("get", "/sw.js"), ("get", "/api/shapes"),
    ("get", "/api/games/nosuchgame"), ("post", "/api/games"), ("get", "/nowhere"),
    ("get", "/api/players/ann/stats"),
])
def test_no_answer_lets_the_browser_guess_its_type(client: TestClient, method: str,
                                                   path: str) -> None:
    answer = getattr(client, method)(path)
    assert answer.headers["x-content-type-options"] == "nosniff", answer.status_code
    if path.startswith("/api/"):
        assert answer.headers["cache-control"] == "no-store"  # never kept by a cache
