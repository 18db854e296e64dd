"""What a person reads in both front ends, over whole games of every built-in
map and variant (issue 34): no repr of an engine object anywhere — no
``TunnelWait(claim=...``, no ``BuildStation (location 0 ...``, no
``(((...``, no ``None`` — in ``ttr play``'s screens, menus, prompts and final
sheets, nor in ``ttr serve``'s status (moves, notes, situation, prompt,
sheets, events). A third party's variant (the worked example, when installed)
is worded through the same hooks.

Also pinned here: the front-end hooks' words for the built-in variants
(stations by city, a tunnel's turned-up cards before paying, a ferry's
locomotives, a toll's cost and payee), and the terminal's short commands.
"""

from __future__ import annotations

import random
import re
import warnings
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

import ttr_core
from ttr_core.agents import make_agent
from ttr_core.play import moves, text
from ttr_core.serve.games import Game, status

#: What a repr of an engine object looks like on a screen.
REPR = re.compile(
    r"[A-Z][A-Za-z]+\((?:[a-z_]+=|\))"  # TunnelWait(claim=, GiveUp()
    r"|\(\(|object at 0x|\bNone\b|\bTrue\b|\bFalse\b"
    r"|\b[A-Z][a-z]+[A-Z]\w* \([a-z_]+ "  # BuildStation (location 0
    r"|\bSeat \d|\bseat \d|\b[a-z]+\.[a-z_]+\b(?<!e\.g)"  # Seat 0, stations.at
    r"|(?:\b\d+, ){8}"  # a variant's tuple of numbers: "stations: at 0, 0, 0, ..."
    r"|\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b"  # a class's name: GiveUpTunnel
    r"|\b(?:location|route|ticket|slot)s? \d"  # an internal id: "location 4"
)

#: (map, players, variants or None for the map's own), played in both front ends.
GAMES: list[tuple[str, int, tuple[str, ...] | None]] = [
    (name, 3, None) for name in ttr_core.available_maps()
]
GAMES.append(("pennsylvania", 2, None))  # the dummy shareholder
GAMES.append(("nederland", 2, ("tolls", "neutral")))


def _example_installed() -> bool:
    try:
        import ttr_example_variant  # noqa: F401
    except ImportError:
        return False
    return True


if _example_installed():
    GAMES.append(("newyork", 2, ("attractions", "swap")))


def _strings(value: Any, skip: frozenset[str]) -> Iterator[str]:
    """Every string a person may read in a status answer (not the actions
    posted back, the view's data or the picture)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                yield from _strings(item, skip)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, skip)


_MACHINE = frozenset({"action", "view", "svg", "scores", "game", "card", "fill", "kind"})


def _check(where: str, words: str) -> None:
    found = REPR.search(words)
    assert found is None, f"{where}: engine words {found.group(0)!r} in:\n{words[:2000]}"


def _serve_status(state: ttr_core.GameState, seat: int, events: list[str]) -> dict[str, Any]:
    game = Game(
        id="test",
        state=state,
        seat=seat,
        agents={},
        bot_names={s: "route" for s in range(state.num_players) if s != seat},
        rng=random.Random(0),
        record=ttr_core.RecordLines(state),
        events=events,
    )
    return status(game, board=False)


@pytest.mark.parametrize(
    ("name", "players", "variants"),
    GAMES,
    ids=[f"{n}-{p}-{'+'.join(v) if v else 'own'}" for n, p, v in GAMES],
)
def test_no_engine_words_on_any_screen(
    name: str, players: int, variants: tuple[str, ...] | None
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # maps with generated tickets say so
        state = ttr_core.new_game(name, players, seed=7, variants=variants)
    rng = random.Random(11)
    bots = [make_agent("route") for _ in range(players)]
    events: list[str] = []
    kinds: set[str] = set()
    for ply in range(2000):
        legal = ttr_core.legal_actions(state)
        if not legal:
            break
        seat = legal[0].player
        view = ttr_core.player_view(state, seat)
        kinds.update(type(a).__name__ for a in legal)
        if ply % 3 == 0 or not isinstance(legal[0], ttr_core.DrawBlind | ttr_core.DrawFaceUp):
            menu = moves.build(view, legal)
            both = state.rules.both_pair_routes_usable
            sheet = ttr_core.player_score_sheets(state, seat)[seat]
            screen = text.screen(view, humans=[seat], both_pairs=both, sheet=sheet)
            shown = [screen, menu.text(), menu.text(every=True), moves.prompt(view, menu)]
            _check(f"{name} ttr play at ply {ply}", "\n".join(shown))
            answer = _serve_status(state, seat, events[-20:])
            _check(f"{name} ttr serve at ply {ply}", "\n".join(_strings(answer, _MACHINE)))
        # Bots play well enough to reach tunnels, stations and shares.
        action = bots[seat].act(view, legal, rng) if rng.random() < 0.8 else rng.choice(legal)
        line = ttr_core.describe(state, action, seat=0)
        events.append(text.event(line, 0, [0]))
        state = ttr_core.apply(state, action)
    assert state.is_over, f"{name}: the game did not end in 2000 plies"
    # The variants' own decisions were on the screens checked.
    wanted = {
        "europe": {"BuildStation", "GiveUpTunnel"},
        "pennsylvania": {"TakeShare", "DeclineShare"},
        "nordiccountries": {"ClaimWithSets"},
    }.get(name, set())
    if variants is not None and "neutral" in variants:
        wanted = {"ChooseNeutralRoute"}
    assert wanted <= kinds, f"{name}: never offered {wanted - kinds}"
    scores = ttr_core.final_scores(state)
    final = text.final(scores, state.board, humans=[0], forfeit=None)
    _check(f"{name} ttr play's final sheet", final)
    answer = _serve_status(state, 0, events[-40:])
    _check(f"{name} ttr serve's game over", "\n".join(_strings(answer, _MACHINE)))
    # The game over answer holds every seat's whole sheet, as final_scores has it.
    assert [s["total"] for s in answer["final"]] == [s.total for s in scores.sheets]
    for told, sheet in zip(answer["final"], scores.sheets, strict=True):
        assert [(line["label"], line["points"]) for line in told["lines"]] == [
            (line.label, line.points) for line in sheet.lines
        ]


def _europe_until(kind: type[ttr_core.Action], seed: int = 5) -> ttr_core.GameState:
    """A Europe game played at random until ``kind`` is legal."""
    state = ttr_core.new_game("europe", 2, seed=seed)
    rng = random.Random(3)
    for _ in range(3000):
        legal = ttr_core.legal_actions(state)
        if any(isinstance(a, kind) for a in legal):
            return state
        state = ttr_core.apply(state, rng.choice(legal))
    raise AssertionError(f"no {kind.__name__} in a random Europe game")


def test_a_station_is_a_city_then_the_cards() -> None:
    from ttr_core_plugins.stations import BuildStation

    state = _europe_until(BuildStation)
    legal = ttr_core.legal_actions(state)
    seat = legal[0].player
    view = ttr_core.player_view(state, seat)
    stations = [a for a in legal if isinstance(a, BuildStation)]
    told = ttr_core.move_words(view, stations[0])
    city = state.board.locations[stations[0].location].name
    assert told.place == stations[0].location and told.command == "st"
    assert told.text.startswith(f"Build a station in {city} with ")
    # The terminal lists the cities once, and 'st CITY' builds there.
    menu = moves.build(view, legal)
    shown = menu.text()
    assert shown.count(city) >= 1 and len(shown.splitlines()) < 40
    assert moves.choose(menu, f"st {city}") in stations
    assert "no place" in str(moves.choose(menu, "st Atlantis"))
    # ttr serve: every station move names its city, for a click on it.
    answer = _serve_status(state, seat, [])
    built = [m for m in answer["moves"] if m["place"] is not None]
    assert len(built) == len(stations)
    assert {m["location"] for m in built} == {a.location for a in stations}


def test_a_tunnel_shows_its_cards_before_paying() -> None:
    from ttr_core_plugins.tunnels import GiveUpTunnel, waiting

    state = _europe_until(GiveUpTunnel)
    wait = waiting(state)
    assert wait is not None
    seat = wait.claim.player
    view = ttr_core.player_view(state, seat)
    shown = "\n".join(ttr_core.view_words(view))
    turned = ", ".join(state.board.wild_name if c == "wild" else c for c in wait.revealed)
    assert f"turned up: {turned}" in shown
    menu = moves.build(view, ttr_core.legal_actions(state))
    both = state.rules.both_pair_routes_usable
    assert f"turned up: {turned}" in text.screen(view, humans=[seat], both_pairs=both)
    assert moves.prompt(view, menu).startswith("Pay for the tunnel")
    assert moves.choose(menu, "g") == GiveUpTunnel(seat)
    answer = _serve_status(state, seat, [])
    assert any(turned in line for line in answer["situation"])


def test_ferries_and_tolls_are_said_on_the_claim() -> None:
    state = ttr_core.new_game("europe", 2, seed=1)
    ferry = next(r for r in state.board.routes if r.extra.get("locomotives"))
    view = ttr_core.player_view(state, 0)
    claim = ttr_core.ClaimRoute(0, ferry.id, None, ferry.length)
    need = ferry.extra["locomotives"]
    assert f"ferry: {need} locomotive" in "; ".join(ttr_core.move_words(view, claim).notes)
    state = ttr_core.new_game("nederland", 2, seed=1)
    pair = next(r for r in state.board.routes if r.partner is not None and r.extra["toll"])
    view = ttr_core.player_view(state, 0)
    claim = ttr_core.ClaimRoute(0, pair.id, pair.color, 0)
    assert f"toll {pair.extra['toll']}, paid to the bank" in ttr_core.move_words(view, claim).notes
    # Once the other route of the pair is Player 2's, the toll goes to them.
    state = ttr_core.effects.claim_route(state, pair.partner, 1)
    view = ttr_core.player_view(state, 0)
    notes = ttr_core.move_words(view, claim).notes
    assert f"toll {pair.extra['toll']}, paid to Player 2" in notes


def test_the_terminal_marks_tunnels_ferries_and_attractions() -> None:
    view = ttr_core.player_view(ttr_core.new_game("europe", 2, seed=1), 0)
    marks = text.route_marks(view)
    tunnel = next(r for r in view.board.routes if r.extra.get("tunnel"))
    ferry = next(r for r in view.board.routes if r.extra.get("locomotives"))
    assert "tunnel" in text.route(view.board, tunnel.id, marks)
    assert f"ferry {ferry.extra['locomotives']}" in text.route(view.board, ferry.id, marks)
    view = ttr_core.player_view(ttr_core.new_game("newyork", 2, seed=1), 0)
    marks = text.route_marks(view)
    place = next(loc for loc in view.board.locations if loc.extra.get("attraction"))
    route = next(r for r in view.board.routes if place.name in (r.a, r.b))
    assert f"attraction {place.name}" in text.route(view.board, route.id, marks)


def test_a_variant_without_words_is_shown_without_a_repr() -> None:
    """The fallback of move_words: the class's name in words and its plain fields."""
    import attrs

    @attrs.frozen
    class RingBell(ttr_core.Action):
        loudness: int
        tune: tuple[int, ...] = ()

    view = ttr_core.player_view(ttr_core.new_game("newyork", 2, seed=1), 0)
    told = ttr_core.move_words(view, RingBell(0, 3, (1, 2)))
    assert told.text == "Ring bell (loudness 3)"
    assert REPR.search(told.text) is None


def test_bad_words_from_a_hook_are_refused_by_name() -> None:
    from ttr_core.hooks import checks

    class Impl:
        variant = "bad"
        hook = "ttr_view_words"

    with pytest.raises(ttr_core.PluginError, match="bad"):
        checks.word_lines(Impl(), ["x" * 500])  # type: ignore[arg-type]
    with pytest.raises(ttr_core.PluginError, match="lines"):
        checks.word_lines(Impl(), "one string")  # type: ignore[arg-type]


def test_a_toll_is_told_in_the_log_with_its_payee() -> None:
    """Nederland: the log says what a claim paid and to whom (issue 34), and a
    loan taken when the money held is short — from public facts only."""
    state = ttr_core.new_game("nederland", 2, seed=1)
    while state.pending is not None and state.pending.kind == "start_tickets":
        state = ttr_core.apply(state, ttr_core.legal_actions(state)[0])
    pair = next(r for r in state.board.routes if r.partner is not None and r.extra["toll"])
    toll = pair.extra["toll"]
    # Player 2 owns the first route of the pair: Player 1's claim pays Player 2.
    state = ttr_core.effects.claim_route(state, pair.partner, 1)
    state = attrs.evolve(state, pending=ttr_core.Pending("turn", 0))
    for _ in range(40):  # cards from the deck until the claim can be paid
        claims = [
            a
            for a in ttr_core.legal_actions(state)
            if isinstance(a, ttr_core.ClaimRoute) and a.route == pair.id
        ]
        if claims:
            break
        state = ttr_core.effects.draw_cards(state, 0, 1)
    claim = claims[0]
    told = text.event(ttr_core.describe(state, claim, seat=0), 0, [0])
    assert told.endswith(f"paid a toll of {toll} to Player 2"), told
    # Another seat is told the toll owed: whether it was paid turns on the
    # claimer's secret money (the loans are public in its view).
    told = text.event(ttr_core.describe(state, claim, seat=1), 1, [1])
    assert told.endswith(f"owed a toll of {toll} to you"), told
    # With too little money: a loan, and the bank pays Player 2.
    tolls = state.variant("tolls")
    poor = state.with_variant("tolls", attrs.evolve(tolls, holdings=(0, *tolls.holdings[1:])))
    told = text.event(ttr_core.describe(poor, claim, seat=0), 0, [0])
    assert f"could not pay the toll of {toll}: took a loan; the bank paid Player 2" in told


def test_the_draws_keep_their_numbers_for_the_second_card() -> None:
    state = ttr_core.new_game("newyork", 2, seed=3)
    rng = random.Random(1)
    for _ in range(300):
        legal = ttr_core.legal_actions(state)
        view = ttr_core.player_view(state, legal[0].player)
        if view.pending in (ttr_core.PendingKind.TURN, ttr_core.PendingKind.SECOND_CARD):
            menu = moves.build(view, legal)
            for entry in menu.entries:
                if isinstance(entry.action, ttr_core.DrawBlind):
                    assert entry.number == 1
                if isinstance(entry.action, ttr_core.DrawFaceUp):
                    assert entry.number == entry.action.slot + 2
        state = ttr_core.apply(state, rng.choice(legal))
        if state.is_over:
            break


def test_the_terminals_own_words_are_reserved_from_variants() -> None:
    from ttr_core.hooks.checks import RESERVED_COMMANDS

    typed = set(moves._COMMANDS) - {""}
    assert typed | {"c", "claim", "k", "keep", "b", "t", "p"} <= RESERVED_COMMANDS
