"""The sources an answer was written from, numbered from 1 in the order they were sent.

Readers accept what people actually have at hand: a JSON array of strings or of objects
(``text`` plus optional ``id``, ``title``, ``url``, ``file_id``, ``filename``), a JSON object
with a ``sources`` array, text split by ``---`` lines or blank lines, XML-tagged prompt
documents (``<document index="1" source="...">``) or a directory of files.

Resolving a reference is exact: provider 0-based indices map to ``number = index + 1`` and an
id, URL or title must match a source field. Nothing is ever "corrected" to a near id.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ipsis.answers.jsonio import Fields, loads_strict
from ipsis.answers.model import Ref
from ipsis.answers.tags import paired
from ipsis.document import Document
from ipsis.errors import InputError
from ipsis.ingest import text_source
from ipsis.limits import DEFAULT_LIMITS, Limits


@dataclass(frozen=True, slots=True)
class Source:
    """One source as sent to the model; ``number`` is 1-based."""

    number: int
    document: Document
    title: str | None = None
    url: str | None = None
    file_id: str | None = None
    filename: str | None = None
    blocks: tuple[str, ...] = ()
    named: bool = True
    """False when the source was sent without an id (``id`` above is then ``source-N``): a
    provider may name it by position (Cohere's ``doc:0``, ``doc:1`` …)."""

    @property
    def id(self) -> str:
        return self.document.id

    @property
    def text(self) -> str:
        return self.document.text


# "Source 3", "Fonte 3", "Fuente 3", "Documento 3", "Doc. 3", "[3]", "3"
LABEL_NUMBER = re.compile(  # matched on the stripped label; no two runs of spaces side by side
    r"\[\s{0,3}(\d{1,6})\s{0,3}\]|(?:(?:sources?|fontes?|fuentes?|documents?|documentos?|docs?\.?|ref\.?)\s{0,3})?"
    r"(?:#\s{0,3})?(\d{1,6})",
    re.IGNORECASE,
)


TRACKING = frozenset(
    {
        "gclid", "dclid", "gbraid", "wbraid", "fbclid", "msclkid", "yclid", "twclid", "igshid",
        "mc_cid", "mc_eid", "_hsenc", "_hsmi", "mkt_tok", "srsltid", "oly_anon_id", "oly_enc_id",
    }
)  # fmt: skip
"""Query parameters that only say where a click came from (plus every ``utm_*``): OpenAI adds
``?utm_source=openai`` to the URLs it cites."""


COHERE_DOC = re.compile(r"doc:(\d{1,9})")


def norm_url(url: str) -> str:
    """A URL as compared with the sources' URLs: no ``#fragment``, no trailing slash, scheme and
    host in lower case, and no tracking parameters (``utm_*``, ``gclid``, ``fbclid`` …).

    >>> norm_url("https://Www.Reuters.com/world/?utm_source=openai#top")
    'https://www.reuters.com/world'
    >>> norm_url("https://x.example/a?id=7&utm_medium=x&fbclid=1")
    'https://x.example/a?id=7'
    """
    head, _, query = url.strip().split("#", 1)[0].partition("?")
    scheme, sep, rest = head.partition("://")
    if sep:
        host, slash, path = rest.partition("/")
        head = f"{scheme.lower()}://{host.lower()}{slash}{path}"
    kept = [p for p in query.split("&") if p and not _tracking(p.split("=", 1)[0])]
    return head.rstrip("/") + ("?" + "&".join(kept) if kept else "")


def _tracking(key: str) -> bool:
    key = key.lower()
    return key.startswith("utm_") or key in TRACKING


class Sources(Sequence[Source]):
    """The numbered sources plus exact lookups by id, URL, file id, file name and title."""

    def __init__(self, sources: Sequence[Source]) -> None:
        self._items = list(sources)
        self._by_number = {s.number: s for s in self._items}
        self._by: dict[str, dict[str, int]] = {"id": {}, "url": {}, "file_id": {}, "title": {}}
        for s in self._items:
            self._by["id"].setdefault(s.id, s.number)
            if s.url:
                self._by["url"].setdefault(norm_url(s.url), s.number)
            if s.file_id:
                self._by["file_id"].setdefault(s.file_id, s.number)
            if s.filename:
                self._by["file_id"].setdefault(s.filename, s.number)
            if s.title:
                self._by["title"].setdefault(s.title.strip().casefold(), s.number)

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, i: int) -> Source:  # type: ignore[override]
        return self._items[i]

    def __iter__(self) -> Iterator[Source]:
        return iter(self._items)

    def number(self, n: int) -> Source | None:
        return self._by_number.get(n)

    def resolve(self, ref: Ref) -> int | None:
        """The 1-based number ``ref`` points at, or None when no source matches exactly.

        >>> srcs = Sources([Source(1, Document("travel-2024", "Meals up to €50."), title="Travel")])
        >>> [srcs.resolve(Ref("index0", 0, "")), srcs.resolve(Ref("number", 2, "[2]"))]
        [1, None]
        >>> [srcs.resolve(Ref("label", "Source 1", "")), srcs.resolve(Ref("id", "travel-2023", ""))]
        [1, None]
        """
        v = ref.value
        if ref.kind == "number":
            return v if isinstance(v, int) and v in self._by_number else None
        if ref.kind == "index0":
            if ref.url and self._by["url"]:
                # a chunk that names its URI is that URI's source, or none: never by position
                return self._by["url"].get(norm_url(ref.url))
            return v + 1 if isinstance(v, int) and v + 1 in self._by_number and v >= 0 else None
        if ref.kind == "artifact":
            return None
        if ref.kind == "chunk":
            if ref.url and self._by["url"]:
                return self._by["url"].get(norm_url(ref.url))
            if ref.title:
                t = ref.title.strip()
                return self._by["title"].get(t.casefold()) or self._by["file_id"].get(t) or self._by["id"].get(t)
            return None  # the checker looks for its text in the sources
        s = str(v)
        if ref.kind == "id":
            hit = self._by["id"].get(s)
            m = COHERE_DOC.fullmatch(s) if hit is None else None
            if m is not None:  # Cohere names documents sent without an id doc:0, doc:1, … in order
                src = self._by_number.get(int(m.group(1)) + 1)
                return src.number if src is not None and not src.named else None
            return hit
        if ref.kind == "url":
            return self._by["url"].get(norm_url(s))
        if ref.kind == "file_id":
            return self._by["file_id"].get(s)
        if ref.kind == "title":
            return self._by["title"].get(s.strip().casefold())
        m = LABEL_NUMBER.fullmatch(s.strip())
        if m:
            n = int(m.group(1) or m.group(2))
            return n if n in self._by_number else None
        for key in ("id", "file_id", "url"):
            hit = self._by[key].get(norm_url(s) if key == "url" else s.strip())
            if hit is not None:
                return hit
        return self._by["title"].get(s.strip().casefold())


# --- readers -------------------------------------------------------------------------------

SEPARATOR = re.compile(r"^[ \t]*-{3,}[ \t]*$", re.MULTILINE)
BLANK = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)*")
ATTR = re.compile(r"""(?<![\w:-])([\w:-]{1,100})\s{0,10}=\s{0,10}(?:"([^"]*)"|'([^']*)')""")


def _source_from_object(item: Fields, position: int) -> Source:
    text = item.opt_str("text")
    if text is None:
        text = item.opt_str("content") or item.opt_str("data")
    if text is None:
        msg = f'{item.name}: {item.path} has no text; give each source a "text" string'
        raise InputError(msg)
    number = position
    if item.has("index"):
        number = item.integer("index")
        if number < 1:
            msg = f"{item.name}: {item.path}.index is {number}; source numbers start at 1"
            raise InputError(msg)
    given = item.opt_str("id") or item.opt_str("source")
    doc_id = given or f"source-{number}"
    blocks = tuple(b if isinstance(b, str) else "" for b in item.array("blocks"))
    return Source(
        number,
        text_source(text, doc_id),
        title=item.opt_str("title"),
        url=item.opt_str("url"),
        file_id=item.opt_str("file_id"),
        filename=item.opt_str("filename"),
        blocks=blocks,
        named=given is not None,
    )


def sources_from_json(data: object, name: str = "sources") -> Sources:
    """Sources from parsed JSON: an array of strings/objects, or ``{"sources": [...]}``."""
    if isinstance(data, dict):
        top = Fields(data, "", name)
        key = "sources" if top.has("sources") else "documents"
        data = top.array(key, required=True)
    if not isinstance(data, list):
        msg = f'{name}: sources JSON must be an array of strings or objects, or {{"sources": [...]}}'
        raise InputError(msg)
    out: list[Source] = []
    for i, item in enumerate(data, start=1):
        if isinstance(item, str):
            out.append(Source(i, text_source(item, f"source-{i}"), named=False))
        else:
            out.append(_source_from_object(Fields(item, f"[{i - 1}]", name), i))
    return _checked(out, name)


def _checked(out: list[Source], name: str) -> Sources:
    if not out:
        msg = f"{name}: no sources found; pass at least one source text"
        raise InputError(msg)
    seen: set[int] = set()
    for s in out:
        if s.number in seen:
            msg = f"{name}: source number {s.number} appears twice; number sources 1, 2, 3, ..."
            raise InputError(msg)
        seen.add(s.number)
    return Sources(out)


def _child(body: str, name: str) -> str | None:
    tag = next(paired(body, name), None)
    return body[tag.inner_start : tag.inner_end] if tag is not None else None


def sources_from_xml(text: str, name: str = "sources") -> Sources:
    """Sources from prompt text tagged ``<document index="1" source="..."><document_content>``."""
    out: list[Source] = []
    for i, tag in enumerate(paired(text, "document"), start=1):
        attrs = {a.group(1).lower(): html.unescape(a.group(2) or a.group(3) or "") for a in ATTR.finditer(tag.attrs)}
        body = text[tag.inner_start : tag.inner_end]
        content = _child(body, "document_content")
        source_child = _child(body, "source")
        doc_text = content if content is not None else body.strip()
        number = i
        if attrs.get("index", "").isdigit():
            number = int(attrs["index"])
        label = attrs.get("source") or (source_child.strip() if source_child is not None else "")
        doc_id = attrs.get("id") or label or f"source-{number}"
        url = attrs.get("url") or (label if label.startswith(("http://", "https://")) else None)
        out.append(
            Source(
                number,
                text_source(doc_text, doc_id),
                title=attrs.get("title"),
                url=url,
                filename=label or None,
                named=bool(attrs.get("id") or label),
            )
        )
    return _checked(out, name)


def sources_from_text(text: str, name: str = "sources") -> Sources:
    """Sources from text: JSON, XML-tagged documents, ``---`` separated or blank-line separated.

    >>> [s.text for s in sources_from_text("Art. 1 A.\\n---\\nArt. 2 B.\\n")]
    ['Art. 1 A.', 'Art. 2 B.']
    """
    stripped = text.lstrip("\ufeff").strip()
    if stripped[:1] in "[{":
        return sources_from_json(loads_strict(stripped, name), name)
    if next(paired(stripped, "document"), None) is not None:
        return sources_from_xml(stripped, name)
    sep = SEPARATOR if SEPARATOR.search(stripped) else BLANK
    chunks = [c.strip() for c in sep.split(stripped)]
    texts = enumerate((c for c in chunks if c), start=1)
    return _checked([Source(i, text_source(c, f"source-{i}"), named=False) for i, c in texts], name)


def load_sources(path: str | Path, limits: Limits = DEFAULT_LIMITS) -> Sources:
    """Read sources from a file (any form above), a directory (one source per file, by name) or
    one document file (a PDF, HTML page, RFC text or XML document that is not a list of prompt
    documents: one source), within ``limits`` (the size of each file, and the pages and time of
    each document read)."""
    from ipsis.ingest import load_document
    from ipsis.ingest.detect import detect_format
    from ipsis.ingest.folder import source_files
    from ipsis.ingest.text import decode_text

    p = Path(path)
    if not p.exists():
        msg = f"{p}: no such file or directory; pass the sources sent to the model"
        raise InputError(msg)
    if p.is_dir():
        files, _ = source_files(p)  # the rule ``ipsis ingest DIR`` follows (the CLI says what it skipped)
        out = []
        for i, f in enumerate(files, start=1):
            doc = load_document(f, doc_id=f.stem, limits=limits)
            out.append(Source(i, doc, title=f.stem, filename=f.name))
        return _checked(out, str(p))
    limits.check_size(p.stat().st_size, str(p))
    data = p.read_bytes()
    fmt = detect_format(data, str(p))
    if fmt == "text" or (fmt == "xml" and _prompt_tagged(data, str(p))):
        text, _ = decode_text(data, str(p))
        return sources_from_text(text, str(p))
    # one document (PDF, HTML, RFC text, RFCXML, BOE XML): one source, read as `ipsis text` reads it
    return _checked([Source(1, load_document(p, doc_id=p.stem, limits=limits), title=p.stem, filename=p.name)], str(p))


def _prompt_tagged(data: bytes, name: str) -> bool:
    """XML that is a list of prompt documents (``<document index="1">…</document>``)."""
    from ipsis.ingest.text import decode_text

    text, _ = decode_text(data, name)
    return next(paired(text, "document"), None) is not None


def sources_from_ids(ids: Sequence[str], lookup: Callable[[str], Document | None], name: str = "--sources") -> Sources:
    """Sources named by store ids, numbered from 1 in the order given.

    ``lookup`` returns the document of an id the user may read, else None: a hidden id and a
    missing one get the same message.
    """
    out: list[Source] = []
    for i, sid in enumerate(ids, start=1):
        doc = lookup(sid)
        if doc is None:
            msg = f"{name}: unknown source id {sid!r}; list the ids with `ipsis sources`"
            raise InputError(msg)
        out.append(Source(i, doc, title=sid))
    return _checked(out, name)
