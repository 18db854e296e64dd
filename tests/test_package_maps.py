"""Maps from installed packages (issue 20, finding 9).

Found: ``ttr --map europe`` did not find a map an installed package carries,
its aliases never worked, and ``ttr replay`` of a record on a map not found
by name answered with Python advice. A package now ships a map through the
``ttr_core.maps`` entry-point group; the example package
(docs/examples/ttr-example-variant, installed in the test environment) ships
the tiny map ``fourtowns`` (aliases ``four-towns``, ``4towns``).
"""

from __future__ import annotations

import json
import sys
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

import ttr_core
from ttr_core import DataError, MapError, UnknownMapError
from ttr_core.cli import main
from ttr_core.mapfiles import packages
from ttr_core.mapfiles.registry import NOT_AVAILABLE, find_map

EXAMPLE = "fourtowns"
PACKAGE = "ttr-example-variant"
EXAMPLE_FILE = (
    Path(__file__).resolve().parents[1]
    / "docs/examples/ttr-example-variant/src/ttr_example_variant/maps/fourtowns.toml"
)


def _played(board: ttr_core.Board | str, seed: int = 1) -> ttr_core.GameRecord:
    """A record of a few actions (the first legal one each time)."""
    state = ttr_core.new_game(board, 2, seed=seed)
    actions = []
    for _ in range(6):
        action = ttr_core.legal_actions(state)[0]
        actions.append(action)
        state = ttr_core.apply(state, action)
    return ttr_core.record_of(ttr_core.new_game(board, 2, seed=seed), actions)


# -- the example package's map -------------------------------------------------------


def test_the_example_package_map_is_found_by_id_and_by_every_alias_in_any_case() -> None:
    board = ttr_core.load_map(EXAMPLE)
    assert board.id == EXAMPLE and board.aliases == ("four-towns", "4towns")
    for name in ("FourTowns", "four-towns", "4TOWNS"):
        assert ttr_core.load_map(name) is board
    assert ttr_core.new_game("four-towns", 2, seed=1).board is board
    assert ttr_core.random_playout("4towns", 3, seed=2).state.board is board


def test_package_maps_are_listed_with_their_package() -> None:
    assert ttr_core.package_maps()[EXAMPLE] == PACKAGE
    assert EXAMPLE in ttr_core.available_maps(packages=True)
    assert EXAMPLE not in ttr_core.available_maps()  # the built-in maps only
    assert set(ttr_core.available_maps()) < set(ttr_core.available_maps(packages=True))
    assert EXAMPLE not in ttr_core.broken_maps()
    with pytest.raises(ttr_core.ArgumentError, match="packages must be True or False"):
        ttr_core.available_maps(packages="yes")  # type: ignore[arg-type]


def test_a_record_and_a_save_on_a_package_map_name_it_by_id_and_read_back() -> None:
    record = _played("4towns")
    assert record.map == EXAMPLE
    read: ttr_core.GameRecord = ttr_core.from_json(ttr_core.to_json(record), ttr_core.GameRecord)
    states = list(ttr_core.replay(read))  # no board given: found by id, as installed code
    assert states[-1] == ttr_core.restore(read)
    assert states[-1].board is ttr_core.load_map(EXAMPLE)
    saved = ttr_core.to_json(states[-1])
    assert ttr_core.from_json(saved, ttr_core.GameState) == states[-1]
    fingerprint = ttr_core.map_fingerprint(states[-1].board)
    assert find_map(EXAMPLE, fingerprint) is states[-1].board
    # data names a map by its id: an alias in data is not a name of it
    assert find_map("4towns", fingerprint) is None
    data = json.loads(ttr_core.to_json(record))
    data["map"] = "four-towns"
    with pytest.raises(DataError, match="neither a built-in map"):
        ttr_core.restore(ttr_core.from_json(json.dumps(data), ttr_core.GameRecord))


def test_ttr_lists_and_plays_the_package_map_and_replays_its_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--list"]) == 0
    out = capsys.readouterr().out
    assert f"  {EXAMPLE} (aliases: four-towns, 4towns; from {PACKAGE})" in out
    saved = tmp_path / "game.json"
    assert main(["--map", "Four-Towns", "--players", "2", "--save", str(saved)]) == 0
    capsys.readouterr()
    assert json.loads(saved.read_text(encoding="utf-8"))["map"] == EXAMPLE
    assert main(["replay", str(saved)]) == 0
    assert "Four Towns: 2 players" in capsys.readouterr().out


def test_ttr_replay_of_a_record_on_a_map_not_found_says_give_the_file_with_map(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "mine.toml"
    text = EXAMPLE_FILE.read_text(encoding="utf-8")
    mine.write_text(text.replace('id = "fourtowns"', 'id = "mine"'), encoding="utf-8")
    saved = tmp_path / "game.json"
    saved.write_text(ttr_core.to_json(_played(ttr_core.load_map(mine))), encoding="utf-8")
    assert main(["replay", str(saved)]) == 2
    err = capsys.readouterr().err
    assert NOT_AVAILABLE in err
    assert "map 'mine': give its map file with --map FILE" in err
    assert "board=" not in err and "register_map" not in err and "ttr_core." not in err
    assert main(["replay", str(saved), "--map", str(mine)]) == 0
    assert "Tiny" not in capsys.readouterr().err


# -- broken package maps ---------------------------------------------------------------


def _map(map_id: str, aliases: str = "[]") -> str:
    text = EXAMPLE_FILE.read_text(encoding="utf-8")
    text = text.replace('id = "fourtowns"', f'id = "{map_id}"')
    return text.replace('aliases = ["four-towns", "4towns"]', f"aliases = {aliases}")


@pytest.fixture
def broken_maps_install(tmp_path: Path) -> Iterator[Path]:
    """A distribution on sys.path shipping maps, most of them broken."""
    folder = tmp_path / "ttr_maps_demo" / "maps"
    folder.mkdir(parents=True)
    files = {
        "good.toml": _map("gooddemo", '["good-demo"]'),
        "badtoml.toml": "format = 1\n[map\nid = 'badtoml'\n",
        "usa.toml": _map("usa"),
        "shadow.toml": _map("shadow", '["NewYork"]'),
        "renamed.toml": _map("other"),
        "alpha.toml": _map("alpha-demo", '["shared-demo"]'),
        "beta.toml": _map("beta-demo", '["shared-demo"]'),
        "invalid.toml": _map("invalid").replace('b = "Beta"', 'b = "Nowhere"', 1),
    }
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    info = tmp_path / "ttr_maps_demo-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ttr-maps-demo\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[ttr_core.maps]\n"
        "gooddemo = ttr_maps_demo:maps/good.toml\n"
        "badtoml = ttr_maps_demo:maps/badtoml.toml\n"
        "missing = ttr_maps_demo:maps/nothere.toml\n"
        "usa = ttr_maps_demo:maps/usa.toml\n"
        "shadow = ttr_maps_demo:maps/shadow.toml\n"
        "renamed = ttr_maps_demo:maps/renamed.toml\n"
        "alpha-demo = ttr_maps_demo:maps/alpha.toml\n"
        "beta-demo = ttr_maps_demo:maps/beta.toml\n"
        "invalid = ttr_maps_demo:maps/invalid.toml\n"
        "escapes = ttr_maps_demo:../../../etc/passwd.toml\n"
        "nopackage = ttr_no_such_package_anywhere:maps/x.toml\n"
        "Not_An_Id = ttr_maps_demo:maps/good.toml\n"
    )
    sys.path.insert(0, str(tmp_path))
    ttr_core.rescan_entry_points()
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        ttr_core.rescan_entry_points()


@pytest.mark.usefixtures("broken_maps_install")
def test_broken_package_maps_are_reported_and_never_shadow_a_built_in_map(
    capsys: pytest.CaptureFixture[str],
) -> None:
    broken = ttr_core.broken_maps()
    assert set(broken) == {
        "badtoml", "missing", "usa", "shadow", "renamed", "beta-demo", "escapes",
        "nopackage", "Not_An_Id",
    }  # fmt: skip
    assert all(error.startswith("from ttr-maps-demo: ") for error in broken.values())
    assert "not valid TOML" in broken["badtoml"]
    assert "cannot read the file" in broken["missing"]
    assert "a name of the built-in map 'usa'" in broken["usa"]
    assert "a name of the built-in map 'newyork'" in broken["shadow"]
    assert "the entry-point name 'renamed'" in broken["renamed"]
    assert "map 'alpha-demo' of ttr-maps-demo" in broken["beta-demo"]
    assert "a relative path" in broken["escapes"]
    assert "not installed" in broken["nopackage"]
    assert "is not a map id" in broken["Not_An_Id"]
    assert ttr_core.package_maps() == {
        "alpha-demo": "ttr-maps-demo",
        "fourtowns": PACKAGE,
        "gooddemo": "ttr-maps-demo",
        "invalid": "ttr-maps-demo",  # its TOML reads: found broken when loaded
    }
    # the built-in maps are untouched; the good package maps load
    usa = ttr_core.load_map("usa")
    assert usa.id == "usa" and len(usa.locations) > 4
    assert ttr_core.load_map("NewYork").id == "newyork"
    assert ttr_core.load_map("good-demo").id == "gooddemo"
    assert ttr_core.load_map("shared-demo").id == "alpha-demo"
    # a broken map asked for by name is a MapError saying why, never a crash
    with pytest.raises(MapError, match=r"the installed map is broken: .*not valid TOML"):
        ttr_core.load_map("BadToml")
    with pytest.raises(UnknownMapError):
        ttr_core.load_map("renamed-nowhere")
    with pytest.raises(MapError, match="Nowhere"):
        ttr_core.load_map("invalid")
    assert "invalid" in ttr_core.broken_maps() and "invalid" not in ttr_core.package_maps()
    # data naming a broken map is refused like any unknown map
    assert find_map("invalid", "0" * 64) is None
    assert find_map("badtoml", "0" * 64) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert main(["--list"]) == 0
    out = capsys.readouterr().out
    assert "gooddemo (aliases: good-demo; from ttr-maps-demo)" in out
    assert "broken maps of installed packages (not usable):" in out
    assert "  usa: from ttr-maps-demo: its id 'usa' is a name of the built-in map 'usa'" in out
    assert main(["--map", "badtoml"]) == 2
    assert "the installed map is broken" in capsys.readouterr().err


def test_at_most_max_package_maps_entry_points_are_read(
    broken_maps_install: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(packages, "MAX_PACKAGE_MAPS", 2)
    ttr_core.rescan_entry_points()
    assert len(ttr_core.package_maps()) <= 2
    assert "more than 2 maps are installed" in ttr_core.broken_maps()["usa"]


def test_a_newly_installed_package_map_is_found_after_rescan(tmp_path: Path) -> None:
    folder = tmp_path / "ttr_late_maps" / "maps"
    folder.mkdir(parents=True)
    (folder / "late.toml").write_text(_map("latecomer"), encoding="utf-8")
    info = tmp_path / "ttr_late_maps-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ttr-late-maps\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[ttr_core.maps]\nlatecomer = ttr_late_maps:maps/late.toml\n"
    )
    ttr_core.package_maps()  # looked for before the package is installed
    sys.path.insert(0, str(tmp_path))
    try:
        assert "latecomer" not in ttr_core.package_maps()
        ttr_core.rescan_entry_points()
        assert ttr_core.load_map("latecomer").id == "latecomer"
    finally:
        sys.path.remove(str(tmp_path))
        ttr_core.rescan_entry_points()
    assert "latecomer" not in ttr_core.package_maps()


# -- bounded, thread-safe, and no work for paths ----------------------------------------


def test_threads_look_the_package_maps_up_once_and_share_one_board(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scans: list[int] = []
    scan = packages._scan_package_maps

    def counted() -> packages._PackageIndex:
        scans.append(1)
        return scan()

    monkeypatch.setattr(packages, "_scan_package_maps", counted)
    ttr_core.rescan_entry_points()
    boards: list[ttr_core.Board] = []
    start = threading.Barrier(8)

    def work() -> None:
        start.wait()
        boards.append(ttr_core.load_map("4towns"))

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(boards) == 8 and all(board is boards[0] for board in boards)
    assert scans == [1]


def test_a_map_file_by_path_reads_no_package_metadata(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse() -> None:
        raise AssertionError("a path looked up the package maps")

    monkeypatch.setattr(packages, "_scan_package_maps", refuse)
    ttr_core.rescan_entry_points()
    mine = tmp_path / "mine.toml"
    mine.write_text(_map("mine"), encoding="utf-8")
    assert ttr_core.load_map(mine).id == "mine"
    assert ttr_core.load_map("newyork").id == "newyork"
    monkeypatch.undo()
    ttr_core.rescan_entry_points()
