"""Deontic modality of a claim against its passage: which modal verb governs the claim's act, and
whether the passage's says the same (split from :mod:`ipsis.judge.cues`).

:func:`modality_cues` compares each claim modal with the passage's modal that governs the same
words (the act after it weighs more than the subject before it; the modal that holds the claim's
verb wins). A restricted permission and a prohibition with an exception are one rule (``solo
puede ... si`` / ``no podrá ... salvo`` / ``ninguna finalidad distinta de``); a duty or a
prohibition stated in the indicative with the same polarity agrees (``não pode expor`` / ``não
será exposto``); a permission against a rule in the indicative weakens it. :func:`prohibited_cues`:
a prohibition of the quote restated plainly.

>>> from ipsis.judge.analysis import Analysis
>>> modality_cues(Analysis("O credor não pode expor o consumidor ao ridículo.", "pt"),
...     Analysis("O consumidor inadimplente não será exposto a ridículo.", "pt"))
[]
>>> modality_cues(Analysis("El responsable debe conservar los datos.", "es"),
...     Analysis("El responsable podrá conservar los datos.", "es"))[0][0]
'modality: claim: debe (obligation); section: podrá (permission)'
>>> modality_cues(Analysis("El Estado debe promover el deporte.", "es"),
...     Analysis("Los poderes públicos fomentarán el deporte.", "es"))
[]
>>> modality_cues(Analysis("É preciso base legal para a expropriação.", "pt"),
...     Analysis("A expropriação só pode ser efectuada com base na lei.", "pt"))
[]
"""

from __future__ import annotations

from ipsis.judge.align import related
from ipsis.judge.analysis import CANNOT_BE, NEGATIVE_MODALS, NOT_OBLIGED, Analysis, Site
from ipsis.judge.text import fold, stem
from ipsis.lexicon import (
    COMPEL,
    LIBERTIES,
    MODAL_WORDS,
    OBLIGATION,
    PERMISSION,
    PROHIBITION,
    RESTRICTORS,
    phrases,
    words,
)

NEGATION_CONFLICT, MODALITY_CONFLICT, MODALITY_ABSENT, MODALITY_UNSTATED = 0.1, 0.1, 0.6, 0.9
"""How much each cue lowers the support score (multiplied in)."""

def states_exception(claim: Analysis, passage: Analysis, i: int) -> bool:
    """The passage's sentence of token ``i`` makes an exception after it (``nenhum brasileiro será
    extraditado, salvo o naturalizado``) whose words the claim has: the claim states the exception
    (``o naturalizado pode ser extraditado``), not the rule."""
    if claim.limiters:
        return False  # the claim keeps the rule with its exception ("qualquer pessoa pode ..., salvo ...")
    return any(
        lim.i > i and passage.sent[lim.i] == passage.sent[i] and set(lim.cls.split()[:2]) & claim.stem_set
        for lim in passage.limiters
    )

_COMPEL_STEMS = frozenset(stem(w) for w in COMPEL)


def _force(site: Site) -> str:
    """The deontic class, with a prohibition to compel read as a negated obligation
    (``ninguém poderá ser compelido a`` = ``ninguém é obrigado a``)."""
    if site.anchors[:1] and site.anchors[0] in _COMPEL_STEMS:
        # "não pode ser obrigado" = "não é obrigado"; "não deve ser obrigado" is a third thing
        return NOT_OBLIGED if site.cls == PROHIBITION else f"{site.cls} to compel"
    return site.cls


RESTRICTOR_FOLDED = frozenset(fold(p) for ps in RESTRICTORS.values() for p in ps)
RESTRICTOR_WORDS = frozenset(w for ps in RESTRICTORS.values() for p in ps for w in p.split())
RESTRICTOR_STEMS = frozenset(stem(w) for w in RESTRICTOR_WORDS)
_IF = frozenset({"if", "when", "se", "si", "quando", "cuando", "where"})


EXCEPT_WORDS = frozenset({"sino", "senão", "salvo", "excepto", "exceto", "except", "unless", "save"})
"""Words that open the exception of a prohibition (``Nadie podrá ... sino por causa justificada``)."""
WITHOUT = frozenset({"sem", "sin", "without"})
"""A prohibition of the act without something (``não pode haver expropriação sem lei``) permits it
with that thing only (``só podem ser efectuadas com base na lei``)."""


def _only_if(a: Analysis, site: Site) -> bool:
    """A permission restricted in its sentence (``Solo por causa justificada ... puede``) or a
    prohibition with an exception after it (``Nadie podrá ... sino por causa justificada``):
    both say the act is allowed in the named cases only."""
    same = [k for k in range(len(a.low)) if a.sent[k] == a.sent[site.i]]
    restricted = any(a.low[k] in RESTRICTOR_WORDS for k in same if k < site.i)
    if site.cls == PERMISSION:  # "Solo ... puede", or "may ... only if" / "pode ... somente se"
        return restricted or any(
            a.low[k] in RESTRICTOR_WORDS and a.low[k + 1 : k + 2] and a.low[k + 1] in _IF for k in same if k > site.i
        )
    if site.cls == PROHIBITION:  # "só não poderá ... se" is another rule
        return not restricted and (
            any(lim.i > site.i and a.sent[lim.i] == a.sent[site.i] for lim in a.limiters) or other_than(a, site.i)
            or any(a.low[k] in EXCEPT_WORDS for k in same if k > site.i)
            or any(a.low[k] in WITHOUT for k in same)
        )
    return False


OTHER_THAN = [tuple(p.split()) for p in phrases("""distinta de | distinto de | distintas de | distintos de |
    distinta del | distinto del | diferente de | diferentes de | diferente do | diferente da | diversa de |
    diverso de | diversas de | diversos de | diversa da | diverso do | outra que não | outro que não | other than""")]
"""``no podrán ser tratados para ninguna finalidad distinta de la señalada``: the prohibition is an
exclusive permission (``solo pueden tratarse para la finalidad señalada``)."""


def other_than(a: Analysis, i: int) -> bool:
    """An ``other than`` phrase after token ``i`` in its sentence."""
    after = [k for k in range(i + 1, len(a.low)) if a.sent[k] == a.sent[i]]
    return any(tuple(a.low[k : k + len(ph)]) == ph for k in after for ph in OTHER_THAN)


def _agree(p: Site, site: Site, passage: Analysis | None = None, claim: Analysis | None = None) -> bool:
    if _force(p) == _force(site):
        return True
    if passage is None or claim is None:
        return False
    if p.cls == PERMISSION and site.cls == OBLIGATION:
        return _requires(passage, p, claim, site)
    if {p.cls, site.cls} != {PERMISSION, PROHIBITION}:
        return False
    return _only_if(passage, p) and _only_if(claim, site)


def _requires(passage: Analysis, p: Site, claim: Analysis, site: Site) -> bool:
    """A permission restricted to a condition (``só podem ser efectuadas com base na lei``) makes
    the condition a requirement: a claim's duty that governs the condition's words, not the act
    (``é preciso base legal``), says the same."""
    if not _only_if(passage, p):
        return False
    same = [k for k in range(len(passage.low)) if passage.sent[k] == passage.sent[p.i]]
    act = {s for s in _governed(passage, p) if s not in RESTRICTOR_STEMS}
    act = set(sorted(act, key=list(_governed(passage, p)).index)[:1])
    condition = {passage.stems[k] for k in same if k > p.j and passage.stems[k]} - act
    # the duty's own words, up to a condition of the claim: "es obligatoria cuando ..." is a duty
    # to do the act in that case, not the requirement of the case
    stop = next((k for k in range(site.j, len(claim.low)) if claim.low[k] in _IF), len(claim.low))
    governed = {claim.stems[k] for k in range(site.j, stop) if claim.stems[k]} & set(_governed(claim, site))
    return bool(governed & condition) and not governed & act


_MODAL_WORDS = frozenset(w for ws in MODAL_WORDS.values() for w in ws)


def _holds(site: Site, verb: str) -> bool:
    """The modal at ``site`` governs ``verb``: its first anchor (or, for ``invioláveis``, the root
    it negates) is ``verb`` in one form or another (``viol`` / ``violad``)."""
    if not verb or not site.anchors:
        return False
    own = [site.anchors[0]] + ([site.anchors[-1]] if CANNOT_BE.match(site.surface.casefold()) else [])
    if site.anchors[0] in _COMPEL_STEMS and len(site.anchors) > 1:
        own.append(site.anchors[1])  # "no pudiendo ser obligada a declarar" governs "declarar"
    v = fold(verb)
    return any(a == verb or (len(a) >= 4 and v.startswith(fold(a))) for a in own)


FORBIDDING = words("""forbid forbids forbidden prohibit prohibits prohibited proíbe proíbem veda vedam prohíbe
    prohíben impede impedem impide impiden prevent prevents bars excludes exclui excluem excluye excluyen""")
"""Verbs that forbid: a claim with one restates a prohibition without a modal verb."""


def prohibited_cues(claim: Analysis, quote: Analysis) -> list[tuple[str, float, bool]]:
    """The quote forbids something (``vedada a de caráter paramilitar``) that a claim with no
    modal verb, negation or exception states plainly (``inclusive a de caráter paramilitar``)."""
    if claim.modals or claim.negations or claim.limiters or set(claim.low) & FORBIDDING:
        return []
    for site in quote.modals:
        if site.cls not in NEGATIVE_MODALS:
            continue
        acted = _verb_after(quote, site)
        if acted and all(a in claim.stem_set for a in acted) and claim.negated_near(acted) is False:
            word = claim.toks[claim.stems.index(acted[0])].text
            return [(f"negation: section: {site.surface} {word}; claim: {word} (no negation)", NEGATION_CONFLICT, True)]
    return []


def _verb_after(a: Analysis, site: Site, n: int = 2) -> tuple[str, ...]:
    """Up to ``n`` content stems right after the modal at ``site`` in its sentence (its verb)."""
    stop = min(len(a.low), site.j + 3 * n)
    out = [a.stems[k] for k in range(site.j, stop) if a.sent[k] == a.sent[site.i] and a.stems[k]]
    return tuple(out[:n])


def _indicative(site: Site, claim: Analysis, passage: Analysis) -> bool:
    """The passage states in the indicative, with the same polarity, the act a claim's duty or
    prohibition governs: ``deve comunicar`` / ``comunicará``, ``não pode expor`` / ``não será
    exposto``, ``must send`` / ``sends``. Law writes duties so; a permission is another thing
    (:func:`_weakens`)."""
    if site.cls not in (OBLIGATION, PROHIBITION):
        return False
    acted = _governed(claim, site)[:1]
    if not acted or len(acted[0]) < 4:
        return False
    hits = [k for k, s in enumerate(passage.stems) if len(s) >= 4 and related(s, acted[0])]
    # under another modal word ("can be used to", "poderia") the act is no rule in the indicative
    hits = [k for k in hits if not set(passage.low[max(0, k - 3) : k]) & _MODAL_WORDS]
    if not hits:
        return False
    negated = any(passage.negated_near((passage.stems[k],)) for k in hits)
    return negated == (site.cls == PROHIBITION)


FUTURE = True
FUTURE_ENDINGS = ("rá", "rán", "rão", "rã")
"""The future indicative in pt/es (``fomentarán``, ``será submetida``, ``assegurará``): law writes a duty so."""


def _future(a: Analysis, k: int) -> bool:
    w = a.low[k]
    return len(w) >= 4 and w.endswith(FUTURE_ENDINGS) and w[-3 if w.endswith("rá") else -4] in "aeiouáéíóú" \
        and w not in _MODAL_WORDS


def _future_rule(site: Site, passage: Analysis, claim: Analysis) -> bool:
    """The passage states a rule in the future indicative (pt/es ``fomentarán``, ``não será
    exposto``; en ``will``), with the polarity of the claim's duty (affirmative) or prohibition
    (negated): the legal future is a duty, as ``shall`` is (``debe promover`` / ``fomentarán``)."""
    if site.cls not in (OBLIGATION, PROHIBITION):
        return False
    acts = _governed(claim, site)
    for k in range(len(passage.low)):
        if not (_future(passage, k) or passage.low[k] == "will"):
            continue
        ahead = range(k + 1, min(len(passage.low), k + 8))
        after = [passage.stems[m] for m in ahead if passage.sent[m] == passage.sent[k]]
        if not any(related(a, b) for a in acts for b in after if a and b and len(a) >= 4):
            continue  # the future verb must state the act the claim's modal governs, or its object
        if set(passage.low[max(0, k - 3) : k]) & _MODAL_WORDS:
            continue  # "poderá ser ... será": under another modal verb
        negated = any(n.i < k and passage.sent[n.i] == passage.sent[k] and k - n.j <= 3 for n in passage.negations)
        if negated == (site.cls == PROHIBITION):
            return True
    return False


def _governed(a: Analysis, site: Site) -> tuple[str, ...]:
    """The content stems a modal verb governs: up to four after it, in its clause (a comma ends
    it); none for an adjective of possibility (``invioláveis``), whose act is its own root."""
    if site.j - site.i == 1 and CANNOT_BE.match(a.low[site.i]):
        return ()
    out: list[str] = []
    for k in range(site.j, min(len(a.low), site.j + 12)):
        if a.sent[k] != a.sent[site.i] or (k > site.j and "," in a.text[a.toks[k - 1].end : a.toks[k].start]):
            break
        if a.stems[k]:
            out.append(a.stems[k])
    return tuple(out[:4])


def _weakens(site: Site, passage: Analysis, claim: Analysis) -> bool:
    """A claim's modal verb of permission (``pode``, ``may``; not ``tem direito a``, not ``só
    pode``) against a passage with no modal word, no freedom and no right: a duty made a faculty."""
    if _only_if(claim, site) or any(states_exception(claim, passage, n.i) for n in passage.negations):
        return False
    if any(w in LIBERTIES or w.startswith(("autoriz", "permit", "allow")) for w in site.surface.casefold().split()):
        return False
    return not set(passage.low) & (LIBERTIES | _MODAL_WORDS)


def modality_cues(claim: Analysis, passage: Analysis) -> list[tuple[str, float, bool]]:
    out: list[tuple[str, float, bool]] = []
    for site in claim.modals:
        anchors = set(site.anchors)
        # the modal whose anchors hold the claim's verb (its first anchor) counts first
        verb = site.anchors[0] if site.anchors else ""
        # the words the modal governs (after it) weigh more than the subject before it: "não podem
        # guardar registros negativos" is compared with "não podendo conter informações negativas",
        # not with "devem ser objetivos", whose subject the claim repeats
        acts = set(_governed(claim, site))
        scored = [
            (len(anchors & set(p.anchors)) + 2 * len(acts & set(_governed(passage, p))) + 50 * _holds(p, verb), p)
            for p in passage.modals
        ]
        scored = [(n, p) for n, p in scored if n]
        if not scored:
            if _indicative(site, claim, passage) or (FUTURE and _future_rule(site, passage, claim)):
                continue  # "não pode expor" / "não será exposto": the rule in the indicative says it
            if not any(_agree(p, site, passage, claim) for p in passage.modals):
                # a section that states the rule without a modal verb ("ninguém será preso senão
                # ...", "não superior a") is weaker evidence against a claim's modal than a
                # section whose modal verbs say something else
                factor = MODALITY_ABSENT if passage.modals else MODALITY_UNSTATED
                said = f"modality: claim: {site.surface}; section: no such modal"
                if not passage.modals and site.cls == PERMISSION and _weakens(site, passage, claim):
                    # "o Estado prestará assistência" is a duty; "poderá prestar" makes it a faculty,
                    # unless the section states a freedom or a right ("é livre o exercício")
                    factor, said = MODALITY_ABSENT, f"{said}, and no freedom or right: a rule in the indicative"
                acted = _verb_after(claim, site)
                if site.cls in NEGATIVE_MODALS and acted and passage.negated_near(acted) is False:
                    # "cannot override" / "can override", "não tem o direito de permanecer calado"
                    word = passage.toks[passage.stems.index(acted[0])].text
                    said = f"negation: claim: {site.surface} {word}; section: {word} (no negation)"
                    factor, hard = NEGATION_CONFLICT, True
                else:
                    hard = False
                out.append((said, factor, hard))
            continue
        best = max(n for n, _ in scored)
        top = [p for n, p in scored if n == best]
        if any(_agree(p, site, passage, claim) for p in top):
            continue
        shown = top[0].surface
        text = f"modality: claim: {site.surface} ({site.cls}); section: {shown} ({top[0].cls})"
        out.append((text, MODALITY_CONFLICT, True))
    return out
