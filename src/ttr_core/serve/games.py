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
dropped for a new one: a full store refuses new games until one is over.

What reaches the person is :func:`status`: a function of their seat's
``seat_status`` (their view, their own legal moves, their score sheet) and the event
lines told as their seat may know them. The game state (the seed, the
deck, the bots' hands and tickets) never leaves the store; the record,
which holds the seed, is given only once the game is over.
"""

from __future__ import annotations

import hmac
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import ttr_core
from ttr_core.agents import Agent, agent_names, make_agent
from ttr_core.play.text import event
from ttr_core.render import CARD_FILLS, svg

__all__ = [
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

#: Games kept at once. A new game takes the room of the finished game used
#: longest ago; when every game kept is still being played, it is refused.
MAX_GAMES = 100
#: Replays kept at once (a replay holds every state of its game); the one
#: used longest ago makes room for a new one.
MAX_REPLAYS = 16
#: The largest record a person may upload for a replay (characters).
MAX_RECORD = 2_000_000
#: Bot moves made in one go at most: a game never needs nearly so many
#: (a guard against a bot and a variant passing forever).
_MAX_BOT_MOVES = 20_000
#: Width of the board picture, in pixels (the page scales it).
_WIDTH = 1000
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
    #: random bits, compared in constant time by :meth:`GameStore.seated`.
    token: str = field(default_factory=lambda: secrets.token_urlsafe(32), repr=False)


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
    ) -> None:
        self.size = size
        self._evictable = evictable
        self._full = full
        self._items: dict[str, _H] = {}
        self._lock = threading.Lock()  # guards the dict only, never held during a move

    def has_room(self) -> bool:
        """Whether :meth:`put` would take a new item now (it may not a moment later)."""
        with self._lock:
            return len(self._items) < self.size or any(map(self._evictable, self._items.values()))

    def put(self, item: _H) -> None:
        """Keep ``item``; raises ``full()`` if room is needed and nothing may go."""
        with self._lock:
            while item.id not in self._items and len(self._items) >= self.size:
                candidates = [held for held in self._items.values() if self._evictable(held)]
                if not candidates:
                    raise self._full() if self._full else ServeError(503, "full", "no room")
                oldest = min(candidates, key=lambda held: held.used)
                del self._items[oldest.id]
            self._items[item.id] = item

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
    one (:meth:`create` refuses instead); ``max_replays`` replays, the one used
    longest ago dropped for a new one.

    The methods that take a game id do not check who asks: the app first asks
    :meth:`seated` with the request's seat token.
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
    ) -> None:
        self.map = map
        self.players = players
        self.bots = tuple(bots)
        self.seed = seed
        # A live game is someone's game in progress: a flood of new games must
        # not end it (only finished games make room).
        self._games: _Shelf[Game] = _Shelf(
            max_games, evictable=lambda game: game.state.is_over, full=self._full
        )
        self._replays: _Shelf[Replay] = _Shelf(max_replays)

    def _full(self) -> ServeError:
        # 503, not 429: the server is at capacity whoever asks, not a client
        # asking too often; it lasts until a game is over or ttr serve restarts.
        return ServeError(
            503,
            "too_many_games",
            f"this server is holding {self._games.size} games still being played, "
            "the most it keeps: finish one, or restart ttr serve (which ends them all)",
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
        rng = random.Random(self.seed if self.seed is not None else secrets.randbits(64))
        game = Game(
            id=secrets.token_urlsafe(16),
            state=state,
            seat=seat,
            agents={other: make_agent(name) for other, name in names.items()},
            bot_names=names,
            rng=rng,
            record=ttr_core.RecordLines(state),
        )
        bots_told = ", ".join(f"Player {other + 1}: {name}" for other, name in names.items())
        game.events.append(
            f"New game of {state.board.name}: you are Player {seat + 1}; the bots: {bots_told}"
        )
        with game.lock:
            self._play_bots(game)
        self._games.put(game)
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
            secret = game.token.encode()
            for _, token in zip(range(_MAX_TOKENS), tokens, strict=False):
                # Constant time: the answer's timing tells nothing of the secret.
                if hmac.compare_digest(token.encode("utf-8", "replace"), secret):
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
        game.record.append(action)
        game.events.append(line)
        game.state = after

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
            "svg": _inline(svg(state, width=_WIDTH)),
        }

    def _add_replay(self, record: ttr_core.GameRecord, replay_id: str) -> Replay:
        states = list(ttr_core.replay(record))
        lines = [
            event(ttr_core.describe(before, action, seat=None), -1)
            for before, action in zip(states, record.actions, strict=False)
        ]
        if record.termination is not None:
            lines.append(f"The game ended: {record.termination}")
        found = Replay(replay_id, states, lines)
        self._replays.put(found)
        return found


# ---------------------------------------------------------------------------
# What the person sees
# ---------------------------------------------------------------------------


def status(game: Game, *, board: bool = True) -> dict[str, Any]:
    """The person's status: their view (and its picture, unless ``board`` is
    false), their legal moves (when they decide), their own score sheet, the
    event lines as their seat knows them and, once the game is over, the final
    scores. Nothing else of the state."""
    seat = game.seat
    # Everything the seat may know, from the one call that cannot forget a filter.
    known = ttr_core.seat_status(game.state, seat)
    view, legal, scores = known.view, known.legal, known.scores
    the_board = view.board
    sheet = known.sheets[seat]
    ticket_lines = {line.ref: line for line in sheet.lines if line.kind == "ticket"}
    answer: dict[str, Any] = {
        "game": game.id,
        "seat": seat,
        "ply": view.ply,
        "over": view.is_over,
        "map": the_board.name,
        "pieces": the_board.pieces,  # the map's word: "taxis", "trains", "carts"
        "turn": view.current_player == seat,
        "svg": _inline(svg(view, width=_WIDTH, scores=scores)) if board else None,
        "view": ttr_core.to_data(view),
        "hand": [
            {"card": name, "name": _card(the_board, name), "count": count, "fill": _fill(name)}
            for name, count in view.hand.items()
            if count
        ],
        "display": [
            {
                "slot": slot,
                "card": card,
                "name": _card(the_board, card) if card else None,
                "fill": _fill(card) if card else None,
            }
            for slot, card in enumerate(view.display)
        ],
        "deck": view.deck_size,
        "ticket_deck": view.ticket_deck_size,
        "tickets": [_ticket(the_board, tid, ticket_lines.get(tid)) for tid in view.tickets],
        "offered": [_ticket(the_board, tid, None) for tid in view.offered],
        "min_keep": view.min_keep,
        "seats": [
            {
                "seat": s.seat,
                "name": "You"
                if s.seat == seat
                else f"Player {s.seat + 1} ({game.bot_names[s.seat]})",
                "cards": s.hand_size,
                "tickets": s.tickets_held,
                "cars": s.cars,
                "score": s.score,
                "to_move": view.current_player == s.seat,
            }
            for s in view.seats
        ],
        "sheet": [
            {"label": line.label, "points": line.points, "detail": list(line.detail)}
            for line in sheet.lines
        ],
        "moves": [_move(view, action) for action in legal],
        "events": list(game.events),
    }
    if scores is not None:
        answer["scores"] = ttr_core.to_data(scores)
        answer["winners"] = list(scores.winners)
    return answer


def move_label(view: ttr_core.PlayerView, action: ttr_core.Action) -> str:
    """A legal move of the viewer in words, from what the viewer sees (never
    ``describe``, which would draw the card to name it)."""
    board = view.board
    if isinstance(action, ttr_core.ClaimRoute):
        route = board.routes[action.route]
        cards = route.length - action.wilds
        paid = []
        if cards > 0 and action.color is not None:
            paid.append(f"{cards} {action.color}")
        if action.wilds:
            paid.append(_plural(action.wilds, board.wild_name))
        pay = " and ".join(paid) if paid else "nothing"
        return f"Claim {route.a}–{route.b} ({route.color} {route.length}) with {pay}"
    if isinstance(action, ttr_core.DrawBlind):
        return "Draw a card from the deck"
    if isinstance(action, ttr_core.DrawFaceUp):
        card = view.display[action.slot] if action.slot < len(view.display) else None
        return f"Take the face-up {_card(board, card) if card else 'card'}"
    if isinstance(action, ttr_core.DrawTickets):
        return "Draw tickets"
    if isinstance(action, ttr_core.KeepTickets):
        kept = sorted(action.tickets)
        return "Keep " + ", ".join(_ticket_name(board, tid) for tid in kept)
    if isinstance(action, ttr_core.Pass):
        return "Pass"
    fields = {k: v for k, v in _data(action).items() if k not in ("type", "player")}
    told = ", ".join(f"{k} {v}" for k, v in fields.items())
    return f"{type(action).__name__}" + (f" ({told})" if told else "")


def _move(view: ttr_core.PlayerView, action: ttr_core.Action) -> dict[str, Any]:
    data = _data(action)
    kind = {
        ttr_core.ClaimRoute: "claim",
        ttr_core.DrawBlind: "deck",
        ttr_core.DrawFaceUp: "faceup",
        ttr_core.DrawTickets: "tickets",
        ttr_core.KeepTickets: "keep",
        ttr_core.Pass: "pass",
    }.get(type(action), "other")
    move: dict[str, Any] = {"kind": kind, "label": move_label(view, action), "action": data}
    if isinstance(action, ttr_core.ClaimRoute):
        move["route"] = action.route
    elif isinstance(action, ttr_core.DrawFaceUp):
        move["slot"] = action.slot
    elif isinstance(action, ttr_core.KeepTickets):
        move["tickets"] = sorted(action.tickets)
    return move


def _data(action: ttr_core.Action) -> dict[str, Any]:
    data = ttr_core.to_data(action)
    assert isinstance(data, dict)  # an action is written as an object
    return data


def _ticket(board: ttr_core.Board, tid: int, line: ttr_core.ScoreLine | None) -> dict[str, Any]:
    ticket = board.tickets[tid]
    answer: dict[str, Any] = {
        "id": tid,
        "name": f"{ticket.a}–{ticket.b}" if not ticket.more else ticket.text("–"),
        "points": max(points for _end, points in ticket.destinations),
    }
    if line is not None:
        answer["done"] = line.points > 0
    return answer


def _ticket_name(board: ttr_core.Board, tid: int) -> str:
    return board.tickets[tid].text("–")


def _card(board: ttr_core.Board, name: str) -> str:
    return board.wild_name if name == ttr_core.WILD else name


def _fill(name: str) -> str:
    # The wild card is many-coloured on the boards: a light gray stands for it.
    return CARD_FILLS.get(name, "#dddddd")


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _inline(document: str) -> str:
    """An SVG document to put inside a page: without its XML declaration."""
    if document.startswith("<?xml"):
        return document[document.index("?>") + 2 :].lstrip()
    return document
