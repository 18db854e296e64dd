"""determinize(view, seed): a full state that agrees with one seat's view, the rest dealt
at random, for information-set search (hook ``ttr_determinize`` for variant state)."""

from __future__ import annotations

import random
import warnings
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ttr_core_plugins.neutral import CHOOSE, ChooseNeutralRoute, ticket_routes
from ttr_core_plugins.tolls import tolls

import ttr_core
from ttr_core import ArgumentError, Board, GameState, PlayerView, PluginError, hookimpl
from ttr_core.hooks.checks import ticket_places
from ttr_core.rules.determinize import determinize

from .test_neutral import AMSTERDAM_ROTTERDAM, end_of_round, on_top
from .test_neutral import game as neutral_game


def _boards() -> dict[str, Board]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        return {
            name: ttr_core.load_map(name)
            for name in (
                "newyork",
                "nederland",
                "usa",
                "amsterdam",
                "switzerland",
                "nordiccountries",
                "pennsylvania",
                "india",
            )
        }


BOARDS = _boards()

#: (map, players, variants): every built-in map, with its default variants unless named.
CONFIGS: list[tuple[str, int, tuple[str, ...] | None]] = [
    ("newyork", 2, None),
    ("newyork", 3, None),
    ("newyork", 4, None),
    ("nederland", 2, None),
    ("nederland", 3, None),
    ("nederland", 4, None),
    ("nederland", 5, None),
    ("nederland", 2, ("tolls", "neutral")),
    ("usa", 2, None),
    ("usa", 4, None),
    ("amsterdam", 2, None),
    ("amsterdam", 4, None),
    ("switzerland", 2, None),
    ("switzerland", 3, None),
    ("nordiccountries", 2, None),
    ("nordiccountries", 3, None),
    ("pennsylvania", 2, None),  # the dummy shareholder
    ("pennsylvania", 4, None),
    ("india", 2, None),
    ("india", 4, None),
]
IDS = [f"{m}-{p}" + ("-" + "+".join(v) if v else "") for m, p, v in CONFIGS]


def play_randomly(
    map: str, players: int, variants: Sequence[str] | None, seed: int, actions: int
) -> GameState:
    """A game of ``map`` after up to ``actions`` random legal actions (fewer if it ends)."""
    state = ttr_core.new_game(BOARDS[map], players, seed=seed, variants=variants)
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_over:
            break
        state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
    return state


def play_to_the_end(state: GameState, seed: int, limit: int = 5000) -> GameState:
    rng = random.Random(seed)
    for _ in range(limit):
        if ttr_core.is_over(state):
            return state
        state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
    raise AssertionError(f"the game did not end within {limit} actions")


def card_total(state: GameState) -> int:
    return (
        len(state.deck)
        + sum(1 for c in state.display if c is not None)
        + sum(state.discard)
        + sum(p.hand.total for p in state.players)
    )


def check_conservation(state: GameState) -> None:
    """Every card and every ticket in exactly one place, the game's make-up exactly."""
    assert card_total(state) == state.board.total_cards
    counts = Counter(state.deck) + Counter(c for c in state.display if c is not None)
    for card, n in enumerate(state.discard):
        counts[card] += n
    for player in state.players:
        assert all(n >= 0 for n in player.hand.counts)
        for card, n in enumerate(player.hand.counts):
            counts[card] += n
    assert [counts[card] for card in range(len(state.board.deck))] == list(state.board.deck)
    assert sorted(ticket_places(state)) == list(range(len(state.board.tickets)))


def hidden(state: GameState, viewer: int) -> tuple[Any, ...]:
    """What ``viewer`` cannot see of ``state``: the other hands and tickets, the piles."""
    others = tuple(p for seat, p in enumerate(state.players) if seat != viewer)
    return (
        tuple((p.hand.counts, p.tickets) for p in others),
        state.deck,
        state.discard,
        state.ticket_deck,
        state.start_offers,
        state.pending,
    )


# ---------------------------------------------------------------------------
# Agreement with the view, conservation, random play to the end
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("map", "players", "variants"), CONFIGS, ids=IDS)
@settings(max_examples=25)
@given(seed=st.integers(0, 2**32), actions=st.integers(0, 400), deal=st.integers(0, 2**256 - 1))
def test_a_determinized_state_agrees_with_the_view_and_plays_to_the_end(
    map: str, players: int, variants: Sequence[str] | None, seed: int, actions: int, deal: int
) -> None:
    state = play_randomly(map, players, variants, seed, actions)
    for viewer in range(players):
        view = ttr_core.player_view(state, viewer)
        rebuilt = determinize(view, deal)
        # Every field of the view, variant state and non-seat owners included.
        assert ttr_core.player_view(rebuilt, viewer) == view
        assert rebuilt.rules == state.rules
        check_conservation(rebuilt)
        assert rebuilt.players[viewer] == state.players[viewer]
        assert rebuilt.owners == state.owners
        assert (rebuilt.display, rebuilt.ticket_discard) == (state.display, state.ticket_discard)
        assert [
            (p.hand.total, len(p.tickets), p.play_points, p.known) for p in rebuilt.players
        ] == [(p.hand.total, len(p.tickets), p.play_points, p.known) for p in state.players]
        assert (len(rebuilt.deck), sum(rebuilt.discard), len(rebuilt.ticket_deck)) == (
            len(state.deck),
            sum(state.discard),
            len(state.ticket_deck),
        )
        assert [len(o) for o in rebuilt.start_offers] == [len(o) for o in state.start_offers]
        if state.pending is None:
            assert rebuilt.pending is None
        else:
            assert rebuilt.pending is not None
            a, b = state.pending, rebuilt.pending
            assert (a.kind, a.player, len(a.offered), a.min_keep) == (
                b.kind,
                b.player,
                len(b.offered),
                b.min_keep,
            )
        for name in ("turn", "final_turns", "passes", "shuffles", "termination"):
            assert getattr(rebuilt, name) == getattr(state, name), name
        # The legal actions of the seat to decide are the same when it is the viewer
        # (it sees everything they depend on).
        if state.current_player == viewer:
            assert ttr_core.legal_actions(rebuilt) == ttr_core.legal_actions(state)
    # Random play from a determinized state reaches the end (strict hook checks on).
    end = play_to_the_end(determinize(ttr_core.player_view(state, 0), deal), deal)
    assert ttr_core.final_scores(end).winners


@pytest.mark.parametrize(("map", "players", "variants"), CONFIGS, ids=IDS)
def test_the_same_seed_gives_the_same_state_and_other_seeds_other_deals(
    map: str, players: int, variants: Sequence[str] | None
) -> None:
    state = play_randomly(map, players, variants, seed=11, actions=30)
    for viewer in range(players):
        view = ttr_core.player_view(state, viewer)
        once, again = determinize(view, 5), determinize(view, 5)
        assert once == again
        assert hidden(once, viewer) == hidden(again, viewer)
        assert once.seed == again.seed
        deals = {hidden(determinize(view, seed), viewer) for seed in range(8)}
        assert len(deals) == 8
        assert len({determinize(view, seed).seed for seed in range(8)}) == 8


def test_unseen_cards_are_dealt_only_from_what_the_viewer_cannot_see() -> None:
    state = play_randomly("newyork", 3, None, seed=4, actions=20)
    board = state.board
    view = ttr_core.player_view(state, 1)
    unseen = Counter({card: n for card, n in enumerate(board.deck)})
    unseen.subtract(Counter({card: n for card, n in enumerate(view.hand.counts)}))
    unseen.subtract(Counter(board.card_names.index(c) for c in view.display if c is not None))
    tickets = set(range(len(board.tickets))) - set(view.tickets) - set(view.ticket_discard)
    for seed in range(20):
        rebuilt = determinize(view, seed)
        dealt = Counter(rebuilt.deck)
        for card, n in enumerate(rebuilt.discard):
            dealt[card] += n
        for seat in (0, 2):
            for card, n in enumerate(rebuilt.players[seat].hand.counts):
                dealt[card] += n
        assert +dealt == +unseen
        placed = Counter(ticket_places(rebuilt))
        placed.subtract([*view.tickets, *view.ticket_discard, *view.offered])
        assert +placed == Counter(tickets)


def test_the_starting_choice_deals_the_offers_of_the_seats_still_to_choose() -> None:
    state = ttr_core.new_game(BOARDS["nederland"], 4, seed=3)
    state = ttr_core.apply(state, ttr_core.KeepTickets(0, state.pending.offered[:3]))  # type: ignore[union-attr]
    for viewer in range(4):
        view = ttr_core.player_view(state, viewer)
        assert view.offer_size == 5 and view.start_offer_sizes == (5, 5)
        rebuilt = determinize(view, 1)
        assert ttr_core.player_view(rebuilt, viewer) == view
        assert rebuilt.pending is not None and rebuilt.pending.kind == "start_tickets"
        assert rebuilt.pending.player == 1 and rebuilt.pending.min_keep == 3
        if viewer == 1:
            assert rebuilt.pending.offered == state.pending.offered  # type: ignore[union-attr]
        assert [len(o) for o in rebuilt.start_offers] == [5, 5]
        check_conservation(rebuilt)
        play_to_the_end(rebuilt, viewer)


def test_another_seats_ticket_offer_is_dealt_from_the_unseen_tickets() -> None:
    state = play_randomly("usa", 3, None, seed=2, actions=3)
    seat = state.current_player
    assert seat is not None
    state = ttr_core.apply(state, ttr_core.DrawTickets(seat))
    other = (seat + 1) % 3
    view = ttr_core.player_view(state, other)
    assert view.offered == () and view.offer_size == 3 and view.offer_min_keep == 1
    offers = {determinize(view, s).pending.offered for s in range(10)}  # type: ignore[union-attr]
    assert len(offers) > 1
    for offered in offers:
        assert len(offered) == 3 and not set(offered) & set(view.tickets)


def test_a_finished_game_is_determinized_as_finished() -> None:
    state = play_randomly("nederland", 3, None, seed=9, actions=100_000)
    assert state.is_over
    for viewer in range(3):
        view = ttr_core.player_view(state, viewer)
        rebuilt = determinize(view, 0)
        assert rebuilt.is_over and rebuilt.termination == state.termination
        assert ttr_core.player_view(rebuilt, viewer) == view
        assert ttr_core.legal_actions(rebuilt) == ()


# ---------------------------------------------------------------------------
# Variant state: the plugins' ttr_determinize hooks
# ---------------------------------------------------------------------------


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32), actions=st.integers(0, 500), deal=st.integers(0, 1000))
def test_tolls_keep_the_viewers_value_every_loan_and_the_value_in_play(
    seed: int, actions: int, deal: int
) -> None:
    state = play_randomly("nederland", 4, None, seed, actions)
    true = tolls(state)
    start = state.rules.option("tolls", "start_value")
    for viewer in range(4):
        rebuilt = tolls(determinize(ttr_core.player_view(state, viewer), deal))
        assert rebuilt.holdings[viewer] == true.holdings[viewer]
        assert rebuilt.loans == true.loans
        assert all(value >= 0 for value in rebuilt.holdings)
        assert rebuilt.bank_received >= 0 and rebuilt.bank_paid >= 0
        conserved = sum(rebuilt.holdings) + rebuilt.bank_received - rebuilt.bank_paid
        assert conserved == start * 4


def test_tolls_are_rebuilt_exactly_when_the_claims_leave_no_doubt() -> None:
    # No loan and no pair with both routes claimed: every toll paid is known.
    state = play_randomly("nederland", 3, None, seed=8, actions=40)
    true = tolls(state)
    assert not any(true.loans)
    board = state.board
    assert not any(
        r.partner is not None and state.owners[r.id] != -1 and state.owners[r.partner] != -1
        for r in board.routes
    )
    assert sum(len(p.routes) for p in state.players) >= 10
    for viewer in range(3):
        assert tolls(determinize(ttr_core.player_view(state, viewer), 3)) == true


def test_other_seats_toll_values_are_drawn_where_the_view_leaves_them_open() -> None:
    # Two loans and a claimed pair: which claim was on a loan, which route came first.
    state = play_randomly("nederland", 2, None, seed=0, actions=100_000)
    assert state.is_over
    view = ttr_core.player_view(state, 0)
    if not any(tolls(state).loans):  # pragma: no cover - depends on the seed
        pytest.skip("no loan in this game")
    drawn = {tolls(determinize(view, seed)).holdings[1] for seed in range(30)}
    assert len(drawn) > 1


def test_the_neutral_players_pending_choice_is_rebuilt_with_its_data() -> None:
    state = end_of_round(on_top(neutral_game(), AMSTERDAM_ROTTERDAM), 6)
    assert state.pending is not None and state.pending.kind == CHOOSE
    for viewer in (0, 1):
        view = ttr_core.player_view(state, viewer)
        rebuilt = determinize(view, viewer)
        assert rebuilt.pending == state.pending
        assert rebuilt.variant("neutral") == state.variant("neutral")
        assert ttr_core.legal_actions(rebuilt) == ttr_core.legal_actions(state)
        _, second = ticket_routes(state.board, AMSTERDAM_ROTTERDAM)
        after = ttr_core.apply(rebuilt, ChooseNeutralRoute(1, second))
        assert after.pending == ttr_core.apply(state, ChooseNeutralRoute(1, second)).pending
        play_to_the_end(after, viewer)


def test_merchandise_is_public_and_rebuilt_from_the_view() -> None:
    state = play_randomly("amsterdam", 3, None, seed=5, actions=150)
    for viewer in range(3):
        rebuilt = determinize(ttr_core.player_view(state, viewer), 0)
        assert rebuilt.variant("merchandise") == state.variant("merchandise")


def test_the_example_swap_variant_is_rebuilt_from_the_view() -> None:
    try:
        from ttr_example_variant import ttr_determinize  # noqa: F401
    except ImportError:
        pytest.skip("the installed ttr-example-variant predates its ttr_determinize hook")
    state = ttr_core.new_game(BOARDS["newyork"], 2, seed=1, variants=["swap"])
    rng = random.Random(2)
    for step in range(300):
        if state.is_over:
            break
        for viewer in (0, 1):
            view = ttr_core.player_view(state, viewer)
            rebuilt = determinize(view, step)
            assert ttr_core.player_view(rebuilt, viewer) == view
            assert rebuilt.variant("swap") == state.variant("swap")
        state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))


class Secretive:
    """A variant with state of its own (a secret number per seat)."""

    @hookimpl
    def ttr_setup(self, state: GameState) -> GameState:
        return state.with_variant("secret", (7,) * state.num_players)

    @hookimpl
    def ttr_player_view(self, state: GameState, player: int) -> Mapping[str, Any]:
        return {"secret.mine": state.variant("secret")[player]}


class Determinized(Secretive):
    @hookimpl
    def ttr_determinize(self, state: GameState, view: PlayerView) -> GameState:
        mine = view.variants["secret.mine"]
        values = tuple(mine if s == view.viewer else 3 for s in range(state.num_players))
        return state.with_variant("secret", values)


class WrongView(Secretive):
    @hookimpl
    def ttr_determinize(self, state: GameState) -> GameState:
        return state.with_variant("secret", (0,) * state.num_players)


class TouchesCards(Secretive):
    @hookimpl
    def ttr_determinize(self, state: GameState, view: PlayerView) -> GameState:
        mine = view.variants["secret.mine"]
        state = state.with_variant("secret", (mine,) * state.num_players)
        return attrs.evolve(state, turn=state.turn + 1)


class ShrinksAnOffer(Determinized):
    @hookimpl
    def ttr_determinize(self, state: GameState, view: PlayerView) -> GameState:
        state = super().ttr_determinize(state, view)
        dropped = tuple(o[0] for o in state.start_offers)
        return attrs.evolve(
            state,
            start_offers=tuple(o[1:] for o in state.start_offers),
            ticket_deck=(*state.ticket_deck, *dropped),
        )


class RedealsAnOffer(Determinized):
    """Swaps the first ticket of each hidden starting offer with the ticket deck's top."""

    @hookimpl
    def ttr_determinize(self, state: GameState, view: PlayerView) -> GameState:
        state = super().ttr_determinize(state, view)
        top, offers = state.ticket_deck[0], list(state.start_offers)
        offers[0], swapped = (top, *offers[0][1:]), offers[0][0]
        deck = (swapped, *state.ticket_deck[1:])
        return attrs.evolve(state, start_offers=tuple(offers), ticket_deck=deck)


class WrongKey(Secretive):
    @hookimpl
    def ttr_determinize(self, state: GameState) -> GameState:
        return state.with_variant("other", 1)


@pytest.fixture
def secret() -> Any:
    def register(plugin: object) -> GameState:
        ttr_core.register_variant("secret", plugin)
        return ttr_core.new_game(BOARDS["newyork"], 2, seed=0, variants=["secret"])

    yield register
    ttr_core.unregister_variant("secret")


def test_a_variant_with_state_and_its_hook_is_determinized(secret: Any) -> None:
    state = secret(Determinized())
    rebuilt = determinize(ttr_core.player_view(state, 1), 0)
    assert rebuilt.variant("secret") == (3, 7)


def test_a_hook_may_redeal_hidden_offers_keeping_their_sizes(secret: Any) -> None:
    """Another seat's starting offer is hidden (its size shows): a variant dealing
    by a ticket field may re-deal it (hooks.md, ttr_determinize)."""
    state = secret(RedealsAnOffer())
    assert state.start_offers  # seat 1's offer waits, hidden from seat 0
    view = ttr_core.player_view(state, 0)
    rebuilt = determinize(view, 0)
    assert ttr_core.player_view(rebuilt, 0) == view
    assert [len(o) for o in rebuilt.start_offers] == [len(o) for o in state.start_offers]


def test_a_variant_with_state_but_no_hook_is_named(secret: Any) -> None:
    state = secret(Secretive())
    with pytest.raises(PluginError, match=r"'secret'.*no ttr_determinize") as err:
        determinize(ttr_core.player_view(state, 0), 0)
    assert (err.value.variant, err.value.hook) == ("secret", "ttr_determinize")


@pytest.mark.parametrize(
    ("plugin", "message"),
    [
        (WrongView(), "sees differently"),
        (TouchesCards(), "changed what the view shows"),
        (ShrinksAnOffer(), r"changed what the view shows \(start_offers\)"),
        (WrongKey(), "created variant state key 'other'"),
    ],
)
def test_a_hook_that_rebuilds_what_the_view_contradicts_is_named(
    secret: Any, plugin: object, message: str
) -> None:
    state = secret(plugin)
    with pytest.raises(PluginError, match=message) as err:
        determinize(ttr_core.player_view(state, 0), 0)
    assert (err.value.variant, err.value.hook) == ("secret", "ttr_determinize")


# ---------------------------------------------------------------------------
# Bad arguments
# ---------------------------------------------------------------------------


def test_a_view_and_an_int_seed_are_required() -> None:
    state = play_randomly("newyork", 2, None, seed=0, actions=5)
    view = ttr_core.player_view(state, 0)
    with pytest.raises(ArgumentError, match="PlayerView"):
        determinize(state, 0)  # type: ignore[arg-type]
    for seed in ("1", 1.0, True, None):
        with pytest.raises(ArgumentError, match="seed"):
            determinize(view, seed)  # type: ignore[arg-type]
    for seed in (-1, -(2**80), 2**256):  # new_game's range: 0 to 2**256 - 1
        with pytest.raises(ArgumentError, match="2\\*\\*256"):
            determinize(view, seed)
    assert isinstance(determinize(view, 2**256 - 1), GameState)


@pytest.mark.parametrize(
    "change",
    [
        {"deck_size": 1},
        {"discard_size": 1},
        {"ticket_deck_size": 1},
        {"offer_size": 1},
        {"viewer": 5},
        {"viewer": True},
        {"tickets": (10_000,)},
        {"seats": ()},
        {"display": ("purple",)},
        {"is_over": True},
        {"pending": None},
        {"termination": ttr_core.Termination.CARS},
        {"board": "newyork"},
    ],
)
def test_a_view_that_no_state_could_give_is_refused(change: dict[str, Any]) -> None:
    state = play_randomly("newyork", 2, None, seed=0, actions=5)
    view = ttr_core.player_view(state, 0)
    for name, value in change.items():
        old = getattr(view, name)
        if isinstance(old, int) and not isinstance(old, bool) and name != "viewer":
            value = old + value
        view = attrs.evolve(view, **{name: value})
    with pytest.raises(ArgumentError):
        determinize(view, 0)


def test_too_many_cards_in_another_hand_is_refused() -> None:
    state = play_randomly("newyork", 2, None, seed=0, actions=5)
    view = ttr_core.player_view(state, 0)
    seats = list(view.seats)
    seats[1] = attrs.evolve(seats[1], hand_size=seats[1].hand_size + 100)
    with pytest.raises(ArgumentError, match="do not add up"):
        determinize(attrs.evolve(view, seats=tuple(seats)), 0)
