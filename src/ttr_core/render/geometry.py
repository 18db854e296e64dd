"""Small helpers of the pictures: SVG text escaped, numbers written short,
points and boxes, names wrapped to fit.
"""

from __future__ import annotations

import colorsys
import hashlib
import math
import re
from collections.abc import Sequence

from ttr_core.render.scene import CARD_FILLS

#: Characters XML 1.0 cannot hold (a board built by hand could carry them).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


Point = tuple[float, float]


Box = tuple[float, float, float, float]  # left, top, right, bottom


def _esc(text: object) -> str:
    """``text`` made safe inside an XML element or a double-quoted attribute."""
    plain = _NOT_XML.sub("\ufffd", str(text))
    return (
        plain.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def _n(value: float) -> str:
    """A coordinate rounded to 0.1 px, written short (and never ``-0``)."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _points(corners: Sequence[Point]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in corners)


def _fill(color: str, light: float = 0.0) -> str:
    """The fill of a card colour, mixed with ``light`` parts of white (0 to 1)."""
    known = CARD_FILLS.get(color.lower())
    rgb: Sequence[float]
    if known is None:
        hue = int(hashlib.sha256(color.encode("utf-8", "replace")).hexdigest()[:4], 16) / 65536
        rgb = colorsys.hls_to_rgb(hue, 0.5, 0.55)
    else:
        rgb = tuple(int(known[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return "#" + "".join(f"{round(255 * (c + (1 - c) * light)):02x}" for c in rgb)


def _ident(name: str) -> str:
    """``name`` as part of a class name: letters, digits, ``-`` and ``_``."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", name)


def _words(name: str) -> str:
    """A field's or token's name as a player reads it: ``bridge_toll`` is "bridge toll"."""
    return " ".join(name.replace("_", " ").replace("-", " ").split())


def _plain_doc(doc: str, board_name: str) -> str:
    """A field's doc for the legend: without a closing "(Map)" that names the
    board drawn (the reader is looking at it)."""
    text = doc.strip()
    found = re.search(r"\s*\(([^()]*)\)$", text)
    if found and found.group(1).strip() and found.group(1).strip() in board_name:
        text = text[: found.start()]
    return text.rstrip(" .")


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _circle_layout(count: int) -> list[Point]:
    """Positions on a circle, the first at the top, for a map that gives none."""
    return [
        (
            0.5 + 0.42 * math.sin(2 * math.pi * i / count),
            0.5 - 0.42 * math.cos(2 * math.pi * i / count),
        )
        for i in range(count)
    ]


def _seg_in_box(p: Point, q: Point, box: Box) -> float:
    """The length of the segment ``pq`` inside ``box`` (Liang–Barsky clipping)."""
    (x0, y0), (x1, y1) = p, q
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for step, room in (
        (-dx, x0 - box[0]),
        (dx, box[2] - x0),
        (-dy, y0 - box[1]),
        (dy, box[3] - y0),
    ):
        if step == 0:
            if room < 0:
                return 0.0
            continue
        t = room / step
        if step < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return 0.0
    return (high - low) * math.hypot(dx, dy)


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _grow(box: Box, by: float) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _wrap(name: str, longest: int = 14) -> list[str]:
    """A name longer than ``longest`` on two lines, cut at the space nearest its middle."""
    if len(name) <= longest or " " not in name:
        return [name]
    spaces = [i for i, c in enumerate(name) if c == " "]
    cut = min(spaces, key=lambda i: abs(len(name) / 2 - i))
    return [name[:cut], name[cut + 1 :]]


def _fit(text: str, room: int) -> list[str]:
    """``text`` cut at spaces into lines of at most ``room`` characters (a
    longer word keeps a line of its own); lines after the first are indented."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line.strip() and len(line) + 1 + len(word) > room:
            lines.append(line)
            line = "    " + word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines


def _tag(x: float, y: float, size: float, scale: float, text: str) -> str:
    """A word on a label centred at ``(x, y)``, no wider than two marks of
    ``size`` (a word of a list field: a company logo)."""
    font = min(size * 1.05, 2.0 * size / max(0.62 * len(text), 1.0))
    return (
        f'<rect x="{_n(x - 1.1 * size)}" y="{_n(y - 0.75 * size)}" width="{_n(2.2 * size)}" '
        f'height="{_n(1.5 * size)}" rx="{_n(0.3 * size)}" fill="#e8f1ff" stroke="#1f3b66" '
        f'stroke-width="{_n(1.0 * scale)}"/><text x="{_n(x)}" y="{_n(y)}" '
        f'font-size="{_n(font)}" font-weight="bold" text-anchor="middle" '
        f'dominant-baseline="central" fill="#1f3b66">{_esc(text)}</text>'
    )
