"""Stock shares (Ticket to Ride: Pennsylvania, Map Collection 5).

Routes show the logos of railroad companies (map field ``companies``, on
routes: a list of company ids). Right after claiming such a route, the seat
**may** take the top share — the lowest number left — of **one** of those
companies; a sold-out company cannot be chosen, and a route with no logo or
only sold-out companies offers nothing. The choice is a decision of the
claiming seat (``shares.choose``, opened in ``ttr_after_claim``): the turn
waits for :class:`TakeShare` or :class:`DeclineShare`, and ends with it.

The companies come from the map's own table (names, shares, points by place)::

    [variants.shares]
    companies = [
      { id = "PRR", name = "Pennsylvania Railroad", shares = 15, values = [30, 21, 14, 9, 6] },
      ...
    ]

End of game: for each company its holders rank by shares held, most first;
among equal counts the holder of the lowest-numbered share ranks first (so
there is never a tie); the k-th holder scores the k-th value, holders beyond
the list score 0, a seat with no share of it takes no place.

Two players: a dummy shareholder. Whenever a seat takes a share it also takes
one for the dummy, among the route's companies with shares left
(``TakeShare.dummy``); declining gives the dummy nothing. At the end the
dummy's shares are shuffled (the game's chance, ``effects.shuffle``) and half
of them, rounded up, revealed: only those count. The dummy takes places but
scores nothing.

Every take is seen by all, so the holdings are public in every view
(``shares.held``: per holder, per company, the share numbers), as are the
dummy's revealed shares once the game is over (``shares.revealed``).

Options (``new_game(..., options={"shares": {...}})``): ``forced`` — a share
must be taken when one can, as Board Game Arena plays (the rule text says
*may*); ``limit`` — at most this many shares of each company (0: as the map
prints), for tables that want scarcer shares and for tests of a sold-out
supply. Sources and doubts: the map's ``[provenance]``; rules in
docs/rules.md.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from ttr_core import (
    Action,
    ActionTemplate,
    Board,
    ClaimRoute,
    Gains,
    GameState,
    IllegalAction,
    MoveWords,
    PlayerView,
    PluginError,
    ScoreLine,
    VariantOption,
    effects,
    end_turn,
    hookimpl,
    player_name,
)

#: The variant name this plugin is registered under.
NAME = "shares"
#: The decision after a claim: which share to take (``Pending.data``: the route).
CHOOSE = f"{NAME}.choose"
#: Most companies a map may list, shares of one company, points of one place.
MOST_COMPANIES = 30
MOST_SHARES = 100
MOST_POINTS = 1000
#: Most choices a refusal lists.
MOST_LISTED = 12
#: Longest company id and name.
MOST_ID = 12
MOST_NAME = 80


@attrs.frozen
class Company:
    """One company of the map's ``[variants.shares]`` table."""

    id: str
    name: str
    shares: int
    #: Points by place, 1st first; a place beyond them scores 0.
    values: tuple[int, ...]


@attrs.frozen
class TakeShare(Action):
    """Take the top share of ``company`` (an id of the map's companies) after a
    claim; with 2 players, ``dummy`` is the company whose top share the dummy
    shareholder takes then (``None`` only when none is left on the route)."""

    company: str
    dummy: str | None = None


@attrs.frozen
class DeclineShare(Action):
    """Take no share after the claim (the dummy takes none either)."""


@attrs.frozen
class SharesState:
    """The variant's state, stored under the key ``"shares"``.

    ``held[h][c]`` are the share numbers of company ``c`` (in the map's order)
    held by holder ``h``: the seats, then — with 2 players — the dummy.
    ``revealed[c]`` are the dummy's shares that count, set when the game ends
    (``None`` before, and in games without a dummy).
    """

    held: tuple[tuple[tuple[int, ...], ...], ...]
    revealed: tuple[tuple[int, ...], ...] | None = None


# ---------------------------------------------------------------------------
# The map's companies
# ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=16)
def companies(board: Board) -> tuple[Company, ...]:
    """The companies of ``board``'s ``[variants.shares]`` table, in its order
    (checked by ``ttr_validate_map`` when the map was loaded). Cached per board
    (boards hash by identity): every claim and every choice asks."""
    table = board.variant_data.get(NAME, {})
    return tuple(
        Company(c["id"], c["name"], c["shares"], tuple(c["values"]))
        for c in table.get("companies", ())
    )


def route_companies(board: Board, route: int) -> tuple[str, ...]:
    """The company ids whose logos route ``route`` shows (none: ``()``)."""
    value = board.routes[route].extra.get("companies")
    if isinstance(value, tuple) and all(isinstance(c, str) for c in value):
        return value
    return ()


@functools.lru_cache(maxsize=16)
def _index(board: Board) -> dict[str, int]:
    """Each company id's number, in the map's order."""
    return {c.id: i for i, c in enumerate(companies(board))}


def has_dummy(players: int) -> bool:
    """Whether a game of ``players`` has the dummy shareholder (2 players)."""
    return players == 2


def supply(state: GameState) -> tuple[int, ...]:
    """Each company's shares in this game: the map's number, or the ``limit``
    option when it is lower."""
    limit = state.rules.option(NAME, "limit")
    return tuple(c.shares if not limit else min(c.shares, limit) for c in companies(state.board))


def shares(state: GameState) -> SharesState:
    """The shares state of a game played with this variant."""
    value = state.variant(NAME)
    if not isinstance(value, SharesState):
        raise PluginError(f"the game has no {NAME!r} state: is the variant switched on?")
    return value


def issued(held: Sequence[Sequence[Sequence[int]]], company: int) -> int:
    """How many shares of company number ``company`` are taken."""
    return sum(len(holder[company]) for holder in held)


def left(state: GameState) -> tuple[int, ...]:
    """Each company's shares still to take."""
    held = shares(state).held
    return tuple(total - issued(held, c) for c, total in enumerate(supply(state)))


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------


def places(holdings: Sequence[Sequence[int]]) -> list[int | None]:
    """Each holder's place (0 for the first) in one company, from the share
    numbers each holds: most shares first, then the lowest share number;
    ``None`` for a holder with no share."""
    ranked = sorted(
        (h for h, numbers in enumerate(holdings) if numbers),
        key=lambda h: (-len(holdings[h]), min(holdings[h])),
    )
    found: list[int | None] = [None] * len(holdings)
    for place, holder in enumerate(ranked):
        found[holder] = place
    return found


def _estimate(dummy: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """The dummy's shares before its reveal: half in each company, rounded up,
    the lowest-numbered ones."""
    return tuple(tuple(numbers[: (len(numbers) + 1) // 2]) for numbers in dummy)


def _paid(
    listed: Sequence[Company], holdings: Sequence[Sequence[Sequence[int]]]
) -> list[list[tuple[int | None, int]]]:
    """Per company, per holder: ``(place, points)`` for ``holdings``."""
    result = []
    for c, company in enumerate(listed):
        found = places([holder[c] for holder in holdings])
        values = company.values
        result.append([(p, values[p] if p is not None and p < len(values) else 0) for p in found])
    return result


def counted(state: GameState) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The holdings that score: the seats' shares, then the dummy's revealed
    ones. Before the reveal (a game going on), the dummy counts half its
    shares in each company, rounded up, the lowest-numbered ones: an estimate
    (the end reveals half of all its shares, which may fall unevenly)."""
    current = shares(state)
    held = current.held
    if not has_dummy(state.num_players):
        return held
    if current.revealed is not None:
        return (*held[:-1], current.revealed)
    return (*held[:-1], _estimate(held[-1]))


def company_points(state: GameState) -> list[list[tuple[int | None, int]]]:
    """Per company, per holder: ``(place, points)`` from :func:`counted`."""
    return _paid(companies(state.board), counted(state))


def _ordinal(place: int) -> str:
    n = place + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _numbers(numbers: Sequence[int]) -> str:
    return ", ".join(str(n) for n in numbers)


@hookimpl
def ttr_score_lines(state: GameState) -> Sequence[Sequence[ScoreLine]]:
    """A line per company the seat holds shares of (its place and points), or
    one line saying it holds none."""
    points = company_points(state)
    listed = companies(state.board)
    held = shares(state).held
    shown = (
        "end" if has_dummy(state.num_players) else "all"
    )  # the dummy's count is drawn at the end
    sheets = []
    for seat in range(state.num_players):
        lines = []
        for c, company in enumerate(listed):
            numbers = held[seat][c]
            if not numbers:
                continue
            place, won = points[c][seat]
            assert place is not None
            count = "1 share" if len(numbers) == 1 else f"{len(numbers)} shares"
            lines.append(
                ScoreLine(
                    NAME,
                    f"{company.name} ({company.id}): {count}, {_ordinal(place)}",
                    won,
                    detail=(f"share numbers {_numbers(numbers)}",),
                    shown=shown,
                )
            )
        if not lines:
            lines.append(ScoreLine(NAME, "Shares: none", 0, shown=shown))
        sheets.append(lines)
    return sheets


# ---------------------------------------------------------------------------
# Map, options, setup
# ---------------------------------------------------------------------------


@hookimpl
def ttr_check_game(board: Board) -> str | None:
    # The map declares the logos itself ([fields.routes] companies = "list[str]"),
    # as Europe declares its ferries' locomotives: a field a plugin declared
    # would reach every map's routes and change every map's fingerprint.
    if not companies(board):
        return f"{NAME} needs the map's companies (a [variants.{NAME}] table)"
    if not any(route_companies(board, route.id) for route in board.routes):
        return f"{NAME} needs routes that show company logos (route field companies)"
    return None


def _company_problems(entry: object, at: str) -> Iterator[str]:
    if not isinstance(entry, Mapping):
        yield f"{at}: must be a table {{id, name, shares, values}}"
        return
    for key in entry:
        if key not in ("id", "name", "shares", "values"):
            yield f"{at}: unknown key {key!r} (expected: id, name, shares, values)"
    for key, most in (("id", MOST_ID), ("name", MOST_NAME)):
        text = entry.get(key)
        if not isinstance(text, str) or not text.strip() or len(text) > most:
            yield f"{at}: {key} must be a text of 1 to {most} characters"
    count = entry.get("shares")
    if type(count) is not int or not 1 <= count <= MOST_SHARES:
        yield f"{at}: shares must be a whole number from 1 to {MOST_SHARES}"
    values = entry.get("values")
    if (
        not isinstance(values, tuple | list)
        or not values
        or len(values) > MOST_SHARES
        or any(type(v) is not int or not 0 <= v <= MOST_POINTS for v in values)
    ):
        yield (
            f"{at}: values must be a list of 1 to {MOST_SHARES} whole numbers "
            f"from 0 to {MOST_POINTS} (points by place, 1st first)"
        )


@hookimpl
def ttr_validate_map(board: Board) -> Iterable[str]:
    table = board.variant_data.get(NAME)
    if table is None:  # called for every map: a map without the table is not for shares
        return
    for key in table:
        if key != "companies":
            yield f"[variants.{NAME}]: unknown key {key!r} (expected: companies)"
    listed = table.get("companies")
    if not isinstance(listed, tuple | list) or not 1 <= len(listed) <= MOST_COMPANIES:
        yield f"[variants.{NAME}]: companies must be a list of 1 to {MOST_COMPANIES} tables"
        return
    problems = [
        problem
        for i, entry in enumerate(listed)
        for problem in _company_problems(entry, f"[variants.{NAME}] companies[{i}]")
    ]
    yield from problems
    if problems:
        return
    ids = [entry["id"] for entry in listed]
    doubled = sorted({i for i in ids if ids.count(i) > 1})
    if doubled:
        yield f"[variants.{NAME}]: company ids must differ; repeated: {', '.join(doubled)}"
    known = set(ids)
    for route in board.routes:
        logos = route.extra.get("companies")
        if not logos:
            continue
        where = f"route {route.a}–{route.b}"
        if not isinstance(logos, tuple) or not all(isinstance(c, str) for c in logos):
            yield f'{where}: companies must be a list of company ids (declare it "list[str]")'
            continue
        unknown = [str(c) for c in logos if c not in known]
        if unknown:
            yield (
                f"{where}: companies names {', '.join(unknown[:3])}, not a company of "
                f"[variants.{NAME}] (expected ids: {', '.join(ids)})"
            )
        if len(set(logos)) != len(logos):
            yield f"{where}: companies lists a company twice"


@hookimpl
def ttr_options() -> Sequence[VariantOption]:
    return [
        VariantOption(
            "forced",
            bool,
            False,
            "a share must be taken when one can (as Board Game Arena plays); "
            "by the rules text taking one is optional",
        ),
        VariantOption(
            "limit",
            int,
            0,
            "at most this many shares of each company (0: as many as the map prints)",
            low=0,
            high=MOST_SHARES,
        ),
    ]


@hookimpl
def ttr_variant_state_types() -> Mapping[str, Any]:
    return {NAME: SharesState, CHOOSE: int}


@hookimpl
def ttr_setup(state: GameState) -> GameState:
    holders = state.num_players + has_dummy(state.num_players)
    empty = ((),) * len(companies(state.board))
    return state.with_variant(NAME, SharesState((empty,) * holders))


# ---------------------------------------------------------------------------
# The decision after a claim
# ---------------------------------------------------------------------------


def choosing(state: GameState) -> int | None:
    """The route whose share the deciding seat chooses, or ``None``."""
    pending = state.pending
    if pending is None or pending.kind != CHOOSE:
        return None
    route: int = pending.data
    return route


def _open(state: GameState, route: int, remaining: Sequence[int]) -> list[int]:
    """The company numbers on ``route`` with shares left in ``remaining``."""
    index = _index(state.board)
    return [index[c] for c in route_companies(state.board, route) if remaining[index[c]] > 0]


def offered(state: GameState) -> list[Action]:
    """The legal choices of the share decision waiting in ``state`` (none when
    none waits)."""
    route = choosing(state)
    if route is None:
        return []
    assert state.pending is not None
    seat = state.pending.player
    ids = [c.id for c in companies(state.board)]
    remaining = list(left(state))
    found: list[Action] = []
    for c in _open(state, route, remaining):
        if not has_dummy(state.num_players):
            found.append(TakeShare(seat, ids[c]))
            continue
        remaining[c] -= 1
        dummies = _open(state, route, remaining)
        remaining[c] += 1
        found += [TakeShare(seat, ids[c], ids[d]) for d in dummies] or [TakeShare(seat, ids[c])]
    if not state.rules.option(NAME, "forced"):
        found.append(DeclineShare(seat))
    return found


@hookimpl
def ttr_after_claim(state: GameState, player: int, route: int) -> GameState | None:
    if not state.is_seat(player) or not _open(state, route, left(state)):
        return None
    return effects.set_pending(state, CHOOSE, player, data=route)


@hookimpl
def ttr_extra_actions(state: GameState) -> Sequence[Action] | None:
    return offered(state) if choosing(state) is not None else None


def _taking(board: Board, action: TakeShare, holders: int) -> list[tuple[int, int]]:
    """The ``(holder, company number)`` takes of ``action``: the seat's, then
    the dummy's (the last holder)."""
    index = _index(board)
    moves = [(action.player, index[action.company])]
    if action.dummy is not None:
        moves.append((holders - 1, index[action.dummy]))
    return moves


def _taken(
    held: Sequence[Sequence[tuple[int, ...]]], moves: Sequence[tuple[int, int]]
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``held`` after each ``(holder, company)`` of ``moves`` took the top share."""
    new = [list(holder) for holder in held]
    for holder, company in moves:
        new[holder][company] += (issued(new, company) + 1,)
    return tuple(tuple(holder) for holder in new)


@hookimpl
def ttr_apply_action(state: GameState, action: Action) -> GameState | None:
    if not isinstance(action, TakeShare | DeclineShare):
        return None
    if choosing(state) is None:
        raise IllegalAction(
            f"{NAME}.no_choice", "no share waits to be chosen: no route was just claimed"
        )
    legal = offered(state)
    if action not in legal:
        choices = ", ".join(_choice_words(state, a) for a in legal[:MOST_LISTED])
        choices += ", ..." if len(legal) > MOST_LISTED else ""
        raise IllegalAction(
            f"{NAME}.not_offered",
            f"that share cannot be taken after this claim; the choices are: {choices}",
        )
    if isinstance(action, TakeShare):
        held = shares(state).held
        moves = _taking(state.board, action, len(held))
        state = state.with_variant(NAME, SharesState(_taken(held, moves)))
    return end_turn(state)


def _choice_words(state: GameState, action: Action) -> str:
    if isinstance(action, TakeShare):
        words = f"take {action.company}"
        return words + (f" (the dummy {action.dummy})" if action.dummy is not None else "")
    return "take none"


@hookimpl
def ttr_game_over(state: GameState) -> GameState | None:
    """With 2 players: shuffle the dummy's shares and reveal half, rounded up."""
    if not has_dummy(state.num_players):
        return None
    current = shares(state)
    if current.revealed is not None:
        return None
    dummy = current.held[-1]
    pieces = [(c, n) for c, numbers in enumerate(dummy) for n in numbers]
    state, order = effects.shuffle(state, pieces)
    shown = order[: (len(order) + 1) // 2]
    revealed = tuple(tuple(sorted(n for c2, n in shown if c2 == c)) for c in range(len(dummy)))
    return state.with_variant(NAME, attrs.evolve(current, revealed=revealed))


# ---------------------------------------------------------------------------
# Views, words, pictures
# ---------------------------------------------------------------------------


@hookimpl
def ttr_view_types() -> Mapping[str, Any]:
    return {
        f"{NAME}.held": tuple[tuple[tuple[int, ...], ...], ...],
        f"{NAME}.revealed": tuple[tuple[int, ...], ...] | None,
        f"{NAME}.left": tuple[int, ...],
        f"{NAME}.route": int | None,
    }


@hookimpl
def ttr_player_view(state: GameState) -> Mapping[str, Any]:
    current = shares(state)  # every take is seen by all: public
    return {
        f"{NAME}.held": current.held,
        f"{NAME}.revealed": current.revealed,
        f"{NAME}.left": left(state),
        f"{NAME}.route": choosing(state),
    }


@hookimpl
def ttr_determinize(state: GameState, view: PlayerView) -> GameState:
    """Everything of the shares is public: rebuild it from the view."""
    shown = view.variants
    state = state.with_variant(NAME, SharesState(shown[f"{NAME}.held"], shown[f"{NAME}.revealed"]))
    pending = state.pending
    if pending is not None and pending.kind == CHOOSE:
        state = attrs.evolve(state, pending=attrs.evolve(pending, data=shown[f"{NAME}.route"]))
    return state


@hookimpl
def ttr_describe_action(state: GameState, action: Action, after: GameState) -> str | None:
    """The choice in words (public: ``full`` changes nothing)."""
    if isinstance(action, DeclineShare):
        return "took no share"
    if not isinstance(action, TakeShare):
        return None
    listed = {c.id: c for c in companies(state.board)}
    before = shares(state).held
    ids = list(listed)

    def share(company: str) -> str:
        number = issued(before, ids.index(company)) + 1
        return f"share {number} of {listed[company].name} ({company})"

    words = f"took {share(action.company)}"
    if action.dummy is not None:
        c = ids.index(action.dummy)
        number = issued(before, c) + 1 + (action.dummy == action.company)
        words += (
            f" and gave the dummy share {number} of {listed[action.dummy].name} ({action.dummy})"
        )
    return words


@hookimpl
def ttr_move_words(view: PlayerView, action: Action) -> MoveWords | None:
    """The share choice after a claim, for the person choosing."""
    if not isinstance(action, TakeShare | DeclineShare):
        return None
    board = view.board
    route = view.variants[f"{NAME}.route"]
    group = "Take a share of a company on the route you claimed"
    if isinstance(action, DeclineShare):
        return MoveWords("Take no share", group, route=route, choice="no share", command="sh")
    listed, index = companies(board), _index(board)
    held = view.variants[f"{NAME}.held"]
    c = index[action.company]
    text = f"Take share {issued(held, c) + 1} of {listed[c].name} ({action.company})"
    if action.dummy is not None:
        text += f"; the dummy takes one of {listed[index[action.dummy]].name} ({action.dummy})"
    choice = action.company + (f", dummy {action.dummy}" if action.dummy is not None else "")
    return MoveWords(text, group, route=route, choice=choice, command="sh")


@hookimpl
def ttr_move_notes(view: PlayerView, action: Action) -> list[str] | None:
    """The shares a claim would offer."""
    if not isinstance(action, ClaimRoute):
        return None
    ids = route_companies(view.board, action.route)
    remaining = view.variants[f"{NAME}.left"]
    offered = [c for c in ids if remaining[_index(view.board)[c]] > 0]
    return [f"offers a share of {', '.join(offered)}"] if offered else None


@hookimpl
def ttr_view_words(view: PlayerView) -> list[str]:
    """Each company's shares held so far, by holder, and the shares left."""
    held = view.variants[f"{NAME}.held"]
    remaining = view.variants[f"{NAME}.left"]
    seats = len(view.seats)
    lines = []
    for c, company in enumerate(companies(view.board)):
        holders = [
            f"{player_name(h, view.viewer) if h < seats else 'the dummy'} {len(numbers[c])}"
            for h, numbers in enumerate(held)
            if numbers[c]
        ]
        if holders:
            lines.append(
                f"Shares of {company.name} ({company.id}): {', '.join(holders)}; "
                f"{remaining[c]} left"
            )
    return lines or ["Shares: none taken yet"]


@hookimpl
def ttr_action_types() -> Mapping[str, type[Action]]:
    return {f"{NAME}.take": TakeShare, f"{NAME}.decline": DeclineShare}


@hookimpl
def ttr_action_space(board: Board, players: int) -> Sequence[ActionTemplate]:
    ids = tuple(c.id for c in companies(board))
    dummies: tuple[str | None, ...] = (*ids, None) if has_dummy(players) else (None,)
    return [
        ActionTemplate(TakeShare, {"company": ids, "dummy": dummies}),
        ActionTemplate(DeclineShare, {}),
    ]


# ---------------------------------------------------------------------------
# The rules across a step (the verification kit)
# ---------------------------------------------------------------------------


@hookimpl
def ttr_check_state(state: GameState) -> list[str]:
    current = state.variant(NAME)
    if not isinstance(current, SharesState):
        return [f"{NAME}: the variant's state is missing"]
    total = supply(state)
    holders = state.num_players + has_dummy(state.num_players)
    problems = []
    if len(current.held) != holders or any(len(h) != len(total) for h in current.held):
        return [f"{NAME}.held: expected {holders} holders of {len(total)} companies each"]
    for c, most in enumerate(total):
        numbers = sorted(n for holder in current.held for n in holder[c])
        if len(numbers) > most:
            problems.append(f"{NAME}: company {c} issued {len(numbers)} shares of {most}")
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"{NAME}: company {c}'s shares are not 1 to {len(numbers)} once each")
    problems += _revealed_problems(state, current)
    pending = state.pending
    if pending is not None and pending.kind == CHOOSE:
        route = pending.data
        if type(route) is not int or not 0 <= route < len(state.board.routes):
            problems.append(f"{NAME}: the share choice waits on no route of the map")
        elif state.owners[route] != pending.player:
            problems.append(f"{NAME}: the share choice waits on a route the seat does not own")
        elif not _open(state, route, left(state)):
            problems.append(f"{NAME}: the share choice waits on a route with no share to take")
    return problems


def _revealed_problems(state: GameState, current: SharesState) -> list[str]:
    """The dummy's revealed shares: set once a 2-player game is over, half its
    shares rounded up, each one of its own and once."""
    revealed = current.revealed
    dummy = current.held[-1] if has_dummy(state.num_players) else None
    if revealed is None:
        if dummy is not None and state.termination is not None:
            return [f"{NAME}.revealed: the game is over but the dummy's shares are not revealed"]
        return []
    if dummy is None or state.termination is None:
        return [f"{NAME}.revealed: only the dummy's shares are revealed, at the end"]
    if len(revealed) != len(dummy):
        return [f"{NAME}.revealed: expected {len(dummy)} companies, not {len(revealed)}"]
    for shown, held in zip(revealed, dummy, strict=True):
        if list(shown) != sorted(set(shown)) or not set(shown) <= set(held):
            return [f"{NAME}.revealed: shares the dummy does not hold, or one twice"]
    if sum(map(len, revealed)) != (sum(map(len, dummy)) + 1) // 2:
        return [f"{NAME}.revealed: not half the dummy's shares, rounded up"]
    return []


@hookimpl
def ttr_check_transition(before: GameState, action: Action, after: GameState) -> Iterator[str]:
    """A claim of a route with shares left waits for the claimer's choice; a
    choice takes the top share(s), ends the turn and changes nothing else of
    the shares."""
    claimed = [
        r
        for r, (old, new) in enumerate(zip(before.owners, after.owners, strict=True))
        if old != new and after.is_seat(new)
    ]
    for route in claimed:
        waits = choosing(after) == route and after.turn == before.turn
        if _open(before, route, left(before)) and after.termination is None and not waits:
            yield f"{NAME}: the claim of route {route} does not wait for a share to be chosen"
    old, new = shares(before).held, shares(after).held
    if isinstance(action, TakeShare | DeclineShare):
        if after.turn != before.turn + 1 and after.termination is None:
            yield f"{NAME}: the share choice did not end the turn"
        moves = _taking(before.board, action, len(old)) if isinstance(action, TakeShare) else []
        if _taken(old, moves) != new:
            yield f"{NAME}: {action!r} did not take the top share(s) it names"
    elif old != new:
        yield f"{NAME}: the holdings changed without a share choice ({type(action).__name__})"


# ---------------------------------------------------------------------------
# Advice for bots
# ---------------------------------------------------------------------------


def _seat_points(view: PlayerView, held: Sequence[Sequence[Sequence[int]]]) -> list[int]:
    """What each seat would score for its shares if the game ended with
    ``held`` (the dummy counted at half, rounded up, at best)."""
    seats = len(view.seats)
    if len(held) > seats:  # the dummy
        held = (*held[:seats], _estimate(held[seats]))
    paid = _paid(companies(view.board), held)
    return [sum(company[seat][1] for company in paid) for seat in range(seats)]


def _edge(view: PlayerView, moves: Sequence[tuple[int, int]]) -> float:
    """How much ``moves`` (holder, company) raise the seat's share points over
    the other seats' (their mean)."""
    held = view.variants[f"{NAME}.held"]
    seat = view.viewer
    before, after = _seat_points(view, held), _seat_points(view, _taken(held, moves))
    others = [s for s in range(len(before)) if s != seat]
    gain = float(after[seat] - before[seat])
    if others:
        gain -= sum(after[s] - before[s] for s in others) / len(others)
    return gain


#: What a share worth no place now is worth to the bots: a step towards one.
STEP = 0.5


@hookimpl
def ttr_agent_action_purpose(view: PlayerView, action: Action) -> Gains | None:
    """For bots: a share is worth what it moves the seat's share points ahead of
    the others' (the dummy's share included), plus a little (:data:`STEP`)
    for the places it may win later; taking none is worth 0."""
    if isinstance(action, DeclineShare):
        return Gains(0)
    if not isinstance(action, TakeShare):
        return None
    moves = _taking(view.board, action, len(view.seats) + 1)
    return Gains(_edge(view, moves) + STEP)


@hookimpl
def ttr_agent_route_costs(view: PlayerView) -> list[float]:
    """Advice for bots: a route whose claim lets the seat take a share that
    moves it ahead costs a little less (half that gain)."""
    board = view.board
    index = _index(board)
    remaining = view.variants[f"{NAME}.left"]
    worth = [
        max(_edge(view, [(view.viewer, c)]), 0.0) + STEP if remaining[c] > 0 else 0.0
        for c in range(len(index))
    ]
    return [
        -0.5 * max((worth[index[c]] for c in route_companies(board, r.id)), default=0.0)
        for r in board.routes
    ]
