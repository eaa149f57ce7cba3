"""The report's sentences in its language: messages, reason flags, warnings and kinds as HTML.

Every chip carries a human sentence and a tooltip (``title``) from :mod:`ipsis.report.catalogue`;
the library's English messages are translated by :mod:`ipsis.report.messages`. A clause no
template knows stays in English inside ``<span lang="en" class="untranslated">``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ipsis.report.catalogue import CARRIED
from ipsis.report.html_text import esc
from ipsis.report.labels import label
from ipsis.report.messages import flag_text, kind_text, translate_parts


def message_html(message: Any, lang: str) -> str:
    """``message`` translated into ``lang``, its unknown clauses marked English."""
    text = "" if message is None else str(message)
    out = []
    for piece, ok in translate_parts(text, lang):
        out.append(esc(piece) if ok else f'<span lang="en" class="untranslated">{esc(piece)}</span>')
    return "; ".join(out)


def chip(text: str, tip: str, cls: str, data: str = "", attr: str = "key") -> str:
    """A labelled chip with a tooltip; ``data`` is the raw key (``data-key``, or ``data-<attr>``)."""
    key = f' data-{attr}="{esc(data)}"' if data else ""
    return f'<span class="{cls}" title="{esc(tip)}" tabindex="0"{key}>{esc(text)}</span>'


def _words(values: Any) -> str:
    if isinstance(values, list):
        return " ".join(str(v) for v in values)
    return "" if values is None else str(values)


def flags_html(reasons: Any, lang: str) -> str:
    """The reason flags of a near miss: sentence + tooltip each, then the words involved."""
    if not reasons:
        return ""
    items = []
    for r in reasons if isinstance(reasons, list) else [reasons]:
        if isinstance(r, Mapping):
            name = str(r.get("flag") or r.get("kind") or r.get("reason") or "")
            text, tip = flag_text(name, lang)
            said = [
                f"{label(lang, side)}: <q>{esc(_words(r.get(side)))}</q>"
                for side in ("quote", "source")
                if _words(r.get(side))
            ]
            words = f' <span class="small">{" · ".join(said)}</span>' if said else ""
            items.append(f"<li>{chip(text, tip, 'flag', name)}{words}</li>")
        else:
            text, tip = flag_text(str(r), lang)
            items.append(f"<li>{chip(text, tip, 'flag', str(r))}</li>")
    return f'<ul class="flags" aria-label="{esc(label(lang, "reasons"))}">{"".join(items)}</ul>'


def kind_chip(kind: Any, lang: str) -> str:
    text, tip = kind_text(str(kind or ""), lang)
    return chip(text, tip, "badge kind", str(kind or ""))


def warnings_html(warnings: Any, lang: str) -> str:
    warns = [w for w in warnings or [] if w]
    if not warns:
        return ""
    lis = []
    for w in warns:
        if isinstance(w, Mapping):
            lis.append(f"<li>{kind_chip(w.get('kind'), lang)} {message_html(w.get('message', ''), lang)}</li>")
        else:
            lis.append(f"<li>{message_html(w, lang)}</li>")
    return f'<div class="warnings"><h4>{label(lang, "warnings")}</h4><ul>{"".join(lis)}</ul></div>'


def carried_html(carried: Any, lang: str) -> str:
    """Where ``verify --carry-to`` found the citation in the other version, and how it changed."""
    if not isinstance(carried, Mapping):
        return ""
    status = str(carried.get("status") or "")
    entry = CARRIED.get(status)
    text, tip = (entry.get(lang) or entry["en"]) if entry else (status.replace("_", " "), status)
    to_any = carried.get("to")
    to: Mapping[str, Any] = to_any if isinstance(to_any, Mapping) else {}
    where = " ".join(str(x) for x in (to.get("source_id"), to.get("label") or to.get("section")) if x)
    bits = [chip(text, tip, f"badge kind carried-{esc(status)}", status)]
    if where:
        bits.append(f'<span class="secpath">{esc(where)}</span>')
    if isinstance(to.get("start"), int):
        bits.append(f'<span class="mono">[{to["start"]}, {esc(to.get("end"))})</span>')
    if carried.get("section_amended"):
        bits.append(esc(label(lang, "section_amended")))
    out = " ".join(bits) + flags_html(carried.get("flags"), lang)
    return f'<div class="carried" data-carried="{esc(status)}"><h4>{label(lang, "carried")}</h4>{out}</div>'
