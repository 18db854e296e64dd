"""Records an app can keep (issue 19): public record_of, eager restore, a lazy
replay that checks its header first, and the append-only JSON Lines form
whose integrity line refuses a record cut short or changed."""

from __future__ import annotations

import json
import random
import warnings
from pathlib import Path
from typing import Any

import pytest

import ttr_core
from ttr_core import DataError, GameRecord, KeepTickets, RecordFile, RecordLines

CONFIGS: list[tuple[str, int, Any]] = [
    ("newyork", 2, None),
    ("nederland", 4, None),
    ("nederland", 2, ["tolls", "neutral"]),
    ("amsterdam", 3, None),
    ("usa", 5, None),
]


def _game(map_name: str, players: int, variants: Any, seed: int) -> tuple[Any, list[Any], Any]:
    """(first state, actions, final state) of a random game."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        first = ttr_core.new_game(map_name, players, seed=seed, variants=variants)
    rng = random.Random(seed)
    state, actions = first, []
    while not state.is_over:
        action = rng.choice(ttr_core.legal_actions(state))
        state = ttr_core.apply(state, action)
        actions.append(action)
    return first, actions, state


@pytest.mark.parametrize(("map_name", "players", "variants"), CONFIGS)
def test_a_file_appended_move_by_move_restores_the_live_state(
    tmp_path: Path, map_name: str, players: int, variants: Any
) -> None:
    first, actions, final = _game(map_name, players, variants, seed=players)
    path = tmp_path / "game.jsonl"
    state = first
    with RecordFile.create(path, first) as file:
        for index, action in enumerate(actions):
            state = ttr_core.apply(state, action)
            file.append(action)
            if index % 17 == 0:  # the file is a complete record after every append
                on_disk = ttr_core.from_jsonl(path.read_bytes())
                assert ttr_core.restore(on_disk) == state
        assert file.count == len(actions)
    record = ttr_core.from_jsonl(path.read_text(encoding="utf-8"))
    assert ttr_core.restore(record) == final
    assert record == ttr_core.record_of(final, actions)
    assert path.read_text(encoding="utf-8") == ttr_core.to_jsonl(record)


def test_a_file_reopened_goes_on_appending(tmp_path: Path) -> None:
    first, actions, final = _game("newyork", 3, None, seed=7)
    path = tmp_path / "game.jsonl"
    with RecordFile.create(path, first) as file:
        for action in actions[:20]:
            file.append(action)
    with RecordFile.open(path) as file:
        assert file.count == 20
        for action in actions[20:]:
            file.append(action)
    assert ttr_core.restore(ttr_core.from_jsonl(path.read_text(encoding="utf-8"))) == final


def test_record_lines_for_a_database_row_per_line() -> None:
    first, actions, final = _game("newyork", 2, None, seed=2)
    lines = RecordLines(first)
    rows = [lines.header]
    for action in actions:
        rows.append(lines.append(action))
    text = "\n".join([*rows, lines.trailer]) + "\n"
    assert text == lines.text()
    assert ttr_core.restore(ttr_core.from_jsonl(text)) == final


def _lines(tmp_path: Path) -> list[str]:
    first, actions, _ = _game("newyork", 2, None, seed=5)
    return ttr_core.to_jsonl(ttr_core.record_of(first, actions)).splitlines()


def test_a_record_cut_short_is_refused(tmp_path: Path) -> None:
    lines = _lines(tmp_path)
    text = "\n".join(lines) + "\n"
    cuts = {
        "no trailer": "\n".join(lines[:-1]) + "\n",
        "last action lost": "\n".join([*lines[:-2], lines[-1]]) + "\n",
        "half a line": text[: len(text) - 30],
        "header only": lines[0] + "\n",
        "empty": "",
    }
    for name, cut in cuts.items():
        with pytest.raises(DataError, match=r"cut short|incomplete|header") as refused:
            ttr_core.from_jsonl(cut)
        assert len(str(refused.value)) < 300, name


def test_a_changed_record_is_refused(tmp_path: Path) -> None:
    lines = _lines(tmp_path)
    action = json.loads(lines[10])
    edited = dict(action, player=1 - action["player"])
    changes = {
        "an action edited": [*lines[:10], json.dumps(edited), *lines[11:]],
        "two actions swapped": [*lines[:10], lines[11], lines[10], *lines[12:]],
        "an action dropped and the count mended": [
            *lines[:10],
            *lines[11:-1],
            json.dumps(
                {
                    "integrity": {
                        "actions": len(lines) - 3,
                        "sha256": json.loads(lines[-1])["integrity"]["sha256"],
                    }
                }
            ),
        ],
        "the header edited": [lines[0].replace('"seed":', '"seed":1'), *lines[1:]],
    }
    for name, changed in changes.items():
        with pytest.raises(DataError, match="changed") as refused:
            ttr_core.from_jsonl("\n".join(changed) + "\n")
        assert "line" in str(refused.value), name


def test_with_a_key_nobody_without_it_can_forge_a_record() -> None:
    first, actions, final = _game("newyork", 2, None, seed=6)
    record = ttr_core.record_of(first, actions)
    signed = ttr_core.to_jsonl(record, key=b"server secret")
    assert ttr_core.restore(ttr_core.from_jsonl(signed, key=b"server secret")) == final
    with pytest.raises(DataError, match="key differs"):
        ttr_core.from_jsonl(signed, key=b"another")
    # Recomputing the chain without the key does not pass the check.
    unsigned = ttr_core.to_jsonl(record)
    with pytest.raises(DataError, match="changed"):
        ttr_core.from_jsonl(unsigned, key=b"server secret")


def test_a_refused_record_does_not_quote_hidden_tickets() -> None:
    first, actions, _ = _game("newyork", 2, None, seed=4)
    offered = first.pending.offered
    stray = next(t for t in range(len(first.board.tickets)) if t not in offered)
    bad = [KeepTickets(0, frozenset({stray})), *actions[1:]]
    record = ttr_core.record_of(first, bad)
    with pytest.raises(DataError) as refused:
        ttr_core.restore(record)
    message = str(refused.value)
    assert message.startswith("actions[0]:")
    assert "ticket_not_offered" in message
    for ticket in offered:  # the hidden offer is never quoted
        assert str(ticket) not in message.replace("actions[0]", "").replace("ply 0", "")


def test_replay_checks_the_header_before_it_returns() -> None:
    first, actions, final = _game("newyork", 2, None, seed=4)
    record = ttr_core.record_of(first, actions)
    bad_header = GameRecord(**{**_fields(record), "players": 9})
    with pytest.raises(DataError, match="players"):
        ttr_core.replay(bad_header)  # raises here, not when iterated
    bad_action = GameRecord(**{**_fields(record), "actions": (*actions[:5], actions[0])})
    states = ttr_core.replay(bad_action)  # lazy: the actions are applied as taken
    with pytest.raises(DataError, match=r"actions\[5\]"):
        list(states)
    assert list(ttr_core.replay(record))[-1] == final


def _fields(record: GameRecord) -> dict[str, Any]:
    import attrs

    return {f.name: getattr(record, f.name) for f in attrs.fields(GameRecord)}


@pytest.mark.parametrize(
    "junk",
    [None, 1, "x", [object()], (ttr_core.DrawBlind(0), "not an action")],
)
def test_record_of_refuses_junk_actions(junk: Any) -> None:
    state = ttr_core.new_game("newyork", 2, seed=1)
    with pytest.raises(ttr_core.ArgumentError):
        ttr_core.record_of(state, junk)
    with pytest.raises(ttr_core.ArgumentError):
        ttr_core.record_of(None, [])  # type: ignore[arg-type]


def test_append_refuses_junk_and_an_ended_record(tmp_path: Path) -> None:
    first = ttr_core.new_game("newyork", 2, seed=1)
    lines = RecordLines(first)
    with pytest.raises(ttr_core.ArgumentError):
        lines.append("draw")  # type: ignore[arg-type]
    with pytest.raises(ttr_core.ArgumentError):
        lines.end(first)  # not ended early
    lines.end(ttr_core.end_game(first, "abandoned"))
    with pytest.raises(ttr_core.ArgumentError, match="ended"):
        lines.append(ttr_core.DrawBlind(0))
    path = tmp_path / "r.jsonl"
    path.write_text(lines.text(), encoding="utf-8")
    with pytest.raises(DataError, match="ended"):
        RecordFile.open(path)
    with pytest.raises(ttr_core.ArgumentError, match="exists already"):
        RecordFile.create(path, first)


@pytest.mark.parametrize(
    "text",
    [
        b"\xff\xfe",
        "[]\n[]\n",
        '{"ttr_record": 2}\n{"integrity": {"actions": 0, "sha256": ""}}\n',
        '{"ttr_record": 1}\n{"integrity": {"actions": 0, "sha256": ""}}\n',
        "{" * 100_000 + "\n",
        "x" * 70_000 + "\n" + "y\n",
    ],
)
def test_malformed_jsonl_is_a_data_error(text: Any) -> None:
    with pytest.raises(DataError) as refused:
        ttr_core.from_jsonl(text)
    assert len(str(refused.value)) < 300


def test_record_lines_resume_a_stored_record_and_chain_on() -> None:
    first, actions, final = _game("newyork", 2, None, seed=12)
    lines = RecordLines(first, key=b"k")
    for action in actions[:30]:
        lines.append(action)
    stored = lines.text()
    resumed = RecordLines.resume(stored, key=b"k")
    assert resumed.count == 30 and resumed.text() == stored
    for action in actions[30:]:
        resumed.append(action)
    assert ttr_core.restore(ttr_core.from_jsonl(resumed.text(), key=b"k")) == final
    with pytest.raises(DataError, match="changed"):
        RecordLines.resume(stored.replace('"player":1', '"player":0', 1), key=b"k")
    ended = RecordLines.resume(stored, key=b"k")
    state = ttr_core.restore(ttr_core.from_jsonl(stored, key=b"k"))
    ended.end(ttr_core.end_game(state, "resignation", 0))
    again = RecordLines.resume(ended.text(), key=b"k")
    assert again.text() == ended.text()
    with pytest.raises(ttr_core.ArgumentError, match="ended"):
        again.append(actions[30])


def test_a_failed_write_records_nothing_and_the_action_may_be_appended_again(
    tmp_path: Path,
) -> None:
    # Found in review: the chain and the count moved on before the write, so a
    # retry after a full disk left a file counting one action too many.
    first, actions, _ = _game("newyork", 2, None, seed=3)
    path = tmp_path / "game.jsonl"
    with RecordFile.create(path, first) as file:
        for action in actions[:3]:
            file.append(action)
        real_write = file._file.write
        calls = {"n": 0}

        def failing_write(data: bytes) -> int:
            calls["n"] += 1
            if calls["n"] == 1:
                raise OSError(28, "No space left on device")
            return real_write(data)

        file._file.write = failing_write  # type: ignore[method-assign]
        with pytest.raises(OSError):
            file.append(actions[3])
        assert file.count == 3
        assert ttr_core.from_jsonl(path.read_bytes()).actions == tuple(actions[:3])
        file.append(actions[3])  # the retry
    assert ttr_core.from_jsonl(path.read_bytes()).actions == tuple(actions[:4])


def test_open_appends_after_an_integrity_line_spelt_otherwise(tmp_path: Path) -> None:
    # Found in review: the append offset came from the library's own spelling of
    # the integrity line, so a valid line written with spaces was overwritten
    # in the middle.
    first, actions, _ = _game("newyork", 2, None, seed=3)
    lines = ttr_core.to_jsonl(ttr_core.record_of(first, actions[:5])).splitlines()
    lines[-1] = json.dumps(json.loads(lines[-1]))  # with spaces
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with RecordFile.open(path) as file:
        file.append(actions[5])
    assert ttr_core.from_jsonl(path.read_bytes()).actions == tuple(actions[:6])


def test_the_header_and_the_ending_cannot_carry_other_fields() -> None:
    # Found in review: the ending line was merged into the record, so it could
    # replace the actions or the seed the integrity line vouches for.
    first, actions, _ = _game("newyork", 2, None, seed=3)
    record = ttr_core.record_of(ttr_core.end_game(first, "resignation", 1), actions[:0])
    lines = ttr_core.to_jsonl(record).splitlines()
    forged = json.loads(lines[1])
    forged["end"]["seed"] = 12345
    text = "\n".join([lines[0], json.dumps(forged), lines[-1]]) + "\n"
    with pytest.raises(DataError, match="line 2"):
        ttr_core.from_jsonl(text)
    header = json.loads(lines[0])
    for key, value in (("termination", "resignation"), ("forfeit", 1), ("actions", [])):
        changed = "\n".join([json.dumps(dict(header, **{key: value})), *lines[1:]]) + "\n"
        with pytest.raises(DataError, match="line 1"):
            ttr_core.from_jsonl(changed)


# -- issue 30 --------------------------------------------------------------------------


@pytest.mark.parametrize("digest", ["é" * 64, "\u2603", "\udcff" * 3, "", "0" * 64 + "ß"])
def test_a_digest_beyond_ascii_is_a_data_error(digest: str) -> None:
    # hmac.compare_digest raised a bare TypeError on a non-ASCII str.
    first, actions, _ = _game("newyork", 2, None, seed=4)
    lines = ttr_core.to_jsonl(ttr_core.record_of(first, actions[:5])).splitlines()
    trailer = json.loads(lines[-1])
    trailer["integrity"]["sha256"] = digest
    text = "\n".join([*lines[:-1], json.dumps(trailer)]) + "\n"
    for read in (ttr_core.from_jsonl, RecordLines.resume):
        with pytest.raises(DataError, match="changed"):
            read(text)


def test_record_lines_count_index_and_list_their_lines() -> None:
    first, actions, _ = _game("newyork", 2, None, seed=3)
    lines = RecordLines(first)
    assert (len(lines), lines.index) == (2, 0) and lines[0] == lines.header
    rows = {lines.index: lines.header}
    for action in actions[:7]:
        line = lines.append(action)
        rows[lines.index] = line  # the row key of the line just written
        assert lines[lines.index] == line and lines[-1] == lines.trailer
    assert len(lines) == 9 and lines.index == 7
    state = ttr_core.replay(ttr_core.from_jsonl(lines.text()))
    ended = ttr_core.end_game(list(state)[-1], "abandoned")
    line = lines.end(ended)
    rows[lines.index] = line
    assert lines.index == 8 and len(lines) == 10
    listed = lines.lines()
    assert isinstance(listed, list) and len(listed) == len(lines)
    assert listed == [rows[i] for i in range(9)] + [lines.trailer] == list(lines)
    assert [lines[i] for i in range(-len(lines), len(lines))] == listed + listed
    for bad in (10, -11, 1.0, "1", True):
        with pytest.raises(ttr_core.ArgumentError):
            lines[bad]  # type: ignore[index]
    assert lines.text() == "".join(line + "\n" for line in listed)
