"""The picture: :func:`svg` lays out the board, its routes and places, the
panel of seats and cards, and the legend. The drawing is one class that reads
best whole (about 700 lines).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import attrs

from ttr_core.errors import ArgumentError, show
from ttr_core.model.board import Route
from ttr_core.model.declarations import RouteStyle
from ttr_core.model.scores import FinalScores
from ttr_core.model.state import GameState
from ttr_core.model.views import PlayerView
from ttr_core.render.geometry import (
    Box,
    Point,
    _circle_layout,
    _esc,
    _fill,
    _grow,
    _ident,
    _n,
    _overlap,
    _plural,
    _points,
    _seg_in_box,
    _tag,
    _wrap,
)
from ttr_core.render.panel import _Panel
from ttr_core.render.scene import (
    _BOARD_FILL,
    _FONT,
    _TOKEN_GRAY,
    MAX_WIDTH,
    MIN_WIDTH,
    OTHER_COLORS,
    SEAT_COLORS,
    _Mark,
    _marks,
    _Placed,
    _Scene,
    _scene,
)

__all__ = ["svg"]


#: A locomotive facing forward (+u), wheels down (+v), about 2.3 by 1.4 units:
#: boiler, cab, chimney and cowcatcher (its three wheels are drawn as circles).
_LOCOMOTIVE: tuple[tuple[Point, ...], ...] = (
    ((-0.9, -0.3), (0.35, -0.3), (0.35, 0.3), (-0.9, 0.3)),
    ((0.3, -0.72), (1.05, -0.72), (1.05, 0.3), (0.3, 0.3)),
    ((-0.75, -0.68), (-0.45, -0.68), (-0.45, -0.25), (-0.75, -0.25)),
    ((-0.9, 0.0), (-0.9, 0.55), (-1.22, 0.55)),
)


def svg(
    game: GameState | PlayerView, *, width: int = 1000, scores: FinalScores | None = None
) -> str:
    """The board of ``game`` as an SVG document (a ``str``), ``width`` pixels wide.

    ``game`` is a :class:`GameState`, drawn as every player sees it (the
    claimed routes, the running scores, the public counts: no hand, no
    ticket), or a :class:`PlayerView`, drawn as that seat sees it (the same,
    plus its own hand and tickets). At the end of the game a state's panel
    shows the final scores (:func:`ttr_core.final_scores`); a view cannot
    compute them, since the other seats' tickets are hidden, and shows them
    when they are given as ``scores``.

    The height follows from where the locations are (measured with the
    board's ``aspect``, 1 when the map gives none) and the panel. Raises
    :class:`ArgumentError` for an argument of the wrong type, a ``width``
    outside 200 to 20000, or ``scores`` of a game with another number of
    seats.
    """
    scene = _scene(game, scores)
    if isinstance(width, bool) or not isinstance(width, int):
        raise ArgumentError(f"width must be an int (pixels), not {type(width).__name__}")
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ArgumentError(f"width must be from {MIN_WIDTH} to {MAX_WIDTH}, not {show(width)}")
    return _Drawing(scene, width).document()


@attrs.frozen
class _Line:
    """Where a route's cars go: from ``start`` to ``end`` (the pair's own side
    for a double route); ``normal`` is the unit normal of its pair's middle line."""

    start: Point
    end: Point
    normal: Point
    #: How far the line is from its pair's middle line (0 for a single route).
    shift: float

    @property
    def direction(self) -> Point:
        dx, dy = self.end[0] - self.start[0], self.end[1] - self.start[1]
        length = math.hypot(dx, dy) or 1.0
        return dx / length, dy / length

    @property
    def length(self) -> float:
        return math.hypot(self.end[0] - self.start[0], self.end[1] - self.start[1])


@attrs.frozen
class _Style:
    """The styles of one route, merged over the variants: outlined if any says
    so, the most wild spaces any asks, the fields they stand for, their legends."""

    outline: bool = False
    wilds: int = 0
    fields: tuple[str, ...] = ()
    legends: tuple[str, ...] = ()


def _merge_styles(styles: Sequence[RouteStyle]) -> dict[int, _Style]:
    merged: dict[int, _Style] = {}
    for style in styles:
        old = merged.get(style.route, _Style())
        field = style.field
        merged[style.route] = _Style(
            old.outline or style.outline,
            max(old.wilds, style.wild_spaces),
            old.fields + ((field,) if field is not None and field not in old.fields else ()),
            old.legends + ((style.legend,) if style.legend not in old.legends else ()),
        )
    return merged


class _Drawing:
    """One picture: sizes from the width and the board, then every part placed
    (routes, their marks, then the names where they cover least) and written."""

    def __init__(self, scene: _Scene, width: int) -> None:
        self.scene = scene
        board = scene.board
        self.width = width
        self.margin = round(width * 0.03)
        self.board_w = width - 2 * self.margin
        aspect = board.aspect or 1.0
        # Sizes from the printed board's proportions; the frame from where the
        # locations are (below), so that no empty band is left around them.
        self.scale = min(self.board_w, self.board_w / aspect) / 700
        self.dot = max(7.5 * self.scale, 4.0)
        self.font = max(12.5 * self.scale, 9.0)  # never too small to read
        given = [loc.pos for loc in board.locations]
        frame: list[Point] = [p for p in given if p is not None]
        if len(frame) != len(given):
            frame = _circle_layout(len(given))
        self.at, self.board_h = self._fit(frame, aspect)
        self.dots = [_grow((x, y, x, y), self.dot) for x, y in self.at]
        self.car_w = self._car_width()
        self.lines = [self._line(route) for route in board.routes]
        self.styles = _merge_styles(scene.styles)
        self.styled = {(r, field) for r, style in self.styles.items() for field in style.fields}
        self.marks = _marks(board, self.styled)
        self.mark_boxes: list[Box] = []
        self.route_marks = self._place_route_marks()
        self.labels = self._place_labels()

    # -- geometry ----------------------------------------------------------------

    def _fit(self, frame: Sequence[Point], aspect: float) -> tuple[list[Point], float]:
        """The dots of positions ``frame`` (fractions of a board ``aspect`` times
        as wide as high), spread over the picture's width with room for a name
        on every side; and the height of the board that holds them."""
        xs, ys = [x * aspect for x, _y in frame], [y for _x, y in frame]
        left, top = min(xs, default=0.0), min(ys, default=0.0)
        span_x, span_y = max(xs, default=1.0) - left, max(ys, default=1.0) - top
        pad_x = self.dot + 4 * self.font  # a short name beside a dot at the edge
        pad_y = self.dot + 2.8 * self.font  # a name of two lines above or below
        inner = self.board_w - 2 * pad_x
        unit = inner / span_x if span_x > 0 else inner
        if span_y * unit > 3 * inner:  # a column of locations: not a needle
            unit = 3 * inner / span_y
        shift_x = self.margin + pad_x + (inner - span_x * unit) / 2
        at = [
            (shift_x + (x - left) * unit, self.margin + pad_y + (y - top) * unit)
            for x, y in zip(xs, ys, strict=True)
        ]
        return at, span_y * unit + 2 * pad_y

    def _car_width(self) -> float:
        """Cars about a third as thick as a typical space is long (within bounds)."""
        board = self.scene.board
        spaces = sorted(
            max(math.dist(*self._ends(r)) - 2 * self.dot, 1.0) / r.length for r in board.routes
        )
        typical = spaces[len(spaces) // 2] if spaces else 30.0
        return min(max(0.36 * typical, 5 * self.scale), 12 * self.scale)

    def _ends(self, route: Route) -> tuple[Point, Point]:
        """The dots a route joins, the one with the lower location id first
        (so that both routes of a pair are measured the same way)."""
        board = self.scene.board
        ia, ib = board.location_id(route.a), board.location_id(route.b)
        return self.at[min(ia, ib)], self.at[max(ia, ib)]

    def _line(self, route: Route) -> _Line:
        """The route's line, stopping short of the dots; the two routes of a
        pair move half a car and a gap to either side, so they never overlap."""
        p, q = self._ends(route)
        length = math.dist(p, q) or 1.0
        d = ((q[0] - p[0]) / length, (q[1] - p[1]) / length)
        normal = (-d[1], d[0])
        shift = 0.0
        if route.partner is not None:
            side = -1 if route.id < route.partner else 1
            shift = side * (self.car_w / 2 + 1.2 * self.scale)
        trim = min(self.dot + 2 * self.scale, length * 0.35)  # two dots may nearly touch
        nx, ny = normal[0] * shift, normal[1] * shift
        start = (p[0] + d[0] * trim + nx, p[1] + d[1] * trim + ny)
        end = (q[0] - d[0] * trim + nx, q[1] - d[1] * trim + ny)
        return _Line(start, end, normal, shift)

    def _crossing(
        self, box: Box, skip: Sequence[int] = (), among: Sequence[int] | None = None
    ) -> float:
        """How much route line runs through ``box`` (routes in ``skip`` not
        counted; only those in ``among`` if given)."""
        grown = _grow(box, self.car_w / 2)
        lines = self.lines if among is None else [self.lines[i] for i in among]
        ids = range(len(self.lines)) if among is None else among
        return sum(
            _seg_in_box(line.start, line.end, grown)
            for i, line in zip(ids, lines, strict=True)
            if i not in skip
        )

    def _near(self, x: float, y: float, reach: float) -> list[int]:
        """The routes whose line passes within ``reach`` of ``(x, y)``."""
        box = _grow((x, y, x, y), reach + self.car_w)
        return [i for i, line in enumerate(self.lines) if _seg_in_box(line.start, line.end, box)]

    # -- placing marks and names -------------------------------------------------------

    def _place_route_marks(self) -> dict[int, list[_Placed]]:
        """The marks of each route, on it where they cover least.

        When both routes of a pair carry the same value, one mark stands for
        the pair (drawn with the route of the higher id, the one drawn last).
        """
        board = self.scene.board
        placed: dict[int, list[_Placed]] = {}
        size = max(self.car_w * 0.85, 6.5 * self.scale)
        for route in board.routes:
            partner = None if route.partner is None else board.routes[route.partner]
            shown = []
            for mark in self.marks:
                value = route.extra.get(mark.name)
                words = value if mark.kind == "tag" and isinstance(value, tuple) else (value,)
                if mark.table != "routes" or not any(map(mark.shows, words)):
                    continue
                if (route.id, mark.name) in self.styled:
                    continue  # the route's style stands for the field
                shared = (
                    partner is not None
                    and partner.extra.get(mark.name) == value
                    and (partner.id, mark.name) not in self.styled
                )
                if shared and partner is not None and partner.id > route.id:
                    continue  # drawn with the partner, drawn later: on top of both
                shown += [(mark, word, shared) for word in words if mark.shows(word)]
            if shown:
                placed[route.id] = self._place_on(route, shown, size)
        return placed

    def _place_on(
        self, route: Route, shown: Sequence[tuple[_Mark, object, bool]], size: float
    ) -> list[_Placed]:
        """The marks of ``route`` on the route itself, so that no mark can be
        read as another route's: on the middle of its line, or a little to
        either end where the middle is crowded. A mark for both routes of a
        pair sits on the pair's middle line, over both; a mark of one route of
        a pair on its own line, moved out so as to leave its partner clear."""
        line = self.lines[route.id]
        d = line.direction
        skip = (route.id,) if route.partner is None else (route.id, route.partner)
        shared = all(both for _mark, _value, both in shown)
        across = -line.shift  # the pair's middle line
        if line.shift and not shared:
            across = math.copysign(max(size - self.car_w / 2, 0.0), line.shift)
        best: tuple[float, list[_Placed]] | None = None
        for order, at in enumerate((0.5, 0.38, 0.62, 0.28, 0.72)):
            marks = []
            cost = order * 2.0
            for i, (mark, value, _both) in enumerate(shown):
                along = line.length * at + (i - (len(shown) - 1) / 2) * 2.3 * size
                x = line.start[0] + d[0] * along + line.normal[0] * across
                y = line.start[1] + d[1] * along + line.normal[1] * across
                box = _grow((x, y, x, y), size)
                cost += self._crossing(box, skip) * self.car_w
                cost += sum(4 * _overlap(box, other) for other in (*self.dots, *self.mark_boxes))
                marks.append(_Placed(mark, x, y, size, value))
            if best is None or cost < best[0]:
                best = (cost, marks)
        assert best is not None
        self.mark_boxes.extend(_grow((m.x, m.y, m.x, m.y), m.size) for m in best[1])
        return best[1]

    def _place_labels(self) -> list[tuple[Box, list[str]]]:
        """Where each name goes: of the places around its dot (24 directions,
        near first, then farther; on one line or two), the one that crosses
        least route, then covers least of the marks, the dots and the other
        names.

        The names are placed one by one in location order, then each is placed
        again knowing where all the others went, twice over: a name that had
        to give way early can take a place freed later.
        """
        char_w = self.font * 0.62
        line_h = self.font * 1.15
        inset = 4 * self.scale  # inside the board's frame
        limit = (inset, inset, self.width - inset, self.margin * 2 + self.board_h - inset)
        steps = (0.0, 0.45, 0.9, 1.4, 2.0, 2.7, 3.5)
        options: list[list[tuple[float, Box, list[str]]]] = []
        for here, (loc, (cx, cy)) in enumerate(
            zip(self.scene.board.locations, self.at, strict=True)
        ):
            spots: list[tuple[float, Box, list[str]]] = []
            wrapped = _wrap(loc.name)
            layouts = [(wrapped, 0.0)]
            if len(wrapped) > 1:
                layouts.append(([loc.name], 3.0))
            elif " " in loc.name:
                layouts.append((_wrap(loc.name, 0), 3.0))
            for lines, extra in layouts:
                w = max(len(line) for line in lines) * char_w + 2 * self.scale
                h = len(lines) * line_h
                reach = self.dot + steps[-1] * self.font + w + h
                near = self._near(cx, cy, reach)
                zone = _grow((cx, cy, cx, cy), reach)
                obstacles = [b for b in self.mark_boxes if _overlap(zone, b)]
                obstacles += [d for j, d in enumerate(self.dots) if j != here and _overlap(zone, d)]
                for step, away in enumerate(steps):
                    r = self.dot + 2.5 * self.scale + away * self.font
                    for turn in range(24):  # below first, then round the dot
                        angle = math.pi / 2 + turn * math.pi / 12
                        x = cx + math.cos(angle) * (r + w / 2) - w / 2
                        y = cy + math.sin(angle) * (r + h / 2) - h / 2
                        box = (x, y, x + w, y + h)
                        # A price per place: nearer, straight sides, the usual lines first.
                        price = (
                            extra
                            + step * 6.0
                            + (0 if turn % 6 == 0 else 1.5 * (turn % 3 > 0) + 0.8)
                        )
                        price += 1000 * (w * h - _overlap(box, limit))  # off the board
                        price += 40 * self.car_w * self._crossing(box, among=near)
                        price += sum(8 * _overlap(box, b) for b in obstacles)
                        spots.append((price, box, lines))
            # Cheapest first (stable: the same order every time), so that the
            # rounds below stop at the first place dearer than the best found.
            options.append(sorted(spots, key=lambda spot: spot[0]))
        chosen: list[tuple[float, Box, list[str]] | None] = [None] * len(options)
        for _round in range(3):
            for i, spots in enumerate(options):
                placed = [c[1] for j, c in enumerate(chosen) if c is not None and j != i]
                best: tuple[float, tuple[float, Box, list[str]]] | None = None
                for spot in spots:
                    if best is not None and spot[0] >= best[0]:
                        break  # the other names only add to a place's price
                    total = spot[0] + sum(8 * _overlap(spot[1], b) for b in placed)
                    if best is None or total < best[0]:
                        best = (total, spot)
                assert best is not None
                chosen[i] = best[1]
        return [(c[1], c[2]) for c in chosen if c is not None]

    # -- the document --------------------------------------------------------------

    def document(self) -> str:
        scene = self.scene
        panel = self._panel()
        board_bottom = self.margin * 2 + self.board_h
        height = math.ceil(board_bottom + panel.height)
        inset = _n(2 * self.scale)
        frame_w, frame_h = _n(self.width - 4 * self.scale), _n(board_bottom - 4 * self.scale)
        parts = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{height}" '
            f'viewBox="0 0 {self.width} {height}" font-family="{_FONT}" '
            f'data-map="{_esc(scene.board.id)}">',
            f"<title>{_esc(scene.board.name)}: {_esc(self._status())}</title>",
            f'<rect width="{self.width}" height="{height}" fill="#ffffff"/>',
            f'<rect class="board" x="{inset}" y="{inset}" width="{frame_w}" height="{frame_h}" '
            f'rx="{_n(8 * self.scale)}" fill="{_BOARD_FILL}" stroke="#b9ab86"/>',
            '<g class="routes">',
            *self._routes(),
            "</g>",
            '<g class="locations">',
            *self._locations(),
            "</g>",
            '<g class="tokens">',
            *self._tokens(),
            "</g>",
            *panel.render(board_bottom),
            "</svg>",
            "",
        ]
        return "\n".join(parts)

    def _status(self) -> str:
        scene = self.scene
        if scene.termination is not None:
            return f"game over after {_plural(scene.turn, 'turn')} ({scene.termination})"
        who = "" if scene.current is None else f", player {scene.current + 1} to play"
        return f"turn {scene.turn + 1}{who}"

    # -- routes ------------------------------------------------------------------

    def _routes(self) -> Iterator[str]:
        scene = self.scene
        for route, line in zip(scene.board.routes, self.lines, strict=True):
            owner = scene.owners[route.id]
            classes = ["route", "double" if route.partner is not None else "single"]
            closed = route.id in scene.closed
            if owner is None:
                classes += ["unclaimed", "closed"] if closed else ["unclaimed"]
                owned_by = (
                    f"closed: the other route of the pair is claimed, and with "
                    f"{_plural(len(scene.seats), 'player')} only one route of a pair is used"
                    if closed
                    else "unclaimed"
                )
            else:
                classes += ["claimed", f"{owner[0]}-{owner[1]}"]
                owned_by = f"claimed by {self._owner_name(owner)}"
            tip = f"{route.a} – {route.b}: {route.color}, {route.length} spaces, {owned_by}"
            style = self.styles.get(route.id)
            shut = ' data-closed="true"' if closed else ""
            wilds = ""
            if style is not None:  # a variant's own way (hook ttr_route_styles)
                classes += ["outlined"] if style.outline else []
                classes += ["wild-spaces"] if style.wilds else []
                wilds = f' data-wild-spaces="{style.wilds}"' if style.wilds else ""
                tip = "; ".join((tip, *style.legends))
            yield (
                f'<g id="route-{route.id}" class="{" ".join(classes)}" '
                f'data-color="{_esc(route.color)}" data-length="{route.length}"{wilds}{shut}>'
            )
            yield f"<title>{_esc(tip)}</title>"
            yield from self._cars(route, line, owner, style, closed)
            for placed in self.route_marks.get(route.id, ()):
                yield from self._mark(placed)
            yield "</g>"

    def _owner_color(self, owner: tuple[str, int]) -> str:
        kind, index = owner
        palette = SEAT_COLORS if kind == "seat" else OTHER_COLORS
        return palette[index % len(palette)]

    def _owner_name(self, owner: tuple[str, int]) -> str:
        kind, index = owner
        return f"player {index + 1}" if kind == "seat" else self.scene.others[index].name

    def _owner_sign(self, owner: tuple[str, int]) -> str:
        """What a train piece of ``owner`` shows: the player's number (people
        count from 1), or the first letter of an owner that is not a seat."""
        kind, index = owner
        if kind == "seat":
            return str(index + 1)
        return (self.scene.others[index].name[:1] or "?").upper()

    def _cars(
        self,
        route: Route,
        line: _Line,
        owner: tuple[str, int] | None,
        style: _Style | None = None,
        closed: bool = False,
    ) -> Iterator[str]:
        """The route's spaces: free ones light, in the route's colour, with a
        thin border; claimed ones as train pieces in the owner's colour, with
        a shadow, a dark outline and the player's number (a white peg where
        a number would not fit), so that no route colour can pass for one;
        closed ones faded and struck through. A ``style`` outlines each space,
        and draws a locomotive in its first wild spaces (white in place of the
        number on a claimed route)."""
        if owner is None:
            light = 0.72 if closed else 0.3
            border = "#8a8a8a" if closed else "#3a3a3a"
            paint = f'fill="{_fill(route.color, light)}" stroke="{border}"'
            stroke_w = 0.8 * self.scale
        else:
            paint = f'fill="{self._owner_color(owner)}" stroke="#111111"'
            stroke_w = 1.6 * self.scale
        d = line.direction
        nx, ny = line.normal[0] * self.car_w / 2, line.normal[1] * self.car_w / 2
        gap = min(2.5 * self.scale, line.length / (4 * route.length))
        car = (line.length - gap * (route.length - 1)) / route.length
        wilds = 0 if style is None else style.wilds
        sign = "" if owner is None else self._owner_sign(owner)
        number = min(self.car_w * 1.05, car * 0.9)  # the sign's font size
        drop = (0.22 * self.car_w, 0.3 * self.car_w)  # the piece's shadow, down right
        for i in range(route.length):
            t = i * (car + gap)
            a = (line.start[0] + d[0] * t, line.start[1] + d[1] * t)
            b = (a[0] + d[0] * car, a[1] + d[1] * car)
            corners = (
                (a[0] + nx, a[1] + ny),
                (b[0] + nx, b[1] + ny),
                (b[0] - nx, b[1] - ny),
                (a[0] - nx, a[1] - ny),
            )
            if style is not None and style.outline:
                yield self._outline(a, b, line.normal, self.car_w, gap)
            if owner is not None:
                shadow = [(x + drop[0], y + drop[1]) for x, y in corners]
                yield (
                    f'<polygon class="shadow" points="{_points(shadow)}" fill="#000000" '
                    'fill-opacity="0.35" stroke-linejoin="round"/>'
                )
            yield (
                f'<polygon class="car" points="{_points(corners)}" {paint} '
                f'stroke-width="{_n(stroke_w)}" stroke-linejoin="round"/>'
            )
            cx, cy = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            if i < wilds:
                fill = "#ffffff" if owner is not None else "#1d1d1d"
                yield self._locomotive(a, b, self.car_w, fill)
            elif owner is not None and self._under_mark(route.id, cx, cy):
                pass  # the route's own mark covers this piece: no sign to mistake for it
            elif owner is not None and number >= 7:
                yield (
                    f'<text class="peg" x="{_n(cx)}" y="{_n(cy)}" font-size="{_n(number)}" '
                    'font-weight="bold" text-anchor="middle" dominant-baseline="central" '
                    f'fill="#ffffff">{_esc(sign)}</text>'
                )
            elif owner is not None:
                yield (
                    f'<circle class="peg" cx="{_n(cx)}" cy="{_n(cy)}" '
                    f'r="{_n(self.car_w * 0.19)}" fill="#ffffff" fill-opacity="0.85"/>'
                )
            elif closed:  # struck through, corner to corner
                (x0, y0), (x1, y1) = corners[0], corners[2]
                yield (
                    f'<line class="strike" x1="{_n(x0)}" y1="{_n(y0)}" x2="{_n(x1)}" '
                    f'y2="{_n(y1)}" stroke="#5a5a5a" stroke-width="{_n(1.3 * self.scale)}"/>'
                )

    def _under_mark(self, route: int, x: float, y: float) -> bool:
        """Whether a mark of ``route`` (or of its pair) lies over the point ``(x, y)``."""
        partner = self.scene.board.routes[route].partner
        placed = (
            [*self.route_marks.get(route, ()), *self.route_marks.get(partner, ())]
            if partner is not None
            else self.route_marks.get(route, [])
        )
        return any(math.dist((m.x, m.y), (x, y)) < m.size + self.car_w * 0.45 for m in placed)

    def _outline(self, a: Point, b: Point, normal: Point, thick: float, gap: float) -> str:
        """A dark frame around the space from ``a`` to ``b`` (``thick`` across),
        within half the ``gap`` between spaces, so that neighbours' frames touch
        at most."""
        grow = min(1.6 * self.scale, gap * 0.5)
        width = min(1.5 * self.scale, grow * 1.2)
        length = math.dist(a, b) or 1.0
        d = ((b[0] - a[0]) / length, (b[1] - a[1]) / length)
        half = thick / 2 + grow
        nx, ny = normal[0] * half, normal[1] * half
        p = (a[0] - d[0] * grow, a[1] - d[1] * grow)
        q = (b[0] + d[0] * grow, b[1] + d[1] * grow)
        corners = [(p[0] + nx, p[1] + ny), (q[0] + nx, q[1] + ny)]
        corners += [(q[0] - nx, q[1] - ny), (p[0] - nx, p[1] - ny)]
        return (
            f'<polygon class="outline" points="{_points(corners)}" fill="none" '
            f'stroke="#141414" stroke-width="{_n(width)}" stroke-linejoin="round"/>'
        )

    def _locomotive(self, a: Point, b: Point, thick: float, fill: str) -> str:
        """A small locomotive (the wild card) inside the space from ``a`` to ``b``,
        ``thick`` across: upright, facing along the space, as large as fits."""
        length = math.dist(a, b) or 1.0
        d = ((b[0] - a[0]) / length, (b[1] - a[1]) / length)
        if d[0] < 0 or (d[0] == 0 and d[1] < 0):
            d = (-d[0], -d[1])  # never upside down
        down = (-d[1], d[0])
        size = min(thick * 0.82 / 1.4, length * 0.8 / 2.3)
        cx, cy = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2

        def at(u: float, v: float) -> Point:
            return (cx + (u * d[0] + v * down[0]) * size, cy + (u * d[1] + v * down[1]) * size)

        parts = [f'<polygon points="{_points([at(u, v) for u, v in s])}"/>' for s in _LOCOMOTIVE]
        parts += [
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(0.21 * size)}"/>'
            for x, y in (at(u, 0.43) for u in (-0.55, 0.05, 0.62))
        ]
        return f'<g class="wild-space" fill="{fill}">{"".join(parts)}</g>'

    # -- marks ---------------------------------------------------------------------

    def _mark(self, placed: _Placed) -> Iterator[str]:
        mark, x, y, size, value = placed.mark, placed.x, placed.y, placed.size, placed.value
        label = f"{mark.name}: {value}" if mark.kind in ("badge", "tag") else mark.name
        yield (
            f'<g class="mark field-{_ident(mark.name)}" data-field="{_esc(mark.name)}" '
            f'data-value="{_esc(value)}"><title>{_esc(label)}</title>'
        )
        if mark.kind == "tag":
            yield _tag(x, y, size, self.scale, str(value))
        elif mark.kind == "badge":
            yield (
                f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(size)}" fill="#fff8d6" '
                f'stroke="#6b5a1e" stroke-width="{_n(1.2 * self.scale)}"/>'
            )
            yield (
                f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size * 1.25)}" '
                'font-weight="bold" text-anchor="middle" dominant-baseline="central" '
                f'fill="#3d3000">{_esc(value)}</text>'
            )
        else:
            yield self._symbol(mark.shape, x, y, size)
        yield "</g>"

    def _symbol(self, shape: str, x: float, y: float, size: float) -> str:
        paint = f'fill="#ffd23f" stroke="#3d3000" stroke-width="{_n(1.1 * self.scale)}"'
        if shape == "ring":
            return f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(size * 0.8)}" {paint}/>'
        corners: list[Point]
        if shape == "star":
            corners = [
                (
                    x
                    + (size if i % 2 == 0 else size * 0.45)
                    * math.cos(-math.pi / 2 + i * math.pi / 5),
                    y
                    + (size if i % 2 == 0 else size * 0.45)
                    * math.sin(-math.pi / 2 + i * math.pi / 5),
                )
                for i in range(10)
            ]
        elif shape == "diamond":
            corners = [(x, y - size), (x + size, y), (x, y + size), (x - size, y)]
        elif shape == "triangle":
            corners = [
                (x, y - size),
                (x + size * 0.9, y + size * 0.7),
                (x - size * 0.9, y + size * 0.7),
            ]
        else:  # square
            s = size * 0.75
            corners = [(x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)]
        return f'<polygon points="{_points(corners)}" {paint} stroke-linejoin="round"/>'

    # -- locations -----------------------------------------------------------------

    def _locations(self) -> Iterator[str]:
        board = self.scene.board
        marks = [m for m in self.marks if m.table == "locations"]
        for loc, (x, y), (box, lines) in zip(board.locations, self.at, self.labels, strict=True):
            yield f'<g id="location-{loc.id}" class="location">'
            yield f"<title>{_esc(loc.name)}</title>"
            yield (
                f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(self.dot)}" fill="#c0392b" '
                f'stroke="#3a1a10" stroke-width="{_n(1.5 * self.scale)}"/>'
            )
            shown = [m for m in marks if m.shows(loc.extra.get(m.name))]
            for i, mark in enumerate(shown):  # around the dot, from its top right
                angle = -math.pi / 4 + i * math.pi / 2
                mx = x + math.cos(angle) * self.dot * 1.25
                my = y + math.sin(angle) * self.dot * 1.25
                size = max(self.dot, self.font * 0.7)
                yield from self._mark(_Placed(mark, mx, my, size, loc.extra.get(mark.name)))
            yield from self._leader(x, y, box)
            yield from self._label(box, lines)
            yield "</g>"

    # -- tokens ----------------------------------------------------------------------

    def _token_color(self, owner: int | None) -> str:
        return _TOKEN_GRAY if owner is None else SEAT_COLORS[owner % len(SEAT_COLORS)]

    def _token_shape(self, x: float, y: float, size: float, color: str) -> str:
        """A little house (a station): a square under a roof, centred on ``(x, y)``."""
        h = size
        corners = [
            (x - h, y + h),
            (x + h, y + h),
            (x + h, y - h * 0.1),
            (x, y - h),
            (x - h, y - h * 0.1),
        ]
        return (
            f'<polygon points="{_points(corners)}" fill="{color}" stroke="#111111" '
            f'stroke-width="{_n(1.1 * self.scale)}" stroke-linejoin="round"/>'
        )

    def _tokens(self) -> Iterator[str]:
        """Each token beside its location's dot, below it, side by side when several."""
        board = self.scene.board
        size = max(self.dot * 0.75, 4.0)
        placed: dict[int, int] = {}
        for token in self.scene.tokens:
            x, y = self.at[token.location]
            nth = placed.get(token.location, 0)
            placed[token.location] = nth + 1
            tx = x - self.dot * 1.2 + nth * size * 2.3
            ty = y + self.dot + size * 1.2
            owner = "nobody" if token.owner is None else f"player {token.owner + 1}"
            yield (
                f'<g class="token token-{_ident(token.kind)}" data-location="{token.location}" '
                f'data-owner="{"" if token.owner is None else token.owner}">'
                f"<title>{_esc(token.kind)} of {owner} at "
                f"{_esc(board.locations[token.location].name)}</title>"
            )
            yield self._token_shape(tx, ty, size, self._token_color(token.owner))
            yield "</g>"

    def _leader(self, x: float, y: float, box: Box) -> Iterator[str]:
        """A thin line from the dot at ``(x, y)`` to its name, when the name had
        to go farther from the dot than a name usually is."""
        nx, ny = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
        far = math.dist((x, y), (nx, ny))
        if far < self.dot + 1.2 * self.font:
            return
        ux, uy = (nx - x) / far, (ny - y) / far
        yield (
            f'<line class="leader" x1="{_n(x + ux * self.dot)}" y1="{_n(y + uy * self.dot)}" '
            f'x2="{_n(nx - ux * 2 * self.scale)}" y2="{_n(ny - uy * 2 * self.scale)}" '
            f'stroke="#3a3a3a" stroke-width="{_n(1.1 * self.scale)}"/>'
        )

    def _label(self, box: Box, lines: Sequence[str]) -> Iterator[str]:
        x = (box[0] + box[2]) / 2
        yield (
            f'<text class="label" x="{_n(x)}" y="{_n(box[1] + self.font * 0.95)}" '
            f'font-size="{_n(self.font)}" font-weight="bold" text-anchor="middle" '
            f'fill="#1d1d1d" stroke="#ffffff" stroke-width="{_n(3 * self.scale)}" '
            'stroke-linejoin="round" paint-order="stroke">'
        )
        for i, line in enumerate(lines):
            dy = "0" if i == 0 else _n(self.font * 1.15)
            yield f'<tspan x="{_n(x)}" dy="{dy}">{_esc(line)}</tspan>'
        yield "</text>"

    # -- the panel -------------------------------------------------------------------

    def _panel(self) -> _Panel:
        scene = self.scene
        panel = _Panel(self)
        panel.heading(f"{scene.board.name} · {self._status()}")
        final = scene.scores
        piece = scene.board.pieces.removesuffix("s")  # the map's word, one of them: "taxi"
        for seat in scene.seats:
            you = " (you)" if seat.seat == scene.viewer else ""
            name = f"Player {seat.seat + 1}{you}"
            if final is not None:
                sheet = final.sheets[seat.seat]
                won = " · winner" if seat.seat in final.winners else ""
                facts = (
                    f"final score {sheet.total}{won} · tickets: {sheet.tickets_completed} "
                    f"completed, {sheet.tickets_failed} failed · {_plural(seat.cars, piece)} left"
                )
            else:
                facts = (
                    f"score {seat.score} · {_plural(seat.cars, piece)} · "
                    f"{_plural(seat.tickets, 'ticket')} · {_plural(seat.cards, 'card')}"
                )
            color = SEAT_COLORS[seat.seat % len(SEAT_COLORS)]
            panel.row(color, str(seat.seat + 1), name, facts, f"seat-{seat.seat}")
        for index, other in enumerate(scene.others):
            cars = "" if other.cars is None else f" · {_plural(other.cars, piece)} left"
            facts = f"{_plural(len(other.routes), 'route')}{cars} (not a seat: scores nothing)"
            color = OTHER_COLORS[index % len(OTHER_COLORS)]
            sign = self._owner_sign(("other", index))
            panel.row(color, sign, other.name.capitalize(), facts, f"other-{index}")
        if scene.viewer is not None:
            hand = ", ".join(f"{name} {count}" for name, count in scene.hand) or "no cards"
            panel.text(f"Your hand: {hand}", "hand")
            held = [scene.board.tickets[t] for t in scene.tickets]
            tickets = "; ".join(t.label for t in held) or "none"
            panel.text(f"Your tickets: {tickets}", "tickets")
        for mark in self.marks:
            panel.legend(mark)
        if scene.closed:
            panel.closed(len(scene.seats))
        drawn: dict[str, tuple[bool, bool]] = {}
        for style in scene.styles:  # one line per legend, drawn as its first style
            drawn.setdefault(style.legend, (style.outline, style.wild_spaces > 0))
        for legend, (outline, wild) in drawn.items():
            panel.style(legend, outline, wild)
        for kind in dict.fromkeys(token.kind for token in scene.tokens):
            panel.token(kind)
        return panel
