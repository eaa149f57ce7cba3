"""Report labels in English, Portuguese and Spanish, and a small language guess to choose them.

>>> detect_language("Portugal é uma República soberana, baseada na dignidade da pessoa humana")
'pt'
>>> detect_language("El Gobierno dirige la política interior y exterior del Estado")
'es'
>>> label("es", "not_found"), label("xx", "located")
('no encontrada', 'located')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ipsis.language import LANGUAGES, detect_language

__all__ = ["LANGUAGES", "detect_language", "detect_language_of", "label", "status_label"]



def detect_language_of(texts: Iterable[str], default: str = "en") -> str:
    """The language most of ``texts`` (quotes, say) are in; each text votes once.

    >>> detect_language_of(["Todos têm direito à segurança social", "the JWT", "Art. 5º da lei"])
    'pt'
    """
    votes = Counter(detect_language(t, "") for t in texts if isinstance(t, str) and t.strip())
    votes.pop("", None)
    if not votes:
        return default
    top = max(votes.values())
    return next(lang for lang in (default, *LANGUAGES) if votes.get(lang) == top)


LABELS: dict[str, dict[str, str]] = {
    "en": {
        "title": "ipsis verification report",
        "check_title": "ipsis answer check",
        "located": "located",
        "ambiguous": "ambiguous",
        "not_found": "not found",
        "unknown_source": "unknown source",
        "empty_quote": "empty quote",
        "too_short": "too short",
        "invalid_record": "invalid record",
        "citations": "Citations",
        "summary": "Summary",
        "findings": "Findings",
        "answer": "Answer",
        "sources": "Sources",
        "source": "Source",
        "section": "Section",
        "page": "page",
        "line": "line",
        "policy": "Policy",
        "version": "ipsis",
        "sha256": "SHA-256",
        "retrieved": "retrieved",
        "all_sources": "all sources",
        "filter_status": "Status",
        "filter_source": "Source",
        "quote": "Quote",
        "in_context": "In the source",
        "scan": "Page image behind the OCR text (page {page}; the quote's words outlined)",
        "printed": "The page as printed (page {page}; the quote outlined)",
        "nearest": "Nearest passage",
        "similarity": "similarity",
        "diff": "Word diff (quote → source)",
        "reasons": "Reasons",
        "candidates": "Candidates",
        "selector": "selector to single it out",
        "found_elsewhere": "Found elsewhere",
        "judge": "Judge",
        "evidence": "Evidence",
        "confidence": "confidence",
        "revoked": "revoked",
        "note": "amendment note",
        "truncated": "The answer was cut off before it ended; what follows may be incomplete.",
        "uncited": "sentence without a citation",
        "never_cited": "never cited",
        "cited": "cited",
        "steps": "normalization",
        "prepared": "taken off the quote",
        "warnings": "Warnings",
        "no_document": "document text not available",
        "keys": "Keys: j / k next / previous citation",
        "more": "more candidates",
        "nothing": "No citations.",
        "status_retrieved": "retrieved (claim judged)",
        "prefix": "prefix",
        "suffix": "suffix",
        "exact_only": "the quote alone",
        "started_at": "started",
        "store": "store",
        "carried": "In the other version",
        "section_amended": "other words of the section changed",
        "show_section": "show the section",
        "only_quote": "only in the quote",
        "only_source": "only in the source",
        "judged_by": "decided by",
        "claim": "Claim",
        "claims": "Claims judged",
        "retrieved_passage": "Passage retrieved for the claim and judged",
        "judged_passage": "Passage judged",
        "bare_citation": "A citation without a quote: its claim was judged against the passage below.",
        "no_text": "no text",
        "total": "total",
    },
    "pt": {
        "title": "Relatório de verificação ipsis",
        "check_title": "Verificação de resposta ipsis",
        "located": "localizada",
        "ambiguous": "ambígua",
        "not_found": "não encontrada",
        "unknown_source": "fonte desconhecida",
        "empty_quote": "citação vazia",
        "too_short": "curta demais",
        "invalid_record": "registro inválido",
        "citations": "Citações",
        "summary": "Resumo",
        "findings": "Achados",
        "answer": "Resposta",
        "sources": "Fontes",
        "source": "Fonte",
        "section": "Dispositivo",
        "page": "página",
        "line": "linha",
        "policy": "Política",
        "version": "ipsis",
        "sha256": "SHA-256",
        "retrieved": "obtida em",
        "all_sources": "todas as fontes",
        "filter_status": "Situação",
        "filter_source": "Fonte",
        "quote": "Citação",
        "in_context": "Na fonte",
        "scan": "Imagem da página por trás do texto OCR (página {page}; palavras da citação contornadas)",
        "printed": "A página como impressa (página {page}; a citação contornada)",
        "nearest": "Trecho mais próximo",
        "similarity": "semelhança",
        "diff": "Diferença palavra a palavra (citação → fonte)",
        "reasons": "Motivos",
        "candidates": "Candidatos",
        "selector": "seletor que o distingue",
        "found_elsewhere": "Encontrada em outro lugar",
        "judge": "Avaliação",
        "evidence": "Evidência",
        "confidence": "confiança",
        "revoked": "revogado",
        "note": "nota de alteração",
        "truncated": "A resposta foi cortada antes do fim; o que segue pode estar incompleto.",
        "uncited": "frase sem citação",
        "never_cited": "nunca citada",
        "cited": "citada",
        "steps": "normalização",
        "prepared": "retirado da citação",
        "warnings": "Avisos",
        "no_document": "texto do documento indisponível",
        "keys": "Teclas: j / k próxima / anterior citação",
        "more": "outros candidatos",
        "nothing": "Nenhuma citação.",
        "status_retrieved": "recuperada (afirmação avaliada)",
        "prefix": "prefixo",
        "suffix": "sufixo",
        "exact_only": "a citação sozinha",
        "started_at": "iniciada em",
        "store": "acervo",
        "carried": "Na outra versão",
        "section_amended": "outras palavras do dispositivo mudaram",
        "show_section": "mostrar o dispositivo",
        "only_quote": "só na citação",
        "only_source": "só na fonte",
        "judged_by": "decidido por",
        "claim": "Afirmação",
        "claims": "Afirmações avaliadas",
        "retrieved_passage": "Trecho recuperado para a afirmação e avaliado",
        "judged_passage": "Trecho avaliado",
        "bare_citation": "Uma citação sem transcrição: a afirmação foi avaliada contra o trecho abaixo.",
        "no_text": "sem texto",
        "total": "total",
    },
    "es": {
        "title": "Informe de verificación ipsis",
        "check_title": "Verificación de respuesta ipsis",
        "located": "localizada",
        "ambiguous": "ambigua",
        "not_found": "no encontrada",
        "unknown_source": "fuente desconocida",
        "empty_quote": "cita vacía",
        "too_short": "demasiado corta",
        "invalid_record": "registro inválido",
        "citations": "Citas",
        "summary": "Resumen",
        "findings": "Hallazgos",
        "answer": "Respuesta",
        "sources": "Fuentes",
        "source": "Fuente",
        "section": "Precepto",
        "page": "página",
        "line": "línea",
        "policy": "Política",
        "version": "ipsis",
        "sha256": "SHA-256",
        "retrieved": "obtenida el",
        "all_sources": "todas las fuentes",
        "filter_status": "Estado",
        "filter_source": "Fuente",
        "quote": "Cita",
        "in_context": "En la fuente",
        "scan": "Imagen de la página tras el texto OCR (página {page}; palabras de la cita recuadradas)",
        "printed": "La página tal como se imprimió (página {page}; la cita recuadrada)",
        "nearest": "Pasaje más cercano",
        "similarity": "similitud",
        "diff": "Diferencia palabra a palabra (cita → fuente)",
        "reasons": "Motivos",
        "candidates": "Candidatos",
        "selector": "selector que lo distingue",
        "found_elsewhere": "Encontrada en otro lugar",
        "judge": "Evaluación",
        "evidence": "Evidencia",
        "confidence": "confianza",
        "revoked": "derogado",
        "note": "nota de modificación",
        "truncated": "La respuesta se cortó antes de terminar; lo que sigue puede estar incompleto.",
        "uncited": "oración sin cita",
        "never_cited": "nunca citada",
        "cited": "citada",
        "steps": "normalización",
        "prepared": "quitado de la cita",
        "warnings": "Avisos",
        "no_document": "texto del documento no disponible",
        "keys": "Teclas: j / k cita siguiente / anterior",
        "more": "otros candidatos",
        "nothing": "Ninguna cita.",
        "status_retrieved": "recuperada (afirmación evaluada)",
        "prefix": "prefijo",
        "suffix": "sufijo",
        "exact_only": "la cita sola",
        "started_at": "iniciada el",
        "store": "almacén",
        "carried": "En la otra versión",
        "section_amended": "otras palabras del precepto cambiaron",
        "show_section": "mostrar el precepto",
        "only_quote": "solo en la cita",
        "only_source": "solo en la fuente",
        "judged_by": "decidido por",
        "claim": "Afirmación",
        "claims": "Afirmaciones evaluadas",
        "retrieved_passage": "Pasaje recuperado para la afirmación y evaluado",
        "judged_passage": "Pasaje evaluado",
        "bare_citation": "Una cita sin transcripción: la afirmación se evaluó contra el pasaje de abajo.",
        "no_text": "sin texto",
        "total": "total",
    },
}


def label(lang: str, key: str) -> str:
    """The label ``key`` in ``lang``; English, then the key itself, when missing."""
    table = LABELS.get(lang) or LABELS["en"]
    return table.get(key) or LABELS["en"].get(key) or key.replace("_", " ")


def status_label(lang: str, status: str) -> str:
    """The badge text of a status (``retrieved`` is a status here, not a retrieval date).

    >>> status_label("pt", "not_found"), status_label("es", "retrieved")
    ('não encontrada', 'recuperada (afirmación evaluada)')
    """
    return label(lang, "status_retrieved" if status == "retrieved" else status)
