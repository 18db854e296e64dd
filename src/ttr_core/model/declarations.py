"""What a variant declares and hands the core: its map fields and options, the
owners that are not seats, tokens and route styles for pictures, action
templates for action ids, and its advice to the bots.

Values (frozen attrs classes) the hooks of :mod:`ttr_core.hooks.specs` take
and return; plugins build them through the facade (``ttr_core.MapField`` ...).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from ttr_core.errors import ArgumentError, what
from ttr_core.model.actions import Action

#: ``MapField.type`` of a field naming one location of the map.
LOCATION = "location"


#: ``MapField.type`` of a field naming two locations joined by a route; stored
#: as a tuple of the two names.
ROUTE = "route"


#: ``MapField.type`` of list-valued fields, stored as tuples: whole numbers,
#: strings, location names (a route's company logos, a ticket's cities).
INTS = "list[int]"
STRS = "list[str]"
LOCATIONS = "list[location]"

#: The element kind of each list kind.
LIST_KINDS: dict[str, type | str] = {INTS: int, STRS: str, LOCATIONS: LOCATION}


@attrs.frozen
class MapField:
    """A variant field that map files may carry on their entries.

    ``table`` is ``"locations"``, ``"routes"`` or ``"tickets"``; ``name`` the
    key in the entry; ``type`` one of ``bool``, ``int``, ``str``,
    :data:`LOCATION`, :data:`ROUTE` or a list kind — :data:`INTS`,
    :data:`STRS`, :data:`LOCATIONS` (``"list[int]"`` ...: a TOML array,
    stored as a tuple); ``default`` the value entries without the key get;
    ``doc`` a sentence for the map format documentation.
    ``needed``: the variant cannot be played on a map none of whose entries
    gives the field a value other than its default (tolls on a map without a
    toll): a variant declaring needed fields is refused
    (:class:`ttr_core.GameConfigError`) on a map that lacks every one of them.
    """

    table: str
    name: str
    type: type | str
    default: Any
    doc: str = ""
    needed: bool = False


#: The value types a variant option may have.
OPTION_TYPES: tuple[type, ...] = (bool, int, float, str)


@attrs.frozen
class VariantOption:
    """One option of a variant, declared through :func:`ttr_options`.

    ``type`` is ``bool``, ``int``, ``float`` or ``str``; ``default`` the value
    a game gets when it gives none; ``doc`` a sentence for people (``ttr
    --list`` shows it). ``low`` and ``high`` bound a number (inclusive);
    ``choices`` lists the only values allowed, when not empty.
    """

    name: str
    type: type
    default: Any
    doc: str = ""
    low: float | None = None
    high: float | None = None
    choices: tuple[Any, ...] = ()


def _tupled(value: Any) -> Any:
    """A list as a tuple; anything else as given (checked where it is used:
    ``ttr_core.hooks.checks.ticket_ends``)."""
    return tuple(value) if type(value) is list else value


@attrs.frozen
class TicketGoal:
    """One destination of a ticket as the ticket check reads it: reached when a
    location of ``places`` (location ids) is joined to the ticket's start,
    worth ``points`` (whole, at least 1); ``name`` says it to people."""

    places: tuple[int, ...] = attrs.field(converter=_tupled)
    points: int
    name: str


@attrs.frozen
class TicketEnds:
    """What completes a ticket and what it is worth, as the core's one ticket
    check reads it (``ttr_core.ticket_outcomes``), told by the map or by a
    variant (hook :func:`ttr_ticket_ends`).

    ``start``: location ids, any of which starts the ticket. ``goals``: its
    destinations (:class:`TicketGoal`, at least one). Joined to one or more
    goals, the ticket is completed and wins the most points of those joined;
    joined to none, it fails and loses ``lost`` points (whole, 0 or more).
    """

    start: tuple[int, ...] = attrs.field(converter=_tupled)
    goals: tuple[TicketGoal, ...] = attrs.field(converter=_tupled)
    lost: int

    def scored(self, root: Sequence[int]) -> tuple[int, TicketGoal | None]:
        """What the ticket scores when location id ``i`` lies in component
        ``root[i]`` (``ttr_core.connected_components`` of the routes that
        count): the most points of the goals joined to the start, and that
        goal (the first of equal points); ``(-lost, None)`` when none is.
        ``ArgumentError`` if ``root`` gives no component for a location of the
        ticket."""
        try:
            start = {root[place] for place in self.start}
            best: TicketGoal | None = None
            for goal in self.goals:
                if (best is None or goal.points > best.points) and any(
                    root[place] in start for place in goal.places
                ):
                    best = goal
        except (IndexError, KeyError, TypeError):
            raise ArgumentError(
                f"root must give a component for every location id of the ticket, not {what(root)}"
            ) from None
        return (-self.lost, None) if best is None else (best.points, best)


@attrs.frozen
class NonSeatOwner:
    """An owner of routes that is not a seat (a neutral player), declared by its
    plugin through :func:`ttr_non_seat_owners`.

    ``owner`` is the number in ``GameState.owners`` (``num_players`` or
    more), ``name`` what people see, ``cars`` the cars it has left (``None``
    if it keeps no count). ``routes`` are the route ids it owns: filled in by
    the core (:func:`ttr_core.non_seat_owners`); a plugin leaves them empty.
    """

    owner: int
    name: str
    cars: int | None = None
    routes: tuple[int, ...] = ()


@attrs.frozen
class ActionTemplate:
    """A family of a variant's actions that get action ids, declared through
    :func:`ttr_action_space`.

    ``action`` is one of the variant's action classes; ``fields`` maps each of
    its fields other than ``player`` to the finite, ordered domain of values
    that field takes in this configuration (``{"route": (3, 4, 17)}``). The
    family has one id per combination of values (the last field varying
    fastest); each id stands for ``action(player=seat, **values)`` taken by
    the seat deciding. A combination that is never legal still has an id
    (never in the mask); an action the variant lists that no template covers
    has no id (:class:`ttr_core.PluginError`).
    """

    action: type[Action]
    fields: Mapping[str, Sequence[Any]] = attrs.field(factory=dict)


@attrs.frozen
class Token:
    """A variant's piece on a location (a station), declared through
    :func:`ttr_tokens` and drawn by :func:`ttr_core.render.svg`.

    ``location`` is a location id; ``owner`` the seat it belongs to (drawn in
    the seat's colour) or ``None`` (drawn grey); ``kind`` a short word people
    read in the picture's legend (``"station"``).
    """

    location: int
    owner: int | None
    kind: str


@attrs.frozen
class MoveWords:
    """A legal move in words for the person about to choose it, as the front
    ends (``ttr play``, ``ttr serve``) show it: :func:`ttr_core.move_words`
    gives one for every action, a variant's own through :func:`ttr_move_words`.

    ``text`` is the whole move, in the imperative ("Build a station in Berlin
    with 1 red"); ``group`` the heading the moves of its kind share ("Build a
    station"); ``place`` the location id the move is about, if any (a front
    end lets people click that city, then pick among its moves); ``route`` the
    route id it is about, if any (clicked like a claim); ``choice`` what tells
    it apart from the other moves of the same place or route ("1 red");
    ``command`` the short word the terminal takes for the group, followed by
    the place ("st" → ``st Berlin``); ``notes`` what else a person should
    know before choosing it ("ferry: 1 locomotive needed", "toll: 2 to
    Player 3"), from every variant (hook ``ttr_move_notes``). Words only:
    never a repr, never anything the viewer may not see.
    """

    text: str
    group: str = ""
    place: int | None = None
    route: int | None = None
    choice: str = ""
    command: str = ""
    notes: tuple[str, ...] = ()


@attrs.frozen
class RouteStyle:
    """How a variant's route is drawn, declared through :func:`ttr_route_styles`
    and drawn by :func:`ttr_core.render.svg`.

    ``route`` is a route id. ``outline`` draws a dark outline around the
    route's spaces (a tunnel); ``wild_spaces`` puts a locomotive mark (the
    wild card) in that many of its spaces, from its first one (a ferry).
    ``field`` names the route field of the map the style stands for
    (``"tunnel"``), so that the field's generic mark is not drawn beside the
    route as well; ``None`` for none. ``legend`` is the line people read in
    the picture's legend, ``"name: what it means"`` (``"tunnel: ..."``);
    styles with the same legend share one line.
    """

    route: int
    outline: bool = False
    wild_spaces: int = 0
    field: str | None = None
    legend: str = ""


@attrs.frozen
class ClaimsRoute:
    """What a variant action is for, told to bots (:func:`ttr_agent_action_purpose`):
    it claims route ``route`` for the seat taking it, like the core's
    :class:`ttr_core.ClaimRoute`, spending ``wilds`` wild cards and costing
    ``extra_cost`` points more on average than a plain claim (a tunnel's
    expected surcharge in points, the risk of giving up; negative for a gain).
    """

    route: int
    extra_cost: float = 0.0
    wilds: int = 0


@attrs.frozen
class BuildsToken:
    """What a variant action is for, told to bots (:func:`ttr_agent_action_purpose`):
    it places a token of the seat taking it on location id ``location`` (a
    station), costing ``cost`` points (cards spent, a bonus forgone). Bots value
    it by the tickets it helps join: from then on they count the routes of
    other owners at ``location`` as usable for their tickets."""

    location: int
    cost: float = 0.0


@attrs.frozen
class ClosesRoute:
    """What a variant action is for, told to bots (:func:`ttr_agent_action_purpose`):
    it gives route ``route`` to an owner that is not the seat taking it (the
    neutral player's route chosen by the marker holder), closing it to the
    seats. Bots close a route they do not need, or the one of a pair they
    could pay least."""

    route: int


@attrs.frozen
class Gains:
    """What a variant action is for, told to bots (:func:`ttr_agent_action_purpose`):
    it gains the seat taking it ``points`` (points scored, or what a card, a
    share or a bonus is worth to it in points; negative for a loss). Of a
    decision whose actions all tell a gain (a reward chosen after a claim),
    bots take the one that gains most."""

    points: float


#: What :func:`ttr_agent_action_purpose` may tell of an action.
ActionPurpose = ClaimsRoute | BuildsToken | ClosesRoute | Gains


#: :attr:`NativeRule.kind` values: the rules the compiled engine carries out.
#:
#: End scoring:
#:
#: - ``"places_touched"``: each seat scores ``points`` for every location of
#:   ``places`` (names) at an end of one of its routes, once each;
#: - ``"longest_trail"``: the seat or seats with the longest trail of their own
#:   routes (each route once, locations again; above 0) score ``points``, and
#:   with ``tie_break`` they win a tie the core's rule left;
#: - ``"most_tickets"``: the seat or seats with the most completed tickets
#:   (above 0) score ``points``.
#:
#: Play:
#:
#: - ``"claim_min_wilds"``: a claim of route ``r`` must pay at least
#:   ``per_route[r]`` wild cards (a value per route id; 0 for most);
#: - ``"tunnel"``: a claim of a route whose ``per_route`` value is 1 turns up
#:   the top ``count`` cards of the deck onto the discard pile (the discard
#:   pile shuffled in when the deck runs out; empty face-up slots filled
#:   after); each wild turned up, and each of the claim's colour, asks one
#:   card more. The seat then decides (pending kind ``decision``, data
#:   ``record(claim, revealed card names, extra)``, read back by those
#:   attribute names): ``actions[k]`` for ``k`` from 0 to ``count`` pays
#:   the extra with ``k`` wilds and the rest in the claim's colour (listed
#:   when the hand can pay), ``actions[count + 1]`` gives up (the turn ends,
#:   nothing paid); the claim's cards are shown to every player meanwhile;
#: - ``"stations"``: each seat may build up to ``count`` stations as a turn,
#:   one per location in the game, its ``n``-th costing ``n`` cards of one
#:   colour, wilds standing in; ``actions`` are the builds for seat 0 by
#:   location, then colour (the map's colours, then ``None`` for wilds
#:   alone), then wilds from 0 to ``max(count, 1)``. They are kept in build
#:   order under the variant state key ``key`` as ``record(location, owner,
#:   color, wilds, cards)`` (read back by those names). At the end each
#:   station lends its owner one route of another owner at its location for
#:   tickets, the choice giving the most ticket points, then the most
#:   completed tickets; each station not built scores ``points``; with
#:   ``tie_break`` a tie goes to the fewest stations built;
#: - ``"regular_draws"``: a ticket draw during play deals the top tickets
#:   that are not among ``tickets`` (ids), skipping those;
#: - ``"claim_tokens"``: a seat claiming a route whose ``per_route`` value is
#:   1 takes one token of a supply of ``count`` while any is left; at the end
#:   the seats holding any are ranked by how many (ties share a rank and skip
#:   the places they fill) and score ``ranks[rank - 1]`` (0 beyond);
#:   kept under the variant state key ``key`` as ``record(held=, deck=)``;
#: - ``"route_tolls"``: each seat starts with ``count`` in money; a seat
#:   claiming route ``r`` owes ``per_route[r]``, to the seat holding its
#:   pair's other route or else to the bank, and takes one loan instead when
#:   it holds less (the bank then pays that seat); at the end the seats
#:   without a loan are ranked by money (as ``claim_tokens`` ranks) and score
#:   ``ranks``, and each loan costs ``points``; kept under ``key`` as
#:   ``record(holdings=, loans=, bank_received=, bank_paid=)``;
#: - ``"neutral_owner"``: an owner that is no seat (its number the player
#:   count) with ``count`` trains. From round ``round`` on (rounds of every
#:   seat's turn, from 1), after each round and until the end is triggered,
#:   it reveals the top ticket (returned as the map returns tickets) and
#:   acts on the routes ``per_ticket`` lists for it: none free, or one of
#:   them its own, nothing; too few trains for the first free one, it stops;
#:   one free, it claims it (its trains, no cards; a seat holding the other
#:   route is paid its toll by the bank under ``route_tolls``); both free,
#:   the seat holding the marker (seat 1 first) chooses (a decision of kind
#:   ``decision``, data ``(the free routes, the turn it interrupts)``, by
#:   ``actions``: one per route any ticket lists, in route id order) and the
#:   marker passes to the other seat. It stops for good out of trains or
#:   when the ticket deck runs out (the ticket discard pile then becomes the
#:   deck). Kept under ``key`` as ``record(owner=, cars=, marker=,
#:   revealed=, stopped=)`` (``revealed``: a ticket id or ``None``;
#:   ``stopped``: 0 playing, 1 out of trains, 2 out of tickets), read back
#:   by ``read`` (the value to a mapping of those names).
NATIVE_KINDS = (
    "places_touched",
    "longest_trail",
    "most_tickets",
    "claim_min_wilds",
    "tunnel",
    "stations",
    "regular_draws",
    "claim_tokens",
    "route_tolls",
    "neutral_owner",
)

#: The numbers of a kind's state the compiled engine can write into an
#: observation vector (:attr:`NativeRule.views`), each by name; ``[per ...]``
#: marks a tuple, the others are one number:
#:
#: - ``tunnel``: ``asked`` (the cards more a waiting tunnel asks, 0 when none
#:   waits), ``turned_up`` (the cards it turned up per card index, the wild
#:   last; 0s when none waits) [per card kind];
#: - ``stations``: ``at`` (per location: 0 without a station, else 1 + its
#:   owner's seat counted from the viewer, 1 the viewer's own) [per location];
#: - ``claim_tokens``: ``held`` (each seat's tokens) [per seat], ``supply``
#:   (the tokens left);
#: - ``route_tolls``: ``money`` (the viewer's own money), ``loans`` (each
#:   seat's loans) [per seat];
#: - ``neutral_owner``: ``cars`` (its trains), ``marker`` (the seat holding
#:   the marker), ``round`` (the round being played: turns // seats + 1).
NATIVE_VIEWS: dict[str, dict[str, str | None]] = {
    "tunnel": {"asked": None, "turned_up": "card kind"},
    "stations": {"at": "location"},
    "claim_tokens": {"held": "seat", "supply": None},
    "route_tolls": {"money": None, "loans": "seat"},
    "neutral_owner": {"cars": None, "marker": None, "round": None},
}


@attrs.frozen
class NativeRule:
    """One of a variant's rules in the compiled engine's terms (hook
    :func:`ttr_native_rules`): a kind of :data:`NATIVE_KINDS` and its values
    (each kind reads the fields its entry names; the others keep their
    defaults).

    A variant that declares its rules this way says that they are *all* it
    does to play and scoring: a game whose every variant does so (or does
    nothing to play and scoring) runs on the compiled engine when it is
    built (``ttr_core.native``); the differential tests hold the two equal.
    """

    kind: str
    points: int = 0
    places: tuple[str, ...] = attrs.field(default=(), converter=_tupled)
    tie_break: bool = False
    #: How many: cards turned up (``tunnel``), stations per seat (``stations``),
    #: tokens (``claim_tokens``), money each seat starts with (``route_tolls``).
    count: int = 0
    #: A value per route id (``claim_min_wilds``, ``tunnel``, ``claim_tokens``,
    #: ``route_tolls``).
    per_route: tuple[int, ...] = attrs.field(default=(), converter=_tupled)
    #: Ticket ids (``regular_draws``).
    tickets: tuple[int, ...] = attrs.field(default=(), converter=_tupled)
    #: The pending decision's kind (``tunnel``).
    decision: str = ""
    #: The variant state key (``stations``, ``claim_tokens``, ``route_tolls``).
    key: str = ""
    #: The class (or function) of the kind's records (``tunnel``, ``stations``,
    #: ``claim_tokens``, ``route_tolls``).
    record: Any = None
    #: The variant actions the engine's choices stand for, in the kind's order.
    actions: tuple[Action, ...] = attrs.field(default=(), converter=_tupled)
    #: Points by rank, 1st first (``claim_tokens``, ``route_tolls``).
    ranks: tuple[int, ...] = attrs.field(default=(), converter=_tupled)
    #: Route ids per ticket id (``neutral_owner``).
    per_ticket: tuple[tuple[int, ...], ...] = attrs.field(default=(), converter=_tupled)
    #: The first round the rule acts (``neutral_owner``).
    round: int = 0
    #: The variant's value under ``key`` to a mapping of the kind's numbers
    #: (``neutral_owner``; the other kinds read the record's attributes).
    read: Any = None
    #: The view keys (``ttr_player_view``) that show the kind's numbers, as
    #: pairs ``(view key, number)`` with the numbers :data:`NATIVE_VIEWS`
    #: names: an observation encoder reads them from the compiled engine's
    #: state instead of a frozen state's view. A game is observed in C only
    #: when every view key the encoder encodes is declared this way; the
    #: tests hold each number equal to the view's.
    views: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=_tupled)
