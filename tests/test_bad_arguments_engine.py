"""Bad arguments to the engine's public functions raise the library's typed errors.

A sweep: every public function of the engine, the action ids, payments and
the effect helpers is called with ``None``, wrong types, bools, floats and
values out of range. Each call must raise a ``TtrError`` — ``ArgumentError``
(also a ``TypeError``) for an argument of the wrong type, or the function's
documented error (``PlayerCountError``, ``IllegalAction``, ``PluginError``
...) — naming the argument, and never a bare ``TypeError``, ``KeyError``,
``AttributeError`` or ``ValueError`` from inside.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import ttr_core
from ttr_core import (
    ArgumentError,
    DrawBlind,
    IllegalAction,
    PlayerCountError,
    PluginError,
    Reason,
    TtrError,
    effects,
)

from .helpers import new_started

HUGE = 10**5000


def show_id(value: object) -> str:
    """A test id for any value (``repr`` fails on ints too long to print); the
    same in every process (no memory address: pytest-xdist's workers must
    collect the same ids)."""
    shown = ttr_core.rules.engine.show(value, 30)
    return f"<{type(value).__name__}>" if " at 0x" in shown else shown


NOT_STATES: tuple[object, ...] = (
    None,
    0,
    "state",
    b"state",
    1.5,
    True,
    object(),
    {},
    [],
    ttr_core.GameState,
    DrawBlind(0),
)


def raises_typed(call: Callable[[], object]) -> TtrError:
    try:
        call()
    except TtrError as err:
        text = str(err)  # printable, whatever was passed
        assert text and len(text) < 1000
        return err
    except BaseException as err:  # the assertion names it
        raise AssertionError(f"raised {type(err).__name__}: {err!r:.200}") from err
    raise AssertionError("no error raised")


# -- functions taking a state ------------------------------------------------------------


STATE_FUNCTIONS: dict[str, Callable[[Any], object]] = {
    "legal_actions": ttr_core.legal_actions,
    "apply": lambda s: ttr_core.apply(s, DrawBlind(0)),
    "is_over": ttr_core.is_over,
    "end_turn": ttr_core.end_turn,
    "legal_action_ids": ttr_core.legal_action_ids,
    "legal_action_mask": ttr_core.legal_action_mask,
    "action_id": lambda s: ttr_core.action_id(s, DrawBlind(0)),
    "action_from_id": lambda s: ttr_core.action_from_id(s, 0),
    "effects.draw_cards": lambda s: effects.draw_cards(s, 0),
    "effects.take_face_up": lambda s: effects.take_face_up(s, 0, 0),
    "effects.discard_cards": lambda s: effects.discard_cards(s, 0, {}),
    "effects.claim_route": lambda s: effects.claim_route(s, 0, 0),
    "effects.draw_tickets": lambda s: effects.draw_tickets(s, 1),
    "effects.give_tickets": lambda s: effects.give_tickets(s, 0, ()),
    "effects.return_tickets": lambda s: effects.return_tickets(s, ()),
    "effects.offer_tickets": lambda s: effects.offer_tickets(s, 0),
    "effects.add_points": lambda s: effects.add_points(s, 0, 1),
    "effects.set_pending": lambda s: effects.set_pending(s, "turn", 0),
    "effects.end_turn": effects.end_turn,
}


@pytest.mark.parametrize("name", sorted(STATE_FUNCTIONS))
@pytest.mark.parametrize("junk", NOT_STATES, ids=show_id)
def test_something_that_is_not_a_state_is_an_argument_error(name: str, junk: object) -> None:
    err = raises_typed(lambda: STATE_FUNCTIONS[name](junk))
    assert isinstance(err, ArgumentError) and isinstance(err, TypeError)
    assert "state" in str(err) and "GameState" in str(err)


def test_apply_checks_the_state_before_the_action() -> None:
    for junk in (None, "x", 3):
        assert isinstance(raises_typed(lambda: ttr_core.apply(None, junk)), ArgumentError)  # type: ignore[arg-type]  # noqa: B023


@pytest.mark.parametrize(
    "junk", [None, "DrawBlind", 0, 0.0, (0,), DrawBlind, object()], ids=show_id
)
def test_apply_and_action_id_refuse_what_is_not_an_action(junk: object) -> None:
    state = new_started()
    for call in (
        lambda: ttr_core.apply(state, junk),  # type: ignore[arg-type]
        lambda: ttr_core.action_id(state, junk),  # type: ignore[arg-type]
    ):
        err = raises_typed(call)
        assert isinstance(err, IllegalAction) and err.reason == Reason.UNKNOWN_ACTION


@pytest.mark.parametrize(
    "action",
    [
        DrawBlind(0.0),  # type: ignore[arg-type]
        DrawBlind(False),
        ttr_core.DrawFaceUp(0, 1.0),  # type: ignore[arg-type]
        ttr_core.DrawFaceUp(0, [1]),  # type: ignore[arg-type]
        ttr_core.ClaimRoute(0, [0], "red", 1),  # type: ignore[arg-type]
        ttr_core.ClaimRoute(0, 0, {"red"}, 1),  # type: ignore[arg-type]
        ttr_core.ClaimRoute(0, 0, "red", 1.0),  # type: ignore[arg-type]
        ttr_core.ClaimRoute(0, HUGE, "red", 1),
    ],
    ids=lambda a: type(a).__name__,
)
def test_action_id_refuses_malformed_actions(action: ttr_core.Action) -> None:
    err = raises_typed(lambda: ttr_core.action_id(new_started(), action))
    assert isinstance(err, IllegalAction)


def test_action_id_of_a_keep_refuses_ticket_look_alikes() -> None:
    state = ttr_core.new_game("newyork", 2, seed=2)
    assert state.pending is not None
    offer = state.pending.offered
    ok = ttr_core.action_id(state, ttr_core.KeepTickets(0, offer))
    assert ok == ttr_core.action_space(state.board, 2).keep_base + 2 ** len(offer) - 1
    for tickets in ([float(offer[0])], [str(offer[0])], [HUGE], [(offer[0],)]):
        keep = ttr_core.KeepTickets(0, tickets)  # type: ignore[arg-type]
        err = raises_typed(lambda: ttr_core.action_id(state, keep))  # noqa: B023
        assert isinstance(err, IllegalAction) and err.reason == Reason.NOT_OFFERED


@pytest.mark.parametrize("tickets", [5, None, 1.5, [[1]], [{2}], object()], ids=show_id)
def test_keep_tickets_refuses_what_is_no_iterable_of_ids(tickets: object) -> None:
    err = raises_typed(lambda: ttr_core.KeepTickets(0, tickets))  # type: ignore[arg-type]
    assert isinstance(err, ArgumentError) and "KeepTickets.tickets" in str(err)


@pytest.mark.parametrize("bad", [-1, 10**6, HUGE, 1.0, True, "3", None, (1,)], ids=show_id)
def test_action_from_id_refuses_bad_ids(bad: object) -> None:
    err = raises_typed(lambda: ttr_core.action_from_id(new_started(), bad))  # type: ignore[arg-type]
    assert isinstance(err, IllegalAction) and err.reason == Reason.UNKNOWN_ACTION


# -- new_game ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "seed",
    [-1, -(2**200), 2**256, HUGE, 1.0, 0.0, True, False, "1", b"1", [1], (0,), object()],
    ids=show_id,
)
def test_new_game_refuses_bad_seeds(seed: object) -> None:
    err = raises_typed(lambda: ttr_core.new_game("newyork", 2, seed=seed))  # type: ignore[arg-type]
    assert isinstance(err, ArgumentError) and "seed" in str(err)


@pytest.mark.parametrize(
    "map_arg", [None, 5, 1.5, True, b"newyork", ["newyork"], object()], ids=show_id
)
def test_new_game_refuses_a_map_that_is_no_name_path_or_board(map_arg: object) -> None:
    err = raises_typed(lambda: ttr_core.new_game(map_arg, 2, seed=1))  # type: ignore[arg-type]
    assert isinstance(err, ArgumentError) and "map" in str(err)


@pytest.mark.parametrize("players", [0, 1, 5, -2, HUGE], ids=show_id)
def test_new_game_refuses_bad_player_counts(players: object) -> None:
    err = raises_typed(lambda: ttr_core.new_game("newyork", players, seed=1))  # type: ignore[arg-type]
    assert isinstance(err, PlayerCountError) and "2 to 4" in str(err)


@pytest.mark.parametrize("players", [None, "2", 2.0, True, False, [2], object()], ids=show_id)
def test_new_game_refuses_a_player_count_of_the_wrong_type(players: object) -> None:
    # Issue 30: new_game("newyork", True) said "played by 2 to 4 players, not True".
    err = raises_typed(lambda: ttr_core.new_game("newyork", players, seed=1))  # type: ignore[arg-type]
    assert isinstance(err, ArgumentError) and not isinstance(err, PlayerCountError)
    assert "players must be a whole number" in str(err)


@pytest.mark.parametrize(
    "tickets", [5, 1.5, True, b"deck.toml", ["deck.toml"], object()], ids=show_id
)
def test_new_game_refuses_a_ticket_deck_that_is_no_path(tickets: object) -> None:
    err = raises_typed(lambda: ttr_core.new_game("newyork", 2, seed=1, tickets=tickets))  # type: ignore[arg-type]
    assert isinstance(err, ArgumentError) and "tickets" in str(err)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"variants": 5},
        {"variants": "tolls"},
        {"variants": [None]},
        {"variants": [["tolls"]]},
        {"options": 5},
        {"options": {"tolls": 5}},
        {"options": {5: {}}},
        {"options": {"tolls": {"start_value": "x"}}},
    ],
    ids=show_id,
)
def test_new_game_refuses_bad_variants_and_options_with_typed_errors(
    kwargs: dict[str, Any],
) -> None:
    raises_typed(lambda: ttr_core.new_game("nederland", 2, seed=1, **kwargs))


# -- action ids and payments -------------------------------------------------------------


@pytest.mark.parametrize("board", [None, "newyork", 5, object()], ids=show_id)
def test_action_space_refuses_what_is_not_a_board(board: object) -> None:
    err = raises_typed(lambda: ttr_core.action_space(board, 2))  # type: ignore[arg-type]
    assert isinstance(err, ArgumentError) and "board" in str(err)


@pytest.mark.parametrize("players", [None, "2", 2.0, True, 1, 5, HUGE], ids=show_id)
def test_action_space_refuses_bad_player_counts(players: object) -> None:
    board = ttr_core.load_map("newyork")
    err = raises_typed(lambda: ttr_core.action_space(board, players))  # type: ignore[arg-type]
    assert isinstance(err, PlayerCountError if type(players) is int else ArgumentError)


GOOD_PAYMENT: dict[str, Any] = {"route_color": 0, "length": 2, "counts": [2, 0, 1], "wild": 2}


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("route_color", None),
        ("route_color", "red"),
        ("route_color", 1.0),
        ("route_color", True),
        ("route_color", 2),  # the wild's index
        ("route_color", 3),
        ("route_color", -2),
        ("route_color", HUGE),
        ("length", None),
        ("length", 0),
        ("length", -1),
        ("length", 2.0),
        ("length", True),
        ("counts", None),
        ("counts", 5),
        ("counts", "abc"),
        ("counts", {0: 1}),
        ("counts", [1, -1, 0]),
        ("counts", [1.0, 0, 0]),
        ("counts", [True, 0, 0]),
        ("counts", [None, 0, 0]),
        ("counts", []),
        ("wild", None),
        ("wild", 3),
        ("wild", -1),
        ("wild", 2.0),
        ("wild", HUGE),
    ],
    ids=show_id,
)
def test_payment_options_refuses_bad_arguments(name: str, value: object) -> None:
    assert ttr_core.payment_options(**GOOD_PAYMENT) == [(0, 0), (0, 1)]
    args = {**GOOD_PAYMENT, name: value}
    err = raises_typed(lambda: ttr_core.payment_options(**args))
    assert isinstance(err, ArgumentError)
    assert name in str(err)


# -- effect helpers ---------------------------------------------------------------------


def effect_calls() -> list[tuple[str, Callable[[ttr_core.GameState], object]]]:
    junk: list[object] = [None, -1, 2, 1.0, True, "0", HUGE, [0], object()]
    calls: list[tuple[str, Callable[[ttr_core.GameState], object]]] = []
    for j in junk:
        calls += [
            (f"draw_cards seat {show_id(j)}", lambda s, j=j: effects.draw_cards(s, j)),
            (f"draw_cards count {show_id(j)}", lambda s, j=j: effects.draw_cards(s, 0, j)),
            (f"take_face_up seat {show_id(j)}", lambda s, j=j: effects.take_face_up(s, j, 0)),
            (f"take_face_up slot {show_id(j)}", lambda s, j=j: effects.take_face_up(s, 0, j)),
            (f"discard_cards cards {show_id(j)}", lambda s, j=j: effects.discard_cards(s, 0, j)),
            (
                f"discard_cards count {show_id(j)}",
                lambda s, j=j: effects.discard_cards(s, 0, {"red": j}),
            ),
            (
                f"discard_cards name {show_id(j)}",
                lambda s, j=j: effects.discard_cards(s, 0, {j: 1}) if _hashable(j) else 1 / 0,
            ),
            (f"claim_route route {show_id(j)}", lambda s, j=j: effects.claim_route(s, j, 0)),
            (f"claim_route owner {show_id(j)}", lambda s, j=j: effects.claim_route(s, 0, j)),
            (f"claim_route payment {show_id(j)}", lambda s, j=j: effects.claim_route(s, 0, 0, j)),
            (f"draw_tickets count {show_id(j)}", lambda s, j=j: effects.draw_tickets(s, j)),
            (f"give_tickets tickets {show_id(j)}", lambda s, j=j: effects.give_tickets(s, 0, j)),
            (f"give_tickets ids {show_id(j)}", lambda s, j=j: effects.give_tickets(s, 0, [j])),
            (f"return_tickets {show_id(j)}", lambda s, j=j: effects.return_tickets(s, j)),
            (f"offer_tickets count {show_id(j)}", lambda s, j=j: effects.offer_tickets(s, 0, j)),
            (
                f"offer_tickets min_keep {show_id(j)}",
                lambda s, j=j: effects.offer_tickets(s, 0, 1, j),
            ),
            (f"add_points points {show_id(j)}", lambda s, j=j: effects.add_points(s, 0, j)),
            (f"set_pending kind {show_id(j)}", lambda s, j=j: effects.set_pending(s, j, 0)),
        ]
    return calls


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def test_effect_helpers_refuse_nonsense_with_typed_errors() -> None:
    state = new_started()
    for name, call in effect_calls():
        try:
            call(state)
        except ZeroDivisionError:
            continue  # not applicable
        except TtrError as err:
            assert isinstance(err, PluginError | IllegalAction | ArgumentError), name
            assert len(str(err)) < 1000, name
        except BaseException as err:  # the assertion names it
            raise AssertionError(f"{name}: raised {type(err).__name__}: {err!r:.200}") from err
        # Some values are valid for some arguments (seat 0 ... ): no error is fine.
