"""The library's English result messages in the report's language (en, pt, es), at render time.

The JSON keeps ``message`` in English; the HTML report and the table translate it here, clause
by clause (clauses are joined by ``"; "``), through a catalogue keyed by the message templates
the library writes (:mod:`ipsis.verify`, :mod:`ipsis.answers`, :mod:`ipsis.judge`, the store).
Quoted words, ids, numbers and offsets pass through unchanged. A clause no template knows stays
in English and is marked as such (:func:`translate_parts` says which).

Group names in a template choose how a captured value is shown: ``t_*`` is itself a message
(translated again), ``f_*`` a reason flag, ``w_*`` a tier's words, ``c_*`` a list of flags with
their words; anything else is copied.

>>> translate("located once (typography differs)", "pt")
'localizada uma vez (a tipografia difere)'
>>> translate("7 places match; add the prefix/suffix of one of them to choose", "es")
'7 lugares coinciden; añada el prefijo/sufijo de uno de ellos para elegir'
>>> translate("not found; nearest passage at offset 5 (similarity 0.97): number_changed (quote 60, source 30)", "pt")
'não encontrada; trecho mais próximo na posição 5 (semelhança 0.97): um número difere (citação 60, fonte 30)'
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import regex

from ipsis.report.catalogue import CUES, FEATURE_WORDS, FLAGS, JUDGES, KINDS, VERDICTS, Entry

LANGS = ("en", "pt", "es")

TIER_WORDS: dict[str, dict[str, str]] = {
    "exactly": {"pt": "exatamente", "es": "exactamente"},
    "whitespace differs": {"pt": "os espaços diferem", "es": "los espacios difieren"},
    "typography differs": {"pt": "a tipografia difere", "es": "la tipografía difiere"},
    "differs in case": {"pt": "difere em maiúsculas/minúsculas", "es": "difiere en mayúsculas/minúsculas"},
    "differs in accents": {"pt": "difere nos acentos", "es": "difiere en los acentos"},
    "differs in ordinal signs": {"pt": "difere nos sinais ordinais", "es": "difiere en los signos ordinales"},
    "differs by OCR confusions": {"pt": "difere por confusões de OCR", "es": "difiere por confusiones de OCR"},
}
TIER_NAMES: dict[str, dict[str, str]] = {
    "exact": {"pt": "exata", "es": "exacta"},
    "whitespace": {"pt": "espaços", "es": "espacios"},
    "typography": {"pt": "tipografia", "es": "tipografía"},
    "case": {"pt": "maiúsculas", "es": "mayúsculas"},
    "accents": {"pt": "acentos", "es": "acentos"},
    "ordinals": {"pt": "ordinais", "es": "ordinales"},
    "ocr": {"pt": "OCR", "es": "OCR"},
}
"""The normalization tiers' names (DESIGN.md), as a person reads them."""
_SIDE_WORDS = {"prefix": {"pt": "prefixo", "es": "prefijo"}, "suffix": {"pt": "sufixo", "es": "sufijo"},
               "and": {"pt": "e", "es": "y"}}
_SIDE = regex.compile(r"^(prefix|suffix)(?= )|(?<=' )(and)(?= suffix )|(?<=' and )(suffix)(?= )")
_TIER_ALT = "|".join(regex.escape(w) for w in sorted(TIER_WORDS, key=len, reverse=True))
_NUM = r"\d+"

# (English pattern, {lang: template}); the pattern matches one clause (or, with a trailing
# group, the rest of the message). Order matters: the first pattern that matches wins.
_T: list[tuple[str, dict[str, str]]] = [
    (r"located once \((?P<w_t>" + _TIER_ALT + r")\)", {
        "pt": "localizada uma vez ({w_t})", "es": "localizada una vez ({w_t})"}),
    (r"located once in (?P<n>\d+) fragments, in order, eliding (?P<m>\d+) characters", {
        "pt": "localizada uma vez em {n} fragmentos, em ordem, omitindo {m} caracteres",
        "es": "localizada una vez en {n} fragmentos, en orden, omitiendo {m} caracteres"}),
    (r"accepted because the policy allows it", {
        "pt": "aceita porque a política o permite", "es": "aceptada porque la política lo permite"}),
    (r"it stops right before a limiting clause", {
        "pt": "termina logo antes de uma ressalva", "es": "termina justo antes de una salvedad"}),
    (r"the quote stops right before a limiting clause of the same sentence: (?P<x>.*)", {
        "pt": "a citação termina logo antes de uma ressalva da mesma frase: {x}",
        "es": "la cita termina justo antes de una salvedad de la misma oración: {x}"}),
    (r"the text is revoked", {"pt": "o texto está revogado", "es": "el texto está derogado"}),
    (r"the quoted text is revoked in this source", {
        "pt": "o texto citado está revogado nesta fonte", "es": "el texto citado está derogado en esta fuente"}),
    (r"(?P<n>\d+) places match", {"pt": "{n} lugares coincidem", "es": "{n} lugares coinciden"}),
    (r"add the prefix/suffix of one of them to choose \((?P<n>\d+) of them in revoked text\)", {
        "pt": "acrescente o prefixo/sufixo de um deles para escolher ({n} deles em texto revogado)",
        "es": "añada el prefijo/sufijo de uno de ellos para elegir ({n} de ellos en texto derogado)"}),
    (r"add the prefix/suffix of one of them to choose \(too many to propose a selector for each, over (?P<n>\d+): "
     r"quote more\)", {
        "pt": "acrescente o prefixo/sufixo de um deles para escolher (são demais para propor um seletor a cada,"
              " mais de {n}: cite mais texto)",
        "es": "añada el prefijo/sufijo de uno de ellos para elegir (demasiados para proponer un selector a cada"
              " uno, más de {n}: cite más texto)"}),
    (r"add the prefix/suffix of one of them to choose \(the text repeats: no context under the cap singles every "
     r"place out\)", {
        "pt": "acrescente o prefixo/sufixo de um deles para escolher (o texto se repete: nenhum contexto dentro"
              " do limite distingue cada lugar)",
        "es": "añada el prefijo/sufijo de uno de ellos para elegir (el texto se repite: ningún contexto dentro"
              " del límite distingue cada lugar)"}),
    (r"add the prefix/suffix of one of them to choose", {
        "pt": "acrescente o prefixo/sufixo de um deles para escolher",
        "es": "añada el prefijo/sufijo de uno de ellos para elegir"}),
    (r"(?P<n>\d+) readings of the elided quote are as close", {
        "pt": "{n} leituras da citação com elisão são igualmente próximas",
        "es": "{n} lecturas de la cita con elisión son igual de cercanas"}),
    (r"found once, but (?P<n>\d+) characters is below the minimum of (?P<m>\d+)", {
        "pt": "encontrada uma vez, mas {n} caracteres estão abaixo do mínimo de {m}",
        "es": "encontrada una vez, pero {n} caracteres están por debajo del mínimo de {m}"}),
    (r"found once, but its fragments total (?P<n>\d+) characters, below the minimum of (?P<m>\d+)", {
        "pt": "encontrada uma vez, mas os fragmentos somam {n} caracteres, abaixo do mínimo de {m}",
        "es": "encontrada una vez, pero los fragmentos suman {n} caracteres, por debajo del mínimo de {m}"}),
    (r"the quote is empty after removing (?P<x>.*)", {
        "pt": "a citação fica vazia depois de retirar {x}", "es": "la cita queda vacía tras quitar {x}"}),
    (r"the quote is empty", {"pt": "a citação está vazia", "es": "la cita está vacía"}),
    (r"not found in the source", {"pt": "não encontrada na fonte", "es": "no encontrada en la fuente"}),
    (r"not found in the cited section (?P<l>.*?); it is in (?P<w>.*)", {
        "pt": "não encontrada no dispositivo citado {l}; está em {w}",
        "es": "no encontrada en el precepto citado {l}; está en {w}"}),
    (r"'(?P<x>[^']*)' in the reference was not read", {
        "pt": "'{x}' na referência não foi lido", "es": "'{x}' en la referencia no se leyó"}),
    (r"(?P<d>\S+) is not split into (?P<k>.*?): checked against (?P<s>.*) as a whole", {
        "pt": "{d} não está dividido em {k}: verificado em {s} como um todo",
        "es": "{d} no está dividido en {k}: comprobado en {s} en su conjunto"}),
    (r"not found with the given context: (?P<t_x>.*)", {
        "pt": "não encontrada com o contexto dado: {t_x}", "es": "no encontrada con el contexto dado: {t_x}"}),
    (r"not found as whole words", {
        "pt": "não encontrada como palavras inteiras", "es": "no encontrada como palabras completas"}),
    (r"it occurs only inside a longer word or number at offset (?P<o>\d+) \((?P<x>.*)\)", {
        "pt": "só ocorre dentro de uma palavra ou número maior, na posição {o} ({x})",
        "es": "solo aparece dentro de una palabra o número mayor, en la posición {o} ({x})"}),
    (r"not found as quoted", {"pt": "não encontrada tal como citada", "es": "no encontrada tal como se cita"}),
    (r"the elided text holds (?P<x>.*), which changes the meaning", {
        "pt": "o texto omitido contém {x}, o que muda o sentido",
        "es": "el texto omitido contiene {x}, lo que cambia el sentido"}),
    (r"fragments (?P<a>\d+) and (?P<b>\d+) are in the source in the other order", {
        "pt": "os fragmentos {a} e {b} estão na fonte na ordem inversa",
        "es": "los fragmentos {a} y {b} están en la fuente en el orden inverso"}),
    (r"the fragments are (?P<n>\d+) characters apart \(the bound is (?P<m>\d+)\)", {
        "pt": "os fragmentos estão a {n} caracteres um do outro (o limite é {m})",
        "es": "los fragmentos están a {n} caracteres entre sí (el límite es {m})"}),
    (r"the fragments are in different sections of the source", {
        "pt": "os fragmentos estão em dispositivos diferentes da fonte",
        "es": "los fragmentos están en preceptos distintos de la fuente"}),
    (r"not found", {"pt": "não encontrada", "es": "no encontrada"}),
    (r"(?P<w_t>" + _TIER_ALT + r") at offset (?P<o>\d+)(?: \(line (?P<l>\d+)\))? \(tier (?P<r_t>\w+) is not accepted "
     r"by the policy\)", {
        "pt": "{w_t} na posição {o}{l?, linha } (o nível {r_t} não é aceito pela política)",
        "es": "{w_t} en la posición {o}{l?, línea } (la política no acepta el nivel {r_t})"}),
    (r"(?P<w_t>" + _TIER_ALT + r") at offset (?P<o>\d+)(?: \(line (?P<l>\d+)\))?", {
        "pt": "{w_t} na posição {o}{l?, linha }", "es": "{w_t} en la posición {o}{l?, línea }"}),
    (r"(?P<n>\d+) places \(tier (?P<r_t>\w+) is not accepted by the policy\)", {
        "pt": "{n} lugares (o nível {r_t} não é aceito pela política)",
        "es": "{n} lugares (la política no acepta el nivel {r_t})"}),
    (r"nearest passage at offset (?P<o>\d+) \(similarity (?P<s>[\d.]+)\): (?P<c_x>.*?)", {
        "pt": "trecho mais próximo na posição {o} (semelhança {s}): {c_x}",
        "es": "pasaje más cercano en la posición {o} (similitud {s}): {c_x}"}),
    (r"(?P<n>\d+) places are as near", {
        "pt": "{n} lugares estão igualmente próximos", "es": "{n} lugares están igual de cerca"}),
    (r"the given (?P<s_x>.*) is not around (?:the place|any of the (?P<n>\d+) places)", {
        "pt": "o {s_x} dado não está em volta {n?de nenhum dos | lugares}{n!do lugar}",
        "es": "el {s_x} dado no está alrededor {n?de ninguno de los | lugares}{n!del lugar}"}),
    (r"the place whose context is most alike was chosen \(score (?P<s>[\d.]+)\)", {
        "pt": "foi escolhido o lugar de contexto mais parecido (pontuação {s})",
        "es": "se eligió el lugar de contexto más parecido (puntuación {s})"}),
    (r"it is in an older wording \(block (?P<x>[^)]*)\), not in the text in force: cite (?P<c>\S+)", {
        "pt": "está numa redação anterior (bloco {x}), não no texto em vigor: cite {c}",
        "es": "está en una redacción anterior (bloque {x}), no en el texto vigente: cite {c}"}),
    (r"no place's context is alike enough, so none was chosen", {
        "pt": "nenhum lugar tem contexto parecido o bastante, por isso nenhum foi escolhido",
        "es": "ningún lugar tiene un contexto lo bastante parecido, así que no se eligió ninguno"}),
    (r"unknown source (?P<x>.*)", {"pt": "fonte desconhecida {x}", "es": "fuente desconocida {x}"}),
    (r"record (?P<n>\d+) is (?P<x>\w+), expected an object with citation_id, source_id and quote", {
        "pt": "o registro {n} é {x}; esperava-se um objeto com citation_id, source_id e quote",
        "es": "el registro {n} es {x}; se esperaba un objeto con citation_id, source_id y quote"}),
    (r"record (?P<n>\d+): field (?P<f>'[^']*') is missing", {
        "pt": "registro {n}: falta o campo {f}", "es": "registro {n}: falta el campo {f}"}),
    (r"record (?P<n>\d+): field (?P<f>'[^']*') must be (?P<a>.*), got (?P<b>.*)", {
        "pt": "registro {n}: o campo {f} deve ser {a}, veio {b}",
        "es": "registro {n}: el campo {f} debe ser {a}, vino {b}"}),
    (r"record (?P<n>\d+): field (?P<f>'[^']*'): (?P<x>.*)", {
        "pt": "registro {n}: campo {f}: {x}", "es": "registro {n}: campo {f}: {x}"}),
    (r"found elsewhere, in (?P<x>.*)", {"pt": "encontrada em outro lugar: {x}", "es": "encontrada en otro lugar: {x}"}),
    (r"cite a version: (?P<x>.*)", {"pt": "cite uma versão: {x}", "es": "cite una versión: {x}"}),
    (r"a newer version (?P<x>\S+) exists", {
        "pt": "existe uma versão mais nova, {x}", "es": "existe una versión más nueva, {x}"}),
    (r"the quote is at line (?P<n>\d+), outside the cited lines (?P<a>\d+)-(?P<b>\d+)", {
        "pt": "a citação está na linha {n}, fora das linhas citadas {a}-{b}",
        "es": "la cita está en la línea {n}, fuera de las líneas citadas {a}-{b}"}),
    (r"quote is (?P<x>\w+): the claim was not judged", {
        "pt": "a citação é {x}: a afirmação não foi avaliada", "es": "la cita es {x}: la afirmación no se evaluó"}),
    (r"no quote: the claim was judged against the cited lines", {
        "pt": "sem citação literal: a afirmação foi avaliada contra as linhas citadas",
        "es": "sin cita literal: la afirmación se evaluó contra las líneas citadas"}),
    (r"no quote: the claim was judged against the passage retrieved for it \(BM25\)", {
        "pt": "sem citação literal: a afirmação foi avaliada contra o trecho recuperado para ela (BM25)",
        "es": "sin cita literal: la afirmación se evaluó contra el pasaje recuperado para ella (BM25)"}),
    # findings of ipsis check
    (r"source (?P<n>\d+): (?P<t_x>.*)", {"pt": "fonte {n}: {t_x}", "es": "fuente {n}: {t_x}"}),
    (r"source (?P<n>\d+) \((?P<h>quote's section|retrieved passage)\): (?P<v>\w+) \((?P<c>[\d.]+)\)"
     r"(?:: (?P<e_x>.*))?", {
        "pt": "fonte {n} ({h}): {v} ({c}){e_x?: }", "es": "fuente {n} ({h}): {v} ({c}){e_x?: }"}),
    (r"(?P<x>.+?) names no source that was sent \(sources are numbered (?P<a>\d+)–(?P<b>\d+)\)", {
        "pt": "{x} não indica nenhuma fonte enviada (as fontes vão de {a} a {b})",
        "es": "{x} no indica ninguna fuente enviada (las fuentes van de {a} a {b})"}),
    (r"(?P<x>.+?) names no source that was sent \(no sources were given\)", {
        "pt": "{x} não indica nenhuma fonte enviada (nenhuma fonte foi dada)",
        "es": "{x} no indica ninguna fuente enviada (no se dio ninguna fuente)"}),
    (r"(?P<x>.+) names no source that was sent", {
        "pt": "{x} não indica nenhuma fonte enviada", "es": "{x} no indica ninguna fuente enviada"}),
    (r"(?P<x>.+?) is not the URL of any source sent", {
        "pt": "{x} não é a URL de nenhuma fonte enviada", "es": "{x} no es la URL de ninguna fuente enviada"}),
    (r"(?P<x>'.*') matches no source sent \(by id, file id, URL or title\)", {
        "pt": "{x} não corresponde a nenhuma fonte enviada (por id, id de arquivo, URL ou título)",
        "es": "{x} no corresponde a ninguna fuente enviada (por id, id de archivo, URL o título)"}),
    (r"sources are numbered (?P<a>\d+)–(?P<b>\d+)", {
        "pt": "as fontes vão de {a} a {b}", "es": "las fuentes van de {a} a {b}"}),
    (r"no citation: (?P<x>.*)", {"pt": "sem citação: {x}", "es": "sin cita: {x}"}),
    (r"claim (?P<n>\d+) has no citation: (?P<x>.*)", {
        "pt": "a afirmação {n} não tem citação: {x}", "es": "la afirmación {n} no tiene cita: {x}"}),
    (r"source (?P<n>\d+) \((?P<x>.*)\) is never cited", {
        "pt": "a fonte {n} ({x}) nunca é citada", "es": "la fuente {n} ({x}) nunca se cita"}),
    (r"the answer cites no source at all", {
        "pt": "a resposta não cita fonte nenhuma", "es": "la respuesta no cita ninguna fuente"}),
    (r"the answer is cut off: (?P<x>.*)", {
        "pt": "a resposta está cortada: {x}", "es": "la respuesta está cortada: {x}"}),
    (r"the stream reported an error(?: \(line (?P<l>\d+)\))?: (?P<x>.*)", {
        "pt": "o stream reportou um erro{l? (linha |)}: {x}", "es": "el stream informó un error{l? (línea |)}: {x}"}),
    (r"sin_informacion is true but the answer makes (?P<n>\d+) claim\(s\)", {
        "pt": "sin_informacion é verdadeiro, mas a resposta faz {n} afirmação(ões)",
        "es": "sin_informacion es verdadero, pero la respuesta hace {n} afirmación(es)"}),
    (r"no claims, but sin_informacion is false", {
        "pt": "nenhuma afirmação, mas sin_informacion é falso",
        "es": "ninguna afirmación, pero sin_informacion es falso"}),
    (r"retrieval: no passage of (?:the source|source (?P<n>\d+)) shares a content word with the claim", {
        "pt": "recuperação: nenhum trecho da fonte{n? | } partilha uma palavra de conteúdo com a afirmação",
        "es": "recuperación: ningún pasaje de la fuente{n? | } comparte una palabra de contenido con la afirmación"}),
]


@functools.cache
def _compiled() -> list[tuple[regex.Pattern[str], dict[str, str]]]:
    return [(regex.compile(p + r"(?=; |$)"), t) for p, t in _T]

_WORD = {
    "quote": {"pt": "citação", "es": "cita"},
    "source": {"pt": "fonte", "es": "fuente"},
    "quote's section": {"pt": "dispositivo da citação", "es": "precepto de la cita"},
    "retrieved passage": {"pt": "trecho recuperado", "es": "pasaje recuperado"},
}
_SLOT = regex.compile(r"\{(\w+)(?:([?!])([^}|]*)(?:\|([^}]*))?)?\}")
_FLAG_CLAUSE = regex.compile(r"(?P<f>[a-z_]+)(?: \((?P<w>.*)\))?")


def _entry(table: Mapping[str, Entry], key: str, lang: str) -> tuple[str, str] | None:
    e = table.get(key)
    return (e.get(lang) or e["en"]) if e else None


def flag_text(flag: str, lang: str) -> tuple[str, str]:
    """``(sentence, tooltip)`` of a reason flag; an unknown flag reads as its words."""
    return _entry(FLAGS, flag, lang) or (flag.replace("_", " "), flag)


def kind_text(kind: str, lang: str) -> tuple[str, str]:
    """``(sentence, tooltip)`` of a warning or finding kind."""
    return _entry(KINDS, kind, lang) or (kind.replace("_", " "), kind)


def verdict_text(verdict: str, lang: str) -> tuple[str, str]:
    return _entry(VERDICTS, verdict, lang) or (verdict.replace("_", " "), verdict)


def cue_text(cue: str, lang: str) -> tuple[str, str] | None:
    return _entry(CUES, cue, lang)


def judge_name(name: str, lang: str) -> str:
    e = JUDGES.get(name)
    return (e.get(lang) or e["en"]) if e else name


def tier_name(tier: str, lang: str) -> str:
    """A normalization tier's name in ``lang`` (``typography`` is ``tipografia`` in pt)."""
    return TIER_NAMES.get(tier, {}).get(lang, tier)


def _words(text: str, lang: str) -> str:
    """``quote 60, source 30`` with the two words translated."""
    out = []
    for part in text.split(", "):
        head, _, rest = part.partition(" ")
        out.append(f"{_WORD[head].get(lang, head)} {rest}" if head in _WORD and rest else part)
    return ", ".join(out)


def _flags_clause(text: str, lang: str) -> tuple[str, bool]:
    m = _FLAG_CLAUSE.fullmatch(text)
    if not m or (m["f"] not in FLAGS and m["f"] != "near"):
        return text, False
    if text == "near miss":
        return flag_text("near_miss", lang)[0], True
    words = f" ({_words(m['w'], lang)})" if m["w"] else ""
    return flag_text(m["f"], lang)[0] + words, True


def _value(name: str, value: str | None, lang: str) -> tuple[str, bool]:
    if value is None:
        return "", True
    if name.startswith("t_"):
        parts = translate_parts(value, lang)
        return "; ".join(p for p, _ in parts), all(ok for _, ok in parts)
    if name.startswith("r_"):
        return tier_name(value, lang), True
    if name.startswith("s_"):
        return _SIDE.sub(lambda m: _SIDE_WORDS[m[0]].get(lang, m[0]), value), True
    if name.startswith("w_"):
        return TIER_WORDS.get(value, {}).get(lang, value), value in TIER_WORDS
    if name.startswith("c_"):
        return _flags_clause(value, lang)
    if name in ("h",):
        return _WORD.get(value, {}).get(lang, value), True
    if name == "v":
        return verdict_text(value, lang)[0], value in VERDICTS
    if name.startswith("e_"):
        return evidence_text(value, lang), True
    return value, True


def _fill(template: str, groups: Mapping[str, str | None], lang: str) -> tuple[str, bool]:
    """``{name}`` the value; ``{name?pre|post}`` pre+value+post only when captured; ``{name!text}`` only when not."""
    ok = True

    def one(m: regex.Match[str]) -> str:
        nonlocal ok
        name, op, pre, post = m[1], m[2], m[3] or "", m[4] or ""
        raw = groups.get(name)
        if op == "!":
            return pre if raw is None else ""
        if op == "?" and raw is None:
            return ""
        shown, good = _value(name, raw, lang)
        ok = ok and good
        return f"{pre}{shown}{post}" if op == "?" else shown

    return _SLOT.sub(one, template), ok


def translate_parts(message: str, lang: str) -> list[tuple[str, bool]]:
    """The clauses of ``message`` in ``lang``, each with whether a template knew it."""
    if lang not in LANGS or lang == "en" or not message:
        return [(message, True)]
    out: list[tuple[str, bool]] = []
    pos = 0
    while pos < len(message):
        for pat, tmpl in _compiled():
            m = pat.match(message, pos)
            if m:
                text, ok = _fill(tmpl.get(lang, "{}"), m.groupdict(), lang)
                out.append((text, ok))
                pos = m.end()
                break
        else:
            end = message.find("; ", pos)
            end = len(message) if end == -1 else end
            clause = message[pos:end]
            text, ok = _flags_clause(clause, lang)
            out.append((text, ok))
            pos = end
        if message.startswith("; ", pos):
            pos += 2
    return out


def translate(message: str, lang: str) -> str:
    """``message`` in ``lang`` (see the module docstring); clauses no template knows stay English."""
    return "; ".join(text for text, _ in translate_parts(message, lang))


_SIDES = {"claim": {"pt": "afirmação", "es": "afirmación"}, "section": {"pt": "trecho", "es": "pasaje"}}
_PHRASES = {
    "absent": {"pt": "ausente", "es": "ausente"},
    "(absent)": {"pt": "(ausente)", "es": "(ausente)"},
    "no such number": {"pt": "nenhum número assim", "es": "ningún número así"},
    "no such modal": {"pt": "nenhuma modalidade assim", "es": "ninguna modalidad así"},
    "(no such exception)": {"pt": "(nenhuma exceção assim)", "es": "(ninguna excepción así)"},
    "another exception": {"pt": "outra exceção", "es": "otra excepción"},
}
_OVERLAP = regex.compile(r"(?P<c>[\d.]+) of the claim's content words in the section")
_NO_NEG = regex.compile(r"(?P<w>.*) \(no negation\)")


def _phrase(value: str, lang: str) -> str:
    if value in _PHRASES:
        return _PHRASES[value].get(lang, value)
    m = _NO_NEG.fullmatch(value)
    if m and lang != "en":
        return f"{m['w']} ({'sem negação' if lang == 'pt' else 'sin negación'})"
    return value


def evidence_parts(line: str, lang: str) -> tuple[str, str, list[tuple[str, str]]]:
    """A judge's evidence line as ``(cue, tooltip, [(side, words), ...])`` in ``lang``.

    >>> evidence_parts("limiter: claim: sempre; section: salvo se houver acordo", "pt")
    ('ressalva', 'Uma ressalva (salvo, exceto, desde que) num e não no outro.', [('afirmação', 'sempre'), \
('trecho', 'salvo se houver acordo')])
    >>> evidence_parts("overlap: 0.83 of the claim's content words in the section", "es")[2]
    [('', '0.83 de las palabras de contenido de la afirmación están en el pasaje')]
    """
    cue, sep, rest = line.partition(": ")
    known = cue_text(cue, lang) if sep else None
    if known is None:
        return "", "", [("", translate(line, lang))]
    name, tip = known
    m = _OVERLAP.fullmatch(rest)
    if m:
        said = {
            "en": f"{m['c']} of the claim's content words in the section",
            "pt": f"{m['c']} das palavras de conteúdo da afirmação estão no trecho",
            "es": f"{m['c']} de las palabras de contenido de la afirmación están en el pasaje",
        }
        return name, tip, [("", said.get(lang, said["en"]))]
    if cue == "retrieval":
        return name, tip, [("", translate(line, lang).partition(": ")[2])]
    if cue == "fitted":
        return name, tip, _fitted_parts(rest, lang)
    sides: list[tuple[str, str]] = []
    for part in regex.split(r"; (?=(?:claim|section): )", rest):
        side, colon, words = part.partition(": ")
        if colon and side in _SIDES:
            sides.append((_SIDES[side].get(lang, side), _phrase(words, lang)))
        else:
            sides.append(("", part))
    return name, tip, sides


_FEATURE = regex.compile(r"(?P<f>.*?) \((?P<c>[+-][\d.]+)\)")
_CUE_WORDS = regex.compile(r"(?P<no>no )?(?P<hard>hard )?(?P<k>\w+) cue")


def _feature_words(said: str, lang: str) -> str:
    """One feature of the fitted score in ``lang`` (``hard number cue`` is ``pista forte de número``)."""
    if lang == "en":
        return said
    if said in FEATURE_WORDS:
        return FEATURE_WORDS[said].get(lang, said)
    m = _CUE_WORDS.fullmatch(said)
    if not m:
        return said
    known = cue_text(m["k"], lang)
    pattern = f"{m['no'] or ''}{m['hard'] or ''}{{}} cue"
    return FEATURE_WORDS[pattern].get(lang, pattern).format(known[0] if known else m["k"])


def _fitted_parts(rest: str, lang: str) -> list[tuple[str, str]]:
    """``0.31; against: hard number cue (-1.9); for: …`` as ``[("", "0.31"), ("contra", …), …]``.

    >>> _fitted_parts("0.31; against: hard number cue (-1.9), no name cue (+0.2)", "pt")
    [('', '0.31'), ('contra', 'pista forte de número (-1.9), nenhuma pista de nome (+0.2)')]
    """
    out: list[tuple[str, str]] = []
    for part in rest.split("; "):
        side, colon, listed = part.partition(": ")
        if not colon:
            out.append(("", part))
            continue
        shown = []
        for item in listed.split(", "):
            m = _FEATURE.fullmatch(item)
            shown.append(f"{_feature_words(m['f'], lang)} ({m['c']})" if m else item)
        out.append((FEATURE_WORDS.get(side, {}).get(lang, side), ", ".join(shown)))
    return out


def evidence_text(line: str, lang: str) -> str:
    """One evidence line in ``lang`` as plain text."""
    if lang == "en":
        return line
    name, _, sides = evidence_parts(line, lang)
    body = "; ".join(f"{s}: {w}" if s else w for s, w in sides)
    return f"{name}: {body}" if name else body
