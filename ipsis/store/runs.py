"""Verify citation records against the store: exact versions, found elsewhere, run records.

:func:`verify_run` resolves each ``source_id`` in the store first (only versions the user may
read), then through a fallback resolver (files, ``--sources`` maps). It never substitutes a
version: a record citing ``returns-v1`` is checked against v1, and a readable newer version is
mentioned as information. A ``not_found`` quote is looked up in the other readable sources
through the index, and every place is checked with :func:`~ipsis.verify.locate` before it is
reported in ``found_elsewhere``; the status never changes (the look-ups of a block of records are
made together: :func:`find_elsewhere_many`). Each run gets a record (the manifest) in the store,
and every result carries its ``run_id``.
"""

from __future__ import annotations

import json
import os
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ipsis import __version__
from ipsis.document import Document
from ipsis.limits import DEFAULT_LIMITS, Limits
from ipsis.report import summary
from ipsis.store.db import SourceVersion, Store, utc_now
from ipsis.store.docs import WORDS, fold, phrase_query, rare_terms_query
from ipsis.verify import Policy, batch, verify_records
from ipsis.verify.batch import absence_test
from ipsis.verify.locate import places
from ipsis.verify.match import quote_view
from ipsis.verify.prepare import prepare_quote
from ipsis.verify.records import BLOCK
from ipsis.verify.result import LOCATED, MAX_ELSEWHERE, NOT_FOUND, UNKNOWN_SOURCE, Result

MAX_CANDIDATES = 25
"""Most sources whose index entry matches that are checked with ``locate`` per quote."""
MAX_KEPT_VERSIONS = 20_000
"""Most stored versions (the records, not their texts) a run keeps between blocks once a
found-elsewhere look-up has read them (memory stays flat over any store)."""
MAX_CITED_IDS = 50
"""Citation ids kept per cited section in a run manifest's ``cited_sections`` (counts are exact)."""

ROLES = ("cited", "found_elsewhere")
"""What a source was used for in a run (a manifest lists its roles in this order)."""

Fallback = Callable[[str], "Document | None"]


@dataclass(slots=True)
class Run:
    """The results of one verification run and its manifest."""

    id: str
    results: list[Result]
    manifest: dict[str, Any] = field(default_factory=dict)
    documents: Mapping[str, Document] = field(default_factory=dict)
    """The documents the records cited, by source id (for the report and the judge)."""


def add_cited(cited: dict[str, dict[str, dict[str, Any]]], r: Result) -> None:
    """Count a located result under its source and innermost section (``cited_sections`` of the
    manifest: what ``ipsis store affected`` compares with a new version)."""
    if r.status != LOCATED or not r.matches or not r.source_id:
        return
    section = r.matches[0].section
    if not section or not section.get("id"):
        return
    entry = cited.setdefault(r.source_id, {}).setdefault(section["id"], {"count": 0, "citations": []})
    entry["count"] += 1
    if len(entry["citations"]) < MAX_CITED_IDS:
        entry["citations"].append(r.citation_id)


def new_run_id() -> str:
    return f"run-{utc_now().replace('-', '').replace(':', '')}-{uuid.uuid4().hex[:8]}"


def find_elsewhere(
    store: Store, quote: str, exclude_id: str | None, user: str | None, policy: Policy
) -> list[tuple[SourceVersion, dict[str, Any]]]:
    """Places of ``quote`` in the readable sources other than ``exclude_id``, each checked by locate."""
    prepared, _ = prepare_quote(quote)
    text = quote_view(prepared, policy.max_tier, policy.disabled_steps).text
    df = store.document_frequency(fold(t) for t in WORDS.findall(text))
    return _places(store, quote, _candidates(store, text, df, exclude_id, user), absence_test(quote, policy), policy)


def find_elsewhere_many(
    store: Store,
    wanted: Sequence[tuple[str, str | None]],
    user: str | None,
    policy: Policy,
    known: dict[int, SourceVersion] | None = None,
) -> list[list[tuple[SourceVersion, dict[str, Any]]]]:
    """:func:`find_elsewhere` of each ``(quote, exclude_id)`` (a block of not-found records):
    the document frequencies of all their words are read in one query and each distinct index
    search is made once; same places as one look-up per quote (which the per-quote reference
    path, :func:`ipsis.verify.batch.reference_path`, still makes). ``known``: the versions
    read by earlier blocks, by key (see :meth:`Store.search_many`)."""
    if batch.reference.on:
        return [find_elsewhere(store, q, exclude, user, policy) for q, exclude in wanted]
    tier, dis = policy.max_tier, policy.disabled_steps
    texts = {q: quote_view(prepare_quote(q)[0], tier, dis).text for q, _ in wanted}
    df = store.document_frequency({fold(t) for text in texts.values() for t in WORDS.findall(text)})
    asked = dict.fromkeys((texts[q], exclude) for q, exclude in wanted)  # each distinct search once
    queries = {key: rare_terms_query(key[0], df) for key in asked}
    cands = _searched(store, queries, user, known)
    # rare words not rare enough: the whole phrase narrows it
    phrases = {key: phrase_query(key[0]) for key, c in cands.items() if len(c) == MAX_CANDIDATES}
    cands.update(_searched(store, phrases, user, known))
    return [_places(store, q, cands[(texts[q], exclude)], absence_test(q, policy), policy) for q, exclude in wanted]


def _searched(
    store: Store,
    queries: dict[tuple[str, str | None], str | None],
    user: str | None,
    known: dict[int, SourceVersion] | None,
) -> dict[tuple[str, str | None], list[SourceVersion]]:
    """The candidates of each ``(text, exclude_id)`` for its index query (none without one)."""
    distinct = list(dict.fromkeys((query, key[1]) for key, query in queries.items() if query is not None))
    found = dict(zip(distinct, store.search_many(distinct, user, MAX_CANDIDATES, known), strict=True))
    return {key: found[(query, key[1])] if query is not None else [] for key, query in queries.items()}


def _candidates(
    store: Store, text: str, df: dict[str, int], exclude_id: str | None, user: str | None
) -> list[SourceVersion]:
    """The sources whose index holds the rarest words of the normalized quote ``text`` (or, when
    those are not rare enough, its whole phrase), at most :data:`MAX_CANDIDATES`; the look-up
    of a block (:func:`find_elsewhere_many`) makes the same two searches for all its quotes at once."""
    query = rare_terms_query(text, df)
    if query is None:
        return []
    candidates = store.search(query, exclude_id, user, MAX_CANDIDATES)
    if len(candidates) == MAX_CANDIDATES:  # rare words not rare enough: the whole phrase narrows it
        phrase = phrase_query(text)
        candidates = store.search(phrase, exclude_id, user, MAX_CANDIDATES) if phrase else []
    return candidates


def _places(
    store: Store, quote: str, candidates: list[SourceVersion], absent: Callable[[Document], bool], policy: Policy
) -> list[tuple[SourceVersion, dict[str, Any]]]:
    out: list[tuple[SourceVersion, dict[str, Any]]] = []
    for sv in candidates:
        doc = store.document_of(sv)
        if absent(doc):
            continue  # locate could only say not_found, after a diagnosis nobody reads
        for span, section in places(doc, quote, policy):  # where locate would put its matches
            out.append((sv, {"source_id": sv.id, "start": span.start, "end": span.end, "section": section}))
            if len(out) >= MAX_ELSEWHERE:
                return out
    return out


def _used_entry(sv: SourceVersion, role: str) -> dict[str, Any]:
    return {
        "id": sv.id,
        "name": sv.name,
        "version": sv.version,
        "sha256": sv.sha256,
        "retrieved_at": sv.retrieved_at,
        "origin": sv.origin,
        "roles": [role],
    }


class CitedDocuments(MutableMapping[str, Document]):
    """The documents a run's records cited, by source id: a stored one is asked of the store on
    each look-up (its bounded cache keeps the recent ones: a run over many sources keeps flat
    memory); any other (a file given by the user) is kept."""

    def __init__(self, store: Store | None, stored: dict[str, SourceVersion]) -> None:
        self._store = store
        self._stored = stored
        self._kept: dict[str, Document] = {}

    def __setitem__(self, sid: str, doc: Document) -> None:
        if sid not in self._stored:
            self._kept[sid] = doc

    def __delitem__(self, sid: str) -> None:
        del self._kept[sid]  # a stored one stays cited

    def __getitem__(self, sid: str) -> Document:
        sv = self._stored.get(sid)
        if sv is not None and self._store is not None:
            return self._store.document_of(sv)
        return self._kept[sid]

    def __contains__(self, sid: object) -> bool:  # without reading the document
        return sid in self._stored or sid in self._kept

    def __iter__(self) -> Iterator[str]:
        yield from self._stored
        yield from (sid for sid in self._kept if sid not in self._stored)

    def __len__(self) -> int:
        return len(self._stored.keys() | self._kept.keys())


class Verifier:
    """Verifies records for one run: resolves sources (store first, then ``fallback``), annotates
    results (found elsewhere, newer versions), and keeps the sources used for the manifest.
    :func:`verify_run` uses one; a batch engine uses one per worker partition and merges ``used``."""

    def __init__(
        self,
        store: Store | None,
        run_id: str,
        *,
        user: str | None = None,
        policy: Policy | None = None,
        fallback: Fallback | None = None,
        versions: dict[int, SourceVersion] | None = None,
    ) -> None:
        self.store = store
        self.run_id = run_id
        self.user = user
        self.policy = policy or Policy()
        self.fallback = fallback
        self.used: dict[str, dict[str, Any]] = {}
        self.stored: dict[str, SourceVersion] = {}
        self.documents = CitedDocuments(store, self.stored)
        self._memo: dict[tuple[str, Any], Any] = {}
        # candidates of the found-elsewhere look-ups, by key (``versions``: kept by the caller
        # for several Verifiers of one run, as a batch worker does for its partitions)
        self._versions: dict[int, SourceVersion] = {} if versions is None else versions

    def _cached(self, key: tuple[str, Any], compute: Callable[[], Any]) -> Any:
        """Store look-ups made once per run (a source cited by 1,000 records is one query)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def use(self, sv: SourceVersion, role: str) -> None:
        entry = self.used.setdefault(sv.id, _used_entry(sv, role))
        if role not in entry["roles"]:
            entry["roles"] = sorted({*entry["roles"], role}, key=ROLES.index)

    def resolve(self, sid: str) -> Document | None:
        doc = self._resolve(sid)
        if doc is not None:
            self.documents[sid] = doc
        return doc

    def stored_document(self, sid: str) -> Document | None:
        """The stored version ``sid`` the user may read (recorded as cited), else None; never
        the fallback (which may itself ask here first)."""
        if self.store is None:
            return None
        store = self.store
        sv = self._cached(("get", sid), lambda: store.get(sid, self.user))
        if sv is None:
            return None
        self.stored[sid] = sv
        self.use(sv, "cited")
        return self.store.document_of(sv)

    def _resolve(self, sid: str) -> Document | None:
        doc = self.stored_document(sid)
        if doc is not None:
            return doc
        doc = self.fallback(sid) if self.fallback is not None else None
        if doc is not None and sid not in self.used:
            self.used[sid] = {
                "id": sid,
                "path": doc.meta.get("path"),
                "sha256": doc.meta.get("sha256"),
                "retrieved_at": None,
                "roles": ["cited"],
            }
        return doc

    def verify(self, records: Iterable[Any], indexes: Iterable[int] | None = None) -> list[Result]:
        """Results of ``records`` (numbered by ``indexes``, 1-based, default 1, 2, ...)."""
        return list(self.iter_verify(records, indexes))

    def iter_verify(
        self, records: Iterable[Any], indexes: Iterable[int] | None = None, limits: Limits = DEFAULT_LIMITS
    ) -> Iterator[Result]:
        """The results one at a time, as the records come. The found-elsewhere look-ups of a
        block's not-found quotes are made together: from a block's first not-found result on,
        its results wait for the end of the block (those before it come out at once)."""
        results = iter(verify_records(records, self.resolve, self.policy, limits, indexes=indexes))
        waiting: list[Result] = []
        n = 0
        while True:
            try:
                r = next(results)
            except StopIteration:
                break
            except Exception:  # a malformed line: the results before it first
                yield from self._done(waiting)
                raise
            n += 1
            if waiting or (self.store is not None and _looks_elsewhere(r)):
                waiting.append(r)
            else:
                yield from self._done([r])
            if n % BLOCK == 0 and waiting:  # the end of verify_records' block
                yield from self._done(waiting)
                waiting = []
        yield from self._done(waiting)

    def _done(self, block: list[Result]) -> Iterator[Result]:
        if self.store is not None:
            self._annotate_block(self.store, block)
        for r in block:
            r.extra["run_id"] = self.run_id
            yield r

    def _annotate_block(self, store: Store, block: list[Result]) -> None:
        wanted = [(r.quote, r.source_id) for r in block if _looks_elsewhere(r)]
        if len(self._versions) > MAX_KEPT_VERSIONS:
            self._versions.clear()
        places = iter(find_elsewhere_many(store, wanted, self.user, self.policy, self._versions) if wanted else ())
        for r in block:
            found = next(places) if _looks_elsewhere(r) else []
            _annotate(store, r, found, self.stored.get(r.source_id or ""), self.user, self.use, self._cached)


def _looks_elsewhere(r: Result) -> bool:
    """A result whose quote is looked up in the other sources."""
    return r.status == NOT_FOUND and not r.found_elsewhere and isinstance(r.quote, str)


def merge_used(into: dict[str, dict[str, Any]], used: dict[str, dict[str, Any]]) -> None:
    """Add the sources of one partition to the run's (roles united)."""
    for sid, entry in used.items():
        have = into.setdefault(sid, {**entry, "roles": []})
        have["roles"] = sorted({*have["roles"], *entry["roles"]}, key=ROLES.index)


def make_manifest(
    run_id: str,
    started: str,
    store: Store | None,
    user: str | None,
    policy: Policy,
    records_name: str,
    summary_: dict[str, Any],
    used: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    return {
        "run_id": run_id,
        "ipsis_version": __version__,
        "started_at": started,
        "finished_at": utc_now(),
        "user": user,
        "store": store.location if store is not None else None,
        "records": records_name,
        "policy": policy.to_json(),
        "policy_fingerprint": policy.fingerprint(),
        "summary": summary_,
        "sources": sorted(used.values(), key=lambda e: e["id"]),
    }


def verify_run(
    records: Iterable[Any],
    store: Store | None,
    *,
    user: str | None = None,
    policy: Policy | None = None,
    fallback: Fallback | None = None,
    records_name: str = "input",
    limits: Limits = DEFAULT_LIMITS,
) -> Run:
    """Verify ``records``; record the run in ``store`` (when given) and return it."""
    stream = RunStream(records, store, user=user, policy=policy, fallback=fallback, records_name=records_name,
                       limits=limits)  # fmt: skip
    results = list(stream)
    manifest = stream.finish()
    return Run(stream.id, results, manifest, stream.documents)


class RunStream:
    """A verification run whose results come one at a time (iterate it), so that millions of
    records take flat memory; :meth:`finish` writes the manifest (and records it in the store).
    It is one :class:`Verifier` plus the run's bookkeeping."""

    def __init__(
        self,
        records: Iterable[Any],
        store: Store | None,
        *,
        user: str | None = None,
        policy: Policy | None = None,
        fallback: Fallback | None = None,
        records_name: str = "input",
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        self.records = records
        self.store = store
        self.user = user
        self.policy = policy or Policy()
        self.records_name = records_name
        self.limits = limits
        self.id = new_run_id()
        self.started = utc_now()
        self.verifier = Verifier(store, self.id, user=user, policy=self.policy, fallback=fallback)
        self.counts: Counter[str] = Counter()
        self.cited: dict[str, dict[str, dict[str, Any]]] = {}

    @property
    def documents(self) -> CitedDocuments:
        return self.verifier.documents

    def __iter__(self) -> Iterator[Result]:
        for r in self.verifier.iter_verify(self.records, limits=self.limits):
            self.counts[r.status] += 1
            if self.store is not None and r.source_id in self.verifier.stored:
                add_cited(self.cited, r)
            yield r

    def finish(self) -> dict[str, Any]:
        manifest = make_manifest(
            self.id, self.started, self.store, self.user, self.policy, self.records_name,
            summary(self.counts), self.verifier.used,
        )  # fmt: skip
        if self.cited:
            manifest["cited_sections"] = self.cited
        if self.store is not None:
            self.store.record_run(manifest)
        return manifest


def _annotate(
    store: Store,
    r: Result,
    places: list[tuple[SourceVersion, dict[str, Any]]],
    sv: SourceVersion | None,
    user: str | None,
    use: Callable[[SourceVersion, str], None],
    cached: Callable[[tuple[str, Any], Callable[[], Any]], Any] = lambda _key, compute: compute(),
) -> None:
    """Add to ``r`` the ``places`` where its quote is found elsewhere, the versions to cite for
    an unknown source and a newer version of the cited one."""
    for found_in, entry in places:
        use(found_in, "found_elsewhere")
        r.found_elsewhere.append(entry)
    if places:
        names = sorted({sv.id for sv, _ in places})
        r.message += f"; found elsewhere, in {', '.join(names)}"
    if r.status == UNKNOWN_SOURCE and r.source_id:
        sid = r.source_id
        family = cached(("family", sid), lambda: store.family(sid, user))
        if family:
            r.message += "; cite a version: " + ", ".join(v.id for v in family)
    if sv is not None:
        newer = cached(("newer", sv.pk), lambda: store.newer_versions(sv, user))
        if newer:
            latest = newer[-1].id
            r.warnings.append(
                {"kind": "newer_version", "source_id": latest, "message": f"a newer version {latest} exists"}
            )


def write_manifest(path: str | Path, manifest: dict[str, Any]) -> None:
    """Write the run manifest as JSON, atomically (temporary file, then rename)."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        tmp.write_text(json.dumps(manifest, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
