"""What a picture shows, the same from a state or a view: the seats, the
routes' owners and closed routes, tokens, the map's marks chosen by the kinds
of its fields, the colours.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

import attrs

from ttr_core.errors import ArgumentError
from ttr_core.hooks import calls
from ttr_core.hooks.manager import declared_map_fields
from ttr_core.hooks.resolve import game_rules
from ttr_core.model.board import GRAY, WILD, Board
from ttr_core.model.declarations import STRS, MapField, NonSeatOwner, RouteStyle, Token
from ttr_core.model.gamerules import GameRules
from ttr_core.model.scores import FinalScores
from ttr_core.model.state import GameState, Termination
from ttr_core.model.views import PlayerView
from ttr_core.rules.scoring import final_scores
from ttr_core.rules.views import non_seat_owners

__all__ = ["CARD_FILLS", "MAX_WIDTH", "MIN_WIDTH", "OTHER_COLORS", "SEAT_COLORS"]


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
            # The map's word for its wild card ("locomotive"), as the players say it.
            hand=tuple(
                (game.board.wild_name if name == WILD else name, count)
                for name, count in game.hand.items()
                if count
            ),
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


@attrs.frozen
class _Mark:
    """A field drawn as a mark: ``kind`` is ``"symbol"`` (drawn where the field
    is true), ``"badge"`` (drawn with the number where it is above 0) or
    ``"tag"`` (a list of words: one small label per word, e.g. the company
    logos a Pennsylvania route shows)."""

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
        if self.kind == "tag":
            return isinstance(value, str) and bool(value)
        return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _marks(board: Board, styled: Set[tuple[int, str]] = frozenset()) -> tuple[_Mark, ...]:
    """The ``bool``, ``int`` and ``list[str]`` fields of ``board`` that mark at
    least one entry (a list field by each of its words).

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
            shape = next(symbols, "ring") if kind == "symbol" else kind
            mark = _Mark(table, name, kind, shape, field.doc if field is not None else "")
            if kind == "tag":  # each word of a list is a mark of its own
                values = [word for v in values if isinstance(v, tuple) for word in v]
            shown = [v for v in values if mark.shows(v)]
            if shown:
                marks.append(attrs.evolve(mark, sample=shown[0]))
    return tuple(marks)


def _kind(field: MapField | None, values: Sequence[object]) -> str:
    kind: object = None if field is None else field.type
    if field is None:  # declared by the map: all its values are of one type
        given = {type(v) for v in values if v is not None}
        kind = given.pop() if len(given) == 1 else None
        words = [w for v in values if isinstance(v, tuple) for w in v]
        if kind is tuple and all(isinstance(w, str) for w in words):
            kind = STRS
    return "symbol" if kind is bool else "badge" if kind is int else "tag" if kind == STRS else ""


@attrs.frozen
class _Placed:
    """A mark placed on the picture: its centre, its size (half its width) and
    the value it shows."""

    mark: _Mark
    x: float
    y: float
    size: float
    value: object
