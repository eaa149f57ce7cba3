"""Load test of ``ipsis serve``: concurrent ``POST /v1/check`` against a local loopback server.

Workload: five 20 KB sources cut from RFC 9111 (corpora/rfc/rfc9111.txt) and a claims answer
with 8 quotes taken from them (real sentences, so every quote is located). The same request
is sent by C concurrent clients (keep-alive connections) to a server started here with 1 and
then 4 workers. Prints requests/s, p50/p99 latency and errors (must be 0), and as a baseline
the same check in-process without HTTP (one thread), so the HTTP and worker overhead shows.

    python benchmarks/serve_load.py           # 400 requests per run, 8 clients
    python benchmarks/serve_load.py --quick   # 40 requests per run, for CI
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from ipsis.answers.check import check_answer  # noqa: E402
from ipsis.answers.sources import sources_from_json  # noqa: E402
from tests.shared import SHARED  # noqa: E402 - the real documents, never copied

sys.path.insert(0, str(ROOT / "tests"))
from serve_helpers import free_port  # noqa: E402


def workload(n_sources: int = 5, size: int = 20_000, n_quotes: int = 8) -> dict[str, Any]:
    text = (SHARED / "corpora" / "rfc" / "rfc9111.txt").read_text(encoding="utf-8")
    chunks = [text[i * size : (i + 1) * size] for i in range(n_sources)]
    rng = random.Random(9111)
    claims = []
    for k in range(n_quotes):
        n = k % n_sources
        # whole tokens only: a cut inside `If-Modified-Since` or `Section 11.7.3` is no quote of the text
        found = re.findall(r"(?<![\w-])[A-Z][^.\n]{40,120}\.(?=\s)", chunks[n])
        flat = " ".join(chunks[n].split())  # once even where a line break splits another copy
        sentences = [s for s in found if flat.count(" ".join(s.split())) == 1 and "  " not in s]  # no header columns
        quote = rng.choice(sentences)
        claims.append({"source": n + 1, "quote": quote})
    answer = {"answer": " ".join(f"{c['quote']} [{c['source']}]" for c in claims), "citations": claims}
    return {
        "answer": json.dumps(answer),
        "sources": [{"id": f"rfc9111-part{i + 1}", "text": c} for i, c in enumerate(chunks)],
    }


def start(workers: int) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [
        sys.executable,
        "-m",
        "ipsis",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(workers),
    ]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/health", timeout=1):
                return proc, port
        except OSError:
            time.sleep(0.2)
    proc.kill()
    msg = "ipsis serve did not start within 60 s"
    raise RuntimeError(msg)


def run(port: int, body: bytes, total: int, clients: int) -> dict[str, Any]:
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    counter = iter(range(total))

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while True:
            with lock:
                if next(counter, None) is None:
                    break
            t0 = time.perf_counter()
            try:
                conn.request("POST", "/v1/check", body=body, headers={"Content-Type": "application/json"})
                resp = conn.getresponse()
                data = resp.read()
                ok = resp.status == 200 and json.loads(data)["clean"] is True
                if not ok:
                    with lock:
                        errors.append(f"{resp.status}: {data[:200]!r}")
            except (OSError, http.client.HTTPException) as exc:
                with lock:
                    errors.append(repr(exc))
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            with lock:
                latencies.append(time.perf_counter() - t0)
        conn.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    lat = sorted(latencies)
    return {
        "rps": len(lat) / wall,
        "p50": statistics.median(lat) * 1000,
        "p99": lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000,
        "errors": errors,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="40 requests per run (CI)")
    ap.add_argument("--requests", type=int, default=None)
    ap.add_argument("--clients", type=int, default=8)
    args = ap.parse_args()
    total = args.requests or (40 if args.quick else 400)
    load = workload()
    body = json.dumps(load).encode()

    sources = sources_from_json(load["sources"])
    check_answer(load["answer"], sources)  # warm the views, as the server's cache is warm
    n_base = 10 if args.quick else 50
    t0 = time.perf_counter()
    for _ in range(n_base):
        report = check_answer(load["answer"], sources)
    base = n_base / (time.perf_counter() - t0)
    assert report.clean, [f.message for f in report.findings]
    print(f"request: {len(body) / 1000:.0f} KB, 5 sources, 8 quotes; {total} requests, {args.clients} clients")
    print(f"baseline in-process check_answer (1 thread, views cached): {base:.1f} checks/s")
    failed = False
    for workers in (1, 4):
        proc, port = start(workers)
        try:
            run(port, body, min(total, 4 * workers), args.clients)  # warm every worker's cache
            r = run(port, body, total, args.clients)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        print(
            f"workers={workers}: {r['rps']:.1f} requests/s  p50 {r['p50']:.1f} ms  p99 {r['p99']:.1f} ms  "
            f"errors {len(r['errors'])}"
        )
        for e in r["errors"][:3]:
            print("   ", e)
        failed |= bool(r["errors"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
