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
        ressalvadas | a menos que | a não ser | senão | exceção | excepção | salvaguardado | salvas | salvos"""),
    "es": phrases("""salvo | excepto | siempre que | sin perjuicio | a menos que | a no ser | con excepción |
        salvedad | sino por | sino en virtud"""),
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
        es obligatorio|es obligatoria|son obligatorios|obligatoriamente|obrigado a|obrigada a|obrigados a|
        obrigadas a|obligado a|obligada a|obligados a|obligadas a|obliged to|compelled to|é preciso|é necessário|
        es preciso|es necesario|is necessary|tem a obrigação de|têm a obrigação de|tiene la obligación de|
        tienen la obligación de|has the obligation to|have the obligation to|obriga-se a|obrigam-se a|
        se obriga a|se obrigam a|se obliga a|se obligan a"""),
    PROHIBITION: phrases("""must not|shall not|is prohibited|are prohibited|is forbidden|may not|cannot|can not|
        é vedado|é vedada|são vedados|são vedadas|é proibido|é proibida|são proibidos|é interdito|
        fica vedado|fica proibido|queda prohibido|queda prohibida|quedan prohibidos|quedan prohibidas|
        se prohíbe|se prohíben|está prohibido|está prohibida|prohibido|prohibida|prohibidos|prohibidas|proibido|
        proibida|proibidos|proibidas|vedado|vedada|vedados|vedadas|must never|shall never|
        may never|can never|proibição de|prohibición de|vedação de|prohibition of|será vedado|será vedada|
        serão vedados|serão vedadas|será proibido|será proibida|quedará prohibido|quedará prohibida|
        quedarán prohibidos|quedarán prohibidas|se prohibirá|se prohibirán|é defeso|é defesa|is barred from|
        are barred from"""),
    PERMISSION: phrases("""may|can be|optional|is permitted|is allowed|need not|pode|podem|poderá|poderão|podendo|
        é permitido|é permitida|são permitidos|é facultado|é facultada|é facultativo|é facultativa|
        é lícito|puede|pueden|podrá|podrán|pudiendo|es facultativo|es facultativa|se permite|se permiten|
        está permitido|está permitida|facultativo|facultativa|autorizada a|autorizado a|autorizados a|
        autorizadas a|é autorizado|é autorizada|is authorized|are authorized|is allowed to|permitido|permitida|
        permitidos|permitidas|permitted|allowed|tem direito a|têm direito a|tem o direito de|têm o direito de|
        tiene derecho a|tienen derecho a|has the right to|have the right to|tem direito de|têm direito de|
        tiene derecho de|tienen derecho de|tendrá derecho a|tendrán derecho a|terá direito a|terão direito a|
        terá o direito de|terão o direito de|tendrá derecho de|tendrán derecho de|will have the right to|
        assegurado o direito a|assegurado o direito de|garantido o direito a|
        garantido o direito de|reconhecido o direito a|se reconoce el derecho a|se garantiza el derecho a|
        se admite|se admiten|se admitirá|se admitirán|se permitirá|se permitirán|será permitido|será permitida|
        serão permitidos|serán permitidos|tienen el derecho a|tienen el derecho de|tiene el derecho a|
        tiene el derecho de|é livre de|são livres de|es libre de|son libres de|is free to|are free to|é facultado ao|
        es facultad de"""),
    RECOMMENDATION: phrases("should|recommended|is recommended|ought to"),
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

ABSOLUTES: dict[str, tuple[str, ...]] = {
    "pt": phrases("""sem exceção | sem nenhuma exceção | sem qualquer exceção | sem excepção | em nenhuma hipótese |
        em hipótese alguma | em caso algum | em nenhum caso | em nenhuma circunstância | em qualquer caso |
        em qualquer circunstância | em qualquer hipótese | em todos os casos | sempre | nunca | jamais |
        absoluto | absoluta | absolutos | absolutas | absolutamente | indefinidamente | para sempre |
        sem limite | sem limites | sem nenhuma condição | sem qualquer condição | incondicionalmente |
        sem restrição | sem restrições | sem qualquer restrição | sem nenhuma restrição | sem ressalva alguma |
        sem qualquer ressalva | sem ressalvas | a qualquer tempo | a qualquer momento | em qualquer momento |
        em qualquer tempo | ilimitado | ilimitada | sem limite total"""),
    "es": phrases("""sin excepción | sin ninguna excepción | en ningún caso | en ninguna circunstancia |
        en cualquier caso | en todos los casos | en todo caso | siempre | nunca | jamás | absoluto | absoluta |
        absolutamente | indefinidamente | para siempre | sin límite | sin ninguna condición | incondicionalmente |
        sin restricción | sin restricciones | sin ninguna restricción | sin reserva alguna | en cualquier momento |
        en todo momento | ilimitado | ilimitada"""),
    "en": phrases("""without exception | in no case | under no circumstances | under any circumstances | in all cases |
        in any case | always | never | absolute | absolutely | indefinitely | forever | without limit |
        unconditionally | without restriction | without any restriction | without any exception | at any time |
        unlimited | without any limit"""),
}  # fmt: skip
"""Words that deny any exception or condition: against a passage with one, a limiter conflict."""

CONDITIONS: dict[str, tuple[str, ...]] = {
    "pt": phrases("""quando | nos casos | nas hipóteses | para as seguintes finalidades | para os seguintes fins |
        nos termos da lei | na forma da lei | no caso de | em caso de | nos casos de"""),
    "es": phrases("""cuando | en los casos | en los supuestos | para los siguientes fines | en los términos que |
        en caso de"""),
    "en": phrases("""when | if | in the cases | for the following purposes | in case of | in the event of |
        in cases where"""),
}  # fmt: skip
"""Clauses that make a rule conditional: against a claim's absolute they are a limiter conflict."""

WIDENERS: dict[str, tuple[str, ...]] = {
    "pt": phrases("""mesmo sem | ainda que sem | independentemente de | independentemente da | independentemente do |
        mesmo que | ainda que | mesmo quando | mesmo se | mesmo por | mesmo em | mesmo com | até mesmo |
        sem necessidade de | sem precisar de | sem dependência de"""),
    "es": phrases("""aun sin | aún sin | incluso sin | con independencia de | independientemente de | aunque |
        aun cuando | aún cuando | incluso cuando | incluso si | incluso por | incluso en | incluso con | aun si |
        sin necesidad de"""),
    "en": phrases("""even without | even if no | regardless of | irrespective of | even if | even though | even when |
        even where | even for | even in | without the need | without needing"""),
}
"""Concessive phrases that drop a condition (``mesmo sem risco``, ``mesmo por engano``, ``sin necesidad de
consultar``): the condition's words in the passage conflict."""

HEDGES: dict[str, tuple[str, ...]] = {
    "pt": phrases("""preferencialmente | de preferência | normalmente | geralmente | em regra | via de regra |
        por regra | em princípio | em certos casos | em certas circunstâncias | em alguns casos |
        em determinados casos | frequentemente | habitualmente | tipicamente"""),
    "es": phrases("""preferentemente | preferiblemente | de preferencia | normalmente | generalmente | por lo general |
        en general | por regla general | como regla general | en principio | en ciertos casos | en algunos casos |
        en determinados casos | en determinadas circunstancias | habitualmente | típicamente"""),
    "en": phrases("""preferably | normally | usually | typically | generally | in general | as a rule | in principle |
        in certain circumstances | in some circumstances | in certain cases | in some cases | often | ordinarily"""),
}  # fmt: skip
"""Words that make a rule hold as a rule, not always (``preferencialmente aos domingos``, ``normally``,
``in certain circumstances``): a claim that drops them, or says ``always``, says more."""

INSISTERS: frozenset[str] = frozenset(
    words("obrigatoriamente necessariamente sempre obligatoriamente necesariamente siempre always necessarily")
)
"""Adverbs that make a hedged rule categorical: ``deve ser obrigatoriamente aos domingos``."""

LIBERTIES: frozenset[str] = words("""livre livres livremente libre libres libremente free freely direito direitos
    derecho derechos right rights facultado facultada facultad faculdade facultativo facultativa optional lícito
    lícita permitido permitida""")
"""Words that state a freedom or a right without a modal verb (``é livre o exercício``): a claim's ``pode``
restates them; against a rule stated in the indicative (``o Estado prestará``) a ``pode`` weakens it."""

REQUIRING: frozenset[str] = words("""exige exigem exigir requer requerem requerer depende dependem depender
    pressupõe pressupõem requiere requieren requerir depende dependen exige exigen precisa precisam necessita
    necessitam necesita necesitan requires require required depends depend needs presupposes""")
"""Verbs that state a condition as a requirement: ``dissolver exige decisão judicial`` restates ``só podem
ser dissolvidas mediante decisão judicial``."""

UNIVERSALS: dict[str, frozenset[str]] = {
    "pt": words("qualquer quaisquer todo toda todos todas"),
    "es": words("cualquier cualquiera cualesquiera todo toda todos todas"),
    "en": words("any every all each"),
}
"""Universal quantifiers: ``qualquer incidente`` against ``incidente ... que possa`` (a restricted noun)."""

RESTRICTIVE: frozenset[str] = words(
    "que cujo cuja cujos cujas quando onde cuyo cuya cuando donde that which who whose when where"
)
"""Words that open a clause restricting the noun before them."""

BOUNDS: dict[str, tuple[str, ...]] = {
    "upper": phrases("""máximo | máxima | no máximo | até | não superior a | não superior | não mais de |
        não excedente a | hasta | como máximo | no superior a | no más de | at most | up to | no more than |
        not more than | not exceed |
        within | maximum | limitada a | limitado a | limited to"""),
    "lower": phrases("""mínimo | mínima | no mínimo | pelo menos | ao menos | não inferior a | não menos de |
        al menos | por lo menos | como mínimo | no inferior a | at least | no less than | not less than | minimum |
        mais de | más de | more than | superior a | superior al | exceeding | over"""),
    "exact": phrases("exatamente | exactamente | exactly | precisamente | precisely"),
}  # fmt: skip
"""Words that bound a quantity; the same number with another bound is another rule."""

CHAIN: frozenset[str] = words("""ser sido sendo estar estado ficar se lhe lhes nela nele nelas neles lo la le les
    é são será serão es son será serán be been being get it them there is are está están estão estás estaba estaban
    estará estarán estarão estava estavam fica ficam ficará ficarão queda quedan quedará quedarán remains remain
""")
"""Auxiliaries and clitics a negation reaches through: ``ninguém nela podendo``, ``no pudiendo ser obligada``,
``ninguém é obrigado``."""
COMPEL: frozenset[str] = words("""compelido compelida compelidos compelidas obrigado obrigada obrigados obrigadas
    forçado forçada forçados forçadas coagido coagida coagidos coagidas obligado obligada obligados obligadas
    forzado forzada forzados forzadas compelled forced obliged required compelir obrigar forçar coagir impor
    imposto imposta obligar forzar imponer imponerse impuesto impuesta compel force oblige impose imposed
    exigir exigido exigida exigidos exigidas exigirse exigirles exigirle""")
"""Past participles of compelling: ``ninguém poderá ser compelido`` (it may not be compelled) says what
``ninguém é obrigado`` (nobody is obliged) says."""

ANTONYMS: tuple[tuple[str, str], ...] = tuple(
    (a, b)
    for a, b in (
        pair.split("/")
        for pair in words("""primeiro/último primeira/última primero/último primera/última first/last
        passado/futuro pasado/futuro past/future antes/depois antes/después before/after
        válido/nulo válida/nula válidos/nulos válidas/nulas valid/void
        público/secreto pública/secreta publicamente/sigilo public/secret publicly/secret
        gratuito/pago gratuita/paga gratuito/pagamento gratuito/taxa free/paid
        escrita/verbal escrito/verbal written/oral maior/menor mayor/menor most/least
        ignore/use ignorar/usar eliminados/conservados eliminadas/conservadas fresh/stale
        increase/decrease above/below acima/abaixo encima/debajo inicio/fim início/fim comienzo/final
        proibir/permitir proibir/admitir prohibir/permitir prohibir/admitir forbid/allow prohibit/allow
        prohibit/permit proíbe/permite prohíbe/permite separadas/unidas separados/unidos separada/unida
        separado/unido obligatoria/voluntaria obligatorio/voluntario obrigatória/voluntária
        obrigatório/voluntário mandatory/voluntary solidariamente/subsidiariamente solidária/subsidiária
        integral/parcial integrais/parciais total/parcial positive/negative positivo/negativo
        positiva/negativa expresso/tácito expressa/tácita expreso/tácito expresa/tácita express/implied
        iguais/diferentes igual/diferente iguales/diferentes iguales/distintos igual/distinto equal/different
        inocente/culpado inocente/culpada inocente/culpable innocent/guilty civil/criminal civil/militar
        civilmente/criminalmente locally/globally local/global localmente/globalmente mínimo/máximo
        mínima/máxima minimum/maximum mayor/menor adult/minor maiores/menores mayores/menores
        ascendentes/descendentes ascending/descending uppercase/lowercase maiúsculas/minúsculas
        mayúsculas/minúsculas prévia/posterior prévio/posterior previa/posterior previo/posterior prior/subsequent
        anterior/posterior anteriormente/posteriormente issued/expires issue/expire issued/expired begin/end
        start/end início/término inicio/término mesmo/distintos mesma/distintas mismo/distintos
        misma/distintas same/different true/false verdadeiro/falso verdadero/falso verdadeira/falsa
        verdadera/falsa""")
    )
)
"""Word pairs of opposite meaning (either order): one in the claim, the other in the passage."""
NEGATIVE_PREFIXES: tuple[str, ...] = ("in", "im", "ir", "il", "un", "non", "des", "dis", "i")
"""Prefixes that make a word its opposite (``voluntário``/``involuntário``, ``sensitive``/``insensitive``)."""

SYNONYMS: tuple[frozenset[str], ...] = tuple(
    words(group)
    for group in phrases("""cabe compete incumbe corresponde|cabem competem incumbem correspondem|
    garante assegura garantiza asegura guarantees ensures|garantem asseguram garantizan aseguran|
    garantir assegurar garantizar asegurar|garantido assegurado garantizado asegurado|
    garantida assegurada garantizada asegurada|garantidos assegurados garantizados asegurados|
    nomeadamente designadamente especialmente particularmente namely notably|
    avoid prevent|evitar impedir|poderes autoridades|generate return|gera retorna|designa indica|
    define estabelece fixa determina|definem estabelecem fixam determinam|
    mesmo mesma iguais igual idêntico idêntica idênticos idênticas mismo misma iguales idéntico idéntica same equal
    identical mesmos mesmas mismos mismas idênticos iguales|
    vítima vítimas ofendido ofendida ofendidos víctima víctimas victim victims|
    condenado condenados apenado apenados reo reos convicted|fim término termo extinção cessação final fin
    terminación extinción end termination|relativos referentes relacionados concernentes relativas relacionadas
    relativo referente relacionado relativa referida|proporção medida proporción proportion measure|
    liberdade livre livres libertad libre libres freedom free|signal indicate show denote|signals indicates shows
    denotes|typical common usual normal habitual típico típica comum común usual|setting value valor|
    competência atribuição competencia incumbência|requisição pedido solicitação requerimento solicitud petición
    request|prazo tempo plazo término period time|dano danos prejuízo prejuízos daño daños perjuicio harm damage|
    indenização reparação ressarcimento indemnización reparación compensation|autorização licença permissão
    autorización licencia permiso authorization permission license|juiz juíza tribunal magistrado juez jueza judge
    court|judicial judiciária judiciário jurisdicional judge court|menor menores criança crianças niño niños minor
    minors child children|pais genitores padres parents|cidadão cidadãos ciudadano ciudadanos citizen citizens""")
)
"""Groups of words that say the same in one slot (``cabe``/``compete``, ``garante``/``assegura``):
a claim that puts one where the passage has another has not swapped anything."""
