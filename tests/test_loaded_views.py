"""Views, numbers and score sheets read back are ones the library could write (issue 24).

A :class:`PlayerView` is read only if some state could give it: the reader
rebuilds a state from it (``determinize``) under the loader's state checks and
requires that state to show the seat the very same view; ``determinize``
itself refuses (``ArgumentError``) a view no state could give. Numbers JSON
does not allow (``1e999`` is Infinity) are refused where the text is parsed,
and writing never fails with a bare ``ValueError``. Score sheets add up, and
final scores name winners among their seats as the library picks them.
Every genuine view and score sheet of random games on every map still reads
back equal (no false refusals).
"""

from __future__ import annotations

import json
import math
import random
import warnings
from collections.abc import Callable
from typing import Any

import attrs
import pytest

import ttr_core
from ttr_core import (
    ArgumentError,
    DataError,
    FinalScores,
    GameState,
    PlayerView,
    ScoreSheet,
    Termination,
    determinize,
    from_data,
    from_json,
    player_view,
    to_data,
    to_json,
)
from ttr_core.data.messages import _parse
from ttr_core.model.board import FrozenMap
from ttr_core.rules.scoring import final_scores, player_score_sheets, score_sheets
from ttr_core.testing import check_state

#: (map, players, variants): every built-in map, with its default variants unless named.
GAMES: list[tuple[str, int, tuple[str, ...] | None]] = [
    ("newyork", 2, None),
    ("newyork", 4, None),
    ("usa", 3, None),
    ("usa", 5, None),
    ("nederland", 2, None),
    ("nederland", 4, ("tolls",)),
    ("nederland", 2, ("tolls", "neutral")),
    ("amsterdam", 2, None),
    ("amsterdam", 4, None),
]
GAME_IDS = [f"{m}-{p}" + ("-" + "+".join(v) if v else "") for m, p, v in GAMES]


def played(
    map_name: str, players: int, variants: tuple[str, ...] | None, seed: int, actions: int
) -> GameState:
    """A game after up to ``actions`` random legal actions (fewer if it ends)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        state = ttr_core.new_game(map_name, players, seed=seed, variants=variants)
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_over:
            break
        state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
    return state


def refused(view: PlayerView) -> DataError:
    """The error of reading ``view`` back (it must be refused)."""
    with pytest.raises(DataError) as err:
        from_json(to_json(view), PlayerView)
    return err.value


def _seat(view: PlayerView, seat: int, **changes: Any) -> PlayerView:
    seats = list(view.seats)
    seats[seat] = attrs.evolve(seats[seat], **changes)
    return attrs.evolve(view, seats=tuple(seats))


def _shown(view: PlayerView, **changes: Any) -> PlayerView:
    return attrs.evolve(view, variants=FrozenMap({**view.variants, **changes}))


def _both_routes_of_a_pair(view: PlayerView) -> PlayerView:
    """Seat 0 and seat 1 each claim one route of a free pair, in a 2-player game
    (where only one of a pair may be claimed): counts and scores kept consistent."""
    board = view.board
    owned = {r for s in view.seats for r in s.routes}
    route = next(
        r
        for r in board.routes
        if r.partner is not None and r.id < r.partner and not {r.id, r.partner} & owned
    )
    assert route.partner is not None
    for seat, rid in ((0, route.id), (1, route.partner)):
        s = view.seats[seat]
        length = board.routes[rid].length
        view = _seat(
            view,
            seat,
            routes=(*s.routes, rid),
            cars=s.cars - length,
            score=s.score + board.rules.route_points[length],
        )
    return view


#: (name, game, change, the path named): views that no state could give, each
#: accepted by ``from_json`` before issue 24 and rebuilt by ``determinize`` into a
#: state breaking an invariant (or not showing the view back).
UNREAL: list[tuple[str, tuple[Any, ...], Callable[[PlayerView], PlayerView], str]] = [
    (
        "cars",
        ("newyork", 2, None),
        lambda v: _seat(v, 1, cars=v.seats[1].cars + 1),
        "seats[1].cars",
    ),
    (
        "route -1",
        ("newyork", 2, None),
        lambda v: _seat(v, 0, routes=(*v.seats[0].routes, -1)),
        "seats[0].routes[",
    ),
    ("passes", ("newyork", 2, None), lambda v: attrs.evolve(v, passes=3), "passes"),
    ("is_over", ("usa", 3, None), lambda v: attrs.evolve(v, is_over=True), "is_over"),
    (
        "ticket discard size",
        ("usa", 3, None),
        lambda v: attrs.evolve(v, ticket_discard_size=v.ticket_discard_size + 1),
        "ticket_discard_size",
    ),
    (
        "merchandise not conserved",
        ("amsterdam", 3, None),
        lambda v: _shown(v, **{"merchandise.deck": v.variants["merchandise.deck"] + 1}),
        "variants",
    ),
    (
        "neutral cars",
        ("nederland", 2, ("tolls", "neutral")),
        lambda v: _shown(v, **{"neutral.cars": v.variants["neutral.cars"] - 1}),
        "variants",
    ),
    ("pair", ("newyork", 2, None), _both_routes_of_a_pair, "seats"),
]


@pytest.mark.parametrize(
    ("game", "change", "path"), [u[1:] for u in UNREAL], ids=[u[0] for u in UNREAL]
)
def test_a_view_no_state_could_give_is_refused_naming_the_field(
    game: tuple[Any, ...], change: Callable[[PlayerView], PlayerView], path: str
) -> None:
    map_name, players, variants = game
    state = played(map_name, players, variants, seed=11, actions=6)
    view = player_view(state, 0)
    bad = change(view)
    assert bad != view
    err = refused(bad)
    assert err.path.startswith(path), err
    # determinize refuses it too, as its docs promise, instead of building a broken state.
    with pytest.raises(ArgumentError):
        determinize(bad, 0)


def test_the_route_refused_is_named_by_its_index() -> None:
    view = player_view(played("newyork", 2, None, seed=11, actions=40), 0)
    routes = view.seats[0].routes
    err = refused(_seat(view, 0, routes=(*routes, -1)))
    assert err.path == f"seats[0].routes[{len(routes)}]", err


# ---------------------------------------------------------------------------
# No false refusals: every genuine view reads back
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("map_name", "players", "variants"), GAMES, ids=GAME_IDS)
def test_every_genuine_view_of_random_games_reads_back(
    map_name: str, players: int, variants: tuple[str, ...] | None
) -> None:
    rng = random.Random(f"views:{map_name}:{players}:{variants}")
    seen = 0
    for game in range(2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
            state = ttr_core.new_game(map_name, players, seed=game, variants=variants)
        states = [state]
        while not state.is_over and state.ply < 400:
            state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
            states.append(state)
        picked = [*rng.sample(states, min(5, len(states))), states[0], states[-1]]
        # A game ended early, by each kind of ending.
        middle = states[len(states) // 2]
        if not middle.is_over:
            picked.append(ttr_core.end_game(middle, Termination.RESIGNATION, players - 1))
            picked.append(ttr_core.end_game(middle, Termination.ABANDONED))
        for one in picked:
            for seat in range(players):
                view = player_view(one, seat)
                assert from_json(to_json(view), PlayerView) == view
                assert from_data(to_data(view), PlayerView) == view
                seen += 1
    assert seen >= 2 * 7 * players


# ---------------------------------------------------------------------------
# Numbers JSON does not allow
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["1e999", "[-1e999]", '{"a": 1E400}', "[0.5, 2e308]"])
def test_numbers_too_large_for_a_float_are_refused_where_the_text_is_parsed(text: str) -> None:
    # json.loads turns 1e999 into Infinity, which slipped past the NaN/Infinity refusal.
    with pytest.raises(DataError, match="not a number JSON allows"):
        _parse(text)


def test_a_view_holding_infinity_is_refused_when_read_and_written_with_a_data_error() -> None:
    view = player_view(played("nederland", 2, ("tolls", "neutral"), seed=3, actions=5), 0)
    for number in (math.inf, -math.inf, math.nan):
        bad = _shown(view, **{"neutral.cars": number})
        with pytest.raises(DataError):
            to_json(bad)
        with pytest.raises(DataError):
            to_data(bad)
    data = to_data(view)
    data["variants"]["neutral.cars"] = math.inf
    with pytest.raises(DataError, match="not a number JSON allows"):
        from_data(data, PlayerView)
    text = to_json(view).replace('"neutral.cars": 40', '"neutral.cars": 1e999')
    assert "1e999" in text
    with pytest.raises(DataError, match="not a number JSON allows"):
        from_json(text, PlayerView)


@pytest.mark.parametrize("indent", [1.5, 2**63, 10**8, -1, True, "  ", [2]])
def test_to_json_refuses_an_indent_it_cannot_use_with_an_argument_error(indent: Any) -> None:
    view = player_view(played("newyork", 2, None, seed=3, actions=5), 0)
    with pytest.raises(ArgumentError, match="indent"):
        to_json(view, indent=indent)


def test_to_json_takes_the_indents_json_takes() -> None:
    view = player_view(played("newyork", 2, None, seed=3, actions=5), 0)
    for indent in (None, 0, 2, 8):
        assert json.loads(to_json(view, indent=indent)) == to_data(view)


# ---------------------------------------------------------------------------
# Score sheets and final scores
# ---------------------------------------------------------------------------


def _sheet_doc(**changes: Any) -> dict[str, Any]:
    state = played("usa", 3, None, seed=4, actions=60)
    doc: dict[str, Any] = json.loads(to_json(score_sheets(state)[1]))
    doc.update(changes)
    return doc


def _refused_doc(doc: Any, kind: Any) -> DataError:
    with pytest.raises(DataError) as err:
        from_json(json.dumps(doc), kind)
    return err.value


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d.update(total=d["total"] + 1), "total"),
        (
            lambda d: d.update(tickets_completed=-1, tickets_failed=d["tickets_failed"] + 1),
            "tickets_completed",
        ),
        (lambda d: d.update(tickets_failed=-2), "tickets_failed"),
        (lambda d: d.update(tickets_failed=d["tickets_failed"] + 1), "tickets_failed"),
        (lambda d: d.update(player=-1), "player"),
        (lambda d: d["lines"][0].update(shown="everyone"), "lines[0].shown"),
    ],
    ids=["total", "negative completed", "negative failed", "tickets miscounted", "seat", "shown"],
)
def test_a_score_sheet_that_does_not_add_up_is_refused(
    change: Callable[[dict[str, Any]], Any], path: str
) -> None:
    doc = _sheet_doc()
    from_json(json.dumps(doc), ScoreSheet)  # the genuine sheet reads
    change(doc)
    assert _refused_doc(doc, ScoreSheet).path == path


def _final_doc(termination: Termination | None = None, seat: int | None = None) -> dict[str, Any]:
    state = played("newyork", 3, None, seed=5, actions=2000)
    if termination is not None:
        state = played("newyork", 3, None, seed=5, actions=40)
        state = ttr_core.end_game(state, termination, seat)
    assert state.is_over
    doc: dict[str, Any] = json.loads(to_json(final_scores(state)))
    return doc


def _sheet_with(doc: dict[str, Any], seat: int, points: int) -> None:
    """Give seat ``seat`` a sheet worth ``points`` more (a line and its total)."""
    sheet = doc["sheets"][seat]
    sheet["lines"].append(
        {"kind": "play", "label": "x", "points": points, "ref": None, "detail": [], "shown": "all"}
    )
    sheet["total"] += points


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d.update(winners=[7]), "winners[0]"),
        (lambda d: d.update(winners=[-1]), "winners[0]"),
        (lambda d: d.update(winners=[d["winners"][0], d["winners"][0]]), "winners"),
        (lambda d: d.update(winners=[]), "winners"),
        (lambda d: d.update(termination=None), "termination"),
        (lambda d: d["sheets"][1].update(player=0), "sheets[1].player"),
        (lambda d: d.update(sheets=[]), "sheets"),
        (lambda d: d.update(winners=[w for w in range(3) if w not in d["winners"]][:1]), "winners"),
        (lambda d: d["sheets"][0].update(total=d["sheets"][0]["total"] + 1), "sheets[0].total"),
    ],
    ids=[
        "not a seat",
        "negative",
        "twice",
        "none",
        "not over",
        "seat order",
        "no sheets",
        "loser",
        "sheet",
    ],
)
def test_final_scores_whose_winners_are_not_the_best_seats_are_refused(
    change: Callable[[dict[str, Any]], Any], path: str
) -> None:
    doc = _final_doc()
    from_json(json.dumps(doc), FinalScores)
    change(doc)
    assert _refused_doc(doc, FinalScores).path == path


def test_final_scores_are_read_in_winner_order_and_by_their_ending() -> None:
    doc = _final_doc()
    _sheet_with(doc, 0, 1000)
    doc["sheets"][1] = {**doc["sheets"][0], "player": 1}
    # A shared win is written seats ascending.
    doc["winners"] = [0, 1]
    assert from_json(json.dumps(doc), FinalScores).winners == (0, 1)
    doc["winners"] = [1, 0]
    assert _refused_doc(doc, FinalScores).path == "winners"
    # An abandoned game has no winner.
    abandoned = _final_doc(Termination.ABANDONED)
    assert from_json(json.dumps(abandoned), FinalScores).winners == ()
    abandoned["winners"] = [0]
    assert _refused_doc(abandoned, FinalScores).path == "winners"
    # The resigning seat may hold the best total; any other loser may not.
    resigned = _final_doc(Termination.RESIGNATION, 0)
    assert 0 not in from_json(json.dumps(resigned), FinalScores).winners
    _sheet_with(resigned, 0, 500)
    from_json(json.dumps(resigned), FinalScores)
    loser = next(s for s in (1, 2) if s not in resigned["winners"])
    _sheet_with(resigned, loser, 500)
    assert _refused_doc(resigned, FinalScores).path == "winners"


@pytest.mark.parametrize(("map_name", "players", "variants"), GAMES, ids=GAME_IDS)
def test_every_score_sheet_the_library_writes_reads_back(
    map_name: str, players: int, variants: tuple[str, ...] | None
) -> None:
    for seed, actions in ((1, 30), (2, 90), (3, 5000)):
        state = played(map_name, players, variants, seed, actions)
        sheets = score_sheets(state)
        assert from_json(to_json(sheets), list[ScoreSheet]) == list(sheets)
        for seat in range(players):
            seen = player_score_sheets(state, seat)
            assert from_json(to_json(seen), list[ScoreSheet]) == list(seen)
        if state.is_over:
            scores = final_scores(state)
            assert from_json(to_json(scores), FinalScores) == scores
        else:
            for how, seat_ in ((Termination.RESIGNATION, 0), (Termination.TIMEOUT, 1)):
                ended = final_scores(ttr_core.end_game(state, how, seat_))
                assert from_json(to_json(ended), FinalScores) == ended


def _guard_hit() -> GameState:
    """A state whose display shows five wilds because no reset could help (E3):
    every card left in the deck is a wild, the other non-wilds are in seat 1's hand."""
    state = played("newyork", 2, None, seed=7, actions=12)
    board = state.board
    wild = board.wild
    deck = [c for c in state.deck if c == wild]
    taken = [c for c in state.deck if c != wild]
    taken += [c for c in state.display if c is not None and c != wild]
    taken += [c for c, n in enumerate(state.discard) for _ in range(n)]
    deck += [wild for c in state.display if c == wild]
    counts = list(state.players[1].hand.counts)
    for card in taken:
        counts[card] += 1
    deck += [wild] * counts[wild]  # seat 1's wilds too: the deck holds every hidden wild
    counts[wild] = 0
    display = tuple(deck[:5])
    assert len(display) == 5 and len(deck) >= 8
    hand = ttr_core.Hand(tuple(counts), board.card_names)
    players = (state.players[0], attrs.evolve(state.players[1], hand=hand, known=()))
    return attrs.evolve(
        state,
        players=players,
        deck=tuple(deck[5:]),
        display=display,
        discard=(0,) * len(board.card_names),
    )


def test_a_display_of_wilds_no_reset_could_help_reads_back_and_determinizes() -> None:
    state = _guard_hit()
    from_json(to_json(state), GameState)  # a state the loader takes
    view = player_view(state, 0)
    assert from_json(to_json(view), PlayerView) == view
    for seed in range(20):
        # The hidden cards are dealt so that the display stays one the engine lays.
        assert player_view(determinize(view, seed), 0) == view


# ---------------------------------------------------------------------------
# Whatever view is read, a state can be rebuilt from it and played on
# ---------------------------------------------------------------------------


def _numbers(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths of the ints, booleans and nulls of a JSON document."""
    if isinstance(doc, dict):
        return [p for k, v in doc.items() for p in _numbers(v, (*path, k))]
    if isinstance(doc, list):
        return [p for i, v in enumerate(doc) for p in _numbers(v, (*path, i))]
    return [path] if doc is None or type(doc) in (int, bool) else []


def _nudged(doc: Any, rng: random.Random) -> Any:
    """``doc`` with one or two numbers changed a little (or a flag flipped)."""
    doc = json.loads(json.dumps(doc))
    for path in rng.sample(_numbers(doc), 2)[: rng.randint(1, 2)]:
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        old = parent[path[-1]]
        if type(old) is bool:
            parent[path[-1]] = not old
        elif old is None:
            parent[path[-1]] = rng.choice([0, 1])
        else:
            parent[path[-1]] = rng.choice([old + 1, old - 1, -1, 0, 2 * old, old + 17])
    return doc


def test_nudged_views_are_refused_or_rebuilt_into_states_that_play_on() -> None:
    rng = random.Random(24)
    docs = [
        json.loads(to_json(player_view(played(m, p, v, seed, actions), seed % p)))
        for m, p, v in GAMES
        for seed, actions in ((1, 3), (2, 40), (3, 150), (4, 5000))
    ]
    accepted = 0
    for _ in range(400):
        try:
            view: PlayerView = from_json(json.dumps(_nudged(rng.choice(docs), rng)), PlayerView)
        except DataError:
            continue
        accepted += 1
        state = determinize(view, accepted)
        assert player_view(state, view.viewer) == view
        assert not check_state(state)
        for _ in range(4):
            if state.is_over:
                break
            state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
    assert accepted > 20


def test_a_view_of_a_variant_that_cannot_be_rebuilt_is_checked_for_its_counts() -> None:
    """A variant keeping state without a ``ttr_determinize`` hook: no state can be
    rebuilt, so the reader checks what the core can (the counts add up)."""
    from .test_determinize import Secretive

    ttr_core.register_variant("secret", Secretive())
    try:
        state = ttr_core.new_game("newyork", 2, seed=0, variants=["secret"])
        view = player_view(state, 1)
        assert from_json(to_json(view), PlayerView) == view
        assert refused(attrs.evolve(view, deck_size=view.deck_size + 1)).path == "deck_size"
    finally:
        ttr_core.unregister_variant("secret")
