"""The normalized view a run matches against, kept with the version (kind ``views``).

A store-backed ``ipsis verify`` spends about a third of its CPU time building the typography
view of each cited source (the default policy's widest tier) with its offset map. The view is
a function of the document text and marks alone, so ingest keeps it (it builds it anyway for
the found-elsewhere index) and a run loads it instead: the text, the steps that acted, and the
offset map's layers, as little-endian uint32 arrays, and the layers chained into one map each
for starts and ends (:class:`ipsis.spans.Flat`: a run maps every place with one bisection, not
one per layer; chaining them costs ~50 ms per MB of text, paid once at ingest); then the offsets
where the document text's lines start (the line numbers of the matches, without a scan of the text).

:data:`FORMAT` is a fingerprint of the code and data the view depends on (the normalization
modules' source, Python's Unicode database, the ``regex`` module's version): any change to
them makes stored views stale, so they are computed again, never used out of date.
"""

from __future__ import annotations

import hashlib
import json
import struct
import unicodedata
from array import array
from pathlib import Path
from typing import Any

from ipsis.document import LINE_STARTS, SKIPPED_IN_MATCHING, Document, line_starts
from ipsis.ingest.normalize import Normalized
from ipsis.packing import check_consumed, read_columns, to_le
from ipsis.spans import Flat, OffsetMap, Pieces, _Layer

COMPRESSED = False
"""The views payload is stored as it is, not zlib-compressed: a run loads it on every start, and
inflating a 5 MB document's view took 24 ms of a ~0.5 s store-backed ``ipsis verify`` (hashing
and reading the larger payload ~6 ms); it costs about the view's size in UTF-8 in the store
plus the maps (9.8 MB for the 5 MB benchmark text: the view 4.9, its layers 1.5, the chained
maps 3.2, the line starts 0.35; compressed, the view and layers took 2.1 MB)."""
TIERS = ("typography",)
"""The views kept: the default policy's widest tier (``Policy.max_tier``), marks skipped, no step disabled."""
_HEAD = struct.Struct("<I")


def _fingerprint() -> int:
    """A 31-bit number that changes whenever the view could: the sources of the modules that
    build it and of this one (the payload's layout), the Unicode database and the ``regex`` version."""
    import regex

    import ipsis.ingest.fixes
    import ipsis.ingest.fixkit
    import ipsis.ingest.folds
    import ipsis.ingest.hyphens
    import ipsis.ingest.normalize
    import ipsis.ingest.signs
    import ipsis.ingest.spacing
    import ipsis.spans

    h = hashlib.sha256()
    sources = (
        ipsis.ingest.normalize,
        ipsis.ingest.fixes,
        ipsis.ingest.fixkit,
        ipsis.ingest.hyphens,
        ipsis.ingest.spacing,
        ipsis.ingest.folds,
        ipsis.ingest.signs,
        ipsis.spans,
    )
    for file in (*(m.__file__ for m in sources), __file__):
        try:
            h.update(Path(str(file)).read_bytes())
        except OSError:  # no sources (a frozen install): the ipsis version stands for them
            from ipsis import __version__

            h.update(__version__.encode())
    h.update(f"{unicodedata.unidata_version} {regex.__version__} {sorted(SKIPPED_IN_MATCHING)}".encode())
    return int(h.hexdigest()[:7], 16) + 1


FORMAT = _fingerprint()


def utf8_key(tier: str) -> tuple[Any, ...]:
    """The ``doc.cache`` key of a view's text with its UTF-8 bytes (kept by :func:`unpack`)."""
    from ipsis.verify.match import utf8_key

    return utf8_key(tier)


def key(tier: str) -> tuple[Any, ...]:
    """The ``doc.cache`` key of a view (as :func:`ipsis.verify.match.document_view` builds it)."""
    from ipsis.verify.match import view_key

    return view_key(tier)


def pack(doc: Document) -> bytes:
    """The views of :data:`TIERS` of ``doc`` (built, or taken from its cache) as bytes."""
    from ipsis.verify.match import document_view

    parts = []
    for tier in TIERS:
        view = document_view(doc, tier)
        body = view.text.encode("utf-8", "surrogatepass")
        om = view.offsets
        flat = om.flat or om.flat_of()
        head = {"tier": tier, "steps": list(view.steps), "length": om.length, "source_length": om.source_length,
                "layers": [len(layer.o_starts) for layer in om.layers], "text": len(body),
                "flat": [len(flat.start.starts), len(flat.end.starts)]}  # fmt: skip
        meta = json.dumps(head).encode()
        parts += [_HEAD.pack(len(meta)), meta, body]
        for layer in om.layers:
            parts += [to_le(array("I", col)) for col in (layer.o_starts, layer.o_ends, layer.i_starts, layer.i_ends)]
        parts += [to_le(array("I", col)) for pieces in (flat.start, flat.end) for col in pieces]
    lines = line_starts(doc.text)  # (line numbers of the matches: a scan of the whole text otherwise)
    parts += [_HEAD.pack(len(lines)), to_le(array("I", lines))]
    return _HEAD.pack(len(TIERS)) + b"".join(parts)


def unpack(data: bytes) -> dict[Any, Any]:
    """``{doc.cache key: Normalized}`` from :func:`pack`'s bytes (ValueError when they are not)."""
    try:
        (count,) = _HEAD.unpack_from(data, 0)
        pos = _HEAD.size
        out: dict[Any, Any] = {}
        for _ in range(count):
            (n,) = _HEAD.unpack_from(data, pos)
            head = json.loads(data[pos + _HEAD.size : pos + _HEAD.size + n])
            pos += _HEAD.size + n
            body = memoryview(data)[pos : pos + head["text"]]
            text = str(body, "utf-8", "surrogatepass")  # no copy first
            out[utf8_key(head["tier"])] = (text, bytes(body))  # the block's pass runs over these bytes
            pos += head["text"]
            layers = []
            for size in head["layers"]:
                cols, pos = read_columns(data, pos, "IIII", size)
                layers.append(_Layer(*cols))  # arrays: bisected as they are, never copied
            chained = []
            for size in head["flat"]:
                cols, pos = read_columns(data, pos, "III", size)
                chained.append(Pieces(*cols))
            omap = OffsetMap(head["length"], head["source_length"], tuple(layers), Flat(*chained))
            if len(text) != omap.length:
                msg = f"view text of {len(text)} characters, its map says {omap.length}"
                raise ValueError(msg)
            out[key(head["tier"])] = Normalized(text, tuple(head["steps"]), omap)
        (n,) = _HEAD.unpack_from(data, pos)
        (lines,), pos = read_columns(data, pos + _HEAD.size, "I", n)
        out[LINE_STARTS] = lines
    except (struct.error, KeyError, TypeError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        msg = f"not a views payload ({type(exc).__name__}: {exc})"
        raise ValueError(msg) from None
    check_consumed(data, pos, "views")
    return out
