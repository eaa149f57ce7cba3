"""Clip paths: text a PDF draws but clips away is not on the page.

A page can draw text and then clip it to a region (``W n`` in the content stream): the viewer
shows only what falls inside, yet every text extractor (PDFium, pdfminer, poppler) reads all of
it (``knockout_groups_test.pdf`` clips ``backdrop`` to ``backdro`` at a panel's edge; a
generator can print a whole page and clip it to one box). :func:`clipped_objects` walks a
PDFium page's objects, form XObjects included, and returns the text objects that reach outside
the region their clip paths leave visible, each with that region; :func:`outside_clip` tells,
per character of such an object, whether a viewer shows it.

The region is the **bounding box** of each clip path, intersected over the paths that apply
(the object's own, and those of the forms it is drawn in). That is exact for rectangles, the
common case; for a round or slanted clip the box is larger than what is shown, so a character in
a corner of the box but outside the curve is kept (never a visible character dropped). A clip
by text (render mode 7) is not read (PDFium does not expose it as paths): nothing is dropped.

Cost: a few calls per page object (its type, clip and the first point of each clip path, which
identifies a clip shared by many objects, so its points are read once); the characters' boxes
are read only on the rare pages where some text reaches outside its clip.
"""

from __future__ import annotations

import ctypes
from typing import Any

Rect = tuple[float, float, float, float]  # left, bottom, right, top
Matrix = tuple[float, float, float, float, float, float]  # a b c d e f: x' = a x + c y + e, y' = b x + d y + f
SLACK = 1.0  # points: an object reaching this little past its clip is not clipped
MAX_DEPTH = 16  # nested forms followed at most this deep (PDFium itself stops cycles)


def transform(box: Rect, m: Matrix | None) -> Rect:
    """The bounding box of ``box`` mapped by ``m``.

    >>> transform((0, 0, 10, 5), (2, 0, 0, 2, 100, 50))
    (100, 50, 120, 60)
    >>> transform((0, 0, 10, 5), (0, 1, -1, 0, 0, 0))  # a quarter turn
    (-5, 0, 0, 10)
    """
    if m is None:
        return box
    a, b, c, d, e, f = m
    xs = [x * a + y * c + e for x in (box[0], box[2]) for y in (box[1], box[3])]
    ys = [x * b + y * d + f for x in (box[0], box[2]) for y in (box[1], box[3])]
    return (min(xs), min(ys), max(xs), max(ys))


def then(first: Matrix, second: Matrix | None) -> Matrix:
    """The matrix that applies ``first``, then ``second`` (PDF's ``first × second``).

    >>> then((1, 0, 0, 1, 5, 0), (2, 0, 0, 2, 0, 0))
    (2, 0, 0, 2, 10, 0)
    """
    if second is None:
        return first
    a, b, c, d, e, f = first
    a2, b2, c2, d2, e2, f2 = second
    linear = (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2)
    return (*linear, e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def meet(a: Rect | None, b: Rect | None) -> Rect | None:
    """The intersection of two regions (None: no clip); an empty one has ``right < left``.

    >>> meet((0, 0, 10, 10), (5, 5, 20, 20)), meet(None, (1, 2, 3, 4))
    ((5, 5, 10, 10), (1, 2, 3, 4))
    """
    if a is None:
        return b
    if b is None:
        return a
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def _reaches_out(inner: Rect, region: Rect) -> bool:
    return (
        inner[0] < region[0] - SLACK
        or inner[1] < region[1] - SLACK
        or inner[2] > region[2] + SLACK
        or inner[3] > region[3] + SLACK
    )


class _Clips:
    """Reads clip paths' bounding boxes, once per path shared between objects."""

    def __init__(self, page_box: Rect | None) -> None:
        import pypdfium2.raw as c

        self.page_box = page_box

        self.c = c
        self.boxes: dict[int, Rect | None] = {}
        self.regions: dict[tuple[int, ...], Rect | None] = {}
        self.x, self.y = ctypes.c_float(), ctypes.c_float()
        # FPDFClipPath_GetPathSegment giving a plain address (a cache key), not a pointer object
        proto = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int)
        self.first_point = proto(ctypes.cast(c.FPDFClipPath_GetPathSegment, ctypes.c_void_p).value or 0)

    def region(self, obj: Any) -> Rect | None:
        """The bounding box of the region ``obj``'s clip paths leave (in the coordinates its
        points are written in), or None when it has no clip path."""
        c = self.c
        clip = c.FPDFPageObj_GetClipPath(obj)
        if not clip:
            return None
        # each path's first point lives in the path's own storage, which objects drawn under
        # the same clip share: its address names the path
        first = self.first_point
        keys = tuple(first(clip, k, 0) or 0 for k in range(max(0, c.FPDFClipPath_CountPaths(clip))))
        if keys in self.regions:
            return self.regions[keys]
        region: Rect | None = None
        for k, key in enumerate(keys):
            if key:
                if key not in self.boxes:
                    self.boxes[key] = self._path_box(clip, k)
                region = meet(region, self.boxes[key])
        self.regions[keys] = region
        return region

    def matters(self, region: Rect | None) -> bool:
        """``region`` may hide part of the page (it does not hold the whole page box: what lies
        outside the page box is left out anyway)."""
        if region is None:
            return False
        return self.page_box is None or _reaches_out(self.page_box, region)

    def _path_box(self, clip: Any, k: int) -> Rect | None:
        c, x, y = self.c, self.x, self.y
        xs: list[float] = []
        ys: list[float] = []
        for s in range(c.FPDFClipPath_CountPathSegments(clip, k)):
            seg = c.FPDFClipPath_GetPathSegment(clip, k, s)
            if seg and c.FPDFPathSegment_GetPoint(seg, x, y):
                xs.append(x.value)
                ys.append(y.value)
        if len(xs) < 2:  # no area drawn: not read as hiding everything
            return None
        return (min(xs), min(ys), max(xs), max(ys))


def clipped_objects(page: Any, page_box: Rect | None = None) -> dict[int, Rect]:
    """The text objects of a PDFium page (by address, as ``FPDFText_GetTextObject`` returns
    them) that reach outside the region their clip paths leave, mapped to that region in page
    coordinates. Empty on most pages. A region that holds all of ``page_box`` (the visible page,
    when known; text outside it is left out by the caller) is no clip."""
    import pypdfium2.raw as c

    clips = _Clips(page_box)
    out: dict[int, Rect] = {}
    bounds = [ctypes.c_float() for _ in range(4)]
    matrix = c.FS_MATRIX()

    def walk(objs: list[Any], m: Matrix | None, region: Rect | None, depth: int) -> None:
        for obj in objs:
            kind = c.FPDFPageObj_GetType(obj)
            if kind not in (c.FPDF_PAGEOBJ_TEXT, c.FPDF_PAGEOBJ_FORM):
                continue
            own = clips.region(obj)
            here = meet(region, transform(own, m)) if own is not None else region
            if kind == c.FPDF_PAGEOBJ_FORM:
                if depth < MAX_DEPTH and c.FPDFPageObj_GetMatrix(obj, matrix):
                    fm = (matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f)
                    kids = [c.FPDFFormObj_GetObject(obj, i) for i in range(c.FPDFFormObj_CountObjects(obj))]
                    walk([k for k in kids if k], then(fm, m), here, depth + 1)
            elif clips.matters(here) and here is not None and c.FPDFPageObj_GetBounds(obj, *bounds):
                left, bottom, right, top = (v.value for v in bounds)
                if _reaches_out(transform((left, bottom, right, top), m), here):
                    out[ctypes.cast(obj, ctypes.c_void_p).value or 0] = here

    raw = page.raw
    walk([c.FPDFPage_GetObject(raw, i) for i in range(c.FPDFPage_CountObjects(raw))], None, None, 0)
    return out


def outside_clip(textpage: Any, index: int, clipped: dict[int, Rect], box: Rect) -> bool:
    """The character at PDFium index ``index`` (with loose box ``box``) belongs to one of the
    ``clipped`` objects and its centre lies outside that object's visible region."""
    import pypdfium2.raw as c

    obj = c.FPDFText_GetTextObject(textpage.raw, index)
    region = clipped.get(ctypes.cast(obj, ctypes.c_void_p).value or 0) if obj else None
    if region is None:
        return False
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return not (region[0] - SLACK <= cx <= region[2] + SLACK and region[1] - SLACK <= cy <= region[3] + SLACK)
