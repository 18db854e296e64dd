"""The variants on the compiled engine (issue 35): what the lock-step games of
``tests/test_native.py`` meet rarely or never — ties broken by each
variant's rule, draws skipping long tickets, variant state no game holds."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import ttr_core
from ttr_core import Playout
from ttr_core import native as native_package
from ttr_core.native import engine as native
from ttr_core.rules.scoring import utilities

pytestmark = pytest.mark.skipif(
    not native_package.available,
    reason="the native engine was not built (nox -s tests builds and requires it)",
)


def attrs_evolve(obj: Any, **changes: Any) -> Any:
    return attrs.evolve(obj, **changes)


@pytest.mark.parametrize(("map", "players"), [("europe", 3), ("europe", 5), ("usa", 3)])
def test_ties_are_broken_as_the_variants_break_them(map: str, players: int) -> None:
    """Finished games with every total made equal: the core's most tickets,
    then each variant's tie-break in the map's order (Europe: the fewest
    stations, then the European Express), on both engines."""
    broken = {"tickets": 0, "variants": 0, "stations": 0}
    for seed in range(60):
        play = Playout.new(map, players, seed=seed, engine="native")
        play.play_random(seed, 10_000)
        end = play.snapshot()
        built = end.variant("stations")
        if built:  # each seat's first stations only, as many as chance says
            rng = random.Random(seed)
            keep = [rng.randrange(4) for _ in range(players)]
            mine = [0] * players
            kept = []
            for station in built:
                mine[station.owner] += 1
                if mine[station.owner] <= keep[station.owner]:
                    kept.append(station)
            end = end.with_variant("stations", tuple(kept))
        totals = [sheet.total for sheet in ttr_core.final_scores(end).sheets]
        top = max(totals)
        seats = tuple(
            attrs_evolve(p, score=p.score + top - total)
            for p, total in zip(end.players, totals, strict=True)
        )
        tied = attrs_evolve(end, players=seats)
        expected = ttr_core.final_scores(tied)
        assert {sheet.total for sheet in expected.sheets} == {top}
        compiled = Playout(tied, engine="native")
        assert compiled.totals() == (top,) * players
        assert compiled.returns() == tuple(utilities(expected.winners, players))
        done = [sheet.tickets_completed for sheet in expected.sheets]
        most = [seat for seat in range(players) if done[seat] == max(done)]
        if built:
            counts = [sum(s.owner == seat for s in tied.variant("stations")) for seat in most]
            broken["stations"] += len(set(counts)) > 1
        if len(most) > 1:
            broken["variants"] += len(expected.winners) < done.count(max(done))
        else:
            broken["tickets"] += 1
    assert broken["tickets"] and broken["variants"]  # both ways of breaking a tie seen
    if map == "europe":
        assert broken["stations"]


def test_a_ticket_draw_skips_long_tickets_on_both_engines() -> None:
    """regular_draws: a long ticket put on top of the ticket deck (no game puts
    it there: the long tickets not dealt are boxed) is skipped by a draw."""
    from ttr_core_plugins.long_tickets import long_ids

    from ttr_core.model.state import replace_state

    play = Playout.new("europe", 3, seed=5, engine="python")
    play.play_random(5, 3)  # the starting choices
    at = play.snapshot()
    assert at.pending is not None and at.pending.kind == "turn"
    longs = long_ids(at.board)
    boxed = [t for t in at.boxed_tickets if t in longs]
    moved = replace_state(
        at,
        ticket_deck=(boxed[0], at.ticket_deck[0], boxed[1], *at.ticket_deck[1:]),
        boxed_tickets=tuple(t for t in at.boxed_tickets if t not in boxed[:2]),
    )
    drawn = []
    for engine in ("python", "native"):
        game = Playout(moved, engine=engine)
        assert game.engine == engine
        game.apply(next(a for a in game.legal_actions() if isinstance(a, ttr_core.DrawTickets)))
        drawn.append(game.snapshot())
    assert drawn[0] == drawn[1]
    pending = drawn[0].pending
    assert pending is not None and not set(pending.offered) & longs
    assert drawn[0].ticket_deck[:2] == (boxed[0], boxed[1])  # left where they were


def test_the_engine_refuses_variant_state_no_game_of_the_rules_reaches() -> None:
    state = ttr_core.new_game("europe", 3, seed=1)
    game = native.new_game_object(state)
    before = game.export()
    core, seats, _ = before
    # A tunnel's decision pending (no tickets on offer then: the core's own check).
    tunnel_kind = (*core[:7], 5, core[8], (), 0, (), *core[12:])
    board = state.board
    tunnel = next(r.id for r in board.routes if r.extra.get("tunnel"))
    plain = next(r.id for r in board.routes if not r.extra.get("tunnel"))
    space = ttr_core.action_space(board, 3)
    tunnel_claim = space._by_template[("claim", tunnel, None, board.routes[tunnel].length)]
    plain_claim = space._by_template[("claim", plain, None, board.routes[plain].length)]
    cases = [
        (core, ((tunnel_claim, (), 0), ())),  # a tunnel's data, no tunnel's decision
        (tunnel_kind, ((), ())),  # a tunnel's decision without its data
        (tunnel_kind, ((plain_claim, (), 0), ())),  # a route that is no tunnel
        (tunnel_kind, ((tunnel_claim, (1, 2), 3), ())),  # more asked than turned up
        (tunnel_kind, ((tunnel_claim, (0,) * 4, 0), ())),  # more turned up than 3
        (tunnel_kind, ((tunnel_claim, (99,), 0), ())),  # a card of no kind
        (core, ((), ((0, 0, 0, 0, 2),))),  # a first station paid 2 cards
        (core, ((), ((0, 0, 0, 0, 1), (0, 1, 0, 0, 1)))),  # two stations in one city
        (core, ((), ((0, 5, 0, 0, 1),))),  # a station of no seat
        (core, ((), ((0, 0, -1, 0, 1),))),  # wilds alone, but no wild paid
        (core, ((), tuple((i, 0, 0, 0, i + 1) for i in range(4)))),  # 4 stations of 3
    ]
    for bad_core, bad_play in cases:
        with pytest.raises(ValueError, match="cannot hold"):
            game.load(bad_core, seats, (*bad_play, (), (), (), ()))
        assert game.export() == before
    good = ((tunnel_claim, (0, 8), 1), ((3, 1, -1, 1, 1),), (), (), (), ())
    game.load(tunnel_kind, seats, good)
    assert game.export()[2] == good


def test_the_engine_refuses_tokens_and_tolls_no_game_of_the_rules_holds() -> None:
    for map, good in [("amsterdam", ((1, 2, 0), 13)), ("nederland", ((9, 0, 40), (0, 2, 0), 7, 3))]:
        state = ttr_core.new_game(map, 3, seed=1)
        game = native.new_game_object(state)
        before = game.export()
        core, seats, play = before
        kept = list(play)
        at = 2 if map == "amsterdam" else 3
        for bad in [(), ((1, 2), 13) if at == 2 else ((9, 0), (0, 2, 0), 7, 3), good[:-1]]:
            kept[at] = bad
            with pytest.raises(ValueError, match="cannot hold"):
                game.load(core, seats, tuple(kept))
            assert game.export() == before
        negative = ((1, -2, 0), 13) if at == 2 else ((9, 0, 40), (0, -2, 0), 7, 3)
        kept[at] = negative
        with pytest.raises(ValueError, match="cannot hold"):
            game.load(core, seats, tuple(kept))
        kept[at] = good
        game.load(core, seats, tuple(kept))
        assert game.export()[2][at] == good


def test_a_neutral_owner_beyond_two_seats_plays_on_the_python_kernel() -> None:
    """The engine passes the marker to "the other seat": a neutral owner a third
    party declares for 3 seats is a reason to stay in Python, not a load error."""
    from ttr_core import NativeRule

    rule = NativeRule("neutral_owner", count=40, round=6, per_ticket=((0, 1),))
    reason = native._beyond_limits(None, None, None, None, rule, 3)
    assert reason is not None and "3 seats" in reason
    assert native._beyond_limits(None, None, None, None, rule, 2) is None
