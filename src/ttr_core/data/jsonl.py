"""Game records an app can keep: an append-only JSON Lines form with an
integrity line.

A record in JSON Lines is a header line (the game's configuration: the
:class:`~ttr_core.GameRecord` without its actions), one line per action,
an optional line for an early ending, and a trailing integrity line::

    {"ttr_record": 1, "format": 1, "map": "newyork", ...}
    {"type": "keep_tickets", "player": 0, "tickets": [3, 7]}
    ...
    {"end": {"termination": "resignation", "forfeit": 1}}
    {"integrity": {"actions": 41, "sha256": "9f2c..."}}

The integrity line counts the action lines and chains a SHA-256 over every
line before it, so a record cut short (the trailer missing, or lines lost)
or changed (an action edited, added, dropped or reordered) is refused. With
a ``key`` the chain is an HMAC: nobody without the key can forge a record.
Appending an action rewrites only the trailer: each append costs the same
however long the game (:class:`RecordLines` keeps the chain in memory, and
:class:`RecordFile` truncates the file at its trailer and writes two lines).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
from collections.abc import Callable, Iterator
from typing import IO, Any

from ttr_core.data.messages import from_data, to_data
from ttr_core.data.records import GameRecord, record_of
from ttr_core.errors import ArgumentError, DataError, TtrError, path_argument, show, what
from ttr_core.model.actions import Action
from ttr_core.model.state import EARLY_ENDINGS, GameState
from ttr_core.rules.consistency import MAX_ACTIONS

__all__ = [
    "MAX_LINE",
    "RecordFile",
    "RecordLines",
    "from_jsonl",
    "to_jsonl",
]

#: Version of the JSON Lines form (the ``ttr_record`` key of the header).
JSONL_VERSION = 1
#: Record fields that are lines of their own, never in the header.
_HEADER_KEYS_LEFT_OUT = frozenset({"actions", "termination", "forfeit"})
#: Longest line read (characters): far above any header or action.
MAX_LINE = 64 * 1024
#: Longest record text read: every action at the longest line would not fit,
#: but a real game's lines are about 60 characters.
MAX_JSONL = 64 * 1024 * 1024


def _json_line(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


class _Chain:
    """The running SHA-256 (or HMAC-SHA-256) over a record's lines."""

    def __init__(self, key: bytes | None) -> None:
        if key is not None and not isinstance(key, bytes):
            raise ArgumentError(f"key must be bytes (or None), not {type(key).__name__}")
        self._key = key
        self.digest = ""

    def add(self, line: str) -> None:
        data = (self.digest + "\n" + line).encode("utf-8")
        if self._key is None:
            self.digest = hashlib.sha256(data).hexdigest()
        else:
            self.digest = hmac.new(self._key, data, hashlib.sha256).hexdigest()

    def copy(self) -> _Chain:
        other = _Chain(self._key)
        other.digest = self.digest
        return other


class RecordLines:
    """A game record as JSON Lines, built as the game goes: one line per action.

    For an app that stores lines itself (a row per action in a database):
    store :attr:`header`, then each line :meth:`append` returns, and keep
    :attr:`trailer` up to date (one row, replaced); :meth:`text` joins them
    all. Each append costs the same however long the game. ``key`` makes the
    integrity line an HMAC (keep the key on the server).
    """

    def __init__(self, state: GameState, *, key: bytes | None = None) -> None:
        """Start the record of ``state``'s game (any state of it: the
        configuration and seed are the game's); no action yet."""
        self._start(_header_line(record_of(state, ())), key)

    @classmethod
    def resume(cls, text: str | bytes, *, key: bytes | None = None) -> RecordLines:
        """Go on with a stored record: ``text`` (its lines, the integrity line
        last) is checked whole as :func:`from_jsonl` checks it, and the lines
        appended from here on chain onto it (nothing is rewritten). A record
        that holds an ending takes no further action."""
        text = _as_text(text)
        record, chain = _read_lines(text, key)
        body = text.split("\n")[1:-2]
        lines = cls.__new__(cls)
        lines._start(text.split("\n", 1)[0], key)
        if record.termination is not None:  # the line before the integrity line
            lines._ending = body.pop()
        lines._lines = body
        lines._chain = chain
        return lines

    @property
    def header(self) -> str:
        """The record's first line: the game's configuration."""
        return self._header

    def _start(self, header: str, key: bytes | None) -> None:
        self._header = header
        self._chain = _Chain(key)
        self._chain.add(header)
        self._lines: list[str] = []
        self._ending: str | None = None

    @property
    def count(self) -> int:
        """Actions recorded so far."""
        return len(self._lines)

    def append(self, action: Action) -> str:
        """Record ``action`` (one applied to the game); returns its line.
        Raises :class:`ArgumentError` for something that is not an action,
        once the game was ended, or past :data:`~ttr_core.rules.consistency.MAX_ACTIONS`."""
        if not isinstance(action, Action):
            raise ArgumentError(f"append() takes an action, not {type(action).__name__}")
        if self._ending is not None:
            raise ArgumentError("the record is ended: no action can follow its ending")
        if len(self._lines) >= MAX_ACTIONS:
            raise ArgumentError(f"a record holds at most {MAX_ACTIONS} actions")
        line = _json_line(to_data(action))
        self._chain.add(line)
        self._lines.append(line)
        return line

    def end(self, state: GameState) -> str:
        """Record the early ending of ``state`` (a game ended by
        :func:`~ttr_core.end_game`); returns its line. A game that ended by
        the rules needs none: its actions show it."""
        if not isinstance(state, GameState) or state.termination not in EARLY_ENDINGS:
            raise ArgumentError("end() takes the state of a game ended by end_game()")
        if self._ending is not None:
            raise ArgumentError("the record is ended already")
        return self._end(_ending_line(state.termination, state.forfeit))

    def _end(self, line: str) -> str:
        self._chain.add(line)
        self._ending = line
        return line

    @property
    def trailer(self) -> str:
        """The integrity line for the lines so far (the record's last line)."""
        return _json_line(
            {"integrity": {"actions": len(self._lines), "sha256": self._chain.digest}}
        )

    @property
    def index(self) -> int:
        """The index of the last line before the trailer (``0``, the header,
        before any action): the row key of the line :meth:`append` or
        :meth:`end` just returned, for an app that stores a row per line."""
        return len(self._lines) + (self._ending is not None)

    def __len__(self) -> int:
        """How many lines the record has: header, actions, ending, trailer."""
        return self.index + 2

    def __getitem__(self, index: int) -> str:
        """Line ``index`` of the record (negative from the end, as for a list)."""
        if type(index) is not int:
            raise ArgumentError(f"a line index is an int, not {what(index)}")
        size = len(self)
        at = index + size if index < 0 else index
        if not 0 <= at < size:
            raise ArgumentError(f"line {show(index)} of a record of {size} lines")
        if at == 0:
            return self._header
        if at == size - 1:
            return self.trailer
        if at <= len(self._lines):
            return self._lines[at - 1]
        assert self._ending is not None
        return self._ending

    def __iter__(self) -> Iterator[str]:
        return iter(self.lines())

    def lines(self) -> list[str]:
        """Every line of the record, in order: header, actions, ending, trailer."""
        ending = [] if self._ending is None else [self._ending]
        return [self._header, *self._lines, *ending, self.trailer]

    def text(self) -> str:
        """The whole record as JSON Lines text (each line ends with a newline)."""
        return "".join(line + "\n" for line in self.lines())


def to_jsonl(record: GameRecord, *, key: bytes | None = None) -> str:
    """``record`` as JSON Lines text, its integrity line included."""
    if not isinstance(record, GameRecord):
        raise ArgumentError(f"to_jsonl() takes a GameRecord, not {type(record).__name__}")
    lines = RecordLines.__new__(RecordLines)
    lines._start(_header_line(record), key)
    for action in record.actions:
        lines.append(action)
    if record.termination is not None:
        lines._end(_ending_line(record.termination, record.forfeit))
    return lines.text()


def _header_line(record: GameRecord) -> str:
    """The first line: the record's configuration (its actions and ending are
    lines of their own)."""
    data = {"ttr_record": JSONL_VERSION, **to_data(record)}
    return _json_line({k: v for k, v in data.items() if k not in _HEADER_KEYS_LEFT_OUT})


def _ending_line(termination: object, forfeit: int | None) -> str:
    return _json_line({"end": {"termination": str(termination), "forfeit": forfeit}})


def from_jsonl(text: str | bytes, *, key: bytes | None = None) -> GameRecord:
    """Read a record written as JSON Lines (:func:`to_jsonl`,
    :class:`RecordLines`, :class:`RecordFile`), its integrity line checked.

    Raises :class:`DataError` naming the line for a record cut short (no
    integrity line, or fewer actions than it counts), changed (the chain does
    not match: an edited, added, dropped or reordered line, or another key),
    or malformed; every action is read with the checks of
    :func:`~ttr_core.from_json`. Use :func:`~ttr_core.restore` to check
    that the actions play.
    """
    record, _ = _read_lines(_as_text(text), key)
    return record


def _as_text(text: object) -> str:
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise DataError("", "the record is not UTF-8 text") from None
    if not isinstance(text, str):
        raise DataError("", f"expected JSON Lines text, not {type(text).__name__}")
    if len(text) > MAX_JSONL:
        raise DataError("", f"the record is longer than {MAX_JSONL} characters")
    return text


def _parse_line(line: str, number: int) -> Any:
    where = f"line {number}"
    if len(line) > MAX_LINE:
        raise DataError(where, f"longer than {MAX_LINE} characters")
    try:
        # The same parser (bounds, duplicate keys, NaN) as from_json's.
        from ttr_core.data.messages import _parse

        return _parse(line)
    except DataError as exc:
        raise DataError(where, exc.message) from None


def _read_lines(text: str, key: bytes | None) -> tuple[GameRecord, _Chain]:
    """The record and the chain over its lines (the trailer's excepted)."""
    if not text.endswith("\n"):
        raise DataError("", "the record is cut short: its last line is incomplete")
    raw = text[:-1].split("\n")
    if len(raw) < 2:
        raise DataError("", "the record is cut short: a header and an integrity line are needed")
    header_line, body, trailer_line = raw[0], raw[1:-1], raw[-1]
    header = _parse_line(header_line, 1)
    if not isinstance(header, dict) or header.get("ttr_record") != JSONL_VERSION:
        raise DataError("line 1", f"not a ttr-core record header (ttr_record: {JSONL_VERSION})")
    if not _HEADER_KEYS_LEFT_OUT.isdisjoint(header):
        # The actions and the ending are lines of their own, under the chain.
        raise DataError("line 1", "the header holds the game's configuration only")
    trailer = _parse_line(trailer_line, len(raw))
    if (
        not isinstance(trailer, dict)
        or set(trailer) != {"integrity"}
        or not isinstance(trailer["integrity"], dict)
        or set(trailer["integrity"]) != {"actions", "sha256"}
        or type(trailer["integrity"]["actions"]) is not int
        or not isinstance(trailer["integrity"]["sha256"], str)
    ):
        raise DataError(
            f"line {len(raw)}", "the record is cut short or changed: no integrity line at its end"
        )
    chain = _Chain(key)
    chain.add(header_line)
    ending: dict[str, Any] | None = None
    actions: list[Any] = []
    for number, line in enumerate(body, start=2):
        if ending is not None:
            raise DataError(f"line {number}", "nothing but the integrity line follows the ending")
        chain.add(line)
        data = _parse_line(line, number)
        if isinstance(data, dict) and set(data) == {"end"}:
            ending = data["end"]
            if not isinstance(ending, dict) or set(ending) != {"termination", "forfeit"}:
                raise DataError(f"line {number}", "an ending holds termination and forfeit only")
            continue
        actions.append(data)
        if len(actions) > MAX_ACTIONS:
            raise DataError(f"line {number}", f"a record holds at most {MAX_ACTIONS} actions")
    integrity = trailer["integrity"]
    if integrity["actions"] != len(actions):
        raise DataError(
            f"line {len(raw)}",
            f"the record is cut short or changed: it holds {len(actions)} actions where its "
            f"integrity line counts {show(integrity['actions'], 20)}",
        )
    # As bytes: compare_digest refuses a str with a character beyond ASCII.
    written = integrity["sha256"].encode("utf-8", "surrogatepass")
    if not hmac.compare_digest(written, chain.digest.encode("ascii")):
        raise DataError(
            f"line {len(raw)}",
            "the record was changed: its lines do not match its integrity line"
            + (" (or the key differs)" if key is not None else ""),
        )
    data = {k: v for k, v in header.items() if k != "ttr_record"}
    data["actions"] = actions
    if ending:
        data.update(ending)
    try:
        record: GameRecord = from_data(data, GameRecord)
    except DataError as exc:
        path = exc.path
        if path.startswith("actions["):  # actions[i] is line i + 2
            index = int(path[len("actions[") : path.index("]")])
            path = f"line {index + 2}{path[path.index(']') + 1 :]}"
        raise DataError(path, exc.message) from None
    return record, chain


class RecordFile:
    """A game record kept in a JSON Lines file, appended to as the game goes.

    ``RecordFile.create(path, state)`` writes the header and the integrity
    line; :meth:`append` adds an action, rewriting only the integrity line
    (each append costs the same however long the game, and the file on disk
    is a complete record after every call); :meth:`open` checks an existing
    file whole and goes on appending. The path is the app's own, given in
    code. Use as a context manager, or :meth:`close` it.
    """

    def __init__(self, file: IO[bytes], lines: RecordLines, trailer_at: int) -> None:
        self._file = file
        self._lines = lines
        self._trailer_at = trailer_at

    @classmethod
    def create(
        cls, path: str | os.PathLike[str], state: GameState, *, key: bytes | None = None
    ) -> RecordFile:
        """A new record file for ``state``'s game (refused if ``path`` exists)."""
        lines = RecordLines(state, key=key)
        file = _open(path, "xb")
        head = (lines.header + "\n").encode("utf-8")
        file.write(head)
        record = cls(file, lines, len(head))
        record._write_trailer()
        return record

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, key: bytes | None = None) -> RecordFile:
        """An existing record file, checked whole (:func:`from_jsonl`), to append to."""
        file = _open(path, "r+b")
        try:
            size = os.fstat(file.fileno()).st_size
            if size > MAX_JSONL:
                raise DataError("", f"the record is longer than {MAX_JSONL} bytes")
            text = _as_text(file.read(size))
            lines = RecordLines.resume(text, key=key)
            if lines._ending is not None:
                raise DataError("", "the record is ended: nothing can be appended")
        except (TtrError, OSError):
            file.close()
            raise
        # Where the integrity line starts, as written in the file (it is
        # read, not rewritten, however it was spelt).
        last = text[:-1].rsplit("\n", 1)[-1]
        trailer_at = len(text.encode("utf-8")) - len(last.encode("utf-8")) - 1
        return cls(file, lines, trailer_at)

    @property
    def count(self) -> int:
        """Actions recorded so far."""
        return self._lines.count

    def append(self, action: Action) -> None:
        """Add ``action`` (one applied to the game) and its new integrity line.

        If the file cannot be written (an ``OSError``, raised as it is), nothing
        is recorded: the file keeps its former integrity line as far as it can
        be written back, and the same action may be appended again."""
        self._add(lambda: self._lines.append(action))

    def end(self, state: GameState) -> None:
        """Record the early ending of ``state`` (see :meth:`RecordLines.end`)."""
        self._add(lambda: self._lines.end(state))

    def _add(self, make_line: Callable[[], str]) -> None:
        lines = self._lines
        count, digest, ending = len(lines._lines), lines._chain.digest, lines._ending
        old_trailer = lines.trailer
        line = make_line()
        data = (line + "\n").encode("utf-8")
        try:
            self._write_at(self._trailer_at, data + (lines.trailer + "\n").encode("utf-8"))
        except OSError:
            # Undo in memory, and put the former integrity line back.
            del lines._lines[count:]
            lines._chain.digest, lines._ending = digest, ending
            with contextlib.suppress(OSError):
                self._write_at(self._trailer_at, (old_trailer + "\n").encode("utf-8"))
            raise
        self._trailer_at += len(data)

    def _write_at(self, offset: int, data: bytes) -> None:
        self._file.seek(offset)
        self._file.write(data)
        self._file.truncate()
        self._file.flush()

    def record(self) -> GameRecord:
        """The record written so far."""
        return from_jsonl(self._lines.text(), key=self._lines._chain._key)

    def _write_trailer(self) -> None:
        self._write_at(self._trailer_at, (self._lines.trailer + "\n").encode("utf-8"))

    def close(self) -> None:
        """Close the file (the record on disk is complete after every call)."""
        self._file.close()

    def __enter__(self) -> RecordFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _open(path: object, mode: str) -> IO[bytes]:
    path = path_argument("path", path, "the path of a record file")
    try:
        return open(path, mode)  # kept open for appending
    except FileExistsError:
        raise ArgumentError("the record file exists already: RecordFile.open() appends") from None
    except OSError as exc:
        raise ArgumentError(f"cannot open the record file: {exc.strerror}") from None
