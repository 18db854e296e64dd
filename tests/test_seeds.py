"""Seeds a server can trust.

Without a seed, ``new_game`` used seed 0, so every such game was the same, and
a seat that saw its first view could try every small seed and so learn every
hand and the deck order. Now a game without a seed draws a fresh 128-bit one
from the operating system (``secrets``), kept in ``state.seed`` so the game
can still be replayed; ``seed=`` gives a reproducible game.
"""

from __future__ import annotations

import secrets

import pytest

import ttr_core
from ttr_core import ArgumentError, KeepTickets


def deal(state: ttr_core.GameState) -> tuple[object, ...]:
    """Everything chance decided at setup."""
    return (
        tuple(p.hand.counts for p in state.players),
        state.deck,
        state.display,
        state.ticket_deck,
        state.pending.offered if state.pending else (),
        state.start_offers,
    )


def test_a_game_without_a_seed_gets_a_fresh_128_bit_one() -> None:
    seeds = {ttr_core.new_game("newyork", 2).seed for _ in range(20)}
    assert len(seeds) == 20  # never the same twice (collisions: about 2**-120)
    assert all(type(s) is int and 0 <= s < 2**128 for s in seeds)
    assert max(seeds).bit_length() > 100  # not a small number
    assert 0 not in seeds


def test_games_without_a_seed_are_dealt_differently() -> None:
    deals = {deal(ttr_core.new_game("usa", 3)) for _ in range(5)}
    assert len(deals) == 5


def test_the_fresh_seed_comes_from_the_operating_systems_source(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[int] = []

    def randbits(bits: int) -> int:
        asked.append(bits)
        return 0x0123456789ABCDEF0123456789ABCDEF

    monkeypatch.setattr(secrets, "randbits", randbits)
    state = ttr_core.new_game("newyork", 2)
    assert asked == [128]
    assert state.seed == 0x0123456789ABCDEF0123456789ABCDEF
    assert state == ttr_core.new_game("newyork", 2, seed=state.seed)


@pytest.mark.parametrize(("map_name", "players"), [("newyork", 3), ("nederland", 2), ("usa", 4)])
def test_a_game_replays_from_the_seed_kept_in_its_state(map_name: str, players: int) -> None:
    game = ttr_core.new_game(map_name, players)
    again = ttr_core.new_game(map_name, players, seed=game.seed)
    assert again == game and deal(again) == deal(game)
    # ... and plays on identically, reshuffles included.
    for _ in range(400):
        if ttr_core.is_over(game):
            break
        legal = ttr_core.legal_actions(game)
        assert ttr_core.legal_actions(again) == legal
        action = legal[(game.turn * 7 + len(legal)) % len(legal)]
        game, again = ttr_core.apply(game, action), ttr_core.apply(again, action)
        assert game == again


@pytest.mark.parametrize("seed", [0, 1, 2**32, 2**64 + 3, 2**128 - 1, 2**128, 2**255, 2**256 - 1])
def test_seeds_up_to_256_bits_work(seed: int) -> None:
    state = ttr_core.new_game("newyork", 2, seed=seed)
    assert state.seed == seed
    assert state == ttr_core.new_game("newyork", 2, seed=seed)
    state = ttr_core.apply(state, KeepTickets(0, state.pending.offered if state.pending else ()))
    assert state.current_player == 1


def test_explicit_seeds_still_give_the_same_games_as_before() -> None:
    # seed=0 is the old default: the games recorded in tests/data replay with it.
    assert ttr_core.new_game("newyork", 2, seed=0) == ttr_core.new_game("newyork", 2, seed=0)
    assert deal(ttr_core.new_game("newyork", 2, seed=0)) != deal(
        ttr_core.new_game("newyork", 2, seed=1)
    )
    assert (
        ttr_core.random_playout("newyork", 2).state
        == ttr_core.random_playout("newyork", 2, seed=0).state
    )  # random_playout keeps its explicit default seed of 0


@pytest.mark.parametrize(
    "seed",
    [-1, 2**256, 10**5000, 1.0, True, False, "7", b"7", [7], (7,)],
    ids=lambda s: str(type(s)),
)
def test_a_seed_that_is_no_whole_number_in_range_is_an_argument_error(seed: object) -> None:
    with pytest.raises(ArgumentError, match="seed") as err:
        ttr_core.new_game("newyork", 2, seed=seed)  # type: ignore[arg-type]
    assert isinstance(err.value, TypeError) and len(str(err.value)) < 200
