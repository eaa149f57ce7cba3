"""What the report says in English, Portuguese and Spanish: every reason flag, warning kind,
finding kind, judge verdict and cue, each with a short sentence and a tooltip.

Data only (:mod:`ipsis.report.messages` reads it). Each entry is ``{lang: (sentence, tooltip)}``.
"""

from __future__ import annotations

Entry = dict[str, tuple[str, str]]

FLAGS: dict[str, Entry] = {
    "number_changed": {
        "en": ("a number differs", "A number, date, unit or amount in the quote is not the source's: refused."),
        "pt": ("um número difere", "Um número, data, unidade ou valor da citação não é o da fonte: recusada."),
        "es": ("un número difiere", "Un número, fecha, unidad o importe de la cita no es el de la fuente: rechazada."),
    },
    "negation_changed": {
        "en": ("a negation was added or dropped", "The quote and the source differ by a negation (not, never…)."),
        "pt": (
            "uma negação foi acrescentada ou retirada",
            "A citação e a fonte diferem por uma negação (não, nunca…).",
        ),
        "es": ("se añadió o quitó una negación", "La cita y la fuente difieren en una negación (no, nunca…)."),
    },
    "limiter_dropped": {
        "en": (
            "a limiting clause was dropped",
            "The source limits the rule (unless, except, provided that…); the quote leaves it out.",
        ),
        "pt": ("uma ressalva foi omitida", "A fonte limita a regra (salvo, exceto, desde que…); a citação a omite."),
        "es": ("se omitió una salvedad", "La fuente limita la regla (salvo, excepto, siempre que…); la cita la omite."),
    },
    "limiter_changed": {
        "en": ("a limiting clause differs", "The quote's limiter (unless, except…) is not the source's."),
        "pt": ("uma ressalva difere", "A ressalva da citação (salvo, exceto…) não é a da fonte."),
        "es": ("una salvedad difiere", "La salvedad de la cita (salvo, excepto…) no es la de la fuente."),
    },
    "modality_changed": {
        "en": ("the modality differs", "Must / may / shall differ: an obligation became a permission or the reverse."),
        "pt": ("a modalidade difere", "Deverá / poderá / é vedado diferem: um dever virou faculdade ou o contrário."),
        "es": ("la modalidad difiere", "Deberá / podrá diferen: una obligación pasó a facultad o al revés."),
    },
    "truncated": {
        "en": ("a word is cut off", "The quote ends or starts inside a longer word of the source."),
        "pt": ("uma palavra está cortada", "A citação começa ou termina dentro de uma palavra mais longa da fonte."),
        "es": ("una palabra está cortada", "La cita empieza o termina dentro de una palabra más larga de la fuente."),
    },
    "ocr_noise": {
        "en": ("OCR confusions only", "The words differ only by letters OCR confuses (rn/m, l/1, O/0)."),
        "pt": ("só confusões de OCR", "As palavras diferem só em letras que o OCR confunde (rn/m, l/1, O/0)."),
        "es": ("solo confusiones de OCR", "Las palabras difieren solo en letras que el OCR confunde (rn/m, l/1, O/0)."),
    },
    "words_changed": {
        "en": ("words differ", "Some words of the quote are not the source's words."),
        "pt": ("palavras diferem", "Algumas palavras da citação não são as da fonte."),
        "es": ("palabras difieren", "Algunas palabras de la cita no son las de la fuente."),
    },
    "punctuation_changed": {
        "en": ("punctuation differs", "Only punctuation differs between the quote and the source."),
        "pt": ("a pontuação difere", "Só a pontuação difere entre a citação e a fonte."),
        "es": ("la puntuación difiere", "Solo la puntuación difiere entre la cita y la fuente."),
    },
    "case_only": {
        "en": (
            "only letter case differs",
            "The text is there with other capitals; the policy does not accept case changes.",
        ),
        "pt": (
            "só maiúsculas/minúsculas diferem",
            "O texto está lá com outras maiúsculas; a política não aceita essa diferença.",
        ),
        "es": (
            "solo mayúsculas/minúsculas difieren",
            "El texto está con otras mayúsculas; la política no acepta esa diferencia.",
        ),
    },
    "accents_only": {
        "en": ("only accents differ", "The text is there with other accents; the policy does not accept that."),
        "pt": ("só os acentos diferem", "O texto está lá com outros acentos; a política não aceita essa diferença."),
        "es": ("solo los acentos difieren", "El texto está con otros acentos; la política no acepta esa diferencia."),
    },
    "ordinals_only": {
        "en": ("only ordinal signs differ", "º ª ° o after numbers differ; the policy does not accept that."),
        "pt": (
            "só os sinais ordinais diferem",
            "º ª ° o depois de números diferem; a política não aceita essa diferença.",
        ),
        "es": (
            "solo los signos ordinales difieren",
            "º ª ° o tras números difieren; la política no acepta esa diferencia.",
        ),
    },
    "inside_token": {
        "en": ("only inside a longer word", "The quote occurs only inside a longer word or number of the source."),
        "pt": ("só dentro de uma palavra maior", "A citação só ocorre dentro de uma palavra ou número maior da fonte."),
        "es": (
            "solo dentro de una palabra mayor",
            "La cita solo aparece dentro de una palabra o número mayor de la fuente.",
        ),
    },
    "near_miss": {
        "en": ("near miss", "A passage close to the quote, but not the same words."),
        "pt": ("quase igual", "Um trecho próximo da citação, mas não com as mesmas palavras."),
        "es": ("casi igual", "Un pasaje cercano a la cita, pero no con las mismas palabras."),
    },
    "elided_negation": {
        "en": ("the elision hides a negation", "The text left out at […] holds a negation, which changes the meaning."),
        "pt": ("a elisão esconde uma negação", "O texto omitido em […] contém uma negação, o que muda o sentido."),
        "es": (
            "la elisión oculta una negación",
            "El texto omitido en […] contiene una negación, lo que cambia el sentido.",
        ),
    },
    "elided_limiter": {
        "en": (
            "the elision hides a limiter",
            "The text left out at […] holds a limiting clause, which changes the meaning.",
        ),
        "pt": ("a elisão esconde uma ressalva", "O texto omitido em […] contém uma ressalva, o que muda o sentido."),
        "es": (
            "la elisión oculta una salvedad",
            "El texto omitido en […] contiene una salvedad, lo que cambia el sentido.",
        ),
    },
    "elided_number": {
        "en": ("the elision hides a number", "The text left out at […] holds a number the quote no longer says."),
        "pt": ("a elisão esconde um número", "O texto omitido em […] contém um número, que a citação deixa de dizer."),
        "es": ("la elisión oculta un número", "El texto omitido en […] contiene un número, que la cita deja de decir."),
    },
    "elided_condition": {
        "en": (
            "the elision hides a condition",
            "The text left out at […] holds a condition, so the quote reads as a rule without it.",
        ),
        "pt": (
            "a elisão esconde uma condição",
            "O texto omitido em […] contém uma condição; a citação lê-se como regra sem ela.",
        ),
        "es": (
            "la elisión oculta una condición",
            "El texto omitido en […] contiene una condición; la cita se lee como regla sin ella.",
        ),
    },
    "fragments_out_of_order": {
        "en": ("fragments out of order", "The quoted fragments are in the source, but in another order."),
        "pt": ("fragmentos fora de ordem", "Os fragmentos citados estão na fonte, mas noutra ordem."),
        "es": ("fragmentos desordenados", "Los fragmentos citados están en la fuente, pero en otro orden."),
    },
    "fragments_far_apart": {
        "en": ("fragments far apart", "The quoted fragments are too far apart in the source to be one passage."),
        "pt": ("fragmentos distantes", "Os fragmentos citados estão longe demais na fonte para serem um só trecho."),
        "es": ("fragmentos alejados", "Los fragmentos citados están demasiado lejos en la fuente para ser un pasaje."),
    },
    "fragments_different_sections": {
        "en": ("fragments in different sections", "The quoted fragments come from different sections of the source."),
        "pt": (
            "fragmentos em dispositivos diferentes",
            "Os fragmentos citados vêm de dispositivos diferentes da fonte.",
        ),
        "es": (
            "fragmentos en preceptos distintos",
            "Los fragmentos citados vienen de preceptos distintos de la fuente.",
        ),
    },
}
"""Reason flags of a near miss (``nearest.reasons[].flag``, ``nearest.reason``)."""

KINDS: dict[str, Entry] = {
    # warnings on a result
    "context_not_found": {
        "en": ("context not found", "The prefix/suffix given with the quote is not around the place found."),
        "pt": ("contexto não encontrado", "O prefixo/sufixo dado com a citação não está em volta do lugar encontrado."),
        "es": ("contexto no encontrado", "El prefijo/sufijo dado con la cita no está alrededor del lugar hallado."),
    },
    "section_unchecked": {
        "en": (
            "cited section partly checked",
            "Part of the cited reference could not be checked; the quote was checked against the enclosing section.",
        ),
        "pt": (
            "dispositivo citado verificado em parte",
            "Parte da referência citada não pôde ser verificada; a citação foi verificada no dispositivo que a contém.",
        ),
        "es": (
            "precepto citado comprobado en parte",
            "Parte de la referencia citada no pudo comprobarse; la cita se comprobó en el precepto que la contiene.",
        ),
    },
    "subdivision_end_uncertain": {
        "en": (
            "end of the cited item not marked",
            "The quote is past the first paragraph of the last item of a list whose end nothing marks; "
            "it may be the enclosing article's own text, printed after the list.",
        ),
        "pt": (
            "fim do item citado não marcado",
            "A citação está depois do primeiro parágrafo do último item de uma lista cujo fim nada marca; "
            "pode ser texto do próprio artigo, impresso depois da lista.",
        ),
        "es": (
            "final del elemento citado no marcado",
            "La cita está después del primer párrafo del último elemento de una lista cuyo final nada marca; "
            "puede ser texto del propio artículo, impreso después de la lista.",
        ),
    },
    "revoked": {
        "en": ("revoked text", "The quoted text is struck out or marked revoked in this source."),
        "pt": ("texto revogado", "O texto citado está riscado ou marcado como revogado nesta fonte."),
        "es": ("texto derogado", "El texto citado está tachado o marcado como derogado en esta fuente."),
    },
    "truncated_before_limiter": {
        "en": ("stops before a limiter", "The quote ends right before a limiting clause of the same sentence."),
        "pt": ("para antes de uma ressalva", "A citação termina logo antes de uma ressalva da mesma frase."),
        "es": ("se detiene antes de una salvedad", "La cita termina justo antes de una salvedad de la misma oración."),
    },
    "newer_version": {
        "en": (
            "a newer version exists",
            "The store holds a newer version of the cited source; the cited one was used.",
        ),
        "pt": ("existe uma versão mais nova", "O acervo tem uma versão mais nova da fonte citada; foi usada a citada."),
        "es": (
            "existe una versión más nueva",
            "El almacén tiene una versión más nueva de la fuente citada; se usó la citada.",
        ),
    },
    "unknown_field": {
        "en": ("a field ipsis does not read", "The record has a field ipsis ignores (a misspelled name?)."),
        "pt": ("um campo que o ipsis não lê", "O registro tem um campo que o ipsis ignora (nome com erro?)."),
        "es": ("un campo que ipsis no lee", "El registro tiene un campo que ipsis ignora (¿nombre mal escrito?)."),
    },
    "outside_cited_lines": {
        "en": ("outside the cited lines", "The quote is in the file, but not in the lines the citation names."),
        "pt": ("fora das linhas citadas", "A citação está no arquivo, mas não nas linhas indicadas."),
        "es": ("fuera de las líneas citadas", "La cita está en el archivo, pero no en las líneas indicadas."),
    },
    "not_judged": {
        "en": ("claim not judged", "The quote was not located, so its claim was not judged."),
        "pt": ("afirmação não avaliada", "A citação não foi localizada, por isso a afirmação não foi avaliada."),
        "es": ("afirmación no evaluada", "La cita no se localizó, así que su afirmación no se evaluó."),
    },
    "not_carried": {
        "en": ("not carried over", "The citation could not be re-anchored in the other version."),
        "pt": ("não transportada", "A citação não pôde ser reancorada na outra versão."),
        "es": ("no trasladada", "La cita no pudo reanclarse en la otra versión."),
    },
    # findings of a checked answer
    "quote_not_found": {
        "en": ("quote not found", "A quote in the answer is not in the source it cites."),
        "pt": ("citação não encontrada", "Uma citação da resposta não está na fonte que indica."),
        "es": ("cita no encontrada", "Una cita de la respuesta no está en la fuente que indica."),
    },
    "quote_ambiguous": {
        "en": ("quote ambiguous", "The quote is in several places of its source."),
        "pt": ("citação ambígua", "A citação está em vários lugares da fonte."),
        "es": ("cita ambigua", "La cita está en varios lugares de la fuente."),
    },
    "quote_revoked": {
        "en": ("quote of revoked text", "The quote is only in text its source prints as revoked."),
        "pt": ("citação de texto revogado", "A citação só está em texto que a fonte traz como revogado."),
        "es": ("cita de texto derogado", "La cita solo está en texto que la fuente presenta como derogado."),
    },
    "quote_too_short": {
        "en": ("quote too short", "The quote is below the minimum length to count as a quote."),
        "pt": ("citação curta demais", "A citação está abaixo do comprimento mínimo."),
        "es": ("cita demasiado corta", "La cita está por debajo de la longitud mínima."),
    },
    "quote_empty": {
        "en": ("empty quote", "The citation carries an empty quote."),
        "pt": ("citação vazia", "A citação vem vazia."),
        "es": ("cita vacía", "La cita viene vacía."),
    },
    "unknown_source": {
        "en": ("unknown source", "The citation names no source that was sent."),
        "pt": ("fonte desconhecida", "A citação indica uma fonte que não foi enviada."),
        "es": ("fuente desconocida", "La cita indica una fuente que no se envió."),
    },
    "unresolved_citation": {
        "en": ("unresolved citation", "A citation marker could not be tied to a source."),
        "pt": ("citação não resolvida", "Um marcador de citação não pôde ser ligado a uma fonte."),
        "es": ("cita no resuelta", "Un marcador de cita no pudo vincularse a una fuente."),
    },
    "uncited_sentence": {
        "en": ("sentence without a citation", "A sentence of the answer cites no source."),
        "pt": ("frase sem citação", "Uma frase da resposta não cita nenhuma fonte."),
        "es": ("oración sin cita", "Una oración de la respuesta no cita ninguna fuente."),
    },
    "unused_source": {
        "en": ("source never cited", "A source sent to the model is never cited in the answer."),
        "pt": ("fonte nunca citada", "Uma fonte enviada ao modelo nunca é citada na resposta."),
        "es": ("fuente nunca citada", "Una fuente enviada al modelo nunca se cita en la respuesta."),
    },
    "no_citations": {
        "en": ("no citations", "The answer cites no source at all."),
        "pt": ("nenhuma citação", "A resposta não cita fonte nenhuma."),
        "es": ("ninguna cita", "La respuesta no cita ninguna fuente."),
    },
    "no_information_conflict": {
        "en": ("no-information flag conflicts", "sin_informacion does not agree with the claims made."),
        "pt": ("indicação sem informação contraditória", "sin_informacion não concorda com as afirmações feitas."),
        "es": ("indicador sin información contradictorio", "sin_informacion no concuerda con las afirmaciones hechas."),
    },
    "offset_mismatch": {
        "en": ("offsets do not match", "The offsets the provider gave do not point at the quoted text."),
        "pt": ("posições não conferem", "As posições dadas pelo provedor não apontam para o texto citado."),
        "es": ("posiciones no coinciden", "Las posiciones dadas por el proveedor no apuntan al texto citado."),
    },
    "stream_error": {
        "en": ("stream error", "The provider's stream reported an error."),
        "pt": ("erro no stream", "O stream do provedor reportou um erro."),
        "es": ("error en el stream", "El stream del proveedor informó un error."),
    },
    "truncated": {
        "en": ("answer cut off", "The answer stopped before its end (length limit or missing final event)."),
        "pt": ("resposta cortada", "A resposta parou antes do fim (limite de tamanho ou evento final em falta)."),
        "es": (
            "respuesta cortada",
            "La respuesta se detuvo antes del final (límite de longitud o falta el evento final).",
        ),
    },
    "claim_contradicted": {
        "en": ("claim contradicted", "The judge found the cited passage says otherwise."),
        "pt": ("afirmação contrariada", "A avaliação concluiu que o trecho citado diz outra coisa."),
        "es": ("afirmación contradicha", "La evaluación concluyó que el pasaje citado dice otra cosa."),
    },
    "claim_unsupported": {
        "en": ("claim unsupported", "The judge found nothing in the cited passage that supports the claim."),
        "pt": ("afirmação sem suporte", "A avaliação não achou no trecho citado nada que sustente a afirmação."),
        "es": (
            "afirmación sin respaldo",
            "La evaluación no halló en el pasaje citado nada que respalde la afirmación.",
        ),
    },
    "claim_needs_review": {
        "en": ("claim needs review", "The judge could not decide; a person should read the passage."),
        "pt": ("afirmação a rever", "A avaliação não decidiu; uma pessoa deve ler o trecho."),
        "es": ("afirmación por revisar", "La evaluación no decidió; una persona debe leer el pasaje."),
    },
}
"""Warning kinds (``warnings[].kind``) and finding kinds (``findings[].kind``)."""

VERDICTS: dict[str, Entry] = {
    "supported": {
        "en": ("supported", "The passage says what the claim says."),
        "pt": ("sustentada", "O trecho diz o que a afirmação diz."),
        "es": ("respaldada", "El pasaje dice lo que dice la afirmación."),
    },
    "contradicted": {
        "en": ("contradicted", "The passage says otherwise."),
        "pt": ("contrariada", "O trecho diz outra coisa."),
        "es": ("contradicha", "El pasaje dice otra cosa."),
    },
    "no_support": {
        "en": ("no support", "Nothing in the passage supports the claim."),
        "pt": ("sem suporte", "Nada no trecho sustenta a afirmação."),
        "es": ("sin respaldo", "Nada en el pasaje respalda la afirmación."),
    },
    "needs_review": {
        "en": ("needs review", "The judge could not decide; read the passage."),
        "pt": ("a rever", "A avaliação não decidiu; leia o trecho."),
        "es": ("por revisar", "La evaluación no decidió; lea el pasaje."),
    },
}

CUES: dict[str, Entry] = {
    "condition": {
        "en": ("condition", "A condition, manner or purpose of the passage that the claim drops or overrides."),
        "pt": ("condição", "Uma condição, modo ou finalidade do trecho que a afirmação omite ou contraria."),
        "es": ("condición", "Una condición, modo o finalidad del pasaje que la afirmación omite o contradice."),
    },
    "quantifier": {
        "en": ("quantifier", "All, none or some: the claim's quantifier against the passage's."),
        "pt": ("quantificador", "Todos, nenhum ou alguns: o quantificador da afirmação contra o do trecho."),
        "es": ("cuantificador", "Todos, ninguno o algunos: el cuantificador de la afirmación frente al del pasaje."),
    },
    "number": {
        "en": ("number", "Numbers, dates, units and periods of the claim compared with the passage."),
        "pt": ("número", "Números, datas, unidades e prazos da afirmação comparados com o trecho."),
        "es": ("número", "Números, fechas, unidades y plazos de la afirmación comparados con el pasaje."),
    },
    "negation": {
        "en": ("negation", "A negation in one and not in the other."),
        "pt": ("negação", "Uma negação num e não no outro."),
        "es": ("negación", "Una negación en uno y no en el otro."),
    },
    "modality": {
        "en": ("modality", "Must / may / shall in the claim against the passage."),
        "pt": ("modalidade", "Deverá / poderá / é vedado na afirmação contra o trecho."),
        "es": ("modalidad", "Deberá / podrá en la afirmación contra el pasaje."),
    },
    "limiter": {
        "en": ("limiter", "A limiting clause (unless, except, provided that) in one and not the other."),
        "pt": ("ressalva", "Uma ressalva (salvo, exceto, desde que) num e não no outro."),
        "es": ("salvedad", "Una salvedad (salvo, excepto, siempre que) en uno y no en el otro."),
    },
    "scope": {
        "en": ("scope", "The claim covers more or less than the passage does."),
        "pt": ("alcance", "A afirmação abrange mais ou menos do que o trecho."),
        "es": ("alcance", "La afirmación abarca más o menos que el pasaje."),
    },
    "bound": {
        "en": ("bound", "An upper or lower bound (up to, at least) differs."),
        "pt": ("limite", "Um limite máximo ou mínimo (até, pelo menos) difere."),
        "es": ("límite", "Un límite máximo o mínimo (hasta, al menos) difiere."),
    },
    "actor": {
        "en": ("actor", "Who must act differs between the claim and the passage."),
        "pt": ("sujeito", "Quem deve agir difere entre a afirmação e o trecho."),
        "es": ("sujeto", "Quién debe actuar difiere entre la afirmación y el pasaje."),
    },
    "roles": {
        "en": ("roles", "The claim swaps who does what to whom."),
        "pt": ("papéis", "A afirmação troca quem faz o quê a quem."),
        "es": ("papeles", "La afirmación intercambia quién hace qué a quién."),
    },
    "words": {
        "en": ("words", "The claim's words sit in other places of the passage."),
        "pt": ("palavras", "As palavras da afirmação estão noutros lugares do trecho."),
        "es": ("palabras", "Las palabras de la afirmación están en otros lugares del pasaje."),
    },
    "opposite": {
        "en": ("opposite", "The claim uses the opposite word of the passage's."),
        "pt": ("oposto", "A afirmação usa a palavra oposta à do trecho."),
        "es": ("opuesto", "La afirmación usa la palabra opuesta a la del pasaje."),
    },
    "name": {
        "en": ("name", "A name of the claim is not in the passage."),
        "pt": ("nome", "Um nome da afirmação não está no trecho."),
        "es": ("nombre", "Un nombre de la afirmación no está en el pasaje."),
    },
    "overlap": {
        "en": ("overlap", "How many of the claim's content words are in the passage."),
        "pt": ("sobreposição", "Quantas palavras de conteúdo da afirmação estão no trecho."),
        "es": ("solapamiento", "Cuántas palabras de contenido de la afirmación están en el pasaje."),
    },
    "fitted": {
        "en": ("fitted score", "The cues combined by weights fitted on hand-written claims: the support score and "
               "the features that moved it most."),
        "pt": ("pontuação ajustada", "As pistas combinadas por pesos ajustados em afirmações escritas à mão: a "
               "pontuação de suporte e as características que mais a moveram."),
        "es": ("puntuación ajustada", "Las pistas combinadas por pesos ajustados en afirmaciones escritas a mano: la "
               "puntuación de respaldo y los rasgos que más la movieron."),
    },
    "retrieval": {
        "en": ("retrieval", "How the passage for a citation without a quote was found."),
        "pt": ("recuperação", "Como foi achado o trecho de uma citação sem transcrição."),
        "es": ("recuperación", "Cómo se halló el pasaje de una cita sin transcripción."),
    },
    "nli": {
        "en": ("NLI model", "The verdict of the local natural-language-inference model."),
        "pt": ("modelo NLI", "O veredito do modelo local de inferência."),
        "es": ("modelo NLI", "El veredicto del modelo local de inferencia."),
    },
    "llm": {
        "en": ("LLM", "The reason the language-model judge gave."),
        "pt": ("LLM", "A razão dada pelo modelo de linguagem."),
        "es": ("LLM", "La razón dada por el modelo de lenguaje."),
    },
}
"""Cue names at the head of a judge's evidence line (``limiter: claim: …; section: …``)."""

FEATURE_WORDS: dict[str, dict[str, str]] = {
    "claim words in the quote's sentences": {"pt": "palavras da afirmação nas frases da citação",
                                             "es": "palabras de la afirmación en las oraciones de la cita"},
    "claim words in the section": {"pt": "palavras da afirmação no trecho",
                                   "es": "palabras de la afirmación en el pasaje"},
    "claim words in the quote": {"pt": "palavras da afirmação na citação",
                                 "es": "palabras de la afirmación en la cita"},
    "quote's sentences restated by the claim": {"pt": "frases da citação retomadas pela afirmação",
                                                "es": "oraciones de la cita retomadas por la afirmación"},
    "word order kept": {"pt": "ordem das palavras mantida", "es": "orden de las palabras mantenido"},
    "claim words the section lacks": {"pt": "palavras da afirmação que faltam no trecho",
                                      "es": "palabras de la afirmación que faltan en el pasaje"},
    "hand rules' score": {"pt": "pontuação das regras", "es": "puntuación de las reglas"},
    "number of cues": {"pt": "número de pistas", "es": "número de pistas"},
    "against": {"pt": "contra", "es": "en contra"},
    "for": {"pt": "a favor", "es": "a favor"},
    "hard {} cue": {"pt": "pista forte de {}", "es": "pista fuerte de {}"},
    "{} cue": {"pt": "pista de {}", "es": "pista de {}"},
    "no hard {} cue": {"pt": "nenhuma pista forte de {}", "es": "ninguna pista fuerte de {}"},
    "no {} cue": {"pt": "nenhuma pista de {}", "es": "ninguna pista de {}"},
}
"""The fitted combination's features in words (:func:`ipsis.judge.fitted.words_for`); ``{}`` is a cue's name."""

JUDGES: dict[str, dict[str, str]] = {
    "cues": {"en": "deterministic cues", "pt": "pistas determinísticas", "es": "pistas deterministas"},
    "nli": {"en": "local NLI model", "pt": "modelo NLI local", "es": "modelo NLI local"},
    "llm": {"en": "language model", "pt": "modelo de linguagem", "es": "modelo de lenguaje"},
}

CARRIED: dict[str, Entry] = {
    "unchanged": {
        "en": ("unchanged", "The quoted words are in the other version, in the same section."),
        "pt": ("inalterada", "As palavras citadas estão na outra versão, no mesmo dispositivo."),
        "es": ("sin cambios", "Las palabras citadas están en la otra versión, en el mismo precepto."),
    },
    "amended": {
        "en": ("amended", "The section is in the other version with other words."),
        "pt": ("alterada", "O dispositivo está na outra versão com outras palavras."),
        "es": ("modificada", "El precepto está en la otra versión con otras palabras."),
    },
    "revoked": {
        "en": ("revoked", "The section is revoked in the other version."),
        "pt": ("revogada", "O dispositivo está revogado na outra versão."),
        "es": ("derogada", "El precepto está derogado en la otra versión."),
    },
    "moved": {
        "en": ("moved", "The quoted words are in the other version, in another section."),
        "pt": ("deslocada", "As palavras citadas estão na outra versão, noutro dispositivo."),
        "es": ("trasladada", "Las palabras citadas están en la otra versión, en otro precepto."),
    },
    "gone": {
        "en": ("gone", "Neither the words nor the section are in the other version."),
        "pt": ("desaparecida", "Nem as palavras nem o dispositivo estão na outra versão."),
        "es": ("desaparecida", "Ni las palabras ni el precepto están en la otra versión."),
    },
}
"""What ``verify --carry-to`` says of a citation in another version (``carried.status``)."""
