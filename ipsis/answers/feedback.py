"""What to tell the model, and the answer with its failed claims taken out.

:func:`feedback` writes a short correction message (one line per broken citation or uncited
sentence) in the answer's language when it is Portuguese or Spanish, English otherwise.
:func:`verified_text` returns the answer without the sentences or claims whose citations
failed, for callers that prefer to show only what was verified.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ipsis.answers.sentences import split_sentences
from ipsis.language import detect_language
from ipsis.spans import Span

if TYPE_CHECKING:
    from ipsis.answers.check import CheckReport

TEMPLATES = {
    "en": {
        "intro": "Some citations in your answer could not be verified against the sources. Please fix them:",
        "unknown_source": "- {where}: {ref} is not one of the sources provided (use 1–{n}).",
        "quote": "- {where}: the quote {quote} is not word for word in source {source}; copy the exact text or drop the claim.",  # noqa: E501
        "quote_ambiguous": "- {where}: the quote {quote} is in more than one place of source {source}; quote enough of the passage to single it out.",  # noqa: E501
        "quote_revoked": "- {where}: the quote {quote} is revoked text in source {source}; quote the wording in force or say it is revoked.",  # noqa: E501
        "quote_too_short": "- {where}: the quote {quote} is too short to be checked; quote the whole phrase from source {source}.",  # noqa: E501
        "quote_empty": "- {where}: the quotation marks hold no text; put the exact words of source {source} in them or drop them.",  # noqa: E501
        "offset_mismatch": "- {where}: the citation points at the wrong place in the text.",
        "uncited_sentence": "- {where}: no citation; cite a source or remove it.",
        "claim": "- {where}: source {source} does not say this ({why}); correct the claim or cite what says it.",
        "unused_source": "",
        "truncated": "- The answer was cut off; finish it.",
    },
    "pt": {
        "intro": "Algumas citações da sua resposta não puderam ser verificadas nas fontes. Corrija-as:",
        "unknown_source": "- {where}: {ref} não é uma das fontes fornecidas (use 1–{n}).",
        "quote": "- {where}: a citação {quote} não está literalmente na fonte {source}; copie o texto exato ou retire a afirmação.",  # noqa: E501
        "quote_ambiguous": "- {where}: a citação {quote} aparece em mais de um lugar da fonte {source}; cite o bastante do trecho para identificá-lo.",  # noqa: E501
        "quote_revoked": "- {where}: a citação {quote} é texto revogado na fonte {source}; cite a redação em vigor ou diga que foi revogado.",  # noqa: E501
        "quote_too_short": "- {where}: a citação {quote} é curta demais para ser verificada; cite a expressão inteira da fonte {source}.",  # noqa: E501
        "quote_empty": "- {where}: as aspas estão vazias; ponha nelas as palavras exatas da fonte {source} ou retire-as.",  # noqa: E501
        "offset_mismatch": "- {where}: a citação aponta para o lugar errado do texto.",
        "uncited_sentence": "- {where}: sem citação; cite uma fonte ou retire a frase.",
        "claim": "- {where}: a fonte {source} não diz isto ({why}); corrija a afirmação ou cite o trecho que o diz.",
        "unused_source": "",
        "truncated": "- A resposta foi cortada; termine-a.",
    },
    "es": {
        "intro": "Algunas citas de tu respuesta no se pudieron verificar en las fuentes. Corrígelas:",
        "unknown_source": "- {where}: {ref} no es una de las fuentes proporcionadas (usa 1–{n}).",
        "quote": "- {where}: la cita {quote} no está literalmente en la fuente {source}; copia el texto exacto o retira la afirmación.",  # noqa: E501
        "quote_ambiguous": "- {where}: la cita {quote} aparece en más de un lugar de la fuente {source}; cita lo bastante del pasaje para identificarlo.",  # noqa: E501
        "quote_revoked": "- {where}: la cita {quote} es texto derogado en la fuente {source}; cita la redacción vigente o di que fue derogado.",  # noqa: E501
        "quote_too_short": "- {where}: la cita {quote} es demasiado corta para verificarla; cita la expresión completa de la fuente {source}.",  # noqa: E501
        "quote_empty": "- {where}: las comillas están vacías; pon en ellas las palabras exactas de la fuente {source} o retíralas.",  # noqa: E501
        "offset_mismatch": "- {where}: la cita apunta a un lugar equivocado del texto.",
        "uncited_sentence": "- {where}: sin cita; cita una fuente o elimina la frase.",
        "claim": "- {where}: la fuente {source} no dice esto ({why}); corrige la afirmación o cita el pasaje que lo dice.",  # noqa: E501
        "unused_source": "",
        "truncated": "- La respuesta quedó cortada; termínala.",
    },
}


def language(text: str) -> str:
    """``pt``, ``es`` or ``en`` (:func:`ipsis.language.detect_language`; English when unsure).

    >>> language("Puedes reclamar hasta 50 € al día en comidas."), language("Você não pode.")
    ('es', 'pt')
    """
    return detect_language(text)


def _sentence_of(text: str, span: Span | None) -> str:
    if span is None:
        return ""
    for s in split_sentences(text):
        if s.start <= span.start < s.end or (span.start == span.end == s.end):
            return s.slice(text)
    return span.slice(text)


def feedback(report: CheckReport) -> str:
    """A correction message for the model; empty when the answer is clean."""
    text = report.answer.text
    t = TEMPLATES[language(text)]
    lines: list[str] = []
    for f in report.findings:
        where = repr(_sentence_of(text, f.answer_span)) if f.answer_span is not None else repr(f.quote or "")
        if f.kind == "unknown_source":
            ref = f.message.split(" names ")[0].split(" is not ")[0].split(" matches ")[0]
            lines.append(t["unknown_source"].format(where=where, ref=ref, n=len(report.sources)))
        elif f.kind.startswith("quote_"):  # quote_not_found, or a kind with its own wording
            lines.append(t.get(f.kind, t["quote"]).format(where=where, quote=repr(f.quote), source=f.source))
        elif f.kind.startswith("claim_"):
            why = f.message.split(": ", 2)[-1] if f.message.count(": ") >= 2 else f.kind
            lines.append(t["claim"].format(where=where, source=f.source, why=why))
        elif f.kind in ("offset_mismatch", "uncited_sentence", "truncated"):
            lines.append(t[f.kind].format(where=where))
    lines = list(dict.fromkeys(line for line in lines if line))
    return "\n".join([t["intro"], *lines]) if lines else ""


def verified_text(report: CheckReport) -> str:
    """The answer without the sentences (or claims) holding a failed citation.

    Claim JSON with answer-level citations (``{"answer", "citations"}``) has nothing to tie a
    failure to a sentence, so its text comes back whole.
    """
    from ipsis.answers.check import FAILING

    answer = report.answer
    bad = [f.answer_span for f in report.findings if f.kind in FAILING and f.answer_span is not None]
    if answer.units == "none" or not bad:
        return answer.text
    units = list(answer.claim_spans) if answer.units == "claims" else split_sentences(answer.text)
    kept = [u for u in units if not any(u.start <= b.start < u.end or b.overlaps(u) for b in bad)]
    if answer.units == "claims":
        return " ".join(u.slice(answer.text) for u in kept)
    excluded = answer.exclude_spans
    return " ".join(u.slice(answer.text) for u in kept if not any(u.overlaps(x) for x in excluded))
