"""The field's formats (issue 26): Akoma Ntoso export, LexML/ELI identifiers, W3C Web Annotations.

- AKN: every norm under ../shared/corpora exports as an ``act`` valid against
  ../shared/schemas/akomantoso30.xsd; each article's ``num`` is its label and the text of its
  element, read in order, is the section's span.
- Identifiers: only what a document states (the LOPDGDD's front matter names its ELI) or what is
  declared at ingest (``--work``); a record's ``section`` may be such a URI.
- Annotations: 100+ results, each valid against the MUST assertions of the W3C test suite
  (``annotationMusts.test``), built here from the definitions in ../shared/schemas/web-annotation/
  the way the suite's assertion files combine them; the quote selector resolves to the span.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from ipsis.formats.akn import AKN_NS, to_akn
from ipsis.formats.annotations import annotation
from ipsis.formats.ids import section_for_uri, section_uri, work_of
from ipsis.ingest import load_document
from ipsis.sections import segment
from ipsis.verify import Policy, locate
from tests.shared import CORPORA, SHARED

jsonschema = pytest.importorskip("jsonschema")
referencing = pytest.importorskip("referencing")

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = SHARED / "schemas"
NORMS = sorted(
    p
    for sub in ("br", "es", "pt", "latam", "pdf")
    for p in (CORPORA / sub).glob("*")
    if p.suffix in (".pdf", ".html", ".htm", ".xml", ".txt", ".md") and "guia" not in p.name
)
ENV = {"PYTHONPATH": str(ROOT), "NO_COLOR": "1", "PATH": "/usr/bin:/bin"}
ARTICLES = {"artigo", "articulo", "article"}


@pytest.fixture(scope="module")
def akn_schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(SCHEMAS / "akomantoso30.xsd")))


def _norm(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("path", NORMS, ids=lambda p: p.name)
def test_akn_export_is_valid_and_true_to_the_sections(path: Path, akn_schema: etree.XMLSchema) -> None:
    doc = load_document(path)
    tree = segment(doc)
    root = etree.fromstring(to_akn(doc, tree).encode("utf-8"))
    assert akn_schema.validate(root), [str(e) for e in akn_schema.error_log][:3]
    ns = {"a": AKN_NS}
    elements = list(root.iterfind(".//a:body//a:article", ns))
    articles = sorted((sec for sec in tree if sec.kind in ARTICLES), key=lambda sec: (sec.start, -sec.end))
    assert len(elements) == len(articles)
    checked = 0
    for el, sec in zip(elements, articles, strict=True):  # both in document order
        assert el.get("eId", "").startswith(sec.to_json()["eId"])  # "_2" when the tree repeats an id
        num = el.find("a:num", ns)
        if sec.label:
            assert num is not None and _norm(num.text or "") == _norm(sec.label)
        assert _norm("".join(el.itertext())) == _norm(doc.text[sec.start : sec.end]), sec.id
        if sec.revoked:
            assert el.get("status") == "removed"
        checked += 1
    assert checked == sum(s.kind in ARTICLES for s in tree)


def test_work_identifiers_only_when_stated() -> None:
    lopd = load_document(CORPORA / "es/es-lopdgdd-lo-3-2018-legalize.md")
    assert work_of(lopd) == {"id": "https://www.boe.es/eli/es/lo/2018/12/05/3", "scheme": "eli", "from": "document"}
    for rel in ("br/lei-13709-2018-lgpd-planalto.html", "pt/crp-constituicao-republica-portuguesa.txt",
                "es/constitucion-espanola-boe-api-texto-excerpt.xml"):  # fmt: skip
        assert work_of(load_document(CORPORA / rel)) is None, rel  # none of them prints an ELI or a URN


def _cli(*args: object) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "ipsis", *map(str, args)]
    return subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=300, check=False)


URN = "urn:lex:br:federal:lei:2018-08-14;13709"


def test_declared_lexml_urn_names_sections_and_cites_them(tmp_path: Path) -> None:
    st = tmp_path / "st"
    r = _cli("ingest", CORPORA / "br/lei-13709-2018-lgpd-planalto.html", "--id", "lgpd", "--work", URN, "--store", st)
    assert r.returncode == 0, r.stderr
    quote = "para o cumprimento de obrigação legal ou regulatória pelo controlador"
    r = _cli("locate", "lgpd", quote, "--store", st, "--format", "json")
    section = json.loads(r.stdout)["matches"][0]["section"]
    assert section["id"] == "art-7/inc-II" and section["uri"] == f"{URN}!art7_cpt_inc2"
    records = tmp_path / "r.jsonl"
    rows = [
        {"citation_id": "ok", "source_id": "lgpd", "quote": quote, "section": f"{URN}!art7_cpt_inc2"},
        {"citation_id": "wrong", "source_id": "lgpd", "quote": quote, "section": f"{URN}!art7_cpt_inc3"},
    ]
    records.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in rows), encoding="utf-8")
    out = json.loads(_cli("verify", records, "--store", st, "--format", "json").stdout)["results"]
    assert [x["status"] for x in out] == ["located", "not_found"]
    assert out[1]["found_elsewhere"][0]["section"]["id"] == "art-7/inc-II"
    r = _cli("ingest", CORPORA / "pt/crp-constituicao-republica-portuguesa.txt", "--work", "lei 13709", "--store", st)
    assert r.returncode == 2 and "LexML URN" in r.stderr and "Traceback" not in r.stderr


def test_eli_fragment_round_trip() -> None:
    doc = load_document(CORPORA / "pt/crp-constituicao-republica-portuguesa.txt")
    tree = segment(doc)
    work = {"id": "https://data.dre.pt/eli/const/1976/04/10/p/dre", "scheme": "eli"}
    for sec in list(tree)[:200]:
        uri = section_uri(work, sec.id)
        assert uri is not None and section_for_uri(tree, uri) is sec


# -- W3C Web Annotations ---------------------------------------------------------------------
def _registry() -> Any:
    resources = []
    for f in sorted((SCHEMAS / "web-annotation").glob("*.json")):
        schema = json.loads(f.read_text(encoding="utf-8"))
        resource = referencing.Resource.from_contents(schema, default_specification=referencing.jsonschema.DRAFT4)
        resources.append((f.name, resource))
    return referencing.Registry().with_resources(resources)


def _each(key: str, ref: str) -> dict[str, Any]:
    """The definition ``ref`` holds for the value of ``key``, or for each item of it."""
    item = {"anyOf": [{"type": "string"}, {"$ref": ref}]}  # a resource named by its IRI has nothing to check
    return {"properties": {key: {"anyOf": [{"type": "array", "items": item}, item]}}}


def _selectors(ref: str) -> dict[str, Any]:
    item = {"anyOf": [{"type": "string"}, {"$ref": ref}]}
    sel = {"properties": {"selector": {"anyOf": [{"type": "array", "items": item}, item]}}}
    target = {"anyOf": [{"type": "string"}, sel]}
    return {"properties": {"target": {"anyOf": [{"type": "array", "items": target}, target]}}}


A = "annotations.json#/definitions/"
B = "bodyTarget.json#/definitions/"
P = "otherProperties.json#/definitions/"
S = "specificResource.json#/definitions/"
C = "choiceSet.json#/definitions/"
MUSTS: dict[str, dict[str, Any]] = {
    "3.1-annotationContextValidated": {"required": ["@context"], "properties": {"@context": {"oneOf": [
        {"$ref": A + "contextValueFound"}, {"$ref": A + "contextValueInArrayFound"}]}}},
    "3.1-annotationIdValidated": {"required": ["id"], "properties": {"id": {"$ref": "id.json#/definitions/stringUri"}}},
    "3.1-annotationTypeValidated": {"required": ["type"], "properties": {"type": {"oneOf": [
        {"$ref": A + "annotationTypeValueRecognized"}, {"$ref": A + "annotationTypeValueInArrayRecognized"}]}}},
    "3.1-targetKeyFound": {"required": ["target"]},
    "3.2-targetObjectsRecognized": {"properties": {"target": {"oneOf": [{"$ref": B + "targetResourcesFound"},
        {"type": "array", "items": {"$ref": B + "targetResourcesFound"}}]}}},
    "3.2.5-notBodyBodyValue": {"not": {"required": ["body", "bodyValue"]}},
    "3.2-bodyObjectsRecognized": {"properties": {"body": {"oneOf": [{"$ref": B + "bodyResourcesFound"},
        {"type": "array", "items": {"$ref": B + "bodyResourcesFound"}}]}}},
    "3.2.5-bodyValueValidated": {"$ref": A + "bodyValueValidIfPresent"},
    "3.3.1-annotationCreatedValidated": {"$ref": P + "createdValidIfPresent"},
    "3.3.1-annotationModifiedValidated": {"$ref": P + "modifiedValidIfPresent"},
    "3.3.1-annotationGeneratedValidated": {"$ref": P + "generatedValidIfPresent"},
    "3.3.6-annotationRightsValidated": {"$ref": P + "rightsValidIfPresent"},
    "3.3.7-annotationCanonicalValidated": {"$ref": P + "canonicalValidIfPresent"},
    "3.3.7-annotationViaValidated": {"$ref": P + "viaValidIfPresent"},
    **{f"bodiesTargets/{k}": _each(key, ref) for k, key, ref in [
        ("3.2.1-bodyTextDirectionValidated", "body", B + "textDirectionValidIfPresent"),
        ("3.3.1-bodyCreatedValidated", "body", P + "createdValidIfPresent"),
        ("3.3.1-bodyModifiedValidated", "body", P + "modifiedValidIfPresent"),
        ("3.3.6-bodyRightsValidated", "body", P + "rightsValidIfPresent"),
        ("3.3.7-bodyCanonicalValidated", "body", P + "canonicalValidIfPresent"),
        ("3.3.7-bodyViaValidated", "body", P + "viaValidIfPresent"),
        ("3.2.1-targTextDirectionValidated", "target", B + "textDirectionValidIfPresent"),
        ("3.3.1-targCreatedValidated", "target", P + "createdValidIfPresent"),
        ("3.3.1-targModifiedValidated", "target", P + "modifiedValidIfPresent"),
        ("3.3.6-targRightsValidated", "target", P + "rightsValidIfPresent"),
        ("3.3.7-targCanonicalValidated", "target", P + "canonicalValidIfPresent"),
        ("3.3.7-targViaValidated", "target", P + "viaValidIfPresent"),
    ]},
    **{f"bodiesTargets/{k}": _each(key, ref) | {"not": {"properties": {key: {"anyOf": [
        {"$ref": bad}, {"type": "array", "not": {"items": {"not": {"$ref": bad}}}}]}}, "required": [key]}}
       for k, key, ref, bad in [
        ("3.2.7-bodyEWRNoItems", "body", B + "bodyResourcesFound", B + "ewrWithItems"),
        ("3.3.5-bodyEWRNoPurpose", "body", B + "bodyResourcesFound", B + "ewrWithPurpose"),
        ("3.2.4-bodyChoiceSetNoValue", "body", B + "bodyResourcesFound", C + "choiceSetWithValue"),
        ("4-bodyChoiceSetNoSource", "body", B + "bodyResourcesFound", C + "choiceSetWithSource"),
        ("3.3.5-bodyChoiceSetNoPurpose", "body", B + "bodyResourcesFound", C + "choiceSetWithPurpose"),
        ("3.2.7-bodyEmbeddedTextualNoItems", "body", B + "bodyResourcesFound", B + "embeddedTextualBodyWithItems"),
        ("4-bodyEmbeddedTextualNoSource", "body", B + "bodyResourcesFound", B + "embeddedTextualBodyWithSource"),
        ("3.2.7-bodySpecificResourceNoItems", "body", B + "bodyResourcesFound", S + "specificResourceWithItems"),
        ("4-bodySpecificResourceNoValue", "body", B + "bodyResourcesFound", S + "specificResourceWithValue"),
        ("3.2.7-targEWRNoItems", "target", B + "targetResourcesFound", B + "ewrWithItems"),
        ("3.3.5-targEWRNoPurpose", "target", B + "targetResourcesFound", B + "ewrWithPurpose"),
        ("3.2.4-targChoiceSetNoValue", "target", B + "targetResourcesFound", C + "choiceSetWithValue"),
        ("4-targChoiceSetNoSource", "target", B + "targetResourcesFound", C + "choiceSetWithSource"),
        ("3.3.5-targChoiceSetNoPurpose", "target", B + "targetResourcesFound", C + "choiceSetWithPurpose"),
        ("3.2.7-targSpecificResourceNoItems", "target", B + "targetResourcesFound", S + "specificResourceWithItems"),
        ("4-targSpecificResourceNoValue", "target", B + "targetResourcesFound", S + "specificResourceWithValue"),
        ("3.2.4-targNoTypeTextualBody", "target", B + "targetResourcesFound",
         B + "embeddedTextTypeIncludesTextualBody"),
    ]},
    "specificResource/4.2-selectorValidIfPresent": _each("target", S + "selectorDefined"),
    "specificResource/4.3-stateValidIfPresent": _each("target", S + "stateDefined"),
    "specificResource/4.3.3-refinedByValidated": _selectors(S + "refinedByDefined"),
    "specificResource/4.4-styleClassValidIfPresent": _each("target", S + "styleClassDefinition"),
    "specificResource/4.2-fragmentCssXPathSelectorValid": {"allOf": [
        _selectors(S + "fragmentSelectorTypeValidIfPresent"), _selectors(S + "cssSelectorTypeValidIfPresent"),
        _selectors(S + "xpathSelectorTypeValidIfPresent")]},
    "specificResource/4.2.4-textQuoteSelectorValid": _selectors(S + "textQuoteSelectorTypeValidIfPresent"),
    "specificResource/4.2-TextDataPositionSelectorValid": {"allOf": [
        _selectors(S + "textPositionSelectorTypeValidIfPresent"),
        _selectors(S + "dataPositionSelectorTypeValidIfPresent")]},
    "specificResource/4.2.7-svgSelectorValid": _selectors(S + "svgSelectorTypeValidIfPresent"),
    "specificResource/4.2.8-rangeSelectorValid": _selectors(S + "rangeSelectorTypeValidIfPresent"),
    "specificResource/4.3.1-timeStateValid": _each("target", S + "timeStateTypeValidIfPresent"),
    "specificResource/4.3.2-httpRequestStateValid": _each("target", S + "requestHeaderStateTypeValidIfPresent"),
}  # fmt: skip


def test_every_must_assertion_of_the_suite_is_checked() -> None:
    listed = json.loads((SCHEMAS / "web-annotation/annotationMusts.test").read_text(encoding="utf-8"))["assertions"]
    names = {a.removeprefix("annotations/").removesuffix(".json") for a in listed}
    assert names == set(MUSTS)


def _results() -> list[tuple[Any, Any]]:
    out = []
    policy = Policy()
    for rel in ("rfc/rfc7519.txt", "rfc/rfc7519-rfceditor-pdfrfc.pdf", "pt/crp-constituicao-republica-portuguesa.txt"):
        doc = load_document(CORPORA / rel)
        segment(doc)
        lines = [ln.strip() for ln in doc.text.split("\n") if 40 <= len(ln.strip()) <= 160]
        for line in lines[::12][:45]:
            out.append((doc, locate(doc, line, policy=policy)))
    return out


def test_annotations_of_results_meet_every_must(tmp_path: Path) -> None:
    registry = _registry()
    validators = {
        name: jsonschema.Draft4Validator(schema, registry=registry, format_checker=jsonschema.FormatChecker())
        for name, schema in MUSTS.items()
    }
    results = _results()
    assert len(results) >= 100
    round_trips = 0
    for doc, result in results:
        a = annotation(result.to_json(), doc)
        for name, v in validators.items():
            errors = list(v.iter_errors(a))
            assert not errors, (name, errors[0].message, a)
        for target in a["target"]:
            if isinstance(target, str):
                continue
            quote = next(s for s in target["selector"] if s["type"] == "TextQuoteSelector")
            pos = next(s for s in target["selector"] if s["type"] == "TextPositionSelector")
            assert doc.text[pos["start"] : pos["end"]] == quote["exact"]
            if result.status == "located":
                back = locate(doc, quote["exact"], prefix=quote.get("prefix"), suffix=quote.get("suffix"))
                assert back.status == "located" and (back.matches[0].start, back.matches[0].end) == (
                    pos["start"], pos["end"])  # fmt: skip
                round_trips += 1
            if doc.page_starts:
                frag = next(s for s in target["selector"] if s["type"] == "FragmentSelector")
                assert frag["value"] == f"page={doc.page_of(pos['start'])}"
    assert round_trips >= 80


def test_cli_annotations_for_locate_describe_and_verify(tmp_path: Path) -> None:
    rfc = CORPORA / "rfc/rfc7519.txt"
    r = _cli("locate", rfc, "The \"iss\" (issuer) claim identifies the principal that issued the JWT.", "--format",
             "annotations")  # fmt: skip
    (a,) = json.loads(r.stdout)
    assert r.returncode == 0 and a["type"] == "Annotation" and a["body"][0]["value"] == "located"
    r = _cli("describe", rfc, "17905", "17978", "--format", "annotations")
    (d,) = json.loads(r.stdout)
    pos = next(s for s in d["target"][0]["selector"] if s["type"] == "TextPositionSelector")
    assert (pos["start"], pos["end"]) == (17905, 17978)
    records = tmp_path / "r.jsonl"
    record = {"citation_id": "x", "source_id": "rfc", "quote": "no such sentence in the RFC"}
    records.write_text(json.dumps(record) + "\n")
    r = _cli("verify", records, "--source", f"rfc={rfc}", "--format", "annotations")
    (v,) = json.loads(r.stdout)
    assert v["body"][0]["value"] == "not_found" and v["target"] == ["urn:ipsis:source:rfc"]


def test_the_must_checks_catch_broken_annotations() -> None:
    registry = _registry()
    doc = load_document(CORPORA / "rfc/rfc7519.txt")
    result = locate(doc, "The \"iss\" (issuer) claim identifies the principal that issued the JWT.")
    good = annotation(result.to_json(), doc)

    def failing(a: dict[str, Any]) -> set[str]:
        return {
            name
            for name, schema in MUSTS.items()
            if list(jsonschema.Draft4Validator(schema, registry=registry, format_checker=jsonschema.FormatChecker())
                    .iter_errors(a))
        }  # fmt: skip

    assert failing(good) == set()
    assert "3.1-annotationContextValidated" in failing({k: v for k, v in good.items() if k != "@context"})
    assert "3.1-annotationTypeValidated" in failing({**good, "type": "Note"})
    assert "3.2.5-notBodyBodyValue" in failing({**good, "bodyValue": "x"})
    broken = json.loads(json.dumps(good))
    broken["target"][0]["selector"][0] = {"type": "TextQuoteSelector", "prefix": "no exact"}
    assert failing(broken) & {"specificResource/4.2-selectorValidIfPresent",
                              "specificResource/4.2.4-textQuoteSelectorValid"}  # fmt: skip
    assert "3.3.1-annotationCreatedValidated" in failing({**good, "created": "yesterday"})
    assert "3.1-annotationIdValidated" in failing({**good, "id": "not an iri"})
