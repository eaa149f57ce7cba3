"""Every command block of README.md runs here, as sqlite-utils tests its docs.

A fenced ``sh``/``console``/``text`` block whose lines start with ``$ `` is a transcript: each
command runs (in a copy of ``examples/``, with ``ipsis`` on PATH as ``python -m ipsis``) and
its output (stdout and stderr, as a terminal shows them) must be the lines under it. In
expected lines ``[...]`` stands for any text and a line ``...`` for any number of lines; a last
line ``(exit N)`` is the exit code (0 when absent). A command ending with `` &`` starts a
server for the rest of its block (on a free port instead of the one written). The install and
test commands are not run here: they must be exactly what ``.ci/run`` runs. ``pycon`` blocks run
as doctests. Nothing here reads ../shared: a fresh clone runs the README alone.
"""

from __future__ import annotations

import doctest
import os
import re
import shutil
import socket
import stat
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)
NOT_RUN = ("python -m pip install", "python -m pytest")  # what .ci/run runs instead


@dataclass
class Step:
    command: str
    expected: list[str] = field(default_factory=list)
    exit_code: int = 0


@dataclass
class Block:
    line: int
    steps: list[Step]


def transcripts(text: str) -> list[Block]:
    blocks = []
    for m in FENCE.finditer(text):
        if m.group(1) not in ("sh", "console", "text") or not re.search(r"^\$ ", m.group(2), re.M):
            continue
        steps: list[Step] = []
        for line in m.group(2).splitlines():
            if line.startswith("$ "):
                steps.append(Step(line[2:]))
            elif steps and (code := re.fullmatch(r"\(exit (\d+)\)", line)):
                steps[-1].exit_code = int(code.group(1))
            elif steps:
                steps[-1].expected.append(line)
        blocks.append(Block(text.count("\n", 0, m.start()) + 1, steps))
    return blocks


BLOCKS = transcripts(README.read_text(encoding="utf-8"))


def matches(expected: list[str], actual: list[str]) -> bool:
    """``actual`` lines against ``expected`` ones (``...`` lines and ``[...]`` inside a line)."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head == "...":
        return any(matches(rest, actual[i:]) for i in range(len(actual) + 1))
    if not actual:
        return False
    pattern = ".*".join(re.escape(part) for part in head.split("[...]"))
    return re.fullmatch(pattern, actual[0].rstrip()) is not None and matches(rest, actual[1:])


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A folder holding a copy of examples/ (the README runs from the checkout root), and an
    environment with ``ipsis`` on PATH."""
    work = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "examples", work / "examples", ignore=shutil.ignore_patterns("demo-store"))
    bin_dir = work / ".bin"
    bin_dir.mkdir()
    shim = bin_dir / "ipsis"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m ipsis "$@"\n', encoding="utf-8")
    shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
    env = {k: v for k, v in os.environ.items() if not k.startswith("IPSIS_") and k != "COLUMNS"}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(ROOT), NO_COLOR="1")
    env.update(PYTHONUNBUFFERED="1", IPSIS_JUDGE_KEY="")
    # the blocks after the first read the main job's store: make it, so that any block runs alone
    job = subprocess.run(["sh", "examples/main-job.sh"], cwd=work, env=env, capture_output=True, text=True, check=False)
    assert job.returncode == 1, job.stdout + job.stderr
    return work, env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for(url: str, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(300):
        if proc.poll() is not None:
            pytest.fail(f"the README's server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"the README's server did not answer at {url}")


def test_the_readme_has_transcripts() -> None:
    commands = [s.command for b in BLOCKS for s in b.steps]
    assert any(c.startswith("python -m pip install . && sh examples/main-job.sh") for c in commands)
    assert len(commands) >= 15


@pytest.mark.parametrize("block", BLOCKS, ids=[f"README.md:{b.line}" for b in BLOCKS])
def test_readme_transcript(block: Block, workdir: tuple[Path, dict[str, str]]) -> None:
    work, env = workdir
    if any(s.command.startswith("ipsis serve") for s in block.steps):
        pytest.importorskip("uvicorn", reason="the HTTP API block needs pip install 'ipsis[serve]'")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    servers: list[subprocess.Popen[bytes]] = []
    port = str(_free_port())
    try:
        for step in block.steps:
            parts = step.command.split(" && ")
            for part in (p for p in parts if p.startswith(NOT_RUN)):
                assert part in ci, f"README.md:{block.line}: .ci/run does not run {part!r}"
            command = " && ".join(p for p in parts if not p.startswith(NOT_RUN))
            if not command:
                continue
            command = command.replace("8765", port)
            if command.endswith(" &"):
                proc = subprocess.Popen(command[:-2], shell=True, cwd=work, env=env, start_new_session=True)
                servers.append(proc)
                _wait_for(f"http://127.0.0.1:{port}/v1/health", proc)
                continue
            res = subprocess.run(
                command, shell=True, cwd=work, env=env, capture_output=False, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, text=True, timeout=300, check=False,
            )  # fmt: skip
            actual = res.stdout.replace(port, "8765").splitlines()
            where = f"README.md:{block.line}: $ {step.command}"
            assert res.returncode == step.exit_code, f"{where}: exit {res.returncode}\n{res.stdout}"
            assert matches(step.expected, actual), f"{where}\n--- expected\n" + "\n".join(step.expected) + (
                "\n--- got\n" + res.stdout
            )
    finally:
        for proc in servers:
            os.killpg(proc.pid, 15)
            proc.wait(timeout=30)


def test_readme_python_examples(workdir: tuple[Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch) -> None:
    work, _ = workdir
    monkeypatch.chdir(work)
    text = README.read_text(encoding="utf-8")
    examples = [m.group(2) for m in FENCE.finditer(text) if m.group(1) == "pycon"]
    assert examples
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for i, source in enumerate(examples):
        test = parser.get_doctest(source, {}, f"README.md pycon block {i + 1}", str(README), 0)
        runner.run(test)
    assert runner.failures == 0 and runner.tries > 5


def test_no_file_in_the_project_is_a_copy_of_a_shared_document() -> None:
    """The acceptance rule of issue 15: no file in the project equals one under ../shared/corpora or
    ../shared/fixtures/answers-real (the examples are the project's own)."""
    from tests.shared import SHARED

    shared = [SHARED / "corpora", SHARED / "fixtures" / "answers-real"]
    if not all(p.is_dir() for p in shared):
        pytest.skip(f"{SHARED} is not here; nothing to compare with")
    import hashlib

    def digests(root: Path) -> dict[str, Path]:
        return {hashlib.sha256(p.read_bytes()).hexdigest(): p for p in root.rglob("*") if p.is_file()}

    theirs: dict[str, Path] = {}
    for p in shared:
        theirs.update(digests(p))
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    files = [ROOT / f for f in tracked.splitlines() if (ROOT / f).is_file()]
    files = [f for f in files if f.stat().st_size > 0]  # an empty __init__.py equals any empty file
    copies = [(f, theirs[h]) for f in files if (h := hashlib.sha256(f.read_bytes()).hexdigest()) in theirs]
    assert not copies, copies


def _help_examples() -> list[tuple[str, str]]:
    """(command, example line) for every example in every command's --help that uses examples/."""
    import click

    from ipsis.cli import main

    out = []

    def walk(cmd: click.Command, path: list[str]) -> None:
        if isinstance(cmd, click.Group):
            loaded = cmd.load_all() if hasattr(cmd, "load_all") else cmd.commands  # the lazy top group
            for name in cmd.list_commands(click.Context(cmd)):
                sub = loaded.get(name) or cmd.get_command(click.Context(cmd), name)
                if sub is not None:
                    walk(sub, [*path, name])
            return
        with click.Context(cmd, info_name=" ".join(path)) as ctx:
            text = cmd.get_help(ctx)
        for line in text.splitlines():
            line = line.strip()
            if line.startswith("ipsis ") and "examples/" in line and not line.startswith("ipsis serve"):
                out.append((" ".join(path), line.split("  #")[0].strip()))

    walk(main, ["ipsis"])
    return out


HELP_EXAMPLES = _help_examples()


def test_every_command_help_has_examples_that_run_from_the_checkout() -> None:
    commands = {c for c, _ in HELP_EXAMPLES}
    assert {"ipsis text", "ipsis locate", "ipsis describe", "ipsis verify", "ipsis check", "ipsis ingest"} <= commands


@pytest.mark.parametrize("example", [e for _, e in HELP_EXAMPLES])
def test_help_example_runs_as_pasted(example: str, workdir: tuple[Path, dict[str, str]]) -> None:
    """An example pasted from --help into a shell works: its quoting is right (a quote that the
    shell mangles would be not_found: exit 1), and nothing fails (exit 2) or raises."""
    work, env = workdir
    res = subprocess.run(example, shell=True, cwd=work, env=env, capture_output=True, text=True, timeout=300)
    out = res.stdout + res.stderr
    assert "Traceback" not in out and "error:" not in out, out
    wants_review = ("examples/main-job.jsonl", "examples/records.jsonl", "ollama-chat-pt.json")
    assert res.returncode == (1 if any(w in example for w in wants_review) else 0), (example, out)
