"""Untrusted data never names a file (issue 19).

Found: a saved record edited to ``"map": "/etc/passwd"`` made ``ttr replay``
open and parse that file and quote the parser's complaint;
``/proc/self/environ`` was read the same way, and ``UnknownMapError`` vs
``MapError`` told a client whether a path exists. A map name in data is now
looked up among the built-in maps and those the app registered only.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ttr_core
from ttr_core import DataError
from ttr_core.mapfiles.reading import _builtin_dir
from ttr_core.mapfiles.registry import NOT_AVAILABLE

# -- an audit hook that lists the files opened while it is armed ---------------------

_opened: list[str] = []
_armed = threading.local()


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "open" and getattr(_armed, "on", False) and isinstance(args[0], str | bytes):
        _opened.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)  # cannot be removed: it records only while armed


@contextlib.contextmanager
def files_opened() -> Iterator[list[str]]:
    """The files this thread opens in the block, other than the built-in maps
    and the library's own modules (an import)."""
    _opened.clear()
    _armed.on = True
    found: list[str] = []
    try:
        yield found
    finally:
        _armed.on = False
        allowed = [
            str(_builtin_dir().resolve()),
            str(Path(ttr_core.__file__).resolve().parent),
        ]
        found.extend(
            path
            for path in _opened
            if not any(str(Path(path).resolve()).startswith(a) for a in allowed)
        )


def _saved_record() -> dict[str, Any]:
    state = ttr_core.new_game("newyork", 2, seed=1)
    action = ttr_core.legal_actions(state)[0]
    record = ttr_core.record_of(state, [action])
    return json.loads(ttr_core.to_json(record))  # type: ignore[no-any-return]


HOSTILE_NAMES = [
    "/etc/passwd",
    "/proc/self/environ",
    "/etc",
    "../../etc/passwd",
    "/nonexistent/map.toml",
    "newyork.toml/../../../etc/passwd",
    "\x00",
    "x" * 5000,
]


@pytest.fixture
def users_map(tmp_path: Path) -> Path:
    """A valid map file of the user's: named in data, it is refused all the same."""
    text = (_builtin_dir() / "newyork.toml").read_text(encoding="utf-8")
    path = tmp_path / "mine.toml"
    path.write_text(text.replace('id = "newyork"', 'id = "mine"'), encoding="utf-8")
    return path


def test_records_naming_files_are_refused_with_one_fixed_message_and_open_nothing(
    users_map: Path,
) -> None:
    base = _saved_record()
    ttr_core.restore(ttr_core.from_json(json.dumps(base), ttr_core.GameRecord))  # warm up
    messages = set()
    for name in [*HOSTILE_NAMES, str(users_map), "mine"]:
        data = dict(base, map=name)
        text = json.dumps(data)
        with files_opened() as opened:
            record = ttr_core.from_json(text, ttr_core.GameRecord)
            for read in (ttr_core.restore, ttr_core.replay):
                with pytest.raises(DataError) as refused:
                    read(record)
                messages.add(str(refused.value))
        assert opened == [], (name, opened)
    assert messages == {f"map_fingerprint: {NOT_AVAILABLE}"}


def test_states_and_views_naming_files_are_refused_and_open_nothing(users_map: Path) -> None:
    state = ttr_core.new_game("newyork", 2, seed=1)
    for kind, value in (
        (ttr_core.GameState, state),
        (ttr_core.PlayerView, ttr_core.player_view(state, 0)),
    ):
        data = json.loads(ttr_core.to_json(value))
        messages = set()
        for name in [*HOSTILE_NAMES, str(users_map)]:
            data["board"]["id"] = name
            with files_opened() as opened, pytest.raises(DataError) as refused:
                ttr_core.from_json(json.dumps(data), kind)
            assert opened == [], (name, opened)
            messages.add(str(refused.value))
        assert messages == {f"board: {NOT_AVAILABLE}"}


def test_a_registered_map_is_found_by_id_and_fingerprint(users_map: Path) -> None:
    mine = ttr_core.load_map(users_map)  # the app's own code names the file
    state = ttr_core.new_game(mine, 2, seed=3)
    text = ttr_core.to_json(state)
    record_text = ttr_core.to_json(ttr_core.record_of(state, ()))
    with pytest.raises(DataError, match="neither a built-in map nor one the app registered"):
        ttr_core.from_json(text, ttr_core.GameState)
    assert ttr_core.register_map(mine) == "mine"
    try:
        assert mine in ttr_core.registered_maps()
        with files_opened() as opened:
            assert ttr_core.from_json(text, ttr_core.GameState) == state
            record = ttr_core.from_json(record_text, ttr_core.GameRecord)
            assert ttr_core.restore(record) == state
        assert opened == []
        # The app may still pass its board in code.
        assert ttr_core.from_json(text, ttr_core.GameState, board=users_map) == state
    finally:
        assert ttr_core.unregister_map("mine") == 1
    assert ttr_core.unregister_map("mine") == 0
    with pytest.raises(DataError):
        ttr_core.from_json(text, ttr_core.GameState)


def test_a_registered_map_with_other_content_is_told_apart_by_fingerprint() -> None:
    builtin = ttr_core.load_map("newyork")
    import attrs

    changed = attrs.evolve(builtin, rules=attrs.evolve(builtin.rules, cars_per_player=20))
    assert ttr_core.map_fingerprint(changed) != ttr_core.map_fingerprint(builtin)
    ttr_core.register_map(changed)
    try:
        for board in (builtin, changed):
            state = ttr_core.new_game(board, 2, seed=1)
            read = ttr_core.from_json(ttr_core.to_json(state), ttr_core.GameState)
            assert read.board is board
    finally:
        ttr_core.unregister_map(changed)


@pytest.mark.parametrize("junk", [None, "newyork", 3, object()])
def test_register_map_takes_boards_only(junk: Any) -> None:
    with pytest.raises(ttr_core.ArgumentError, match="register_map"):
        ttr_core.register_map(junk)


def test_ttr_replay_of_a_record_naming_etc_passwd_reads_no_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(dict(_saved_record(), map="/etc/passwd")), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "ttr_core", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode != 0
    assert NOT_AVAILABLE in run.stderr
    assert "root" not in run.stderr and "passwd" not in run.stderr


# -- issue 30, finding 2: a map name from a client never opens a file ------------------------


@pytest.fixture
def secret_file(tmp_path: Path) -> Path:
    """A TOML file a server keeps that is no map: its values must never be echoed."""
    path = tmp_path / "cfg.toml"
    path.write_text('format = "hunter2-db-password"\n', encoding="utf-8")
    return path


@pytest.fixture
def stats(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every path ``os.stat`` is asked about (``Path.is_file`` included), which the
    audit hook does not see."""
    seen: list[str] = []
    real = os.stat

    def recording(path: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(path, str | bytes | os.PathLike):
            seen.append(os.fsdecode(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", recording)
    return seen


def test_new_game_opens_any_path_by_default_and_echoes_its_problems(secret_file: Path) -> None:
    # What a map author gets for their own file: the detailed errors stay.
    with pytest.raises(ttr_core.MapError, match="hunter2"):
        ttr_core.new_game(str(secret_file), 2)


def test_a_name_from_outside_never_reaches_a_file(
    secret_file: Path, users_map: Path, stats: list[str]
) -> None:
    ttr_core.new_game("newyork", 2, seed=1, files=False)  # warm up the built-in index
    for name in [*HOSTILE_NAMES, str(secret_file), str(users_map), "cfg.toml", "mine.toml"]:
        stats.clear()
        with files_opened() as opened, pytest.raises(ttr_core.UnknownMapError) as refused:
            ttr_core.new_game(name, 2, files=False)
        assert opened == [], (name, opened)
        assert not [p for p in stats if "cfg" in p or "mine" in p or "etc" in p], stats
        message = str(refused.value)
        assert "hunter2" not in message and "path" not in message and len(message) < 300
        assert "newyork" in message  # it names the maps there are
        with files_opened() as opened, pytest.raises(ttr_core.UnknownMapError):
            ttr_core.named_map(name)
        assert opened == []


def test_named_map_finds_built_in_package_and_registered_maps(users_map: Path) -> None:
    assert ttr_core.named_map("newyork") is ttr_core.load_map("newyork")
    assert ttr_core.named_map("NEWYORK") is ttr_core.load_map("newyork")
    state = ttr_core.new_game("usa", 3, seed=2, files=False)
    assert state.board is ttr_core.load_map("usa")
    mine = ttr_core.load_map(users_map)  # the app's own code names the file
    with pytest.raises(ttr_core.UnknownMapError):
        ttr_core.named_map("mine")
    ttr_core.register_map(mine)
    try:
        assert ttr_core.named_map("mine") is mine
        assert ttr_core.new_game("mine", 2, seed=1, files=False).board is mine
        with pytest.raises(ttr_core.UnknownMapError) as refused:
            ttr_core.named_map("yours")
        assert "mine" in str(refused.value)  # a registered map is one there is
    finally:
        ttr_core.unregister_map(mine)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"map": Path("newyork")},
        {"map": "newyork", "tickets": "deck.toml"},
        {"map": "newyork", "files": 0},
        {"map": "newyork", "files": "no"},
    ],
    ids=["path-like map", "tickets file", "files=0", "files='no'"],
)
def test_files_false_refuses_what_would_name_a_file(kwargs: dict[str, Any]) -> None:
    kwargs = {"files": False, **kwargs}
    with files_opened() as opened, pytest.raises(ttr_core.ArgumentError):
        ttr_core.new_game(players=2, **kwargs)
    assert opened == []


@pytest.mark.parametrize("name", [None, 5, b"newyork", ["newyork"], Path("newyork")])
def test_named_map_takes_a_str_only(name: object) -> None:
    with pytest.raises(ttr_core.ArgumentError):
        ttr_core.named_map(name)  # type: ignore[arg-type]
