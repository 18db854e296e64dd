"""The ``python_ttr`` game's type and parameters, and what one configuration
(map, players, variants, options) builds once and keeps on the board: its rule
set, action space, encoder and recall layout.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ttr_core.errors import ArgumentError
from ttr_core.hooks.resolve import game_rules, resolve_variants
from ttr_core.model.board import Board
from ttr_core.observation import observation_encoder
from ttr_core.openspiel.core import CHANCE_OUTCOMES, _max_game_length
from ttr_core.openspiel.deps import pyspiel
from ttr_core.openspiel.tensors import _Recall
from ttr_core.rules.action_ids import (
    check_all_numbered,
    rules_space,
)
from ttr_core.rules.setup import new_game

__all__ = ["GAME_TYPE", "SHORT_NAME"]


#: The name the game is registered under.
SHORT_NAME = "python_ttr"


#: Parameters and their defaults. ``variants``: ``"default"`` for the map's
#: own, ``"none"`` (or ``""``) for none, else names separated by ``+`` (or
#: commas, which OpenSpiel's game strings cannot hold).
#: ``seed``: ``-1`` to let chance shuffle (the first :data:`SEED_BYTES`
#: moves of every game are chance nodes), else the engine seed of one fixed
#: deal, already made in the initial state (no chance node). ``options``: the
#: variant options as a JSON object ``{"variant": {"option": value}}``.
PARAMETERS: Mapping[str, Any] = {
    "map": "newyork",
    "players": 2,
    "seed": -1,
    "variants": "default",
    "options": "{}",
}


#: Player counts the built-in maps allow (a map's own range is checked on load).
_MIN_PLAYERS, _MAX_PLAYERS = 2, 5


GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Ticket to Ride (ttr-core)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MAX_PLAYERS,
    min_num_players=_MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(PARAMETERS),
)


def _parse_variants(text: object) -> tuple[str, ...] | None:
    if not isinstance(text, str):
        raise ArgumentError(f"parameter 'variants' must be a string, not {text!r}")
    spec = text.strip()
    if spec == "default":
        return None
    if spec in ("", "none"):
        return ()
    # '+' too: OpenSpiel's game strings ("python_ttr(variants=tolls+neutral)") split
    # parameters at commas, so a game with two variants is saved and loaded with '+'.
    names = tuple(name.strip() for name in spec.replace("+", ",").split(","))
    if any(not name for name in names):
        raise ArgumentError(
            f"parameter 'variants' is {text!r}: expected 'default', 'none' or variant names "
            "separated by '+' (or commas)"
        )
    return names


def _parse_options(text: object) -> dict[str, dict[str, Any]]:
    if not isinstance(text, str):
        raise ArgumentError(f"parameter 'options' must be a JSON string, not {text!r}")
    if text == "{}":  # the default, given with every load: no parse
        return {}
    try:
        options = json.loads(text)
    except ValueError as exc:
        raise ArgumentError(f"parameter 'options' is not JSON: {exc}") from None
    if not isinstance(options, dict) or not all(isinstance(v, dict) for v in options.values()):
        raise ArgumentError(
            f"parameter 'options' must be a JSON object of objects "
            f'({{"variant": {{"option": value}}}}), not {text!r}'
        )
    return options


def _check_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentError(f"parameter {name!r} must be an int, not {value!r}")
    return value


#: Most game configurations kept per board (players, variants, options).
CONFIGS_KEPT = 32


class _Config:
    """What a game configuration (board, players, the ``variants`` and
    ``options`` parameters) gives every :class:`TtrGame` loaded with it: checked
    and built once per configuration (``pyspiel.load_game`` is called once a
    seed by many drivers), kept on the board. Never changed once built."""

    __slots__ = ("encoder", "game_type", "info", "recall", "rules", "space", "template")

    def __init__(
        self,
        board: Board,
        players: int,
        variants: tuple[str, ...] | None,
        given: Mapping[str, Mapping[str, Any]],
    ) -> None:
        names = resolve_variants(board, variants)
        # Check the whole configuration as new_game does (player count, options,
        # the variants' own checks) before anything is built from it.
        #: A new game of the configuration: what games dealt by the compiled
        #: engine take their board, rules and names from (Playout.deal_like).
        self.template = new_game(board, players, seed=0, variants=names, options=given)
        rules = game_rules(board, players, names, given)
        # Variant actions have ids only if their variants declare them (ttr_action_space).
        check_all_numbered(rules, f"the OpenSpiel game {SHORT_NAME}")
        self.rules = rules
        self.space = rules_space(rules)
        self.encoder = observation_encoder(board, players, names, given)
        self.recall = _Recall(board, players)
        # pyspiel's descriptions of the game, made once (pybind11 objects, never changed).
        self.game_type = pyspiel.GameType(
            short_name=SHORT_NAME,
            long_name=GAME_TYPE.long_name,
            dynamics=GAME_TYPE.dynamics,
            chance_mode=GAME_TYPE.chance_mode,
            information=GAME_TYPE.information,
            utility=GAME_TYPE.utility,
            reward_model=GAME_TYPE.reward_model,
            max_num_players=board.rules.max_players,
            min_num_players=board.rules.min_players,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=dict(PARAMETERS),
        )
        self.info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=CHANCE_OUTCOMES,
            num_players=players,
            min_utility=-1.0 / (players - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_max_game_length(board, players),
        )
