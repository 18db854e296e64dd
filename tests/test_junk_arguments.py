"""Every public function and stable member refuses junk arguments with a typed error.

Each name in ``ttr_core.__all__`` that users call (functions, and the
constructors of classes users build) and each stable member with arguments
listed in docs/api.md's member tables is called with junk in one argument
position while the others are valid: wrong types, ``None``, bools, huge and
negative ints, floats (``nan``, ``inf``), strings, empty and huge lists, a
``str`` subclass, and a hostile object whose ``__eq__``, ``__hash__``,
``__len__``, ``__iter__``, ``__index__``, ``__repr__`` ... raise. Each call
must give a valid result or raise a ``TtrError`` (``ArgumentError`` or the
function's documented subclass) with a short message, within 2 s of CPU —
never a bare ``TypeError``, ``KeyError``, ``OverflowError``, ``MemoryError``
or ``RuntimeError`` from inside.

Run as a script (``python -m tests.test_junk_arguments``) for a summary of
every untyped error.
"""

from __future__ import annotations

import collections
import contextlib
import inspect
import math
import re
import signal
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import ttr_core
from ttr_core import GameState, TtrError, effects
from ttr_core.agents import make_agent

from .helpers import cpu_clock, new_started

#: The CPU a single call may take.
LIMIT = 2.0
#: The longest message a typed error may have (a map's list of problems is cut short
#: in the message too: :attr:`MapError.problems` holds them all).
MAX_MESSAGE = 1000
MAPS = Path(__file__).resolve().parents[1] / "maps"


class HostileCalled(Exception):
    """Raised by every special method of :class:`Hostile`."""


def _hostile(*_: object, **__: object) -> Any:
    raise HostileCalled("a hostile method was called")


class Hostile:
    """An object whose protocols raise: equality, hashing, length, iteration,
    use as an index, truth, ``repr`` and ``str``."""

    __eq__ = _hostile
    __ne__ = _hostile
    __hash__ = _hostile
    __len__ = _hostile
    __iter__ = _hostile
    __index__ = _hostile
    __bool__ = _hostile
    __repr__ = _hostile
    __str__ = _hostile


class Text(str):
    """A ``str`` subclass (an app's own string type)."""


class HostilePath:
    """An ``os.PathLike`` whose ``__fspath__`` raises."""

    def __fspath__(self) -> str:
        raise HostileCalled("__fspath__ was called")


class EndlessIter:
    """An iterable that never ends: each item is ``0``."""

    def __iter__(self) -> Iterator[int]:
        while True:
            yield 0


class HostileIter:
    """An iterable whose iterator raises after one item."""

    def __iter__(self) -> Iterator[int]:
        yield 0
        raise HostileCalled("__next__ was called")


def _nested(depth: int) -> list[Any]:
    """A list nested ``depth`` deep: ``[[[...]]]``."""
    top: list[Any] = []
    inner = top
    for _ in range(depth):
        inner.append([])
        inner = inner[0]
    return top


JUNK: tuple[tuple[str, Callable[[], object]], ...] = (
    ("None", lambda: None),
    ("True", lambda: True),
    ("2**63", lambda: 2**63),
    ("10**8", lambda: 10**8),
    ("2**1000", lambda: 2**1000),
    ("-1", lambda: -1),
    ("-2**63", lambda: -(2**63)),
    ("1.5", lambda: 1.5),
    ("nan", lambda: math.nan),
    ("inf", lambda: math.inf),
    ("str", lambda: "junk"),
    ("empty str", lambda: ""),
    ("bytes", lambda: b"junk"),
    ("empty list", lambda: []),
    ("huge list", lambda: [0] * 200_000),
    ("dict", lambda: {"a": 1}),
    ("object", object),
    ("hostile", Hostile),
    ("str subclass", lambda: Text("newyork")),
    ("type", lambda: int),
    ("10**5000", lambda: 10**5000),
    ("nested 10**4 deep", lambda: _nested(10_000)),
    ("list of lists", lambda: [[1], [2]]),
    ("set of frozensets", lambda: {frozenset({1})}),
    ("hostile __fspath__", HostilePath),
    ("hostile __iter__", HostileIter),
    ("endless __iter__", EndlessIter),
)


@dataclass
class Call:
    """One function or member with valid arguments; ``after`` undoes what a call did."""

    name: str
    function: Callable[..., Any]
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    after: Callable[[], None] | None = None
    consume: bool = False  # the result is an iterator: take every item


class Timeout(BaseException):
    """The CPU bound of one call ran out (a BaseException, so no ``except Exception`` eats it)."""


@contextlib.contextmanager
def cpu_limit(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise Timeout

    old = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def outcome(call: Call, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str | None:
    """``None`` for a valid result or a typed error, else what went wrong."""
    try:
        with cpu_clock() as used, warnings.catch_warnings(), cpu_limit(LIMIT):
            warnings.simplefilter("ignore")
            try:
                result = call.function(*args, **kwargs)
                if call.consume:
                    for _ in result:
                        pass
            finally:
                if call.after is not None:
                    call.after()
            if used() > LIMIT:
                return f"took {used():.1f} s of CPU"
    except Timeout:
        return f"still running after {LIMIT} s of CPU"
    except TtrError as err:
        text = str(err)
        if len(text) > MAX_MESSAGE:
            return f"{type(err).__name__} of {len(text)} characters"
        return None
    except BaseException as err:  # any other error is the finding
        if isinstance(err, KeyboardInterrupt):
            raise
        text = ttr_core.errors.show(str(err) if not isinstance(err, HostileCalled) else "", 80)
        return f"{type(err).__name__}: {text}"
    return None


# -- the calls ---------------------------------------------------------------------------


class TinyPlugin:
    """The smallest plugin: one option."""

    @ttr_core.hookimpl
    def ttr_options(self) -> list[ttr_core.VariantOption]:
        return [ttr_core.VariantOption("n", int, 1)]


@dataclass
class World:
    board: ttr_core.Board
    state: GameState
    over: GameState
    record: ttr_core.GameRecord
    tmp: Path


def _calls(w: World) -> list[Call]:
    board, state, over, record = w.board, w.state, w.over, w.record
    action = ttr_core.legal_actions(state)[0]
    seat = state.current_player
    view = ttr_core.player_view(state, 0)
    text = ttr_core.to_json(state)
    data = ttr_core.to_data(state)
    jsonl = ttr_core.to_jsonl(record)
    map_text = (MAPS / "newyork.toml").read_text(encoding="utf-8")
    deck_text = ttr_core.ticket_deck_toml(board, board.tickets[:4])
    strict = ttr_core.is_strict()
    nl = ttr_core.new_game("nederland", 2, seed=1, variants=["tolls"])
    files = iter(range(10**6))
    card = next(name for name, n in state.players[seat].hand.items() if n)
    dealt = state
    claim = ttr_core.ClaimRoute(seat, 0, board.routes[0].color, 0)
    drawn, drawn_ids = effects.draw_tickets(state, 2)

    def fresh_file() -> ttr_core.RecordFile:
        return ttr_core.RecordFile.create(w.tmp / f"r{next(files)}.jsonl", state)

    def register_again() -> None:
        ttr_core.register_variant("tiny_junk", TinyPlugin())

    def forget_tiny() -> None:
        ttr_core.unregister_variant("tiny_junk") if "tiny_junk" in _registered() else None

    def forget_maps() -> None:
        for registered in ttr_core.registered_maps():
            if registered is not board:
                ttr_core.unregister_map(registered)

    def playout(*args: Any, **kwargs: Any) -> object:
        return ttr_core.random_playout(*args, **kwargs)

    calls = [
        Call("new_game", ttr_core.new_game, ("newyork", 2, 1, None, None, None), {"files": True}),
        Call("new_game files=False", ttr_core.new_game, ("newyork", 2, 1), {"files": False}),
        Call("legal_actions", ttr_core.legal_actions, (state, 0)),
        Call("apply", ttr_core.apply, (state, action), {"seat": seat, "expect_ply": state.ply}),
        Call("is_over", ttr_core.is_over, (state,)),
        Call("end_game", ttr_core.end_game, (state, "resignation", 0)),
        Call("end_turn", ttr_core.end_turn, (state,)),
        Call("final_scores", ttr_core.final_scores, (over,)),
        Call("score_sheets", ttr_core.score_sheets, (state,)),
        Call("ticket_outcomes", ttr_core.ticket_outcomes, (state, 0)),
        Call("ticket_ends", ttr_core.ticket_ends, (state,)),
        Call("ticket_ends of a view", ttr_core.ticket_ends, (view,)),
        Call("view_rules", ttr_core.view_rules, (view,)),
        Call("move_words", ttr_core.move_words, (view, ttr_core.DrawBlind(0))),
        Call("view_words", ttr_core.view_words, (view,)),
        Call("player_name", ttr_core.player_name, (1, 0)),
        Call("player_view", ttr_core.player_view, (state, 0)),
        Call("describe", ttr_core.describe, (state, action, None)),
        Call("describe_ending", ttr_core.describe_ending, (over,)),
        Call("seat_status", ttr_core.seat_status, (state, 0)),
        Call("read_json", ttr_core.read_json, (text,)),
        Call("player_score_sheets", ttr_core.player_score_sheets, (state, 0)),
        Call("determinize", ttr_core.determinize, (view, 1)),
        Call("non_seat_owners", ttr_core.non_seat_owners, (state,)),
        Call(
            "random_playout",
            playout,
            ("newyork", 2, 1, None),
            {"options": None, "tickets": None, "max_actions": 100_000},
        ),
        Call("Playout", ttr_core.Playout, (state,)),
        Call(
            "Playout.new",
            ttr_core.Playout.new,
            ("newyork", 2, 1, None),
            {"options": None, "tickets": None},
        ),
        Call("Playout.apply", lambda a: ttr_core.Playout(state).apply(a), (action,)),
        Call("Playout.apply_id", lambda a: ttr_core.Playout(state).apply_id(a), (0,)),
        Call(
            "Playout.play_random",
            lambda c, m: ttr_core.Playout(state).play_random(c, m),
            (1, 5),
        ),
        Call("Playout.rollout", lambda c, m: ttr_core.Playout(state).rollout(c, m), (1, 5)),
        Call("utilities", ttr_core.utilities, ((0,), 2)),
        Call("rank_bonus", ttr_core.rank_bonus, ([3, 1, 3], [8, 4], [True, True, False])),
        Call("connected_components", ttr_core.connected_components, (4, [(0, 1), (2, 3)])),
        Call("payment_options", ttr_core.payment_options, (0, 2, [2, 0, 1], 2)),
        Call("to_json", ttr_core.to_json, (state,), {"indent": None}),
        Call("to_data", ttr_core.to_data, (state,)),
        Call("from_data", ttr_core.from_data, (data, GameState), {"board": None}),
        Call("board_data", ttr_core.board_data, (board,)),
        Call("json_schema", ttr_core.json_schema, (GameState,), {"variants": None}),
        Call("from_json", ttr_core.from_json, (text, GameState), {"board": None}),
        Call("record_of", ttr_core.record_of, (over, record.actions, None)),
        Call("replay", ttr_core.replay, (record, None), consume=True),
        Call("restore", ttr_core.restore, (record, None)),
        Call("to_jsonl", ttr_core.to_jsonl, (record,), {"key": None}),
        Call("from_jsonl", ttr_core.from_jsonl, (jsonl,), {"key": None}),
        Call("RecordLines", ttr_core.RecordLines, (state,), {"key": None}),
        Call("RecordLines.resume", ttr_core.RecordLines.resume, (jsonl,), {"key": None}),
        Call("RecordLines.append", lambda a: ttr_core.RecordLines(state).append(a), (action,)),
        Call("RecordLines.end", lambda s: ttr_core.RecordLines(state).end(s), (state,)),
        Call("RecordLines.__getitem__", lambda i: ttr_core.RecordLines(state)[i], (0,)),
        Call(
            "RecordFile.create",
            ttr_core.RecordFile.create,
            (w.tmp / "created.jsonl", state),
            {"key": None},
            after=lambda: (w.tmp / "created.jsonl").unlink(missing_ok=True),
        ),
        Call("RecordFile.open", ttr_core.RecordFile.open, (w.tmp / "open.jsonl",), {"key": None}),
        Call("RecordFile.append", lambda a: fresh_file().append(a), (action,)),
        Call("RecordFile.end", lambda s: fresh_file().end(s), (state,)),
        Call("map_fingerprint", ttr_core.map_fingerprint, (board,)),
        Call("register_map", ttr_core.register_map, (board,), after=forget_maps),
        Call("unregister_map", ttr_core.unregister_map, ("nowhere",)),
        Call("registered_maps", ttr_core.registered_maps),
        Call("action_space", ttr_core.action_space, (board, 2)),
        Call("action_id", ttr_core.action_id, (state, action)),
        Call("action_from_id", ttr_core.action_from_id, (state, 0)),
        Call("legal_action_ids", ttr_core.legal_action_ids, (state,)),
        Call("legal_action_mask", ttr_core.legal_action_mask, (state,)),
        Call("load_map", ttr_core.load_map, ("newyork",)),
        Call("named_map", ttr_core.named_map, ("newyork",)),
        Call("parse_map", ttr_core.parse_map, (map_text, "<map>")),
        Call("parse_ticket_deck", ttr_core.parse_ticket_deck, (deck_text, board, "<tickets>")),
        Call(
            "generate_tickets",
            ttr_core.generate_tickets,
            (board, 3, 0),
            {"existing": (), "extra": None},
        ),
        Call("shortest_spaces", ttr_core.shortest_spaces, (board,)),
        Call("ticket_deck_toml", ttr_core.ticket_deck_toml, (board, board.tickets[:3])),
        Call("available_maps", ttr_core.available_maps),
        Call("package_maps", ttr_core.package_maps),
        Call("broken_maps", ttr_core.broken_maps),
        Call("available_variants", ttr_core.available_variants),
        Call("broken_variants", ttr_core.broken_variants),
        Call("variant_options", ttr_core.variant_options, ("tolls",)),
        Call(
            "register_variant",
            ttr_core.register_variant,
            ("tiny_junk", TinyPlugin()),
            after=forget_tiny,
        ),
        Call(
            "unregister_variant",
            ttr_core.unregister_variant,
            ("tiny_junk",),
            after=register_again,
        ),
        Call("rescan_entry_points", ttr_core.rescan_entry_points),
        Call("set_strict", ttr_core.set_strict, (True,), after=lambda: _restore_strict(strict)),
        Call("is_strict", ttr_core.is_strict),
        # constructors users (and plugins) call
        Call("Hand", ttr_core.Hand, ((1,) * 9, board.card_names)),
        Call("KeepTickets", ttr_core.KeepTickets, (0, (1, 2))),
        Call("DrawBlind", ttr_core.DrawBlind, (0,)),
        Call("DrawFaceUp", ttr_core.DrawFaceUp, (0, 1)),
        Call("ClaimRoute", ttr_core.ClaimRoute, (0, 1, "red", 0)),
        Call("DrawTickets", ttr_core.DrawTickets, (0,)),
        Call("Pass", ttr_core.Pass, (0,)),
        Call("MapField", ttr_core.MapField, ("routes", "junk_field", int, 0, "", False)),
        Call("VariantOption", ttr_core.VariantOption, ("n", int, 1, "", None, None, ())),
        Call("NonSeatOwner", ttr_core.NonSeatOwner, (2, "neutral", None, ())),
        Call("ActionTemplate", ttr_core.ActionTemplate, (ttr_core.Pass, {})),
        Call("ClaimsRoute", ttr_core.ClaimsRoute, (3, 0.5, 1)),
        Call("BuildsToken", ttr_core.BuildsToken, (3, 4.0)),
        Call("ClosesRoute", ttr_core.ClosesRoute, (3,)),
        Call("Gains", ttr_core.Gains, (2.0,)),
        Call("TicketGoal", ttr_core.TicketGoal, ((1, 2), 4, "Beta")),
        Call("TicketEnds", ttr_core.TicketEnds, ((0,), (ttr_core.TicketGoal((1,), 4, "B"),), 4)),
        Call(
            "TicketEnds.scored",
            ttr_core.TicketEnds((0,), (ttr_core.TicketGoal((1,), 4, "B"),), 4).scored,
            ([0, 0, 1],),
        ),
        Call("Token", ttr_core.Token, (3, 0, "station")),
        Call("RouteStyle", ttr_core.RouteStyle, (3, True, 1, "tunnel", "tunnel: outlined")),
        Call("MoveWords", ttr_core.MoveWords, ("Build", "Group", 1, None, "1 red", "st", ())),
        Call("NativeRule", ttr_core.NativeRule, ("most_tickets", 10, (), False)),
        Call("ScoreLine", ttr_core.ScoreLine, ("x", "X", 1, None, (), "all")),
        # stable members (docs/api.md's member tables)
        Call("GameState.owner", state.owner, (0,)),
        Call("GameState.is_seat", state.is_seat, (0,)),
        Call("GameState.variant", state.variant, ("key", None)),
        Call("GameState.with_variant", state.with_variant, ("key", 1)),
        Call("GameRules.option", nl.rules.option, ("tolls", "start_value")),
        Call("GameRules.title", nl.rules.title, ("longest_route", "Longest path")),
        Call("Board.location", board.location, ("Soho",)),
        Call("Board.location_id", board.location_id, ("Soho",)),
        Call("Board.places", board.places, ("Soho",)),
        Call("Board.card_index", board.card_index, ("red",)),
        # the plugin authors' helpers (ttr_core.effects) and the bots by name
        Call("effects.draw_cards", effects.draw_cards, (state, seat, 1)),
        Call("effects.take_face_up", effects.take_face_up, (state, seat, 0)),
        Call("effects.discard_cards", effects.discard_cards, (dealt, seat, {card: 1})),
        Call("effects.claim_route", effects.claim_route, (state, 0, 2, None)),
        Call("effects.claim_error", effects.claim_error, (state, claim)),
        Call("effects.claim_cards", effects.claim_cards, (state, claim)),
        Call("effects.show_cards", effects.show_cards, (dealt, seat, {card: 1})),
        Call("effects.shuffle", effects.shuffle, (state, [1, 2, 3])),
        Call("effects.draw_tickets", effects.draw_tickets, (state, 2)),
        Call("effects.return_tickets", effects.return_tickets, (drawn, drawn_ids)),
        Call("effects.give_tickets", effects.give_tickets, (drawn, seat, drawn_ids)),
        Call("effects.offer_tickets", effects.offer_tickets, (state, seat, 2, 1)),
        Call("effects.add_points", effects.add_points, (state, seat, 3)),
        Call("effects.set_pending", effects.set_pending, (state, "tiny_junk.x", seat)),
        Call("effects.reveal_cards", effects.reveal_cards, (state, 3), {"to": "discard"}),
        Call("effects.box_tickets", effects.box_tickets, (drawn, drawn_ids)),
        Call("effects.end_turn", effects.end_turn, (state,)),
        Call("agents.make_agent", make_agent, ("route",)),
    ]
    return calls


def _registered() -> set[str]:
    return set(ttr_core.hooks.manager._registered)


def _restore_strict(strict: bool) -> None:
    ttr_core.set_strict(strict)


Put = Callable[[object], tuple[tuple[Any, ...], dict[str, Any]]]


def _positions(call: Call) -> list[tuple[str, Put]]:
    """Each argument position of ``call``: a name and how to put a value there."""
    names = _parameter_names(call)

    def at(i: int) -> Put:
        return lambda v: ((*call.args[:i], v, *call.args[i + 1 :]), dict(call.kwargs))

    def keyword(key: str) -> Put:
        return lambda v: (call.args, {**call.kwargs, key: v})

    result: list[tuple[str, Put]] = []
    for i in range(len(call.args)):
        result.append((names[i] if i < len(names) else f"arg{i}", at(i)))
    result += [(key, keyword(key)) for key in call.kwargs]
    return result


def _parameter_names(call: Call) -> list[str]:
    try:
        return list(inspect.signature(call.function).parameters)
    except (TypeError, ValueError):
        return []


def sweep(call: Call) -> list[str]:
    """What went wrong over every junk value in every argument position of ``call``."""
    problems = []
    valid = outcome(call, call.args, call.kwargs)
    assert valid is None, f"{call.name} with valid arguments: {valid}"
    for position, put in _positions(call):
        for label, make in JUNK:
            args, kwargs = put(make())
            problem = outcome(call, args, kwargs)
            if problem is not None:
                problems.append(f"{call.name}({position}={label}): {problem}")
    return problems


# -- the tests ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    tmp = tmp_path_factory.mktemp("junk")
    played = ttr_core.random_playout("newyork", 2, seed=3)
    state = new_started()
    ttr_core.RecordFile.create(tmp / "open.jsonl", state).close()
    ttr_core.register_variant("tiny_junk", TinyPlugin())
    return World(ttr_core.load_map("newyork"), state, played.state, played.record, tmp)


@pytest.fixture(scope="module")
def calls(world: World) -> Iterator[dict[str, Call]]:
    yield {call.name: call for call in _calls(world)}
    if "tiny_junk" in _registered():
        ttr_core.unregister_variant("tiny_junk")


CALL_NAMES = [
    "new_game", "new_game files=False", "legal_actions", "apply", "is_over", "end_game",
    "end_turn", "final_scores",
    "score_sheets", "ticket_outcomes", "ticket_ends", "ticket_ends of a view", "view_rules",
    "move_words", "view_words", "player_name", "MoveWords", "NativeRule",
    "player_view", "describe",
    "describe_ending", "seat_status", "read_json",
    "player_score_sheets", "determinize",
    "non_seat_owners", "random_playout", "Playout", "Playout.new", "Playout.apply",
    "Playout.apply_id", "Playout.play_random", "Playout.rollout",
    "utilities", "rank_bonus", "connected_components",
    "payment_options", "to_json", "to_data",
    "from_data", "board_data", "json_schema", "from_json", "record_of", "replay", "restore",
    "to_jsonl", "from_jsonl", "RecordLines", "RecordLines.resume", "RecordLines.append",
    "RecordLines.end", "RecordLines.__getitem__", "RecordFile.create", "RecordFile.open",
    "RecordFile.append",
    "RecordFile.end", "map_fingerprint", "register_map", "unregister_map", "registered_maps",
    "action_space", "action_id", "action_from_id", "legal_action_ids", "legal_action_mask",
    "load_map", "named_map", "parse_map", "parse_ticket_deck", "generate_tickets",
    "shortest_spaces",
    "ticket_deck_toml", "available_maps", "package_maps", "broken_maps", "available_variants",
    "broken_variants",
    "variant_options", "register_variant", "unregister_variant", "rescan_entry_points",
    "set_strict", "is_strict", "Hand", "KeepTickets", "DrawBlind", "DrawFaceUp", "ClaimRoute",
    "DrawTickets", "Pass", "MapField", "VariantOption", "NonSeatOwner", "ActionTemplate",
    "ScoreLine", "ClaimsRoute", "BuildsToken", "ClosesRoute", "Gains", "TicketGoal",
    "TicketEnds", "TicketEnds.scored", "Token", "RouteStyle",
    "GameState.owner", "GameState.is_seat", "GameState.variant", "GameState.with_variant",
    "GameRules.option", "GameRules.title", "Board.location", "Board.location_id", "Board.places",
    "Board.card_index", "effects.draw_cards", "effects.take_face_up", "effects.discard_cards",
    "effects.claim_route", "effects.claim_error", "effects.claim_cards", "effects.show_cards",
    "effects.shuffle", "effects.draw_tickets",
    "effects.return_tickets", "effects.give_tickets", "effects.offer_tickets",
    "effects.add_points", "effects.set_pending", "effects.reveal_cards", "effects.box_tickets",
    "effects.end_turn", "agents.make_agent",
]  # fmt: skip

#: Public names that take no junk: values, modules, errors and enums the library builds,
#: and classes users get from the library rather than build.
NOT_CALLED = {
    "Action", "ActionSpace", "Board", "FinalScores", "GameRecord", "GameRules", "GameState",
    "Location", "MapProblem", "MapRules", "Pending", "PendingKind", "PlayerState", "PlayerView",
    "SeatStatus",
    "PlayoutResult", "Provenance", "Reason", "RecordFile", "Route", "ScoreSheet", "SeatView",
    "Termination", "Ticket", "TicketOutcome", "effects", "hookimpl",
}  # fmt: skip


def test_every_public_callable_is_swept() -> None:
    called = {name.split(".")[0] for name in CALL_NAMES}
    public = {
        name
        for name in ttr_core.__all__
        if callable(getattr(ttr_core, name))
        and not (inspect.isclass(obj := getattr(ttr_core, name)) and issubclass(obj, Exception))
    }
    missing = sorted(public - called - NOT_CALLED)
    assert not missing, f"not swept with junk: {missing}"


def test_every_effect_helper_is_swept() -> None:
    # complete_claim and cancel_claim need a claim that waits (tunnels): swept in
    # test_effects.py's own refusals.
    missing = sorted(
        set(effects.__all__)
        - {"complete_claim", "cancel_claim"}
        - {name.removeprefix("effects.") for name in CALL_NAMES}
    )
    assert not missing, f"effect helpers not swept with junk: {missing}"


def test_every_stable_member_with_arguments_is_swept() -> None:
    api = (Path(__file__).resolve().parents[1] / "docs" / "api.md").read_text(encoding="utf-8")
    heading = re.compile(r"^###[ \t]+`?(\w+)`?", re.MULTILINE)
    row = re.compile(r"^\|[ \t]*`(\w+)\(([^)`]*)\)`[ \t]*\|", re.MULTILINE)
    sections = list(heading.finditer(api))
    members = set()
    for i, match in enumerate(sections):
        end = sections[i + 1].start() if i + 1 < len(sections) else len(api)
        cls = match.group(1)
        for member in row.finditer(api, match.end(), end):
            if member.group(2).strip() and cls != "MapRules":
                members.add(f"{cls}.{member.group(1)}")
    missing = sorted(members - set(CALL_NAMES))
    assert not missing, f"stable members not swept with junk: {missing}"


@pytest.mark.parametrize("name", CALL_NAMES)
def test_junk_arguments_give_typed_errors_or_valid_results(
    name: str, calls: dict[str, Call], world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(world.tmp)  # a junk path names a file here, never in the checkout
    problems = sweep(calls[name])
    assert not problems, f"{len(problems)} untyped or slow:\n" + "\n".join(problems[:20])


def summary(problems: list[str]) -> str:
    """Counts by error type and by function, and a few examples of each type."""
    kinds = collections.Counter(p.split(": ", 2)[1].split(":")[0] for p in problems)
    by_name = collections.Counter(p.split("(", 1)[0] for p in problems)
    lines = [f"{len(problems)} untyped or slow calls"]
    lines += [f"  {kind}: {count}" for kind, count in kinds.most_common()]
    lines.append("by function:")
    lines += [f"  {name}: {count}" for name, count in by_name.most_common()]
    lines.append("examples:")
    for kind in kinds:
        lines += [f"  {p}" for p in [p for p in problems if f": {kind}" in p][:3]]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - a report for people
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        played = ttr_core.random_playout("newyork", 2, seed=3)
        state = new_started()
        ttr_core.RecordFile.create(Path(folder) / "open.jsonl", state).close()
        ttr_core.register_variant("tiny_junk", TinyPlugin())
        w = World(ttr_core.load_map("newyork"), state, played.state, played.record, Path(folder))
        found: list[str] = []
        total = 0
        for call in _calls(w):
            total += len(_positions(call)) * len(JUNK)
            try:
                found += sweep(call)
            except AssertionError as err:
                found.append(f"{call.name}(valid): {err}")
        print(f"{total} calls with junk")
        print(summary(found))


# -- the issue's reproductions -------------------------------------------------------------


def typed(call: Callable[[], object]) -> TtrError:
    """The typed error ``call`` raises (any other error, or none, fails the test)."""
    try:
        with cpu_limit(LIMIT):
            call()
    except TtrError as err:
        assert len(str(err)) <= MAX_MESSAGE, f"a message of {len(str(err))} characters"
        return err
    except BaseException as err:  # the assertion names it
        raise AssertionError(f"raised {type(err).__name__}: {str(err)[:200]}") from err
    raise AssertionError("no error raised")


def test_rank_bonus_refuses_sequences_of_other_lengths() -> None:
    err = typed(lambda: ttr_core.rank_bonus([1, 2], [8], []))
    assert isinstance(err, ttr_core.ArgumentError) and "eligible" in str(err)


def old_rank_bonus(
    values: list[int], table: list[int], eligible: list[bool]
) -> list[tuple[int | None, int]]:
    """The quadratic definition ``rank_bonus`` had: each seat's rank is one more than
    the eligible seats with a higher value."""
    result: list[tuple[int | None, int]] = []
    for seat, value in enumerate(values):
        if not eligible[seat]:
            result.append((None, 0))
            continue
        rank = 1 + sum(1 for other, v in enumerate(values) if eligible[other] and v > value)
        result.append((rank, table[rank - 1] if rank <= len(table) else 0))
    return result


def test_rank_bonus_agrees_with_the_old_definition() -> None:
    import random

    rng = random.Random(24)
    for _ in range(2000):
        n = rng.randrange(0, 9)
        values = [rng.randrange(-3, 4) for _ in range(n)]
        eligible = [rng.random() < 0.8 for _ in range(n)]
        table = [rng.randrange(-5, 20) for _ in range(rng.randrange(0, 6))]
        assert ttr_core.rank_bonus(values, table, eligible) == old_rank_bonus(
            values, table, eligible
        ), (values, table, eligible)


def test_rank_bonus_is_fast_on_many_entries() -> None:
    n = 200_000
    values = [(i * 7919) % 1000 for i in range(n)]
    with cpu_clock() as used, cpu_limit(LIMIT):
        result = ttr_core.rank_bonus(values, [10, 5, 1], [True] * n)
    assert used() < 1.0
    assert result[values.index(999)] == (1, 10)


def test_payment_options_bounds_its_work_before_it_starts() -> None:
    # 10 million options asked for: refused at once, not built.
    with cpu_clock() as used:
        typed(lambda: ttr_core.payment_options(-1, 10**7, [10**7, 0, 10**7], 2))
    assert used() < 0.5


def test_replay_of_a_record_whose_actions_are_none(world: World) -> None:
    import attrs

    record = attrs.evolve(world.record, actions=None)  # type: ignore[arg-type]
    for call in (lambda: list(ttr_core.replay(record)), lambda: ttr_core.restore(record)):
        err = typed(call)
        assert isinstance(err, ttr_core.DataError) and err.path == "actions"


@pytest.mark.parametrize("junk", [5, 1.5, b"newyork", ["newyork"], Hostile()], ids=type)
def test_replay_names_its_board_argument(world: World, junk: object) -> None:
    for call in (
        lambda: ttr_core.replay(world.record, junk),  # type: ignore[arg-type]
        lambda: ttr_core.restore(world.record, junk),  # type: ignore[arg-type]
    ):
        err = typed(call)
        assert isinstance(err, ttr_core.ArgumentError) and "board" in str(err), str(err)


def test_unregister_variant_tells_whether_a_variant_was_registered() -> None:
    # It used to ignore unknown names silently: now it says so (a bool, as
    # unregister_map gives a count), and refuses what cannot be a name.
    assert ttr_core.unregister_variant("no_such_variant") is False
    assert ttr_core.unregister_variant("tolls") is False  # installed, not registered
    assert "tolls" in ttr_core.available_variants()
    ttr_core.register_variant("tiny_junk2", TinyPlugin())
    assert ttr_core.unregister_variant("tiny_junk2") is True
    assert "tiny_junk2" not in ttr_core.available_variants()
    err = typed(lambda: ttr_core.unregister_variant(["tolls"]))  # type: ignore[arg-type]
    assert isinstance(err, ttr_core.UnknownVariantError)


def test_location_lookups_raise_typed_key_errors(world: World) -> None:
    for call in (
        lambda: world.board.location("nowhere"),
        lambda: world.board.location_id("nowhere"),
        lambda: world.board.card_index("nowhere"),
    ):
        err = typed(call)
        assert isinstance(err, ttr_core.ArgumentError) and isinstance(err, KeyError)
        assert "nowhere" in str(err)


def test_messages_quote_a_short_prefix_of_a_huge_board_id(world: World) -> None:
    import attrs

    big = attrs.evolve(world.board, id="x" * 7_000_000)
    calls = [
        lambda: ttr_core.new_game(big, 9),
        lambda: big.location("nowhere"),
        lambda: big.card_index("nowhere"),
        lambda: ttr_core.restore(world.record, big),
        lambda: ttr_core.from_json(ttr_core.to_json(world.state), GameState, board=big),
    ]
    for call in calls:
        err = typed(call)
        assert len(str(err)) < MAX_MESSAGE


# -- issue 30, finding 6: the message helpers themselves never fail -------------------------


BIG = 10**5000  # more digits than Python prints (4,300)


@pytest.mark.parametrize(
    "call",
    [
        lambda: ttr_core.load_map(BIG),  # type: ignore[arg-type]
        lambda: ttr_core.parse_map(BIG),  # type: ignore[arg-type]
        lambda: ttr_core.parse_ticket_deck(BIG, ttr_core.load_map("newyork")),  # type: ignore[arg-type]
        lambda: ttr_core.generate_tickets(ttr_core.load_map("newyork"), BIG),
        lambda: make_agent(BIG),  # type: ignore[arg-type]
        lambda: make_agent(_nested(10_000)),  # type: ignore[arg-type]
        lambda: effects.box_tickets(new_started(), [[1]]),
        lambda: effects.box_tickets(new_started(), EndlessIter()),
        lambda: ttr_core.new_game(HostilePath(), 2),  # type: ignore[arg-type]
    ],
    ids=[
        "load_map",
        "parse_map",
        "parse_ticket_deck",
        "generate_tickets",
        "make_agent int",
        "make_agent deep",
        "box_tickets unhashable",
        "box_tickets endless",
        "new_game __fspath__",
    ],
)
def test_the_issues_reproductions_give_short_typed_errors(call: Callable[[], object]) -> None:
    err = typed(call)
    assert len(str(err)) <= 400, str(err)


def test_a_stale_move_quotes_the_ply_it_was_made_at() -> None:
    state = new_started()
    with pytest.raises(ttr_core.StaleMoveError) as info:
        ttr_core.apply(state, ttr_core.legal_actions(state)[0], expect_ply=2**63)
    assert str(2**63) in str(info.value) and "1000000000000" not in str(info.value)
    assert info.value.expected == 2**63


def test_data_errors_stay_short_whatever_the_keys() -> None:
    import json

    data = json.loads(ttr_core.to_json(new_started()))
    data["players"][0]["hand"]["y" * 100_000] = 1
    data["z" * 100_000] = 1
    for kind in (GameState, ttr_core.PlayerView):
        err = typed(lambda kind=kind: ttr_core.from_data(data, kind))
        assert isinstance(err, ttr_core.DataError) and len(str(err)) <= 1000


def test_a_map_error_lists_a_few_problems_and_reports_them_all() -> None:
    err = typed(lambda: ttr_core.parse_map(""))
    assert isinstance(err, ttr_core.MapError) and len(err.problems) > ttr_core.MapError.SHOWN
    assert len(str(err)) <= MAX_MESSAGE
    assert "more (MapError.problems lists them all)" in str(err)
    report = err.report()
    assert all(str(problem) in report for problem in err.problems)
