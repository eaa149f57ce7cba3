"""The hostile-input battery: every case is a CLI run in a subprocess with a timeout.

A case writes its input files into a fresh folder and names the ``ipsis`` arguments; the runner
classifies the outcome: ``clear_error`` (exit 2, one ``ipsis: error:`` line that names the
input), ``finding`` (exit 0 or 1: a result, with statuses and findings), ``traceback``,
``hang`` (killed at the timeout) or ``unclear`` (any other exit). Used by ``tests/hostile/`` and
``benchmarks/hostile.py``.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.hostile import pdfs
from tests.shared import ANSWERS, SHARED

ROOT = Path(__file__).resolve().parents[2]
CORPUS_PDF = SHARED / "corpora" / "rfc" / "rfc7519-rfceditor-pdfrfc.pdf"
RFC_TXT = SHARED / "corpora" / "rfc" / "rfc7519.txt"
ISS = "The \u201ciss\u201d (issuer) claim identifies the principal that issued the JWT."

CLEAR_ERROR, FINDING, TRACEBACK, HANG, UNCLEAR = "clear_error", "finding", "traceback", "hang", "unclear"


@dataclass(frozen=True, slots=True)
class Case:
    """One hostile input: ``files`` written to a folder, then ``ipsis *argv`` run there.

    ``expect`` lists the acceptable outcomes; ``must`` / ``must_not`` are strings that the
    output (stdout + stderr) must or must not contain.
    """

    category: str
    name: str
    files: dict[str, bytes]
    argv: tuple[str, ...]
    expect: tuple[str, ...] = (CLEAR_ERROR,)
    must: tuple[str, ...] = ()
    must_not: tuple[str, ...] = ()
    faults: int = 0
    stdin: bytes | None = None
    slow: bool = False


@dataclass(slots=True)
class Outcome:
    case: Case
    kind: str
    rc: int | None
    seconds: float
    peak_rss_mb: float
    stdout: str = ""
    stderr: str = ""
    problems: list[str] = field(default_factory=list)
    stdout_lines: int = 0

    @property
    def ok(self) -> bool:
        return self.kind in self.case.expect and not self.problems


def run_case(case: Case, folder: Path, timeout: float = 60.0) -> Outcome:
    """Run ``case`` in ``folder`` as a subprocess; never longer than ``timeout`` seconds."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in case.files.items():
        (folder / name).write_bytes(data)
    rss_file = folder / ".peak-rss"
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "NO_COLOR": "1",
        "PYTHONIOENCODING": "utf-8",
        "IPSIS_HOSTILE_RSS": str(rss_file),
    }
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-c", _CHILD, *case.argv],
        cwd=folder,
        env=env,
        stdin=subprocess.PIPE if case.stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        out, err = proc.communicate(case.stdin, timeout=timeout)
        hung = False
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        hung = True
    seconds = time.monotonic() - start
    rss = _peak_rss_mb(rss_file)
    stdout, stderr = out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
    rc = proc.returncode
    if hung:
        kind = HANG
    elif "Traceback (most recent call last)" in stderr:
        kind = TRACEBACK
    elif rc == 2 and stderr.startswith("ipsis: error:"):
        kind = CLEAR_ERROR
    elif rc in (0, 1):
        kind = FINDING
    else:
        kind = UNCLEAR
    outcome = Outcome(case, kind, rc, seconds, rss, stdout[-4000:], stderr[-4000:], stdout_lines=stdout.count("\n"))
    text = stdout + stderr
    if kind == CLEAR_ERROR and len(stderr.strip().splitlines()) > 3:
        outcome.problems.append("the error takes more than three lines")
    if kind == CLEAR_ERROR and not any(n in stderr for n in _input_names(case)):
        outcome.problems.append("the error does not name the input")
    outcome.problems += [f"output lacks {m!r}" for m in case.must if m not in text]
    outcome.problems += [f"output contains {m!r}" for m in case.must_not if m in text]
    return outcome


def _input_names(case: Case) -> list[str]:
    return [*case.files, "stdin", "--", "quote", "record", "line"]


_CHILD = """
import atexit, os, sys

def _peak():
    try:
        with open("/proc/self/status") as f:
            hwm = [line.split()[1] for line in f if line.startswith("VmHWM:")]
        with open(os.environ["IPSIS_HOSTILE_RSS"], "w") as out:
            out.write(hwm[0])
    except (OSError, IndexError):
        pass

atexit.register(_peak)
sys.argv[0] = "ipsis"
from ipsis.cli import main
main()
"""
"""Runs ``ipsis`` and, at exit, writes the process's peak RSS (VmHWM, KiB) to a file. Not
``ru_maxrss``: it keeps the parent's high-water mark across fork and exec."""


def _peak_rss_mb(path: Path) -> float:
    try:
        return int(path.read_text()) / 1024
    except (OSError, ValueError):
        return 0.0


# ---------------------------------------------------------------------------------------------
# Cases, by category


def pdf_cases(truncations: int = 100, seed: int = 10) -> Iterator[Case]:
    data = CORPUS_PDF.read_bytes()
    rng = random.Random(seed)
    for cut in sorted(rng.sample(range(1, len(data)), truncations)):
        name = f"cut-{cut}.pdf"
        yield Case("pdf", f"truncated at byte {cut}", {name: data[:cut]}, ("text", name), (CLEAR_ERROR, FINDING))
    yield Case("pdf", "zero pages", {"zero.pdf": pdfs.zero_pages()}, ("text", "zero.pdf"), must=("0 pages",))
    enc = pdfs.encrypted("s3cret", "Encrypted page text")
    yield Case("pdf", "encrypted, no password", {"enc.pdf": enc}, ("text", "enc.pdf"), must=("--password",))
    yield Case("pdf", "encrypted, wrong password", {"enc.pdf": enc}, ("text", "enc.pdf", "--password", "guess"),
               must=("password given is wrong",))  # fmt: skip
    yield Case("pdf", "encrypted, right password", {"enc.pdf": enc}, ("text", "enc.pdf", "--password", "s3cret"),
               (FINDING,), must=("Encrypted page text",))  # fmt: skip
    yield Case("pdf", "encrypted, empty user password", {"open.pdf": pdfs.encrypted("", "Open page text")},
               ("text", "open.pdf"), (FINDING,), must=("Open page text",))  # fmt: skip
    for engine in ("pdfium", "pypdf"):
        e = ("--engine", engine)
        yield Case("pdf", f"image-only pages ({engine})", {"scan.pdf": pdfs.image_only(3)}, ("text", "scan.pdf", *e),
                   must=("no text layer", "1-3", "OCR"))  # fmt: skip
        yield Case("pdf", f"xref offsets wrong ({engine})", {"xref.pdf": pdfs.broken_xref("Broken xref page")},
                   ("text", "xref.pdf", *e), (FINDING,), must=("Broken xref page",))  # fmt: skip
        yield Case("pdf", f"xref not a table ({engine})", {"xref2.pdf": pdfs.garbage_xref()},
                   ("text", "xref2.pdf", *e), (FINDING, CLEAR_ERROR))  # fmt: skip
        yield Case("pdf", f"page tree lists itself ({engine})", {"loop.pdf": pdfs.self_referencing_pages()},
                   ("text", "loop.pdf", *e), (CLEAR_ERROR, FINDING))  # fmt: skip
        yield Case("pdf", f"object references itself ({engine})", {"self.pdf": pdfs.self_referencing_object()},
                   ("text", "self.pdf", *e))  # fmt: skip
        yield Case("pdf", f"decompression bomb ({engine})", {"bomb.pdf": pdfs.decompression_bomb(120)},
                   ("text", "bomb.pdf", *e), must=("decompression bomb", "--max-input-mb"))  # fmt: skip
    empty = pdfs.empty_pages(10_000)
    yield Case("pdf", "10,000 empty pages", {"empty.pdf": empty}, ("text", "empty.pdf"), must=("--max-pages",))
    yield Case("pdf", "10,000 empty pages, limit raised", {"empty.pdf": empty},
               ("text", "empty.pdf", "--max-pages", "20000"), must=("no text layer", "1-10000"))  # fmt: skip
    yield Case("pdf", "10,000 empty pages, 1 ms timeout", {"empty.pdf": empty},
               ("text", "empty.pdf", "--max-pages", "0", "--timeout", "0.001"), must=("--timeout",))  # fmt: skip
    yield Case("pdf", "font without ToUnicode (U+FFFD runs)", {"fffd.pdf": pdfs.unmapped_glyphs()},
               ("text", "fffd.pdf", "--format", "json"), (FINDING,), must=("unmapped glyphs, page 2",))  # fmt: skip
    yield Case("pdf", "font without ToUnicode (glyph names)", {"names.pdf": pdfs.no_tounicode(["Hello world"])},
               ("text", "names.pdf"), (FINDING,))  # fmt: skip


ENCODINGS = {
    # codec: bytes that are invalid in it
    "utf-8": b"\xc3\x28 \xed\xa0\x80 \xff",
    "utf-16-le": b"\x00\xd8A\x00",  # a lone high surrogate
    "utf-16-be": b"\xd8\x00\x00A",
    "utf-32-le": b"\x00\x00\x11\x00",  # past U+10FFFF
    "windows-1252": b"\x81\x8d\x8f\x90\x9d",  # undefined in cp1252
    "iso-8859-1": b"\x00\x01",
    "cp1250": b"\x81\x83",
    "shift_jis": b"\x81\x7f\xa0",
    "euc-jp": b"\x8e\xff",
    "gb2312": b"\xa1\xff",
    "big5": b"\x80\x80",
    "koi8-r": b"\x00",
}
_WIDE = {"utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff", "utf-32-le": b"\xff\xfe\x00\x00"}


def _encoded(text: str, codec: str, bad: bytes, xml: bool) -> bytes:
    label = codec.removesuffix("-le").removesuffix("-be") if codec in _WIDE else codec
    head, tail = (
        (f'<?xml version="1.0" encoding="{label}"?><doc><p>Art. 1 ', "</p></doc>")
        if xml
        else (f'<html><head><meta charset="{label}"></head><body><p>Art. 1 ', "</p></body></html>")
    )
    return _WIDE.get(codec, b"") + head.encode(codec) + text.encode(codec, "replace") + bad + tail.encode(codec)


def markup_cases() -> Iterator[Case]:
    for codec, bad in ENCODINGS.items():
        for kind in ("html", "xml"):
            name = f"bad-{codec}.{kind}"
            data = _encoded("Olá", codec, bad, kind == "xml")
            yield Case("markup", f"invalid bytes in {codec} ({kind})", {name: data},
                       ("text", name), (CLEAR_ERROR, FINDING))  # fmt: skip
    yield Case("markup", "HTML declares UTF-16, bytes are windows-1252",
               {"m.html": '<html><meta charset="utf-16"><body>Olá mundo</body></html>'.encode("cp1252")},
               ("text", "m.html"), (FINDING,), must=("Olá mundo",))  # fmt: skip
    yield Case("markup", "XML declares Shift_JIS, bytes are UTF-8",
               {"m.xml": '<?xml version="1.0" encoding="shift_jis"?><doc>Proteção de dados</doc>'.encode()},
               ("text", "m.xml"), (FINDING,), must=("Proteção de dados",))  # fmt: skip
    yield Case("markup", "HTML declares UTF-8, bytes are windows-1252",
               {"w.html": '<html><meta charset="utf-8"><body>Proteção de dados</body></html>'.encode("cp1252")},
               ("text", "w.html"), (FINDING,), must=("Proteção de dados",))  # fmt: skip
    xxe = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY s SYSTEM "file:///etc/passwd">]><x>&s;</x>'
    yield Case("markup", "XXE (file)", {"xxe.xml": xxe}, ("text", "xxe.xml"), must=("external entity",),
               must_not=("root:",))  # fmt: skip
    param = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;]><x>a</x>'
    yield Case("markup", "XXE (parameter entity)", {"p.xml": param}, ("text", "p.xml"), must=("external entity",))
    inner = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY % p "<!ENTITY e \'boom\'>"> %p;]><x>&e;</x>'
    yield Case("markup", "parameter entity defining an entity", {"pi.xml": inner}, ("text", "pi.xml"))
    html_xxe = b'<!DOCTYPE html [<!ENTITY s SYSTEM "file:///etc/passwd">]><html><body><p>Text &s;</p></body></html>'
    yield Case("markup", "XXE in HTML", {"x.html": html_xxe}, ("text", "x.html"), (FINDING, CLEAR_ERROR),
               must_not=("root:",))  # fmt: skip
    lol = b'<!ENTITY lol "lol">' + b"".join(
        b'<!ENTITY lol%d "%s">' % (i, b"&lol;" * 10 if i == 1 else b"&lol%d;" % (i - 1) * 10) for i in range(1, 10)
    )
    laughs = b'<?xml version="1.0"?><!DOCTYPE lolz [' + lol + b"]><lolz>&lol9;</lolz>"
    yield Case("markup", "billion laughs", {"lolz.xml": laughs}, ("text", "lolz.xml"), must=("entity",))
    quad = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "' + b"x" * 10_000 + b'">]><x>' + b"&a;" * 50_000 + b"</x>"
    yield Case("markup", "quadratic entity blow-up", {"quad.xml": quad}, ("text", "quad.xml"))
    line = b"palavra " * (10 * 2**20 // 8)
    for kind, doc in (
        ("html", b"<html><body><p>" + line + b"</p></body></html>"),
        ("xml", b"<?xml version='1.0'?><doc>" + line + b"</doc>"),
        ("txt", line),
    ):
        yield Case("markup", f"10 MB single line ({kind})", {f"big.{kind}": doc},
                   ("locate", f"big.{kind}", "palavra palavra palavra palavra"), (FINDING,), must=("ambiguous",),
                   slow=True)  # fmt: skip
    deep_html = b"<html><body>" + b"<div>" * 100_000 + b"deep" + b"</div>" * 100_000 + b"</body></html>"
    deep_xml = b"<?xml version='1.0'?>" + b"<a>" * 100_000 + b"deep" + b"</a>" * 100_000
    yield Case("markup", "100,000 nested elements (html)", {"deep.html": deep_html}, ("text", "deep.html"),
               must=("nested",))  # fmt: skip
    yield Case("markup", "100,000 nested elements (xml)", {"deep.xml": deep_xml}, ("text", "deep.xml"),
               must=("nested",))  # fmt: skip
    script = (b"<html><body><script>document.write('SECRET SCRIPT TEXT')</script><p>Visible text.</p>"
              b"<script>var s = '</p><p>';</script></body></html>")  # fmt: skip
    yield Case("markup", "<script> content", {"s.html": script}, ("text", "s.html"), (FINDING,),
               must=("Visible text.",), must_not=("SECRET",))  # fmt: skip
    only = b"<html><body><script>var only = 1;</script><style>p {}</style></body></html>"
    yield Case("markup", "only <script> and <style>", {"o.html": only}, ("text", "o.html"), must=("no visible text",))


def _records(*rows: object) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in rows)


FIELDS = ("citation_id", "source_id", "quote", "prefix", "suffix", "section", "claim", "position")
WRONG = {"a number": 3.5, "a boolean": True, "a list": ["x"], "an object": {"x": 1}, "a string": "x", "null": None}


def wrong_type_records() -> list[tuple[str, dict[str, object]]]:
    """``(field, record)`` for each field and each JSON type it must not have; the rest valid."""
    base = {"citation_id": "c", "source_id": "rfc", "quote": ISS}
    out = []
    for name in FIELDS:
        for label, value in WRONG.items():
            ok = {"position": (int,), "citation_id": (str, int)}.get(name, (str,))
            if (isinstance(value, ok) and not isinstance(value, bool)) or (value is None and name not in base):
                continue
            out.append((name, {**base, "citation_id": f"{name}:{label}", name: value}))
    return out


def record_cases(big_records: int = 1_000_000) -> Iterator[Case]:
    src = ("--source", "rfc=rfc.txt")
    rfc = {"rfc.txt": RFC_TXT.read_bytes()}
    good = {"citation_id": "iss", "source_id": "rfc", "quote": ISS}
    whole = _records(good, good)
    yield Case("records", "truncated JSONL", {**rfc, "t.jsonl": whole[:-30]}, ("verify", "t.jsonl", *src),
               must=("line 2",))  # fmt: skip
    arr = json.dumps([good, good]).encode()
    yield Case("records", "truncated JSON array", {**rfc, "t.json": arr[:-20]}, ("verify", "t.json", *src))
    rows = [row for _, row in wrong_type_records()]
    yield Case("records", f"wrong types at every field ({len(rows)} records)", {**rfc, "w.jsonl": _records(*rows)},
               ("verify", "w.jsonl", *src, "--format", "jsonl"), (FINDING,),
               must=tuple(f"field {f!r}" for f in FIELDS), faults=len(rows))  # fmt: skip
    yield Case("records", "a record that is not an object", {**rfc, "n.jsonl": b'1\n"x"\n'},
               ("verify", "n.jsonl", *src), (FINDING,), must=("expected an object",))  # fmt: skip
    huge = {**good, "quote": "palavra " * (10 * 2**20 // 8)}
    yield Case("records", "10 MB quote", {**rfc, "h.jsonl": _records(huge, good)},
               ("verify", "h.jsonl", *src, "--format", "jsonl"), (FINDING,),
               must=("--max-quote-chars", "located=1/2"))  # fmt: skip
    nul = {**good, "quote": "The \x00\u201ciss\u201d (issuer) claim"}
    yield Case("records", "NUL in a quote", {**rfc, "z.jsonl": _records(nul)}, ("verify", "z.jsonl", *src), (FINDING,))
    raw_nul = b'{"citation_id": "a", "source_id": "rfc", "quote": "The \x00 claim"}\n'
    yield Case("records", "raw NUL byte in JSON", {**rfc, "r.jsonl": raw_nul}, ("verify", "r.jsonl", *src))
    sur = b'{"citation_id": "a", "source_id": "rfc", "quote": "The \\ud800 (issuer) claim identifies"}\n'
    sur += b'{"citation_id": "b\\udc00", "source_id": "rfc", "quote": "x", "prefix": "\\udfff"}\n'
    for fmt in ("table", "json", "jsonl", "csv"):
        yield Case("records", f"lone surrogates ({fmt})", {**rfc, "s.jsonl": sur},
                   ("verify", "s.jsonl", *src, "--format", fmt), (FINDING,), must=("surrogate",))  # fmt: skip
    bad = _records(good) + b'{"citation_id": "x", "source_id": "rfc", "quote": "caf\xe9 \xff"}\n'
    yield Case(
        "records", "invalid UTF-8", {**rfc, "u.jsonl": bad}, ("verify", "u.jsonl", *src), must=("line 2", "UTF-8")
    )
    deep = b"[" * 100_000 + b"\n"
    yield Case("records", "nested 100,000 deep", {**rfc, "d.jsonl": deep}, ("verify", "d.jsonl", *src),
               must=("nested too deeply",))  # fmt: skip
    yield Case("records", "--max-records", {**rfc, "m.jsonl": _records(*[good] * 5)},
               ("verify", "m.jsonl", *src, "--max-records", "3"), must=("--max-records",))  # fmt: skip
    yield Case("records", "records from stdin, truncated", rfc, ("verify", "-", *src), stdin=whole[:-5],
               must=("stdin: line 2",))  # fmt: skip
    # one record in 100 is located in the RFC; the rest name an unknown source (cheap to check)
    stray = {**good, "source_id": "nope"}
    many = (_records(good) + _records(stray) * 99) * (big_records // 100)
    yield Case("records", f"{big_records:,} records, streamed", {**rfc, "many.jsonl": many},
               ("verify", "many.jsonl", *src, "--format", "jsonl"), (FINDING,),
               must=(f"located={big_records // 100}/{big_records}",), slow=big_records > 10_000)  # fmt: skip
    yield from answer_cases()


def answer_cases() -> Iterator[Case]:
    srcs = {"sources.json": (ANSWERS / "sources.json").read_bytes()}
    chat = (ANSWERS / "openai-chat.json").read_bytes()
    sse = (ANSWERS / "openai-chat-stream.sse").read_bytes()
    nd = (ANSWERS / "ollama-chat-stream.ndjson").read_bytes()
    check = ("--sources", "sources.json")
    for name, data in (("a.json", chat), ("a.sse", sse), ("a.ndjson", nd)):
        yield Case("answers", f"truncated {name.split('.')[1]} answer", {**srcs, name: data[: len(data) * 2 // 3]},
                   ("check", name, *check), (CLEAR_ERROR, FINDING))  # fmt: skip
    obj = json.loads(chat)
    for path, value in (("content", 5), ("message", "x"), ("choices", {}), ("finish_reason", 7)):
        wrong = json.loads(chat)
        target = wrong["choices"][0] if path in ("message", "finish_reason") else wrong["choices"][0]["message"]
        if path == "choices":
            wrong["choices"] = value
        else:
            target[path] = value
        yield Case("answers", f"wrong type: {path}", {**srcs, "w.json": json.dumps(wrong).encode()},
                   ("check", "w.json", *check), must=("must be",))  # fmt: skip
    sur = json.dumps(obj).replace("[1]", "\\ud800 [1]", 1).encode()
    for fmt in ("table", "json"):
        yield Case("answers", f"lone surrogate in an answer ({fmt})", {**srcs, "s.json": sur},
                   ("check", "s.json", *check, "--format", fmt), (FINDING, CLEAR_ERROR))  # fmt: skip
    nul = json.dumps(obj).replace("[1]", "\\u0000 [1]", 1).encode()
    yield Case("answers", "NUL in an answer", {**srcs, "n.json": nul}, ("check", "n.json", *check), (FINDING,))
    yield Case("answers", "invalid UTF-8 in an answer", {**srcs, "u.json": chat[:60] + b"\xff\xfe" + chat[60:]},
               ("check", "u.json", *check), (CLEAR_ERROR, FINDING))  # fmt: skip
    garbage = b'data: {"x": 1}\n\nHTTP/1.1 502 Bad Gateway\n'
    yield Case("answers", "SSE with a proxy error page", {**srcs, "g.sse": garbage}, ("check", "g.sse", *check))


def quote_cases() -> Iterator[Case]:
    rfc = {"rfc.txt": RFC_TXT.read_bytes()}
    loc = ("locate", "rfc.txt")
    text = RFC_TXT.read_text(encoding="utf-8")
    for name, quote, expect, must in (
        ("empty", "", (FINDING,), ("empty_quote",)),
        ("whitespace only", " \t\n ", (FINDING,), ("empty_quote",)),
        ("only punctuation", ".,;:!?()[]{}", (FINDING,), ()),
        ("only combining marks", "\u0301\u0327\u0300\u0308\u20dd", (FINDING,), ()),
        ("RTL", "\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd \u0645\u0631\u062d\u0628\u0627", (FINDING,), ()),
        ("emoji and astral", "\U0001f600 \U0001d49c\U0001d4b7 \U0001f469\u200d\U0001f4bb", (FINDING,), ()),
        ("1 MB", "palavra " * (2**20 // 8), (CLEAR_ERROR,), ("--max-quote-chars",)),
    ):
        yield Case("quotes", name, rfc, (*loc, "-"), expect, must=must, stdin=quote.encode())
    yield Case("quotes", "1 MB from the document, limit off", rfc, (*loc, "-", "--max-quote-chars", "0"), (FINDING,),
               stdin=(text * 20)[: 2**20].encode(), must=("not_found",))  # fmt: skip
    yield Case("quotes", "undecodable bytes in the quote argument", rfc, (*loc, "The \udcff claim"))
    yield Case("quotes", "selector outside the text", rfc, ("describe", "rfc.txt", "10", "99999999"), must=("outside",))


def all_cases(*, quick: bool = False) -> list[Case]:
    """Every case; ``quick`` keeps 10 truncations, 10,000 records and drops the slow ones."""
    cases = [
        *pdf_cases(10 if quick else 100),
        *markup_cases(),
        *record_cases(10_000 if quick else 1_000_000),
        *quote_cases(),
    ]
    return [c for c in cases if not (quick and c.slow)]


CATEGORIES: tuple[str, ...] = ("pdf", "markup", "records", "answers", "quotes")
Runner = Callable[[Case, Path], Outcome]
