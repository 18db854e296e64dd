"""The OpenSpiel adapter: ``python_ttr`` (docs/openspiel.md).

The default run plays a few games per configuration; ``TTR_ADAPTER_GAMES`` in
the environment (``nox -s adapters``) sets how many ``random_sim_test`` plays.
"""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
import threading
import warnings

import numpy as np
import pyspiel  # the [openspiel] extra, in [test]: CI runs these tests, never skips them
import pytest

import ttr_core
import ttr_core.openspiel as tos
import ttr_core.openspiel.core
import ttr_core.openspiel.game
from ttr_core.checking.probes import exchange_hand_and_deck, exchange_seat_ticket, hidden_changes

#: Games random_sim_test plays per configuration.
SIMS = int(os.environ.get("TTR_ADAPTER_GAMES") or 2)
HEAVY = "TTR_ADAPTER_GAMES" in os.environ

#: Every built-in map, with the player counts the adapter is tested with.
CONFIGS = [
    ("newyork", 2),
    ("nederland", 2),
    ("nederland", 3),
    ("usa", 2),
    ("amsterdam", 2),
    ("europe", 2),  # its default variants: tunnels, ferries, stations, long tickets, Express
    ("switzerland", 2),  # country tickets, tunnels, locomotives only on tunnels
    ("nordiccountries", 3),  # ferries, substitute cards (their own actions), the Globetrotter
    ("pennsylvania", 2),  # share choices (their own actions), the dummy shareholder
    ("india", 3),  # ferries, the Grand Tour (Mandala) bonus
    *([("usa", 5), ("newyork", 4), ("amsterdam", 4), ("europe", 5)] if HEAVY else []),
]


@pytest.fixture(autouse=True)
def _quiet_generated_tickets():
    # Amsterdam plays generated tickets and says so; that is not under test here.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        yield


def load(map_name: str = "newyork", players: int = 2, **params: object):
    return pyspiel.load_game(tos.SHORT_NAME, {"map": map_name, "players": players, **params})


def play(state, rng: random.Random, steps: int):
    """Apply up to ``steps`` random actions (chance outcomes included)."""
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(outcomes))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def seen(state, seat: int) -> tuple[object, ...]:
    """Everything the OpenSpiel API shows seat ``seat``."""
    return (
        state.observation_string(seat),
        tuple(state.observation_tensor(seat)),
        state.information_state_string(seat),
        tuple(state.information_state_tensor(seat)),
    )


# ---------------------------------------------------------------------------
# OpenSpiel's own checks
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("map_name", "players"), CONFIGS)
def test_random_sim_test(map_name: str, players: int) -> None:
    game = load(map_name, players)
    pyspiel.random_sim_test(game, num_sims=SIMS, serialize=True, verbose=False)


def test_random_sim_test_with_a_fixed_deal_and_no_variants() -> None:
    game = load("nederland", 2, seed=11, variants="none")
    pyspiel.random_sim_test(game, num_sims=SIMS, serialize=True, verbose=False)


def test_game_type_and_info() -> None:
    game = pyspiel.load_game("python_ttr(map=nederland,players=3)")
    kind = game.get_type()
    assert kind.short_name == "python_ttr"
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (2, 5)
    board = ttr_core.load_map("nederland")
    assert game.num_distinct_actions() == ttr_core.action_space(board, 3).size
    assert game.num_players() == 3
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-0.5, 1.0, 0.0)
    assert game.max_chance_outcomes() == ttr_core.openspiel.core.CHANCE_OUTCOMES
    encoder = game.encoder
    assert encoder.variants == ("tolls",)
    assert game.observation_tensor_size() == encoder.size
    history = tos.history_features(board, 3)
    assert game.information_state_tensor_size() == encoder.size + len(history)
    assert tos.GAME_TYPE.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


def test_defaults_are_new_york_for_two_with_the_maps_variants() -> None:
    game = pyspiel.load_game("python_ttr")
    assert (game.board.id, game.num_players(), game.rules.variants) == (
        "newyork",
        2,
        ("attractions",),
    )
    assert load(variants="").rules.variants == ()
    assert load("usa", 3, variants="longest_route").rules.variants == ("longest_route",)


def test_importing_ttr_core_does_not_import_pyspiel() -> None:
    code = "import sys, ttr_core, ttr_core.observation; assert 'pyspiel' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_without_openspiel_the_import_error_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "try:\n"
        "    import ttr_core.openspiel\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert "pip install 'ttr-core[openspiel]'" in out.stdout


# ---------------------------------------------------------------------------
# Chance
# ---------------------------------------------------------------------------


def test_chance_draws_the_engine_seed_byte_by_byte() -> None:
    game = load()
    state = game.new_initial_state()
    seed_bytes = list(range(200, 200 + ttr_core.openspiel.core.SEED_BYTES))
    for byte in seed_bytes:
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == ttr_core.openspiel.core.CHANCE_OUTCOMES
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert state.observation_tensor(0) == [0.0] * game.observation_tensor_size()
        state.apply_action(byte)
    assert not state.is_chance_node() and state.current_player() == 0
    seed = int.from_bytes(bytes(seed_bytes), "big")
    assert state.ttr_state == ttr_core.new_game("newyork", 2, seed=seed)
    assert state.history()[: ttr_core.openspiel.core.SEED_BYTES] == seed_bytes
    # The history alone rebuilds the game (chance included).
    again = game.new_initial_state()
    for action in play(state, random.Random(1), 40).history():
        again.apply_action(action)
    assert str(again) == str(state)


def test_a_seed_parameter_deals_one_fixed_game() -> None:
    game = load(seed=7)
    first, second = game.new_initial_state(), game.new_initial_state()
    assert not first.is_chance_node() and first.history() == []
    assert first.ttr_state == second.ttr_state == ttr_core.new_game("newyork", 2, seed=7)


# ---------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("map_name", "players"), [("newyork", 2), ("nederland", 3)])
def test_action_ids_round_trip(map_name: str, players: int) -> None:
    game = load(map_name, players)
    rng = random.Random(4)
    state = play(game.new_initial_state(), rng, ttr_core.openspiel.core.SEED_BYTES)
    while not state.is_terminal():
        ttr_state = state.ttr_state
        legal = state.legal_actions()
        assert legal == sorted(ttr_core.legal_action_ids(ttr_state))
        mask = state.legal_actions_mask()
        assert (
            len(mask)
            == game.num_distinct_actions()
            == ttr_core.action_space(ttr_state.board, players).size
        )
        assert [i for i, bit in enumerate(mask) if bit] == legal
        texts = [state.action_to_string(a) for a in legal]
        assert len(set(texts)) == len(texts)
        for aid, text in zip(legal, texts, strict=True):
            action = ttr_core.action_from_id(ttr_state, aid)
            assert ttr_core.action_id(ttr_state, action) == aid
            assert state.string_to_action(text) == aid
        for other in range(players):
            if other != state.current_player():
                assert state.legal_actions(other) == []
        state.apply_action(rng.choice(legal))
    assert state.legal_actions() == []


def test_an_illegal_action_id_is_refused_and_the_state_kept() -> None:
    state = play(
        load().new_initial_state(), random.Random(2), ttr_core.openspiel.core.SEED_BYTES + 3
    )
    before = str(state)
    illegal = next(a for a in range(state.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(ttr_core.IllegalAction):
        state.apply_action(illegal)
    assert str(state) == before


# ---------------------------------------------------------------------------
# What a seat sees
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("map_name", "players", "steps"),
    [
        ("newyork", 2, 30),
        ("nederland", 3, 45),
        ("amsterdam", 2, 35),
        ("usa", 2, 25),
        ("europe", 3, 40),
    ],
)
def test_hidden_information_changes_no_tensor_and_no_string(
    map_name: str, players: int, steps: int
) -> None:
    game = load(map_name, players)
    rng = random.Random(steps)
    state = play(game.new_initial_state(), rng, ttr_core.openspiel.core.SEED_BYTES + steps)
    assert not state.is_terminal()
    real = state.ttr_state
    for seat in range(players):
        shown = seen(state, seat)
        # Worlds the seat cannot tell from this one: every other card and ticket
        # dealt anew (ttr_core.determinize), the record of play kept as it saw it.
        worlds = [state.resample_from_infostate(seat, lambda k=k: k / 7) for k in range(1, 5)]
        assert any(str(world) != str(state) for world in worlds), "nothing hidden was changed"
        for world in worlds:
            assert world.ttr_state != real or str(world) == str(state)
            assert seen(world, seat) == shown
        # One hidden change at a time (the verification kit's list) ...
        base = game.new_state_from(real)
        shown_now = seen(base, seat)
        changes = list(hidden_changes(real, seat, random.Random(seat)))
        assert changes
        for what, changed in changes:
            assert seen(game.new_state_from(changed), seat) == shown_now, what
        # ... and the check has teeth: a change the seat can see changes all four.
        mine = exchange_hand_and_deck(real, seat, random.Random(seat)) or exchange_seat_ticket(
            real, seat, random.Random(seat)
        )
        assert mine is not None
        visible = seen(game.new_state_from(mine), seat)
        for part, (a, b) in enumerate(zip(visible, shown_now, strict=True)):
            assert a != b, part


def test_the_information_state_recalls_what_only_the_seat_saw() -> None:
    game = load(seed=3)
    state = game.new_initial_state()
    # Both seats make their starting choice, then seat 0 draws blind.
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    blind = 0
    assert state.current_player() == 0 and blind in state.legal_actions()
    hand_before = state.ttr_state.players[0].hand.counts
    state.apply_action(blind)
    hand_after = state.ttr_state.players[0].hand.counts
    card = next(
        name
        for name, a, b in zip(
            state.ttr_state.board.card_names, hand_before, hand_after, strict=True
        )
        if b > a
    )
    mine = state.information_state_string(0)
    theirs = state.information_state_string(1)
    assert f"seat 0 draws {card} blind" in mine
    assert "seat 0 draws a card blind" in theirs
    # The other seat sees how many tickets seat 0 kept, not which.
    assert "seat 0 keeps 1 tickets" in theirs and "seat 0 keeps #" in mine
    # The history part of the tensor counts the card only for the seat that drew it.
    names = tos.history_features(game.board, 2)
    history = state.information_state_tensor(0)[game.encoder.size :]
    assert history[names.index(f"history.my_blind[{card}]")] > 0
    other = state.information_state_tensor(1)[game.encoder.size :]
    assert other[names.index(f"history.my_blind[{card}]")] == 0
    assert other[names.index("history.seat[+1].blind")] > 0


def test_tensors_are_named_and_scaled() -> None:
    game = load("nederland", 3)
    state = play(game.new_initial_state(), random.Random(9), 200)
    encoder = game.encoder
    assert len(encoder.names) == len(set(encoder.names)) == encoder.size
    for seat in range(3):
        values = dict(zip(encoder.names, state.observation_tensor(seat), strict=True))
        assert values[f"seat[{seat}]"] == 1.0
        assert all(-1.0 <= v <= 1.5 for v in values.values()), values
    info = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert list(info.dict) == ["observation", "history"]


def test_observers_other_than_a_seats_view_are_refused() -> None:
    game = load()
    with pytest.raises(ttr_core.ArgumentError, match="SINGLE_PLAYER"):
        game.make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
            )
        )
    with pytest.raises(ttr_core.ArgumentError, match="no parameters"):
        game.make_py_observer(None, {"x": 1})


# ---------------------------------------------------------------------------
# Returns
# ---------------------------------------------------------------------------


def test_utilities_are_zero_sum_win_draw_loss() -> None:
    assert ttr_core.utilities((0,), 2) == [1.0, -1.0]
    assert ttr_core.utilities((0, 1), 2) == [0.0, 0.0]
    assert ttr_core.utilities((2,), 3) == [-0.5, -0.5, 1.0]
    assert ttr_core.utilities((0, 2), 4) == pytest.approx([1 / 3, -1 / 3, 1 / 3, -1 / 3])
    for players in range(2, 6):
        for winners in [(0,), tuple(range(players)), (0, players - 1)]:
            values = ttr_core.utilities(winners, players)
            assert sum(values) == pytest.approx(0.0)
            assert all(-1 / (players - 1) - 1e-9 <= v <= 1.0 for v in values)


@pytest.mark.parametrize(("map_name", "players"), [("newyork", 2), ("usa", 3)])
def test_returns_follow_the_final_scores(map_name: str, players: int) -> None:
    game = load(map_name, players)
    state = play(game.new_initial_state(), random.Random(5), 10_000)
    assert state.is_terminal() and state.current_player() == pyspiel.PlayerId.TERMINAL
    scores = state.final_scores()
    assert scores == ttr_core.final_scores(state.ttr_state)
    assert state.returns() == ttr_core.utilities(scores.winners, players)
    assert state.rewards() == state.returns()
    assert len(state.history()) - ttr_core.openspiel.core.SEED_BYTES <= game.max_game_length()


# ---------------------------------------------------------------------------
# Serialization
# ---------------------------------------------------------------------------


def test_serialization_round_trips_and_play_goes_on_the_same() -> None:
    game = load("amsterdam", 2)
    rng = random.Random(8)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if checked % 7 == 0:
            text = pyspiel.serialize_game_and_state(game, state)
            other_game, other = pyspiel.deserialize_game_and_state(text)
            copies = [
                other,
                pickle.loads(pickle.dumps(state)),
                game.deserialize_state(state.serialize()),
            ]
            assert str(other_game) == str(game)
            for copy in copies:
                assert str(copy) == str(state)
                assert copy.history() == state.history()
                for seat in range(2):
                    if not state.is_chance_node():
                        assert seen(copy, seat) == seen(state, seat)
            # Play goes on the same from the copy.
            ahead = state.clone()
            twin = copies[0]
            for action in play(ahead, random.Random(checked), 12).history()[len(state.history()) :]:
                twin.apply_action(action)
            assert str(twin) == str(ahead)
        checked += 1
        play(state, rng, 1)
    assert checked > 40


def test_a_pickled_game_loads_the_same_configuration() -> None:
    game = load("usa", 3, variants="none", seed=5)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game)
    assert str(again.new_initial_state()) == str(game.new_initial_state())


# ---------------------------------------------------------------------------
# Bad parameters
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "error"),
    [
        ({"map": "atlantis"}, ttr_core.UnknownMapError),
        ({"players": 6}, ttr_core.PlayerCountError),
        ({"map": "amsterdam", "players": 5}, ttr_core.PlayerCountError),
        ({"variants": "teleporters"}, ttr_core.UnknownVariantError),
        ({"variants": "attractions,,tolls"}, ttr_core.ArgumentError),
        ({"seed": -2}, ttr_core.ArgumentError),
        ({"options": "{not json"}, ttr_core.ArgumentError),
        ({"options": '{"attractions": 3}'}, ttr_core.ArgumentError),
        ({"options": '{"attractions": {"points_per_attraction": "x"}}'}, ttr_core.OptionError),
        ({"map": "amsterdam", "variants": "merchandise", "players": 2, "options": "{}"}, None),
    ],
)
def test_bad_parameters_raise_typed_errors(params: dict[str, object], error: type | None) -> None:
    if error is None:
        pyspiel.load_game(tos.SHORT_NAME, params)
        return
    with pytest.raises(error) as caught:
        pyspiel.load_game(tos.SHORT_NAME, params)
    assert isinstance(caught.value, ttr_core.TtrError)


def test_a_bad_configuration_is_refused_at_every_load() -> None:
    # The configuration cache keeps only what was built: a refusal is not kept.
    for _ in range(3):
        with pytest.raises(ttr_core.PlayerCountError):
            load(players=6)
        with pytest.raises(ttr_core.OptionError):
            load(options='{"attractions": {"points_per_attraction": "x"}}')
    assert load(seed=1).num_players() == 2


class _Quiet:
    """A variant that accepts every game and changes nothing."""

    @ttr_core.hookimpl
    def ttr_check_game(self, board: object, players: int, variants: object) -> str | None:
        return None


def test_a_variant_unregistered_since_the_last_load_is_refused() -> None:
    ttr_core.register_variant("openspiel_quiet", _Quiet())
    try:
        game = load(variants="openspiel_quiet", seed=1)
        assert "openspiel_quiet" in game.rules.variants
        assert load(variants="openspiel_quiet", seed=2).rules is game.rules
    finally:
        ttr_core.unregister_variant("openspiel_quiet")
    with pytest.raises(ttr_core.UnknownVariantError):
        load(variants="openspiel_quiet", seed=3)


def test_games_of_one_configuration_share_what_it_builds(monkeypatch) -> None:
    first = load(seed=1)
    second = load(seed=2)
    assert second.rules is first.rules
    assert second.encoder is first.encoder
    assert second.recall is first.recall
    assert second.space is first.space
    # Each game its own options (mutable dicts are never shared).
    assert second._options == first._options
    assert second._options is not first._options
    # Seeds still deal their own games.
    assert first.new_initial_state().ttr_state != second.new_initial_state().ttr_state
    assert second.new_initial_state().ttr_state == ttr_core.new_game(
        first.board, 2, seed=2, variants=first.rules.variants
    )
    # Another configuration builds its own, and the cache is bounded per board.
    monkeypatch.setattr(ttr_core.openspiel.game, "CONFIGS_KEPT", 2)  # where TtrGame reads it
    for players, variants in ((3, "default"), (4, "default"), (2, "none")):
        assert load(players=players, seed=1, variants=variants).rules is not first.rules
    kept = [k for k in first.board.derived if type(k) is tuple and k and k[0] == "openspiel"]
    assert len(kept) == 2


@pytest.mark.usefixtures("busy_switching")
def test_threads_loading_and_playing_one_configuration_see_what_one_thread_sees() -> None:
    # A game per thread (OpenSpiel gives every state of a game one observer:
    # docs/threads.md), one configuration: its checks, encoder and layouts are
    # built once and shared, and each thread's trackers follow its own games.
    failures: list[str] = []

    def work(number: int) -> None:
        rng = random.Random(number)
        game = load(seed=number)
        state = game.new_initial_state()
        for step in range(120):
            if state.is_terminal():
                game = load(seed=number + 100 * step)
                state = game.new_initial_state()
            pure = state.ttr_state
            for seat in range(2):
                got = np.asarray(state.observation_tensor(seat), dtype=np.float32)
                want = np.asarray(game.encoder.encode_state(pure, seat), dtype=np.float32)
                if not np.array_equal(got, want):
                    failures.append(f"thread {number} step {step} seat {seat}")
            legal = state.legal_actions()
            if legal != sorted(ttr_core.legal_action_ids(pure)):
                failures.append(f"thread {number} step {step}: legal ids")
            state.apply_action(rng.choice(legal))

    threads = [threading.Thread(target=work, args=(number,)) for number in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


@pytest.mark.usefixtures("busy_switching")
def test_one_observer_asked_from_threads_stays_right() -> None:
    # The observer's trackers are shared by every state of a game (OpenSpiel
    # makes one observer a game): threads asking it at once must leave them
    # right. Each thread plays games of its own (pyspiel's states of one game
    # are not for threads: docs/threads.md) and asks the one observer.
    game = load(seed=1)
    observer = ttr_core.openspiel.game._Observer(game, perfect_recall=False)

    def work(number: int) -> None:
        rng = random.Random(number)
        mine = load(seed=1)
        for _ in range(25):
            state = mine.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                observer.set_from(state, 0)

    threads = [threading.Thread(target=work, args=(number,)) for number in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    rng = random.Random(99)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        observer.set_from(state, 0)
        wanted = np.asarray(game.encoder.encode_state(state.ttr_state, 0), dtype=np.float32)
        assert np.array_equal(observer.dict["observation"], wanted)


def test_an_unknown_parameter_is_refused_by_openspiel() -> None:
    with pytest.raises(pyspiel.SpielError, match="colour"):
        pyspiel.load_game(tos.SHORT_NAME, {"colour": "red"})


#: Games with variant actions (declared through ttr_action_space): the neutral
#: player, and the example package's card swap when the installed one declares its.
VARIANT_CONFIGS = [
    ("nederland", 2, "tolls+neutral"),
    pytest.param(
        "newyork",
        2,
        "swap",
        marks=pytest.mark.skipif(
            not hasattr(__import__("ttr_example_variant"), "ttr_action_space"),
            reason="the installed ttr-example-variant predates ttr_action_space",
        ),
    ),
]


@pytest.mark.parametrize(("map_name", "players", "variants"), VARIANT_CONFIGS)
def test_random_sim_test_with_variant_actions(map_name: str, players: int, variants: str) -> None:
    game = load(map_name, players, variants=variants)
    core = ttr_core.action_space(game.board, players, [])
    space = game.space
    assert space.size > core.size == space.core_size
    assert game.num_distinct_actions() == space.size
    pyspiel.random_sim_test(game, num_sims=SIMS, serialize=True, verbose=False)
    # Random play reaches the variant's ids, and names them.
    rng = random.Random(3)
    met = set()
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            legal = state.legal_actions()
            met.update(state.action_to_string(a) for a in legal if a >= core.size)
            state.apply_action(rng.choice(legal))
    assert met and all(text.startswith(variants.split("+")[-1] + ": ") for text in met)


def test_random_play_on_europe_reaches_the_ids_of_every_mechanic() -> None:
    # Europe's default variants: tunnels pay or give up, stations (47 cities x 9
    # colours or none x 0-3 locomotives), ferries (core claims, with locomotives).
    from ttr_core_plugins.ferries import locomotives
    from ttr_core_plugins.stations import BuildStation
    from ttr_core_plugins.tunnels import GiveUpTunnel, PayTunnel

    game = load("europe", 2)
    board = game.board
    core = ttr_core.action_space(board, 2, [])
    assert game.space.core_size == core.size
    assert game.num_distinct_actions() == core.size + len(board.locations) * 9 * 4 + 5
    rng = random.Random(5)
    met: dict[str, set[str]] = {}
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            aid = rng.choice(state.legal_actions())
            action = ttr_core.action_from_id(state.ttr_state, aid)
            if isinstance(action, PayTunnel | GiveUpTunnel | BuildStation):
                assert aid >= core.size
                assert state.action_to_string(aid).startswith(
                    ("tunnels: ", "stations: ")[isinstance(action, BuildStation)]
                )
                met.setdefault(type(action).__name__, set()).add(str(aid))
            elif isinstance(action, ttr_core.ClaimRoute) and locomotives(board, action.route):
                assert action.wilds >= locomotives(board, action.route)
                met.setdefault("ferry", set()).add(str(aid))
            state.apply_action(aid)
    assert set(met) == {"PayTunnel", "GiveUpTunnel", "BuildStation", "ferry"}, met


class _Undeclared:
    """A variant listing an action of its own and declaring no ids for it."""

    @ttr_core.hookimpl
    def ttr_extra_actions(self, state: ttr_core.GameState) -> list[ttr_core.Action]:
        return []


def test_a_variant_with_actions_and_no_ids_is_refused_by_name() -> None:
    ttr_core.register_variant("undeclared", _Undeclared())
    try:
        with pytest.raises(tos.UnsupportedVariantError) as caught:
            load("nederland", 2, variants="tolls,undeclared")
    finally:
        ttr_core.unregister_variant("undeclared")
    error = caught.value
    assert error.variant == "undeclared"
    assert isinstance(error, ttr_core.GameConfigError)
    assert "ttr_action_space" in str(error) and "variants=tolls" in str(error)


def test_new_state_from_refuses_a_state_of_another_game() -> None:
    game = load()
    with pytest.raises(ttr_core.ArgumentError):
        game.new_state_from(ttr_core.new_game("newyork", 3, seed=1))
    with pytest.raises(ttr_core.ArgumentError):
        game.new_state_from("not a state")


# ---------------------------------------------------------------------------
# OpenSpiel's algorithms, end to end
# ---------------------------------------------------------------------------


def _play_out(game, bot, seat: int, seed: int):
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.current_player() == seat:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_information_set_mcts_plays_a_whole_game() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = load()
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        uct_c=2.0,
        max_simulations=10,
        max_world_samples=ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
        random_state=rng,
    )
    state = _play_out(game, bot, seat=0, seed=1)
    assert sum(state.returns()) == pytest.approx(0.0)


def test_mcts_plays_a_whole_game() -> None:
    from open_spiel.python.algorithms import mcts

    game = load("nederland", 2)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=6,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        random_state=rng,
        solve=False,
    )
    state = _play_out(game, bot, seat=1, seed=2)
    assert state.is_terminal()


def test_the_rl_environment_steps_through_a_game() -> None:
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(load("newyork", 2))
    rng = np.random.RandomState(3)
    step = env.reset()
    size = env.game.information_state_tensor_size()
    while not step.last():
        player = step.observations["current_player"]
        assert len(step.observations["info_state"][player]) == size
        legal = step.observations["legal_actions"][player]
        step = env.step([int(rng.choice(legal))])
    assert sum(step.rewards) == pytest.approx(0.0)
