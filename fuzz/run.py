"""Coverage-guided fuzzing (atheris, libFuzzer) of the readers, the answer parsers, the record
parser and the normalizer, for a bounded time.

Run: ``python fuzz/run.py all --seconds 300`` (each target gets ``--seconds``), or one target:
``python fuzz/run.py html --seconds 60``; ``--ci`` is the reduced run (a fixed seed and number of
inputs per target, about 15 s each, so that what CI finds reproduces here).
Install with ``pip install ".[fuzz]"``. Any exception that is not an :class:`IpsisError` is a
crash: libFuzzer stops and writes the input to ``fuzz/crashes/<target>-crash-<sha1>``; turn it
into a regression case in ``tests/hostile/test_regressions.py`` and fix the code where it
lives. Seeds come from the real fixtures and the hostile PDFs.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.shared import SHARED  # noqa: E402 - the real documents, never copied

TARGETS = ("pdf", "html", "xml", "answers", "records", "normalize")
CRASHES = ROOT / "fuzz" / "crashes"


def seeds(target: str) -> list[bytes]:
    corpora = SHARED / "corpora"
    answers = SHARED / "fixtures" / "answers"
    if target == "pdf":
        from tests.hostile import pdfs

        return [
            pdfs.text_pdf(["Art. 1 Esta Lei", "second page"]),
            pdfs.broken_xref(),
            pdfs.self_referencing_object(),
            pdfs.unmapped_glyphs(),
            pdfs.image_only(1),
            pdfs.text_pdf(["compressed"], compress=True),
        ]
    if target == "html":
        return [p.read_bytes()[:20000] for p in corpora.glob("*/*.html")] + [b"<html><body><p>x</p></body></html>"]
    if target == "xml":  # small well-formed documents in the BOE and RFCXML shapes (cut files never parse)
        return [
            b'<?xml version="1.0" encoding="utf-8"?><response><data><texto><bloque id="a1" tipo="precepto">'
            b'<version id_norma="BOE-A-1978-31229" fecha_publicacion="19781229" fecha_vigencia="19781229">'
            b'<p class="articulo">Art\xc3\xadculo 1</p><p class="parrafo">Espa\xc3\xb1a se constituye.</p>'
            b'<p class="nota_pie">Nota.</p></version></bloque></texto></data></response>',
            b'<?xml version="1.0"?><!DOCTYPE rfc [<!ENTITY nbsp "&#160;">]><rfc version="3"><front>'
            b"<title>HTTP Caching</title><abstract><t>Abstract&nbsp;text.</t></abstract></front><middle>"
            b'<section anchor="intro"><name>Introduction</name><t>Text.</t><section><name>Sub</name>'
            b"<t>More.</t></section></section></middle><back><section><name>Appendix</name><t>x</t>"
            b"</section></back></rfc>",
            b"<?xml version='1.0'?><doc><p>Generic <b>XML</b> text.</p></doc>",
        ]
    if target == "answers":
        return [p.read_bytes() for p in answers.iterdir() if p.suffix in (".json", ".sse", ".ndjson", ".txt", ".md")]
    if target == "records":
        return [(ROOT / "examples" / "records.jsonl").read_bytes(), b'[{"citation_id": 1}]']
    return [(corpora / "rfc" / "rfc7519.txt").read_bytes()[:4000], "Art. 5º § 1º “lei” ﬁ – não".encode()]


def make_target(target: str):  # type: ignore[no-untyped-def]
    import atheris

    with atheris.instrument_imports():
        # the readers are imported lazily by load_bytes: import them here so they are instrumented
        import ipsis.answers.detect
        import ipsis.ingest.html
        import ipsis.ingest.pdf
        import ipsis.ingest.rfc
        import ipsis.ingest.xml  # noqa: F401
        from ipsis import Document
        from ipsis.answers import sources_from_json
        from ipsis.answers.check import check_answer
        from ipsis.errors import IpsisError
        from ipsis.ingest import load_bytes
        from ipsis.ingest.normalize import TIERS, normalize
        from ipsis.limits import Limits
        from ipsis.verify import locate, verify_records
        from ipsis.verify.records import iter_records

    limits = Limits(max_input_bytes=2 << 20, max_pages=50, timeout=10, max_quote_chars=2000)
    sources = sources_from_json(["Meals are reimbursed up to €50 per day.", "Receipts are required."])

    def run(data: bytes) -> None:
        try:
            if target in ("pdf", "html", "xml"):
                for engine in ("pdfium", "pypdf") if target == "pdf" else ("pdfium",):
                    load_bytes(data, "f", f"fuzz.{target}", fmt=target, engine=engine, limits=limits)
            elif target == "answers":
                check_answer(data, sources, name="fuzz")
            elif target == "records":
                doc = Document("s", "Meals are reimbursed up to €50 per day.")
                for r in verify_records(iter_records(io.BytesIO(data), "fuzz", limits), {"s": doc}.get, limits=limits):
                    for fmt_ok in (r.to_json(),):
                        assert isinstance(fmt_ok, dict)
            else:
                fdp = atheris.FuzzedDataProvider(data)
                text = fdp.ConsumeUnicodeNoSurrogates(2000)
                for tier in TIERS[1:]:
                    n = normalize(text, tier)
                    pos = [n.offsets.to_source(i) for i in range(len(n.text) + 1)]
                    assert pos == sorted(pos) and pos[-1] == len(text), f"offsets move backwards ({tier})"
                if len(text) > 4:
                    r = locate(Document("d", text), text[1:-1])
                    for m in r.matches:
                        assert text[m.start : m.end] == m.text
        except IpsisError:
            pass

    return run


# The reduced run: a fixed seed and number of inputs (about 15 s each here), so a CI failure reproduces.
CI_SEED = 20261201
CI_RUNS = {"pdf": 300, "html": 4000, "xml": 100000, "answers": 20000, "records": 50000, "normalize": 1500}


def fuzz_one(target: str, seconds: int, ci: bool = False) -> int:
    """Run one target in this process (libFuzzer takes over ``sys.argv``). ``ci``: the reduced run,
    ``CI_RUNS[target]`` inputs from :data:`CI_SEED` (``seconds`` only caps it on a slow machine)."""
    import atheris

    CRASHES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f"ipsis-fuzz-{target}-") as tmp:
        for i, seed in enumerate(seeds(target)):
            (Path(tmp) / f"seed-{i}").write_bytes(seed)
        argv = [
            sys.argv[0],
            tmp,
            f"-max_total_time={seconds}",
            f"-artifact_prefix={CRASHES}/{target}-",
            "-max_len=65536" if target in ("pdf", "html", "xml") else "-max_len=8192",
            "-timeout=30",
            "-rss_limit_mb=3072",
            "-print_final_stats=1",
        ]
        if ci:
            argv += [f"-seed={CI_SEED}", f"-runs={CI_RUNS[target]}"]
        atheris.Setup(argv, make_target(target))
        atheris.Fuzz()
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("target", choices=[*TARGETS, "all"])
    ap.add_argument("--seconds", type=int, default=120, help="fuzzing time per target")
    ap.add_argument("--ci", action="store_true", help="the reduced run: a fixed seed and number of inputs per target")
    args = ap.parse_args()
    seconds = 120 if args.ci else args.seconds
    if args.target != "all":
        return fuzz_one(args.target, seconds, args.ci)
    failed = []
    for target in TARGETS:
        flags = ["--ci"] if args.ci else ["--seconds", str(seconds)]
        how = f"{CI_RUNS[target]} inputs, seed {CI_SEED}" if args.ci else f"{seconds} s"
        print(f"== fuzzing {target} ({how})", flush=True)
        proc = subprocess.run([sys.executable, __file__, target, *flags], check=False)
        if proc.returncode != 0:
            failed.append(target)
    print("fuzz: crashes in " + ", ".join(failed) if failed else "fuzz: no crash", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
