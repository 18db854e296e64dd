"""The panel under the board: the seats, their cards and tickets, the final
scores and the legend, as lines of text laid out top to bottom, drawn with the
picture's own shapes (:class:`Canvas`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from ttr_core.model.board import GRAY
from ttr_core.render.geometry import (
    Point,
    _esc,
    _fill,
    _fit,
    _ident,
    _n,
    _plain_doc,
    _plural,
    _points,
    _words,
)
from ttr_core.render.scene import (
    _TOKEN_GRAY,
    _Mark,
    _Placed,
    _Scene,
)


class Canvas(Protocol):
    """What the panel draws with: the picture's sizes and its shapes
    (:class:`~ttr_core.render.drawing._Drawing`)."""

    scene: _Scene
    width: int
    margin: int
    scale: float

    def _outline(self, a: Point, b: Point, normal: Point, thick: float, gap: float) -> str: ...

    def _locomotive(self, a: Point, b: Point, thick: float, fill: str) -> str: ...

    def _mark(self, placed: _Placed) -> Iterator[str]: ...

    def _token_shape(self, x: float, y: float, size: float, color: str) -> str: ...


class _Panel:
    """The panel under the board: lines of text, laid out top to bottom."""

    def __init__(self, drawing: Canvas) -> None:
        self.drawing = drawing
        self.font = max(14 * drawing.width / 1000, 9.0)
        self.line_h = self.font * 1.6
        self.room = max(int((drawing.width - 2 * drawing.margin) / (self.font * 0.6)), 20)
        self.items: list[tuple[str, tuple[str, ...]]] = []
        self.legends: list[_Mark] = []

    @property
    def height(self) -> float:
        return self.line_h * (len(self.items) + 0.6)

    def heading(self, text: str) -> None:
        for line in _fit(text, self.room):
            self.items.append(("heading", (line,)))

    def row(self, color: str, sign: str, name: str, facts: str, ident: str) -> None:
        """A line for an owner: a train piece of theirs (``sign`` on it), a name, facts."""
        self.items.append(("row", (color, sign, name, facts, ident)))

    def closed(self, players: int) -> None:
        """A legend line for the closed routes of a game of ``players``."""
        self.items.append(("closed", (str(players),)))

    def text(self, text: str, ident: str) -> None:
        """``text`` on as many lines as it needs to fit the picture's width."""
        for line in _fit(text, self.room):
            self.items.append(("text", (line, ident)))

    def legend(self, mark: _Mark) -> None:
        self.legends.append(mark)
        self.items.append(("legend", (str(len(self.legends) - 1),)))

    def token(self, kind: str) -> None:
        """A legend line for the tokens of ``kind``."""
        self.items.append(("token", (kind,)))

    def style(self, legend: str, outline: bool, wild: bool) -> None:
        """A legend line for a variant's route style, with a space drawn that way."""
        self.items.append(("style", (legend, "outline" if outline else "", "wild" if wild else "")))

    def render(self, top: float) -> Iterator[str]:
        x = self.drawing.margin
        yield f'<g class="panel" font-size="{_n(self.font)}" fill="#1d1d1d">'
        for i, (kind, data) in enumerate(self.items):
            base = top + i * self.line_h + self.font
            if kind == "heading":
                yield f'<text x="{x}" y="{_n(base)}" font-weight="bold">{_esc(data[0])}</text>'
            elif kind == "row":
                yield from self._row(x, base, *data)
            elif kind == "text":
                text, ident = data
                yield f'<text class="{ident}" x="{x}" y="{_n(base)}">{_esc(text)}</text>'
            elif kind == "token":
                yield from self._token_legend(x, base, data[0])
            elif kind == "style":
                yield from self._style_legend(x, base, *data)
            elif kind == "closed":
                yield from self._closed_legend(x, base, int(data[0]))
            else:
                yield from self._legend(x, base, self.legends[int(data[0])])
        yield "</g>"

    def _row(
        self, x: float, base: float, color: str, sign: str, name: str, facts: str, ident: str
    ) -> Iterator[str]:
        side = self.font * 1.1
        top, width = base - side * 0.85, side * 1.6
        yield f'<g class="score {ident}">'
        yield (
            f'<rect x="{_n(x + side * 0.15)}" y="{_n(top + side * 0.2)}" width="{_n(width)}" '
            f'height="{_n(side)}" rx="{_n(side * 0.2)}" fill="#000000" fill-opacity="0.35"/>'
        )
        yield (
            f'<rect x="{_n(x)}" y="{_n(top)}" width="{_n(width)}" '
            f'height="{_n(side)}" rx="{_n(side * 0.2)}" fill="{color}" stroke="#111111"/>'
        )
        yield (
            f'<text x="{_n(x + width / 2)}" y="{_n(top + side / 2)}" font-size="{_n(side * 0.85)}" '
            'font-weight="bold" text-anchor="middle" dominant-baseline="central" '
            f'fill="#ffffff">{_esc(sign)}</text>'
        )
        yield (
            f'<text x="{_n(x + side * 2.1)}" y="{_n(base)}"><tspan font-weight="bold">'
            f"{_esc(name)}</tspan>: {_esc(facts)}</text>"
        )
        yield "</g>"

    def _sample_space(self, x: float, base: float) -> tuple[float, Point, Point, list[Point]]:
        """A legend line's sample route space: its thickness, the two ends of its
        middle line and its corners."""
        thick = self.font * 0.6
        a = (x + self.font * 0.15, base - self.font * 0.35)
        b = (a[0] + self.font * 1.1, a[1])
        half = thick / 2
        corners = [(a[0], a[1] - half), (b[0], b[1] - half)]
        corners += [(b[0], b[1] + half), (a[0], a[1] + half)]
        return thick, a, b, corners

    def _closed_legend(self, x: float, base: float, players: int) -> Iterator[str]:
        drawing = self.drawing
        corners = self._sample_space(x, base)[3]
        yield '<g class="legend closed-legend">'
        yield (
            f'<polygon class="sample" points="{_points(corners)}" fill="{_fill(GRAY, 0.72)}" '
            f'stroke="#8a8a8a" stroke-width="{_n(0.8 * drawing.scale)}"/>'
        )
        (x0, y0), (x1, y1) = corners[0], corners[2]
        yield (
            f'<line x1="{_n(x0)}" y1="{_n(y0)}" x2="{_n(x1)}" y2="{_n(y1)}" stroke="#5a5a5a" '
            f'stroke-width="{_n(1.3 * drawing.scale)}"/>'
        )
        yield (
            f'<text x="{_n(x + self.font * 1.75)}" y="{_n(base)}"><tspan font-weight="bold">'
            "closed</tspan>: the other route of a claimed double; with "
            f"{_plural(players, 'player')} only one route of each double is used</text>"
        )
        yield "</g>"

    def _token_legend(self, x: float, base: float, kind: str) -> Iterator[str]:
        size = self.font * 0.5
        drawing = self.drawing
        yield f'<g class="legend token-legend token-{_ident(kind)}">'
        yield drawing._token_shape(x + size * 1.4, base - self.font * 0.35, size, _TOKEN_GRAY)
        yield (
            f'<text x="{_n(x + size * 3.5)}" y="{_n(base)}"><tspan font-weight="bold">'
            f"{_esc(_words(kind))}</tspan>: in its owner's colour</text>"
        )
        yield "</g>"

    def _style_legend(
        self, x: float, base: float, legend: str, outline: str, wild: str
    ) -> Iterator[str]:
        drawing = self.drawing
        thick, a, b, corners = self._sample_space(x, base)
        yield '<g class="legend style-legend">'
        if outline:
            yield drawing._outline(a, b, (0.0, 1.0), thick, self.font * 0.3)
        yield (
            f'<polygon class="sample" points="{_points(corners)}" fill="{_fill(GRAY, 0.3)}" '
            f'stroke="#3a3a3a" stroke-width="{_n(0.8 * drawing.scale)}" stroke-linejoin="round"/>'
        )
        if wild:
            yield drawing._locomotive(a, b, thick, "#1d1d1d")
        name, colon, rest = legend.partition(": ")
        words = (
            f'<tspan font-weight="bold">{_esc(name)}</tspan>: {_esc(rest)}'
            if colon
            else _esc(legend)
        )
        yield f'<text x="{_n(x + self.font * 1.75)}" y="{_n(base)}">{words}</text>'
        yield "</g>"

    def _legend(self, x: float, base: float, mark: _Mark) -> Iterator[str]:
        size = self.font * 0.55
        sample = _Placed(mark, x + size * 1.4, base - self.font * 0.35, size, mark.sample)
        name = self.drawing.scene.board.name
        doc = _plain_doc(mark.doc, name)
        if mark.kind == "badge":
            what = f"{doc} (the number in the circle)" if doc else "the number in the circle"
        elif mark.kind == "tag":
            what = f"{doc} (one label each)" if doc else "one label for each, on the route"
        else:
            where = "places" if mark.table == "locations" else "routes"
            what = doc or f"marked on these {where}"
        yield '<g class="legend">'
        yield from self.drawing._mark(sample)
        yield (
            f'<text x="{_n(x + size * 3.2)}" y="{_n(base)}"><tspan font-weight="bold">'
            f"{_esc(_words(mark.name))}</tspan>: {_esc(what)}</text>"
        )
        yield "</g>"
