"""Details of the command line found by a first run (issue 22, points 2, 4, 5 and 7):
the demo plays the bots and speaks of players from 1, the map's pieces and
name; ``ttr simulate`` says what to install for its bar, moves it per game and
names routes in its table; the usage line, refused arguments, output folders
and a deck for another map; the README's test command says how long it takes."""

from __future__ import annotations

import csv
import re
import sys
import tomllib
from pathlib import Path

import pytest

import ttr_core
from ttr_core.cli import main
from ttr_core.play import text as play_text
from ttr_core.simulation import simulate

ROOT = Path(__file__).resolve().parent.parent
PIECES = {
    "newyork": "taxis",
    "amsterdam": "carts",
    "nederland": "trains",
    "usa": "trains",
    "europe": "trains",
}


def _scores(out: str) -> list[int]:
    return [int(n) for n in re.findall(r"^Player \d+: (-?\d+) points$", out, re.M)]


# -- point 2: the demo ---------------------------------------------------------------


def test_the_demo_plays_the_route_bots_by_default_and_names_the_map(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--map", "usa", "--players", "3"]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first.startswith("Ticket to Ride: USA, 3 players: route bots, seed 0")
    scores = _scores(out)
    assert len(scores) == 3 and max(scores) > 0  # random seats end far below zero here
    assert "Seat" not in out and "seat " not in out
    assert re.search(r"\nWinners?: Player [123]", out)


def test_random_players_stay_a_choice_and_styles_mix(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--map", "newyork", "--agents", "random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert ", 2 players: random players, seed 3" in out.splitlines()[0]
    played = ttr_core.random_playout("newyork", 2, seed=3)
    assert _scores(out) == [sheet.total for sheet in played.scores.sheets]
    assert main(["--map", "newyork", "--agents", "route,random"]) == 0
    assert "2 players: Player 1 route, Player 2 random" in capsys.readouterr().out
    assert main(["--agents", "nobody"]) == 2
    assert "no agent 'nobody'" in capsys.readouterr().err


@pytest.mark.parametrize("map_id", sorted(PIECES))
def test_the_demo_says_the_maps_word_for_its_pieces(
    map_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    board = ttr_core.load_map(map_id)
    assert board.pieces == PIECES[map_id]
    assert play_text.pieces(board) == PIECES[map_id]
    assert main(["--map", map_id, "--players", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert f"ended by {PIECES[map_id]}" in out or "ended by stalemate" in out
    assert "ended by cars" not in out


def test_the_pieces_key_leaves_the_fingerprint_as_it_was(tmp_path: Path) -> None:
    source = (ROOT / "maps" / "newyork.toml").read_text(encoding="utf-8")
    assert 'pieces = "taxis"' in source
    without = tmp_path / "plain.toml"
    without.write_text(source.replace('pieces = "taxis"', ""), encoding="utf-8")
    plain = ttr_core.load_map(str(without))
    assert plain.pieces == "cars"  # the library's word when a map names none
    named = ttr_core.load_map("newyork")
    assert ttr_core.map_fingerprint(plain) == ttr_core.map_fingerprint(named)
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(source.replace('pieces = "taxis"', "pieces = 3"), encoding="utf-8")
    with pytest.raises(ttr_core.MapError, match="'pieces' must be a non-empty string"):
        ttr_core.load_map(str(wrong))


def test_many_games_count_players_from_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--map", "newyork", "--games", "2", "--agents", "random"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^player +win rate", out, re.M)
    assert re.search(r"^ +1 ", out, re.M) and re.search(r"^ +2 ", out, re.M)
    assert not re.search(r"^ +0 ", out, re.M)


# -- point 4: ttr simulate -----------------------------------------------------------


def test_progress_without_tqdm_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from ttr_core.cli import simulate as simulate_cli

    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm raises ImportError
    argv = ["--games", "2", "--workers", "1", "--progress"]
    assert simulate_cli.main(argv) == 0
    err = capsys.readouterr().err
    assert "no progress bar" in err and "pip install" in err and "tqdm" in err


@pytest.mark.parametrize("workers", [1, 2])
def test_the_progress_moves_one_game_at_a_time(workers: int) -> None:
    seen: list[int] = []
    simulate("newyork", 2, ["random"], 24, workers=workers, progress=lambda d, t: seen.append(d))
    assert seen == list(range(1, 25))


def test_pandas_is_in_the_sim_extra() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    assert any(r.startswith("pandas") for r in extras["sim"])


def test_the_table_names_the_routes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ttr_core.cli import simulate as simulate_cli

    out = tmp_path / "games.csv"
    argv = ["--games", "2", "--workers", "1", "--no-progress", "--out", str(out)]
    assert simulate_cli.main(argv) == 0
    capsys.readouterr()
    board = ttr_core.load_map("newyork")
    with out.open(encoding="utf-8", newline="") as stream:
        rows = list(csv.DictReader(stream))
    row = next(r for r in rows if r["routes"])
    ids = [int(i) for i in row["routes"].split()]
    names = row["route_names"].split("; ")
    assert names == [f"{board.routes[i].a}–{board.routes[i].b}" for i in ids]


# -- point 5: usage, refusals, folders, decks ----------------------------------------


def test_the_usage_line_shows_the_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["-h"])
    assert exit_.value.code == 0
    usage = capsys.readouterr().out.split("\n\n", 1)[0]
    for command in ("replay", "verify", "simulate", "play", "serve"):
        assert command in usage


def test_generate_tickets_zero_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = tmp_path / "deck.toml"
    assert main(["--generate-tickets", "0", "--output", str(deck)]) == 2
    assert "--generate-tickets COUNT must be at least 1" in capsys.readouterr().err
    assert not deck.exists()


def test_output_without_generate_tickets_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--output", str(tmp_path / "deck.toml")]) == 2
    assert "--output is where --generate-tickets writes" in capsys.readouterr().err


def test_svg_and_replay_svg_both_create_missing_folders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = tmp_path / "new" / "deeper" / "end.svg"
    record = tmp_path / "saves" / "game.json"
    assert main(["--svg", str(picture), "--save", str(record)]) == 0
    assert picture.is_file() and record.is_file()
    turns = tmp_path / "more" / "turns"
    assert main(["replay", str(record), "--svg", str(turns)]) == 0
    assert (turns / "turn-000.svg").is_file()
    capsys.readouterr()


def test_a_deck_for_another_map_says_so_first_and_briefly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = tmp_path / "deck.toml"
    assert main(["--map", "usa", "--generate-tickets", "40", "--output", str(deck)]) == 0
    capsys.readouterr()
    assert main(["--map", "newyork", "--tickets", str(deck)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "the deck is for map 'usa', not 'newyork'" in err[0] + err[-1]
    assert len(err) <= 3


# -- point 7: the README -------------------------------------------------------------


def test_the_readme_says_how_long_the_tests_take() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = readme.split("**Run the tests**", 1)[1].split("```", 1)[0]
    assert re.search(r"\d+\s*(–|-|to)\s*\d+ minutes", setup)
    assert "load" in setup
