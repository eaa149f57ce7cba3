"""Restrictions of the quote's sentence that the claim drops or overrides (issue 25, sixth round).

A rule is often stated with a restriction beside it: a condition (``quando``, ``cuando``, ``if``,
``em caso de``, ``en el supuesto de``, ``tratando-se de``), a manner the act must lack or have
(``sem justa causa``, ``previa audiencia``, ``mediante``), a purpose (``con la finalidad de``, ``a
fim de``, ``for the purpose of``). :func:`restrictions` finds them in the quote's own sentences,
each with the content words of its clause (up to a comma, a semicolon or another marker). A claim
that restates the rule keeps each restriction in some words; one whose clause words the claim has
none of (in no form) is dropped:

- :func:`dropped_cues`: a restriction the claim does not carry lowers the support score (a soft
  cue: ``condition: section: sem justa causa; claim: (absent)``); the exceptions the section makes
  (``salvo``, ``unless``) are :func:`ipsis.judge.cues.limiter_cues`'s, not read twice here;
- :func:`universal_cues`: the claim quantifies universally (``qualquer``, ``cualquier``, ``any``,
  ``every``) where the sentence restricts and the claim drops the restriction (``para qualquer
  crime`` against ``nos casos previstos na lei``): a limiter conflict.

The markers are structure (where a restriction starts), not meaning: the clause's own words decide
whether the claim keeps it, so a reworded condition (``Si la supresión se debe a que el afectado se
opuso`` for ``Cuando la supresión derive del ejercicio del derecho de oposición``) is kept.

>>> from ipsis.judge.analysis import Analysis
>>> q = Analysis("É vedado ao fornecedor elevar sem justa causa o preço de produtos ou serviços.", "pt")
>>> dropped_cues(Analysis("É vedado ao fornecedor elevar o preço de seus produtos.", "pt"), q)
[('condition: section: sem justa causa; claim: (absent)', 0.5, False)]
>>> dropped_cues(Analysis("O fornecedor não pode aumentar sem justa causa o preço.", "pt"), q)
[]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ipsis.judge.align import related
from ipsis.judge.text import fold
from ipsis.lexicon import CONDITIONS, LIMITERS, RESTRICTORS, SYNONYMS, UNIVERSALS, phrases, words

if TYPE_CHECKING:
    from ipsis.judge.analysis import Analysis

Cue = tuple[str, float, bool]

RESTRICTION_DROPPED = 0.5
"""A condition, manner or purpose of the quote's sentence that the claim does not carry."""
UNIVERSAL_CONFLICT = 0.15
"""A universal quantifier in the claim over a rule the sentence restricts (as LIMITER_CONFLICT)."""

MANNERS = phrases("""sem | sin | without | mediante | previa | prévia | prévio | previo | com prévia | con previa |
    upon""")
"""Markers of a manner the act must lack or have (``sem justa causa``, ``previa audiencia``)."""
PURPOSES = phrases("""com a finalidade de | com o fim de | a fim de | para fins de | para efeitos de |
    con la finalidad de | con el fin de | a fin de | a efectos de | para fines de | for the purpose of |
    for the purposes of | in order to | so as to""")
"""Markers of a purpose that bounds what is allowed (``con la finalidad de preservar la seguridad``)."""
OPENERS = phrases("""tratando-se de | tratando se de | tratándose de | na hipótese de | nas hipóteses de |
    em se tratando de | en el supuesto de | en el caso de | en los supuestos de | sempre que | whenever |
    in the case of""")
"""Condition markers beside :data:`ipsis.lexicon.CONDITIONS` (``tratando-se de``, ``en el supuesto de``)."""
ARTICLES = words("o a os as um uma el la los las un una the an")
IF_WORDS = words("se si caso")
"""``se``/``si``/``caso`` open a condition only before an article, a pronoun or a negator (``Se o consumidor``),
not as a clitic (``inicia-se``, ``se considera``)."""
IF_NEXT = words("""o a os as um uma el la los las un una ele ela eles elas él ella ellos ellas não no houver
    hubiera hubiese for forem fuere existir existe este esta esse essa""")


def _tuples(*lists: tuple[str, ...]) -> list[tuple[str, ...]]:
    return sorted({tuple(p.split()) for ps in lists for p in ps}, key=len, reverse=True)


_CONDITION_TUPLES = _tuples(*CONDITIONS.values(), OPENERS)
_MANNER_TUPLES = _tuples(MANNERS)
_PURPOSE_TUPLES = _tuples(PURPOSES)
_STOP_TUPLES = _tuples(*LIMITERS.values(), *RESTRICTORS.values(), *CONDITIONS.values(), OPENERS, MANNERS, PURPOSES)
_UNIVERSALS = frozenset().union(*UNIVERSALS.values())
MAX_CLAUSE = 5
EXISTENTIALS = words("""some certain many several algum alguma alguns algumas certos certas muitos muitas vários
    várias algún alguna algunos algunas ciertos ciertas muchos muchas varios varias""")
"""Quantifiers over part of a kind: ``some caches will not store`` is not ``no cache will store``."""
ALL_OR_NONE = _UNIVERSALS | words("no nenhum nenhuma ningún ninguna ninguno none")


def _at(low: list[str], k: int, table: list[tuple[str, ...]]) -> tuple[str, ...] | None:
    return next((ph for ph in table if tuple(low[k : k + len(ph)]) == ph), None)


def restrictions(a: Analysis) -> list[tuple[str, int, int, list[str]]]:
    """``(kind, i, j, clause stems)`` for each condition, manner or purpose marker of ``a``
    (tokens ``i``..``j`` are the marker and its clause)."""
    out: list[tuple[str, int, int, list[str]]] = []
    k = 0
    while k < len(a.low):
        kind, ph = "condition", _at(a.low, k, _CONDITION_TUPLES)
        if ph is None and a.low[k] in IF_WORDS and a.low[k + 1 : k + 2] and a.low[k + 1] in IF_NEXT:
            ph = (a.low[k],)
            if k and a.text[a.toks[k - 1].end : a.toks[k].start] == "-":
                ph = None  # "inicia-se o prazo": a clitic
        if ph is None:
            kind, ph = "condition", _at(a.low, k, _MANNER_TUPLES)
        if ph is None:
            kind, ph = "purpose", _at(a.low, k, _PURPOSE_TUPLES)
        if ph is None or (k in a.consumed and a.low[k] not in IF_WORDS):
            k += 1
            continue
        j, clause = k + len(ph), list[str]()
        while j < len(a.low) and len(clause) < MAX_CLAUSE and a.sent[j] == a.sent[k]:
            if j > k + len(ph) and (any(c in a.text[a.toks[j - 1].end : a.toks[j].start] for c in ",;:")
                                    or _at(a.low, j, _STOP_TUPLES)):
                break
            if ph in _MANNER_TUPLES and clause and a.low[j] in ARTICLES:
                break  # "sem justa causa o preço": a manner is a noun phrase
            if a.stems[j]:
                clause.append(a.stems[j])
            j += 1
        if clause:
            out.append((kind, k, j, clause))
        k = k + len(ph)
    return out


def _has(claim: Analysis, s: str) -> bool:
    if s in claim.stem_set or any(related(s, c) for c in claim.stem_set if len(c) >= 4 and len(s) >= 4):
        return True
    return any(s in g and g & set(claim.low) for g in SYNONYMS) or any(
        any(related(s, w) for w in g) and g & set(claim.low) for g in SYNONYMS
    )


def carried(claim: Analysis, clause: list[str]) -> bool:
    """The claim has some word of the clause, in one form or another (one in three at least)."""
    found = sum(1 for s in clause if _has(claim, s))
    return found * 3 >= len(clause) or found >= 2


def dropped_cues(claim: Analysis, quote: Analysis) -> list[Cue]:
    """A condition, manner or purpose of the quote's sentences that the claim does not carry."""
    for _kind, i, j, clause in restrictions(quote):
        if len(clause) >= 2 and not carried(claim, clause) and _restates_host(claim, quote, i, j):
            return [(f"condition: section: {quote._span(i, j)}; claim: (absent)", RESTRICTION_DROPPED, False)]
    return []


def _segments(a: Analysis) -> list[tuple[int, int]]:
    """Token ranges of ``a`` between commas, semicolons and sentence ends."""
    out, start = [], 0
    for k in range(1, len(a.toks) + 1):
        if k == len(a.toks) or a.sent[k] != a.sent[k - 1] or any(
            c in a.text[a.toks[k - 1].end : a.toks[k].start] for c in ",;:"
        ):
            out.append((start, k))
            start = k
    return out


def _restates_host(claim: Analysis, quote: Analysis, i: int, j: int) -> bool:
    """The claim restates the rule the restriction at ``i``..``j`` belongs to: over a third of the content
    words of its clause of the quote (the segment it stands in, or the next one when it opens its
    segment: ``Cuando la supresión derive ..., el responsable podrá``) are in the claim. A claim on
    another clause of the quote (``não podendo ter como fundamento motivos políticos``) drops nothing."""
    segs = _segments(quote)
    n = next((s for s, (lo, hi) in enumerate(segs) if lo <= i < hi), None)
    if n is None:
        return False
    lo, hi = segs[n]
    host = [k for k in range(lo, hi) if not i <= k < j]
    if not any(quote.stems[k] for k in host) and n + 1 < len(segs):
        host = list(range(*segs[n + 1]))
    stems = [quote.stems[k] for k in host if quote.stems[k]]
    return bool(stems) and sum(_has(claim, s) for s in stems) * 3 > len(stems)


PRIVATIVES = words("sem sin without")
PRIVATIVE_CONFLICT = 0.3
"""A claim's ``sem X`` where the quote states ``X`` (soft: the quote's ``X`` may be denied in words the
rules do not read)."""


def privative_cues(claim: Analysis, quote: Analysis) -> list[Cue]:
    """``sem atualização monetária`` in the claim, ``monetariamente atualizados`` in the quote with
    no ``sem``, negator or concessive before it: the claim denies what the quote grants."""
    for k, w in enumerate(claim.low):
        if w not in PRIVATIVES or k in claim.consumed:
            continue
        n = next((m for m in range(k + 1, min(len(claim.low), k + 3)) if claim.stems[m]), None)
        if n is None or len(claim.stems[n]) < 5:
            continue
        mine = fold(claim.stems[n])[:5]
        hits = [m for m, s in enumerate(quote.stems) if len(s) >= 5 and fold(s)[:5] == mine]
        if not hits or any(_denied(quote, m) for m in hits):
            continue
        said, shown = claim._span(k, n + 1), quote.toks[hits[0]].text
        return [(f"negation: claim: {said}; section: {shown} (no negation)", PRIVATIVE_CONFLICT, False)]
    return []


def _denied(a: Analysis, m: int) -> bool:
    """Token ``m`` follows a privative, a negator or a negated modal within six words of its clause
    (``sem a prévia elaboração de orçamento``) or a limiter (``sem prejuízo de``), or precedes a
    negator within four (``an explicit time is not specified``)."""
    from ipsis.judge.analysis import ALL_NEGATORS, NEGATIVE_MODALS

    lo, hi = max(0, m - 6), min(len(a.low), m + 5)
    for q in range(m - 1, lo - 1, -1):
        if "," in a.text[a.toks[q].end : a.toks[q + 1].start]:
            lo = q + 1
            break
    if any(a.low[q] in ALL_NEGATORS for q in range(m + 1, hi)):
        return True  # "when an explicit time is not specified"
    if any(a.low[q] in PRIVATIVES or a.low[q] in ALL_NEGATORS for q in range(lo, m)):
        return True
    return any(lo <= site.i < m for site in a.modals if site.cls in NEGATIVE_MODALS) or any(
        site.i < m <= site.j + 6 for site in a.limiters
    )


def quantifier_cues(claim: Analysis, quote: Analysis) -> list[Cue]:
    """The claim quantifies a noun over all (``no cache``, ``todo titular``, ``any``) that the quote
    quantifies over some (``some caches``, ``alguns titulares``): another rule."""
    for k, w in enumerate(claim.low[:-1]):
        if w not in ALL_OR_NONE or not claim.stems[k + 1]:
            continue
        noun = claim.stems[k + 1]
        for m, s in enumerate(quote.stems):
            if s and related(s, noun) and m and quote.low[m - 1] in EXISTENTIALS:
                said, shown = claim._span(k, k + 2), quote._span(m - 1, m + 1)
                return [(f"quantifier: claim: {said}; section: {shown}", UNIVERSAL_CONFLICT, True)]
    return []


def universal_cues(claim: Analysis, quote: Analysis) -> list[Cue]:
    """``qualquer``/``cualquier``/``any`` (or ``nunca``/``always``) in the claim, and no universal
    of its own in the quote, against a restriction of the quote the claim drops: a condition,
    manner or purpose (:func:`restrictions`), a number (``informações negativas referentes a
    período superior a cinco anos`` / ``nunca podem conter informações negativas``) or a word
    that bounds the noun the claim quantifies (``su propio domicilio`` / ``cualquier domicilio``)."""
    if set(quote.low) & (_UNIVERSALS | _ALWAYS):
        return []
    k = next((k for k, w in enumerate(claim.low) if w in _UNIVERSALS | _ALWAYS and claim.low[k + 1 : k + 2]), None)
    if k is None:
        return []
    said = claim._span(k, min(len(claim.toks), k + 2))
    if claim.low[k] in _UNIVERSALS:
        rule = generic_rule(claim, k, quote)
        for _kind, i, j, clause in restrictions(quote):
            if rule is not None and quote.sent[i] != rule:
                continue  # "every recipient" is "A recipient MUST ...": another sentence's condition is not its
            if not carried(claim, clause):
                return [(f"limiter: claim: {said}; section: {quote._span(i, j)}", UNIVERSAL_CONFLICT, True)]
        bound = _bounded_noun(claim, k, quote)
        if bound:
            return [(f"limiter: claim: {said}; section: {bound}", UNIVERSAL_CONFLICT, True)]
    values = {q.value for q in claim.quantities}
    dropped = [q for q in quote.quantities if q.value not in values and q.unit is not None]
    if dropped:
        return [(f"limiter: claim: {said}; section: {dropped[0].surface}", UNIVERSAL_CONFLICT, True)]
    return []


GENERIC = words("a an the um uma o os as el la los las un una")
"""Articles of a generic subject: ``A recipient MUST``, ``El trabajador podrá`` state a rule for every one."""


def generic_rule(claim: Analysis, k: int, quote: Analysis) -> int | None:
    """The sentence of the quote whose subject is the noun the claim quantifies at ``k``, written
    as a generic (an article, then the noun, then within three words a modal verb: ``A client,
    server, or proxy MAY``), or None: the universal restates the generic, and only a restriction
    of that sentence bounds it."""
    n = next((m for m in range(k + 1, min(len(claim.low), k + 3)) if claim.stems[m]), None)
    if n is None:
        return None
    for site in quote.modals:
        for m in range(max(0, site.i - 4), site.i):
            if quote.sent[m] != quote.sent[site.i] or not quote.stems[m] or not related(quote.stems[m], claim.stems[n]):
                continue
            first = next(x for x in range(m + 1) if quote.sent[x] == quote.sent[m])
            if m >= 1 and quote.low[m - 1] in GENERIC and first == m - 1:
                return quote.sent[m]
    return None


_ALWAYS = words("nunca jamais jamás never sempre siempre always")
"""Absolutes over time: against a number the quote bounds the rule by, a limiter conflict."""


OWN = words("propio propia propios propias próprio própria próprios próprias own")
"""``propio``/``own`` bound a noun to its owner, though they are stopwords elsewhere."""


def _bounded_noun(claim: Analysis, k: int, quote: Analysis) -> str:
    """The quote's words around the noun the claim quantifies at ``k``, when one of them (a
    modifier right before or after the noun) is not in the claim: ``su propio domicilio``."""
    n = next((m for m in range(k + 1, min(len(claim.low), k + 3)) if claim.stems[m]), None)
    if n is None:
        return ""
    noun = claim.stems[n]
    for m, s in enumerate(quote.stems):
        if not s or not related(s, noun):
            continue
        if m and quote.low[m - 1] in OWN and not set(claim.low) & OWN:
            return quote._span(m - 1, m + 1)  # "su propio domicilio" / "cualquier domicilio"
        # the modifier's side: before the noun in English ("selected representation"), after it
        # in Portuguese and Spanish ("dados pessoais"); a name ("JWT ID") is no modifier
        q = m - 1 if quote.lang == "en" else m + 1
        if not 0 <= q < len(quote.low) or quote.sent[q] != quote.sent[m] or not quote.toks[q].text.islower():
            continue
        if quote.stems[q] and not _has(claim, quote.stems[q]):
            return quote._span(min(q, m), max(q, m) + 1)
    return ""


PASSIVE = words("""por pelo pela pelos pelas by ser é são será serão foi foram sido es son fue fueron sido be is are
    was were been being""")
"""Words of a passive near a verb: ``X é facilitado por Y`` says ``Y facilita X``, the order flipped."""
ROLES_TRADED = 0.15


def _beside(a: Analysis, v: int) -> tuple[int, int, bool]:
    """The tokens of the content words right before and after token ``v`` in its clause (up to
    three words away; -1 when none), and whether a passive word stands in between."""
    def walk(step: int) -> tuple[int, bool]:
        k, passive = v + step, False
        while 0 <= k < len(a.low) and abs(k - v) <= 3 and a.sent[k] == a.sent[v]:
            passive = passive or a.low[k] in PASSIVE
            if a.stems[k]:
                return k, passive
            k += step
        return -1, passive

    (x, p1), (y, p2) = walk(-1), walk(1)
    return x, y, p1 or p2


def traded_cues(claim: Analysis, quote: Analysis) -> list[Cue]:
    """Two words that trade places around the same verb (``si el afectado facilita al responsable``
    / ``si el responsable del tratamiento facilitara al afectado``), with no passive on either
    side: who acts and who receives are swapped."""
    for v, s in enumerate(claim.stems):
        if len(s) < 5:
            continue
        i, j, passive = _beside(claim, v)
        if passive or i < 0 or j < 0 or related(claim.stems[i], claim.stems[j]):
            continue
        x, y = claim.stems[i], claim.stems[j]
        for m, t in enumerate(quote.stems):
            if len(t) < 5 or fold(t)[:5] != fold(s)[:5]:
                continue
            before = [k for k in range(max(0, m - 5), m) if quote.sent[k] == quote.sent[m] and quote.stems[k]]
            _, after, theirs = _beside(quote, m)
            if theirs or after < 0 or any(quote.low[k] in PASSIVE for k in range(max(0, m - 3), m)):
                continue
            if related(quote.stems[after], x) and any(related(quote.stems[b], y) for b in before) and not any(
                related(quote.stems[b], x) for b in before
            ):
                said = " … ".join(claim.toks[k].text for k in (i, v, j))
                first = next(b for b in before if related(quote.stems[b], y))
                shown = " … ".join(quote.toks[k].text for k in (first, m, after))
                return [(f"roles: claim: {said}; section: {shown} (traded places)", ROLES_TRADED, True)]
    return []
