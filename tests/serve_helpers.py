"""Start a real ``ipsis serve`` process on a free loopback port for the API and browser tests."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: str = ""  # the server's stderr, once the block of running_server has ended

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    def request(
        self, method: str, path: str, body: Any = None, *, token: str | None = None, raw: bytes | None = None
    ) -> tuple[int, Any, dict[str, str]]:
        """(status, parsed JSON or text, headers)."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                status, payload, headers = resp.status, resp.read(), dict(resp.headers)
        except urllib.error.HTTPError as exc:
            status, payload, headers = exc.code, exc.read(), dict(exc.headers)
        text = payload.decode("utf-8")
        if headers.get("content-type", "").startswith("application/json"):
            return status, json.loads(text), headers
        return status, text, headers

    def post(self, path: str, body: Any = None, **kw: Any) -> tuple[int, Any]:
        status, data, _ = self.request("POST", path, body, **kw)
        return status, data

    def get(self, path: str, **kw: Any) -> tuple[int, Any]:
        status, data, _ = self.request("GET", path, **kw)
        return status, data


@contextmanager
def running_server(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> Iterator[Server]:
    """``python -m ipsis serve --port FREE ARGS`` until the block ends."""
    port = free_port()
    cmd = [sys.executable, "-m", "ipsis", "serve", "--port", str(port), *args]
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    proc = subprocess.Popen(cmd, cwd=cwd or ROOT, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    server = Server(f"http://127.0.0.1:{port}", proc)
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                _, err = proc.communicate()
                msg = f"ipsis serve exited with {proc.returncode}: {err.decode(errors='replace')}"
                raise RuntimeError(msg)
            try:
                with urllib.request.urlopen(server.url + "/v1/health", timeout=1) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                msg = "ipsis serve did not answer /v1/health within 30 s"
                raise RuntimeError(msg)
            time.sleep(0.1)
        yield server
    finally:
        proc.terminate()
        try:
            _, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
        server.log = (err or b"").decode("utf-8", errors="replace")
