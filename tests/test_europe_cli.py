"""Europe on the command line (issue 21, item 6): the demo, ``ttr --list``,
``ttr simulate``, and ``ttr replay`` telling tunnel reveals and station choices
in words (the lent routes through the stations plugin's score lines)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from ttr_core_plugins.stations import ROUTE_LINE, BuildStation, station_routes
from ttr_core_plugins.tunnels import GiveUpTunnel, PayTunnel, waiting

import ttr_core
from ttr_core import GameState, PlayoutResult
from ttr_core.cli import main
from ttr_core.cli import simulate as simulate_cli

MAP = "europe"
VARIANTS = ("tunnels", "ferries", "stations", "long_tickets", "longest_route")


def test_the_demo_plays_europe_with_its_variants(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--map", MAP, "--players", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        f"Ticket to Ride: Europe, 3 players: route bots, seed 2, variants: {', '.join(VARIANTS)}"
    )
    assert "options: tunnels.reveal=3, stations.points=4, stations.stations=3" in out
    assert out.count("Unused stations: ") == 3 and "European Express: " in out
    assert re.search(r"\nWinners?: Player \d", out)


def test_list_shows_europe_and_its_four_variants(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--list"]) == 0
    out = capsys.readouterr().out
    maps = next(line for line in out.splitlines() if line.startswith("maps:"))
    assert MAP in maps.split(":", 1)[1].replace(",", " ").split()
    described = {
        "tunnels": "Tunnels (Ticket to Ride: Europe): a claim that may cost more cards.",
        "ferries": "Ferries (Ticket to Ride: Europe): locomotives needed on ferry routes.",
        "stations": "Train stations (Ticket to Ride: Europe).",
        "long_tickets": "Long tickets (Ticket to Ride: Europe).",
    }
    for name, text in described.items():
        assert f"  {name}: {text}\n" in out
    for option in ("tunnels.reveal", "stations.stations", "stations.points"):
        assert f"--option {option}=" in out


def test_simulate_plays_a_few_europe_games(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--map", MAP, "--players", "3", "--agents", "route,random,random"]
    assert simulate_cli.main([*argv, "--games", "3", "--workers", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Ticket to Ride: Europe (europe): 3 games, 3 players, variants: ")
    assert "agents: route, random, random" in out and "3 games in" in out


# ---------------------------------------------------------------------------
# ttr replay
# ---------------------------------------------------------------------------


def _games() -> Iterator[PlayoutResult]:
    for seed in range(200):
        yield ttr_core.random_playout(MAP, 2, seed=seed)


def _replayed(result: PlayoutResult, path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    path.write_text(ttr_core.to_json(result.record), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    return capsys.readouterr().out


def _before_each(result: PlayoutResult) -> Iterator[tuple[GameState, ttr_core.Action]]:
    states = list(ttr_core.replay(result.record))
    yield from zip(states, result.record.actions, strict=False)


def test_replay_tells_a_tunnel_reveal_and_the_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A game where a seat pays a surcharge (cards matched) and one gives a tunnel up.
    for result in _games():
        actions = result.record.actions
        if any(isinstance(a, GiveUpTunnel) for a in actions) and any(
            isinstance(a, PayTunnel) for a in actions
        ):
            paid = [
                (before, action)
                for before, action in _before_each(result)
                if isinstance(action, PayTunnel) and waiting(before).extra  # type: ignore[union-attr]
            ]
            if paid:
                break
    else:
        pytest.fail("no random game paid a tunnel surcharge")
    out = _replayed(result, tmp_path / "tunnel.json", capsys)
    before, action = paid[0]
    wait = waiting(before)
    assert wait is not None
    route = before.board.routes[wait.claim.route]
    shown = ", ".join(before.board.wild_name if card == "wild" else card for card in wait.revealed)
    more = f"{wait.extra} more card" + ("" if wait.extra == 1 else "s")
    # The replay counts players from 1 ("Player 1" is seat 0).
    who = f"Player {action.player + 1}"
    head = f"{who} turned up {shown} for the tunnel {route.a}–{route.b}: {more}"
    assert f"{head}; paid {wait.extra} more (" in out
    # The claim itself comes first, in the same turn, then the reveal and the answer.
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if head in line)
    # Not "claimed": a tunnel is claimed once paid for (issue 34).
    assert f"{who} set out to claim {route.a}–{route.b} (" in lines[at - 1]
    assert lines[at].split("·")[0] == lines[at - 1].split("·")[0]
    assert re.search(r"turned up [^\n]* for the tunnel [^\n]*; gave up the tunnel", out)


def test_replay_tells_a_station_built_and_the_route_it_lends_at_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A game where a station lends a route (EU3): random play seldom completes a
    # ticket through one, so the first such seed is found.
    for result in _games():
        final = result.state
        lending = [
            (seat, location, route)
            for seat in range(2)
            for location, route in zip(
                (s.location for s in final.variant("stations") if s.owner == seat),
                station_routes(final, seat),
                strict=True,
            )
            if route is not None
        ]
        if lending:
            break
    else:
        pytest.fail("no random game had a station lend a route")
    out = _replayed(result, tmp_path / "station.json", capsys)
    board = final.board
    seat, location, route = lending[0]
    city, lent = board.locations[location].name, board.routes[route]
    assert re.search(rf"· Player {seat + 1} built a station in {city} with \d ", out)
    scores = out.split("\nPlayer 1: ", 1)[1]
    sheet = scores.split(f"Player {seat + 1}: ", 1)[1] if seat else scores
    sheet = sheet.split("\n\n", 1)[0]
    expected = f"+0  Station in {city} lends {lent.a}–{lent.b} ({lent.color} {lent.length})"
    assert expected in sheet
    # Every station built is named at the end, lending a route or none.
    built = sum(1 for a in result.record.actions if isinstance(a, BuildStation))
    assert out.count("+0  Station in ") == built


def test_the_lent_route_is_shown_to_its_own_seat_only_during_play() -> None:
    # The choice follows from the seat's tickets, which other seats cannot see.
    for result in _games():
        if all(r is None for r in station_routes(result.state, 0)):
            continue  # lending at the end is most likely lending just before it
        states = list(ttr_core.replay(result.record))
        during = next(
            (s for s in reversed(states[:-1]) if any(r is not None for r in station_routes(s, 0))),
            None,
        )
        if during is not None:
            break
    else:
        pytest.fail("no random game had seat 0's station lend a route during play")
    own = ttr_core.player_score_sheets(during, 0)[0]
    other = ttr_core.player_score_sheets(during, 1)[0]
    assert any(line.kind == ROUTE_LINE and "lends " in line.label for line in own.lines)
    assert not any(line.kind == ROUTE_LINE for line in other.lines)
    assert "station route" in other.lines[-1].label  # "Shown at the end: ..., station route"
