"""Hostile PDFs built byte by byte (no writer library smooths them over).

:func:`build` lays out numbered objects and a correct cross-reference table; the other
functions bend one thing each: the xref, a self-reference, a bomb, a font without ToUnicode.
"""

from __future__ import annotations

import io
import zlib

import pypdf

FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def build(objects: list[bytes], *, root: int = 1, xref: bool = True, shift_xref: int = 0) -> bytes:
    """A PDF whose object ``i + 1`` is ``objects[i]``; ``shift_xref`` corrupts every offset."""
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (i, body))
    start = out.tell()
    if xref:
        out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
        for off in offsets:
            out.write(b"%010d 00000 n \n" % (off + shift_xref))
    out.write(b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, root, start))
    return out.getvalue()


def stream(content: bytes, *, compress: bool = False, extra: bytes = b"") -> bytes:
    if compress:
        content = zlib.compress(content, 9)
        extra += b" /Filter /FlateDecode"
    return b"<< /Length %d%s >>\nstream\n%s\nendstream" % (len(content), extra, content)


def text_pdf(pages: list[str], *, font: bytes = FONT, compress: bool = False) -> bytes:
    """One page per string, drawn with Helvetica (or ``font``) at 12 pt, one line per ``\\n``."""
    n = len(pages)
    # 1 catalog, 2 pages, 3 font, then (page, content) pairs
    kids = b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(n))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, n), font]
    for i, page in enumerate(pages):
        ops = [b"BT /F1 12 Tf 72 760 Td 14 TL"]
        for line in page.split("\n"):
            esc = line.encode("latin-1").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
            ops.append(b"(%s) Tj T*" % esc)
        ops.append(b"ET")
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
            b" /Contents %d 0 R >>" % (5 + 2 * i)
        )
        objects.append(stream(b"\n".join(ops), compress=compress))
    return build(objects)


def empty_pages(n: int) -> bytes:
    """``n`` pages that share one empty content stream."""
    kids = b" ".join(b"%d 0 R" % (4 + i) for i in range(n))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, n),
        stream(b""),
    ]
    objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R >>"] * n
    return build(objects)


def zero_pages() -> bytes:
    return build([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"])


def self_referencing_pages() -> bytes:
    """A page tree whose /Pages node lists itself as a kid (and a /Parent loop)."""
    return build(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 /Parent 2 0 R >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
            b" /Resources << /Font << /F1 5 0 R >> >> >>",
            stream(b"BT /F1 12 Tf 72 700 Td (Loop page text) Tj ET"),
            FONT,
        ]
    )


def mistyped_page() -> bytes:
    """Two kids, the first with a misspelt ``/Type``: pypdf reads one page, PDFium two (the first
    unloadable), so their page numbers do not correspond."""
    return build(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 >>",
            FONT,
            b"<< /Type /Pa\x1cge /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
            b" /Contents 5 0 R >>",
            stream(b"BT /F1 12 Tf 72 760 Td (Mistyped page text) Tj ET"),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
            b" /Contents 7 0 R >>",
            stream(b"BT /F1 12 Tf 72 760 Td (Second page text) Tj ET"),
        ]
    )


def self_referencing_object() -> bytes:
    """An object whose value is a reference to itself, used as the page's /Contents and /Resources."""
    return build(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources 4 0 R >>",
            b"4 0 R",
        ]
    )


def broken_xref(text: str = "Broken xref page") -> bytes:
    """Every xref offset off by 7 bytes: readers must rebuild the table (or say why not)."""
    good = text_pdf([text])
    head, _, _ = good.partition(b"xref\n")
    objects_end = len(head)
    bad = build_from_body(head, objects_end, shift=7)
    return bad


def build_from_body(head: bytes, start: int, shift: int) -> bytes:
    import re

    offsets = [m.start() for m in re.finditer(rb"(?m)^\d+ 0 obj", head)]
    out = head + b"xref\n0 %d\n0000000000 65535 f \n" % (len(offsets) + 1)
    out += b"".join(b"%010d 00000 n \n" % (o + shift) for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(offsets) + 1, start)
    return out


def garbage_xref() -> bytes:
    """An xref section that is not a table at all, and a startxref pointing past the end."""
    good = text_pdf(["Garbage xref page"])
    head, _, _ = good.partition(b"xref\n")
    return head + b"xref\nthis is not a table\ntrailer\n<< /Root 1 0 R >>\nstartxref\n999999999\n%%EOF\n"


def decompression_bomb(megabytes: int = 200) -> bytes:
    """A content stream of ``megabytes`` MB of spaces and one line of text, Flate-compressed."""
    comp = zlib.compressobj(9)
    chunk = b" " * 2**20
    body = comp.compress(b"BT /F1 12 Tf 72 700 Td (Bomb page text) Tj ET\n")
    for _ in range(megabytes):
        body += comp.compress(chunk)
    body += comp.flush()
    return build(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
            b" /Resources << /Font << /F1 5 0 R >> >> >>",
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(body), body),
            FONT,
        ]
    )


def no_tounicode(pages: list[str]) -> bytes:
    """Text drawn with a font whose codes map to made-up glyph names and no ToUnicode map."""
    names = b" ".join(b"/g%d" % i for i in range(32, 127))
    font = (
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica"
        b" /Encoding << /Type /Encoding /Differences [32 %s] >> >>" % names
    )
    return text_pdf(pages, font=font)


def encrypted(user_password: str, text: str = "Encrypted page text") -> bytes:
    reader = pypdf.PdfReader(io.BytesIO(text_pdf([text])))
    writer = pypdf.PdfWriter()
    for page in reader.pages:
        writer.add_page(page)
    writer.encrypt(user_password, owner_password="owner-secret", algorithm="AES-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def image_only(pages: int = 2) -> bytes:
    """Pages that draw one small grey image each and no text."""
    img = stream(
        b"\x80" * 64,
        extra=b" /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8",
    )
    kids = b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(pages))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages), img]
    for i in range(pages):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 3 0 R >> >>"
            b" /Contents %d 0 R >>" % (5 + 2 * i)
        )
        objects.append(stream(b"q 200 0 0 200 100 400 cm /Im1 Do Q"))
    return build(objects)


def text_then_image() -> bytes:
    """Page 1 has a line of text, page 2 only a uniform grey image (OCR reads nothing there)."""
    img = stream(
        b"\x80" * 64,
        extra=b" /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8",
    )
    return build(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 >>",
            img,
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 8 0 R >> >>"
            b" /Contents 5 0 R >>",
            stream(b"BT /F1 12 Tf 72 700 Td (First page text) Tj ET"),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 3 0 R >> >>"
            b" /Contents 7 0 R >>",
            stream(b"q 200 0 0 200 100 400 cm /Im1 Do Q"),
            FONT,
        ]
    )


def unmapped_glyphs() -> bytes:
    """Page 1 readable; page 2 drawn with a composite font (Identity-H) that has no ToUnicode map
    and no embedded font, whose codes PDFium cannot map: they come out as U+FFFD."""
    font0 = b"<< /Type /Font /Subtype /Type0 /BaseFont /NoMap /Encoding /Identity-H /DescendantFonts [7 0 R] >>"
    cid = (
        b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /NoMap"
        b" /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 500 >>"
    )
    return build(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 8 0 R >> >>"
            b" /Contents 4 0 R >>",
            stream(b"BT /F1 12 Tf 72 700 Td (Readable first page) Tj ET"),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F2 6 0 R >> >>"
            b" /Contents 9 0 R >>",
            font0,
            cid,
            FONT,
            stream(b"BT /F2 12 Tf 72 700 Td <FFFDFFFDFFFD> Tj ET"),
        ]
    )


def page_reuse_bomb(pages: int = 4000, lines: int = 50) -> bytes:
    """One page object listed ``pages`` times in the page tree, drawing one compressed content
    stream of ``lines`` lines: ~25 KB that extract to megabytes of text (the audit's 32 KB PDF)."""
    ops = [b"BT /F1 10 Tf 40 760 Td 12 TL"]
    ops += [
        b"(The same content stream drawn again on every page of the file, line %d.) Tj T*" % i for i in range(lines)
    ]
    ops.append(b"ET")
    kids = b" ".join([b"4 0 R"] * pages)
    page = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
        b" /Contents 5 0 R >>"
    )
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages),
        FONT,
        page,
        stream(b"\n".join(ops), compress=True),
    ]
    return build(objects)
