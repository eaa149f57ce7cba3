"""pt/es/en word lists shared by the support judge's cues and the near-miss reasons.

One list per idea, used by both :mod:`ipsis.judge.cues` and :mod:`ipsis.verify.reasons`:

- :data:`NEGATORS`: words that negate (``não``, ``no``, ``never``);
- :data:`LIMITERS`: clauses that limit a rule (``salvo``, ``desde que``, ``sin perjuicio``,
  ``unless``); :data:`RESTRICTORS` (``apenas``, ``solo``, ``only``) narrow it too: the judge counts
  them as limiters, a near miss reports them as changed words;
- :data:`DEONTIC`: modal phrases by deontic class (RFC 2119 keywords, ``deverá``/``poderá``/``é
  vedado``, ``deberá``/``podrá``/``queda prohibido``), for the judge; :data:`MODAL_WORDS`: the
  single modal words per language whose change a near miss flags (``modality_changed``).

Phrases are casefolded and written with single spaces; accents are kept.

>>> "nunca" in NEGATORS["pt"] and "sin perjuicio" in LIMITERS["es"] and "only" in RESTRICTORS["en"]
True
>>> DEONTIC["prohibition"][:3]
('must not', 'shall not', 'is prohibited')
"""

from __future__ import annotations


def words(spec: str) -> frozenset[str]:
    """A word list written as one whitespace-separated string.

    >>> sorted(words("não  nunca\\n nem"))
    ['nem', 'nunca', 'não']
    """
    return frozenset(spec.split())


def phrases(spec: str) -> tuple[str, ...]:
    """A phrase list written as ``|``-separated phrases (newlines and repeated spaces ignored).

    >>> phrases("must | shall not|\\n  is required")
    ('must', 'shall not', 'is required')
    """
    return tuple(" ".join(p.split()) for p in spec.split("|") if p.strip())


NEGATORS: dict[str, frozenset[str]] = {
    "pt": words("não nunca jamais nenhum nenhuma nenhuns nenhumas ninguém nem nada tampouco"),
    "es": words("no nunca jamás ningún ninguno ninguna nadie ni nada tampoco"),
    "en": words("not no never none nobody nothing nor neither cannot can't don't isn't"),
}

LIMITERS: dict[str, tuple[str, ...]] = {
    "pt": phrases("""salvo | exceto | excepto | desde que | sem prejuízo | ressalvado | ressalvada | ressalvados |
        ressalvadas | a menos que | a não ser | senão | exceção | excepção | salvaguardado"""),
    "es": phrases("""salvo | excepto | siempre que | sin perjuicio | a menos que | a no ser | con excepción |
        salvedad"""),
    "en": phrases("unless | except | provided that | notwithstanding | other than | subject to | without prejudice |"
                  " as long as"),
}  # fmt: skip

RESTRICTORS: dict[str, tuple[str, ...]] = {
    "pt": phrases("apenas | só | somente | unicamente | exclusivamente"),
    "es": phrases("solo | sólo | solamente | únicamente | exclusivamente"),
    "en": phrases("only | solely | exclusively"),
}

OBLIGATION, PROHIBITION, PERMISSION = "obligation", "prohibition", "permission"
RECOMMENDATION, DISCOURAGED = "recommendation", "discouraged"
DEONTIC: dict[str, tuple[str, ...]] = {
    OBLIGATION: phrases("""must|shall|required|is required|are required|has to|have to|mandatory|is mandatory|
        deve|devem|deverá|deverão|devendo|tem de|têm de|é obrigatório|é obrigatória|são obrigatórios|
        obrigatoriamente|debe|deben|deberá|deberán|debiendo|tiene que|tienen que|habrá de|habrán de|
        es obligatorio|es obligatoria|son obligatorios|obligatoriamente"""),
    PROHIBITION: phrases("""must not|shall not|is prohibited|are prohibited|is forbidden|may not|cannot|can not|
        é vedado|é vedada|são vedados|são vedadas|é proibido|é proibida|são proibidos|é interdito|
        fica vedado|fica proibido|queda prohibido|queda prohibida|quedan prohibidos|quedan prohibidas|
        se prohíbe|se prohíben|está prohibido|está prohibida|prohibido|proibido|vedado"""),
    PERMISSION: phrases("""may|optional|is permitted|is allowed|need not|pode|podem|poderá|poderão|podendo|
        é permitido|é permitida|são permitidos|é facultado|é facultada|é facultativo|é facultativa|
        é lícito|puede|pueden|podrá|podrán|pudiendo|es facultativo|es facultativa|se permite|
        está permitido|está permitida|facultativo|facultativa"""),
    RECOMMENDATION: phrases("should|recommended|is recommended"),
    DISCOURAGED: phrases("should not|not recommended"),
}
"""Deontic modal phrases (any language) by class; the judge compares the classes."""

MODAL_WORDS: dict[str, tuple[str, ...]] = {
    "pt": ("deve", "devem", "deverá", "deverão", "deveria", "pode", "podem", "poderá", "poderão", "poderia",
           "vedado", "vedada", "vedados", "vedadas", "proibido", "proibida", "permitido", "permitida",
           "obrigatório", "obrigatória", "facultado", "facultada", "facultativo", "facultativa"),
    "es": ("debe", "deben", "deberá", "deberán", "puede", "pueden", "podrá", "podrán", "prohibido",
           "prohibida", "permitido", "permitida", "obligatorio", "obligatoria", "facultativo"),
    "en": ("must", "shall", "should", "may", "required", "optional", "recommended", "can", "might", "need"),
}  # fmt: skip
"""Single modal words per language (conditional and epistemic ones too: ``deveria``, ``might``)."""
