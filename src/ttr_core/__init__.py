"""ttr-core: an embeddable, immutable rules engine for Ticket to Ride.

The public surface::

    import ttr_core
    state = ttr_core.new_game("newyork", players=2, seed=7)
    while not ttr_core.is_over(state):
        action = ttr_core.legal_actions(state)[0]
        state = ttr_core.apply(state, action)
    scores = ttr_core.final_scores(state)

Everything listed in ``__all__`` is stable; the modules behind it are not.
"""

from __future__ import annotations

from ttr_core import effects
from ttr_core._version import __version__
from ttr_core.data.boarddata import board_data
from ttr_core.data.jsonl import RecordFile, RecordLines, from_jsonl, to_jsonl
from ttr_core.data.messages import from_data, from_json, read_json, to_data, to_json
from ttr_core.data.records import GameRecord, record_of, replay, restore
from ttr_core.data.schema import json_schema
from ttr_core.errors import (
    ArgumentError,
    DataError,
    GameConfigError,
    GameNotOverError,
    GeneratedTicketsWarning,
    IllegalAction,
    MapError,
    MapProblem,
    MapWarning,
    OptionError,
    PlayerCountError,
    PluginError,
    Reason,
    StaleMoveError,
    TtrError,
    TtrWarning,
    UnknownMapError,
    UnknownVariantError,
)
from ttr_core.hooks.checks import is_strict, set_strict
from ttr_core.hooks.manager import (
    available_variants,
    broken_variants,
    register_variant,
    rescan_entry_points,
    unregister_variant,
    variant_options,
)
from ttr_core.hooks.specs import hookimpl
from ttr_core.mapfiles.decks import parse_ticket_deck
from ttr_core.mapfiles.finding import available_maps, load_map
from ttr_core.mapfiles.fingerprint import map_fingerprint
from ttr_core.mapfiles.packages import broken_maps, package_maps
from ttr_core.mapfiles.parse import GENERATED, parse_map
from ttr_core.mapfiles.registry import named_map, register_map, registered_maps, unregister_map
from ttr_core.mapfiles.ticketgen import generate_tickets, shortest_spaces, ticket_deck_toml
from ttr_core.model.actions import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
)
from ttr_core.model.board import GRAY, WILD, Board, Location, MapRules, Provenance, Route, Ticket
from ttr_core.model.declarations import (
    INTS,
    LOCATION,
    LOCATIONS,
    ROUTE,
    STRS,
    ActionTemplate,
    BuildsToken,
    ClaimsRoute,
    ClosesRoute,
    Gains,
    MapField,
    MoveWords,
    NativeRule,
    NonSeatOwner,
    RouteStyle,
    TicketEnds,
    TicketGoal,
    Token,
    VariantOption,
)
from ttr_core.model.gamerules import GameRules
from ttr_core.model.graph import connected_components
from ttr_core.model.payment import payment_options
from ttr_core.model.scores import FinalScores, ScoreLine, ScoreSheet
from ttr_core.model.state import GameState, Hand, Pending, PendingKind, PlayerState, Termination
from ttr_core.model.views import PlayerView, SeatView
from ttr_core.rules.action_ids import (
    ActionSpace,
    action_from_id,
    action_id,
    action_space,
    legal_action_ids,
    legal_action_mask,
)
from ttr_core.rules.determinize import determinize
from ttr_core.rules.ending import end_game
from ttr_core.rules.engine import apply, end_turn, is_over, legal_actions
from ttr_core.rules.narrate import describe, describe_ending
from ttr_core.rules.scoring import (
    final_scores,
    player_score_sheets,
    rank_bonus,
    score_sheets,
    utilities,
)
from ttr_core.rules.setup import new_game
from ttr_core.rules.status import SeatStatus, seat_status
from ttr_core.rules.tickets import TicketOutcome, ticket_ends, ticket_outcomes, view_rules
from ttr_core.rules.views import non_seat_owners, player_view
from ttr_core.rules.wording import move_words, player_name, view_words
from ttr_core.search.playout import Playout
from ttr_core.search.simulate import PlayoutResult, random_playout

__all__ = [
    "GENERATED",
    "GRAY",
    "INTS",
    "LOCATION",
    "LOCATIONS",
    "ROUTE",
    "STRS",
    "WILD",
    "Action",
    "ActionSpace",
    "ActionTemplate",
    "ArgumentError",
    "Board",
    "BuildsToken",
    "ClaimRoute",
    "ClaimsRoute",
    "ClosesRoute",
    "DataError",
    "DrawBlind",
    "DrawFaceUp",
    "DrawTickets",
    "FinalScores",
    "Gains",
    "GameConfigError",
    "GameNotOverError",
    "GameRecord",
    "GameRules",
    "GameState",
    "GeneratedTicketsWarning",
    "Hand",
    "IllegalAction",
    "KeepTickets",
    "Location",
    "MapError",
    "MapField",
    "MapProblem",
    "MapRules",
    "MapWarning",
    "MoveWords",
    "NativeRule",
    "NonSeatOwner",
    "OptionError",
    "Pass",
    "Pending",
    "PendingKind",
    "PlayerCountError",
    "PlayerState",
    "PlayerView",
    "Playout",
    "PlayoutResult",
    "PluginError",
    "Provenance",
    "Reason",
    "RecordFile",
    "RecordLines",
    "Route",
    "RouteStyle",
    "ScoreLine",
    "ScoreSheet",
    "SeatStatus",
    "SeatView",
    "StaleMoveError",
    "Termination",
    "Ticket",
    "TicketEnds",
    "TicketGoal",
    "TicketOutcome",
    "Token",
    "TtrError",
    "TtrWarning",
    "UnknownMapError",
    "UnknownVariantError",
    "VariantOption",
    "__version__",
    "action_from_id",
    "action_id",
    "action_space",
    "apply",
    "available_maps",
    "available_variants",
    "board_data",
    "broken_maps",
    "broken_variants",
    "connected_components",
    "describe",
    "describe_ending",
    "determinize",
    "effects",
    "end_game",
    "end_turn",
    "final_scores",
    "from_data",
    "from_json",
    "from_jsonl",
    "generate_tickets",
    "hookimpl",
    "is_over",
    "is_strict",
    "json_schema",
    "legal_action_ids",
    "legal_action_mask",
    "legal_actions",
    "load_map",
    "map_fingerprint",
    "move_words",
    "named_map",
    "new_game",
    "non_seat_owners",
    "package_maps",
    "parse_map",
    "parse_ticket_deck",
    "payment_options",
    "player_name",
    "player_score_sheets",
    "player_view",
    "random_playout",
    "rank_bonus",
    "read_json",
    "record_of",
    "register_map",
    "register_variant",
    "registered_maps",
    "replay",
    "rescan_entry_points",
    "restore",
    "score_sheets",
    "seat_status",
    "set_strict",
    "shortest_spaces",
    "ticket_deck_toml",
    "ticket_ends",
    "ticket_outcomes",
    "to_data",
    "to_json",
    "to_jsonl",
    "unregister_map",
    "unregister_variant",
    "utilities",
    "variant_options",
    "view_rules",
    "view_words",
]
