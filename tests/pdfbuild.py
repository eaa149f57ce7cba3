"""Tiny PDFs written byte by byte for tests: one page in Times-Roman (a standard font, nothing
embedded; Symbol as ``/F2``) with the content stream given, optionally with form XObjects the page draws."""

from __future__ import annotations


def one_page_pdf(
    content: bytes,
    forms: dict[str, tuple[bytes, bytes]] | None = None,
    font: bytes = b"Times-Roman",
    catalog: bytes = b"",
) -> bytes:
    """A one-page PDF (612 x 792 points) whose page draws ``content`` (``/F1`` is the standard
    ``font``); ``forms`` maps an XObject name to ``(bbox, stream)`` of a form XObject the
    content can draw with ``/Name Do`` (``bbox`` as written in PDF, e.g. ``b"[0 0 612 792]"``);
    ``/F2`` is the standard Symbol font; ``catalog`` is added to the catalog dictionary (e.g. ``b"/Lang (ru)"``)."""
    forms = forms or {}
    first_form = 6
    xobjects = b" ".join(b"/%s %d 0 R" % (name.encode(), first_form + k) for k, name in enumerate(forms))
    symbol = first_form + len(forms)
    resources = b"<< /Font << /F1 4 0 R /F2 %d 0 R >> /XObject << " % symbol + xobjects + b" >> >>"
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R " + catalog + b" >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources " + resources + b" /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /" + font + b" >>",
        _stream(b"", content),
        *(_stream(b"/Type /XObject /Subtype /Form /BBox %s /Resources %s " % (bbox, resources), body)
          for bbox, body in forms.values()),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>",
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for i, obj in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1) + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    return out + b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)


def _stream(keys: bytes, body: bytes) -> bytes:
    return b"<< %s/Length %d >>\nstream\n" % (keys, len(body)) + body + b"\nendstream"
