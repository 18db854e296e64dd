"""Pictures of the board: :func:`svg` draws a game, or what one seat sees of it, as SVG.

The picture shows the locations at their printed positions (``Location.pos``;
on a circle when the map gives none), every route as a row of car spaces in
its colour (the two routes of a double pair side by side), claimed routes as
train pieces in their owner's colour (a colour no route has), closed routes
struck through, the names off the routes, the marks of the map's variant
fields, and a panel of scores under the board, and the tokens variants put on
locations (stations, hook ``ttr_tokens``) in their owner's colour. Marks are
chosen by the kind of each field, never by a variant's name
(docs/pictures.md): a true ``bool`` field puts a symbol on its location or on
its route, a positive ``int`` field a badge with the number. A variant may
draw its routes its own way instead (hook ``ttr_route_styles``): outlined
(tunnels), or with a locomotive in some of their spaces (ferries).

The output is plain, self-contained SVG text (nothing to fetch: no fonts, no
images) and the same bytes for the same input. Each route is a group
``<g id="route-N" class="route ...">``, each location ``<g id="location-N">``,
so that programs and tests can find them.
"""

from __future__ import annotations

import colorsys
import hashlib
import math
import re
from collections.abc import Iterator, Mapping, Sequence, Set

import attrs

from ttr_core.errors import ArgumentError, show
from ttr_core.hooks import calls
from ttr_core.hooks.manager import declared_map_fields
from ttr_core.hooks.resolve import game_rules
from ttr_core.model.board import GRAY, Board, Route
from ttr_core.model.declarations import MapField, NonSeatOwner, RouteStyle, Token
from ttr_core.model.gamerules import GameRules
from ttr_core.model.scores import FinalScores
from ttr_core.model.state import GameState, Termination
from ttr_core.model.views import PlayerView
from ttr_core.rules.scoring import final_scores
from ttr_core.rules.views import non_seat_owners

__all__ = ["CARD_FILLS", "MAX_WIDTH", "MIN_WIDTH", "OTHER_COLORS", "SEAT_COLORS", "svg"]

#: Seat colours by seat. None is a card colour's fill or close to one (teal,
#: magenta, olive, indigo sit between the card colours' hues, the others far
#: darker or brighter), so that a claimed route never looks like a free one of
#: that colour; claimed spaces are also drawn as train pieces (a dark outline,
#: a shadow and the player's number): docs/pictures.md.
SEAT_COLORS = (
    "#00838f",  # teal
    "#b0168f",  # magenta
    "#5f7f00",  # olive
    "#3d2db8",  # indigo
    "#880e4f",  # wine
    "#00b8d4",  # cyan
    "#2f4f1f",  # forest
    "#e65100",  # burnt orange
)
#: Fill of a token that belongs to no seat (and of the samples in the legend).
_TOKEN_GRAY = "#9e9e9e"
#: Colours of route owners that are not seats, in the order the game lists them
#: (brown first: no card colour of the built-in maps is brown).
OTHER_COLORS = ("#7a4b27", "#4d4d4d", "#9a8f2e")
#: Fill of each card colour a map is likely to name. Any other name gets a
#: colour made from the name (the same every time), never the name itself.
CARD_FILLS: Mapping[str, str] = {
    "red": "#d93b3b",
    "blue": "#3b7fd9",
    "green": "#3fa34d",
    "yellow": "#f2cf3a",
    "black": "#2b2b2b",
    "white": "#f7f7f7",
    "orange": "#f08a24",
    "pink": "#f07ab6",
    "purple": "#9b59c4",
    "brown": "#8b5a2b",
    GRAY: "#a8a8a8",
    "grey": "#a8a8a8",
}
#: The narrowest and widest picture, in pixels.
MIN_WIDTH = 200
MAX_WIDTH = 20_000

_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
_BOARD_FILL = "#f3ecd9"
_LOCATION_SYMBOLS = ("star", "ring", "triangle", "square")
_ROUTE_SYMBOLS = ("diamond", "square", "triangle", "ring")
#: Characters XML 1.0 cannot hold (a board built by hand could carry them).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, right, bottom

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


# ---------------------------------------------------------------------------
# What is drawn, the same from a state or a view
# ---------------------------------------------------------------------------


@attrs.frozen
class _Seat:
    seat: int
    score: int
    cars: int
    tickets: int
    cards: int


@attrs.frozen
class _Scene:
    """The public facts of a game, and one seat's own hand and tickets for a view.

    Everything drawn comes from here: a view's picture cannot show what the
    view does not hold.
    """

    board: Board
    #: Owner of each route by id: ``("seat", n)``, ``("other", n)`` or ``None``.
    owners: tuple[tuple[str, int] | None, ...]
    seats: tuple[_Seat, ...]
    others: tuple[NonSeatOwner, ...]
    turn: int
    current: int | None
    termination: Termination | None
    scores: FinalScores | None
    viewer: int | None = None
    hand: tuple[tuple[str, int], ...] = ()
    tickets: tuple[int, ...] = ()
    #: The variants' tokens on locations (public: the same from a state or a view).
    tokens: tuple[Token, ...] = ()
    #: How the variants draw their routes (public: the same from a state or a view).
    styles: tuple[RouteStyle, ...] = ()
    #: Free routes nobody may claim: the other route of a claimed double when
    #: the game uses one route of a pair (``GameRules.both_pair_routes_usable``).
    closed: frozenset[int] = frozenset()


def _scores(
    scores: object, seats: int, over: bool, termination: Termination | None
) -> FinalScores | None:
    """``scores`` checked: ``None`` or the final scores of a finished game of
    ``seats`` seats that ended as this one did."""
    if scores is None:
        return None
    if not isinstance(scores, FinalScores):
        raise ArgumentError(f"scores must be FinalScores or None, not {type(scores).__name__}")
    if not over:
        raise ArgumentError("scores are the final scores of a finished game: this game is not over")
    if len(scores.sheets) != seats or scores.termination != termination:
        raise ArgumentError(
            f"scores must be the final scores of this game ({seats} seats, ended by "
            f"{termination}), not of {len(scores.sheets)} seats ended by {scores.termination}"
        )
    return scores


def _scene(game: object, given: object) -> _Scene:
    if isinstance(game, GameState):
        scores = _scores(given, game.num_players, game.is_over, game.termination)
        others = non_seat_owners(game)
        if game.is_over:
            computed = final_scores(game)
            if scores is not None and scores != computed:
                raise ArgumentError(
                    "scores must be this game's final scores (a state's are drawn from "
                    "final_scores(state): leave scores out)"
                )
            scores = computed
        owned = {r: i for i, p in enumerate(game.players) for r in p.routes}
        owners = _owners(game.board, owned, others)
        return _Scene(
            board=game.board,
            owners=owners,
            seats=tuple(
                _Seat(i, p.score, p.cars, len(p.tickets), p.hand.total)
                for i, p in enumerate(game.players)
            ),
            others=others,
            turn=game.turn,
            current=game.current_player,
            termination=game.termination,
            scores=scores,
            tokens=tuple(calls.run_tokens(game.rules, game)) if game.rules.tokens else (),
            styles=_styles(game.rules),
            closed=_closed(game.board, owners, game.rules),
        )
    if isinstance(game, PlayerView):
        scores = _scores(given, len(game.seats), game.is_over, game.termination)
        options = {variant: dict(values) for variant, values in game.options}
        rules = game_rules(game.board, len(game.seats), game.variant_names, options)
        owned = {r: s.seat for s in game.seats for r in s.routes}
        owners = _owners(game.board, owned, game.others)
        return _Scene(
            board=game.board,
            owners=owners,
            seats=tuple(
                _Seat(s.seat, s.score, s.cars, s.tickets_held, s.hand_size) for s in game.seats
            ),
            others=game.others,
            turn=game.turn,
            current=game.current_player,
            termination=game.termination,
            scores=scores,
            viewer=game.viewer,
            hand=tuple((name, count) for name, count in game.hand.items() if count),
            tickets=game.tickets,
            tokens=tuple(calls.run_tokens(rules, game)) if rules.tokens else (),
            styles=_styles(rules),
            closed=_closed(game.board, owners, rules),
        )
    raise ArgumentError(f"game must be a GameState or a PlayerView, not {type(game).__name__}")


def _styles(rules: GameRules) -> tuple[RouteStyle, ...]:
    """The variants' route styles (hook ``ttr_route_styles``) that draw something."""
    if not rules.route_styles:
        return ()
    return tuple(s for s in calls.run_route_styles(rules) if s.outline or s.wild_spaces)


def _closed(
    board: Board, owners: Sequence[tuple[str, int] | None], rules: GameRules
) -> frozenset[int]:
    """The free routes whose partner is claimed, when the game (its map's
    ``[rules]`` and any variant's say) uses only one route of a pair."""
    if rules.both_pair_routes_usable:
        return frozenset()
    return frozenset(
        r.id
        for r in board.routes
        if owners[r.id] is None and r.partner is not None and owners[r.partner] is not None
    )


def _owners(
    board: Board, seats: Mapping[int, int], others: Sequence[NonSeatOwner]
) -> tuple[tuple[str, int] | None, ...]:
    owners: list[tuple[str, int] | None] = [None] * len(board.routes)
    for route, seat in seats.items():
        owners[route] = ("seat", seat)
    for index, other in enumerate(others):
        for route in other.routes:
            owners[route] = ("other", index)
    return tuple(owners)


# ---------------------------------------------------------------------------
# Marks, chosen by the kinds of the map's fields
# ---------------------------------------------------------------------------


@attrs.frozen
class _Mark:
    """A field drawn as a mark: ``kind`` is ``"symbol"`` (drawn where the field
    is true) or ``"badge"`` (drawn with the number where it is above 0)."""

    table: str
    name: str
    kind: str
    shape: str
    doc: str
    #: The value the legend's sample shows: the map's first value that is marked.
    sample: object = True

    def shows(self, value: object) -> bool:
        """Whether an entry with this ``value`` of the field gets the mark."""
        if self.kind == "symbol":
            return value is True
        return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _marks(board: Board, styled: Set[tuple[int, str]] = frozenset()) -> tuple[_Mark, ...]:
    """The ``bool`` and ``int`` fields of ``board`` that mark at least one entry.

    An installed plugin's field comes with its kind and doc; a field the map
    declares itself (its ``[fields]`` table) is known by its values alone.
    A route and field in ``styled`` (a variant's route style stands for the
    field) gets no mark.
    """
    declared = {(f.table, f.name): f for f in declared_map_fields()}
    marks: list[_Mark] = []
    for table, entries in (("locations", board.locations), ("routes", board.routes)):
        symbols = iter(_LOCATION_SYMBOLS if table == "locations" else _ROUTE_SYMBOLS)
        for name in sorted({key for entry in entries for key in entry.extra}):
            field = declared.get((table, name))
            values = [entry.extra.get(name) for entry in entries]
            kind = _kind(field, values)
            if not kind:
                continue
            if table == "routes" and styled:
                values = [v for r, v in enumerate(values) if (r, name) not in styled]
            shape = next(symbols, "ring") if kind == "symbol" else "badge"
            mark = _Mark(table, name, kind, shape, field.doc if field is not None else "")
            shown = [v for v in values if mark.shows(v)]
            if shown:
                marks.append(attrs.evolve(mark, sample=shown[0]))
    return tuple(marks)


def _kind(field: MapField | None, values: Sequence[object]) -> str:
    kind: object = None if field is None else field.type
    if field is None:  # declared by the map: all its values are of one type
        given = {type(v) for v in values if v is not None}
        kind = given.pop() if len(given) == 1 else None
    return "symbol" if kind is bool else "badge" if kind is int else ""


# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# The picture
# ---------------------------------------------------------------------------


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
class _Placed:
    """A mark placed on the picture: its centre, its size (half its width) and
    the value it shows."""

    mark: _Mark
    x: float
    y: float
    size: float
    value: object


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
                if mark.table != "routes" or not mark.shows(value):
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
                shown.append((mark, value, shared))
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
        label = f"{mark.name}: {value}" if mark.kind == "badge" else mark.name
        yield (
            f'<g class="mark field-{_ident(mark.name)}" data-field="{_esc(mark.name)}" '
            f'data-value="{_esc(value)}"><title>{_esc(label)}</title>'
        )
        if mark.kind == "badge":
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
        for seat in scene.seats:
            you = " (you)" if seat.seat == scene.viewer else ""
            name = f"Player {seat.seat + 1}{you}"
            if final is not None:
                sheet = final.sheets[seat.seat]
                won = " · winner" if seat.seat in final.winners else ""
                facts = (
                    f"final score {sheet.total}{won} · tickets: {sheet.tickets_completed} "
                    f"completed, {sheet.tickets_failed} failed · {_plural(seat.cars, 'car')} left"
                )
            else:
                facts = (
                    f"score {seat.score} · {_plural(seat.cars, 'car')} · "
                    f"{_plural(seat.tickets, 'ticket')} · {_plural(seat.cards, 'card')}"
                )
            color = SEAT_COLORS[seat.seat % len(SEAT_COLORS)]
            panel.row(color, str(seat.seat + 1), name, facts, f"seat-{seat.seat}")
        for index, other in enumerate(scene.others):
            cars = "" if other.cars is None else f" · {_plural(other.cars, 'car')} left"
            facts = f"{_plural(len(other.routes), 'route')}{cars} (not a seat: scores nothing)"
            color = OTHER_COLORS[index % len(OTHER_COLORS)]
            sign = self._owner_sign(("other", index))
            panel.row(color, sign, other.name.capitalize(), facts, f"other-{index}")
        if scene.viewer is not None:
            hand = ", ".join(f"{name} {count}" for name, count in scene.hand) or "no cards"
            panel.text(f"Your hand: {hand}", "hand")
            held = [scene.board.tickets[t] for t in scene.tickets]
            tickets = "; ".join(f"{t.a} – {t.b} ({t.points})" for t in held) or "none"
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


class _Panel:
    """The panel under the board: lines of text, laid out top to bottom."""

    def __init__(self, drawing: _Drawing) -> None:
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
