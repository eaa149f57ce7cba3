"""Pure text helpers of the HTML report: escaping, context windows, highlighted spans, word diffs.

Everything that comes from a document or an answer goes through :func:`esc`. Highlighted text is
written so that the element's ``textContent`` is exactly ``document.text[start:end]`` (a CR is
written as ``&#13;`` because HTML parsing would otherwise turn CR LF into LF).

>>> esc('<script>alert("x")</script>\\r\\n')
'&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#13;\\n'
>>> text = "Art. 1º Todos são iguais perante a lei. Art. 2º Outro."
>>> highlight(text, 0, len(text), 8, 38, [])
'Art. 1º <mark class="hit" data-start="8" data-end="38">Todos são iguais perante a lei</mark>. Art. 2º Outro.'
"""

from __future__ import annotations

import difflib
import html
import itertools
import re
from collections.abc import Iterable, Sequence
from typing import Any

_CONTROL = re.compile(r"[\x00\r]")


def esc(value: Any) -> str:
    """HTML-escape text (quotes too), keeping CR and replacing NUL so the DOM text is faithful."""
    s = html.escape("" if value is None else str(value), quote=True)
    if "\r" in s or "\x00" in s:
        s = _CONTROL.sub(lambda m: "&#13;" if m.group() == "\r" else "\ufffd", s)
    return s


def window(text: str, start: int, end: int, radius: int = 240, lo: int = 0, hi: int | None = None) -> tuple[int, int]:
    """A range around ``[start, end)`` with about ``radius`` characters each side, inside ``[lo, hi)``.

    The ends move to a whitespace boundary (within 40 characters) so words are not cut.

    >>> t = "alpha beta gamma delta epsilon zeta"
    >>> ws, we = window(t, 11, 16, radius=7)
    >>> t[ws:we]
    'beta gamma delta'
    """
    hi = len(text) if hi is None else hi
    ws, we = max(lo, start - radius), min(hi, end + radius)
    if ws > lo:
        k = text.find(" ", ws, min(start, ws + 40))
        k2 = text.find("\n", ws, min(start, ws + 40))
        cut = min((x for x in (k, k2) if x != -1), default=-1)
        if cut != -1:
            ws = cut + 1
    if we < hi:
        k = max(text.rfind(" ", max(end, we - 40), we), text.rfind("\n", max(end, we - 40), we))
        if k != -1:
            we = k
    return ws, we


def _wrap(piece: str, kinds: set[str], notes: dict[str, str]) -> str:
    out = esc(piece)
    if "note" in kinds:
        out = f'<span class="note" title="{esc(notes.get("note", ""))}">{out}</span>'
    if "revoked" in kinds:
        out = f'<del class="revoked" title="{esc(notes.get("revoked", ""))}">{out}</del>'
    return out


def highlight(
    text: str,
    ws: int,
    we: int,
    start: int,
    end: int,
    marks: Iterable[tuple[str, int, int]],
    cls: str = "hit",
    notes: dict[str, str] | None = None,
) -> str:
    """``text[ws:we]`` as HTML with ``[start, end)`` in ``<mark class=cls>`` and marked spans styled.

    ``marks`` are ``(kind, start, end)`` with kind ``revoked`` (struck) or ``note`` (muted).
    """
    notes = notes or {}
    hs, he = max(ws, min(start, we)), max(ws, min(end, we))
    spans = [(k, max(ws, s), min(we, e)) for k, s, e in marks if s < we and e > ws and k in ("revoked", "note")]
    cuts = sorted({ws, we, hs, he, *(s for _, s, _ in spans), *(e for _, _, e in spans)})
    before: list[str] = []
    inside: list[str] = []
    after: list[str] = []
    for a, b in itertools.pairwise(cuts):
        if a >= b:
            continue
        kinds = {k for k, s, e in spans if s <= a and b <= e}
        piece = _wrap(text[a:b], kinds, notes)
        (inside if hs <= a and b <= he else before if b <= hs else after).append(piece)
    hit = f'<mark class="{cls}" data-start="{start}" data-end="{end}">{"".join(inside)}</mark>'
    return "".join(before) + hit + "".join(after)


_TOKEN = re.compile(r"\s+|\w+|[^\w\s]", re.UNICODE)
_WORDLIKE = re.compile(r"\w")


_FOLD = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'", "–": "-", "—": "-",
                       "\u2212": "-"})


def _fold(token: str) -> str:
    return " " if token.isspace() else token.translate(_FOLD)


def word_diff(a: str, b: str) -> list[tuple[str, str]]:
    """Word-level diff from ``a`` (the quote) to ``b`` (the source): ``(op, text)`` pairs.

    ``op`` is ``equal``, ``delete`` (only in the quote) or ``insert`` (only in the source).

    >>> word_diff("prazo de 30 dias", "prazo de 60 dias")
    [('equal', 'prazo de '), ('delete', '30'), ('insert', '60'), ('equal', ' dias')]
    >>> word_diff("issued the JWT", "issued the\\n   JWT")  # a line break is no change
    [('equal', 'issued the JWT')]
    """
    ta, tb = _TOKEN.findall(a), _TOKEN.findall(b)
    # a line break or a curly quote is no change to a reader: compare folded tokens
    sm = difflib.SequenceMatcher(None, [_fold(t) for t in ta], [_fold(t) for t in tb], autojunk=False)
    out: list[tuple[str, str]] = []
    dele: list[str] = []
    ins: list[str] = []

    def flush() -> None:
        texts = ["".join(dele), "".join(ins)]
        if not any(t.strip() for t in texts):
            equal(max(texts, key=len))
        else:  # the spaces at either end stay outside the change, so words never glue
            lead = max((t[: len(t) - len(t.lstrip())] for t in texts if t.strip()), key=len)
            tail = max((t[len(t.rstrip()) :] for t in texts if t.strip()), key=len)
            if lead and not (out and out[-1][1][-1:].isspace()):
                equal(lead)
            for op, t in zip(("delete", "insert"), texts, strict=True):
                if t.strip():
                    out.append((op, t.strip()))
            if tail:
                out.append(("equal", tail))
        dele.clear()
        ins.clear()

    def equal(s: str) -> None:
        if out and out[-1][0] == "equal":
            prev = out[-1][1]
            out[-1] = ("equal", prev + (s.lstrip() if prev[-1:].isspace() else s))
        elif s:
            out.append(("equal", s))

    codes = sm.get_opcodes()
    for k, (tag, i1, i2, j1, j2) in enumerate(codes):
        if tag != "equal":
            dele.append("".join(ta[i1:i2]))
            ins.append("".join(tb[j1:j2]))
            continue
        same = "".join(ta[i1:i2])
        if (dele or ins) and not same.strip() and k + 1 < len(codes):  # "a receipt" for "is required": one change
            dele.append(same)
            ins.append(same)
            continue
        flush()
        equal(same)
    flush()
    return out


def diff_ops(diff: Any) -> list[tuple[str, str]] | None:
    """Read a diff given by the matcher (pairs, triples or dicts) as ``(op, text)`` pairs."""
    if not isinstance(diff, list):
        return None
    ops: list[tuple[str, str]] = []
    names = {"=": "equal", "-": "delete", "+": "insert", "eq": "equal", "del": "delete", "ins": "insert"}
    for item in diff:
        if isinstance(item, dict):
            op = str(item.get("op") or item.get("tag") or item.get("type") or "")
            a = item.get("a", item.get("quote"))
            b = item.get("b", item.get("source"))
            t = item.get("text")
        elif isinstance(item, (list, tuple)) and len(item) >= 2:
            op, t = str(item[0]), item[1]
            a, b = (item[1], item[2]) if len(item) >= 3 else (None, None)
        else:
            return None
        op = names.get(op, op)
        if op == "replace":
            ops += [("delete", str(a if a is not None else t or "")), ("insert", str(b or ""))]
        elif op in ("equal", "delete", "insert"):
            ops.append((op, str(t if t is not None else (a if op != "insert" else b) or "")))
        else:
            return None
    return ops


def diff_hunks(ops: Sequence[tuple[str, str]], words: int = 4) -> list[list[tuple[str, str]]]:
    """The changes of ``ops``, each with up to ``words`` words of unchanged context each side.

    Changes whose context would touch share one hunk; an ``equal`` run between hunks is cut.

    >>> quote = "o prazo é de 30 dias úteis contados da data do pedido e não da entrega"
    >>> diff_hunks(word_diff(quote, quote.replace("30", "60").replace("não ", "")), 2)  # doctest: +NORMALIZE_WHITESPACE
    [[('equal', 'é de '), ('delete', '30'), ('insert', '60'), ('equal', ' dias úteis')],
     [('equal', 'pedido e '), ('delete', 'não'), ('equal', ' da entrega')]]
    >>> diff_hunks(word_diff("prazo de 30 dias", "prazo de 60 dias"), 1)
    [[('equal', 'de '), ('delete', '30'), ('insert', '60'), ('equal', ' dias')]]
    """
    changes = [i for i, (op, _) in enumerate(ops) if op != "equal"]
    if not changes:
        return []
    hunks: list[list[tuple[str, str]]] = []
    cur: list[tuple[str, str]] = []
    for i, (op, text) in enumerate(ops):
        if op != "equal":
            cur.append((op, text))
            continue
        toks = _TOKEN.findall(text)
        n_words = sum(1 for t in toks if _WORDLIKE.match(t))
        first, last = i < changes[0], i > changes[-1]
        if first:
            cur = [("equal", _last_words(toks, words))] if words else []
        elif last:
            cur.append(("equal", _first_words(toks, words)))
        elif n_words <= 2 * words:
            cur.append((op, text))
        else:
            cur.append(("equal", _first_words(toks, words)))
            hunks.append(cur)
            cur = [("equal", _last_words(toks, words))]
    hunks.append(cur)
    return [[(op, t) for op, t in h if t] for h in hunks]


def _first_words(toks: list[str], n: int) -> str:
    return "".join(_first_list(toks, n))


def _last_words(toks: list[str], n: int) -> str:
    return "".join(reversed(_first_list(list(reversed(toks)), n)))


def _first_list(toks: list[str], n: int) -> list[str]:
    out, seen = [], 0
    for t in toks:  # a word counts; spaces and signs ride along
        if _WORDLIKE.match(t):
            if seen == n:
                break
            seen += 1
        out.append(t)
    while seen == n and out and out[-1].isspace():
        out.pop()
    return out


def render_diff(ops: Sequence[tuple[str, str]], words: int = 4, tips: tuple[str, str] = ("", "")) -> str:
    """The changes with ``words`` words of context each side, hunks apart (``…``).

    Deleted words (only in the quote) are ``<del>`` (struck through), inserted words (only in the
    source) ``<ins>`` (underlined), each kept apart by a space so a replaced word never reads as
    one word glued to the other; ``tips`` are their tooltips.
    """
    out = []
    for hunk in diff_hunks(ops, words):
        parts = []
        prev = ""
        for op, t in hunk:
            if op == "equal":
                parts.append(f'<span class="eq">{esc(t)}</span>')
            else:
                tag, tip = ("del", tips[0]) if op == "delete" else ("ins", tips[1])
                if prev in ("delete", "insert") and not t[:1].isspace():
                    parts.append(" ")
                title = f' title="{esc(tip)}"' if tip else ""
                parts.append(f"<{tag}{title}>{esc(t)}</{tag}>")
            prev = op
        out.append(f'<span class="hunk">{"".join(parts)}</span>')
    return '<span class="gap"> … </span>'.join(out)
