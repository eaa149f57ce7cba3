"""Atomic writes: SIGKILL in the middle of ingests, two ingests at once, and store check."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ipsis.store import Store
from tests.pg_util import StoreTarget
from tests.store_util import CRP, RETURNS_V1, RETURNS_V2, ROOT, _no_store_env, run  # noqa: F401

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

CRP_TEXT = CRP.read_text(encoding="utf-8")


def ingest_proc(*args: str | Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("IPSIS_USER", None)
    cmd = [sys.executable, "-m", "ipsis", "ingest", *map(str, args)]
    return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def assert_whole_or_absent(store_dir: Path, expected: dict[str, str]) -> int:
    """The store opens, passes check, and each id holds its whole text or is absent."""
    with Store.open(store_dir) as st:
        report = st.check()
        assert report.ok, report.problems
        present = 0
        for sid, text in expected.items():
            doc = st.document(sid)
            if doc is not None:
                present += 1
                assert doc.text == text
                assert doc.sections is not None and len(doc.sections) > 100
    return present


def test_sigkill_during_directory_ingest(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    expected = {}
    for i in range(16):  # 16 versions of the CRP, 3.5 MB in all
        text = f"Edição {i}\n{CRP_TEXT}"
        (src / f"crp-{i:02d}.txt").write_text(text, encoding="utf-8")
        expected[f"crp-{i:02d}"] = text
    store = tmp_path / "st"
    counts = []
    for delay in (0.6, 0.9, 1.2, 1.5):
        p = ingest_proc(src, "--store", store)
        time.sleep(delay)
        p.send_signal(signal.SIGKILL)
        p.communicate()
        if store.joinpath("ipsis.db").exists():
            counts.append(assert_whole_or_absent(store, expected))
    p = ingest_proc(src, "--store", store)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err.decode()
    assert assert_whole_or_absent(store, expected) == len(expected)
    assert any(c < len(expected) for c in counts)  # at least one kill landed before the end
    assert out.decode().count("unchanged") == counts[-1]


def test_sigkill_during_one_large_ingest(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    text = "\n".join(f"Bloco {i}\n{CRP_TEXT}" for i in range(20))  # 4.4 MB
    big.write_text(text, encoding="utf-8")
    outcomes = set()
    for delay in (0.5, 1.0, 1.5, 2.5):
        store = tmp_path / f"st-{delay}"
        p = ingest_proc(big, "--id", "big", "--store", store)
        time.sleep(delay)
        p.send_signal(signal.SIGKILL)
        p.communicate()
        if store.joinpath("ipsis.db").exists():
            outcomes.add(assert_whole_or_absent(store, {"big": text}))
            res = run("store", "check", "--store", store)
            assert res.exit_code == 0, res.output
    assert outcomes  # at least one kill after the store was created


def test_two_ingests_at_once(tmp_path: Path, store_target: StoreTarget) -> None:
    store = store_target(tmp_path / "st")
    dirs = []
    expected = {}
    for d in ("a", "b"):
        src = tmp_path / d
        src.mkdir()
        for i in range(6):
            text = f"Exemplar {d}{i}\n{CRP_TEXT}"
            (src / f"{d}{i}.txt").write_text(text, encoding="utf-8")
            expected[f"{d}{i}"] = text
        dirs.append(src)
    procs = [ingest_proc(src, "--store", store) for src in dirs]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()
    assert assert_whole_or_absent(store, expected) == len(expected)


def test_two_conflicting_ingests_at_once(tmp_path: Path, store_target: StoreTarget) -> None:
    store = store_target(tmp_path / "st")
    (tmp_path / "v1.txt").write_text(RETURNS_V1)
    (tmp_path / "v2.txt").write_text(RETURNS_V2)
    procs = [ingest_proc(tmp_path / f, "--id", "returns-v1", "--store", store) for f in ("v1.txt", "v2.txt")]
    results = [(p.communicate(timeout=60)[1].decode(), p.returncode) for p in procs]
    results = [(code, err) for err, code in results]
    codes = sorted(code for code, _ in results)
    assert codes == [0, 2], results
    loser = next(err for code, err in results if code == 2)
    assert "already holds different bytes" in loser and "--version v2" in loser
    with Store.open(store) as st:
        doc = st.document("returns-v1")
        assert doc is not None and doc.text in (RETURNS_V1, RETURNS_V2)
        assert st.check().ok


def test_store_check_catches_a_tampered_blob(tmp_path: Path) -> None:
    store = tmp_path / "st"
    src = tmp_path / "returns.txt"
    src.write_text(RETURNS_V1)
    assert run("ingest", src, "--id", "returns-v1", "--store", store).exit_code == 0
    assert run("ingest", CRP, "--id", "crp", "--store", store).exit_code == 0
    res = run("store", "check", "--store", store)
    assert (res.exit_code, res.output) == (0, "ok: 2 source versions checked\n")
    with Store.open(store) as st:
        sv = st.get("returns-v1")
        assert sv is not None
        blob = st.blobs.path(sv.sha256)
    blob.chmod(0o644)
    blob.write_bytes(RETURNS_V1.replace("30", "90").encode())  # same size, other bytes
    res = run("store", "check", "--store", store)
    assert res.exit_code == 1
    rel = blob.relative_to(store)
    import hashlib

    tampered = hashlib.sha256(RETURNS_V1.replace("30", "90").encode()).hexdigest()
    assert f"problem: returns-v1: blob {rel} has SHA-256 {tampered}, expected {sv.sha256}" in res.output
    assert "crp" not in res.output.replace("problem(s)", "")  # the intact version is not blamed
    blob.unlink()
    res = run("store", "check", "--store", store)
    assert res.exit_code == 1 and f"problem: returns-v1: blob {rel} is missing" in res.output
    (store / "blobs" / "zz").mkdir()
    (store / "blobs" / "zz" / ("f" * 64)).write_bytes(b"left over")
    res = run("store", "check", "--store", store)
    assert "note: unreferenced blob blobs/zz/" in res.output


def test_a_tampered_database_file_is_a_clear_error(tmp_path: Path) -> None:
    store = tmp_path / "st"
    store.mkdir()
    (store / "ipsis.db").write_bytes(b"this is not a database" * 100)
    res = run("sources", "--store", store)
    assert res.exit_code == 2 and "cannot be opened as an ipsis store" in res.output
    assert "Traceback" not in res.output
