"""Hostile actions: ``apply`` refuses every malformed action with the library's error.

Issue 10's findings first, one plain test each: a seat of ``0.0``, ``False``
or ``"0"`` got past the turn check (``DrawBlind``, ``DrawFaceUp`` and
``ClaimRoute`` then raised a bare ``TypeError``, and ``DrawTickets(0.0)`` was
accepted and left a game no action could continue); messages for an action
sent in another seat's name must not quote that seat's hidden cards or
ticket offer. Then a hypothesis fuzz: thousands of malformed actions of every
core action class (and the neutral player's), for the right and the wrong
seat, on states reached by random play on every built-in map, either apply
(and then equal a listed legal action, field types included) or raise a
``TtrError``; the state given is never changed.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ttr_core_plugins.neutral import ChooseNeutralRoute

import ttr_core
from ttr_core import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    GameState,
    IllegalAction,
    KeepTickets,
    Pass,
    Reason,
    TtrError,
    hookimpl,
)

from .helpers import new_started, with_hand

#: An int too long for ``repr`` (Python refuses to print more than 4300 digits).
HUGE = 10**5000


def show_id(value: object) -> str:
    """A test id for any value (``repr`` fails on ints too long to print); the
    same in every process (no memory address: pytest-xdist's workers must
    collect the same ids)."""
    shown = ttr_core.rules.engine.show(value, 30)
    return re.sub(r" at 0x[0-9a-f.]*", "", shown)


BAD_SEATS: tuple[object, ...] = (0.0, False, True, 1.0, "0", None, b"0", (0,), 0j, [0])


def refusal(state: GameState, action: object) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, action)  # type: ignore[arg-type]
    return err.value


def actions_for(seat: object) -> list[Action]:
    """One action of each core class, in the name of ``seat``, otherwise plausible."""
    return [
        DrawBlind(seat),  # type: ignore[arg-type]
        DrawFaceUp(seat, 0),  # type: ignore[arg-type]
        ClaimRoute(seat, 0, "red", 0),  # type: ignore[arg-type]
        ClaimRoute(seat, 0, None, 2),  # type: ignore[arg-type]
        DrawTickets(seat),  # type: ignore[arg-type]
        KeepTickets(seat, [0, 1]),  # type: ignore[arg-type]
        Pass(seat),  # type: ignore[arg-type]
    ]


# -- the findings ---------------------------------------------------------------------


@pytest.mark.parametrize("seat", BAD_SEATS, ids=show_id)
def test_a_seat_that_is_not_an_int_is_refused_for_every_action(seat: object) -> None:
    for state in (new_started(), ttr_core.new_game("newyork", 2, seed=3)):
        snapshot = copy.deepcopy(state)
        legal = ttr_core.legal_actions(state)
        for action in actions_for(seat):
            err = refusal(state, action)
            assert err.reason == Reason.MALFORMED_ACTION, action
            assert "player" in str(err) and "int" in str(err)
            assert state == snapshot
            assert ttr_core.legal_actions(state) == legal


def test_draw_tickets_with_a_float_seat_no_longer_breaks_the_game() -> None:
    state = new_started()
    assert DrawTickets(0.0) == DrawTickets(0)  # type: ignore[arg-type]  # why it slipped through
    assert refusal(state, DrawTickets(0.0)).reason == Reason.MALFORMED_ACTION  # type: ignore[arg-type]
    assert refusal(state, DrawTickets(False)).reason == Reason.MALFORMED_ACTION
    # The game goes on with the real action, to the end.
    state = ttr_core.apply(state, DrawTickets(0))
    rng = random.Random(5)
    while not ttr_core.is_over(state):
        state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
    assert type(state.current_player) is not float


@pytest.mark.parametrize("seat", [0.0, False])
def test_draws_and_claims_with_a_seat_of_zero_look_alikes_raise_no_type_error(
    seat: object,
) -> None:
    state = with_hand(new_started(), 0, red=4, wild=2)
    rid = next(r.id for r in state.board.routes if r.color in ("red", "gray") and r.length <= 4)
    for action in (
        DrawBlind(seat),  # type: ignore[arg-type]
        DrawFaceUp(seat, 1),  # type: ignore[arg-type]
        ClaimRoute(seat, rid, "red", 0),  # type: ignore[arg-type]
    ):
        assert refusal(state, action).reason == Reason.MALFORMED_ACTION


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (DrawFaceUp(0, 1.0), Reason.BAD_SLOT),  # type: ignore[arg-type]
        (DrawFaceUp(0, True), Reason.BAD_SLOT),
        (DrawFaceUp(0, None), Reason.BAD_SLOT),  # type: ignore[arg-type]
        (DrawFaceUp(0, [1]), Reason.BAD_SLOT),  # type: ignore[arg-type]
        (DrawFaceUp(0, HUGE), Reason.BAD_SLOT),
        (DrawFaceUp(0, -1), Reason.BAD_SLOT),
        (ClaimRoute(0, 1.0, "red", 0), Reason.UNKNOWN_ROUTE),  # type: ignore[arg-type]
        (ClaimRoute(0, True, "red", 0), Reason.UNKNOWN_ROUTE),
        (ClaimRoute(0, "1", "red", 0), Reason.UNKNOWN_ROUTE),  # type: ignore[arg-type]
        (ClaimRoute(0, [1], "red", 0), Reason.UNKNOWN_ROUTE),  # type: ignore[arg-type]
        (ClaimRoute(0, HUGE, "red", 0), Reason.UNKNOWN_ROUTE),
        (ClaimRoute(0, -HUGE, "red", 0), Reason.UNKNOWN_ROUTE),
        (ClaimRoute(0, 0, "red", 0.0), Reason.BAD_PAYMENT),  # type: ignore[arg-type]
        (ClaimRoute(0, 0, "red", False), Reason.BAD_PAYMENT),
        (ClaimRoute(0, 0, "red", HUGE), Reason.BAD_PAYMENT),
        (ClaimRoute(0, 0, "red", [0]), Reason.BAD_PAYMENT),  # type: ignore[arg-type]
        (ClaimRoute(0, 0, 3, 0), Reason.BAD_PAYMENT),  # type: ignore[arg-type]
        (ClaimRoute(0, 0, b"red", 0), Reason.BAD_PAYMENT),  # type: ignore[arg-type]
        (ClaimRoute(0, 0, ["red"], 0), Reason.BAD_PAYMENT),  # type: ignore[arg-type]
        (ClaimRoute(0, 0, HUGE, 0), Reason.BAD_PAYMENT),  # type: ignore[arg-type]
        (DrawBlind(HUGE), Reason.NOT_YOUR_TURN),
        (DrawBlind(-1), Reason.NOT_YOUR_TURN),
        (KeepTickets(HUGE, [HUGE]), Reason.NOT_YOUR_TURN),
    ],
    ids=show_id,
)
def test_fields_of_the_wrong_type_are_refused_with_their_reason(
    action: Action, reason: Reason
) -> None:
    state = with_hand(new_started(), 0, red=4, wild=4)
    snapshot = copy.deepcopy(state)
    err = refusal(state, action)
    assert err.reason == reason
    assert len(str(err)) < 300  # a huge int is described, not printed
    assert state == snapshot


def offer_state() -> GameState:
    state = ttr_core.new_game("newyork", 2, seed=2)
    assert state.pending is not None and state.pending.kind == "start_tickets"
    return state


def test_tickets_kept_must_be_ints_not_look_alikes() -> None:
    state = offer_state()
    assert state.pending is not None
    offered = state.pending.offered
    first = offered[0]
    assert KeepTickets(0, [float(t) for t in offered]) == KeepTickets(0, offered)
    for tickets in (
        [float(t) for t in offered],
        [*offered[1:], float(first)],
        [str(first), *offered[1:]],
        [HUGE, *offered],
        [(first,), *offered],
    ):
        err = refusal(state, KeepTickets(0, tickets))  # type: ignore[arg-type]
        assert err.reason == Reason.NOT_OFFERED, tickets
        assert len(str(err)) < 300
    if 1 in offered:
        assert refusal(state, KeepTickets(0, [True, *offered])).reason == Reason.NOT_OFFERED
    # KeepTickets always stores a frozenset; one forced past its converter is malformed.
    for forced in ([first], None, first, "01", (first,)):
        action = KeepTickets(0, offered)
        object.__setattr__(action, "tickets", forced)
        assert refusal(state, action).reason == Reason.MALFORMED_ACTION
    assert ttr_core.apply(state, KeepTickets(0, offered)).current_player == 1


def test_an_action_object_without_a_seat_is_refused() -> None:
    action = object.__new__(DrawBlind)  # no __init__: no player at all
    assert refusal(new_started(), action).reason == Reason.MALFORMED_ACTION


def test_the_seat_is_checked_before_the_game_is_found_waiting_for_a_variant() -> None:
    state = attrs.evolve(new_started(), pending=ttr_core.Pending("someone.choose", 1))
    assert refusal(state, DrawBlind(0)).reason == Reason.NOT_YOUR_TURN
    assert refusal(state, DrawBlind(1.0)).reason == Reason.MALFORMED_ACTION  # type: ignore[arg-type]
    assert refusal(state, DrawBlind(1)).reason == Reason.WRONG_PHASE


# -- another seat's hidden cards and offer ------------------------------------------


def other_seat_actions(state: GameState, seat: int) -> Iterator[Action]:
    """Actions in ``seat``'s name built from what the deciding seat hides."""
    assert state.pending is not None
    me = state.pending.player
    hand = state.players[me].hand
    offered = state.pending.offered
    yield DrawBlind(seat)
    yield DrawTickets(seat)
    yield Pass(seat)
    for slot in range(-1, len(state.display) + 1):
        yield DrawFaceUp(seat, slot)
    yield KeepTickets(seat, offered)
    yield KeepTickets(seat, [*offered, 999])
    yield KeepTickets(seat, state.players[me].tickets)
    for offer in state.start_offers:
        yield KeepTickets(seat, offer)
    for route in state.board.routes:
        for color in (*state.board.colors, None):
            yield ClaimRoute(seat, route.id, color, hand["wild"])
            yield ClaimRoute(seat, route.id, color, route.length)
    yield ClaimRoute(seat, 10_000, "red", 0)
    yield ClaimRoute(seat, 0, "mauve", -3)


def hidden_words(state: GameState) -> set[str]:
    """Every card name and number a message must not need to mention."""
    board = state.board
    return {*board.card_names, *board.colors, "offered", "tickets", "cards", "hand", "wild"}


@pytest.mark.filterwarnings("ignore::ttr_core.GeneratedTicketsWarning")
@pytest.mark.parametrize(
    ("map_name", "players", "seed"),
    [("newyork", 2, 1), ("newyork", 4, 2), ("nederland", 3, 3), ("usa", 2, 4), ("amsterdam", 3, 5)],
)
def test_another_seats_action_quotes_nothing_hidden(map_name: str, players: int, seed: int) -> None:
    state = ttr_core.new_game(map_name, players, seed=seed)
    rng = random.Random(seed)
    checked = 0
    while not ttr_core.is_over(state) and checked < 12:
        if rng.random() < 0.1 or (state.pending and state.pending.kind != "turn"):
            checked += 1
            assert state.pending is not None
            me = state.pending.player
            for seat in range(-1, players + 1):
                if seat == me:
                    continue
                expected = f"it is seat {me}'s decision, not seat {seat}'s"
                for action in other_seat_actions(state, seat):
                    err = refusal(state, action)
                    assert err.reason == Reason.NOT_YOUR_TURN
                    assert str(err) == expected
                    words = set(re.findall(r"[a-z_]+", str(err)))
                    assert not words & hidden_words(state)
        state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))


def test_a_malformed_seat_is_described_by_its_type_and_value_only() -> None:
    state = with_hand(new_started(), 0, red=4)
    err = refusal(state, ClaimRoute(0.0, 0, "red", 0))  # type: ignore[arg-type]
    assert str(err) == "an action's player is a seat number (an int), not float 0.0"


# -- the fuzz --------------------------------------------------------------------------


class HostileRules:
    """A variant that filters and vetoes, so that the fuzz goes through the hooks'
    paths too: it removes face-up draws from slot 0 and vetoes the last route."""

    @hookimpl
    def ttr_filter_actions(self, actions: Sequence[Action]) -> list[Action]:
        return [a for a in actions if not (type(a) is DrawFaceUp and a.slot == 0)]

    @hookimpl
    def ttr_veto_action(self, state: GameState, action: Action) -> str | None:
        if type(action) is ClaimRoute and action.route == len(state.board.routes) - 1:
            return "the last route is closed"
        return None


CONFIGS: tuple[tuple[str, int, tuple[str, ...] | None], ...] = (
    ("newyork", 2, None),
    ("newyork", 3, ("hostile",)),
    ("nederland", 4, None),
    ("nederland", 2, ("tolls", "neutral")),
    ("usa", 2, None),
    ("amsterdam", 3, None),
)


@attrs.frozen(eq=False)
class Sample:
    state: GameState
    snapshot: GameState
    legal: tuple[Action, ...]
    config: str

    def __repr__(self) -> str:
        return f"<Sample {self.config} {self.state!r}>"


@cache
def samples() -> tuple[Sample, ...]:
    """States reached by random play on every map (every kind of decision, the end)."""
    found: list[Sample] = []
    for index, (map_name, players, variants) in enumerate(CONFIGS):
        for game in range(2):
            rng = random.Random(100 * index + game)
            state = ttr_core.new_game(
                map_name, players, seed=rng.randrange(2**32), variants=variants
            )
            picked: list[GameState] = []
            while not ttr_core.is_over(state):
                if state.pending is not None and (
                    state.pending.kind != "turn" or rng.random() < 0.08
                ):
                    picked.append(state)
                state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
            picked.append(state)
            for s in picked:
                found.append(
                    Sample(
                        s,
                        copy.deepcopy(s),
                        ttr_core.legal_actions(s),
                        f"{map_name}:{players}:{variants}",
                    )
                )
    return tuple(found)


@pytest.fixture(scope="module", autouse=True)
def hostile_variant() -> Iterator[None]:
    ttr_core.register_variant("hostile", HostileRules())
    samples.cache_clear()
    yield
    ttr_core.unregister_variant("hostile")
    samples.cache_clear()


# Values of every wrong type, and of the right types in and out of range.
scalars = st.one_of(
    st.integers(-3, 110),
    st.integers(),
    st.sampled_from([2**63, -(2**63), 2**64 + 1, 10**40]),
    # Ints too long to print (built by a function: hypothesis prints its strategies).
    st.integers(4301, 4400).map(lambda digits: 10**digits),
    st.integers(4301, 4400).map(lambda digits: -(10**digits)),
    st.floats(),
    st.booleans(),
    st.none(),
    st.text(max_size=4),
    st.sampled_from(["red", "wild", "gray", "orange", "blue", "0", "1", ""]),
    st.binary(max_size=3),
    st.complex_numbers(max_magnitude=3),
)
hashables = st.recursive(
    scalars, lambda inner: st.tuples(inner, inner) | st.frozensets(inner, max_size=2), max_leaves=4
)
anything = st.one_of(
    hashables,
    st.lists(st.integers(0, 3), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(0, 2), max_size=2),
    st.builds(object),
)
colours = st.one_of(st.sampled_from(["red", "wild", "gray", "orange", "blue", "pink"]), anything)
small = st.one_of(st.integers(-1, 12), anything)
routes = st.one_of(st.integers(-2, 110), anything)


@st.composite
def hostile_actions(draw: st.DrawFn, sample: Sample) -> Action:
    state = sample.state
    current = state.current_player
    seat_choice = draw(st.sampled_from(["current", "current", "other", "junk"]))
    seat: Any
    if seat_choice == "current" and current is not None:
        seat = current
    elif seat_choice == "other" or current is None:
        seat = draw(st.integers(-1, state.num_players))
    else:
        seat = draw(anything)
    kind = draw(
        st.sampled_from(["blind", "face_up", "claim", "tickets", "keep", "pass", "neutral"])
    )
    if kind == "blind":
        return DrawBlind(seat)
    if kind == "tickets":
        return DrawTickets(seat)
    if kind == "pass":
        return Pass(seat)
    if kind == "face_up":
        return DrawFaceUp(seat, draw(small))
    if kind == "claim":
        return ClaimRoute(seat, draw(routes), draw(colours), draw(small))
    if kind == "neutral":
        return ChooseNeutralRoute(seat, draw(routes))
    offered = state.pending.offered if state.pending is not None else ()
    tickets = draw(
        st.one_of(
            st.lists(st.sampled_from(offered), unique=True) if offered else st.just([]),
            st.lists(st.one_of(st.sampled_from(offered or (0,)), hashables), max_size=4),
        )
    )
    action = KeepTickets(seat, tickets)
    if draw(st.integers(0, 9)) == 0:  # forced past the converter
        object.__setattr__(action, "tickets", draw(anything))
    return action


def same_types(a: Action, b: Action) -> bool:
    return all(
        type(x) is type(y)
        for x, y in zip(
            attrs.astuple(a, recurse=False), attrs.astuple(b, recurse=False), strict=True
        )
    )


def check_hostile(sample: Sample, action: Action) -> None:
    state = sample.state
    try:
        new = ttr_core.apply(state, action)
    except TtrError as err:
        message = str(err)
        assert len(message) < 2000
        current = state.current_player
        if (
            isinstance(err, IllegalAction)
            and current is not None
            and type(action.player) is int
            and action.player != current
        ):
            assert err.reason == Reason.NOT_YOUR_TURN
            if action.player.bit_length() <= 200:
                assert message == f"it is seat {current}'s decision, not seat {action.player}'s"
    else:
        assert isinstance(new, GameState)
        matches = [a for a in sample.legal if a == action and same_types(a, action)]
        assert matches, f"{action!r} applied but is not listed legal in {sample.config}"
    assert state == sample.snapshot
    assert ttr_core.legal_actions(state) == sample.legal


@st.composite
def sample_and_action(draw: st.DrawFn) -> tuple[Sample, Action]:
    sample = draw(st.sampled_from(samples()))
    return sample, draw(hostile_actions(sample))


@settings(max_examples=3000)
@given(case=sample_and_action())
def test_hostile_actions_apply_or_raise_the_librarys_error(case: tuple[Sample, Action]) -> None:
    check_hostile(*case)


@settings(max_examples=500)
@given(data=st.data())
def test_listed_actions_with_one_field_swapped_for_junk(data: st.DataObject) -> None:
    """A legal action with one field replaced by a look-alike or junk."""
    sample = data.draw(st.sampled_from([s for s in samples() if s.legal]))
    legal = data.draw(st.sampled_from(sample.legal))
    fields = [f.name for f in attrs.fields(type(legal))]
    name = data.draw(st.sampled_from(fields))
    value = getattr(legal, name)
    looks_alike: list[Callable[[Any], Any]] = [float, bool, str, lambda v: (v,), lambda v: None]
    if type(value) is int:
        junk = data.draw(st.sampled_from(looks_alike))(value)
    else:
        junk = data.draw(anything)
    action = copy.copy(legal)
    object.__setattr__(action, name, junk)
    check_hostile(sample, action)


def test_every_listed_action_still_applies() -> None:
    for sample in samples():
        for action in sample.legal:
            ttr_core.apply(sample.state, action)
        assert sample.state == sample.snapshot
