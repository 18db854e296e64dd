"""An empty deck with cards in the discard pile is no failure state (issue 20,
finding 11): the discard pile is shuffled in when a card is needed. Only deck
and discard pile both empty (E4, ``supply_empty``) is; ``deck_empty`` is counted
as a plain statistic."""

from __future__ import annotations

import ttr_core
from ttr_core import ClaimRoute, DrawBlind
from ttr_core.search.outcomes import failure_states, plain_statistics
from ttr_core.simulation import LOOPHOLES, STATISTICS, format_summary, simulate, state_loopholes


def issue_example() -> ttr_core.GameState:
    """``new_game('usa', players=2, seed=1)``, always the last listed claim, else a
    blind draw, else the first action, for 139 actions."""
    state = ttr_core.new_game("usa", players=2, seed=1)
    for _ in range(139):
        legal = ttr_core.legal_actions(state)
        claims = [a for a in legal if type(a) is ClaimRoute]
        blind = [a for a in legal if type(a) is DrawBlind]
        state = ttr_core.apply(state, claims[-1] if claims else blind[0] if blind else legal[0])
    return state


def test_an_empty_deck_with_a_discard_pile_is_a_statistic_not_a_failure() -> None:
    state = issue_example()
    legal = ttr_core.legal_actions(state)
    assert not state.deck and sum(state.discard) == 85
    seat = state.current_player
    assert seat is not None and DrawBlind(seat) in legal  # the blind draw reshuffles
    assert "deck_empty" not in failure_states(state, legal)
    assert "supply_empty" not in failure_states(state, legal)
    assert plain_statistics(state) == ["deck_empty"]
    # ttr simulate still counts it, by the same name, as a statistic.
    assert "deck_empty" in state_loopholes(state, legal)
    assert "deck_empty" in STATISTICS and "deck_empty" in LOOPHOLES


def test_simulate_reports_deck_empty_apart_from_the_failure_states() -> None:
    result = simulate("newyork", 2, ["random"], 6, seed=3, workers=1)
    assert result.summary.loophole("deck_empty")[0] > 0
    text = format_summary(result.summary)
    failures = text[text.index("failure states") :]
    failures = failures[: failures.index("\n\n")] if "\n\n" in failures else failures
    assert "supply_empty" in failures and "deck_empty" not in failures
    assert "statistics" in text and "deck_empty" in text[text.index("statistics") :]
