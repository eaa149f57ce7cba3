"""``ipsis serve`` keeps sources from the side doors (issue 21): DNS rebinding (foreign ``Host``
without tokens), cross-site POSTs (not JSON), a caller without a user (public sources only),
cache counters and timing across users, 401 on every data endpoint, and hidden sources that
answer byte for byte like missing ones on every endpoint."""

from __future__ import annotations

import http.client
import json
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from tests.serve_helpers import ROOT, Server, running_server
from tests.shared import SHARED

RFC = SHARED / "corpora" / "rfc" / "rfc7519.txt"
ALICE = "alice-token-5f1c9e0a7b3d"
BOB = "bob-token-0c4e8a2b6d9f7e"
ISS = 'The "iss" (issuer) claim identifies the principal that issued the JWT.'
MEMO = "Art. {n}º Os salários da diretoria são revistos em março pelo conselho, sem prejuízo do art. {m}.\n"
HIDDEN, MISSING = "memo-alice-v1", "memo-nobod-v1"  # same length: answers compared byte for byte
JWT = "JSON Web Token (JWT) is a compact, URL-safe means of representing claims"


def _ingest(store: Path, path: Path, source_id: str, *readers: str) -> None:
    args = [sys.executable, "-m", "ipsis", "ingest", str(path), "--id", source_id, "--store", str(store)]
    for r in readers:
        args += ["--reader", r]
    subprocess.run(args, check=True, capture_output=True, cwd=ROOT)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("serve-privacy")
    memo = tmp / "memo.txt"  # 4,000 articles (~400 KB): loading it would show in the timing
    memo.write_text("".join(MEMO.format(n=n, m=n + 1) for n in range(1, 4001)), encoding="utf-8")
    _ingest(tmp / "store", RFC, "rfc7519-v1")
    _ingest(tmp / "store", memo, HIDDEN, "alice")
    return tmp / "store"


@pytest.fixture(scope="module")
def open_server(store: Path) -> Iterator[Server]:
    with running_server("--store", str(store), "--allow-host", "kb.internal") as server:
        yield server


@contextmanager
def _with_tokens(store: Path) -> Iterator[Server]:
    tokens = store.parent / "tokens.txt"
    tokens.write_text(f"{ALICE} alice\n{BOB} bob\n", encoding="utf-8")
    with running_server("--store", str(store), "--tokens", str(tokens)) as server:
        yield server


@pytest.fixture(scope="module")
def token_server(store: Path) -> Iterator[Server]:
    with _with_tokens(store) as server:
        yield server


def raw_request(
    server: Server, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


GETS = ["/", "/openapi.json", "/v1/health", "/v1/sources", "/v1/sources/rfc7519-v1/sections"]
POSTS: dict[str, dict[str, Any]] = {
    "/v1/locate": {"source": "rfc7519-v1", "quote": ISS},
    "/v1/verify": {"records": [{"citation_id": "1", "source_id": "rfc7519-v1", "quote": ISS}]},
    "/v1/check": {"answer": f'A JWT is "{JWT}" [1].', "sources": [{"id": "rfc7519-v1"}]},
    "/v1/describe": {"source": "rfc7519-v1", "start": 0, "end": 40},
}
JSON = {"Content-Type": "application/json"}


def _each_route(server: Server, headers: dict[str, str]) -> dict[str, tuple[int, bytes]]:
    out = {p: raw_request(server, "GET", p, headers=headers) for p in GETS}
    for p, body in POSTS.items():
        out[p] = raw_request(server, "POST", p, json.dumps(body).encode(), {**JSON, **headers})
    return out


def test_foreign_host_names_are_refused_without_tokens(open_server: Server) -> None:
    port = open_server.port
    for host in (
        f"attacker.example:{port}",
        "attacker.example",
        f"127.0.0.1.nip.io:{port}",
        f"kb.internal.evil:{port}",
    ):
        for path, (status, body) in _each_route(open_server, {"Host": host}).items():
            assert status == 403, (host, path, status)
            assert json.loads(body)["error"] == "forbidden_host" and "--allow-host" in json.loads(body)["message"]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "app.localhost", f"kb.internal:{port}"):
        assert {p: s for p, (s, _) in _each_route(open_server, {"Host": host}).items()} == dict.fromkeys(
            [*GETS, *POSTS], 200
        ), host


def test_with_tokens_any_host_name_is_served(token_server: Server) -> None:
    auth = {"Host": "kb.example.org", "Authorization": f"Bearer {BOB}"}
    assert {s for s, _ in _each_route(token_server, auth).values()} == {200}


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "text/plain;charset=UTF-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        None,
    ],
)
def test_posts_must_be_json(open_server: Server, content_type: str | None) -> None:
    headers = {} if content_type is None else {"Content-Type": content_type}
    for path, body in POSTS.items():  # exactly what a cross-site form or a no-cors fetch can send
        status, raw = raw_request(open_server, "POST", path, json.dumps(body).encode(), headers)
        assert status == 415 and json.loads(raw)["error"] == "unsupported_media_type", (path, status, raw[:200])
    ok = {"Content-Type": "application/json; charset=utf-8"}
    assert raw_request(open_server, "POST", "/v1/locate", json.dumps(POSTS["/v1/locate"]).encode(), ok)[0] == 200


def _scrub(raw: bytes, sid: str) -> str:
    text = raw.decode("utf-8").replace(sid, "SID")
    return re.sub(r'"run_id": ?"[^"]+"', '"run_id": "X"', text)


def _hidden_and_missing(server: Server, headers: dict[str, str]) -> list[tuple[str, int, str, str]]:
    """Each endpoint asked about the hidden source and about a missing one: (path, status, a, b)."""
    quote = "Os salários da diretoria são revistos em março"
    bodies = {
        "/v1/locate": lambda sid: {"source": sid, "quote": quote},
        "/v1/verify": lambda sid: {"records": [{"citation_id": "1", "source_id": sid, "quote": quote}]},
        "/v1/check": lambda sid: {"answer": f'"{quote}" [1].', "sources": [{"id": sid}]},
        "/v1/describe": lambda sid: {"source": sid, "start": 0, "end": 40},
    }
    out = []
    for path, make in bodies.items():
        answers = [
            raw_request(server, "POST", path, json.dumps(make(s)).encode(), {**JSON, **headers})
            for s in (HIDDEN, MISSING)
        ]
        out.append((path, answers[0][0], _scrub(answers[0][1], HIDDEN), _scrub(answers[1][1], MISSING)))
        assert answers[0][0] == answers[1][0], (path, answers)
    for s in (HIDDEN, MISSING):
        assert raw_request(server, "GET", f"/v1/sources/{s}/sections", headers=headers)[0] == 404
    a, b = (raw_request(server, "GET", f"/v1/sources/{s}/sections", headers=headers)[1] for s in (HIDDEN, MISSING))
    out.append(("sections", 404, _scrub(a, HIDDEN), _scrub(b, MISSING)))
    listed = json.loads(raw_request(server, "GET", "/v1/sources", headers=headers)[1])
    assert [s["id"] for s in listed["sources"]] == ["rfc7519-v1"]
    return out


def test_hidden_answers_like_missing_on_every_endpoint(token_server: Server) -> None:
    for path, _, hidden, missing in _hidden_and_missing(token_server, {"Authorization": f"Bearer {BOB}"}):
        assert hidden == missing, path
    mine = raw_request(
        token_server, "GET", f"/v1/sources/{HIDDEN}/sections", headers={"Authorization": f"Bearer {ALICE}"}
    )
    assert mine[0] == 200  # alice may read it: the memo is really there


def test_a_caller_without_a_user_sees_public_sources_only(open_server: Server) -> None:
    for path, _, hidden, missing in _hidden_and_missing(open_server, {}):
        assert hidden == missing, path
    quote = "Os salários da diretoria são revistos em março pelo conselho"  # only in the memo
    rec = {"records": [{"citation_id": "1", "source_id": "rfc7519-v1", "quote": quote}]}
    status, data = open_server.post("/v1/verify", rec)
    assert status == 200 and data["results"][0]["status"] == "not_found"
    assert HIDDEN not in json.dumps(data)  # not even as "found elsewhere"


def test_hidden_and_missing_take_the_same_time(store: Path) -> None:
    bob = {"Authorization": f"Bearer {BOB}"}
    with _with_tokens(store) as server:  # a fresh server: nobody has loaded the memo yet

        def documents() -> int:
            return int(json.loads(raw_request(server, "GET", "/v1/health", headers=bob)[1])["cache"]["documents"])

        before = documents()
        times: dict[str, list[float]] = {HIDDEN: [], MISSING: []}
        for _ in range(25):  # interleaved, so that load on the machine hits both alike
            for sid in (HIDDEN, MISSING):
                body = json.dumps({"source": sid, "quote": "Os salários da diretoria são revistos"}).encode()
                t0 = time.perf_counter()
                assert raw_request(server, "POST", "/v1/locate", body, {**JSON, **bob})[0] == 200
                times[sid].append(time.perf_counter() - t0)
        assert documents() == before  # the hidden memo was never loaded for bob: no work to time
        alice = {**JSON, "Authorization": f"Bearer {ALICE}"}
        t0 = time.perf_counter()
        body = json.dumps({"source": HIDDEN, "quote": "Os salários da diretoria são revistos"}).encode()
        assert raw_request(server, "POST", "/v1/locate", body, alice)[0] == 200
        load = time.perf_counter() - t0  # reading the memo: the signal a leak would show
        assert documents() == before + 1
    hidden, missing = (statistics.median(times[s]) for s in (HIDDEN, MISSING))
    assert load > 2 * max(hidden, missing), (load, hidden, missing)  # the test could see a leak
    assert abs(hidden - missing) < 0.5 * min(hidden, missing) + 0.002, (hidden, missing)


def test_401_on_every_data_endpoint(token_server: Server) -> None:
    for auth in ({}, {"Authorization": "Bearer not-a-token-at-all-xx"}, {"Authorization": f"Basic {ALICE}"}):
        got = _each_route(token_server, auth)
        for path, (status, body) in got.items():
            if path in ("/", "/openapi.json", "/v1/health"):
                assert status == 200, path
            else:
                assert status == 401 and json.loads(body)["error"] == "unauthorized", (path, auth, status)


def test_health_counters_are_each_users_own(token_server: Server) -> None:
    def health(token: str | None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return json.loads(raw_request(token_server, "GET", "/v1/health", headers=headers)[1])

    assert "cache" not in health(None) and health(None)["status"] == "ok"  # no counters without a token
    text = "Alice's draft: the merger closes on 3 March 2027 at the latest, unless the board objects."
    body = json.dumps({"source": {"id": "draft", "text": text}, "quote": "the merger closes on 3 March 2027"}).encode()
    for _ in range(2):
        raw_request(token_server, "POST", "/v1/locate", body, {**JSON, "Authorization": f"Bearer {ALICE}"})
    bob_before = health(BOB)["cache"]
    assert raw_request(token_server, "POST", "/v1/locate", body, {**JSON, "Authorization": f"Bearer {BOB}"})[0] == 200
    bob_after = health(BOB)["cache"]
    # alice's text was cached when bob sent the same: bob still counts a miss (his own cache entry)
    assert (bob_after["hits"], bob_after["misses"]) == (bob_before["hits"], bob_before["misses"] + 1)
    assert health(ALICE)["cache"]["hits"] >= 1
