"""A few SVG primitives: shapes as plain data that ``templates/svg.html.j2`` turns into markup.

Nothing here writes markup. A :class:`Canvas` collects shapes (dicts with a ``kind`` and numeric or
string fields); the template's ``svg`` macro prints them with Jinja2's autoescape, so a name from a user
file can only ever become text inside ``<text>`` or ``<title>``, never an element or attribute. Text that
would not fit its box is cut to ``max_chars`` with an ellipsis; the full text stays in a ``<title>``
tooltip (and in the HTML tables next to the drawing).

Why not a charting library: the page needs boxes, arrows, a broken-link mark and stacked bars — about a
hundred lines — and must work offline with a strict Content-Security-Policy (no script-built charts).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CHAR_WIDTH = 0.58
"""Average glyph width of the page's sans-serif font in em; used to cut text that would overflow."""


def fit(text: str, max_chars: int) -> str:
    """``text`` cut to ``max_chars`` characters (an ellipsis marks the cut)."""
    text = " ".join(str(text).split())
    if max_chars < 2 or len(text) <= max_chars:
        return text if max_chars >= 2 else text[:1]
    return text[: max_chars - 1].rstrip() + "…"


def chars_for(width: float, font_px: float) -> int:
    """How many characters of ``font_px`` text fit into ``width`` pixels."""
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
