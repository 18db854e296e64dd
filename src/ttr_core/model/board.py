"""The board: a map's fixed facts, loaded once and shared by every state.

A :class:`Board` is frozen and holds everything that never changes during a
game: locations, routes, tickets, the card colours and deck make-up, and the
map's rule numbers (:class:`MapRules`). Variant data printed on the board
(attractions, tolls, merchandise symbols, ...) lives in each entry's
``extra`` mapping, under field names the variant's plugin declares.
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from typing import Any, TypeVar

import attrs

from ttr_core.errors import ArgumentError, show

#: The colour name routes use when any one card colour pays for them.
#: Most card colours a map may have (the wild card not counted).
MAX_COLORS = 12
#: Longest route a map may have (and no route may be longer than ``cars_per_player``).
MAX_ROUTE_LENGTH = 20

GRAY = "gray"
#: The name of the wild card (locomotive, taxi, joker) in hands and payments.
WILD = "wild"

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class UnknownName(ArgumentError, KeyError):
    """A name the board has no location or card colour for (or one that is not a
    ``str``): an :class:`ArgumentError` that is also the ``KeyError`` a mapping
    look-up gives."""

    def __str__(self) -> str:
        # KeyError's own str() would quote the message.
        return str(self.args[0]) if self.args else ""


class FrozenMap(Mapping[K, V]):
    """A read-only, hashable, picklable mapping (unlike ``MappingProxyType``)."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[K, V] | Iterable[tuple[K, V]] = ()) -> None:
        self._data: dict[K, V] = dict(data)

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(frozenset(self._data.items()))

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"

    def __reduce__(self) -> tuple[type[FrozenMap[K, V]], tuple[dict[K, V]]]:
        return (FrozenMap, (self._data,))


_EMPTY: FrozenMap[str, Any] = FrozenMap()


def _frozen_mapping(value: Mapping[str, Any] | None) -> Mapping[str, Any]:
    if not value:
        return _EMPTY
    return FrozenMap(value)


def _frozen_points(value: Mapping[int, int]) -> Mapping[int, int]:
    return FrozenMap(value)


def _frozen_titles(value: Mapping[str, str]) -> Mapping[str, str]:
    return FrozenMap(value)


def _frozen_regions(value: Mapping[str, Iterable[str]]) -> Mapping[str, tuple[str, ...]]:
    return FrozenMap((name, tuple(places)) for name, places in value.items())


def frozen_data(value: Any) -> Any:
    """``value`` (plain TOML or JSON data) made read-only and hashable: mappings
    as :class:`FrozenMap`, lists as tuples, all the way down."""
    if isinstance(value, Mapping):
        return FrozenMap((key, frozen_data(item)) for key, item in value.items())
    if isinstance(value, list | tuple):
        return tuple(frozen_data(item) for item in value)
    return value


def _frozen_variant_data(value: Mapping[str, Mapping[str, Any]]) -> Mapping[str, Any]:
    frozen: Mapping[str, Any] = frozen_data(value)
    return frozen


#: attrs field metadata: the field is left out of the map's fingerprint while
#: it holds its default (:func:`at_default`). A rule added to :class:`MapRules`
#: later carries it, so every map that does not use the rule keeps its
#: fingerprint, and saves of its games stay readable.
OMITTED_AT_DEFAULT = "ttr_core.omitted_at_default"


def at_default(instance: Any, field: attrs.Attribute[Any]) -> bool:
    """Whether ``instance``'s attrs ``field`` holds its default (a default
    computed from the instance, ``attrs.Factory(..., takes_self=True)``,
    included)."""
    default: Any = field.default
    if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
        default = default.factory(instance) if default.takes_self else default.factory()
    return bool(getattr(instance, field.name) == default)


def _as_returned(rules: MapRules) -> str:
    return rules.returned_tickets


def name_key(name: str) -> str:
    """The form in which location names are compared when a user names one.

    Case, accents, apostrophes (straight or typographic) and the difference
    between hyphens and spaces are ignored: ``"’s-Gravenhage"``,
    ``"'s-Gravenhage"`` and ``"s gravenhage"`` are the same place.
    """
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    for mark in "'’‘`´":
        plain = plain.replace(mark, "")
    return " ".join(plain.replace("-", " ").casefold().split())


@attrs.frozen
class Location:
    """A city or place on the board. ``extra`` holds variant fields;
    ``aliases`` other names a user may call it by (see :meth:`Board.location`);
    ``pos`` where it is printed on the board, as ``(x, y)`` fractions of the
    board's width and height from its top-left corner (``None`` if the map
    gives no positions; then no location of the map has one)."""

    id: int
    name: str
    extra: Mapping[str, Any] = attrs.field(default=_EMPTY, converter=_frozen_mapping, eq=False)
    aliases: tuple[str, ...] = ()
    pos: tuple[float, float] | None = None


@attrs.frozen
class Route:
    """A route between two locations.

    ``a`` and ``b`` are location names, ``color`` a card colour or ``"gray"``,
    ``pair`` the id shared with its parallel route (``None`` for a single
    route), ``partner`` the id of that parallel route. ``extra`` holds variant
    fields (e.g. a toll).
    """

    id: int
    a: str
    b: str
    color: str
    length: int
    pair: int | None = None
    partner: int | None = None
    extra: Mapping[str, Any] = attrs.field(default=_EMPTY, converter=_frozen_mapping, eq=False)


@attrs.frozen
class Ticket:
    """A destination ticket (contract): its ends and what it is worth.

    ``a`` and ``b`` name a location each, or a region of the map (any of the
    region's locations joins that end: :attr:`Board.regions`, Switzerland's
    countries). ``points`` are won if ``a`` and ``b`` are joined, lost if not.

    A ticket with several destinations (a Swiss country ticket) lists the
    others in ``more``, as ``(end, points)`` pairs: ``b`` and ``points`` are
    its first destination. Joined to one or more, it wins the most points of
    those joined; joined to none, it loses the fewest points of all
    (:attr:`lost`). :attr:`destinations` lists them all.
    """

    id: int
    a: str
    b: str
    points: int
    extra: Mapping[str, Any] = attrs.field(default=_EMPTY, converter=_frozen_mapping, eq=False)
    more: tuple[tuple[str, int], ...] = attrs.field(default=(), metadata={OMITTED_AT_DEFAULT: True})

    @property
    def destinations(self) -> tuple[tuple[str, int], ...]:
        """Every destination as ``(end, points)``: ``(b, points)`` first, then ``more``."""
        return ((self.b, self.points), *self.more)

    @property
    def lost(self) -> int:
        """The points lost when no destination is joined: the fewest of them."""
        if not self.more:
            return self.points
        return min(points for _end, points in self.destinations)

    @property
    def label(self) -> str:
        """The ticket in words: ``"Basel – Bern (5)"``, or with several
        destinations ``"Lugano – France 13 / Deutschland 13 / Österreich 12 /
        Italia 2"``."""
        return self.text(" – ")

    def text(self, dash: str = " – ") -> str:
        """:attr:`label` with ``dash`` between the ends (``"Bern–Zürich (4)"``)."""
        if not self.more:
            return f"{self.a}{dash}{self.b} ({self.points})"
        sep = " / " if " " in dash else "/"
        return f"{self.a}{dash}" + sep.join(f"{end} {points}" for end, points in self.destinations)


@attrs.frozen
class MapRules:
    """Every per-map rule number. Nothing here is a constant in code.

    Attributes:
        min_players, max_players: the player counts the map supports.
        cars_per_player: cars (trains, taxis, carts) each player starts with.
        starting_hand: transportation cards dealt to each player.
        display_size: face-up cards in the display.
        max_face_up_wilds: most wilds the display may show; one more resets it.
        start_tickets_dealt, start_tickets_keep: starting ticket choice.
        draw_tickets, draw_tickets_keep: the ticket draw action.
        returned_tickets: ``"bottom"`` (of the ticket deck), ``"discard"``
            (a ticket discard pile, shuffled into a new deck when it runs out)
            or ``"box"`` (out of the game: ``GameState.boxed_tickets``).
        route_points: points scored by a route, by length.
        end_trigger_cars: a player ending a turn with this many cars or fewer
            starts the final round.
        both_pair_routes_min_players: with at least this many players both
            routes of a double pair are usable; with fewer, claiming one closes
            the other. Variants may override it (hook
            ``ttr_both_pair_routes_usable``).
        start_scores: score each seat starts with (by seat order).
        default_variants: variants switched on when a game names none.
        ticket_deck_size: the printed ticket deck's size when the map knows only
            some of its tickets (the rest are generated); 0 when the tickets
            listed are the whole deck.
        start_returned_tickets: where the starting tickets a seat does not
            keep go (``[rules.tickets] start_returned``): ``"bottom"``,
            ``"discard"`` or ``"box"`` (out of the game, face down:
            ``GameState.boxed_tickets``). By default ``returned_tickets``;
            left out of the fingerprint while it is, so maps without the rule
            keep theirs.
        wild_routes: the route fields on which wild cards pay (``[rules.cards]
            wild_routes``): a wild pays for a route one of whose fields is set
            (``True`` or a number above 0: Switzerland's ``tunnel``, Nordic
            Countries' ``tunnel`` and ``locomotives``); empty (the default)
            when wilds pay for every route. Elsewhere only the route's colour
            (or, on a gray route, one colour) pays.
        face_up_wild: what taking a face-up wild is (``[rules.cards]
            face_up_wild``): ``"turn"`` (the default, the base rule) — it is
            the whole draw, and may not be the second card — or ``"card"``, an
            ordinary card (Switzerland, Nordic Countries).
    """

    min_players: int
    max_players: int
    cars_per_player: int
    starting_hand: int
    display_size: int
    max_face_up_wilds: int
    start_tickets_dealt: int
    start_tickets_keep: int
    draw_tickets: int
    draw_tickets_keep: int
    returned_tickets: str
    route_points: Mapping[int, int] = attrs.field(converter=_frozen_points)
    end_trigger_cars: int
    both_pair_routes_min_players: int
    start_scores: tuple[int, ...] = ()
    default_variants: tuple[str, ...] = ()
    ticket_deck_size: int = 0
    start_returned_tickets: str = attrs.field(
        default=attrs.Factory(_as_returned, takes_self=True),
        metadata={OMITTED_AT_DEFAULT: True},
    )
    wild_routes: tuple[str, ...] = attrs.field(default=(), metadata={OMITTED_AT_DEFAULT: True})
    face_up_wild: str = attrs.field(default="turn", metadata={OMITTED_AT_DEFAULT: True})


def wilds_pay(rules: MapRules, route: Route) -> bool:
    """Whether wild cards pay for ``route`` (``[rules.cards] wild_routes``): on
    every route, or only on those one of whose named fields is set (``True``,
    or a whole number above 0)."""
    if not rules.wild_routes:
        return True
    for name in rules.wild_routes:
        value = route.extra.get(name)
        if value is True or (type(value) is int and value > 0):
            return True
    return False


#: The card index no card has: what :func:`turn_wild` gives when a face-up wild
#: is an ordinary card.
NO_CARD = -1


def turn_wild(board: Board) -> int:
    """The card index whose face-up card is the whole draw and may not be the
    second card: the wild (``[rules.cards] face_up_wild = "turn"``, the base
    rule), or :data:`NO_CARD` when a face-up wild is an ordinary card."""
    return board.wild if board.rules.face_up_wild == "turn" else NO_CARD


@attrs.frozen
class Provenance:
    """Where a map's facts come from, and which are not verified.

    ``sources`` pairs a source's id with what it gave; ``verified`` and
    ``unverified`` list parts of the map in words.
    """

    summary: str
    sources: tuple[tuple[str, str], ...] = ()
    verified: tuple[str, ...] = ()
    unverified: tuple[str, ...] = ()


@attrs.frozen(eq=False)
class Board:
    """A map: locations, routes, tickets, cards and rules. Frozen and shared.

    Boards compare by identity: two loads of the same file are equal in
    content but distinct objects; states only ever refer to one.

    Card colours are indexed: ``colors[i]`` is colour ``i`` and the wild card
    is index ``len(colors)`` (see :attr:`wild`). ``deck`` gives the number of
    cards of each index.
    """

    id: str
    name: str
    source: str
    locations: tuple[Location, ...]
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    colors: tuple[str, ...]
    deck: tuple[int, ...]
    rules: MapRules
    aliases: tuple[str, ...] = ()
    wild_name: str = WILD
    #: Where the facts come from (``[provenance]`` in the map file), if given.
    provenance: Provenance | None = None
    #: The printed board's width divided by its height (``[map] aspect``), if
    #: given: the frame of the locations' ``pos``, for drawing the board.
    aspect: float | None = None
    #: The map's own titles for variants' score lines (``[rules.titles]``), by
    #: the key the variant reads them with (``GameRules.title``): names only,
    #: so left out of the map's fingerprint.
    titles: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen_titles)
    #: What the map's players place on routes, as a plural word (``[map] pieces``:
    #: ``"taxis"``, ``"carts"``, ``"trains"``; ``"cars"`` if the map names none).
    #: A word only, so left out of the map's fingerprint (saves survive it).
    pieces: str = "cars"
    #: Named sets of locations a ticket end may name (``[regions]``:
    #: Switzerland's countries, each reached at any of its border points), as
    #: location names by region name.
    regions: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict, converter=_frozen_regions)
    #: The map's data for its variants (``[variants.<name>]`` tables), by
    #: variant name: plain TOML values (tables as read-only mappings, arrays as
    #: tuples), checked by the variant itself (``ttr_validate_map``).
    variant_data: Mapping[str, Mapping[str, Any]] = attrs.field(
        factory=dict, converter=_frozen_variant_data
    )
    #: Card names by index: the colours, then ``"wild"``.
    card_names: tuple[str, ...] = attrs.field(init=False)
    _location_index: Mapping[str, int] = attrs.field(init=False, repr=False)
    _spellings: Mapping[str, int] = attrs.field(init=False, repr=False)
    #: What the engine derives from this board (action tables, resolved rule
    #: sets), kept here so that it lives exactly as long as the board: a board
    #: no game and no cache uses any more is freed with all of it. Read it
    #: freely (``derived.get``); write it only through :func:`derive`.
    derived: dict[Any, Any] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "card_names", (*self.colors, WILD))
        object.__setattr__(self, "_location_index", {loc.name: loc.id for loc in self.locations})
        spellings: dict[str, int] = {}
        for loc in self.locations:
            for spelling in (loc.name, *loc.aliases):
                spellings.setdefault(name_key(spelling), loc.id)
        object.__setattr__(self, "_spellings", spellings)
        object.__setattr__(self, "derived", {})

    def location(self, name: str) -> Location:
        """The location a user names: its printed name, an alias, or either
        spelled without regard to case, accents, apostrophes or hyphens
        (``"Den Haag"``, ``"s-gravenhage"``, ``"Liege"``). :class:`UnknownName`
        (an ``ArgumentError`` and a ``KeyError``) if none, or ``name`` is not a ``str``."""
        index = self._location_index.get(name) if isinstance(name, str) else None
        if index is None and isinstance(name, str):
            index = self._spellings.get(name_key(name))
        if index is None:
            raise UnknownName(f"no location {show(name)} on map {show(self.id)}")
        return self.locations[index]

    @property
    def wild(self) -> int:
        """The card index of the wild card."""
        return len(self.colors)

    def places(self, end: str) -> tuple[int, ...]:
        """The location ids a ticket end stands for: the location ``end``, or
        every location of region ``end`` (:class:`UnknownName` if neither)."""
        region = self.regions.get(end) if isinstance(end, str) else None
        if region is not None:
            return tuple(self._location_index[name] for name in region)
        return (self.location_id(end),)

    def wilds_pay(self, route: int) -> bool:
        """Whether wild cards pay for route id ``route`` (``[rules.cards]
        wild_routes``: every route, or only those with a named field set).
        :class:`ArgumentError` for a route id the board has not."""
        if type(route) is not int or not 0 <= route < len(self.routes):
            raise ArgumentError(f"no route {show(route)} on map {show(self.id)}")
        return wilds_pay(self.rules, self.routes[route])

    def location_id(self, name: str) -> int:
        """The index of the location with printed name ``name`` (:class:`UnknownName`,
        an ``ArgumentError`` and a ``KeyError``, if none)."""
        index = self._location_index.get(name) if isinstance(name, str) else None
        if index is None:
            raise UnknownName(f"no location {show(name)} on map {show(self.id)}")
        return index

    def card_index(self, name: str) -> int:
        """The card index of a colour name or ``"wild"`` (:class:`UnknownName`, an
        ``ArgumentError`` and a ``KeyError``, if none)."""
        if isinstance(name, str):
            if name == WILD:
                return self.wild
            if name in self.colors:
                return self.colors.index(name)
        raise UnknownName(f"no card colour {show(name)} on map {show(self.id)}")

    @property
    def total_cards(self) -> int:
        """Number of transportation cards in the game."""
        return sum(self.deck)

    @property
    def total_spaces(self) -> int:
        """Number of route spaces on the board."""
        return sum(r.length for r in self.routes)

    def __reduce__(self) -> tuple[type[Board], tuple[Any, ...]]:
        # Rebuilt from its facts: what was derived from it is derived again.
        fields = (f.name for f in attrs.fields(Board) if f.init)
        return (Board, tuple(getattr(self, name) for name in fields))

    def __copy__(self) -> Board:
        return self  # immutable and shared by every state of a game

    def __deepcopy__(self, memo: dict[int, Any]) -> Board:
        return self

    def __repr__(self) -> str:
        return (
            f"<Board {show(self.id)}: {len(self.locations)} locations, {len(self.routes)} routes>"
        )


#: Held by every writer of a board's ``derived`` (readers take no lock): a fill
#: is a check-then-act sequence, and an eviction looks over the dict, which no
#: other thread may change meanwhile. One lock for all boards: it is held only
#: to store, never while anything is built.
_DERIVE_LOCK = threading.Lock()


def derive(
    board: Board,
    key: Hashable,
    build: Callable[[], T],
    evict: Callable[[dict[Any, Any]], None] | None = None,
) -> T:
    """What ``build()`` derives from ``board``, kept in ``board.derived`` under
    ``key`` (``build`` never returns ``None``).

    Safe between threads: the look-up takes no lock (a ``dict.get`` is
    atomic); a miss builds outside the lock, then stores under it unless
    another thread stored first, so every caller gets the one object kept.
    ``evict``, called under the lock just before a new value is stored, may
    delete entries to keep the cache bounded.
    """
    found = board.derived.get(key)
    if found is None:
        made = build()
        with _DERIVE_LOCK:
            found = board.derived.get(key)
            if found is None:
                if evict is not None:
                    evict(board.derived)
                found = board.derived[key] = made
    return found


def evict_oldest(tag: str, most: int) -> Callable[[dict[Any, Any]], None]:
    """An ``evict`` for :func:`derive` keeping at most ``most`` entries (the
    new one included) whose key is a tuple starting with ``tag``: the oldest
    stored go first."""

    def evict(derived: dict[Any, Any]) -> None:
        kept = [k for k in derived if type(k) is tuple and k and k[0] == tag]
        for k in kept[: max(0, len(kept) + 1 - most)]:
            del derived[k]

    return evict
