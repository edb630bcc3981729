"""A few SVG primitives: shapes as plain data that ``templates/svg.html.j2`` turns into markup.

Nothing here writes markup. A :class:`Canvas` collects shapes (dicts with a ``kind`` and numeric or
string fields); the template's ``svg`` macro prints them with Jinja2's autoescape, so a name from a user
file can only ever become text inside ``<text>`` or ``<title>``, never an element or attribute.

Text is measured before it is placed (:func:`text_width`: per-glyph advance widths of DejaVu Sans, the
widest of the page's fallback fonts, so narrower system fonts fit too): text wider than its box is
wrapped at spaces (:func:`wrap`) and, past the lines the box has, cut with an ellipsis; the full text
stays in a ``<title>`` tooltip (and in the HTML tables next to the drawing). The browser test checks that
no text in a chain diagram is wider than its box.

Why not a charting library: the page needs boxes, arrows, a broken-link mark and stacked bars — about a
hundred lines — and must work offline with a strict Content-Security-Policy (no script-built charts).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CHAR_WIDTH = 0.58
"""Average glyph width of the page's sans-serif font in em (a rough figure: :func:`text_width` measures)."""

# Advance widths in em of DejaVu Sans Book (units per em 2048, rounded up), the sans-serif font Linux
# browsers fall back to and the widest of the page's font stack; other characters count as WIDE.
_EM: dict[str, float] = {}
for _chars, _w in (
    ("iljI.,:;'|!", 0.29), (" ", 0.32), ("ftr()[]{}/\\-", 0.42), ("J", 0.30), ('"*', 0.46),
    ("sz", 0.53), ("ckvxy?", 0.60), ("aeo_", 0.62), ("bdghnpqu#$&+<=>0123456789~^", 0.64),
    ("ELPTYFZ", 0.63), ("BKRSX", 0.70), ("ACVGU", 0.75), ("HNDOQ", 0.79), ("w", 0.82), ("M", 0.87),
    ("m", 0.98), ("W", 0.99), ("@%", 1.0), ("×", 0.84), ("…", 1.0), ("→", 0.84), ("·", 0.32),
    ("≈", 0.84),
):
    for _c in _chars:
        _EM[_c] = _w
WIDE = 0.8
"""Em width assumed for a character without an entry (CJK and other wide scripts are about 1)."""
MONO = 0.61
"""Em width of every glyph of a monospaced font (DejaVu Sans Mono: 1233/2048)."""
BOLD = 1.1
"""Bold glyphs are up to ~10% wider than book ones (DejaVu Sans Bold)."""


def text_width(text: str, font_px: float, bold: bool = False, mono: bool = False, spacing: float = 0.0,
               upper: bool = False) -> float:
    """Width in pixels of ``text`` set at ``font_px`` (``spacing``: CSS letter-spacing in em; ``upper``:
    CSS ``text-transform: uppercase``). An upper bound for the page's fonts, not an exact figure."""
    if upper:
        text = text.upper()
    if mono:
        em = MONO * len(text)
    else:
        em = sum(_EM.get(c, 1.0 if ord(c) > 0x2E80 else WIDE) for c in text) * (BOLD if bold else 1.0)
    return (em + spacing * len(text)) * font_px


@dataclass(frozen=True)
class Font:
    """What :func:`text_width` needs to know of a CSS class's text."""

    px: float
    bold: bool = False
    mono: bool = False
    spacing: float = 0.0
    upper: bool = False

    def width(self, text: str) -> float:
        return text_width(text, self.px, self.bold, self.mono, self.spacing, self.upper)


def cut(text: str, width: float, font: Font) -> str:
    """``text`` (spaces collapsed) cut so that it fits ``width`` pixels, an ellipsis marking the cut."""
    text = " ".join(str(text).split())
    if font.width(text) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with its ellipsis
        mid = (lo + hi + 1) // 2
        if font.width(text[:mid].rstrip() + "…") <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…" if lo else ""


def _tokens(text: str, width: float, font: Font) -> list[tuple[str, str]]:
    """(glue, word) pairs: words split at spaces (glue " "); a word wider than ``width`` is split again
    after its underscores (glue ""), so that ``Standard_ND96isr_H100_v5`` can break like a phrase."""
    out: list[tuple[str, str]] = []
    for i, word in enumerate(text.split(" ")):
        glue = " " if i else ""
        if font.width(word) <= width or "_" not in word.strip("_"):
            out.append((glue, word))
            continue
        parts = word.split("_")
        for j, part in enumerate(parts):
            piece = part + ("_" if j < len(parts) - 1 else "")
            if piece:
                out.append((glue if j == 0 else "", piece))
    return out


def wrap(text: str, width: float, font: Font, max_lines: int = 2) -> list[str]:
    """``text`` broken at spaces (and, in a word too long for a line, after underscores) into lines no
    wider than ``width`` pixels, at most ``max_lines`` of them; a word wider than a line is cut, and text
    left over past the last line is cut with an ellipsis."""
    tokens = _tokens(" ".join(str(text).split()), width, font)
    lines: list[str] = []
    while tokens and len(lines) < max_lines:
        line = tokens.pop(0)[1]
        while tokens and font.width(line + tokens[0][0] + tokens[0][1]) <= width:
            glue, word = tokens.pop(0)
            line += glue + word
        if tokens and font.width(tokens[0][1]) > width:  # too wide for any line: cut here, not below
            glue, word = tokens.pop(0)
            line += glue + word
        lines.append(line)
    if tokens:  # more than fits: the last line takes the rest, cut
        lines[-1] = cut(lines[-1] + "".join(g + w for g, w in tokens), width, font)
    return [cut(x, width, font) for x in lines] or [""]


def fit(text: str, max_chars: int) -> str:
    """``text`` cut to ``max_chars`` characters (an ellipsis marks the cut)."""
    text = " ".join(str(text).split())
    if max_chars < 2 or len(text) <= max_chars:
        return text if max_chars >= 2 else text[:1]
    return text[: max_chars - 1].rstrip() + "…"


def chars_for(width: float, font_px: float) -> int:
    """How many characters of ``font_px`` text fit in ``width`` px (on average; :func:`cut` measures)."""
    return max(1, int(width / (font_px * CHAR_WIDTH)))


def num(x: float) -> str:
    """A coordinate as short text (no float noise in the file)."""
    r = round(float(x), 1)
    return str(int(r)) if r == int(r) else str(r)


@dataclass
class Group:
    """A ``<g>`` with a class, ``data-*`` attributes and an optional ``<title>`` (tooltip)."""

    cls: str
    data: dict[str, str] = field(default_factory=dict)
    title: str | None = None
    shapes: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Canvas:
    width: float
    height: float
    label: str  # the accessible name (aria-label)
    cls: str = "chart"
    items: list[Group] = field(default_factory=list)

    def group(self, cls: str, title: str | None = None, **data: str) -> Group:
        g = Group(cls, {k.replace("_", "-"): str(v) for k, v in data.items()}, title)
        self.items.append(g)
        return g

    @property
    def view_box(self) -> str:
        return f"0 0 {num(self.width)} {num(self.height)}"


def rect(g: Group, x: float, y: float, w: float, h: float, cls: str = "", rx: float = 0) -> None:
    w = max(0.0, w)
    g.shapes.append(
        {"kind": "rect", "x": num(x), "y": num(y), "w": num(w), "h": num(h), "cls": cls, "rx": num(rx)}
    )


def text(
    g: Group,
    x: float,
    y: float,
    value: str,
    cls: str = "",
    anchor: str = "start",
    max_chars: int | None = None,
) -> None:
    shown = fit(value, max_chars) if max_chars else " ".join(str(value).split())
    g.shapes.append({"kind": "text", "x": num(x), "y": num(y), "text": shown, "cls": cls, "anchor": anchor})


def line(g: Group, x1: float, y1: float, x2: float, y2: float, cls: str = "") -> None:
    g.shapes.append({"kind": "line", "x1": num(x1), "y1": num(y1), "x2": num(x2), "y2": num(y2), "cls": cls})


def path(g: Group, points: list[tuple[float, float]], cls: str = "", closed: bool = False) -> None:
    """A polyline (or polygon when ``closed``) through ``points``."""
    d = " ".join(("M" if i == 0 else "L") + f"{num(x)},{num(y)}" for i, (x, y) in enumerate(points))
    g.shapes.append({"kind": "path", "d": d + (" Z" if closed else ""), "cls": cls})


def arrow(g: Group, x1: float, y: float, x2: float, cls: str = "") -> None:
    """A horizontal arrow from ``x1`` to ``x2`` at height ``y``."""
    line(g, x1, y, x2 - 6, y, cls)
    path(g, [(x2 - 7, y - 4.5), (x2, y), (x2 - 7, y + 4.5)], cls + " head", closed=True)


def broken_arrow(g: Group, x1: float, y: float, x2: float, cls: str = "") -> None:
    """An arrow with a gap and a cross in the middle: the link does not hold."""
    mid = (x1 + x2) / 2
    line(g, x1, y, mid - 7, y, cls)
    line(g, mid + 7, y, x2 - 6, y, cls)
    path(g, [(x2 - 7, y - 4.5), (x2, y), (x2 - 7, y + 4.5)], cls + " head", closed=True)
    line(g, mid - 5, y - 5, mid + 5, y + 5, cls + " cross")
    line(g, mid - 5, y + 5, mid + 5, y - 5, cls + " cross")


def bar(
    g: Group,
    x: float,
    y: float,
    w: float,
    h: float,
    parts: list[tuple[float, str]],
    total: float,
) -> None:
    """A stacked horizontal bar: ``parts`` are (amount, css class), drawn left to right over ``total``."""
    rect(g, x, y, w, h, "bar-bg", 2)
    if total <= 0:
        return
    at = x
    for amount, cls in parts:
        if amount <= 0:
            continue
        width = w * min(amount, total) / total
        rect(g, at, y, width, h, cls, 0)
        at += width
