"""Hypothesis strategies for games, reachable states and actions.

Every strategy shrinks toward something short and printable: the map's
default options, the first legal actions, the shortest action list that
still fails.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
from hypothesis import strategies as st

from ttr_core.checking.probes import mutants_of
from ttr_core.checking.registry import GamePlay
from ttr_core.checking.verify import player_counts
from ttr_core.errors import GeneratedTicketsWarning
from ttr_core.hooks.manager import variant_options
from ttr_core.mapfiles.finding import available_maps, load_map
from ttr_core.model.actions import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
)
from ttr_core.model.board import Board
from ttr_core.model.state import GameState
from ttr_core.rules.engine import apply, legal_actions
from ttr_core.rules.setup import new_game

__all__ = [
    "Game",
    "games",
    "illegal_actions",
    "legal_actions_of",
    "option_values",
    "states",
]

MapArg = str | os.PathLike[str] | Board
#: What the configuration arguments of the kit's functions accept: a value, or a
#: strategy drawing it (``None``: every choice the map allows).
MapsArg = MapArg | st.SearchStrategy[MapArg] | None
VariantsArg = Sequence[str] | st.SearchStrategy[Sequence[str] | None] | None
PlayersArg = int | st.SearchStrategy[int] | None
OptionsArg = (
    Mapping[str, Mapping[str, Any]] | st.SearchStrategy[Mapping[str, Mapping[str, Any]]] | None
)


@attrs.frozen
class Game:
    """A game configuration and its seed: everything ``new_game`` needs.

    ``variants`` ``None`` means the map's defaults; ``options`` are given as
    ``{variant: {option: value}}``.
    """

    map: MapArg
    players: int
    variants: tuple[str, ...] | None
    options: Mapping[str, Mapping[str, Any]] = attrs.field(factory=dict)
    seed: int = 0

    @property
    def board(self) -> Board:
        """The loaded map."""
        return _board(self.map)

    def new(self) -> GameState:
        """The state ``new_game`` sets up for this game."""
        return new_game(
            self.board, self.players, seed=self.seed, variants=self.variants, options=self.options
        )

    def __repr__(self) -> str:
        name = self.map.id if isinstance(self.map, Board) else str(self.map)
        variants = "default" if self.variants is None else list(self.variants)
        return (
            f"Game({name!r}, players={self.players}, variants={variants}, "
            f"options={dict(self.options)}, seed={self.seed})"
        )


def _board(map: MapArg) -> Board:
    if isinstance(map, Board):
        return map
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", GeneratedTicketsWarning)
        return load_map(map)


_COUNTS: dict[tuple[int, tuple[str, ...] | None], tuple[Board, tuple[int, ...]]] = {}


def _counts(board: Board, variants: tuple[str, ...] | None) -> tuple[int, ...]:
    """The player counts ``variants`` can be played with on ``board`` (cached)."""
    key = (id(board), variants)
    found = _COUNTS.get(key)
    if found is None or found[0] is not board:
        found = _COUNTS[key] = (board, tuple(player_counts(board, variants)[0]))
    return found[1]


def option_values(variants: Sequence[str]) -> st.SearchStrategy[dict[str, dict[str, Any]]]:
    """Values for every option the ``variants`` declare, each within its declared
    bounds or choices, shrinking toward the defaults. An option without an upper
    bound is drawn up to twice its default or ten above it, whichever is more."""
    parts: dict[str, st.SearchStrategy[dict[str, Any]]] = {}
    for variant in variants:
        fields = {opt.name: _option_strategy(opt) for opt in variant_options(variant)}
        if fields:
            parts[variant] = st.fixed_dictionaries(fields)
    return st.fixed_dictionaries(parts)


def _option_strategy(opt: Any) -> st.SearchStrategy[Any]:
    default = opt.default
    if opt.choices:
        others = [c for c in opt.choices if c != default]
        return st.sampled_from([default, *others])
    if opt.type is bool:
        return st.sampled_from([default, not default])
    if opt.type is str:
        return st.just(default)
    low = opt.low if opt.low is not None else min(0, default) - 10
    high = opt.high if opt.high is not None else max(2 * default, default + 10, low)
    drawn: st.SearchStrategy[Any]
    if opt.type is int:
        drawn = st.integers(int(low), int(high))
    else:
        drawn = st.floats(float(low), float(high), allow_nan=False, allow_infinity=False)
    return st.one_of(st.just(default), drawn)


def _fixed(value: Any) -> st.SearchStrategy[Any]:
    return value if isinstance(value, st.SearchStrategy) else st.just(value)


@st.composite
def games(
    draw: st.DrawFn,
    map: MapsArg = None,
    variants: VariantsArg = None,
    players: PlayersArg = None,
    options: OptionsArg = None,
    seeds: st.SearchStrategy[int] | None = None,
) -> Game:
    """Game configurations with a seed.

    Each argument is a fixed value or a strategy. ``map`` ``None``: any built-in
    map; ``variants`` ``None``: the map's defaults; ``players`` ``None``: any
    count the map and variants allow; ``options`` ``None``: every option drawn
    from its declaration (:func:`option_values`), shrinking toward the
    defaults (``{}`` for the defaults only); ``seeds`` any 32-bit seed.
    """
    chosen_map = draw(st.sampled_from(available_maps()) if map is None else _fixed(map))
    board = _board(chosen_map)
    chosen = draw(_fixed(variants))
    names = None if chosen is None else tuple(chosen)
    played = board.rules.default_variants if names is None else names
    if options is None:
        chosen_options: Mapping[str, Mapping[str, Any]] = draw(option_values(played))
    else:
        chosen_options = draw(_fixed(options))
    if players is None:
        counts = _counts(board, names)
        if not counts:
            raise ValueError(f"no player count of {board.id!r} can play variants {played}")
        count = draw(st.sampled_from(counts))
    else:
        count = draw(_fixed(players))
    seed = draw(st.integers(0, 2**32 - 1) if seeds is None else seeds)
    return Game(chosen_map, count, names, chosen_options, seed)


@st.composite
def states(
    draw: st.DrawFn,
    game: Game | st.SearchStrategy[Game] | None = None,
    max_actions: int = 300,
) -> GamePlay:
    """Games played by legal actions to a random depth (at most ``max_actions``,
    fewer when the game ends first), as a :class:`~ttr_core.checking.registry.GamePlay`:
    ``.state`` is the state reached, ``.actions`` the way there and ``.record``
    its game record. Shrinks toward short action lists of early legal actions."""
    chosen = draw(games() if game is None else _fixed(game))
    state = chosen.new()
    depth = draw(st.integers(0, max_actions))
    played: list[GameState] = [state]
    actions: list[Action] = []
    for _ in range(depth):
        legal = legal_actions(state)
        if not legal:
            break
        index = draw(st.integers(0, len(legal) - 1)) if len(legal) > 1 else 0
        actions.append(legal[index])
        state = apply(state, legal[index])
        played.append(state)
    return GamePlay(tuple(played), tuple(actions), chosen.options)


def legal_actions_of(state: GameState) -> st.SearchStrategy[Action]:
    """The legal actions of ``state`` (nothing once the game is over), shrinking
    toward the first listed."""
    legal = legal_actions(state)
    return st.sampled_from(legal) if legal else st.nothing()


def illegal_actions(state: GameState) -> st.SearchStrategy[Action]:
    """Well-formed actions that ``legal_actions(state)`` does not list: every field
    of its type, for any seat — core actions for any route, payment, slot or
    ticket set, and the listed actions (variant ones too) with one field moved."""
    legal = legal_actions(state)
    listed = set(legal)
    board = state.board
    seats = st.integers(0, state.num_players - 1)
    colours = st.sampled_from([*board.colors, None])

    def claims(route: int) -> st.SearchStrategy[Action]:
        length = board.routes[route].length
        return st.builds(ClaimRoute, seats, st.just(route), colours, st.integers(0, length))

    core: list[st.SearchStrategy[Action]] = [
        st.builds(DrawBlind, seats),
        st.builds(DrawFaceUp, seats, st.integers(-1, board.rules.display_size)),
        st.builds(DrawTickets, seats),
        st.builds(Pass, seats),
        st.integers(0, len(board.routes) - 1).flatmap(claims),
        st.builds(
            KeepTickets, seats, st.frozensets(st.integers(0, len(board.tickets)), max_size=6)
        ),
    ]
    mutants = [m for action in legal for m in mutants_of(state, action) if m not in listed]
    choices = [st.sampled_from(mutants)] if mutants else []
    return st.one_of(*choices, *core).filter(lambda action: action not in listed)
