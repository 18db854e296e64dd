"""The one exception hierarchy of ttr-core.

Every error the library raises on bad input derives from :class:`TtrError`.
Each names what was wrong and what was expected, so that an app can show the
message to a person and a program can branch on the typed class (and, for
illegal actions, on the machine-readable :class:`Reason`).
"""

from __future__ import annotations

import enum
import itertools
import os
import reprlib
from collections.abc import Callable, Iterable
from typing import Any

import attrs


class TtrError(Exception):
    """Base class of every error raised by ttr-core."""


class Reason(enum.StrEnum):
    """Machine-readable reason codes carried by :class:`IllegalAction`."""

    GAME_OVER = "game_over"
    #: An action whose fields have the wrong types (a seat that is not an
    #: ``int``, ``KeepTickets.tickets`` that is not a set of ticket ids).
    MALFORMED_ACTION = "malformed_action"
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_PHASE = "wrong_phase"
    UNKNOWN_ACTION = "unknown_action"
    UNKNOWN_ROUTE = "unknown_route"
    ROUTE_CLAIMED = "route_claimed"
    PARALLEL_ROUTE_CLOSED = "parallel_route_closed"
    OWNS_PARALLEL_ROUTE = "owns_parallel_route"
    NOT_ENOUGH_CARS = "not_enough_cars"
    BAD_PAYMENT = "bad_payment"
    CARDS_DO_NOT_PAY = "cards_do_not_pay"
    NO_CARD_TO_DRAW = "no_card_to_draw"
    EMPTY_SLOT = "empty_slot"
    BAD_SLOT = "bad_slot"
    WILD_AS_SECOND_CARD = "wild_as_second_card"
    NO_TICKETS_LEFT = "no_tickets_left"
    NOT_OFFERED = "ticket_not_offered"
    TOO_FEW_TICKETS_KEPT = "too_few_tickets_kept"
    PASS_NOT_ALLOWED = "pass_not_allowed"
    VETOED = "vetoed_by_variant"
    #: ``apply(..., seat=s)`` was given an action in another seat's name.
    WRONG_SEAT = "wrong_seat"
    #: ``apply(..., expect_ply=n)`` on a state at another ply: a stale or repeated move.
    STALE_MOVE = "stale_move"


class IllegalAction(TtrError, ValueError):
    """An action that the rules do not allow in this state.

    ``reason`` is a :class:`Reason` code (or a variant's own string code);
    ``str(error)`` is a sentence for people. The state the action was applied
    to is never changed (states are immutable).
    """

    def __init__(self, reason: Reason | str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalAction({self.reason!r}, {self.message!r})"


class StaleMoveError(IllegalAction):
    """A move made for another point of the game (``apply(..., expect_ply=n)`` on a
    state whose ``ply`` is not ``n``): a client's retried or outdated move.

    ``expected`` is the ply the move was made for, ``actual`` the state's.
    """

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(
            Reason.STALE_MOVE,
            f"the move was made at ply {show(expected)}, but the game is at ply {actual} "
            "(a repeated or outdated move)",
        )
        self.expected = expected
        self.actual = actual


@attrs.frozen
class MapProblem:
    """One problem found in a map file: where it is and what is wrong.

    ``line`` is the 1-based line of the entry in the file where the TOML
    text shows it, else ``None``.
    """

    source: str
    entry: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        return f"{where}: {self.entry}: {self.message}"


class MapError(TtrError, ValueError):
    """A map file that cannot be used. ``problems`` lists *all* that were found."""

    #: Problems the message lists; :attr:`problems` holds them all.
    SHOWN = 5

    def __init__(self, problems: Iterable[MapProblem]) -> None:
        self.problems = tuple(problems)
        count = len(self.problems)
        # The message stays short whatever the file: a few problems, each cut
        # to its share of about 900 characters (a lone problem is seldom cut).
        shown = self.problems[: self.SHOWN]
        width = min(400, 900 // max(len(shown), 1))
        lines = "\n".join(f"  - {_cut(str(p), width)}" for p in shown)
        more = count - self.SHOWN
        if more > 0:
            lines += f"\n  ... and {more} more (MapError.problems lists them all)"
        super().__init__(f"{count} problem{'s' if count != 1 else ''} in map data:\n{lines}")

    def report(self) -> str:
        """Every problem, one per line: for the map's author (``ttr --map FILE``
        prints it), where the message lists the first few only."""
        count = len(self.problems)
        lines = "".join(f"\n  - {p}" for p in self.problems)
        return f"{count} problem{'s' if count != 1 else ''} in map data:{lines}"


class UnknownMapError(TtrError, LookupError):
    """A map name that is neither a built-in map nor an existing file (nor, for
    :func:`~ttr_core.named_map`, a registered map)."""

    def __init__(self, name: str, available: Iterable[str], *, files: bool = True) -> None:
        self.name = name
        self.available = tuple(available)
        # files=False: a name from outside, which is never a file (named_map).
        hint = " or the path of a .toml map file" if files else ""
        super().__init__(
            f"unknown map {show(name)}: expected one of {', '.join(self.available)}{hint}"
        )


class UnknownVariantError(TtrError, LookupError):
    """A variant name that no installed plugin provides."""

    def __init__(self, name: object, available: Iterable[str], message: str | None = None) -> None:
        self.name = name
        self.available = tuple(available)
        known = ", ".join(self.available) or "none installed"
        super().__init__(message or f"unknown variant {show(name)}: expected one of {known}")


class PlayerCountError(TtrError, ValueError):
    """A player count outside the map's range."""

    def __init__(self, map_name: str, players: object, low: int, high: int) -> None:
        self.players = players
        self.low = low
        self.high = high
        super().__init__(
            f"map {show(map_name)} is played by {low} to {high} players, not {show(players)}"
        )


class GameConfigError(TtrError, ValueError):
    """A game configuration a variant cannot be played with (hook
    ``ttr_check_game``): the message says why; ``variant`` names the variant."""

    def __init__(self, message: str, *, variant: str) -> None:
        super().__init__(message)
        self.variant = variant


class UnsupportedVariantError(GameConfigError):
    """A variant an adapter cannot play: it adds actions of its own, which have no
    action id (:mod:`ttr_core.rules.action_ids`); ``variant`` names it."""


class ArgumentError(TtrError, TypeError):
    """A public function called with an argument of the wrong type or out of
    range (``player_view(state, 5)``, ``new_game(..., seed="x")``); the
    message names the argument, what was given and what was expected."""


class DataError(TtrError, ValueError):
    """Serialized input that cannot be used: malformed JSON, an unknown tag, a
    field of the wrong type, a value out of range, a state that breaks an
    invariant, or input too large or too deeply nested. ``path`` names the
    bad field (``"players[1].hand.red"``; empty for the whole input)."""

    #: The longest ``path`` and ``message`` kept: whatever the input, an error
    #: read from it stays a few lines (a client may show it; a log keeps it).
    MAX_PATH = 200
    MAX_MESSAGE = 600

    def __init__(self, path: str, message: str) -> None:
        path = _cut(path, self.MAX_PATH)
        message = _cut(message, self.MAX_MESSAGE)
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


class PluginError(TtrError):
    """A broken plugin: one that fails to load, an unknown or misused hook, a hook
    result of the wrong shape, a conflicting map field, a stalled decision.

    ``variant`` and ``hook`` name the plugin and the hook concerned, where known.
    """

    def __init__(self, message: str, *, variant: str | None = None, hook: str | None = None):
        super().__init__(message)
        self.variant = variant
        self.hook = hook


class OptionError(TtrError, ValueError):
    """Variant options that cannot be used: an unknown variant or option name,
    or a value of the wrong type or out of range."""


def told(error: BaseException) -> str:
    """An error as a command line tells it: a :class:`MapError` with every
    problem (the person at the terminal wrote the map), anything else by its
    message."""
    return error.report() if isinstance(error, MapError) else str(error)


class TtrWarning(UserWarning):
    """Base class of the warnings ttr-core gives (filter them with ``warnings``)."""


class GeneratedTicketsWarning(TtrWarning):
    """A game plays generated destination tickets in place of printed ones the
    map does not know (supply the printed deck with ``new_game(..., tickets=...)``)."""


class MapWarning(TtrWarning):
    """A map that loads but is probably wrong: a location no route reaches, a
    ticket that can never be completed."""


class GameNotOverError(TtrError):
    """Final scores were asked of a game that has not ended."""


# Quoting untrusted values in messages, and reading untrusted arguments

#: The longest piece of a message that quotes a value given from outside.
_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxlist = _REPR.maxtuple = _REPR.maxset = _REPR.maxfrozenset = _REPR.maxdeque = 8
_REPR.maxdict = 4
_REPR.maxarray = 8
_REPR.maxstring = 80
_REPR.maxlong = 40
_REPR.maxother = 80
#: Ints of more bits than this are described, not printed: Python refuses to
#: print an int of more than 4,300 digits (about 14,000 bits). Below it a
#: long int is cut to its first and last digits, like any long value.
_PRINTABLE_INT_BITS = 14_000


def show(value: object, limit: int = 60) -> str:
    """``repr(value)`` for an error message, whatever ``value`` is: cut to about
    ``limit`` characters, containers shortened before they are printed (a list
    of a million items or nested ten thousand deep costs nothing), and never
    failing (an int too long to print, an object whose ``repr`` raises)."""
    if type(value) is int and value.bit_length() > _PRINTABLE_INT_BITS:
        return f"an int of {value.bit_length()} bits"
    if type(value) is int and value.bit_length() <= 200:
        text = repr(value)  # exact, cut only past ``limit`` like any text
    else:
        try:
            text = _REPR.repr(value)
        except Exception:  # any failure of repr: describe the value by its type
            return f"a {_type_name(value)}"
    return text if len(text) <= limit else f"{text[: max(limit - 3, 1)]}..."


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def _type_name(value: object) -> str:
    name = type(value).__name__
    return name if len(name) <= 40 else f"{name[:37]}..."


def what(value: object) -> str:
    """What ``value`` is, for a message about an argument of the wrong type."""
    return f"{_type_name(value)} {show(value)}"


def printable(value: object) -> object:
    """``value`` if a message may quote it with ``{value!r}``, else :func:`show`'s text."""
    if type(value) in (float, bool, type(None)):
        return value
    if type(value) is str:
        return value
    if type(value) is int and value.bit_length() <= 200:
        return value
    return show(value)


def path_argument(name: str, value: object, meaning: str) -> str:
    """``value``, a ``str`` or an ``os.PathLike`` naming a file, as a ``str``;
    else :class:`ArgumentError` naming the argument (an ``os.PathLike`` whose
    ``__fspath__`` fails or gives bytes included)."""
    if isinstance(value, str):
        return value
    if isinstance(value, os.PathLike):
        try:
            path = os.fspath(value)
        except Exception:  # the object's own __fspath__ failed
            raise ArgumentError(
                f"{name} must be {meaning}: its __fspath__() failed ({_type_name(value)})"
            ) from None
        if isinstance(path, str):
            return path
    raise ArgumentError(f"{name} must be {meaning} (str or os.PathLike), not {what(value)}")


def items_argument(
    name: str,
    value: object,
    limit: int,
    meaning: str,
    error: Callable[[str], Exception] | None = None,
) -> tuple[Any, ...]:
    """The items of the iterable ``value`` (not a ``str`` or ``bytes``), at most
    ``limit`` of them: an endless iterable, one that fails while it is read or
    one that is no iterable gives ``error(message)`` (:class:`ArgumentError` by
    default) naming ``name`` and ``meaning``, never a hang or the iterable's own
    exception."""
    make = error or ArgumentError
    if isinstance(value, str | bytes | bytearray) or not isinstance(value, Iterable):
        raise make(f"{name} must be {meaning}, not {what(value)}")
    try:
        items = tuple(itertools.islice(value, limit + 1))
    except Exception:  # the iterable's own __iter__ or __next__ failed
        raise make(f"{name} must be {meaning}: reading it failed ({_type_name(value)})") from None
    if len(items) > limit:
        raise make(f"{name} must be {meaning}: more than {limit} items")
    return items
