"""Who does what to whom, and whether it is done: a claim's clause aligned with the quote's sentences.

A deterministic predicate–argument alignment (issue 25), read as features by the fitted
combination (:mod:`ipsis.judge.features`). Every content word the claim shares with the quote's
sentences is an *anchor*; around it, the other shared words stand on its left (the one who acts,
in an active clause) or on its right (what is acted on). A passive clause (``é marcado pelo
empregador``, ``is ignored by the recipient``, ``será apreciada por el juez``) is mapped to the
active: the words after its agent mark (``pelo``/``por``/``by``) stand on the left, the rest on the
right. Three conflicts are read this way, each with its words as evidence:

- **roles**: two shared words on opposite sides of the same anchor in the claim and in the section
  (``O trabalhador deve proporcionar ao empregador`` / ``O empregador deve proporcionar ao trabalhador``);
- **polarity**: a shared word negated in the claim and in none of the section's uses, or the other
  way round: the negation is bound to the word it stands before (``no``/``não``/``not``/``nunca``/
  ``nunca``/``never`` within :data:`BIND` words, in the same clause), never to the whole sentence;
- **actor**: for a shared predicate, the claim's actor (the agent of its passive, else the words
  just before it) and the section's share no word.

A claim with none of these, no cue of the rules and most of its content words aligned is **clean**:
the positive signal a faithful paraphrase needs.

>>> from ipsis.judge.analysis import Analysis
>>> s = Analysis("O empregador deve proporcionar ao trabalhador condições de trabalho.", "pt")
>>> align(Analysis("O trabalhador deve proporcionar ao empregador condições de trabalho.", "pt"), s).roles
[('trabal', 'propor', 'empreg')]
>>> align(Analysis("A lei exclui da apreciação do Poder Judiciário a ameaça a direito.", "pt"),
...       Analysis("A lei não excluirá da apreciação do Poder Judiciário lesão ou ameaça a direito.", "pt")).polarity
['exclui']
>>> align(Analysis("O descanso é marcado pelo trabalhador.", "pt"),
...       Analysis("O descanso é marcado pelo empregador.", "pt")).actor
[('marcad', 'trabal', 'empreg')]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ipsis.lexicon import SYNONYMS, words

if TYPE_CHECKING:
    from ipsis.judge.analysis import Analysis
    from ipsis.judge.cues import Reading

AGENT_MARKS = words("pelo pela pelos pelas por by")
PASSIVE_AUX = words("""ser sido é são será serão foi foram seja sejam fosse for forem está estão
    es son fue fueron sea sean será serán sido siendo está están
    be is are was were been being""")
PREDICATE_NEGATORS: dict[str, frozenset[str]] = {
    "pt": words("não nunca jamais"),
    "es": words("no nunca jamás"),
    "en": words("not never cannot can't don't doesn't isn't aren't won't mustn't"),
}
"""Negators bound to the predicate after them. Determiners and list negators (``nenhum``,
``ninguna``, ``ni``, ``nem``, ``sem``, ``sin``, English ``no``) negate a noun, not the predicate;
Portuguese ``no`` is ``em o``."""
PRIVATIVE: tuple[tuple[str, ...], ...] = tuple(tuple(p.split()) for p in (
    "sem", "sin", "without", "fora de", "fora do", "fora da", "fuera de", "fuera del", "outside", "outside of",
    "libre de", "libres de", "livre de", "livres de", "free of", "exento de", "exentos de", "exenta de",
    "exentas de", "isento de", "isentos de", "isenta de", "isentas de", "exempt from"))
"""Words that deny the word after them (``sem sequer representar``, ``libre de impuesto``,
``fuera del ejercicio``): bound to the next content word, at most :data:`BIND` words off."""
NOT_NEGATING = frozenset({("ser", "que"), ("só",), ("sólo",), ("solo",), ("solamente",), ("only",), ("apenas",)})
"""What after a negator makes it no negation of the predicate (``a não ser que``: unless; ``no sólo``)."""
STRONG_AGENT = words("pelo pela pelos pelas by")
"""Agent marks that make a passive without its auxiliary (``prestada pelo Estado``)."""
BIND = 3
"""Words between a negator and the word it negates (``não pode ser``, ``no podrá``, ``cannot be``)."""
SPAN = 8
"""Words on each side of an anchor read as its arguments."""
CLAUSE_BREAKS = frozenset(";:")
CLEAN_COVERAGE = 0.8
"""Share of the claim's content words the quote's sentences must hold for a claim to read clean."""


@dataclass(slots=True)
class Alignment:
    """The conflicts found and the clean signal; each conflict lists its words (stems)."""

    roles: list[tuple[str, str, str]] = field(default_factory=list)
    polarity: list[str] = field(default_factory=list)
    actor: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def conflicts(self) -> int:
        return len(self.roles) + len(self.polarity) + len(self.actor)


def _clause(a: Analysis, k: int, breaks: frozenset[str] = CLAUSE_BREAKS) -> tuple[int, int]:
    """Token range ``[lo, hi)`` of ``k``'s clause: its sentence, cut at ``;`` and ``:``, at most
    :data:`SPAN` words each side."""
    lo = k
    while lo > 0 and k - lo < SPAN and a.sent[lo - 1] == a.sent[k] and not _break(a, lo - 1, lo, breaks):
        lo -= 1
    hi = k + 1
    while hi < len(a.toks) and hi - k <= SPAN and a.sent[hi] == a.sent[k] and not _break(a, hi - 1, hi, breaks):
        hi += 1
    return lo, hi


def _break(a: Analysis, i: int, j: int, breaks: frozenset[str]) -> bool:
    return any(c in breaks for c in a.text[a.toks[i].end : a.toks[j].start])


def _passive_agent(a: Analysis, k: int, hi: int) -> int | None:
    """Index of the agent mark of a passive at ``k`` (an auxiliary just before it, ``pelo``/``by``
    after it in the clause), else None."""
    mark = next((m for m in range(k + 1, hi) if a.low[m] in AGENT_MARKS), None)
    if any(a.low[m] in PASSIVE_AUX for m in range(max(0, k - 2), k)):
        return mark
    return mark if mark is not None and mark - k <= 2 and a.low[mark] in STRONG_AGENT else None


def _sides(a: Analysis, k: int) -> tuple[dict[str, tuple[str, int]], set[str], bool]:
    """The content stems around anchor ``k`` with their logical side (``L`` acts, ``R`` is acted
    on) and distance from it, the stems of its actor, and whether someone acts there (a passive
    with its agent, or a modal verb just before the anchor)."""
    lo, hi = _clause(a, k)
    mark = _passive_agent(a, k, hi)
    sides: dict[str, tuple[str, int]] = {}
    for m in range(lo, hi):
        s = a.stems[m]
        if not s or m == k or s == a.stems[k]:
            continue
        side = ("L" if m > mark else "R") if mark is not None else ("L" if m < k else "R")
        sides.setdefault(s, (side, abs(m - k)))
    if mark is not None:
        actor = {a.stems[m] for m in range(mark + 1, min(hi, mark + 4)) if a.stems[m]}
    else:
        actor = {a.stems[m] for m in range(max(lo, k - 3), k) if a.stems[m]}
    acting = mark is not None or any(k - 2 <= site.j <= k for site in a.modals)
    return sides, actor, acting


def _negated(a: Analysis, k: int) -> bool:
    """Whether a negator of the predicate stands before word ``k`` in its clause, at most
    :data:`BIND` words off with no other content word between (``não pode ser revogado``)."""
    lo, _ = _clause(a, k)
    negators = PREDICATE_NEGATORS.get(a.lang, frozenset())
    for m in range(k - 1, max(lo, k - BIND - 1) - 1, -1):
        if any(tuple(a.low[m - len(p) + 1 : m + 1]) == p for p in PRIVATIVE):
            return True
        if a.low[m] in negators:
            return not any(tuple(a.low[m + 1 : m + 1 + len(p)]) == p for p in NOT_NEGATING)
        if a.stems[m] and m < k - 1 and a.low[m] not in PASSIVE_AUX:
            return False  # another content word in between: the negator is that word's
    return False


def _same(x: set[str], y: set[str]) -> bool:
    return bool(x & y) or any(g & x and g & y for g in _STEM_SYNONYMS)


def _synonym_stems() -> tuple[frozenset[str], ...]:
    from ipsis.judge.text import stem

    return tuple(frozenset(stem(w) for w in g) for g in SYNONYMS)


_STEM_SYNONYMS = _synonym_stems()


def align(claim: Analysis, text: Analysis) -> Alignment:
    """The claim's conflicts with ``text`` (the quote's sentences): roles, polarity, actor."""
    out = Alignment()
    shared = claim.stem_set & text.stem_set
    where_c = _positions(claim, shared)
    where_t = _positions(text, shared)
    for s in sorted(shared):
        negs_c = {_negated(claim, k) for k in where_c[s]}
        negs_t = {_negated(text, k) for k in where_t[s]}
        if len(negs_c) == 1 and len(negs_t) == 1 and negs_c != negs_t:
            out.polarity.append(s)
        if len(where_c[s]) != 1 or len(where_t[s]) != 1:
            continue  # an anchor used twice has no one pair of sides
        side_c, actor_c, acting_c = _sides(claim, where_c[s][0])
        side_t, actor_t, acting_t = _sides(text, where_t[s][0])
        both = [w for w in side_c if w in side_t and w in shared]
        left = [w for w in both if side_c[w][0] == "L" and side_t[w][0] == "R" and (w in actor_c or w in actor_t)]
        right = [w for w in both if side_c[w][0] == "R" and side_t[w][0] == "L" and (w in actor_c or w in actor_t)]
        if left and right and not any((left[0], right[0]) == (p, q) for p, _, q in out.roles):
            out.roles.append((left[0], s, right[0]))
        if (acting_c or acting_t) and actor_c and actor_t and not _same(actor_c, actor_t) \
                and not any(side_t.get(w, ("",))[0] == "L" for w in actor_c):
            out.actor.append((s, min(actor_c), min(actor_t)))
    return out


ALIGNMENT_FEATURES: tuple[str, ...] = ("align_roles", "align_polarity", "align_actor", "align_clean")
ALIGNMENT_SIGNS: tuple[int, ...] = (-1, -1, -1, 1)
"""A conflict never raises support; a clean claim never lowers it."""


def alignment_vector(r: Reading) -> list[float]:
    """The alignment's features of a reading (the claim against the quote's sentences), in the
    order of :data:`ALIGNMENT_FEATURES`: the count of each conflict, and 1 for a clean claim."""
    a = align(r.claim, r.core)
    clean = a.conflicts == 0 and not r.cues and r.coverage >= CLEAN_COVERAGE
    return [float(len(a.roles)), float(len(a.polarity)), float(len(a.actor)), float(clean)]


def _positions(a: Analysis, keep: set[str]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {s: [] for s in keep}
    for k, s in enumerate(a.stems):
        if s in out:
            out[s].append(k)
    return out


__all__ = ["ALIGNMENT_FEATURES", "ALIGNMENT_SIGNS", "CLEAN_COVERAGE", "Alignment", "align", "alignment_vector"]
