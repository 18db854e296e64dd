"""The games of ``ttr serve``: kept in memory, bounded, one lock per game.

Everything here is built on the public API only: ``new_game`` (with
``files=False``: a map name from the page never opens a file), seat-bound
moves (``apply(state, action, seat=, expect_ply=)``), ``seat_status``,
``describe(..., seat=)``, the JSON converter
(``to_data``/``from_data``), the records (``RecordLines``, ``from_jsonl``,
``replay``), the bots (``ttr_core.agents.make_agent``) and the pictures
(``ttr_core.render.svg``). No web framework is imported: the app
(:mod:`ttr_core.serve.app`) calls :class:`GameStore` and answers what it
returns.

A game is held by the browser that made it: :attr:`Game.token` is a random
secret the app sets as that browser's cookie, and :meth:`GameStore.seated`
gives the game only to a request carrying it (the address alone gets the
answer of a game that does not exist). A game still being played is never
dropped for a new one, unless it was abandoned (nobody moved in it or looked
at it for :data:`ABANDONED` seconds): a full store refuses new games until one
is over.
With a games file (``db``, :mod:`ttr_core.serve.saved`) each game is written
as it goes, move by move, and a restart goes on with it.

What reaches the person is :func:`status`: a function of their seat's
``seat_status`` (their view, their own legal moves, their score sheet) and the event
lines told as their seat may know them. The game state (the seed, the
deck, the bots' hands and tickets) never leaves the store; the record,
which holds the seed, is given only once the game is over.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import os
import random
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import ttr_core
from ttr_core.agents import Agent, agent_names, make_agent
from ttr_core.play.text import event, start_words
from ttr_core.render import svg
from ttr_core.serve.saved import SavedGames, Stored, token_digest
from ttr_core.serve.status import WIDTH, inline, move_label, status

_log = logging.getLogger(__name__)

__all__ = [
    "ABANDONED",
    "MAX_GAMES",
    "MAX_RECORD",
    "MAX_REPLAYS",
    "Game",
    "GameStore",
    "Replay",
    "ServeError",
    "move_label",
    "status",
]

#: Games kept at once. A new game takes the room of the finished (or
#: abandoned) game used longest ago; when every game kept is still being
#: played, it is refused.
MAX_GAMES = 100
#: A game nobody moved in or looked at for this long (seconds) may make room
#: for a new one when the store is full: it was abandoned.
ABANDONED = 24 * 3600
#: Replays kept at once (a replay holds every state of its game); the one
#: used longest ago makes room for a new one.
MAX_REPLAYS = 16
#: The largest record a person may upload for a replay (characters).
MAX_RECORD = 2_000_000
#: Bot moves made in one go at most: a game never needs nearly so many
#: (a guard against a bot and a variant passing forever).
_MAX_BOT_MOVES = 20_000
#: Seat tokens looked at per request: a browser sends one per game path, a
#: client may send a few; a request stuffed with cookies costs no more.
_MAX_TOKENS = 8
#: One answer for a game that does not exist and for one the request does not
#: hold: the address alone tells nothing.
_UNKNOWN_GAME = "no such game here (it may have ended long ago, or be another browser's)"


class ServeError(Exception):
    """A request the store refuses: an HTTP ``status``, a short ``code`` and a message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


@dataclass(eq=False)
class Game:
    """One game: its current state, the person's seat, a bot per other seat."""

    id: str
    state: ttr_core.GameState
    seat: int
    agents: dict[int, Agent]
    bot_names: dict[int, str]
    rng: random.Random
    record: ttr_core.RecordLines
    events: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    used: float = field(default_factory=time.monotonic)
    #: The secret that holds the person's seat (the browser's cookie): 256
    #: random bits, its SHA-256 compared in constant time by
    #: :meth:`GameStore.seated`. Empty in a game resumed from the games file,
    #: which keeps only the SHA-256 (the browser still has the cookie).
    token: str = field(default_factory=lambda: secrets.token_urlsafe(32), repr=False)
    #: The SHA-256 of :attr:`token` (hex); worked out from it unless given.
    token_hash: str = field(default="", repr=False)
    #: Whether each move is written to the games file (:class:`GameStore`'s
    #: ``db``): false without one, and once a write failed (a later row
    #: would leave a gap that no longer replays).
    kept: bool = False
    #: How many of :attr:`events` are written to the games file.
    events_kept: int = 0

    def __post_init__(self) -> None:
        if not self.token_hash:
            self.token_hash = token_digest(self.token)


@dataclass(eq=False)
class Replay:
    """Every state of a finished (or recorded) game, and a line per action."""

    id: str
    states: list[ttr_core.GameState]
    lines: list[str]
    used: float = field(default_factory=time.monotonic)


class _Held(Protocol):
    id: str
    used: float


_H = TypeVar("_H", bound=_Held)


class _Shelf(Generic[_H]):
    """At most ``size`` items by id, in memory, safe between threads: a new item
    makes room by dropping the ``evictable`` item used longest ago, and is
    refused with ``full`` when no item may go."""

    def __init__(
        self,
        size: int,
        *,
        evictable: Callable[[_H], bool] = lambda held: True,
        full: Callable[[], ServeError] | None = None,
        dropped: Callable[[_H], None] = lambda held: None,
    ) -> None:
        self.size = size
        self._evictable = evictable
        self._full = full
        self._dropped = dropped
        self._items: dict[str, _H] = {}
        self._lock = threading.Lock()  # guards the dict only, never held during a move

    def has_room(self) -> bool:
        """Whether :meth:`put` would take a new item now (it may not a moment later)."""
        with self._lock:
            return len(self._items) < self.size or any(map(self._evictable, self._items.values()))

    def put(self, item: _H) -> None:
        """Keep ``item``; raises ``full()`` if room is needed and nothing may go.
        Each item dropped for it is given to ``dropped`` (after the lock)."""
        gone = []
        with self._lock:
            while item.id not in self._items and len(self._items) >= self.size:
                candidates = [held for held in self._items.values() if self._evictable(held)]
                if not candidates:
                    raise self._full() if self._full else ServeError(503, "full", "no room")
                oldest = min(candidates, key=lambda held: held.used)
                gone.append(self._items.pop(oldest.id))
            self._items[item.id] = item
        for held in gone:
            self._dropped(held)

    def get(self, item_id: str, *, note_use: bool = True) -> _H | None:
        """The item ``item_id`` (its use noted, unless ``note_use`` is false), or ``None``."""
        with self._lock:
            found = self._items.get(item_id)
        if found is not None and note_use:
            found.used = time.monotonic()
        return found


class GameStore:
    """The games and replays of one server, in memory, safe to call from many threads.

    ``map``, ``players`` and ``bots`` are the defaults of a new game; ``seed``
    (for tests and pictures only) makes every game the same: without it each
    game gets a fresh secret seed from ``new_game``. At most ``max_games``
    games are kept, and never is a game still being played dropped for a new
    one (:meth:`create` refuses instead) unless it was abandoned (untouched for
    :data:`ABANDONED` seconds; it leaves the games file too); ``max_replays``
    replays, the one used longest ago dropped for a new one.

    The methods that take a game id do not check who asks: the app first asks
    :meth:`seated` with the request's seat token.

    ``db``, the path of a SQLite file (:mod:`ttr_core.serve.saved`), keeps the
    games across restarts: each game is written when made and at each move,
    and a new store on the file goes on with them — the games being played
    (the bots move on if it was their turn) and, room permitting, the
    finished ones moved last. A stored game that no longer plays (its map
    changed, the file damaged) is skipped with a logged warning. Raises
    :class:`ttr_core.DataError` for a file that cannot be used (not SQLite,
    another program's, in use by another store). Without ``db`` the games
    live in memory only. :meth:`close` lets the file go.
    """

    def __init__(
        self,
        *,
        map: str = "newyork",
        players: int = 2,
        bots: Sequence[str] = ("route",),
        seed: int | None = None,
        max_games: int = MAX_GAMES,
        max_replays: int = MAX_REPLAYS,
        db: str | os.PathLike[str] | None = None,
    ) -> None:
        self.map = map
        self.players = players
        self.bots = tuple(bots)
        self.seed = seed
        # A live game is someone's game in progress: a flood of new games must
        # not end it. Only finished games make room, and games nobody moved in
        # or looked at for ABANDONED seconds (kept across restarts, abandoned
        # games would otherwise fill the server for good).
        self._games: _Shelf[Game] = _Shelf(
            max_games,
            evictable=lambda game: game.state.is_over or time.monotonic() - game.used > ABANDONED,
            full=self._full,
            dropped=self._forget,
        )
        self._replays: _Shelf[Replay] = _Shelf(max_replays)
        self._saved = SavedGames(db, keep=max_games) if db is not None else None
        #: The games taken up from ``db``: being played, and finished.
        self.resumed = (0, 0)
        if self._saved is not None:
            self._resume_all(self._saved)

    @property
    def db(self) -> str | None:
        """The path of the games file, or ``None`` when games live in memory only."""
        return None if self._saved is None else str(self._saved.path)

    def close(self) -> None:
        """Let the games file go (every move is written already); nothing without one."""
        if self._saved is not None:
            self._saved.close()

    def _forget(self, game: Game) -> None:
        """A game dropped from memory to make room: an unfinished one leaves the
        games file too (else a restart would bring it back)."""
        if self._saved is not None and not game.state.is_over:
            with contextlib.suppress(sqlite3.Error):
                self._saved.drop(game.id)

    def _full(self) -> ServeError:
        # 503, not 429: the server is at capacity whoever asks, not a client
        # asking too often; it lasts until a game is over (or, without a
        # games file, until ttr serve restarts).
        remedy = (
            "restart ttr serve (which ends them all)"
            if self._saved is None
            else "start ttr serve with another --db (they are kept across restarts)"
        )
        return ServeError(
            503,
            "too_many_games",
            f"this server is holding {self._games.size} games still being played (each "
            f"moved in within a day), the most it keeps: finish one, or {remedy}",
        )

    # -- games ----------------------------------------------------------------

    def create(self, body: Any) -> Game:
        """A new game from ``{"map", "players", "bots"}`` (each optional): the
        person plays seat 0, the bots the others; bots move until it is the
        person's turn. A 503 :class:`ServeError` (``too_many_games``) when the
        store is full of games still being played."""
        if not self._games.has_room():  # before the bots' work; put checks again
            raise self._full()
        if body is None:
            body = {}
        if not isinstance(body, dict) or not set(body) <= {"map", "players", "bots"}:
            raise ServeError(400, "bad_request", 'expected {"map", "players", "bots"}')
        map_name = body.get("map", self.map)
        players = body.get("players", self.players)
        bots = body.get("bots", list(self.bots))
        if type(players) is not int:
            raise ServeError(400, "bad_request", "players must be an integer")
        if (
            not isinstance(bots, list)
            or not bots
            or not all(isinstance(b, str) and b in agent_names() for b in bots)
        ):
            raise ServeError(
                400, "unknown_bot", f"bots must be a list of: {', '.join(agent_names())}"
            )
        try:
            # files=False: the page's map name never opens a file, whatever it is.
            state = ttr_core.new_game(map_name, players, seed=self.seed, files=False)
        except ttr_core.UnknownMapError as exc:
            raise ServeError(400, "unknown_map", str(exc)) from None
        seat = 0
        names = {
            other: bots[(other - 1) % len(bots)]
            for other in range(state.num_players)
            if other != seat
        }
        game = Game(
            id=secrets.token_urlsafe(16),
            state=state,
            seat=seat,
            agents={other: make_agent(name) for other, name in names.items()},
            bot_names=names,
            rng=self._rng(),
            record=ttr_core.RecordLines(state),
        )
        bots_told = ", ".join(f"Player {other + 1}: {name}" for other, name in names.items())
        game.events.append(
            f"New game of {state.board.name}: you are Player {seat + 1}; the bots: {bots_told}"
        )
        staggered = start_words(state.board, state.num_players)
        if staggered:
            game.events.append(staggered)
        self._save_new(game)  # before the bots' moves, which are written one by one
        try:
            with game.lock:
                self._play_bots(game)
            self._games.put(game)
        except BaseException:
            if self._saved is not None and game.kept:  # nobody holds this game
                with contextlib.suppress(sqlite3.Error):
                    self._saved.drop(game.id)
            raise
        return game

    def get(self, game_id: str) -> Game:
        """The game ``game_id`` (a 404 :class:`ServeError` if there is none)."""
        game = self._games.get(game_id)
        if game is None:
            raise ServeError(404, "unknown_game", _UNKNOWN_GAME)
        return game

    def seated(self, game_id: str, tokens: Iterable[str]) -> Game:
        """The game ``game_id`` if one of ``tokens`` (the seat tokens a request
        carries) is its :attr:`Game.token`; otherwise the very 404 of a game
        that does not exist, so that a game's address alone neither reaches it
        nor tells whether it exists."""
        game = self._games.get(game_id, note_use=False)
        if game is not None:
            secret = game.token_hash.encode()
            for _, token in zip(range(_MAX_TOKENS), tokens, strict=False):
                # Constant time: the answer's timing tells nothing of the secret.
                sent = token_digest(token).encode()
                if token and hmac.compare_digest(sent, secret):
                    return self.get(game_id)
        raise ServeError(404, "unknown_game", _UNKNOWN_GAME)

    def status(self, game_id: str, *, board: bool = True) -> dict[str, Any]:
        """What the person may see of game ``game_id`` now (``board``: with the
        picture)."""
        game = self.get(game_id)
        with game.lock:
            return status(game, board=board)

    def move(self, game_id: str, body: Any, *, board: bool = True) -> dict[str, Any]:
        """Apply the person's ``{"ply": n, "action": {...}}``, then the bots'
        moves; answer the person's status. The action must be the person's
        seat's and chosen at the current ply: ``apply`` refuses a forged seat
        (``wrong_seat``) and a stale or repeated move (``stale_move``)."""
        if not isinstance(body, dict) or set(body) != {"ply", "action"}:
            raise ServeError(400, "bad_request", 'expected {"ply": ..., "action": ...}')
        ply = body["ply"]
        if type(ply) is not int:
            raise ServeError(400, "bad_request", "ply must be an integer")
        action: ttr_core.Action = ttr_core.from_data(body["action"], ttr_core.Action)
        game = self.get(game_id)
        with game.lock:
            self._apply(game, action, ply)
            self._play_bots(game)
            return status(game, board=board)

    def record(self, game_id: str) -> tuple[str, str]:
        """The game record as JSON Lines and a file name for it: only once the
        game is over, since the record holds the seed and so every card."""
        game = self.get(game_id)
        with game.lock:
            if not game.state.is_over:
                raise ServeError(409, "game_not_over", "the record is given once the game is over")
            return game.record.text(), f"ttr-{game.state.board.id}-{game.id[:8]}.jsonl"

    def _apply(self, game: Game, action: ttr_core.Action, ply: int | None) -> None:
        before = game.state
        # seat: the person moves for their own seat only (wrong_seat);
        # expect_ply: a move sent twice or chosen at another ply is refused.
        after = ttr_core.apply(before, action, seat=game.seat, expect_ply=ply)
        self._commit(game, before, action, after)

    def _commit(
        self,
        game: Game,
        before: ttr_core.GameState,
        action: ttr_core.Action,
        after: ttr_core.GameState,
    ) -> None:
        # In players' words, as ttr play says them: "Player 2 drew a card".
        line = event(ttr_core.describe(before, action, seat=game.seat), game.seat)
        recorded = game.record.append(action)
        game.events.append(line)
        game.state = after
        self._save_move(game, recorded)

    def _play_bots(self, game: Game) -> None:
        """The bots' moves until the person is to decide or the game is over."""
        for _ in range(_MAX_BOT_MOVES):
            state = game.state
            legal = ttr_core.legal_actions(state)
            if not legal or legal[0].player == game.seat:
                return
            bot = legal[0].player
            action = game.agents[bot].act(ttr_core.player_view(state, bot), legal, game.rng)
            after = ttr_core.apply(state, action, seat=bot, expect_ply=state.ply)
            self._commit(game, state, action, after)
        raise ServeError(500, "stuck", "the bots did not give the turn back")

    def _rng(self) -> random.Random:
        """The bots' randomness of a game: the store's seed, else a fresh secret one."""
        return random.Random(self.seed if self.seed is not None else secrets.randbits(64))

    # -- the games file -------------------------------------------------------

    def _save_new(self, game: Game) -> None:
        """Write a new game: its record's header and trailer, its events."""
        if self._saved is None:
            return
        game.kept = True
        self._write(
            game,
            lambda saved: saved.add(
                game.id,
                token=game.token,
                seat=game.seat,
                bots=game.bot_names,
                header=game.record.header,
                trailer=game.record.trailer,
                events=game.events,
            ),
        )

    def _save_move(self, game: Game, line: str) -> None:
        """Write ``line``, the record line just appended, and the new event lines."""
        if self._saved is None or not game.kept:
            return
        first = game.events_kept
        self._write(
            game,
            lambda saved: saved.append(
                game.id,
                index=game.record.index,
                line=line,
                trailer=game.record.trailer,
                first_event=first,
                events=game.events[first:],
                over=game.state.is_over,
            ),
        )

    def _write(self, game: Game, write: Callable[[SavedGames], None]) -> None:
        assert self._saved is not None
        try:
            write(self._saved)
            game.events_kept = len(game.events)
        except sqlite3.Error as exc:  # a full disk, say: the game goes on in memory
            game.kept = False
            _log.warning(
                "ttr serve: a game is no longer kept in %s (a restart will not resume it): %s",
                self._saved.path,
                exc,
            )
            # Its rows so far would resume it as it was some moves ago.
            with contextlib.suppress(sqlite3.Error):
                self._saved.drop(game.id)

    def _resume_all(self, saved: SavedGames) -> None:
        """Take up the stored games: those being played, then, while there is
        room, the finished ones (a reload still shows the end)."""
        playing = finished = 0
        for game_id in saved.ids():
            if playing + finished >= self._games.size:
                break
            try:
                game = self._resume(saved.read(game_id))
            except Exception as exc:  # whatever is wrong with one stored game, not the others
                _log.warning(
                    "ttr serve: a game in %s is not resumed (%r): %s", saved.path, game_id[:40], exc
                )
                continue
            self._games.put(game)  # the file holds no more unfinished games than there is room
            if game.state.is_over:
                finished += 1
            else:
                playing += 1
        self.resumed = (playing, finished)

    def _resume(self, stored: Stored) -> Game:
        """A stored game (checked whole by ``SavedGames.read``) in play again:
        the bots move on if it was their turn."""
        game = Game(
            id=stored.id,
            state=stored.state,
            seat=stored.seat,
            agents={other: make_agent(name) for other, name in stored.bots.items()},
            bot_names=dict(stored.bots),
            rng=self._rng(),
            record=stored.record,
            events=list(stored.events),
            # The game moved longest ago makes room first, as before the restart.
            used=time.monotonic() - max(0.0, time.time() - stored.moved),
            token="",  # the browser has it; the file keeps only its SHA-256
            token_hash=stored.token,
            kept=True,
            events_kept=len(stored.events),
        )
        with game.lock:
            self._play_bots(game)
        return game

    # -- replays --------------------------------------------------------------

    def replay_of_game(self, game_id: str) -> Replay:
        """A replay of the finished game ``game_id`` (every card shown)."""
        text, _ = self.record(game_id)
        return self._add_replay(ttr_core.from_jsonl(text), game_id)

    def replay_upload(self, text: str) -> Replay:
        """A replay of an uploaded JSON Lines record (checked as ``from_jsonl``
        and ``replay`` check it: a record of a built-in map only)."""
        if len(text) > MAX_RECORD:
            raise ServeError(413, "too_large", f"a record is at most {MAX_RECORD} characters")
        record = ttr_core.from_jsonl(text)
        if record.map not in ttr_core.available_maps():
            raise ServeError(400, "unknown_map", "a replay is of a built-in map only")
        return self._add_replay(record, secrets.token_urlsafe(16))

    def replay(self, replay_id: str) -> Replay:
        """The replay ``replay_id`` (a 404 :class:`ServeError` if there is none)."""
        found = self._replays.get(replay_id)
        if found is None:
            raise ServeError(404, "unknown_replay", "no such replay")
        return found

    def replay_step(self, replay_id: str, step: int) -> dict[str, Any]:
        """The picture of step ``step`` (0: the set-up) and the line of the action
        that led to it."""
        found = self.replay(replay_id)
        if not 0 <= step < len(found.states):
            raise ServeError(400, "bad_step", f"step must be from 0 to {len(found.states) - 1}")
        state = found.states[step]
        return {
            "replay": found.id,
            "map": state.board.name,
            "step": step,
            "steps": len(found.states),
            "line": found.lines[step - 1] if step else "The set-up",
            "svg": inline(svg(state, width=WIDTH)),
        }

    def _add_replay(self, record: ttr_core.GameRecord, replay_id: str) -> Replay:
        states = list(ttr_core.replay(record))
        lines = [
            event(ttr_core.describe(before, action, seat=None), -1)
            for before, action in zip(states, record.actions, strict=False)
        ]
        if record.termination is not None:
            lines.append(event(ttr_core.describe_ending(states[-1]), -1))
        found = Replay(replay_id, states, lines)
        self._replays.put(found)
        return found
