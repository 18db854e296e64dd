"""The variants' side of the compiled engine: what it plays a rule set with
(:class:`Prepared`: its ``Config`` and the variants' declared kinds), and
the variants' parts of a state going in (:func:`play_part`) and coming out
(:func:`variant_pending`, :func:`published_variants`) — the numbers the
engine keeps, turned into each variant's own records by the classes and
functions it declared (``ttr_native_rules``), and back.
"""

from __future__ import annotations

from typing import Any

import attrs

from ttr_core.model.actions import Action, ClaimRoute
from ttr_core.model.declarations import NativeRule
from ttr_core.model.state import GameState, Pending, PendingKind
from ttr_core.rules.action_ids import ActionSpace, core_actions
from ttr_core.rules.kernel.tables import action_table


@attrs.frozen(eq=False)
class Prepared:
    """What the compiled engine plays a rule set with: its ``Config``, and what
    turns its numbers into the variants' own values and back (the kinds
    :data:`~ttr_core.model.declarations.NATIVE_KINDS` of the game's variants)."""

    config: Any
    #: The action space, and the ids of the variants' actions with seat 0's
    #: action of each (:attr:`actions` makes every seat's, once asked).
    space: ActionSpace
    variant_actions: tuple[tuple[int, Action], ...]
    #: ``tunnel``: its decision's kind and record (``None``: no tunnels).
    decision: str | None = None
    wait: Any = None
    reveal: int = 0
    tunnels: tuple[int, ...] = ()
    #: ``stations``: the variant state key and record (``None``: no stations).
    key: str | None = None
    station: Any = None
    stations: int = 0
    #: ``claim_tokens`` and ``route_tolls``: each one's variant state key and
    #: record (``None``: not played).
    token_key: str | None = None
    token: Any = None
    toll_key: str | None = None
    toll: Any = None
    #: ``neutral_owner``: the rule (``None``: not played).
    neutral: NativeRule | None = None
    #: The view keys the kinds' numbers are shown under (``NativeRule.views``):
    #: ``(view key, the engine's number, its shape)``, the shape as
    #: :data:`~ttr_core.model.declarations.NATIVE_VIEWS` gives it (``None``: one number).
    views: tuple[tuple[str, int, str | None], ...] = ()
    # What is made once asked (the action objects): a cache of a frozen object.
    _kept: dict[str, Any] = attrs.field(factory=dict, repr=False)

    @property
    def parts(self) -> bool:
        """Whether a variant keeps state in the engine (a decision, stations,
        tokens, tolls, a neutral owner)."""
        return (
            self.decision is not None
            or self.key is not None
            or self.token_key is not None
            or self.toll_key is not None
            or self.neutral is not None
        )

    @property
    def actions(self) -> tuple[tuple[Action | None, ...], ...]:
        """Each seat's action of every id (``None`` at the ``KeepTickets`` ids and
        at ids the engine never lists): the objects a native playout lists,
        made the first time they are asked for (a rollout never asks)."""
        found: tuple[tuple[Action | None, ...], ...] | None = self._kept.get("actions")
        if found is None:
            space = self.space
            rows = [
                list(row) + [None] * (space.size - len(row))
                for row in core_actions(space.board, space.players)
            ]
            for aid, action in self.variant_actions:
                for seat, row in enumerate(rows):
                    row[aid] = attrs.evolve(action, player=seat)
            # Two threads may both make them: equal objects, one of them kept.
            found = self._kept.setdefault("actions", tuple(map(tuple, rows)))
        return found


#: The compiled engine's most cards a tunnel turns up and stations a seat builds
#: (MAXCOUNT), stations in a game (MAXST), tokens, money or a toll (MAXAMOUNT).
MOST_COUNT = 10
MOST_STATIONS = 64
MOST_AMOUNT = 1_000_000


#: The variants' part of a state where none keeps any.
_NO_PARTS: tuple[tuple[Any, ...], ...] = ((), (), (), (), (), ())


def play_part(play: Prepared, state: GameState) -> tuple[tuple[Any, ...], ...]:
    """The variants' part of ``state`` as the engine loads it: ``(tunnel,
    stations, tokens, tolls, neutral owner, its choice)`` (see
    ``variants.c``'s ``load_play``). A value the engine cannot hold raises
    (:func:`~ttr_core.native.engine.holds` says so)."""
    if not play.parts:
        return _NO_PARTS  # no variant keeps state in the engine (the common case)
    board = state.board
    pending = state.pending
    tunnel: tuple[Any, ...] = ()
    if pending is not None and pending.kind == play.decision:
        wait = pending.data
        claim = wait.claim
        revealed = wait.revealed
        extra = wait.extra
        if (
            type(claim) is not ClaimRoute
            or claim.player != pending.player
            or type(revealed) is not tuple
            or len(revealed) > play.reveal
            or type(extra) is not int
            or not 0 <= extra <= len(revealed)
            or pending.offered
            or pending.min_keep
        ):
            raise ValueError("a tunnel decision the engine cannot hold")
        aid = play.space._by_template.get(("claim", claim.route, claim.color, claim.wilds))
        if aid is None or type(claim.route) is not int or type(claim.wilds) is not int:
            raise ValueError("a claim with no action id")
        if not play.tunnels[claim.route]:
            raise ValueError("a tunnel decision on a route that is no tunnel")
        tunnel = (aid, tuple(board.card_index(name) for name in revealed), extra)
    stations: tuple[Any, ...] = ()
    if play.key is not None:
        built = state.variant(play.key, ())
        if type(built) is not tuple:
            raise ValueError("stations that are not a tuple")
        colours = {name: index for index, name in enumerate(board.colors)}
        stations = tuple(
            (s.location, s.owner, -1 if s.color is None else colours[s.color], s.wilds, s.cards)
            for s in built
        )
        built_by = [0] * len(state.players)
        taken: set[int] = set()
        for location, owner, colour, wilds, cards in stations:
            if any(type(v) is not int for v in (location, owner, colour, wilds, cards)):
                raise ValueError("a station's numbers that are not ints")
            if (
                not 0 <= location < len(board.locations)
                or location in taken
                or not 0 <= owner < len(state.players)
                or built_by[owner] >= play.stations
                or cards != built_by[owner] + 1
                or not 0 <= wilds <= cards
                or (colour < 0) != (wilds == cards)
            ):
                raise ValueError("stations no game of the rules builds")
            taken.add(location)
            built_by[owner] += 1
    return tunnel, stations, *_accounts(play, state), *_neutral_part(play, state)


def neutral_decision(play: Prepared) -> str | None:
    return None if play.neutral is None else play.neutral.decision


def _neutral_part(play: Prepared, state: GameState) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The neutral owner's state (trains, marker, revealed ticket or -1, why it
    stopped) and the choice pending ((free routes, the seat whose turn it
    interrupts) or ``()``), as the engine loads them."""
    rule = play.neutral
    if rule is None:
        return (), ()
    numbers = rule.read(state.variant(rule.key))
    owner, cars, marker, revealed, stopped = (
        numbers[name] for name in ("owner", "cars", "marker", "revealed", "stopped")
    )
    players = len(state.players)
    if (
        owner != players
        or type(cars) is not int
        or not 0 <= cars <= MOST_AMOUNT
        or marker not in (0, 1)
        or not (
            revealed is None or (type(revealed) is int and 0 <= revealed < len(state.board.tickets))
        )
        or stopped not in (0, 1, 2)
    ):
        raise ValueError("a neutral owner the engine cannot hold")
    choice: tuple[Any, ...] = ()
    pending = state.pending
    if pending is not None and pending.kind == rule.decision:
        free, resume = pending.data
        if (
            type(free) is not tuple
            or not 1 <= len(free) <= 2
            or any(type(r) is not int or not 0 <= r < len(state.owners) for r in free)
            or type(resume) is not Pending
            or resume.kind != PendingKind.TURN
            or resume != Pending(PendingKind.TURN, resume.player)
            or not 0 <= resume.player < players
            or pending.player != marker
        ):
            raise ValueError("a neutral owner's choice the engine cannot hold")
        choice = (free, resume.player)
    return (cars, marker, -1 if revealed is None else revealed, stopped), choice


def _accounts(play: Prepared, state: GameState) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The tokens and tolls of ``state`` as the engine loads them (``()`` each
    when not played): checked to be whole numbers the engine holds."""
    seats = len(state.players)
    tokens: tuple[Any, ...] = ()
    if play.token_key is not None:
        kept = state.variant(play.token_key)
        tokens = (_amounts(kept.held, seats), _amounts((kept.deck,), 1)[0])
    tolls: tuple[Any, ...] = ()
    if play.toll_key is not None:
        kept = state.variant(play.toll_key)
        bank = _amounts((kept.bank_received, kept.bank_paid), 2)
        tolls = (_amounts(kept.holdings, seats), _amounts(kept.loans, seats), *bank)
    return tokens, tolls


def _amounts(values: Any, count: int) -> tuple[int, ...]:
    if (
        type(values) is not tuple
        or len(values) != count
        or not all(type(v) is int and 0 <= v <= MOST_AMOUNT * 6 for v in values)
    ):
        raise ValueError("amounts the engine cannot hold")
    return values


def variant_pending(
    play: Prepared,
    board: Any,
    tunnel_kind: bool,
    player: int,
    tunnel: tuple[Any, ...],
    choice: tuple[Any, ...],
    before: Pending | None,
) -> Pending:
    """A variant's decision the engine holds as the variant's own pending
    decision: a tunnel's (``tunnel``: its claim's id, the cards turned up, the
    cards more asked), else the neutral owner's choice (``choice``: the free
    routes, the seat whose turn it interrupts); ``before``, the decision
    published last, when it is the same."""
    if tunnel_kind:
        return _waiting(play, board, player, tunnel, before)
    free, resume = choice
    assert play.neutral is not None
    data = (free, action_table(board, play.space.players).turn[resume])
    pending = Pending(play.neutral.decision, player, data=data)
    return before if before == pending and before is not None else pending


def published_variants(
    play: Prepared,
    base: GameState,
    stations: tuple[Any, ...],
    tokens: tuple[Any, ...],
    tolls: tuple[Any, ...],
    neutral: tuple[Any, ...],
) -> tuple[tuple[str, Any], ...]:
    """``base``'s variant state with what the engine keeps for the variants
    (each part as ``export`` gives it), the same tuple where nothing changed."""
    board = base.board
    variant_state = base.variant_state
    if play.key is not None:
        variant_state = _with_stations(play, board, stations, base)
    if play.token_key is not None:
        held, supply = tokens
        variant_state = _with(variant_state, play.token_key, play.token(held=held, deck=supply))
    if play.toll_key is not None:
        holdings, loans, received, paid = tolls
        made = play.toll(holdings=holdings, loans=loans, bank_received=received, bank_paid=paid)
        variant_state = _with(variant_state, play.toll_key, made)
    if play.neutral is not None:
        cars, marker, revealed, stopped = neutral
        made = play.neutral.record(
            owner=len(base.players),
            cars=cars,
            marker=marker,
            revealed=None if revealed < 0 else revealed,
            stopped=stopped,
        )
        variant_state = _with(variant_state, play.neutral.key, made)
    return variant_state


def _waiting(
    play: Prepared, board: Any, player: int, tunnel: tuple[Any, ...], before: Pending | None
) -> Pending:
    """The tunnel decision the engine holds (``tunnel``: its claim's id, the
    cards turned up, the cards more asked), as its variant's pending decision
    (``before``, the one published last, when it is the same)."""
    aid, revealed, extra = tunnel
    _, route, colour, wilds = play.space.template(aid)
    names = board.card_names
    wait = play.wait(
        claim=ClaimRoute(player, route, colour, wilds),  # type: ignore[arg-type]
        revealed=tuple(names[card] for card in revealed),
        extra=extra,
    )
    pending = Pending(str(play.decision), player, data=wait)
    return before if before == pending and before is not None else pending


def _with_stations(
    play: Prepared, board: Any, stations: tuple[Any, ...], base: GameState
) -> tuple[tuple[str, Any], ...]:
    """``base``'s variant state with the stations the engine holds (the same
    tuple when they have not changed)."""
    key = str(play.key)
    colours = board.colors
    built = tuple(
        play.station(
            location=location,
            owner=owner,
            color=None if colour < 0 else colours[colour],
            wilds=wilds,
            cards=cards,
        )
        for location, owner, colour, wilds, cards in stations
    )
    return _with(base.variant_state, key, built)


def _with(
    variant_state: tuple[tuple[str, Any], ...], key: str, value: Any
) -> tuple[tuple[str, Any], ...]:
    """``variant_state`` with ``value`` under ``key`` (the same tuple when it is
    there already), sorted by key as ``GameState.with_variant`` keeps it."""
    kept = dict(variant_state)
    if key in kept and kept[key] == value:
        return variant_state
    kept[key] = value
    return tuple(sorted(kept.items()))
