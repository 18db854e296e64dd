"""The third-party test package (``tests/thirdparty``): tunnel-like claims, station-like
connections and a long-ticket deal written through ttr-core's public API only
(issue 20's acceptance), checked by the verification kit, by its own invariants,
by OpenSpiel's and PettingZoo's own checks, and played by the heuristic bots.

(OpenSpiel's and PettingZoo's checks of Nederland with the neutral player are in
tests/test_openspiel.py and tests/test_pettingzoo.py, ``VARIANT_CONFIGS``.)
"""

from __future__ import annotations

import ast
import random
import sys
import warnings
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

import attrs
import hypothesis
import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]

import ttr_core
import ttr_core.effects
import ttr_core.openspiel
import ttr_core.pettingzoo
import ttr_core.render
import ttr_core.simulation
import ttr_core.testing
from ttr_core import ClaimRoute, GameRecord, GameState, KeepTickets, effects
from ttr_core.testing import check_rules, invariant_names, rules_machine, verify

from . import thirdparty
from .thirdparty.longdeal import LongTickets, is_long
from .thirdparty.stations import STATIONS, BuildStation, stations
from .thirdparty.tunnels import GiveUpTunnel, PayTunnel, Tunnels, Waiting, is_tunnel, matches

MAP = thirdparty.MAP
VARIANTS = list(thirdparty.VARIANTS)
BOTS = ("hungry", "route", "long", "onestep")
#: Heads-up games per bot against random play, and the wins a bot must reach: a
#: bot no better than random wins half, and 25 of 30 or more has a chance below
#: 1 in 5,000 (the margin of tests/test_agent_variant_actions.py). Seeded games.
GAMES = 30
WINS = 25
#: The package's own invariants (hooks ttr_check_state and ttr_check_transition).
OWN_INVARIANTS = (
    "tp_long.check_state",
    "tp_tunnels.check_state",
    "tp_tunnels.check_transition",
    "tp_stations.check_state",
    "tp_stations.check_transition",
)


@pytest.fixture(scope="module", autouse=True)
def _thirdparty() -> Iterator[None]:
    thirdparty.register()
    yield
    thirdparty.unregister()


@pytest.fixture(scope="module")
def board() -> ttr_core.Board:
    return ttr_core.load_map(MAP)


def _random_states(seed: int, players: int) -> Iterator[GameState]:
    """Every state of a seeded random game."""
    rng = random.Random(seed)
    state = ttr_core.new_game(MAP, players, seed=seed, variants=VARIANTS)
    yield state
    while not state.is_over:
        state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
        yield state


def _waiting(seed: int = 0) -> GameState:
    """A state where a tunnel claim waits for a surcharge, from seeded random games."""
    for game in range(seed, seed + 30):
        for state in _random_states(game, 2):
            pending = state.pending
            if pending is not None and pending.kind == "tp_tunnels.pay" and pending.data.extra:
                return state
    raise AssertionError("no tunnel claim waited for a surcharge")


# ---------------------------------------------------------------------------
# Public API only
# ---------------------------------------------------------------------------

#: The modules of ttr_core a third-party package may use: the facade, the
#: effect helpers and the documented modules.
PUBLIC_MODULES = {
    "ttr_core": ttr_core,
    "ttr_core.effects": ttr_core.effects,
    "ttr_core.testing": ttr_core.testing,
    "ttr_core.openspiel": ttr_core.openspiel,
    "ttr_core.pettingzoo": ttr_core.pettingzoo,
    "ttr_core.render": ttr_core.render,
    "ttr_core.simulation": ttr_core.simulation,
}
#: Other imports allowed: the standard library and attrs.
OTHER_MODULES = {*sys.stdlib_module_names, "attrs"}


def private_uses(source: str) -> list[str]:
    """What ``source`` uses beyond the public API: a name with a leading
    underscore imported from anywhere, a ttr_core module not public, a name
    not exported (``__all__``) by the public module it comes from (imported or
    read as an attribute), a module that is neither the standard library nor
    attrs. Relative imports (the package's own modules) pass."""
    found: list[str] = []
    bound: dict[str, str] = {}  # local name -> public module it stands for

    def exported(module: str, name: str, line: int) -> None:
        if name.startswith("_") or name not in PUBLIC_MODULES[module].__all__:
            found.append(f"line {line}: {module}.{name} is not public")

    def module_ok(module: str, line: int) -> bool:
        if module.startswith("ttr_core"):
            if module not in PUBLIC_MODULES or any(p.startswith("_") for p in module.split(".")):
                found.append(f"line {line}: module {module} is not public")
                return False
            return True
        if module.split(".")[0] not in OTHER_MODULES:
            found.append(f"line {line}: module {module} is not the standard library or attrs")
        return False

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                public = module_ok(alias.name, node.lineno)
                if alias.asname is None and alias.name.split(".")[0] == "ttr_core":
                    bound["ttr_core"] = "ttr_core"  # import ttr_core.x binds ttr_core
                elif public:
                    bound[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            public = module_ok(node.module, node.lineno)
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if alias.name.startswith("_"):
                    found.append(f"line {node.lineno}: {full} is private")
                elif full in PUBLIC_MODULES:
                    bound[alias.asname or alias.name] = full  # from ttr_core import effects
                elif public:
                    exported(node.module, alias.name, node.lineno)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute):
            chain = [node.attr]
            value = node.value
            while isinstance(value, ast.Attribute):
                chain.insert(0, value.attr)
                value = value.value
            if not isinstance(value, ast.Name) or value.id not in bound:
                continue
            module = bound[value.id]
            for name in chain:  # ttr_core.effects.x: through the public modules
                if f"{module}.{name}" not in PUBLIC_MODULES:
                    exported(module, name, node.lineno)
                    break
                module = f"{module}.{name}"
    return sorted(set(found))


def test_the_package_uses_only_the_public_api() -> None:
    sources = sorted(Path(thirdparty.__file__).parent.glob("*.py"))
    assert len(sources) >= 4
    for path in sources:
        assert private_uses(path.read_text(encoding="utf-8")) == [], path.name
    # This test file too reaches no further into ttr_core than the package.
    found = private_uses(Path(__file__).read_text(encoding="utf-8"))
    assert all("standard library" in f for f in found), found


def test_the_import_check_can_fail() -> None:
    source = """
import ttr_core.checking.invariants
import ttr_core_plugins.neutral
from ttr_core import _claim, GameState, claim_route
from ttr_core.effects import _seat, claim_route as claim
from ttr_core.model.state import UNCLAIMED
import ttr_core as core
core.rules.engine.apply
ttr_core.effects._count
"""
    found = private_uses(source)
    for fragment in (
        "module ttr_core.checking.invariants is not public",
        "module ttr_core_plugins.neutral is not",
        "ttr_core._claim is private",
        "ttr_core.claim_route is not public",
        "ttr_core.effects._seat is private",
        "module ttr_core.model.state is not public",
        "ttr_core.rules is not public",
        "ttr_core.effects._count is not public",
    ):
        assert any(fragment in f for f in found), (fragment, found)
    assert not any("GameState" in f or "claim_route as" in f for f in found)


# ---------------------------------------------------------------------------
# The verification kit
# ---------------------------------------------------------------------------


def test_the_package_declares_its_invariants() -> None:
    rules = ttr_core.new_game(MAP, 2, seed=0, variants=VARIANTS).rules
    assert set(OWN_INVARIANTS) <= set(invariant_names(rules))


def test_seeded_games_keep_every_invariant_with_two_to_five_players() -> None:
    report = verify(MAP, VARIANTS, games=8, seed=5)
    assert report.ok, [str(v) for f in report.failures for v in f.violations]
    assert sorted(report.games) == [2, 3, 4, 5]
    for name in OWN_INVARIANTS:  # the package's own invariants ran, after every action
        assert report.checks[name] >= sum(report.actions.values()), name


def test_the_kit_passes_with_the_package() -> None:
    met: Counter[str] = Counter()

    def seen(before: GameState, action: ttr_core.Action, after: GameState) -> None:
        """Counts the package's mechanics the kit's games meet."""
        if type(action) is ClaimRoute and is_tunnel(before.board, action.route):
            met["tunnel"] += 1
        met[type(action).__name__] += 1
        met["boxed"] += bool(after.boxed_tickets)

    counting = ttr_core.testing.Invariant("thirdparty_met", "transition", seen)
    check_rules(MAP, VARIANTS, examples=12, invariants=[counting])  # 2 to 5 players
    assert met["tunnel"] and met["PayTunnel"] and met["GiveUpTunnel"], met
    assert met["BuildStation"] and met["boxed"], met


ThirdParty = rules_machine(MAP, VARIANTS)
ThirdParty.TestCase.settings = hypothesis.settings(
    ThirdParty.TestCase.settings, max_examples=4, stateful_step_count=100, database=None
)
TestThirdPartyDecisionByDecision = ThirdParty.TestCase


def _miscount(claim: ClaimRoute, revealed: Sequence[str]) -> int:
    """A wrong surcharge an author might write: the third card forgotten."""
    return matches(claim, revealed[:2])


def test_a_wrong_surcharge_is_caught_by_the_packages_own_invariant() -> None:
    ttr_core.register_variant("tp_tunnels_bad", Tunnels("tp_tunnels_bad", surcharge=_miscount))
    try:
        bad = ["tp_long", "tp_tunnels_bad", "tp_stations"]
        shipped = "tp_tunnels_bad.check_transition"
        report = verify(MAP, bad, players=[2], games=6)
        assert report.violations[shipped] > 0
        assert set(report.violations) == {shipped}  # no core invariant sees the miscount
        assert verify(MAP, bad, players=[2], games=3, skip=[shipped]).ok
        # The step that breaks it, as the kit reports it.
        (failure,) = report.failures
        (violation,) = failure.violations
        assert violation.invariant == shipped
        assert str(violation).startswith(f"{shipped}: tp_tunnels_bad: surcharge ")
    finally:
        ttr_core.unregister_variant("tp_tunnels_bad")


# ---------------------------------------------------------------------------
# The mechanics
# ---------------------------------------------------------------------------


def test_each_seat_is_dealt_one_long_ticket_and_the_others_are_boxed(
    board: ttr_core.Board,
) -> None:
    for players in (2, 5):
        state = ttr_core.new_game(MAP, players, seed=players, variants=VARIANTS)
        assert state.pending is not None
        offers = [state.pending.offered, *state.start_offers]
        assert len(offers) == players
        for offer in offers:
            assert [is_long(board, t) for t in offer] == [True, False, False]
        longs = {t.id for t in board.tickets if is_long(board, t.id)}
        assert set(state.boxed_tickets) == longs - {offer[0] for offer in offers}
        assert ttr_core.player_view(state, 0).boxed_tickets_size == len(state.boxed_tickets)


def test_a_tunnel_claim_reveals_three_cards_and_waits(board: ttr_core.Board) -> None:
    state = _waiting()
    wait = state.pending.data  # type: ignore[union-attr]
    assert isinstance(wait, Waiting) and is_tunnel(board, wait.claim.route)
    assert len(wait.revealed) == 3 and wait.extra == matches(wait.claim, wait.revealed) > 0
    seat = wait.claim.player
    legal = ttr_core.legal_actions(state)
    assert GiveUpTunnel(seat) in legal and all(
        isinstance(a, PayTunnel | GiveUpTunnel) for a in legal
    )
    gave_up = ttr_core.apply(state, GiveUpTunnel(seat))
    assert gave_up.owners[wait.claim.route] == -1 and gave_up.players == state.players
    text = ttr_core.describe(state, GiveUpTunnel(seat))
    assert "gave up the tunnel" in text and "revealed: " in text
    for pay in (a for a in legal if isinstance(a, PayTunnel)):
        paid = ttr_core.apply(state, pay)
        assert paid.owners[wait.claim.route] == seat
        length = board.routes[wait.claim.route].length
        assert state.players[seat].hand.total - paid.players[seat].hand.total == length + wait.extra
        assert "claimed the tunnel" in ttr_core.describe(state, pay)


def test_views_show_the_wait_and_determinize_deals_it_back() -> None:
    state = _waiting(seed=1)
    for seat in range(state.num_players):
        view = ttr_core.player_view(state, seat)
        assert view.variants["tp_tunnels.wait"] == state.pending.data  # type: ignore[union-attr]
        dealt = ttr_core.determinize(view, 3)
        assert dealt.pending == state.pending and ttr_core.player_view(dealt, seat) == view
        text = ttr_core.to_json(view)
        assert ttr_core.from_json(text, ttr_core.PlayerView, board=MAP) == view
    loaded: GameState = ttr_core.from_json(ttr_core.to_json(state), GameState, board=MAP)
    assert loaded == state


def test_determinize_keeps_the_long_ticket_rules(board: ttr_core.Board) -> None:
    """Dealt from any seat's view -- hidden ticket offers of other seats included,
    which the hook re-deals -- a starting offer holds one long ticket, a later
    draw none, the box long tickets only and each seat at most one."""
    dealt_some = hidden_offers = 0
    for index, state in enumerate(_random_states(seed=4, players=4)):
        if index % 5 or state.is_over:
            continue
        assert state.pending is not None
        for seat in range(state.num_players):
            view = ttr_core.player_view(state, seat)
            dealt = ttr_core.determinize(view, index + seat)
            assert ttr_core.player_view(dealt, seat) == view
            assert len(dealt.boxed_tickets) == len(state.boxed_tickets)
            assert all(is_long(board, t) for t in dealt.boxed_tickets)
            assert all(sum(is_long(board, t) for t in p.tickets) <= 1 for p in dealt.players)
            for offer in dealt.start_offers:
                assert sum(is_long(board, t) for t in offer) == 1, offer
            pending = dealt.pending
            assert pending is not None
            if pending.kind == "start_tickets":
                assert sum(is_long(board, t) for t in pending.offered) == 1
            if pending.kind == "keep_tickets":
                assert not any(is_long(board, t) for t in pending.offered)
            hidden_offers += pending.player != seat and bool(pending.offered)
            dealt_some += 1
    assert dealt_some >= 100 and hidden_offers >= 10


def test_a_determinize_hook_breaking_its_own_rule_is_caught(board: ttr_core.Board) -> None:
    """A ``ttr_determinize`` whose state its own ``ttr_check_state`` refuses is
    refused, the variant's problem quoted."""
    state = next(s for s in _random_states(seed=4, players=3) if s.boxed_tickets)
    view = ttr_core.player_view(state, 0)

    class RegularIntoTheBox(LongTickets):
        @ttr_core.hookimpl
        def ttr_determinize(
            self, state: GameState, view: ttr_core.PlayerView, rng: random.Random
        ) -> GameState | None:
            dealt = super().ttr_determinize(state, view, rng)
            assert dealt is not None
            regular = next(t for t in dealt.ticket_deck if not is_long(dealt.board, t))
            deck = tuple(t for t in dealt.ticket_deck if t != regular)
            box = (regular, *dealt.boxed_tickets[1:])
            return attrs.evolve(
                dealt, ticket_deck=(*deck, dealt.boxed_tickets[0]), boxed_tickets=box
            )

    ttr_core.unregister_variant("tp_long")
    ttr_core.register_variant("tp_long", RegularIntoTheBox())
    try:
        with pytest.raises(ttr_core.ArgumentError, match=r"tp_long: a regular ticket"):
            ttr_core.determinize(view, 1)
    finally:
        ttr_core.unregister_variant("tp_long")
        ttr_core.register_variant("tp_long", LongTickets())


def _station_position(lend: bool) -> tuple[GameState, int]:
    """Seat 0 holds only Denver–El Paso and owns Denver–Santa Fe; seat 1 owns Santa
    Fe–El Paso; seat 0 has a station at Santa Fe when ``lend``."""
    state = ttr_core.new_game(MAP, 2, seed=2, variants=VARIANTS)
    while state.pending is not None and state.pending.kind == "start_tickets":
        keep = KeepTickets(state.pending.player, frozenset(state.pending.offered))
        state = ttr_core.apply(state, keep)
    board = state.board
    ticket = next(t.id for t in board.tickets if {t.a, t.b} == {"Denver", "El Paso"})
    returned = [t for p in state.players for t in p.tickets if t != ticket]
    players = (
        attrs.evolve(state.players[0], tickets=(ticket,)),
        attrs.evolve(state.players[1], tickets=()),
    )
    state = attrs.evolve(
        state,
        players=players,
        ticket_deck=tuple(t for t in state.ticket_deck if t != ticket),
        boxed_tickets=tuple(t for t in (*state.boxed_tickets, *returned) if t != ticket),
    )

    def route(a: str, b: str) -> int:
        return next(r.id for r in board.routes if {r.a, r.b} == {a, b})

    state = effects.claim_route(state, route("Denver", "Santa Fe"), 0)
    state = effects.claim_route(state, route("El Paso", "Santa Fe"), 1)
    if lend:
        state = state.with_variant("tp_stations", ((board.location_id("Santa Fe"),), ()))
    return state, ticket


def test_a_station_lends_a_route_that_completes_a_ticket_on_the_sheet() -> None:
    state, ticket = _station_position(lend=True)
    sheet = ttr_core.score_sheets(state)[0]
    (line,) = [line for line in sheet.lines if line.kind == "ticket"]
    assert line.ref == ticket and line.points == 4 and line.label.endswith("completed")
    assert (sheet.tickets_completed, sheet.tickets_failed) == (1, 0)
    kept = [line.points for line in sheet.lines if line.kind == "tp_stations"]
    assert kept == [3 * (STATIONS - 1)]
    plain, _ = _station_position(lend=False)
    assert ttr_core.score_sheets(plain)[0].tickets_completed == 0
    # The station is drawn, from the state and from a view alike.
    santa_fe = state.board.location_id("Santa Fe")
    token = f'<g class="token token-station" data-location="{santa_fe}" data-owner="0">'
    assert token in ttr_core.render.svg(state)
    assert token in ttr_core.render.svg(ttr_core.player_view(state, 1))


def test_a_station_is_a_turn_action_with_a_price() -> None:
    state, _ = _station_position(lend=False)
    builds = [a for a in ttr_core.legal_actions(state) if isinstance(a, BuildStation)]
    assert builds and all(a.player == state.current_player for a in builds)
    build = builds[0]
    built = ttr_core.apply(state, build)
    seat = build.player
    assert stations(built)[seat] == (build.location,)
    assert state.players[seat].hand.total - built.players[seat].hand.total == 1
    assert built.current_player != seat
    assert "built a station at " in ttr_core.describe(state, build)
    assert not any(  # a location holds one station
        isinstance(a, BuildStation) and a.location == build.location
        for a in ttr_core.legal_actions(built)
    )


# ---------------------------------------------------------------------------
# OpenSpiel's and PettingZoo's own checks
# ---------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _quiet_generated_tickets() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        yield


def test_openspiel_random_sim_test_passes_on_the_package() -> None:
    params = {"map": MAP, "players": 2, "variants": "+".join(VARIANTS)}
    game = pyspiel.load_game(ttr_core.openspiel.SHORT_NAME, params)
    core = ttr_core.action_space(game.board, 2, [])
    assert game.num_distinct_actions() == game.space.size > core.size
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    rng = random.Random(3)
    met: set[str] = set()
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            legal = state.legal_actions()
            met.update(state.action_to_string(a) for a in legal if a >= core.size)
            state.apply_action(rng.choice(legal))
    assert {text.split(":")[0] for text in met} == {"tp_tunnels", "tp_stations", "tp_rewards"}


#: What api_test says of any environment whose observations are dicts with an
#: action mask (as in tests/test_pettingzoo.py).
EXPECTED_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


def test_pettingzoo_api_and_seed_tests_pass_on_the_package() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(ttr_core.pettingzoo.env(MAP, 2, variants=VARIANTS), num_cycles=1000)
    assert {str(w.message) for w in caught} <= EXPECTED_WARNINGS
    seed_test(lambda: ttr_core.pettingzoo.env(MAP, 2, variants=VARIANTS), num_cycles=1000)
    game = ttr_core.pettingzoo.env(MAP, 3, variants=VARIANTS)
    core = ttr_core.action_space(game.unwrapped.board, 3, [])
    taken: Counter[str] = Counter()
    game.reset(seed=1)
    rng = np.random.default_rng(1)
    for _agent in game.agent_iter():
        observation, _, termination, truncation, _ = game.last()
        if termination or truncation:
            game.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        state = game.unwrapped.game
        assert sorted(ttr_core.legal_action_ids(state)) == list(legal)
        action = int(rng.choice(legal))
        if action >= core.size:
            taken[type(ttr_core.action_from_id(state, action)).__name__] += 1
        game.step(action)
    assert taken["BuildStation"] and taken["PayTunnel"] + taken["GiveUpTunnel"], taken


# ---------------------------------------------------------------------------
# The heuristic bots
# ---------------------------------------------------------------------------


@pytest.fixture
def _not_strict() -> Iterator[None]:
    """Bot games check the bots, not the hooks: strict hook checks off."""
    previous = ttr_core.set_strict(False)
    yield
    ttr_core.set_strict(previous)


@pytest.mark.usefixtures("_not_strict")
def test_the_bots_attempt_tunnels_pay_or_give_up_build_stations_and_beat_random(
    board: ttr_core.Board,
) -> None:
    stations_built = 0
    for bot in BOTS:
        result = ttr_core.simulation.simulate(
            MAP,
            2,
            [bot, "random"],
            GAMES,
            seed=3,
            variants=VARIANTS,
            workers=1,
            per_game=True,
            records=True,
        )
        line = result.summary.agent(bot)
        wins = line.win_rate.value * GAMES
        assert wins >= WINS, f"{bot} won {wins:g} of {GAMES} heads-up games"
        assert line.score.mean > result.summary.agent("random").score.mean
        taken: Counter[str] = Counter()
        for game in result.games:
            assert game.record is not None
            record: GameRecord = ttr_core.from_json(game.record, GameRecord, board=board)
            states = ttr_core.replay(record, board=board)
            before = next(states)
            for action, after in zip(record.actions, states, strict=True):
                if game.agents[action.player] == bot:
                    if type(action) is ClaimRoute and is_tunnel(board, action.route):
                        taken["tunnel"] += 1
                    elif isinstance(action, GiveUpTunnel):
                        # A bot gives up only when it cannot pay.
                        assert list(ttr_core.legal_actions(before)) == [action]
                        taken["give up"] += 1
                    elif isinstance(action, PayTunnel | BuildStation):
                        taken[type(action).__name__] += 1
                before = after
        assert taken["tunnel"] >= 5 and taken["PayTunnel"] and taken["give up"], (bot, taken)
        assert taken["tunnel"] == taken["PayTunnel"] + taken["give up"], (bot, taken)
        stations_built += taken["BuildStation"]
    assert stations_built >= 1
