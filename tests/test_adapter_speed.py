"""The adapters' fast paths give exactly what the plain, from-scratch paths give.

The observation encoder's ``encode_state(state, seat)`` reads the state
without building a :class:`~ttr_core.PlayerView`; the PettingZoo environment
and OpenSpiel's ``python_ttr`` use it, cache what they work out per state
(observation vectors, legal action ids) and share the fixed deal's initial
state. Each test here plays random games and compares, element by element,
every vector, mask, tensor, legal list and reward with what an independent
computation gives: :func:`reference_encode` (the encoder as it was written
before the fast path, reading only the view) of ``player_view(state, seat)``,
and the masks and legal lists of :mod:`ttr_core.rules.action_ids` on the same
states played with the pure API in lock step.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

# The real packages, never mocked: the [openspiel] and [pettingzoo] extras.
import pyspiel  # type: ignore[import-not-found, unused-ignore]
import pytest

import ttr_core
import ttr_core.openspiel as tos
import ttr_core.openspiel.texts
from ttr_core import GameState, apply, legal_actions, new_game, player_view
from ttr_core.model.views import PlayerView
from ttr_core.observation import ObservationEncoder, observation_encoder
from ttr_core.observation.layout import CORE_KINDS
from ttr_core.pettingzoo import LOSS, TIE, WIN, env
from ttr_core.rules.action_ids import action_from_id, legal_action_ids, legal_action_mask
from ttr_core.rules.scoring import final_scores

pytestmark = pytest.mark.filterwarnings("ignore::ttr_core.GeneratedTicketsWarning")

#: (map, players, variants or None for the map's own, steps to play).
CONFIGS = [
    ("newyork", 2, None, 400),
    ("nederland", 4, ["tolls"], 400),
    ("nederland", 2, ["tolls", "neutral"], 300),  # a route owner that is no seat
    ("europe", 3, None, 400),  # stations, tunnels, ferries: variant state in the view
    ("amsterdam", 2, ["merchandise"], 200),
]
IDS = [f"{m}:{p}:{'+'.join(v) if v is not None else 'default'}" for m, p, v, _ in CONFIGS]


def reference_encode(encoder: ObservationEncoder, view: PlayerView) -> list[float]:
    """The observation vector of ``view``, as the encoder computed it before
    its fast path (a copy kept here as the independent reference)."""
    board = encoder.board
    n = encoder.players
    rules = board.rules
    names = board.card_names
    kinds = len(names)
    deck = board.deck
    tickets = len(board.tickets)
    total_cards = board.total_cards or 1
    offer_scale = max(rules.start_tickets_dealt, rules.draw_tickets, 1)
    viewer = view.viewer
    out: list[float] = [0.0] * encoder.size
    at = 0
    out[at + viewer] = 1.0
    at += n
    current = view.current_player
    if current is not None and not view.is_over:
        out[at + (current - viewer) % n] = 1.0
    at += n
    if view.pending is not None:
        kind = view.pending
        slot = CORE_KINDS.index(kind) if kind in CORE_KINDS else len(CORE_KINDS)
        out[at + slot] = 1.0
    at += len(CORE_KINDS) + 1
    out[at] = 1.0 if view.is_over else 0.0
    at += 1
    for card, count in enumerate(view.hand.counts):
        out[at + card] = count / (deck[card] or 1)
    at += kinds
    for ticket in view.tickets:
        out[at + ticket] = 1.0
    at += tickets
    for ticket in view.offered:
        out[at + ticket] = 1.0
    at += tickets
    out[at] = view.min_keep / offer_scale
    out[at + 1] = view.offer_size / offer_scale
    at += 2
    index = {name: i for i, name in enumerate(names)}
    display_scale = rules.display_size or 1
    for face_up in view.display:
        if face_up is not None:
            out[at + index[face_up]] += 1.0 / display_scale
    at += kinds
    out[at] = view.deck_size / total_cards
    out[at + 1] = view.discard_size / total_cards
    out[at + 2] = view.ticket_deck_size / (tickets or 1)
    out[at + 3] = view.ticket_discard_size / (tickets or 1)
    at += 4
    for ticket in view.ticket_discard:
        out[at + ticket] = 1.0
    at += tickets
    cars = rules.cars_per_player or 1
    points = board.rules.route_points
    total = sum(points.get(route.length, 0) for route in board.routes)
    score_scale = float(total) if total > 0 else 1.0
    per_seat = 4 + kinds
    for k in range(n):
        seat = view.seats[(viewer + k) % n]
        base = at + k * per_seat
        out[base] = seat.cars / cars
        out[base + 1] = seat.hand_size / total_cards
        out[base + 2] = seat.tickets_held / (tickets or 1)
        out[base + 3] = seat.score / score_scale
        for name, count in seat.known.items():
            card = index[name]
            out[base + 4 + card] = count / (deck[card] or 1)
    at += n * per_seat
    width = n + 1
    for seat in view.seats:
        column = (seat.seat - viewer) % n
        for route in seat.routes:
            out[at + route * width + column] = 1.0
    for other in view.others:
        for route in other.routes:
            out[at + route * width + n] = 1.0
    at += len(board.routes) * width
    final = view.final_turns
    out[at] = 1.0 if final >= 0 else 0.0
    out[at + 1] = max(final, 0) / n
    out[at + 2] = view.turn / (2 * n * cars)
    out[at + 3] = view.passes / n
    at += 4
    for key, length, scale in encoder._variant_slots:
        value = view.variants[key]
        if length is None:
            out[at] = float(value) / scale
            at += 1
        else:
            for i, v in enumerate(value):
                out[at + i] = float(v) / scale
            at += length
    assert at == encoder.size
    return out


def same(encoder: ObservationEncoder, got: Any, wanted: Any, what: str) -> None:
    """``got == wanted`` element by element (bit for bit), naming the first feature that differs."""
    assert len(got) == len(wanted), what
    dtype = got.dtype if isinstance(got, np.ndarray) else np.float64
    mine, theirs = np.asarray(got, dtype=dtype), np.asarray(wanted, dtype=dtype)
    if mine.tobytes() == theirs.tobytes():  # bit for bit (0.0 is not -0.0)
        return
    for i, (a, b) in enumerate(zip(mine.tobytes(), theirs.tobytes(), strict=True)):
        if a != b:
            feature = i // mine.itemsize
            raise AssertionError(
                f"{what}: feature {feature} {encoder.names[feature]!r} is "
                f"{mine[feature]!r}, not {theirs[feature]!r}"
            )


def random_states(
    map_name: str, players: int, variants: list[str] | None, steps: int, seed: int
) -> Iterator[GameState]:
    """Every state of random games (new games as needed) until ``steps`` actions are played."""
    rng = random.Random(seed)
    played = 0
    game = 0
    while played < steps:
        state = new_game(map_name, players, seed=seed + game, variants=variants)
        game += 1
        yield state
        while not state.is_over and played < steps:
            legal = legal_actions(state)
            state = apply(state, legal[rng.randrange(len(legal))])
            played += 1
            yield state


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        yield


@pytest.mark.parametrize(("map_name", "players", "variants", "steps"), CONFIGS, ids=IDS)
def test_encode_state_is_the_views_vector_on_every_seat(
    map_name: str, players: int, variants: list[str] | None, steps: int
) -> None:
    encoder: ObservationEncoder | None = None
    for state in random_states(map_name, players, variants, steps, seed=11):
        if encoder is None:
            rules = state.rules
            options = {v: dict(values) for v, values in rules.options}
            encoder = observation_encoder(state.board, players, rules.variants, options)
        for seat in range(players):
            view = player_view(state, seat)
            wanted = reference_encode(encoder, view)
            where = f"ply {state.ply} seat {seat}"
            same(encoder, encoder.encode(view), wanted, f"encode, {where}")
            same(encoder, encoder.encode_state(state, seat), wanted, f"encode_state, {where}")


def test_encode_state_refuses_what_the_view_refuses() -> None:
    state = new_game("newyork", 2, seed=1)
    encoder = observation_encoder(state.board, 3, ())
    with pytest.raises(ttr_core.observation.ObservationError):
        encoder.encode_state(state, 0)  # a two-player game, a three-player encoder
    mine = observation_encoder(state.board, 2, state.rules.variants)
    for seat in (2, -1, True, 0.0):
        with pytest.raises(ttr_core.ArgumentError):
            mine.encode_state(state, seat)  # type: ignore[arg-type]
    with pytest.raises(ttr_core.ArgumentError):
        mine.encode_state("not a state", 0)  # type: ignore[arg-type]


@pytest.mark.parametrize(("map_name", "players", "variants", "steps"), CONFIGS, ids=IDS)
def test_pettingzoo_observations_masks_and_rewards_are_the_plain_ones(
    map_name: str, players: int, variants: list[str] | None, steps: int
) -> None:
    game = env(map=map_name, players=players, variants=variants)
    raw = game.unwrapped
    encoder = raw.encoder
    rng = random.Random(5)
    played = 0
    number = 0
    while played < steps:
        game.reset(seed=100 + number)
        number += 1
        state = raw.game  # the pure API's state, played in lock step below
        for agent in game.agent_iter():
            _, reward, termination, truncation, info = game.last()
            if termination or truncation:
                scores = final_scores(state)
                seat = raw._seats[agent]
                won = WIN if len(scores.winners) == 1 else TIE
                assert reward == (won if seat in scores.winners else LOSS)
                assert info["score"] == scores.totals[seat]
                game.step(None)
                continue
            assert raw.game == state
            for other in raw.possible_agents:  # every seat, twice: the cache too
                seat = raw._seats[other]
                wanted = np.asarray(
                    reference_encode(encoder, player_view(state, seat)), dtype=np.float32
                )
                mask = np.zeros(raw.space.size, dtype=np.int8)
                if state.current_player == seat:
                    mask[np.flatnonzero(legal_action_mask(state))] = 1
                for _ in range(2):
                    seen = game.observe(other)
                    same(encoder, seen["observation"], wanted, f"{other} at ply {state.ply}")
                    assert seen["observation"].dtype == np.float32
                    assert np.array_equal(seen["action_mask"], mask)
                    assert seen["action_mask"].dtype == np.int8
                    seen["observation"][:] = 7.0  # the caller's copy: the cache keeps its own
            aid = rng.choice(legal_action_ids(state))
            game.step(aid)
            state = apply(state, action_from_id(state, aid))
            played += 1
            if played >= steps:
                break
        assert raw.game == state


def _openspiel_vector(state: Any, player: int, size: int, info: bool) -> np.ndarray:
    if info:
        return np.asarray(state.information_state_tensor(player), dtype=np.float32)[:size]
    return np.asarray(state.observation_tensor(player), dtype=np.float32)


@pytest.mark.parametrize(("map_name", "players", "variants", "steps"), CONFIGS, ids=IDS)
def test_openspiel_tensors_strings_and_legal_ids_are_the_plain_ones(
    map_name: str, players: int, variants: list[str] | None, steps: int
) -> None:
    names = "default" if variants is None else "+".join(variants)
    rng = random.Random(9)
    played = 0
    number = 0
    while played < steps:
        seed = 200 + number
        number += 1
        params = {"map": map_name, "players": players, "seed": seed, "variants": names}
        game = pyspiel.load_game(tos.SHORT_NAME, params)
        encoder = game.encoder
        pure = new_game(
            game.board, players, seed=seed, variants=game.rules.variants, options=game._options
        )
        spiel = game.new_initial_state()
        spare = game.new_initial_state()  # shares the deal; must not see spiel's moves
        while True:
            assert spiel.ttr_state == pure
            for seat in range(players):
                wanted = np.asarray(
                    reference_encode(encoder, player_view(pure, seat)), dtype=np.float32
                )
                for info in (False, True, False):
                    got = _openspiel_vector(spiel, seat, encoder.size, info)
                    same(encoder, got, wanted, f"seat {seat} at ply {pure.ply} (info {info})")
                assert spiel.observation_string(seat) == ttr_core.openspiel.texts.view_text(
                    player_view(pure, seat)
                )
            if pure.is_over:
                assert spiel.is_terminal()
                assert spiel.returns() == ttr_core.utilities(final_scores(pure).winners, players)
                break
            legal = spiel.legal_actions()
            assert legal == sorted(legal_action_ids(pure))
            assert spiel.legal_actions() == legal  # from the cache
            aid = rng.choice(legal)
            if rng.random() < 0.1:
                spiel = spiel.clone()  # a clone shares the core and its caches
            spiel.apply_action(aid)
            pure = apply(pure, action_from_id(pure, aid))
            played += 1
            if played >= steps:
                break
        assert spare.ttr_state == ttr_core.new_game(
            game.board, game.players, seed=seed, variants=game.rules.variants, options=game._options
        )
        assert spare.history() == []
        first = np.asarray(spare.observation_tensor(0), dtype=np.float32)
        initial = ttr_core.new_game(
            game.board, game.players, seed=seed, variants=game.rules.variants, options=game._options
        )
        same(encoder, first, reference_encode(encoder, player_view(initial, 0)), "initial")


def test_openspiel_illegal_ids_are_refused_as_before() -> None:
    game = pyspiel.load_game(tos.SHORT_NAME, {"map": "newyork", "players": 2, "seed": 3})
    state = game.new_initial_state()
    legal = state.legal_actions()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    with pytest.raises(ttr_core.IllegalAction, match=f"action id {illegal} is not legal here"):
        state._apply_action(illegal)
    assert state.legal_actions() == legal
