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


# -- observations of the variants' numbers, written by the engine ----------------------

#: A game of each variant that shows numbers in its view (each kind's numbers).
OBSERVED = [
    ("europe", 4, None, None),  # tunnels (asked, turned up), stations (at)
    ("europe", 2, None, {"stations": {"stations": 0}, "tunnels": {"reveal": 2}}),  # none to build
    ("switzerland", 3, None, None),  # tunnels
    ("nederland", 2, ["tolls", "neutral"], None),  # money, loans; the neutral player's
    ("nederland", 4, None, {"tolls": {"start_value": 6}}),  # loans early
    ("amsterdam", 3, None, {"merchandise": {"cards": 3}}),  # held, the supply runs out
]


@pytest.mark.parametrize(("map", "players", "variants", "options"), OBSERVED)
def test_the_engine_observes_the_variants_numbers_as_the_view_shows_them(
    map: str, players: int, variants: Any, options: Any
) -> None:
    """Every seat's vector at every step, written by the engine (``observe`` of a
    native playout) and by the Python encoder from the view, bit for bit: the
    variants' decisions (the pending slot ``other``), the neutral player's
    routes (the ``other`` owner column) and each declared number."""
    numpy = pytest.importorskip("numpy")
    from ttr_core.observation import observation_encoder

    met: set[str] = set()
    for seed in range(4):
        play = Playout.new(map, players, seed=seed, variants=variants, options=options)
        assert play.engine == "native"
        rules = play.snapshot().rules
        given = {name: dict(values) for name, values in rules.options}
        encoder = observation_encoder(rules.board, players, rules.variants, given)
        assert encoder.natively and encoder._variant_slots
        out = numpy.full(encoder.size, 7.0, dtype=numpy.float32)
        rng = random.Random(seed)
        while True:
            state = play.snapshot()
            if state.pending is not None and state.pending.kind not in native.KINDS:
                met.add("decision")
            if any(owner == players for owner in state.owners):
                met.add("neutral routes")
            for seat in range(players):
                assert encoder.observe(play, seat, out) is out
                want = numpy.array(encoder.encode_state(state, seat), numpy.float32)
                assert out.tobytes() == want.tobytes(), (seed, play.ply, seat)
                variant_part = want[
                    len(want) - sum(1 if n is None else n for _, n, _ in encoder._variant_slots) :
                ]
                if variant_part.any():
                    met.add("numbers")
            if play.is_over():
                break
            ids = play.legal_ids()
            play.apply_id(ids[rng.randrange(len(ids))])
    assert "numbers" in met
    if map in ("europe", "switzerland") or variants:
        assert "decision" in met
    if variants:
        assert "neutral routes" in met


class _ShowsTheTurn:
    """A variant that only shows a number in its view, declaring nothing."""

    @ttr_core.hookimpl
    def ttr_player_view(self, state: ttr_core.GameState) -> Any:
        return {"shown.turn": state.turn}

    @ttr_core.hookimpl
    def ttr_view_types(self) -> Any:
        return {"shown.turn": int}


def test_a_view_number_no_rule_declares_is_observed_by_the_python_encoder() -> None:
    """The engine plays the game (the view changes nothing it plays), but writes
    no vector it cannot fill: the encoder observes from a snapshot, the same
    numbers."""
    numpy = pytest.importorskip("numpy")
    from ttr_core.observation import observation_encoder

    ttr_core.register_variant("shown", _ShowsTheTurn())
    try:
        play = Playout.new("europe", 3, seed=2, variants=["tunnels", "shown"])
        assert play.engine == "native"
        rules = play.snapshot().rules
        encoder = observation_encoder(rules.board, 3, rules.variants)
        assert not encoder.natively
        play.play_random(2, 30)
        for seat in range(3):
            got = encoder.observe(play, seat, numpy.zeros(encoder.size, dtype=numpy.float32))
            want = numpy.array(encoder.encode_state(play.snapshot(), seat), numpy.float32)
            assert got.tobytes() == want.tobytes()
            assert got[encoder.names.index("variant:shown.turn")] == play.snapshot().turn
    finally:
        ttr_core.unregister_variant("shown")


def test_the_engines_view_numbers_are_the_declarations() -> None:
    from ttr_core.model.declarations import NATIVE_VIEWS

    declared = tuple(f"{kind}.{name}" for kind, names in NATIVE_VIEWS.items() for name in names)
    assert native_package._engine is not None
    assert declared == native_package._engine.VIEWS


def test_the_engine_refuses_a_layout_with_numbers_it_cannot_write() -> None:
    """A number of a kind the game does not play, or placed outside the vector
    or over the core's parts, is refused before any is kept."""
    from ttr_core.observation import observation_encoder

    play = Playout.new("europe", 3, seed=1)
    rules = play.snapshot().rules
    given = {name: dict(values) for name, values in rules.options}
    encoder = observation_encoder(rules.board, 3, rules.variants, given)
    ints, scale, slots, deck, parts = encoder._native_layout()  # type: ignore[misc]
    assert parts
    fresh = native._build(rules).config  # not the rule set's own
    at = ints[-7]  # at_ending
    size = ints[14]
    for bad in [
        ((4, at + 4, 1.0),),  # tokens: Europe has none
        ((3, size - 1, 1.0),),  # stations' row past the end
        ((1, at, 1.0),),  # over the ending row
        ((1, at + 4, 0.0),),  # no scale
        ((99, at + 4, 1.0),),
        ((1, at + 4),),
        ((1, at + 4, 1.0),) * 17,
    ]:
        with pytest.raises((ValueError, TypeError)):
            fresh.set_layout(ints, scale, slots, deck, bad)
        assert not fresh.has_layout
    fresh.set_layout(ints, scale, slots, deck, parts)
    assert fresh.has_layout


def test_observers_in_many_threads_write_the_python_encoders_numbers(
    busy_switching: None,
) -> None:
    """Fresh encoders (the engine's layout worked out and given to the engine by
    whichever thread comes first), each thread its own playouts."""
    import threading

    numpy = pytest.importorskip("numpy")
    from ttr_core.observation import observation_encoder

    # A board of its own: no rule set, engine or encoder kept for it yet.
    board = attrs.evolve(ttr_core.load_map("switzerland"))
    failures: list[str] = []

    def observe(seed: int) -> None:
        try:
            play = Playout.new(board, 2, seed=seed)
            rules = play.snapshot().rules
            encoder = observation_encoder(board, 2, rules.variants)
            out = numpy.zeros(encoder.size, dtype=numpy.float32)
            rng = random.Random(seed)
            while not play.is_over():
                seat = play.current_player
                assert seat is not None
                encoder.observe(play, seat, out)
                want = numpy.array(encoder.encode_state(play.snapshot(), seat), numpy.float32)
                if out.tobytes() != want.tobytes():
                    failures.append(f"seed {seed} ply {play.ply}")
                    return
                ids = play.legal_ids()
                play.apply_id(ids[rng.randrange(len(ids))])
        except Exception as exc:  # reported below
            failures.append(f"seed {seed}: {exc!r}")

    threads = [threading.Thread(target=observe, args=(seed,)) for seed in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def test_the_kit_catches_an_observation_the_engine_writes_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``native_agrees`` compares every seat's vector too: a declaration naming
    the wrong number (here the neutral player's marker and round swapped, both
    one number, so the shapes agree) fails it; the true one passes."""
    from ttr_core.testing import GamePlay, check_game, invariants_for

    def played(board: Any) -> GamePlay:
        states = [ttr_core.new_game(board, 2, seed=3, variants=["tolls", "neutral"])]
        actions = []
        rng = random.Random(3)
        while not states[-1].is_over:
            legal = ttr_core.legal_actions(states[-1])
            actions.append(legal[rng.randrange(len(legal))])
            states.append(ttr_core.apply(states[-1], actions[-1]))
        return GamePlay(tuple(states), tuple(actions))

    def messages(board: Any) -> list[str]:
        play = played(board)
        chosen = list(invariants_for(play.states[0].rules, only=["native_agrees"]))
        assert chosen
        return [v.message for v in check_game(play, chosen)]

    assert messages(attrs.evolve(ttr_core.load_map("nederland"))) == []
    real = native._views

    def swapped(declared: Any) -> Any:
        found = real(declared)
        codes = {key: code for key, code, _ in found}
        swap = {"neutral.marker": "neutral.round", "neutral.round": "neutral.marker"}
        return tuple((key, codes[swap.get(key, key)], shape) for key, code, shape in found)

    monkeypatch.setattr(native, "_views", swapped)
    seen = messages(attrs.evolve(ttr_core.load_map("nederland")))  # rules made anew
    assert any("the native engine observes seat" in message for message in seen), seen
