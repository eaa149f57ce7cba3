"""Who does what to whom: the actor and the roles of a claim against the passage (issue 25).

- :func:`actor_cues`: the one who must act in the claim (the subject before its modal verb, or the
  agent after ``pelo``/``por``/``by`` in a passive) is not the passage's (``O operador deverá
  comunicar`` / ``O controlador deverá comunicar``), or the section does not name it at all;
- :func:`role_cues`: the claim's opening subject and another of its nouns trade places around the
  same predicate (``O controlador tem direito a obter do titular`` / ``O titular ... do
  controlador``); a passive on one side only (``pode ser revogado pelo titular``) is the same roles.

>>> from ipsis.judge.analysis import Analysis
>>> p = Analysis("O controlador deverá comunicar à autoridade nacional a ocorrência de incidente de segurança.", "pt")
>>> actor_cues(Analysis("O operador deverá comunicar o incidente de segurança à autoridade nacional.", "pt"), p)
[('actor: claim: operador; section: absent', 0.4, False)]
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ipsis.lexicon import SYNONYMS, words

if TYPE_CHECKING:
    from ipsis.judge.analysis import Analysis

Cue = tuple[str, float, bool]

ACTOR_CONFLICT, ACTOR_ABSENT = 0.15, 0.4
"""Support factors: another actor the passage names for the same act (hard); an actor it lacks (soft)."""
LABEL_WORDS = frozenset({"art", "artigo", "artículo", "article", "section"})
OF = frozenset(["de", "do", "da", "dos", "das", "del", "of"])
PASSIVE_AUX = frozenset({"ser", "sido", "be", "been", "serão", "será", "é", "são", "es", "son", "is", "are"})
AGENT_MARKS = frozenset({"pelo", "pela", "pelos", "pelas", "por", "by"})
DETERMINERS = words("o a os as um uma el la los las un una the an each every cada todo toda")
SUBJECT_SPAN = 6
"""Words before a modal verb searched for its subject."""
_NUMBERING = re.compile(r"\d+[ºª°.]?|[ivxlc]+|[a-z]\)|§")
"""A paragraph's number before its first word (``§ 3º A autoridade``, ``2. O arguido``)."""
"""Words before a modal verb searched for its subject."""


def _actor(a: Analysis, i: int, j: int) -> tuple[str, str] | None:
    """(stem, word) of who acts for the modal at tokens ``[i, j)``: the agent of a passive
    (``devem ser comunicados pelo controlador``), else the subject when the clause opens with it
    (an article or determiner, then the noun: ``O controlador deverá``, ``Each principal MUST``);
    None when the clause opens otherwise (``Sin consentimiento ... no se puede``)."""
    if j < len(a.low) and a.low[j] in PASSIVE_AUX:
        for k in range(j + 1, min(len(a.low), j + 6)):
            if a.low[k] in AGENT_MARKS and k + 1 < len(a.low):
                nxt = next((m for m in range(k + 1, min(len(a.low), k + 4)) if a.stems[m]), None)
                if nxt is not None:
                    return a.stems[nxt], a.toks[nxt].text
        return None  # a passive without its agent names no actor ("Claims must be submitted")
    sid = a.sent[i] if i < len(a.sent) else 0
    start = i
    while start > 0 and i - start < SUBJECT_SPAN and a.sent[start - 1] == sid:
        between = a.text[a.toks[start - 1].end : a.toks[start].start]
        if any(c in between for c in ",;:"):
            return None
        start -= 1
    if start > 0 and a.sent[start - 1] == sid:
        return None  # the subject would start further back than we look
    k = start
    while k < i and (a.low[k] in DETERMINERS or _NUMBERING.fullmatch(a.low[k])):
        k += 1  # "XXXIII - proibição de": the inciso's number is no actor
    if k < i and a.stems[k] and (k > start or a.toks[k].text[:1].isupper()):
        return a.stems[k], a.toks[k].text
    return None


def _synonym(x: str, y: str) -> bool:
    return any(x in g and y in g for g in SYNONYMS)


INCUMBENT = words("cabe cabem compete competem incumbe incumbem corresponde corresponden toca")
"""Verbs that name who must act after ``a``/``ao``/``al``: ``Cabe ao controlador escolher``."""
TO = words("a ao à aos às al a los a las")


def incumbent_cues(claim: Analysis, passage: Analysis) -> list[Cue]:
    """``Cabe ao delegado relaxar a prisão`` / ``relaxada pela autoridade judiciária``: the one a
    claim says it falls to must be named in the quote's sentence (``passage``)."""
    k = next((k for k in range(min(3, len(claim.low))) if claim.low[k] in INCUMBENT), None)
    if k is None:
        return []
    x = next((m for m in range(k + 1, min(len(claim.low), k + 4)) if claim.stems[m]), None)
    if x is None or not any(w in TO for w in claim.low[k + 1 : x]):
        return []
    word = claim.toks[x].text
    if claim.stems[x] in passage.stem_set or any(_synonym(word.casefold(), w) for w in passage.low):
        return []
    return [(f"actor: claim: {word}; section: not named in the quote's sentence", ACTOR_ABSENT, False)]


def actor_cues(claim: Analysis, passage: Analysis, section: Analysis | None = None) -> list[Cue]:
    """The claim's actor for its first modal verb must be in the section (``section``, else the
    passage), and be the actor of the passage's modal verb about the same action when the passage
    has one; the one a task falls to (``cabe ao X``) must be in ``passage``."""
    if not claim.modals:
        return incumbent_cues(claim, passage)
    site = claim.modals[0]
    actor = _actor(claim, site.i, site.j)
    if actor is None:
        return []
    stem_, word = actor
    if stem_ not in (section or passage).stem_set and not any(
        _synonym(word.casefold(), w) for w in (section or passage).low
    ):
        return [(f"actor: claim: {word}; section: absent", ACTOR_ABSENT, False)]
    anchors = set(site.anchors)
    for p in passage.modals:
        if not anchors & set(p.anchors):
            continue
        theirs = _actor(passage, p.i, p.j)
        same = theirs is not None and _synonym(word.casefold(), theirs[1].casefold())
        if theirs is None or theirs[0] == stem_ or theirs[0] in claim.stem_set or same:
            return []
        return [(f"actor: claim: {word}; section: {theirs[1]}", ACTOR_CONFLICT, True)]
    return []


def _opening_subject(a: Analysis, k: int) -> int | None:
    """Token index of the noun that opens the sentence of token ``k`` after an article."""
    sid = a.sent[k]
    start = k
    while start > 0 and a.sent[start - 1] == sid:
        start -= 1
    m = start
    while m < len(a.low) and a.sent[m] == sid and (
        a.low[m] in DETERMINERS or a.low[m] in LABEL_WORDS or _NUMBERING.fullmatch(a.low[m])
    ):
        m += 1
    if m < len(a.low) and a.sent[m] == sid and a.stems[m] and m > start:
        return m
    return None


def _predicate_between(a: Analysis, i: int, j: int) -> bool:
    """Content words (or a modal) between tokens ``i`` and ``j``: a predicate, not ``the value of the jti``."""
    words = sum(1 for k in range(i + 1, j) if a.stems[k])
    modal = any(site.i > i and site.j <= j for site in a.modals)
    return words >= 2 or (words >= 1 and modal)


def _predicate(a: Analysis, i: int, j: int) -> str:
    """The first content stem between tokens ``i`` and ``j`` outside a ``de``/``of`` phrase: the
    predicate that relates the two roles (``tem direito a obter``)."""
    for k in range(i + 1, j):
        if a.stems[k] and a.low[k - 1] not in OF:
            return a.stems[k]
    return ""


def _passive(a: Analysis, i: int, j: int) -> bool:
    """A passive or reflexive verb between tokens ``i`` and ``j`` (``pode ser revogado``, ``podrá
    fundarse``, ``dissolvidas pelo Estado``): the same roles in the other order."""
    between = range(i + 1, j)
    return any(a.low[k] in PASSIVE_AUX or a.low[k] in AGENT_MARKS or a.low[k] == "se" for k in between) or any(
        a.low[k].endswith("rse") for k in between
    )


def role_cues(claim: Analysis, passage: Analysis) -> list[Cue]:
    """The claim's opening subject and another noun of it trade places in the passage
    (``O controlador tem direito a obter do titular`` / ``O titular ... do controlador``).
    Passives with an agent (``... pelo controlador``) are the same roles in other words."""
    if not claim.low:
        return []
    x = _opening_subject(claim, 0)
    if x is None:
        return []
    sx = claim.stems[x]
    for m, st in enumerate(passage.stems):
        if not st or st == sx or st not in claim.stem_set or not passage.toks[m].text[:1].isalpha():
            continue
        if _opening_subject(passage, m) != m:
            continue
        same = passage.sent[m]
        later = [q for q in range(m + 1, len(passage.low)) if passage.sent[q] == same and passage.stems[q] == sx]
        mine_later = [q for q in range(x + 1, len(claim.low)) if claim.stems[q] == st]
        if (
            later
            and mine_later
            and claim.low[mine_later[0] - 1] not in AGENT_MARKS  # a passive's agent: the same roles
            and _predicate_between(claim, x, mine_later[0])
            and _predicate(claim, x, mine_later[0]) in passage.stems[m + 1 : later[0]]
            and _passive(claim, x, mine_later[0]) == _passive(passage, m, later[0])
        ):
            said = f"{claim.toks[x].text} … {claim.toks[mine_later[0]].text}"
            shown = f"{passage.toks[m].text} … {passage.toks[later[0]].text}"
            return [(f"roles: claim: {said}; section: {shown}", ACTOR_CONFLICT, True)]
    return []
