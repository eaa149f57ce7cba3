"""Turn SOURCE arguments, ``--source ID=PATH`` and ``--sources MAP.json`` into documents."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ipsis.cli.limits import watchdog
from ipsis.document import Document
from ipsis.errors import InputError, IpsisError
from ipsis.ingest import load_document, text_source
from ipsis.ingest.detect import ENGINES
from ipsis.ingest.tesseract import MODES as OCR_MODES
from ipsis.ingest.tesseract import OcrOptions
from ipsis.limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    from ipsis.store import Store

Resolve = Callable[[str], "Document | None"]

DEFAULT_STORE_DIR = ".ipsis"
"""The default store folder, :data:`ipsis.store.DEFAULT_DIR` (kept here so that a command run
without a store does not import the store; a test checks the two agree)."""


class SourceMap:
    """Ids mapped to files or inline texts, loaded once on first use (within ``limits``)."""

    def __init__(
        self, limits: Limits = DEFAULT_LIMITS, encoding: str | None = None, ocr: OcrOptions | None = None
    ) -> None:
        self._encoding = encoding
        self._ocr = ocr or OcrOptions()
        self._paths: dict[str, Path] = {}
        self._docs: dict[str, Document] = {}
        self._errors: dict[str, IpsisError] = {}
        self.limits = limits

    def add_path(self, source_id: str, path: str | Path) -> None:
        self._paths[source_id] = Path(path)

    def add_text(self, source_id: str, text: str) -> None:
        self._docs[source_id] = text_source(text, source_id)

    def add_pairs(self, pairs: tuple[str, ...]) -> None:
        for pair in pairs:
            sid, sep, path = pair.partition("=")
            if not sep or not sid or not path:
                msg = f"--source {pair!r}: expected ID=PATH, e.g. --source returns-v1=returns.txt"
                raise InputError(msg)
            self.add_path(sid, path)

    def add_map_file(self, path: str | Path) -> None:
        p = Path(path)
        try:
            data: Any = json.loads(p.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            msg = f"{p}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
            raise InputError(msg) from exc
        if not isinstance(data, dict):
            msg = f'{p}: expected an object mapping source ids to a path or {{"text": ...}}'
            raise InputError(msg)
        for sid, value in data.items():
            if isinstance(value, str):
                self.add_path(sid, (p.parent / value) if not Path(value).is_absolute() else value)
            elif isinstance(value, dict) and isinstance(value.get("text"), str):
                self.add_text(sid, value["text"])
            elif isinstance(value, dict) and isinstance(value.get("path"), str):
                self.add_path(sid, p.parent / value["path"])
            else:
                msg = f'{p}: source {sid!r} must be a path or {{"text": "..."}}'
                raise InputError(msg)

    def __contains__(self, source_id: str) -> bool:
        return source_id in self._docs or source_id in self._paths

    def get(self, source_id: str) -> Document | None:
        doc = self._docs.get(source_id)
        if doc is None and source_id in self._errors:
            raise self._errors[source_id]
        if doc is None and source_id in self._paths:
            path = self._paths[source_id]
            try:
                with watchdog(self.limits.timeout, str(path)):
                    doc = load_document(path, source_id, limits=self.limits, encoding=self._encoding, ocr=self._ocr)
            except IpsisError as exc:  # read once: every record citing it gets the same error
                self._errors[source_id] = exc
                raise
            self._docs[source_id] = doc
        if doc is not None and doc.sections is None:
            _segment(doc)
        return doc


def _segment(doc: Document) -> None:
    from ipsis.sections import segment

    segment(doc)


def reader_options(f: Any) -> Any:
    """How a SOURCE file is read: PDF engine, password, position check, text encoding, OCR.

    ``--ocr``/``--ocr-lang`` arrive as ``ocr_mode``/``ocr_lang``; :func:`ocr_reader` folds them
    into the ``ocr`` reader option."""
    f = click.option(
        "--ocr-lang",
        default=None,
        metavar="LANGS",
        help="Tesseract languages for OCR, '+'-joined (por, spa, eng, por+spa); default: every"
        " installed one of por, spa, eng.",
    )(f)
    f = click.option(
        "--ocr",
        "ocr_mode",
        type=click.Choice(OCR_MODES),
        default="auto",
        show_default=True,
        help="OCR of PDF pages with Tesseract (Debian tesseract-ocr): auto = only pages without a"
        " usable text layer, always = every page, never = none.",
    )(f)
    f = click.option(
        "--encoding",
        default=None,
        metavar="CODEC",
        help="Decode a text, RFC, HTML or XML source with this encoding (utf-8, cp1252, latin-1...)"
        " instead of detecting it; PDFs ignore it.",
    )(f)
    f = click.option(
        "--position-furniture",
        is_flag=True,
        help="Keep only the page headers/footers found by repetition that pdfplumber's character"
        " positions put at the top or bottom of the page (slow: about 5 pages/s).",
    )(f)
    f = click.option("--password", default=None, help="Password of an encrypted PDF.")(f)
    f = click.option(
        "--engine",
        type=click.Choice(ENGINES),
        default="pdfium",
        show_default=True,
        help="PDF engine: pdfium (fast), pypdf (pure Python), pdfplumber (layout by character"
        " positions: columns, headers and footers; slow).",
    )(f)
    return f


def ocr_reader(options: dict[str, Any]) -> dict[str, Any]:
    """Reader options with ``ocr_mode``/``ocr_lang`` (from ``--ocr``/``--ocr-lang``) turned into
    the ``ocr`` option of :func:`~ipsis.ingest.load_document` (changes ``options`` in place)."""
    mode = options.pop("ocr_mode", "auto")
    lang = options.pop("ocr_lang", None)
    options["ocr"] = OcrOptions(mode=mode, lang=lang)
    return options


def store_options(f: Any) -> Any:
    """``--store DIR`` (or ``IPSIS_STORE``) and ``--user NAME`` (or ``IPSIS_USER``)."""
    f = click.option(
        "--user",
        envvar="IPSIS_USER",
        default=None,
        metavar="NAME",
        help="Only the stored sources NAME may read; the others behave as unknown (env IPSIS_USER).",
    )(f)
    f = click.option(
        "--store",
        "store_dir",
        envvar="IPSIS_STORE",
        default=None,
        metavar="DIR|URL",
        help="Store folder or postgresql:// URL (env IPSIS_STORE; default .ipsis/ here when it exists).",
    )(f)
    return f


def check_user(user: str | None) -> str | None:
    if user is not None and not user.strip():
        msg = "--user (or IPSIS_USER) is empty; give a user name or unset it"
        raise InputError(msg)
    return user


@contextmanager
def read_store(store_dir: str | None, user: str | None = None) -> Iterator[Store | None]:
    """The store to read from (None when there is none and none was asked for), closed after."""
    check_user(user)
    if store_dir is None and not (Path(DEFAULT_STORE_DIR) / "ipsis.db").exists():
        yield None  # no store here: the store package (SQLite, runs, reports) is not even imported
        return
    from ipsis.store import open_store

    store = open_store(store_dir)
    try:
        yield store
    finally:
        if store is not None:
            store.close()


def open_stored(store: Store, source_id: str, user: str | None) -> Document | None:
    """A stored source the user may read (segmented), or None (hidden and missing alike)."""
    doc = store.document(source_id, user)
    if doc is not None and doc.sections is None:
        _segment(doc)
    return doc


def open_source(source: str, store: Store | None = None, user: str | None = None, **options: Any) -> Document:
    """A SOURCE argument: a store id the user may read, else a file path; segmented. ``options``
    go to :func:`~ipsis.ingest.load_document` (``fmt``, ``engine``, ``password``, ``progress``,
    ``encoding``, ``position_furniture``, ``limits``); the watchdog stops a read that runs past
    the time limit."""
    return _open(source, store, user, True, options)


def read_source(source: str, store: Store | None = None, user: str | None = None, **options: Any) -> Document:
    """:func:`open_source` without segmenting a file (for a command that needs no sections)."""
    return _open(source, store, user, False, options)


def _open(source: str, store: Store | None, user: str | None, segmented: bool, options: dict[str, Any]) -> Document:
    if store is not None:
        doc = open_stored(store, source, user)
        if doc is not None:
            return doc
    limits = options.get("limits", DEFAULT_LIMITS)
    with watchdog(limits.timeout, source):
        doc = load_document(source, **options)
        if segmented:
            _segment(doc)
    return doc
    limits = options.get("limits", DEFAULT_LIMITS)
    with watchdog(limits.timeout, source):
        doc = load_document(source, **options)
        if segmented:
            _segment(doc)
    return doc


class Dated:
    """A resolver that also reads ``ID@YYYY-MM-DD`` as the dated wording of a multi-version
    source (BOE consolidated XML) when no source has that exact id: ``document_at(ID, date)``."""

    def __init__(self, base: Resolve, store: Store | None = None, user: str | None = None) -> None:
        self.base, self.store, self.user = base, store, user
        self.bases: dict[str, str] = {}
        """Dated id -> the id of the document it was built from."""

    def __call__(self, sid: str) -> Document | None:
        doc = self.base(sid)
        if doc is not None or "@" not in sid:
            return doc
        base_id, _, date = sid.rpartition("@")
        whole = self.store.document(base_id, self.user) if self.store is not None else None
        whole = whole or self.base(base_id)
        if whole is None or not whole.meta.get("versions") or not date[:4].isdigit():
            return None
        from ipsis.sections import segment  # a dated wording is segmented when asked for
        from ipsis.sections.versions import document_at

        doc = document_at(whole, date)
        segment(doc)
        self.bases[sid] = base_id
        return doc
