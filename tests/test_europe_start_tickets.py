"""Europe's unkept starting tickets go to the box, at once (``[rules.tickets]
start_returned = "box"``).

The rule (docs/rules.md, Europe): each seat is dealt 1 long + 3 regular
tickets and keeps at least 2, any mix; every starting ticket it does not keep,
long or regular, goes to the box (out of the game, face down), and so do the
long tickets nobody was dealt. Tickets returned from a later draw go under the
ticket deck. The map file says where unkept starting tickets go; every other
map leaves it to ``returned`` (and its fingerprint as it was).
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest
from ttr_core_plugins.long_tickets import NAME, is_long, long_ids

import ttr_core
from ttr_core import DrawTickets, GameState, KeepTickets
from ttr_core.checking.registry import check_state
from ttr_core.hooks.checks import ticket_places

MAP = "europe"
MAP_FILE = Path(__file__).resolve().parents[1] / "maps" / "europe.toml"

#: Fingerprints computed before ``start_returned`` existed: a map that leaves it
#: at its default (the same as ``returned``) keeps its fingerprint, so its saves.
FINGERPRINTS = {
    "newyork": "a00326b84466efe907cb113a354703b9a415f4bebf9334d4445623d3ea5a00a4",
    "usa": "88a2646538c421c30f00616bd0d01eb062e2abe6a7b55b3a3a86074fdd5cd305",
    "nederland": "a7bbb6b98f3f00e270738bcef3af4b9f903e1d8b7b43700c8e56492ad954ea3f",
    "amsterdam": "d644be68d98fb122b14b79668912c5109e378fffbb5d42d5058f10597be66f1e",
}
#: Europe's fingerprint before the rule: the rule changed, so the fingerprint did.
EUROPE_BEFORE = "56b3130931ae0ac623d0ec4aa4da9300496408ccbd724c8e09ee4f50cdfe6959"


def _load(name: str) -> ttr_core.Board:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        return ttr_core.load_map(name)


def _europe_text() -> str:
    return MAP_FILE.read_text(encoding="utf-8")


def _keep_regular(state: GameState, count: int = 2) -> tuple[GameState, tuple[int, ...]]:
    """The deciding seat keeps ``count`` regular tickets of its starting offer;
    the state after, and the tickets it put away."""
    pending = state.pending
    assert pending is not None and pending.kind == "start_tickets"
    kept = [t for t in pending.offered if not is_long(state.board, t)][:count]
    put_away = tuple(t for t in pending.offered if t not in kept)
    return ttr_core.apply(state, KeepTickets(pending.player, kept)), put_away


def _play(state: GameState, seed: int, actions: int) -> Iterator[GameState]:
    rng = random.Random(seed)
    yield state
    for _ in range(actions):
        if state.is_over:
            return
        state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
        yield state


def _long_ticket_problems(state: GameState) -> list[str]:
    return [str(v) for v in check_state(state) if v.invariant.startswith(NAME)]


def test_unkept_regular_starting_tickets_are_boxed() -> None:
    """The reproduction: seed 5, both seats keep two regular tickets; 46 tickets,
    8 dealt, the 4 undealt long ones boxed at setup, the 4 put away boxed at
    once: a deck of 34 and a box of 8, through the first round too."""
    state = ttr_core.new_game(MAP, players=2, seed=5)
    assert (len(state.ticket_deck), len(state.boxed_tickets)) == (34, 4)
    put_away: list[int] = []
    while state.pending is not None and state.pending.kind == "start_tickets":
        state, returned = _keep_regular(state)
        put_away += returned
    assert len(put_away) == 4
    assert any(not is_long(state.board, t) for t in put_away)
    assert (len(state.ticket_deck), len(state.boxed_tickets)) == (34, 8)
    assert set(put_away) <= set(state.boxed_tickets)
    assert not set(put_away) & set(state.ticket_deck)
    for seat in range(2):  # a round of card draws: nothing moves in or out of the box
        for _ in range(2):
            state = ttr_core.apply(state, ttr_core.DrawBlind(seat))
    assert state.turn == 2
    assert (len(state.ticket_deck), len(state.boxed_tickets)) == (34, 8)
    assert set(put_away) <= set(state.boxed_tickets)
    assert sorted(ticket_places(state)) == list(range(46))
    assert not check_state(state)


def test_an_unkept_long_ticket_is_boxed_at_once() -> None:
    state = ttr_core.new_game(MAP, players=3, seed=1)
    longs = long_ids(state.board)
    for _ in range(3):
        box = state.boxed_tickets
        state, put_away = _keep_regular(state, count=3)
        (long,) = put_away
        assert is_long(state.board, long)
        # Boxed by the choice itself, not at the end of the first turn.
        assert state.boxed_tickets == (*box, long)
        assert not longs & {*state.ticket_deck, *state.ticket_discard}
    assert state.turn == 0 and set(state.boxed_tickets) == longs


def test_every_view_counts_the_box_from_the_first_decision() -> None:
    """After seat 0 chose and before seat 1 does, every seat's view shows the
    deck and the box as they are: 34 in the deck, 4 + 2 in the box."""
    state, put_away = _keep_regular(ttr_core.new_game(MAP, players=2, seed=5))
    assert state.pending is not None and state.pending.player == 1
    assert state.pending.kind == "start_tickets"
    for viewer in range(2):
        view = ttr_core.player_view(state, viewer)
        assert (view.ticket_deck_size, view.boxed_tickets_size) == (34, 6)
    assert set(put_away) <= set(state.boxed_tickets)


def test_a_later_draws_returned_tickets_go_under_the_deck() -> None:
    state = ttr_core.new_game(MAP, players=2, seed=5)
    while state.pending is not None and state.pending.kind == "start_tickets":
        state, _ = _keep_regular(state)
    box = state.boxed_tickets
    drawn = ttr_core.apply(state, DrawTickets(0))
    assert drawn.pending is not None and drawn.pending.kind == "keep_tickets"
    offered = drawn.pending.offered
    assert len(offered) == 3 and not any(is_long(state.board, t) for t in offered)
    after = ttr_core.apply(drawn, KeepTickets(0, offered[:1]))
    assert after.ticket_deck[-2:] == offered[1:]
    assert after.boxed_tickets == box
    assert not check_state(after)


def test_end_game_during_the_starting_choice_boxes_the_unchosen_offers() -> None:
    state, put_away = _keep_regular(ttr_core.new_game(MAP, players=3, seed=2))
    assert state.pending is not None
    unchosen = [*state.pending.offered, *(t for o in state.start_offers for t in o)]
    deck = state.ticket_deck
    ended = ttr_core.end_game(state, "resignation", 2)
    assert ended.ticket_deck == deck
    assert ended.boxed_tickets == (*state.boxed_tickets, *unchosen)
    assert set(put_away) <= set(ended.boxed_tickets)
    assert sorted(ticket_places(ended)) == list(range(46))
    assert not check_state(ended)
    assert ttr_core.from_json(ttr_core.to_json(ended), GameState) == ended


def test_end_game_during_the_starting_choice_on_new_york_is_unchanged() -> None:
    state = ttr_core.new_game("newyork", players=3, seed=2)
    assert state.pending is not None and state.pending.kind == "start_tickets"
    state = ttr_core.apply(state, KeepTickets(0, state.pending.offered))
    assert state.pending is not None
    unchosen = (*state.pending.offered, *(t for o in state.start_offers for t in o))
    ended = ttr_core.end_game(state, "resignation", 1)
    assert ended.ticket_deck == (*state.ticket_deck, *unchosen)
    assert ended.boxed_tickets == ()
    assert not check_state(ended)


def test_the_map_file_says_where_unkept_starting_tickets_go() -> None:
    assert _load(MAP).rules.start_returned_tickets == "box"
    assert _load(MAP).rules.returned_tickets == "bottom"
    # By default, where returned tickets go.
    for name, where in [("newyork", "bottom"), ("usa", "bottom"), ("nederland", "discard")]:
        rules = _load(name).rules
        assert rules.start_returned_tickets == rules.returned_tickets == where


def test_a_bad_start_returned_names_the_key_and_the_allowed_values() -> None:
    text = _europe_text().replace('start_returned = "box"', 'start_returned = "sideways"')
    assert 'start_returned = "sideways"' in text
    with pytest.raises(ttr_core.MapError) as caught:
        ttr_core.parse_map(text, source="europe.toml")
    message = str(caught.value)
    assert "start_returned" in message
    assert "('bottom', 'discard', 'box')" in message and "'sideways'" in message
    for value in ("1", "true", '["box"]'):
        with pytest.raises(ttr_core.MapError, match="start_returned"):
            ttr_core.parse_map(text.replace('"sideways"', value), source="europe.toml")


def test_fingerprints_of_the_other_maps_are_unchanged() -> None:
    for name, fingerprint in FINGERPRINTS.items():
        assert ttr_core.map_fingerprint(_load(name)) == fingerprint, name
    assert ttr_core.map_fingerprint(_load(MAP)) != EUROPE_BEFORE


def test_start_returned_written_as_its_default_changes_no_fingerprint() -> None:
    """Saying what the default says is the same map: ``start_returned`` equal to
    ``returned`` is left out of the fingerprint, as an absent one is."""
    europe = _europe_text()
    bottom = europe.replace('start_returned = "box"', 'start_returned = "bottom"')
    absent = europe.replace('start_returned = "box"', "")
    fingerprints = {
        ttr_core.map_fingerprint(ttr_core.parse_map(text, source="europe.toml"))
        for text in (bottom, absent)
    }
    assert len(fingerprints) == 1
    assert ttr_core.map_fingerprint(_load(MAP)) not in fingerprints


def test_long_tickets_need_the_box_rule() -> None:
    """The long_tickets variant keeps every long ticket out of the deck from the
    start: a map putting unkept starting tickets anywhere but the box is refused."""
    text = _europe_text().replace('start_returned = "box"', 'start_returned = "bottom"')
    board = ttr_core.parse_map(text, source="europe.toml")
    with pytest.raises(ttr_core.GameConfigError, match='start_returned = "box"'):
        ttr_core.new_game(board, 2, variants=[NAME])


def test_determinize_keeps_the_rule() -> None:
    """At steps of random games (the starting choices included), each seat's view
    gives states dealt by the rule: the view unchanged, every check passed, no
    long ticket in the deck or the discard pile, and a box as big as the view says."""
    for seed in range(3):
        for step, now in enumerate(_play(ttr_core.new_game(MAP, 3, seed=seed), seed, 40)):
            if step > 6 and step % 4:
                continue
            for viewer in range(3):
                view = ttr_core.player_view(now, viewer)
                dealt = ttr_core.determinize(view, step)
                assert ttr_core.player_view(dealt, viewer) == view
                assert sorted(ticket_places(dealt)) == list(range(46))
                longs = long_ids(dealt.board)
                assert not longs & {*dealt.ticket_deck, *dealt.ticket_discard}
                assert len(dealt.boxed_tickets) == view.boxed_tickets_size
                assert not check_state(dealt), [str(v) for v in check_state(dealt)]


def test_determinize_puts_regular_tickets_in_the_box() -> None:
    """Once seats put regular tickets away, the box a determinized state deals
    holds regular tickets too (it is no longer "long tickets only")."""
    state = ttr_core.new_game(MAP, players=2, seed=5)
    while state.pending is not None and state.pending.kind == "start_tickets":
        state, _ = _keep_regular(state)
    regular = 0
    for seed in range(20):
        dealt = ttr_core.determinize(ttr_core.player_view(state, 0), seed)
        regular += sum(not is_long(dealt.board, t) for t in dealt.boxed_tickets)
        assert not _long_ticket_problems(dealt)
    assert regular


def test_a_saved_state_with_a_long_ticket_in_the_deck_is_refused() -> None:
    """During the first turn too: a long ticket is never in the deck after setup."""
    state, _ = _keep_regular(ttr_core.new_game(MAP, players=2, seed=5))
    state, _ = _keep_regular(state)
    assert state.turn == 0
    long = next(t for t in state.boxed_tickets if is_long(state.board, t))
    i = state.boxed_tickets.index(long)
    bad = attrs.evolve(
        state,
        ticket_deck=(*state.ticket_deck[:-1], long),
        boxed_tickets=(
            *state.boxed_tickets[:i],
            state.ticket_deck[-1],
            *state.boxed_tickets[i + 1 :],
        ),
    )
    assert any("ticket deck" in p for p in _long_ticket_problems(bad))
    with pytest.raises(ttr_core.DataError, match="ticket deck"):
        ttr_core.from_json(ttr_core.to_json(bad), GameState)


def test_a_box_bigger_than_the_starting_choices_allow_is_refused() -> None:
    """Before any seat chose, the box holds the undealt long tickets only."""
    state = ttr_core.new_game(MAP, players=2, seed=5)
    regular = state.ticket_deck[0]
    bad = attrs.evolve(
        state,
        ticket_deck=state.ticket_deck[1:],
        boxed_tickets=(*state.boxed_tickets, regular),
    )
    assert any("box" in p for p in _long_ticket_problems(bad))
    with pytest.raises(ttr_core.DataError):
        ttr_core.from_json(ttr_core.to_json(bad), GameState)
