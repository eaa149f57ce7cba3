"""The code points of the signs that :func:`ipsis.ingest.spacing._symbol_spacing` keeps no space
next to (Unicode categories Sm, Sc, Sk, So, Ps, Pd in the BMP), as ranges.

Finding them takes one ``unicodedata.category`` call per BMP code point (~7 ms, in every
process that normalizes a quote); :data:`RANGES` holds the answer for the Unicode database
:data:`UNIDATA` (Python 3.11's). :func:`sign_ranges` uses it only under that database and
computes the ranges under any other; ``tests/test_verify_fastpath_store.py`` checks that both agree.
"""

from __future__ import annotations

import unicodedata
from itertools import compress

UNIDATA = "14.0.0"
CATEGORIES = frozenset(("Sm", "Sc", "Sk", "So", "Ps", "Pd"))
RANGES = (
    "24 28 2b 2d 3c-3e 5b 5e 60 7b-7c 7e a2-a6 a8-a9 ac ae-b1 b4 b8 d7 f7 2c2-2c5 2d2-2df 2e5-2eb 2ed "
    "2ef-2ff 375 384-385 3f6 482 58a 58d-58f 5be 606-608 60b 60e-60f 6de 6e9 6fd-6fe 7f6 7fe-7ff 888 "
    "9f2-9f3 9fa-9fb af1 b70 bf3-bfa c7f d4f d79 e3f f01-f03 f13 f15-f17 f1a-f1f f34 f36 f38 f3a f3c "
    "fbe-fc5 fc7-fcc fce-fcf fd5-fd8 109e-109f 1390-1399 1400 166d 169b 17db 1806 1940 19de-19ff "
    "1b61-1b6a 1b74-1b7c 1fbd 1fbf-1fc1 1fcd-1fcf 1fdd-1fdf 1fed-1fef 1ffd-1ffe 2010-2015 201a 201e "
    "2044-2045 2052 207a-207d 208a-208d 20a0-20c0 2100-2101 2103-2106 2108-2109 2114 2116-2118 "
    "211e-2123 2125 2127 2129 212e 213a-213b 2140-2144 214a-214d 214f 218a-218b 2190-2308 230a "
    "230c-2329 232b-2426 2440-244a 249c-24e9 2500-2768 276a 276c 276e 2770 2772 2774 2794-27c5 "
    "27c7-27e6 27e8 27ea 27ec 27ee 27f0-2983 2985 2987 2989 298b 298d 298f 2991 2993 2995 2997 "
    "2999-29d8 29da 29dc-29fc 29fe-2b73 2b76-2b95 2b97-2bff 2ce5-2cea 2e17 2e1a 2e22 2e24 2e26 2e28 "
    "2e3a-2e3b 2e40 2e42 2e50-2e51 2e55 2e57 2e59 2e5b 2e5d 2e80-2e99 2e9b-2ef3 2f00-2fd5 2ff0-2ffb "
    "3004 3008 300a 300c 300e 3010 3012-3014 3016 3018 301a 301c-301d 3020 3030 3036-3037 303e-303f "
    "309b-309c 30a0 3190-3191 3196-319f 31c0-31e3 3200-321e 322a-3247 3250 3260-327f 328a-32b0 "
    "32c0-33ff 4dc0-4dff a490-a4c6 a700-a716 a720-a721 a789-a78a a828-a82b a836-a839 aa77-aa79 ab5b "
    "ab6a-ab6b fb29 fbb2-fbc2 fd3f-fd4f fdcf fdfc-fdff fe17 fe31-fe32 fe35 fe37 fe39 fe3b fe3d fe3f "
    "fe41 fe43 fe47 fe58-fe59 fe5b fe5d fe62-fe66 fe69 ff04 ff08 ff0b ff0d ff1c-ff1e ff3b ff3e ff40 "
    "ff5b-ff5c ff5e-ff5f ff62 ffe0-ffe6 ffe8-ffee fffc-fffd "
)
"""Hexadecimal ``first-last`` ranges (or one code point), separated by spaces."""


def computed_ranges() -> list[tuple[int, int]]:
    """The ranges from this Python's Unicode database."""
    wanted = CATEGORIES.__contains__
    ranges: list[tuple[int, int]] = []
    for c in compress(range(0x10000), map(wanted, map(unicodedata.category, map(chr, range(0x10000))))):
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1] = (ranges[-1][0], c)
        else:
            ranges.append((c, c))
    return ranges


def sign_ranges() -> list[tuple[int, int]]:
    """``(first, last)`` code points of each run of signs: :data:`RANGES` under :data:`UNIDATA`,
    else :func:`computed_ranges`.

    >>> sign_ranges()[:2]
    [(36, 36), (40, 40)]
    """
    if unicodedata.unidata_version != UNIDATA:
        return computed_ranges()
    out = []
    for item in RANGES.split():
        first, _, last = item.partition("-")
        out.append((int(first, 16), int(last or first, 16)))
    return out
