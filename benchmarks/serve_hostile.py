"""Slow and stalled clients against ``ipsis serve`` (issue 21): what they cost the server.

Two attacks from the audit, each run twice in this process against a server started here, once
with the server's defaults and once, as the baseline, with the limit switched off (a huge value),
which is how the server behaved before:

- **stalled uploads**: N connections each send most of a large body and then stop. Figure: the
  server's RSS growth (``/proc/PID/status``), and how many uploads were answered 503 at once.
- **slowloris heads**: N connections each send half a request head and stop. Figure: how many
  are still open ``--header-timeout`` + 2 s later.

    python benchmarks/serve_hostile.py           # 60 uploads of 4.4 MB, 300 stalled heads
    python benchmarks/serve_hostile.py --quick   # 10 uploads of 1 MB (4 MB budget), 50 heads (CI)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from serve_helpers import free_port  # noqa: E402

OFF = "1000000000000"


def start(*args: str) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "ipsis", "serve", "--port", str(port), *args]
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/health", timeout=1):
                return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    msg = "ipsis serve did not start"
    raise RuntimeError(msg)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def stalled_uploads(n: int, size: int, budget: str) -> tuple[float, int]:
    """(RSS growth in MB, uploads answered 503) for ``n`` uploads of ``size`` bytes that stall."""
    body_limit = str(size + 1_000_000)
    proc, port = start("--max-body", body_limit, "--max-buffered", budget, "--body-timeout", "60")
    try:
        before = rss_mb(proc.pid)
        socks = []
        head = (
            f"POST /v1/verify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {size + 1_000_000}\r\n\r\n"
        ).encode()
        chunk = b'{"records": [], "pad": "' + b"x" * size
        for _ in range(n):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            with contextlib.suppress(OSError):  # the server answered 503 and stopped reading
                s.sendall(head + chunk)
            socks.append(s)
        time.sleep(1.0)
        grown = rss_mb(proc.pid) - before
        busy = 0
        for s in socks:
            s.settimeout(0.2)
            with contextlib.suppress(OSError):
                busy += s.recv(64).startswith(b"HTTP/1.1 503")
            s.close()
        return grown, busy
    finally:
        stop(proc)


def slowloris(n: int, header_timeout: str) -> int:
    """Stalled heads still open ``header_timeout`` + 2 s after they were sent (capped at 5 s)."""
    proc, port = start("--header-timeout", header_timeout, "--max-connections", str(n + 50))
    try:
        socks = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(n)]
        for s in socks:
            s.sendall(b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        time.sleep(min(float(header_timeout), 3.0) + 2.0)
        still = 0
        for s in socks:
            s.settimeout(0.05)
            try:
                still += s.recv(64) != b""
            except TimeoutError:
                still += 1
            except OSError:
                pass
            s.close()
        return still
    finally:
        stop(proc)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small runs, for CI")
    args = ap.parse_args()
    n_up, size, n_heads, budget = (10, 1_000_000, 50, 4_000_000) if args.quick else (60, 4_400_000, 300, 64_000_000)
    print(f"stalled uploads: {n_up} x {size / 1e6:.1f} MB, each stopping short of its body")
    base_mb, base_busy = stalled_uploads(n_up, size, OFF)
    mb, busy = stalled_uploads(n_up, size, str(budget))
    print(f"  no shared budget (before): RSS +{base_mb:7.1f} MB, {base_busy:3d} answered 503")
    print(f"  --max-buffered {budget / 1e6:3.0f} MB     : RSS +{mb:7.1f} MB, {busy:3d} answered 503")
    print(f"  ratio: {mb / base_mb if base_mb > 0 else float('nan'):.2f} of the memory")
    print(f"slowloris: {n_heads} half-sent request heads")
    base_open = slowloris(n_heads, OFF)
    still = slowloris(n_heads, "3")
    print(f"  no header timeout (before): {base_open:4d} of {n_heads} still open after 5 s")
    print(f"  --header-timeout 3        : {still:4d} of {n_heads} still open after 5 s")


if __name__ == "__main__":
    main()
