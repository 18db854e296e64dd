"""The bots play Switzerland and Nordic Countries (issue 32): every heuristic
style beats random play heads-up, completes country tickets on Switzerland
(whichever border point it reaches) and pays with any-card sets on Nordic
Countries (a ferry's locomotive, Murmansk–Lieksa's cards).

Seeded games through :func:`ttr_core.simulation.play_game` with the maps' own
variants. The default run plays :data:`GAMES` per style and map;
``TTR_NEW_MAP_BOT_GAMES`` in the environment plays another number.
"""

from __future__ import annotations

import math
import os
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from ttr_core_plugins.substitutes import ClaimWithSets, GiveCard, set_size

import ttr_core
from ttr_core import Action, GameState, PlayerView
from ttr_core.agents import make_agent
from ttr_core.simulation import play_game

BOTS = ("hungry", "route", "long", "onestep")
MAPS = ("switzerland", "nordiccountries")
SEED = 32
#: Heads-up games per style and map, and the wins a style must reach: 80 %, the
#: margin of tests/test_europe_bots.py. A bot no better than random play wins
#: 32 of 40 or more with a chance of 9 in 10^5.
GAMES = int(os.environ.get("TTR_NEW_MAP_BOT_GAMES") or 40)
WINS = math.ceil(0.8 * GAMES)


class Counting:
    """Wraps a built-in style and counts the set payments it makes."""

    def __init__(self, bot: str, taken: Counter[str]) -> None:
        self.inner = make_agent(bot)
        self.taken = taken

    def act(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        action = self.inner.act(view, legal, rng)
        if isinstance(action, ClaimWithSets):
            self.taken["claims with sets"] += 1
            self.taken["sets"] += action.sets
            self.taken["cards owed"] += action.sets * set_size(view.board, action.route)
        elif isinstance(action, GiveCard):
            self.taken["cards given"] += 1
        return action


def _country_tickets(state: GameState, seat: int, taken: Counter[str]) -> None:
    """Count the seat's tickets to a region (a country), and those completed."""
    board = state.board
    for outcome in ttr_core.ticket_outcomes(state, seat):
        ticket = board.tickets[outcome.ticket]
        ends = (ticket.a, *(end for end, _points in ticket.destinations))
        if any(end in board.regions for end in ends):
            taken["country tickets"] += 1
            taken["country tickets completed"] += outcome.completed


@pytest.fixture(scope="module")
def played() -> dict[tuple[str, str], tuple[int, Counter[str]]]:
    """Per (map, style): the games the style won heads-up against random play
    (seats alternating), and what it did."""
    results: dict[tuple[str, str], tuple[int, Counter[str]]] = {}
    for map_name in MAPS:
        for bot in BOTS:
            taken: Counter[str] = Counter()
            wins = 0
            for game in range(GAMES):
                seat = game % 2
                agents = [make_agent("random"), make_agent("random")]
                agents[seat] = Counting(bot, taken)  # type: ignore[call-overload]
                state = ttr_core.new_game(map_name, 2, seed=SEED + game)
                final = play_game(state, agents, seed=SEED + game, keep_history=False).state
                scores = ttr_core.final_scores(final)
                wins += scores.winners == (seat,)
                _country_tickets(final, seat, taken)
            results[map_name, bot] = (wins, taken)
    return results


@pytest.mark.parametrize("map_name", MAPS)
@pytest.mark.parametrize("bot", BOTS)
def test_each_style_beats_random(
    map_name: str, bot: str, played: dict[tuple[str, str], tuple[int, Counter[str]]]
) -> None:
    wins, taken = played[map_name, bot]
    assert wins >= WINS, f"{bot} won {wins} of {GAMES} heads-up games on {map_name}: {taken}"


@pytest.mark.parametrize("bot", BOTS)
def test_each_style_completes_country_tickets_on_switzerland(
    bot: str, played: dict[tuple[str, str], tuple[int, Counter[str]]]
) -> None:
    _, taken = played["switzerland", bot]
    assert taken["country tickets"] >= GAMES // 2, taken
    assert 2 * taken["country tickets completed"] >= taken["country tickets"], taken


@pytest.mark.parametrize("bot", BOTS)
def test_each_style_pays_with_sets_on_nordic_countries(
    bot: str, played: dict[tuple[str, str], tuple[int, Counter[str]]]
) -> None:
    _, taken = played["nordiccountries", bot]
    assert taken["claims with sets"] >= GAMES // 4, taken
    # A claim with sets waits for the cards of its sets, given one by one, and
    # the bot gives them all (no claim is left waiting at the end of a game).
    assert taken["cards given"] == taken["cards owed"] >= 3 * taken["claims with sets"], taken
