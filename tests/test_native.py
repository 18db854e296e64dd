"""The compiled rules engine (ttr_core.native): the Python kernel's games, in C.

The differential test plays random games on both engines in lock step and
compares every legal list (actions and ids), every state (every seat's hand,
tickets and known cards, the decks and piles: public and hidden parts) and
the engine's own count at the end against ``final_scores``: 1,000 games of
New York and of USA with their variants, fewer of the others (about 5,000 in
all); ``nox -s differential_native`` plays a hundred times as many (100,000
of New York and of USA).
"""

from __future__ import annotations

import copy
import os
import pickle
import random
import threading
from collections.abc import Sequence
from typing import Any

import pytest

import ttr_core
from ttr_core import (
    ArgumentError,
    DrawBlind,
    GameNotOverError,
    IllegalAction,
    NativeRule,
    Pass,
    Playout,
    PluginError,
    ScoreLine,
    hookimpl,
)
from ttr_core import native as native_package
from ttr_core.native import engine as native
from ttr_core.rules.action_ids import legal_action_ids
from ttr_core.rules.scoring import utilities

pytestmark = pytest.mark.skipif(
    not native_package.available,
    reason="the native engine was not built (nox -s tests builds and requires it)",
)

#: (map, players, variants or None for the map's defaults, options, games): every
#: map the engine plays with its variants, and every map without variants.
CONFIGS: list[tuple[str, int, Sequence[str] | None, dict[str, Any] | None, int]] = [
    ("newyork", 2, None, None, 1000),
    ("newyork", 3, None, None, 300),
    ("newyork", 4, None, {"attractions": {"points_per_attraction": 3}}, 200),
    ("newyork", 2, [], None, 300),
    ("usa", 2, None, None, 1000),
    ("usa", 3, ["longest_route", "globetrotter"], {"longest_route": {"bonus": 0}}, 100),
    ("usa", 4, None, None, 150),
    ("usa", 5, ["globetrotter"], None, 60),
    ("nederland", 3, [], None, 150),  # staggered starting scores
    ("nederland", 2, None, None, 300),  # tolls and loans
    ("nederland", 4, None, {"tolls": {"start_value": 6, "loan_penalty": 7}}, 150),
    ("amsterdam", 2, [], None, 300),
    ("amsterdam", 2, None, None, 300),  # merchandise
    ("amsterdam", 4, None, {"merchandise": {"cards": 3}}, 150),  # the deck runs out
    ("nederland", 2, ["tolls", "neutral"], None, 300),  # the neutral player
    (
        "nederland",
        2,
        ["tolls", "neutral"],
        {"neutral": {"cars": 7}, "tolls": {"start_value": 4}},
        150,
    ),
    ("europe", 4, [], None, 100),  # starting tickets not kept go to the box
    ("europe", 4, None, None, 300),  # tunnels, ferries, stations, long tickets, the Express
    ("europe", 3, None, {"tunnels": {"reveal": 2}, "stations": {"stations": 1, "points": 9}}, 150),
    ("europe", 5, ["tunnels", "stations", "longest_route"], {"stations": {"stations": 5}}, 60),
    ("switzerland", 2, None, None, 200),  # tunnels and the longest path
    ("nordiccountries", 3, ["tunnels", "ferries", "globetrotter"], None, 100),
    ("india", 3, ["ferries", "longest_route"], None, 100),
    ("switzerland", 3, [], None, 150),
    ("nordiccountries", 3, [], None, 150),
    ("pennsylvania", 4, [], None, 100),
    ("india", 4, [], None, 100),
]
#: ``nox -s differential_native`` sets it: games per map, shared among the map's
#: sets (each set plays at least its default share).
PER_MAP = int(os.environ.get("TTR_NATIVE_DIFFERENTIAL_PER_MAP", "0"))


def games_of(map: str, games: int) -> int:
    """The games a set of ``map`` plays: its default share, or its part of ``PER_MAP``."""
    sets = sum(1 for config in CONFIGS if config[0] == map)
    return max(games, -(-PER_MAP // sets))


def lock_step(seed: int, map: str, players: int, variants: Any, options: Any) -> int:
    """One random game on both engines, compared all the way; its length."""
    state = ttr_core.new_game(map, players, seed=seed, variants=variants, options=options)
    python = Playout(state, engine="python")
    compiled = Playout(state, engine="native")
    assert compiled.engine == "native" and python.engine == "python"
    rng = random.Random(seed)
    steps = 0
    while True:
        legal = python.legal_actions()
        assert compiled.legal_actions() == legal, f"step {steps}: legal actions differ"
        ids = compiled.legal_ids()
        assert ids == python.legal_ids(), f"step {steps}: legal ids differ"
        assert compiled.snapshot() == python.snapshot(), f"step {steps}: states differ"
        assert compiled.current_player == python.current_player
        assert compiled.ply == python.ply
        assert compiled.is_over() == python.is_over()
        if not legal:
            break
        i = rng.randrange(len(legal))
        python.apply(legal[i])
        if steps % 2:
            compiled.apply_id(ids[i])
        else:
            compiled.apply(compiled.legal_actions()[i])
        steps += 1
    scores = python.scores()
    assert compiled.scores() == scores
    assert compiled.totals() == tuple(sheet.total for sheet in scores.sheets)
    assert compiled.returns() == tuple(utilities(scores.winners, players))
    return steps


@pytest.mark.parametrize(
    ("map", "players", "variants", "options", "games"),
    CONFIGS,
    ids=[
        f"{m}:{p}:{'default' if v is None else '+'.join(v) or 'none'}" for m, p, v, _, _ in CONFIGS
    ],
)
def test_the_native_engine_plays_the_python_kernels_games(
    map: str, players: int, variants: Any, options: Any, games: int
) -> None:
    for seed in range(games_of(map, games)):
        assert lock_step(seed, map, players, variants, options) > 0


def test_random_playout_is_the_same_game_on_both_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    for map, players, variants in [
        ("newyork", 2, None),
        ("usa", 4, None),
        ("europe", 3, []),
        ("europe", 4, None),
    ]:
        assert Playout.new(map, players, seed=0, variants=variants).engine == "native"
        for seed in range(6):
            native_result = ttr_core.random_playout(map, players, seed=seed, variants=variants)
            monkeypatch.setenv(native.ENGINE_ENV, "python")
            python_result = ttr_core.random_playout(map, players, seed=seed, variants=variants)
            monkeypatch.delenv(native.ENGINE_ENV)
            assert native_result == python_result
            assert native_result.history == python_result.history


def test_random_playout_keeps_its_action_bound_on_the_native_engine() -> None:
    with pytest.raises(ArgumentError, match="did not end within max_actions=10 actions"):
        ttr_core.random_playout("newyork", 2, seed=3, max_actions=10)
    length = ttr_core.random_playout("newyork", 2, seed=3).actions
    with pytest.raises(ArgumentError):  # the bound reached by the last action: refused, as before
        ttr_core.random_playout("newyork", 2, seed=3, max_actions=length)
    assert ttr_core.random_playout("newyork", 2, seed=3, max_actions=length + 1).actions == length


# -- which engine plays ------------------------------------------------------------------


def test_auto_plays_natively_where_every_variant_declares_its_rules() -> None:
    assert Playout.new("newyork", 2, seed=1).engine == "native"
    assert Playout.new("usa", 4, seed=1).engine == "native"
    assert Playout.new("europe", 4, seed=1, variants=[]).engine == "native"
    assert Playout.new("europe", 4, seed=1).engine == "native"
    assert Playout.new("switzerland", 3, seed=1).engine == "native"
    assert Playout.new("amsterdam", 4, seed=1).engine == "native"
    assert Playout.new("nederland", 4, seed=1).engine == "native"
    assert Playout.new("nederland", 2, seed=1, variants=["tolls", "neutral"]).engine == "native"
    pennsylvania = Playout.new("pennsylvania", 4, seed=1)
    assert pennsylvania.engine == "python"
    reason = native_package.why_not(pennsylvania.snapshot())
    assert reason is not None and "'shares'" in reason and "declares no native rules" in reason
    assert native_package.why_not(ttr_core.new_game("usa", 2, seed=1)) is None


def test_the_engine_can_be_forced_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Playout.new("newyork", 2, seed=1, engine="python").engine == "python"
    with pytest.raises(ArgumentError, match="cannot run on the native engine: variant 'shares'"):
        Playout.new("pennsylvania", 3, seed=1, engine="native")
    monkeypatch.setenv(native.ENGINE_ENV, "python")
    assert Playout.new("newyork", 2, seed=1).engine == "python"
    assert Playout.new("newyork", 2, seed=1, engine="native").engine == "native"
    monkeypatch.setenv(native.ENGINE_ENV, "fast")
    with pytest.raises(ArgumentError, match="TTR_CORE_ENGINE must be one of auto, native, python"):
        Playout.new("newyork", 2, seed=1)


@pytest.mark.parametrize("engine", ["C", "", 3, None.__class__])
def test_a_bad_engine_is_refused_before_a_game_is_set_up(engine: Any) -> None:
    with pytest.raises(ArgumentError, match="engine must be one of auto, native, python"):
        Playout.new("newyork", 2, seed=1, engine=engine)


def test_why_not_takes_states_and_rules_only() -> None:
    state = ttr_core.new_game("newyork", 2, seed=1)
    assert native_package.why_not(state.rules) is None
    with pytest.raises(ArgumentError, match="GameState or GameRules"):
        native_package.why_not("newyork")


def test_a_state_the_engine_cannot_hold_plays_on_the_python_kernel() -> None:
    state = ttr_core.new_game("newyork", 2, seed=1)
    over = ttr_core.end_game(state, ttr_core.Termination.RESIGNATION, seat=0)
    assert Playout(over).engine == "python"
    with pytest.raises(ArgumentError, match=r"seat forfeited|ended by"):
        Playout(over, engine="native")


# -- the playout's contract ------------------------------------------------------------


def test_a_refused_action_raises_the_pure_apis_error_and_changes_nothing() -> None:
    play = Playout.new("newyork", 2, seed=5)
    while play.current_player is not None and play.snapshot().pending.kind != "turn":  # type: ignore[union-attr]
        play.apply(play.legal_actions()[0])
    before = play.snapshot()
    wrong_seat = ttr_core.DrawBlind(1 - before.current_player)  # type: ignore[operator]
    with pytest.raises(IllegalAction) as native_error:
        play.apply(wrong_seat)
    with pytest.raises(IllegalAction) as pure_error:
        ttr_core.apply(before, wrong_seat)
    assert native_error.value.reason == pure_error.value.reason
    assert str(native_error.value) == str(pure_error.value)
    assert play.snapshot() == before and play.legal_ids() == legal_action_ids(before)
    for bad in (10**9, -1, "0", 2.0, True):
        with pytest.raises((IllegalAction, ArgumentError)):
            play.apply_id(bad)  # type: ignore[arg-type]
    assert play.snapshot() is before
    not_legal = next(
        i for i in range(ttr_core.action_space(before.board, 2).size) if i not in play.legal_ids()
    )
    with pytest.raises(IllegalAction):
        play.apply_id(not_legal)
    assert play.snapshot() is before


def test_an_equal_action_that_is_not_the_listed_object_is_carried_out() -> None:
    play = Playout.new("newyork", 2, seed=2)
    twin = Playout.new("newyork", 2, seed=2, engine="python")
    for _ in range(30):
        action = copy.deepcopy(play.legal_actions()[-1])
        play.apply(action)
        twin.apply(twin.legal_actions()[-1])
        assert play.snapshot() == twin.snapshot()
    assert play.engine == "native"


def test_a_clone_plays_on_apart() -> None:
    play = Playout.new("usa", 3, seed=9)
    rng = random.Random(1)
    for _ in range(40):
        legal = play.legal_actions()
        play.apply(legal[rng.randrange(len(legal))])
    at = play.snapshot()
    twin = play.clone()
    assert twin.engine == "native" and twin.snapshot() == at
    while not twin.is_over():
        twin.apply(twin.legal_actions()[0])
    assert play.snapshot() == at and not play.is_over()
    again = play.clone()
    while not again.is_over():
        again.apply(again.legal_actions()[0])
    assert again.snapshot() == twin.snapshot() and again.scores() == twin.scores()


def test_scores_and_totals_wait_for_the_end() -> None:
    play = Playout.new("newyork", 2, seed=1)
    with pytest.raises(GameNotOverError):
        play.totals()
    assert play.returns() == (0.0, 0.0)


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_native_playout_pickles_and_copies_as_its_position(how: str) -> None:
    play = Playout.new("newyork", 2, seed=4)
    for _ in range(12):
        play.apply(play.legal_actions()[-1])
    twin = pickle.loads(pickle.dumps(play)) if how == "pickle" else copy.deepcopy(play)
    assert twin.engine == "native" and twin.snapshot() == play.snapshot()
    while not twin.is_over():
        twin.apply(twin.legal_actions()[0])
        play.apply(play.legal_actions()[0])
    assert twin.snapshot() == play.snapshot()


def test_native_playouts_in_many_threads_play_the_same_games(busy_switching: None) -> None:
    games = [(map, seed) for map in ("newyork", "usa") for seed in range(6)]
    alone = {g: ttr_core.random_playout(g[0], 2, seed=g[1]) for g in games}
    found: dict[tuple[str, int], Any] = {}
    errors: list[BaseException] = []

    def play(chunk: list[tuple[str, int]]) -> None:
        try:
            for g in chunk:
                found[g] = ttr_core.random_playout(g[0], 2, seed=g[1])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(games[i::4],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and found == alone


# -- declaring native rules ------------------------------------------------------------


class Liar:
    """A variant that scores 1 point per attraction but tells the engine 5."""

    @hookimpl
    def ttr_score_lines(self, state: ttr_core.GameState) -> list[list[ScoreLine]]:
        from ttr_core_plugins.attractions import attractions_touched

        return [
            [ScoreLine("liar", "Attractions", len(attractions_touched(state, seat)))]
            for seat in range(state.num_players)
        ]

    @hookimpl
    def ttr_native_rules(self, rules: ttr_core.GameRules) -> list[NativeRule]:
        places = tuple(x.name for x in rules.board.locations if x.extra.get("attraction"))
        return [NativeRule("places_touched", 5, places)]


class Silent:
    """A variant that scores and declares nothing native."""

    @hookimpl
    def ttr_score_lines(self, state: ttr_core.GameState) -> list[list[ScoreLine]]:
        return [[ScoreLine("silent", "Nothing", 0)] for _ in range(state.num_players)]


#: Routes of the New York map (a value per route for the rules that read one).
NY_ROUTES = len(ttr_core.load_map("newyork").routes)


class Bad:
    def __init__(self, answer: Any) -> None:
        self.answer = answer

    @hookimpl
    def ttr_native_rules(self, rules: ttr_core.GameRules) -> Any:
        return self.answer


@pytest.fixture
def variant() -> Any:
    names: list[str] = []

    def register(name: str, plugin: object) -> None:
        ttr_core.register_variant(name, plugin)
        names.append(name)

    yield register
    for name in names:
        ttr_core.unregister_variant(name)


def test_a_variant_that_scores_without_a_declaration_keeps_its_games_in_python(
    variant: Any,
) -> None:
    variant("silent", Silent())
    play = Playout.new("newyork", 2, seed=1, variants=["silent"])
    assert play.engine == "python"
    assert "variant 'silent' changes play or scoring (score_lines)" in (
        native_package.why_not(play.snapshot()) or ""
    )


def test_the_kit_catches_a_native_declaration_that_is_not_what_the_variant_does(
    variant: Any,
) -> None:
    from ttr_core.testing import GamePlay, check_game, invariants_for

    def played(seed: int, variants: Any) -> GamePlay:
        states = [ttr_core.new_game("newyork", 2, seed=seed, variants=variants)]
        actions = []
        rng = random.Random(seed)
        while not states[-1].is_over:
            legal = ttr_core.legal_actions(states[-1])
            actions.append(legal[rng.randrange(len(legal))])
            states.append(ttr_core.apply(states[-1], actions[-1]))
        return GamePlay(tuple(states), tuple(actions))

    variant("liar", Liar())
    seen = []
    for seed in range(8):
        play = played(seed, ["liar"])
        chosen = list(invariants_for(play.states[0].rules, only=["native_agrees"]))
        assert chosen
        seen += [v.message for v in check_game(play, chosen)]
    assert any("other totals than final_scores" in message for message in seen)
    honest = played(0, None)
    chosen = list(invariants_for(honest.states[0].rules, only=["native_agrees"]))
    assert check_game(honest, chosen) == []


@pytest.mark.parametrize(
    ("answer", "fragment"),
    [
        ("places_touched", "must return None or up to 8 ttr_core.NativeRule"),
        ([NativeRule("teleport", 1)], "the kind str 'teleport'"),
        ([NativeRule("most_tickets", -1)], "returned points int -1"),
        ([NativeRule("most_tickets", 1, tie_break=1)], "tie_break int 1"),  # type: ignore[arg-type]
        ([NativeRule("places_touched", 1, ("Atlantis",))], "names of the board's locations"),
        ([object()], "a ttr_core.NativeRule"),
        ([NativeRule("most_tickets", 1, tie_break=True)], "breaks no tie"),
        ([NativeRule("claim_min_wilds", per_route=(0,) * 3)], "an int from 0 to the route's"),
        ([NativeRule("claim_min_wilds", per_route=(9,) * NY_ROUTES)], "an int from 0 to the"),
        ([NativeRule("tunnel", count=-1)], "returned count int -1: a whole number from 0"),
        ([NativeRule("tunnel", per_route=(2,) * NY_ROUTES)], "an int from 0 to 1 per route"),
        (
            [NativeRule("tunnel", count=1, per_route=(0,) * NY_ROUTES, actions=(DrawBlind(0),))],
            "tunnel: 3 actions, not 1",
        ),
        (
            [NativeRule("tunnel", per_route=(0,) * NY_ROUTES, actions=(DrawBlind(0),) * 2)],
            "a record class",
        ),
        (
            [
                NativeRule(
                    "tunnel",
                    per_route=(0,) * NY_ROUTES,
                    actions=(DrawBlind(0),) * 2,
                    record=tuple,
                )
            ],
            "the decision's kind",
        ),
        (
            [
                NativeRule(
                    "tunnel",
                    per_route=(0,) * NY_ROUTES,
                    actions=(DrawBlind(0),) * 2,
                    record=tuple,
                    decision="bad.pay",
                )
            ],
            "has no id in the game's action space",
        ),
        ([NativeRule("stations", count=1, actions=(Pass(0),))], "stations: "),
        ([NativeRule("regular_draws", tickets=(999,))], "ticket ids of the map"),
        ([NativeRule("regular_draws", per_route=(0,) * NY_ROUTES)], "no per_route values"),
        ([NativeRule("most_tickets", actions=(Pass(0),))], "0 actions, not 1"),
        ([NativeRule("neutral_owner", per_ticket=((0,),))], "a tuple of route ids per ticket"),
        ([NativeRule("most_tickets", round=3)], "no per_ticket, round or read"),
        ([NativeRule("claim_tokens", ranks=(1, -1))], "returned ranks"),
        ([NativeRule("tunnel", ranks=(5,))], "tunnel: no ranks"),
        ([NativeRule("claim_tokens", per_route=(0,) * NY_ROUTES)], "the variant state key"),
        (
            [NativeRule("route_tolls", per_route=(0,) * NY_ROUTES, key="bad")],
            "a record class",
        ),
        (
            [NativeRule("most_tickets", 1, views=(("bad.x", "asked"),))],
            "most_tickets: views holds pairs (view key, number), the numbers of the kind: none",
        ),
        (
            [NativeRule("regular_draws", views=(("bad.x", ["held"]),))],  # unhashable
            "views holds pairs",
        ),
        (
            [
                NativeRule(
                    "claim_tokens",
                    per_route=(0,) * NY_ROUTES,
                    key="bad",
                    record=tuple,
                    views=(("bad.x", "held"), ("bad.x", "supply")),
                )
            ],
            "a view key named twice in views",
        ),
        (
            [
                NativeRule(
                    "claim_tokens",
                    per_route=(0,) * NY_ROUTES,
                    key="bad",
                    record=tuple,
                    views=(("bad.x", "loans"),),
                )
            ],
            "the numbers of the kind: held, supply",
        ),
    ],
)
def test_bad_native_declarations_are_refused_with_the_variants_name(
    variant: Any, answer: Any, fragment: str
) -> None:
    variant("bad", Bad(answer))
    with pytest.raises(PluginError, match="variant 'bad'") as err:
        Playout.new("newyork", 2, seed=1, variants=["attractions", "bad"])
    assert fragment in str(err.value) and err.value.hook == "ttr_native_rules"


def test_declarations_the_engine_cannot_combine_keep_the_game_in_python(variant: Any) -> None:
    variant("bad", Bad([NativeRule("longest_trail", 3)]))
    play = Playout.new("usa", 2, seed=1, variants=["longest_route", "bad"])
    assert play.engine == "python"
    assert "two variants declare the native rule 'longest_trail'" in (
        native_package.why_not(play.snapshot()) or ""
    )


# -- chance and random play --------------------------------------------------------------


def test_the_engines_shuffle_seed_is_the_kernels_generator() -> None:
    from ttr_core.rules.kernel.work import shuffler

    for seed, number in [(0, 0), (1, 3), (-5, 1), (10**30, 7), (123456789, 99)]:
        data = native.shuffle_seed(seed, number)
        rebuilt = random.Random(int.from_bytes(data, "big"))
        assert rebuilt.getstate() == shuffler(seed, number).getstate()
    assert native.key_words(0) == (0,) and native.key_words(-(2**32) - 5) == (5, 1)


def test_the_engines_sha512_is_hashlibs() -> None:
    import hashlib

    from ttr_core.native import _engine

    assert _engine is not None
    chooser = random.Random(5)
    for size in [*range(0, 300), 1000, 4096]:  # every padding case, one and more blocks
        data = chooser.randbytes(size)
        assert _engine.sha512(data) == hashlib.sha512(data).digest(), size


@pytest.mark.parametrize("seed", [0, 7, 10**30, 2**256 - 1])
def test_the_engine_seeds_its_shuffles_as_the_python_reference_does(seed: int) -> None:
    # The engine makes each shuffle's seed itself (the text, its SHA-512) from the
    # game's seed; given shuffle_seed, the Python reference, it shuffles the same.
    from functools import partial

    from ttr_core.native import _engine

    assert _engine is not None
    config = native.prepared(ttr_core.new_game("newyork", 2, seed=0).rules).config
    shuffles = 0
    for game in range(10):  # until a game has shuffled the discard pile in
        own = _engine.Game(config, seed)
        reference = _engine.Game(config, partial(native.shuffle_seed, seed))
        own.deal(seed)
        reference.deal(partial(native.shuffle_seed, seed))
        chooser = random.Random(game)
        while not own.over:
            assert own.export() == reference.export()
            ids = own.legal()
            choice = ids[chooser.randrange(len(ids))]
            own.apply(choice)
            reference.apply(choice)
        assert own.export() == reference.export()
        shuffles = own.export()[0][15]  # the deal's two, then the discard pile's
        if shuffles > 2:
            break
    assert shuffles > 2
    assert (
        ttr_core.new_game("newyork", 2, seed=seed)
        == Playout.deal_like(ttr_core.new_game("newyork", 2, seed=0), seed).snapshot()
    )


@pytest.mark.parametrize("seed", [0, 7, -3, 2**40 + 1, 10**700])
def test_play_random_makes_random_randoms_choices_whichever_way_it_is_seeded(seed: int) -> None:
    state = ttr_core.new_game("usa", 3, seed=4)
    by_seed = Playout(state).play_random(seed, 100_000)
    chooser = random.Random(seed)
    by_object = Playout(state).play_random(chooser, 100_000)
    python_chooser = random.Random(seed)
    by_python = Playout(state, engine="python").play_random(python_chooser, 100_000)
    assert by_seed == by_object == by_python
    assert chooser.getstate() == python_chooser.getstate()  # left as the loop leaves it
    assert Playout(state).rollout(seed) == len(by_seed)


@pytest.mark.parametrize("drawn", [0, 200, 226, 227, 600, 623])
def test_the_engines_generator_is_left_as_pythons_wherever_its_round_stands(drawn: int) -> None:
    # The engine makes a round's words as they are drawn (CPython all at once):
    # handed back after any number of draws, the generator is CPython's.
    state = ttr_core.new_game("usa", 2, seed=drawn)
    for actions in (1, 2, 7, 30, 150, 400):
        native_rng, python_rng = random.Random(drawn), random.Random(drawn)
        for rng in (native_rng, python_rng):
            for _ in range(drawn):
                rng.getrandbits(32)
        by_native = Playout(state).play_random(native_rng, actions)
        by_python = Playout(state, engine="python").play_random(python_rng, actions)
        assert by_native == by_python
        assert native_rng.getstate() == python_rng.getstate()
        assert native_rng.random() == python_rng.random()


def test_a_clone_rolls_out_apart_and_the_same_each_time() -> None:
    play = Playout.new("newyork", 2, seed=8)
    play.play_random(3, 20)
    at = play.snapshot()
    lengths = {play.clone().rollout(11) for _ in range(3)}
    assert len(lengths) == 1 and play.snapshot() is at
    twin = play.clone()
    twin.rollout(11)
    python = Playout(at, engine="python")
    python.rollout(11)
    assert twin.snapshot() == python.snapshot()


@pytest.mark.parametrize("engine", ["native", "python"])
def test_legal_mask_marks_the_legal_ids(engine: str) -> None:
    play = Playout.new("newyork", 2, seed=6, engine=engine)
    size = ttr_core.action_space(play.snapshot().board, 2).size
    for _ in range(25):
        mask = play.legal_mask()
        assert isinstance(mask, bytearray) and len(mask) == size
        assert [i for i, bit in enumerate(mask) if bit] == sorted(play.legal_ids())
        out = bytearray(b"\x07" * size)
        assert play.legal_mask(out) is out and out == mask
        play.apply_id(play.legal_ids()[-1])
    for bad in (
        bytearray(size - 1),
        bytes(size),
        "x" * size,
        memoryview(bytearray(size * 4)).cast("i"),
    ):
        with pytest.raises(ArgumentError, match="out must be a writable"):
            play.legal_mask(bad)


def test_legal_mask_writes_into_a_numpy_array() -> None:
    numpy = pytest.importorskip("numpy")
    play = Playout.new("usa", 4, seed=2)
    mask = numpy.zeros(ttr_core.action_space(play.snapshot().board, 4).size, dtype=bool)
    assert play.legal_mask(mask) is mask
    assert sorted(numpy.flatnonzero(mask).tolist()) == sorted(play.legal_ids())


@pytest.mark.parametrize("junk", [None, "1", 1.5, True, object()])
def test_play_random_refuses_junk(junk: Any) -> None:
    play = Playout.new("newyork", 2, seed=1)
    with pytest.raises(ArgumentError):
        play.play_random(junk, 10)
    with pytest.raises(ArgumentError):
        play.rollout(1, junk)
    assert play.ply == 0


# -- the adapters on the compiled engine ---------------------------------------------------


def _pettingzoo_game(seed: int, map: str, players: int) -> list[Any]:
    numpy = pytest.importorskip("numpy")
    from ttr_core.pettingzoo import env

    game = env(map=map, players=players)
    game.reset(seed=seed)
    chooser = random.Random(seed)
    seen: list[Any] = []
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        seen.append(
            (agent, observation["observation"].tobytes(), observation["action_mask"].tobytes())
        )
        seen.append((reward, termination, truncation, dict(info)))
        if termination or truncation:
            game.step(None)
            continue
        legal = numpy.flatnonzero(observation["action_mask"])
        game.step(int(legal[chooser.randrange(len(legal))]))
    seen.append(game.unwrapped.game)
    return seen


@pytest.mark.parametrize(("map", "players"), [("newyork", 2), ("usa", 4), ("europe", 3)])
def test_the_pettingzoo_environment_is_the_same_on_both_engines(
    map: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    for seed in range(4):
        native_game = _pettingzoo_game(seed, map, players)
        monkeypatch.setenv(native.ENGINE_ENV, "python")
        python_game = _pettingzoo_game(seed, map, players)
        monkeypatch.delenv(native.ENGINE_ENV)
        assert native_game == python_game


def _openspiel_game(seed: int, map: str, players: int) -> list[Any]:
    pyspiel = pytest.importorskip("pyspiel")
    import ttr_core.openspiel  # noqa: F401 - registers python_ttr

    game = pyspiel.load_game("python_ttr", {"map": map, "players": players, "seed": seed})
    state = game.new_initial_state()
    chooser = random.Random(seed)
    seen: list[Any] = []
    while not state.is_terminal():
        seat = state.current_player()
        seen.append(
            (
                seat,
                tuple(state.observation_tensor(seat)),
                tuple(state.information_state_tensor(seat)),
                state.information_state_string(seat),
                state.legal_actions(),
            )
        )
        legal = state.legal_actions()
        state.apply_action(legal[chooser.randrange(len(legal))])
        if chooser.random() < 0.05:
            state = state.clone()
    seen.append((state.returns(), state.history()))
    return seen


@pytest.mark.parametrize(("map", "players"), [("newyork", 2), ("usa", 3), ("europe", 3)])
def test_the_openspiel_game_is_the_same_on_both_engines(
    map: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    for seed in range(3):
        native_game = _openspiel_game(seed, map, players)
        monkeypatch.setenv(native.ENGINE_ENV, "python")
        python_game = _openspiel_game(seed, map, players)
        monkeypatch.delenv(native.ENGINE_ENV)
        assert native_game == python_game


@pytest.mark.parametrize(("map", "players", "variants"), [("newyork", 3, None), ("europe", 2, [])])
def test_the_encoder_observes_a_native_playout_number_for_number(
    map: str, players: int, variants: Any
) -> None:
    numpy = pytest.importorskip("numpy")
    from ttr_core.observation import observation_encoder

    for seed in range(12):
        play = Playout.new(map, players, seed=seed, variants=variants)
        assert play.engine == "native"
        rules = play.snapshot().rules
        options = {name: dict(values) for name, values in rules.options}
        encoder = observation_encoder(rules.board, players, rules.variants, options)
        out = numpy.full(encoder.size, 7.0, dtype=numpy.float32)
        rng = random.Random(seed)
        while True:
            for seat in range(players):
                assert encoder.observe(play, seat, out) is out
                want = numpy.array(encoder.encode_state(play.snapshot(), seat), numpy.float32)
                assert out.tobytes() == want.tobytes()
            if play.is_over():
                break
            ids = play.legal_ids()
            play.apply_id(ids[rng.randrange(len(ids))])
        python = Playout(play.snapshot(), engine="python")
        assert list(encoder.observe(python, 0)) == list(encoder.observe(play, 0))
    with pytest.raises(ArgumentError, match="float32 buffer"):
        encoder.observe(play, 0, numpy.zeros(encoder.size, dtype=numpy.float64))
    with pytest.raises(ArgumentError, match="seat must be"):
        encoder.observe(play, players, numpy.zeros(encoder.size, dtype=numpy.float32))


def test_the_engine_refuses_to_load_values_it_cannot_hold() -> None:
    turn = Playout(ttr_core.new_game("newyork", 2, seed=1))
    turn.play_random(1, 6)
    while turn.snapshot().pending.kind != "turn":  # type: ignore[union-attr]
        turn.apply(turn.legal_actions()[0])
    state = turn.snapshot()
    game = native.new_game_object(state)
    before = game.export()
    core, seats, play = before
    bad_cores = [
        (core[0] + (99,), *core[1:]),  # a card of no kind
        (*core[:3], (999,), *core[4:]),  # a ticket of no id
        (*core[:5], (5,) * len(core[5]), *core[6:]),  # routes owned by no seat
    ]
    for bad in bad_cores:
        with pytest.raises(ValueError, match=r"cannot hold|out of range"):
            game.load(bad, seats, play)
        assert game.export() == before  # nothing half loaded
    with pytest.raises(ValueError):
        game.load(core, ((*seats[0][:5], (250,)), seats[1]), play)  # a route of no id
    assert game.export() == before
    # Values in range that no game reaches: the loader's own check, by name.
    first = seats[0]
    owned = tuple(0 if r == 3 else o for r, o in enumerate(core[5]))
    unreached = [
        ((core[0][1:], *core[1:]), seats, "cards that are not the game's"),
        ((*core[:3], (*core[3], first[4][0]), *core[4:]), seats, "tickets that are not"),
        (core, ((*first[:5], (3,)), seats[1]), "routes that are not its own"),
        ((*core[:5], owned, *core[6:]), seats, "owned by no seat's list"),
        (core, ((*first[:2], 40000, *first[3:]), seats[1]), "cars or a score"),
        ((*core[:8], 256, *core[9:]), seats, "no seat's"),
        ((*core[:12], 1 << 31, *core[13:]), seats, "counters beyond"),
        ((*core[:16], 5, *core[17:]), seats, "cannot hold"),  # no such ending
        ((*core[:9], (1,), *core[10:]), seats, "tickets on offer outside"),
    ]
    assert first[4] and core[7] == 0  # a seat's tickets, a turn pending
    for bad, bad_seats, message in unreached:
        with pytest.raises(ValueError, match=message):
            game.load(bad, bad_seats, play)
        assert game.export() == before
    # Variants' parts a game of these rules has not: a tunnel waiting, a station.
    nothing = ((), (), (), (), (), ())
    for at, part in [
        (0, (core[0][0], (), 0)),  # a tunnel waiting
        (1, ((0, 0, -1, 1, 1),)),  # a station
        (2, ((0, 0), 3)),  # tokens
        (3, ((1, 1), (0, 0), 0, 0)),  # tolls
        (4, (40, 1, -1, 0)),  # a neutral owner
        (5, ((0, 1), 0)),  # its choice
    ]:
        bad_play = (*nothing[:at], part, *nothing[at + 1 :])
        with pytest.raises(ValueError, match="cannot hold"):
            game.load(core, seats, bad_play)
        assert game.export() == before


def _hand_built() -> list[tuple[str, ttr_core.GameState]]:
    from ttr_core.model.state import Pending, replace_state

    state = ttr_core.new_game("newyork", 2, seed=3)
    turn = Playout(state)
    turn.play_random(1, 6)
    while turn.snapshot().pending.kind != "turn":  # type: ignore[union-attr]
        turn.apply(turn.legal_actions()[0])
    at = turn.snapshot()
    players = list(at.players)
    return [
        ("cards", replace_state(at, deck=(), discard=tuple(480 for _ in at.discard))),
        ("offer", replace_state(at, pending=Pending("keep_tickets", 0, (1, 2, 3, 4, 5), 1))),
        ("no seat's", replace_state(at, pending=Pending("turn", 256))),
        ("seed", replace_state(at, seed=10**300)),
        ("starting offers", replace_state(at, start_offers=((1,), (2,), (3,)))),
        ("routes", replace_state(at, players=(attrs_evolve(players[0], routes=(0,)), players[1]))),
        *_hand_built_europe(),
    ]


def _hand_built_europe() -> list[tuple[str, ttr_core.GameState]]:
    """Europe states whose tunnel decision or stations no game reaches."""
    from ttr_core_plugins.stations import Station
    from ttr_core_plugins.tunnels import PAY, TunnelWait

    from ttr_core.model.state import Pending, replace_state

    at = ttr_core.new_game("europe", 3, seed=3)
    turn = Playout(at)
    turn.play_random(2, 12)
    while turn.snapshot().pending.kind != "turn":  # type: ignore[union-attr]
        turn.apply(turn.legal_actions()[0])
    at = turn.snapshot()
    board = at.board
    plain = next(r for r in board.routes if not r.extra.get("tunnel"))
    tunnel = next(r for r in board.routes if r.extra.get("tunnel"))
    seat = at.current_player
    assert seat is not None

    def waiting(claim: ttr_core.ClaimRoute, revealed: Any, extra: Any) -> ttr_core.GameState:
        wait = TunnelWait(claim, revealed, extra)
        return replace_state(at, pending=Pending(PAY, seat, data=wait))

    def stations(*built: Station) -> ttr_core.GameState:
        return at.with_variant("stations", built)

    return [
        ("no tunnel", waiting(ttr_core.ClaimRoute(seat, plain.id, None, plain.length), (), 0)),
        ("names", waiting(ttr_core.ClaimRoute(seat, tunnel.id, None, tunnel.length), ("x",), 0)),
        ("asked", waiting(ttr_core.ClaimRoute(seat, tunnel.id, None, tunnel.length), (), 2)),
        ("data", replace_state(at, pending=Pending(PAY, seat, data="junk"))),
        ("twice", stations(Station(0, 0, None, 1, 1), Station(0, 1, None, 1, 1))),
        ("paid", stations(Station(0, 0, "red", 0, 2))),
        ("owner", stations(Station(0, 7, "red", 0, 1))),
        *_hand_built_accounts(),
    ]


def _hand_built_accounts() -> list[tuple[str, ttr_core.GameState]]:
    """Merchandise, tolls and a neutral player no game holds."""
    from ttr_core_plugins.merchandise import MerchandiseState
    from ttr_core_plugins.neutral import CHOOSE, NeutralState
    from ttr_core_plugins.tolls import TollState

    from ttr_core.model.state import Pending, replace_state

    amsterdam = ttr_core.new_game("amsterdam", 2, seed=1)
    nederland = ttr_core.new_game("nederland", 2, seed=1)
    neutral = ttr_core.new_game("nederland", 2, seed=1, variants=["tolls", "neutral"])
    turn = Pending("turn", 0)
    return [
        ("tokens", amsterdam.with_variant("merchandise", MerchandiseState((-1, 0), 17))),
        ("tolls", nederland.with_variant("tolls", TollState((30, 30), (0, "1")))),  # type: ignore[arg-type]
        ("marker", neutral.with_variant("neutral", NeutralState(2, 40, 3))),
        ("stopped", neutral.with_variant("neutral", NeutralState(2, 40, 1, None, "bored"))),
        ("owner", neutral.with_variant("neutral", NeutralState(5, 40, 1))),
        ("choice", replace_state(neutral, pending=Pending(CHOOSE, 1, data=((0, 1, 2), turn)))),
        ("resume", replace_state(neutral, pending=Pending(CHOOSE, 1, data=((0,), "turn")))),
    ]


def attrs_evolve(obj: Any, **changes: Any) -> Any:
    import attrs

    return attrs.evolve(obj, **changes)


@pytest.mark.parametrize("case", range(20))
def test_a_state_no_game_reaches_plays_on_the_python_kernel(case: int) -> None:
    _, state = _hand_built()[case]
    reason = native_package.why_not(state)
    assert reason is not None
    with pytest.raises(ArgumentError, match="cannot run on the native engine"):
        Playout(state, engine="native")
    assert Playout(state).engine == "python"


class Cycling(random.Random):
    """A generator of its own: the engine may not draw its numbers itself."""

    def getrandbits(self, k: int) -> int:
        return super().getrandbits(k) ^ (1 if k > 1 else 0)


@pytest.mark.parametrize("make", [lambda: Cycling(5), lambda: random.SystemRandom()])
def test_play_random_uses_a_generator_of_its_own_as_the_python_kernel_does(make: Any) -> None:
    state = ttr_core.new_game("newyork", 2, seed=2)
    play = Playout(state)
    played = play.play_random(make(), 100_000)
    assert play.is_over() and play.engine == "native"
    if not isinstance(make(), random.SystemRandom):
        python = Playout(state, engine="python")
        assert python.play_random(make(), 100_000) == played
        assert python.snapshot() == play.snapshot()


def test_the_engine_refuses_a_map_with_more_action_ids_than_it_lists() -> None:
    from ttr_core.native import _engine

    assert _engine is not None
    core = (2, 13, 5, 2, 12, 2, 3, 1, 2, 0, 0, 0, 4)
    routes = tuple((-1, 20, -1, i % 4, (i + 1) % 4, 0) for i in range(75))
    points = tuple(range(21))
    scoring = (3, 0, (), -1, 0, -1)
    with pytest.raises(ValueError, match="action ids, more than"):
        _engine.Config(core, (routes, points), (), scoring)


def test_a_batch_step_takes_each_game_once_and_int64_ids() -> None:
    numpy = pytest.importorskip("numpy")
    from ttr_core.vector import VectorGames

    games = VectorGames("newyork", 2, count=2, seed=1)
    _, masks, _ = games.reset()
    assert games._batch is not None
    before = games.states()
    one = games._batch[0]
    actions = numpy.array([numpy.flatnonzero(m)[0] for m in masks], dtype=numpy.int64)
    arrays = (games.observations, games.masks, games.rewards, games.done, games.seats)
    with pytest.raises(ValueError, match="a game twice"):
        native.step_batch((one, one), actions, *arrays)
    with pytest.raises(ValueError, match="wrong size"):
        native.step_batch(games._batch, actions.astype(numpy.float64), *arrays)
    assert games.states() == before
    # Clones are games of their own in a batch (each taken once), stepped as the originals.
    for _ in range(50):
        clones = tuple(game.clone() for game in games._batch)
        native.step_batch(clones, actions, *arrays)
        assert [c.export() for c in clones] != [g.export() for g in games._batch]
    native.step_batch(games._batch, actions, *arrays)
    assert [c.export() for c in clones] == [g.export() for g in games._batch]


@pytest.mark.parametrize(
    ("map", "players", "variants"),
    [("newyork", 2, None), ("usa", 4, None), ("europe", 3, ["tunnels", "ferries"])],
)
def test_deal_like_deals_new_games_game(map: str, players: int, variants: Any) -> None:
    template = ttr_core.new_game(map, players, seed=0, variants=variants)
    for seed in (1, 12345, 2**200 + 7):
        expected = ttr_core.new_game(map, players, seed=seed, variants=variants)
        dealt = Playout.deal_like(template, seed)
        assert dealt.engine == "native"
        assert dealt.snapshot() == expected
        python = Playout.deal_like(template, seed, engine="python")
        assert python.engine == "python" and python.snapshot() == expected
        assert dealt.play_random(seed, 100_000) == python.play_random(seed, 100_000)
        assert dealt.snapshot() == python.snapshot()


def test_deal_like_falls_back_to_new_game_where_the_engine_does_not_deal() -> None:
    # Long tickets deal the starting offers their own way: new_game deals them.
    europe = ttr_core.new_game("europe", 4, seed=0)
    assert not native.deals(europe.rules)
    assert Playout.deal_like(europe, 5).snapshot() == ttr_core.new_game("europe", 4, seed=5)
    # A seed no game takes is refused as new_game refuses it.
    ny = ttr_core.new_game("newyork", 2, seed=0)
    for seed in (-3, 2**300):
        with pytest.raises(ArgumentError, match="seed must be a whole number"):
            Playout.deal_like(ny, seed)


@pytest.mark.parametrize("junk", [None, "3", 2.0, True])
def test_deal_like_refuses_junk(junk: Any) -> None:
    ny = ttr_core.new_game("newyork", 2, seed=0)
    with pytest.raises(ArgumentError, match="seed must be an int"):
        Playout.deal_like(ny, junk)
    with pytest.raises(ArgumentError, match="template must be a GameState"):
        Playout.deal_like(junk, 3)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="engine"):
        Playout.deal_like(ny, 3, engine="fast")


#: Games of random agents whose decisions meet every loophole a simulation counts
#: (found by playing: USA 5p seed 43 has a seat with only Pass).
SIMULATED = [
    ("usa", 5, None, (0, 18, 43)),
    ("newyork", 4, None, (9, 49)),
    ("amsterdam", 4, None, (21, 52)),
    ("europe", 3, ["tunnels", "stations", "ferries"], (1, 2)),
    ("nederland", 2, ["tolls", "neutral"], (3, 4)),
]


def test_a_simulations_random_agents_play_the_same_games_on_both_engines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from collections import Counter

    from ttr_core.agents import RandomAgent
    from ttr_core.simulation.games import LOOPHOLES, SimulationError, play_game

    met: Counter[str] = Counter()
    for map, players, variants, seeds in SIMULATED:
        for seed in seeds:
            state = ttr_core.new_game(map, players, seed=seed, variants=variants)
            agents = [RandomAgent()] * players
            assert Playout(state).engine == "native"
            native_game = play_game(state, agents, seed)
            short = play_game(state, agents, seed, keep_history=False)
            with monkeypatch.context() as python:
                python.setenv("TTR_CORE_ENGINE", "python")
                assert Playout(state).engine == "python"
                python_game = play_game(state, agents, seed)
                with pytest.raises(SimulationError, match="did not end within 30 actions"):
                    play_game(state, agents, seed, max_actions=30)
            assert native_game == python_game  # state, scores, actions, history, loopholes
            assert short.history == () and short.state == python_game.state
            assert short.loopholes == python_game.loopholes
            with pytest.raises(SimulationError, match="did not end within 30 actions"):
                play_game(state, agents, seed, max_actions=30)
            exact = native_game.actions  # the limit reached by the last action: refused
            with pytest.raises(SimulationError, match=f"did not end within {exact} actions"):
                play_game(state, agents, seed, max_actions=exact)
            met.update(python_game.loopholes)
    assert set(met) == set(LOOPHOLES) - {"stalemate"}
    # The engine forced on a game it cannot play: the simulation says why.
    with monkeypatch.context() as forced:
        forced.setenv("TTR_CORE_ENGINE", "native")
        shares = ttr_core.new_game("pennsylvania", 3, seed=1)
        with pytest.raises(SimulationError, match="cannot run on the native engine"):
            play_game(shares, [RandomAgent()] * 3, 1)


def test_a_view_key_two_variants_declare_is_refused_with_the_second_ones_name(
    variant: Any,
) -> None:
    routes = len(ttr_core.load_map("nederland").routes)
    rule = NativeRule(
        "claim_tokens",
        per_route=(0,) * routes,
        key="bad",
        record=tuple,
        views=(("tolls.loans", "held"),),
    )
    variant("bad", Bad([rule]))
    with pytest.raises(PluginError, match="variant 'bad'") as err:
        Playout.new("nederland", 2, seed=1, variants=["tolls", "bad"])
    assert "the view key 'tolls.loans' is declared by variant 'tolls' too" in str(err.value)
