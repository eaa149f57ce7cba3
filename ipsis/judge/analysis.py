"""A text read once for the cue judge: tokens, stems, sentences and the cue sites in it.

:class:`Analysis` finds, in a claim or a passage, the sites the cues compare: modal phrases with
their deontic class (a negator before the modal, or a verb of avoiding after it, changes the
class: ``não pode`` is a prohibition, ``should avoid`` is ``SHOULD NOT``), negations with the
content words they reach, and limiter clauses (``salvo ...``, ``unless ...``) with their words.
:mod:`ipsis.judge.cues` and the rule modules (:mod:`ipsis.judge.structure`, :mod:`ipsis.judge.slots`,
:mod:`ipsis.judge.scope`, :mod:`ipsis.judge.align`) read it; none changes it.

>>> a = Analysis("Ninguém pode ser compelido a associar-se, salvo nos casos previstos em lei.", "pt")
>>> [(s.surface, s.cls) for s in a.modals], [s.surface for s in a.limiters]
([('Ninguém pode', 'prohibition')], ['salvo nos casos previstos em lei'])
>>> [(s.surface, s.cls) for s in Analysis("Senders should avoid generating it.", "en").modals]
[('should avoid', 'discouraged')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ipsis.judge.numbers import Quantity, quantities
from ipsis.judge.text import Token, guess_language, is_content, stem, tokens
from ipsis.lexicon import (
    BOUNDS,
    CHAIN,
    COMPEL,
    DEONTIC,
    DISCOURAGED,
    NEGATORS,
    OBLIGATION,
    PERMISSION,
    PROHIBITION,
    RECOMMENDATION,
    RESTRICTORS,
    words,
)
from ipsis.lexicon import LIMITERS as LEXICON_LIMITERS

ALL_NEGATORS = NEGATORS["pt"] | NEGATORS["es"] | NEGATORS["en"]
CANNOT_BE = re.compile(r"(?:in|im|ir|i)([a-zà-ú]{4,}?)(?:ível|ável|íveis|áveis|ible|able|ibles|ables)$")
"""A negative-prefixed adjective of possibility (``insusceptível``, ``inalienable``, ``irrevocable``): the
passage says the thing cannot be done, as a prohibition anchored to the words after it and to its root."""
NP_GLUE = words("o e y ou or and de do da dos das del of")
"""Words inside a noun phrase between a negative determiner and its verb (``nenhuma forma de censura pode``)."""
NEGATIVE_DETERMINERS = words("nenhum nenhuma nenhuns nenhumas ningún ninguna ninguno no neither")
"""Negators that open a noun phrase and negate the verb after it (``ninguna entrada ... podrá``)."""
CONTINUING = words("nem ni nor")
"""Negators that continue an earlier negation of the same sentence rather than add one."""
AVOIDING = words("""avoid avoids avoiding refrain refrains abster abster-se abstenerse abstener evitar evite eviten
    evitem""")
"""Verbs that negate a modal verb before them: ``should avoid`` is ``SHOULD NOT``, ``deve evitar`` is ``não deve``."""
PRIVATIVE = words("""without lacking lack lacks absent missing sem sin carece carecem carecen falta faltar
    exime eximem eximir isenta isentam isento isentos exonera exoneram exonerado exime eximen exento exentos
    exonera exoneran dispensa dispensam dispensado dispensada waives waived exempt exempts exempted""")
"""Words that deny the noun after them as a negator does: ``lacking both X and Y`` = ``neither X nor Y``,
``se exime de responsabilidade`` = ``não será responsabilizado``."""
AVOIDED = {OBLIGATION: PROHIBITION, RECOMMENDATION: DISCOURAGED}
"""``must avoid`` is a prohibition, ``should avoid`` is discouraged (``may avoid`` stays a permission)."""
NEGATING_VERBS = words("deixar deixa deixe deixam deixem deixarem deixou dejar deja deje dejan dejen fail fails failed")
"""Verbs that negate the verb after ``de``/``to``: ``deixar de adotar`` = ``não adotar``."""
NOT_NEGATION: tuple[tuple[str, ...], ...] = (
    ("não", "só"),
    ("não", "obstante"),
    ("no", "obstante"),
    ("no", "sólo"),
    ("no", "solo"),
    ("not", "only"),
    ("no", "more", "than"),
    ("no", "later", "than"),
    ("a", "não", "ser"),
    ("a", "no", "ser"),
    ("whether", "or", "not"),
    ("quer", "ou", "não"),
)
"""Fixed expressions whose negator does not negate the predicate."""
HYPHEN_NEGATORS = frozenset({"não"})
"""Negators written as a prefix with a hyphen (pt ``não-duráveis``); en ``no-store`` is a name."""
NEGATED_BOUNDS = sorted(
    {tuple(p.split()) for ps in BOUNDS.values() for p in ps if p.split()[0] in ALL_NEGATORS},
    key=len,
    reverse=True,
)
"""Bounds written with a negator (``não superior a``, ``no más de``, ``not more than``): before a
number they are compared as bounds (:func:`ipsis.judge.bounds.bound_of`, where ``más de`` is a
lower bound), not as negations."""

MODALS: dict[tuple[str, ...], str] = {tuple(p.split()): cls for cls, ps in DEONTIC.items() for p in ps}
"""Modal phrases (token tuples, casefolded) and their deontic class."""
_MAX_MODAL = max(len(k) for k in MODALS)
NOT_OBLIGED = "negated obligation"
NEGATED_MODAL = {OBLIGATION: NOT_OBLIGED, PERMISSION: PROHIBITION, PROHIBITION: PERMISSION}
NEGATED_MODAL |= {RECOMMENDATION: DISCOURAGED}
NEGATIVE_MODALS = frozenset({PROHIBITION, NOT_OBLIGED, DISCOURAGED})
"""A negator right before a modal verb changes its class: ``não pode`` / ``no podrá`` is a
prohibition; ``não deve`` / ``ninguém deve`` is a negated obligation, kept apart because its force
differs by language (pt "must not", en "need not") and a swap between the two is a finding."""

LIMITERS: dict[str, tuple[str, ...]] = {lang: LEXICON_LIMITERS[lang] + RESTRICTORS[lang] for lang in LEXICON_LIMITERS}
"""Limiter clauses and restrictive adverbs (:mod:`ipsis.lexicon`): a passage's limiter the claim drops is a cue."""
_LIMITER_TUPLES = sorted({tuple(p.split()) for ps in LIMITERS.values() for p in ps}, key=len, reverse=True)

ANCHOR_SPAN = 4
"""Content words on each side of a modal or after a negator that tie it to a predicate."""


@dataclass(frozen=True, slots=True)
class Site:
    """A negation, modal or limiter at token ``i``..``j``; ``anchors`` are nearby content stems."""

    kind: str
    i: int
    j: int
    surface: str
    anchors: tuple[str, ...]
    cls: str = ""


def _plain(low: str) -> bool:
    return is_content(low) and low not in ALL_NEGATORS and (low,) not in MODALS


class Analysis:
    """A text's tokens, stems and cue sites, computed once."""

    def __init__(self, text: str, lang: str | None = None) -> None:
        self.text = text
        self.lang = lang or guess_language(text)
        self.toks: list[Token] = tokens(text)
        self.low = [t.low for t in self.toks]
        self.sent = self._sentence_ids()
        self.consumed: set[int] = set()
        self.quantities: list[Quantity] = quantities(text)
        self.modals = self._modals()
        self.limiters = self._limiters()
        self.negations = self._negations()
        skip = self.consumed | {k for s in self.negations for k in range(s.i, s.j)}
        self.stems = [stem(w) if is_content(w) and k not in skip else "" for k, w in enumerate(self.low)]
        self.stem_set = {s for s in self.stems if s}

    def _match(self, k: int, phrases: list[tuple[str, ...]] | dict[tuple[str, ...], str]) -> tuple[str, ...] | None:
        for n in range(min(_MAX_MODAL, len(self.low) - k), 0, -1):
            cand = tuple(self.low[k : k + n])
            if cand in phrases:
                return cand
        return None

    def _sentence_ids(self) -> list[int]:
        out, sid, prev_end = [], 0, 0
        for t in self.toks:
            gap = self.text[prev_end : t.start]
            if re.search(r"[.;:!?]\s|\n\s*\n", gap):
                sid += 1
            out.append(sid)
            prev_end = t.end
        return out

    def _span(self, i: int, j: int) -> str:
        return self.text[self.toks[i].start : self.toks[j - 1].end]

    def _anchors(self, i: int, j: int, before: bool = True) -> tuple[str, ...]:
        sid = self.sent[i]
        ahead = range(j, min(len(self.low), j + 3 * ANCHOR_SPAN))
        after = [stem(self.low[k]) for k in ahead if self.sent[k] == sid and _plain(self.low[k])]
        out = after[:ANCHOR_SPAN]
        if before:
            behind = range(max(0, i - 3 * ANCHOR_SPAN), i)
            prev = [stem(self.low[k]) for k in behind if self.sent[k] == sid and _plain(self.low[k])]
            out = out + prev[-ANCHOR_SPAN:]
        return tuple(out)

    def _modals(self) -> list[Site]:
        out: list[Site] = []
        k = 0
        negators = NEGATORS.get(self.lang, frozenset()) | NEGATORS["en"]
        while k < len(self.low):
            phrase = self._match(k, MODALS)
            if phrase is None:
                k += 1
                continue
            cls, i, j = MODALS[phrase], k, k + len(phrase)
            if self.hyphenated(k):
                k = j  # "must-understand", "may-be": a name, not a modal verb
                continue
            if self.lang == "en" and phrase == ("may",) and self.toks[k].text == "May" and k > 0:
                k = j
                continue
            if phrase == ("can", "be") and not self._allowed(j):
                k = j  # "can be used to prevent": what it is able to do, not a permission
                continue
            if self._caused(i, j):
                k = j  # "se debe a que", "deve-se a": caused by, not a duty
                continue
            if out and phrase[0] in COMPEL and all(w in CHAIN for w in self.low[out[-1].j : i]):
                k = j  # "no pudiendo ser obligada a declarar": the participle the modal reaches, not a modal
                continue
            neg = self._negator_before(i, negators)
            if neg is not None and NEGATED_MODAL.get(cls):
                cls = NEGATED_MODAL[cls]
                self.consumed.add(neg)  # the words between stay content ("nenhuma forma de censura pode")
                i = neg if neg == i - 1 else i
            elif j < len(self.low) and self.low[j] in AVOIDING and cls in AVOIDED:
                cls, j = AVOIDED[cls], j + 1  # "should avoid generating" = "SHOULD NOT generate"
            self.consumed.update(range(i, j))
            out.append(Site("modal", i, j, self._span(i, j), self._anchors(i, j), cls))
            k = j
        for k, w in enumerate(self.low):  # "insusceptível de transmissão": it cannot be transmitted
            m = CANNOT_BE.match(w)
            if m is None or k in self.consumed:
                continue
            anchors = (*self._anchors(k, k + 1, before=False)[:2], stem(m.group(1)))
            out.append(Site("modal", k, k + 1, self._span(k, k + 1), anchors, PROHIBITION))
        out.sort(key=lambda site: site.i)
        return out

    def _allowed(self, j: int) -> bool:
        """``can be`` + a participle (adverbs skipped) reads as a permission in English (``can be
        ignored by caches``, ``can be defined at will``), except ``can be used to`` / ``as`` /
        ``for``: what a thing serves for (``The "jti" claim can be used to prevent ...``)."""
        while j < len(self.low) and (self.low[j].endswith("ly") or self.low[j] in ("and", "or")):
            j += 1
        part = self.low[j] if j < len(self.low) else ""
        nxt = self.low[j + 1] if j + 1 < len(self.low) else ""
        return part.endswith(("ed", "en", "wn")) and not (part == "used" and nxt in ("to", "as", "for", "in"))

    def _caused(self, i: int, j: int) -> bool:
        """``deber``/``dever`` as a pronominal verb before ``a`` (``se debe a que``, ``deve-se a``,
        ``debido a``): it says what something is due to."""
        if j - i != 1 or stem(self.low[i])[:3] not in ("deb", "dev"):
            return False
        return ((i > 0 and self.low[i - 1] == "se") or self.low[j : j + 1] == ["se"]) and any(
            w in ("a", "à", "ao", "al", "aos", "às") for w in self.low[j : j + 2]
        )

    def _bounds_number(self, k: int) -> bool:
        """A negated bound starts at token ``k`` and a number follows it (``no más de 72 horas``)."""
        ph = next((ph for ph in NEGATED_BOUNDS if tuple(self.low[k : k + len(ph)]) == ph), None)
        if ph is None or k + len(ph) >= len(self.toks):
            return False
        start = self.toks[k + len(ph)].start
        return any(start <= q.start <= start + 1 for q in self.quantities)

    def _negative_prefix(self, k: int) -> bool:
        """Token ``k`` is ``não`` joined to the lowercase word after it (``não-duráveis``,
        ``não-residentes``): a negation of that word, not a part of a name (``no-store``, ``If-None-Match``)."""
        t = self.toks[k]
        nxt = self.toks[k + 1] if k + 1 < len(self.toks) else None
        return (
            t.text in HYPHEN_NEGATORS and nxt is not None and self.text[t.end : nxt.start] == "-" and nxt.text.islower()
            and self.text[t.start - 1 : t.start] != "-"
        )

    def hyphenated(self, k: int) -> bool:
        """Token ``k`` is part of a hyphenated name (``No-store``, ``If-None-Match``), not a word alone."""
        t = self.toks[k]
        return self.text[t.start - 1 : t.start] == "-" or self.text[t.end : t.end + 1] == "-"

    def _negator_before(self, i: int, negators: frozenset[str]) -> int | None:
        """The negator that reaches the modal at token ``i`` through at most three auxiliaries,
        clitics or modal verbs of the same clause (``ninguém nela podendo``, ``no pudiendo ser
        obligada``), or None."""
        k, nouns = i - 1, 0
        while k >= 0 and i - k <= 6 and self.sent[k] == self.sent[i]:
            between = self.text[self.toks[k].end : self.toks[k + 1].start]
            if any(c in between for c in ",;:"):
                return None
            w = self.low[k]
            if w in negators and not self.hyphenated(k):
                # past a noun phrase only a negative determiner reaches: "ninguna entrada o
                # registro podrá" is a prohibition, "não o juiz ... pode" is not
                return k if not nouns or w in NEGATIVE_DETERMINERS else None
            if w not in CHAIN and (w,) not in MODALS:
                if not is_content(w) and w not in NP_GLUE:
                    return None
                nouns += 1
                if nouns > 3:
                    return None
            k -= 1
        return None

    def _limiters(self) -> list[Site]:
        out: list[Site] = []
        for k in range(len(self.low)):
            for phrase in _LIMITER_TUPLES:
                if tuple(self.low[k : k + len(phrase)]) == phrase and not self.consumed & set(range(k, k + 1)):
                    end = self.toks[k].start
                    rest = self.text[end:]
                    stop = min((p for p in (rest.find(c) for c in ",;.") if p > 0), default=len(rest))
                    clause = tokens(rest[:stop])
                    clause_stems = tuple(stem(t.low) for t in clause if is_content(t.low))
                    prev = [stem(w) for w in self.low[max(0, k - 12) : k] if is_content(w)][-ANCHOR_SPAN:]
                    site = Site("limiter", k, k + len(phrase), rest[:stop].strip(), tuple(prev), " ".join(clause_stems))
                    out.append(site)
                    self.consumed.update(range(k, k + len(phrase)))
                    break
        return out

    def _negations(self) -> list[Site]:
        out: list[Site] = []
        negators = NEGATORS[self.lang]
        for k, w in enumerate(self.low):
            if w not in negators or k in self.consumed:
                continue
            if any(tuple(self.low[k - off : k - off + len(e)]) == e for e in NOT_NEGATION for off in (0, 1, 2)):
                continue
            if self._bounds_number(k):
                continue
            if self.hyphenated(k) and not self._negative_prefix(k):
                continue  # a part of a name ("If-None-Match"), not a negation
            earlier = [*out, *(s for s in self.modals if s.cls in NEGATIVE_MODALS)]
            if w in CONTINUING and any(s.i < k and self.sent[s.i] == self.sent[k] for s in earlier):
                continue  # "ninguém será preso nem mantido", "ninguém é obrigado a X nem a Y": one negation
            out.append(Site("negation", k, k + 1, self._span(k, k + 1), self._anchors(k, k + 1, before=False)[:2]))
        for k, w in enumerate(self.low[:-1]):  # "ao deixar de adotar" = "não adotar"
            if w in NEGATING_VERBS and self.low[k + 1] in ("de", "to") and k not in self.consumed:
                out.append(Site("negation", k, k + 2, self._span(k, k + 2), self._anchors(k, k + 2, before=False)[:2]))
        out.sort(key=lambda site: site.i)
        return out

    def has_pair(self, anchors: tuple[str, ...]) -> bool:
        """``anchors[0]`` followed within 4 words by ``anchors[1]`` (or ``anchors[0]`` alone)."""
        first = [k for k, s in enumerate(self.stems) if s == anchors[0]]
        return any(len(anchors) < 2 or anchors[1] in self.stems[k + 1 : k + 5] for k in first)

    def negated_near(self, anchors: tuple[str, ...], after: int = 0) -> bool | None:
        """None if the anchored words are absent; else whether some occurrence is negated
        (a negator up to 5 tokens before it, or up to ``after`` tokens after it).

        An occurrence of ``anchors[0]`` followed within 4 words by ``anchors[1]`` is preferred, so
        that a repeated verb (``tiver ... pronunciado`` / ``tiver votado``) is told apart.
        """
        first = [k for k, s in enumerate(self.stems) if s == anchors[0]]
        pairs = {k: self.stems.index(anchors[1], k + 1, k + 5) for k in first
                 if len(anchors) > 1 and anchors[1] in self.stems[k + 1 : k + 5]}
        hits = list(pairs) or first
        if not hits:
            return None
        neg_pos = {s.i for s in self.negations} | {s.i for s in self.modals if s.cls in NEGATIVE_MODALS}
        # "lacking both X and Y" = "neither X nor Y"; a privative word reaches the noun right after it
        privative = {k for k, w in enumerate(self.low) if w in PRIVATIVE}
        # the negation of the predicate stands between its subject and its verb as well ("o vício
        # não for sanado" negates what "Não sendo o vício sanado" does); "decretada nem mantida"
        # continues a negation, it starts none
        inner = {p for p in neg_pos if self.low[p] not in CONTINUING}
        return any(
            any(h - 5 <= p < h or h < p <= h + after for p in neg_pos)
            or any(h < p < pairs.get(h, h) for p in inner)
            or any(h - 3 <= p < h for p in privative)
            for h in hits
        )
