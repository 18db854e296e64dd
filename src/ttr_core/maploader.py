"""Loading map files (TOML) into validated, frozen :class:`Board` objects.

The format is documented in ``docs/map-format.md``. Loading checks
everything and raises one :class:`MapError` listing *all* problems, each with
the file, the line (where the TOML text shows it) and the entry it concerns.
A map that loads but is probably wrong gives :class:`MapWarning` warnings.
"""

from __future__ import annotations

import difflib
import functools
import importlib.util
import os
import re
import threading
import tomllib
import unicodedata
import warnings
from collections.abc import Callable, Iterable, Mapping
from importlib import resources
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from stat import S_ISBLK, S_ISCHR, S_ISDIR, S_ISFIFO, S_ISREG
from typing import Any, TypeVar

import attrs

from ttr_core.confusables import mixed_scripts, skeleton, unusual_characters
from ttr_core.errors import (
    ArgumentError,
    GeneratedTicketsWarning,
    MapError,
    MapProblem,
    MapWarning,
    TtrError,
    UnknownMapError,
    path_argument,
    show,
    what,
)
from ttr_core.hooks.manager import declared_map_fields, plugins_generation, validate_variant_fields
from ttr_core.model.board import (
    GRAY,
    MAX_COLORS,
    MAX_ROUTE_LENGTH,
    WILD,
    Board,
    Location,
    MapRules,
    Provenance,
    Route,
    Ticket,
    derive,
    evict_oldest,
    name_key,
)
from ttr_core.model.declarations import LOCATION, ROUTE, MapField
from ttr_core.model.graph import connected_pairs
from ttr_core.ticketgen import generate_tickets
from ttr_core.tomllines import Locator, Where, nesting_problem, toml_error_line

_T = TypeVar("_T")

#: The map format version this loader reads.
FORMAT_VERSION = 1

# Limits (docs/map-format.md, "Limits"): each far above every real map, each
# low enough that a map within all of them loads in well under a second and
# plays its first game without stalling (the engine prepares every payment of
# every route for every seat, so route lengths, colours and seats multiply).
#: Largest map or ticket deck file, in bytes of UTF-8, checked before parsing.
MAX_FILE_BYTES = 256 * 1024
#: Deepest nesting of arrays and inline tables.
MAX_NESTING = 10
#: Most parts of a dotted key (``a.b.c`` has three).
MAX_KEY_PARTS = 10
#: Largest whole number anywhere in a file (ids, pair labels, field values, ...).
MAX_NUMBER = 1_000_000
#: Most players a map may be played by.
MAX_PLAYERS = 8
#: Most cards of one colour, and most wild cards.
MAX_CARDS_PER_KIND = 500
#: Most transportation cards in all.
MAX_CARDS = 1000
#: Most cars a player starts with.
MAX_CARS = 200
#: Most route spaces on the board (the sum of all route lengths).
MAX_SPACES = 1500
MAX_LOCATIONS = 200
MAX_ROUTES = 1000
#: Most tickets listed, in a map or a ticket deck file, and largest ``deck``.
MAX_TICKETS = 1000
#: Most tickets dealt at setup (``start_dealt``) or drawn (``draw``) at once.
MAX_TICKETS_DEALT = 10
MAX_STARTING_HAND = 100
MAX_DISPLAY = 20
#: Most points of a route or a ticket (route points may be 0, never negative),
#: and the largest start score either way.
MAX_POINTS = 1000
#: Longest name (ids, names, aliases, colours, variants, field names and
#: most strings), and longest text (provenance, ``str`` field values).
MAX_NAME_LENGTH = 100
MAX_TEXT_LENGTH = 2000
#: Most names in one list (aliases, variants).
MAX_NAMES = 20
#: Most fields a map declares for one table, and most provenance entries per list.
MAX_FIELDS = 50
MAX_PROVENANCE_ITEMS = 100
#: The narrowest and the widest board (``[map] aspect``, width ÷ height).
MIN_ASPECT = 0.1
MAX_ASPECT = 10.0
#: What a ``[map] id`` must be: a name (lower-case ASCII letters, digits, ``_``
#: and ``-``; at most 64 characters), never a path. Data names maps by id.
MAP_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
#: Most problems one ``MapError`` lists; one more entry counts the rest.
MAX_PROBLEMS = 100
#: Most "did you mean" hints one load computes (each compares with every name).
_MAX_HINTS = 50
#: Characters refused in every string: controls (Cc), formatting (Cf, such as
#: right-to-left overrides and zero-width spaces), surrogates, line and
#: paragraph separators. They corrupt or disguise text shown to people.
_CONTROL_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_RETURNED = ("bottom", "discard")
#: Where unkept starting tickets may go: where returned ones may, or the box.
_START_RETURNED = (*_RETURNED, "box")
#: The reserved colour names (no card colour may look like one), by skeleton.
_RESERVED_LOOKS = {skeleton(GRAY): GRAY, skeleton(WILD): WILD}
_TOP_KEYS = {"format", "map", "cards", "rules", "components", "fields", "board", "provenance"}
_PROVENANCE_KEYS = {"summary", "sources", "verified", "unverified"}
_DECK_TOP_KEYS = {"format", "deck", "board"}
_MAP_KEYS = {"id", "name", "aliases", "players", "variants", "aspect", "pieces"}
_CARDS_KEYS = {"colors", "wild", "wild_name"}
_RULES_KEYS = {
    "cars_per_player",
    "starting_hand",
    "display_size",
    "max_face_up_wilds",
    "end_trigger_cars",
    "both_pair_routes_min_players",
    "start_scores",
    "tickets",
    "route_points",
    "titles",
}
_TICKET_RULE_KEYS = {
    "start_dealt",
    "start_keep",
    "draw",
    "draw_keep",
    "returned",
    "start_returned",
    "deck",
}
_COMPONENT_KEYS = {"locations", "routes", "double_pairs", "spaces", "tickets", "cards"}
_FIELD_KINDS: dict[str, type | str] = {
    "bool": bool,
    "int": int,
    "str": str,
    LOCATION: LOCATION,
    ROUTE: ROUTE,
}
_CORE_ENTRY_KEYS = {
    "locations": {"name", "aliases", "pos"},
    "routes": {"id", "a", "b", "color", "length", "pair"},
    "tickets": {"id", "a", "b", "points"},
}


# ---------------------------------------------------------------------------
# Checking
# ---------------------------------------------------------------------------


def _label(name: str) -> str:
    """``name`` as part of an entry's label: as written if short and printable."""
    return name if len(name) <= MAX_NAME_LENGTH and name.isprintable() else _show(name)


def _show(value: object) -> str:
    """``repr(value)`` cut short: a value from the file, however large or deep."""
    return show(value, 120)


def _text_problem(value: str, limit: int, *, breaks: bool = False) -> str | None:
    """What is wrong with a string shown to people: too long, or a control
    character (a text, unlike a name, may hold line breaks and tabs)."""
    if len(value) > limit:
        return f"must be at most {limit} characters, not {len(value)}"
    if not value.isprintable():  # fast for the usual text; the few it flags are looked at
        for char in value:
            if breaks and char in "\n\t":
                continue
            if unicodedata.category(char) in _CONTROL_CATEGORIES:
                return f"must not contain control characters (U+{ord(char):04X})"
    return None


class _Checker:
    """Collects problems instead of stopping at the first.

    Each problem keeps where in the data it is (``at``: the table or entry,
    ``key``: a key of it); lines are looked up only once problems are reported.
    """

    def __init__(self, source: str, text: str, data: Mapping[str, Any]) -> None:
        self.source = source
        self._text = text
        self._data = data
        self._found: list[tuple[str, str, tuple[Where, ...]]] = []
        self._unlisted = 0
        self._hints = _MAX_HINTS
        #: Set when a count is so far over its limit that checking on is pointless.
        self.too_big = False
        self._locator: Locator | None = None
        #: Where each route and ticket is, by ("route" or "ticket", id).
        self.entry_at: dict[tuple[str, int], Where] = {}

    def add(self, entry: str, message: str, at: Where | None = None, key: str = "") -> None:
        if len(self._found) >= MAX_PROBLEMS:
            self._unlisted += 1
            return
        where: tuple[Where, ...] = ()
        if at is not None:
            where = ((*at, key), at) if key else (at,)
        self._found.append((entry, message, where))

    def hint(self, word: object, choices: Iterable[str]) -> str:
        """``"; did you mean 'x'?"`` for the choice closest to ``word``, if one is close.

        Each hint compares ``word`` with every choice, so a file full of
        mistakes gets hints for its first few only.
        """
        close = self._closest(word, choices)
        return f"; did you mean {close!r}?" if close is not None else ""

    def closest_place(self, value: str, places: _Places) -> str:
        """:meth:`hint` naming the printed name of the location closest to ``value``."""
        close = self._closest(value, places.written)
        return f"; did you mean {places.written[close]!r}?" if close is not None else ""

    def _closest(self, word: object, choices: Iterable[str]) -> str | None:
        if not isinstance(word, str) or len(word) > MAX_NAME_LENGTH or self._hints <= 0:
            return None
        self._hints -= 1
        close = difflib.get_close_matches(word, list(choices), n=1)
        return close[0] if close else None

    def line(self, *where: Where) -> int | None:
        if not where:
            return None
        if self._locator is None:
            self._locator = Locator(self._text, self._data)
        return self._locator.line(where)

    def problems(self) -> list[MapProblem]:
        found = [
            MapProblem(self.source, entry, message, self.line(*where))
            for entry, message, where in self._found
        ]
        if self._unlisted:
            message = f"{self._unlisted} more problems not listed (at most {MAX_PROBLEMS} are)"
            found.append(MapProblem(self.source, "file", message))
        return found

    def table(self, data: Mapping[str, Any], key: str, entry: str, at: Where) -> Mapping[str, Any]:
        value = data.get(key)
        if value is None:
            self.add(entry, f"missing table [{key}]", at, key)
            return {}
        if not isinstance(value, Mapping):
            self.add(entry, f"[{key}] must be a table, not {type(value).__name__}", at, key)
            return {}
        return value

    def unknown_keys(
        self, data: Mapping[str, Any], allowed: set[str], entry: str, at: Where
    ) -> None:
        for key in data:
            if key not in allowed:
                self.add(
                    entry,
                    f"unknown key {_show(key)} (expected one of: {', '.join(sorted(allowed))})"
                    + self.hint(key, sorted(allowed)),
                    at,
                    key,
                )

    def integer(
        self,
        data: Mapping[str, Any],
        key: str,
        entry: str,
        at: Where,
        *,
        low: int = 0,
        high: int = MAX_NUMBER,
        default: int | None = None,
    ) -> int:
        """``data[key]``: a whole number from ``low`` to ``high`` (else reported, and ``low``)."""
        value = data.get(key, default)
        if value is None:
            self.add(entry, f"missing {key!r} (a whole number ≥ {low})", at)
            return low
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            self.add(entry, f"{key!r} must be a whole number ≥ {low}, not {_show(value)}", at, key)
            return low
        if value > high:
            self.add(
                entry,
                f"{key!r} must be a whole number from {low} to {high}, not {_show(value)}",
                at,
                key,
            )
            return low
        return value

    def identifier(self, data: Mapping[str, Any], entry: str, at: Where) -> int | None:
        """An entry's ``id``: a whole number ≥ 0, or ``None`` (reported) if missing or bad."""
        value = data.get("id")
        if value is None:
            self.add(entry, "missing 'id' (a whole number ≥ 0)", at)
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            self.add(entry, f"'id' must be a whole number ≥ 0, not {_show(value)}", at, "id")
            return None
        if value > MAX_NUMBER:
            message = f"'id' must be a whole number from 0 to {MAX_NUMBER}, not {_show(value)}"
            self.add(entry, message, at, "id")
            return None
        return value

    def string(
        self,
        data: Mapping[str, Any],
        key: str,
        entry: str,
        at: Where,
        limit: int = MAX_NAME_LENGTH,
        *,
        breaks: bool = False,
    ) -> str:
        """``data[key]``: a non-empty string of at most ``limit`` characters with no
        control characters but, if ``breaks``, line breaks and tabs (else
        reported, and ``""``)."""
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            self.add(entry, f"{key!r} must be a non-empty string, not {_show(value)}", at, key)
            return ""
        problem = _text_problem(value, limit, breaks=breaks)
        if problem is not None:
            self.add(entry, f"{key!r} {problem}", at, key)
            return ""
        return value

    def string_list(
        self,
        data: Mapping[str, Any],
        key: str,
        entry: str,
        at: Where,
        *,
        most: int = MAX_NAMES,
        limit: int = MAX_NAME_LENGTH,
        noun: str = "names",
        breaks: bool = False,
    ) -> tuple[str, ...]:
        """``data[key]`` (default empty): a list of at most ``most`` strings, each
        as :meth:`string` checks one (else reported, and ``()``)."""
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.add(entry, f"{key!r} must be a list of strings, not {_show(value)}", at, key)
            return ()
        if len(value) > most:
            self.add(entry, f"{key!r} must list at most {most} {noun}, not {len(value)}", at, key)
            return ()
        for item in value:
            problem = "must not be empty" if not item.strip() else None
            problem = problem or _text_problem(item, limit, breaks=breaks)
            if problem is not None:
                self.add(entry, f"{key!r}: {_show(item)} {problem}", at, key)
                return ()
        return tuple(value)


@attrs.frozen
class _Places:
    """What field values of kind "location" and "route" are checked against."""

    names: frozenset[str]
    joined: frozenset[frozenset[str]]
    #: Printed name by every spelling written in the file (names and aliases).
    written: Mapping[str, str] = attrs.field(factory=dict)
    #: Printed name by :func:`name_key` of every name and alias.
    spellings: Mapping[str, str] = attrs.field(factory=dict)

    def alias_message(self, value: str) -> str | None:
        """The problem with ``value`` if it is another spelling or an alias
        of a location rather than its printed name, else ``None``."""
        printed = self.spellings.get(name_key(value))
        if printed is None or printed == value:
            return None
        kind = "another spelling" if name_key(printed) == name_key(value) else "an alias"
        return f"{value!r} is {kind} of {printed!r}: use the printed name"


def _kind_name(kind: type | str) -> str:
    return kind if isinstance(kind, str) else kind.__name__


def _field_value(
    check: _Checker, field: MapField, value: Any, places: _Places
) -> tuple[Any, str | None]:
    """The value to store for a variant field, or an error message."""
    kind = field.type
    if kind == LOCATION:
        if not isinstance(value, str) or value not in places.names:
            if isinstance(value, str):
                alias = places.alias_message(value)
                if alias is not None:
                    return None, f"field {field.name!r}: {alias}"
            hint = check.closest_place(value, places) if isinstance(value, str) else ""
            return None, f"field {field.name!r} must name a location, not {_show(value)}{hint}"
        return value, None
    if kind == ROUTE:
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(isinstance(v, str) and v in places.names for v in value)
        ):
            hint = ""
            if isinstance(value, list) and len(value) == 2:
                for v in value:
                    if isinstance(v, str) and v not in places.names:
                        alias = places.alias_message(v)
                        if alias is not None:
                            return None, f"field {field.name!r}: {alias}"
                        hint = hint or check.closest_place(v, places)
            shown = _show(value)
            return None, f"field {field.name!r} must be [location, location], not {shown}{hint}"
        if frozenset(value) not in places.joined:
            return None, f"field {field.name!r}: no route joins {value[0]!r} and {value[1]!r}"
        return tuple(value), None
    assert isinstance(kind, type)
    if isinstance(value, bool) != (kind is bool) or not isinstance(value, kind):
        return None, f"field {field.name!r} must be of type {kind.__name__}, not {_show(value)}"
    if isinstance(value, int) and not -MAX_NUMBER <= value <= MAX_NUMBER:
        return None, (
            f"field {field.name!r} must be a whole number from {-MAX_NUMBER} to {MAX_NUMBER}, "
            f"not {_show(value)}"
        )
    if isinstance(value, str):
        problem = _text_problem(value, MAX_TEXT_LENGTH, breaks=True)
        if problem is not None:
            return None, f"field {field.name!r} {problem}"
    return value, None


def _check_extra(
    check: _Checker,
    table: str,
    item: Mapping[str, Any],
    entry: str,
    at: Where,
    fields: Mapping[str, MapField],
    places: _Places,
) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    core = _CORE_ENTRY_KEYS[table]
    for key, value in item.items():
        if key in core:
            continue
        field = fields.get(key)
        if field is None:
            expected = sorted(core | set(fields))
            check.add(
                entry,
                f"unknown field {_show(key)} (expected one of: {', '.join(expected)})"
                + check.hint(key, expected),
                at,
                key,
            )
            continue
        stored, error = _field_value(check, field, value, places)
        if error is not None:
            check.add(entry, error, at, key)
            continue
        extra[key] = stored
    for key, field in fields.items():
        extra.setdefault(key, field.default)
    return extra


def _map_fields(
    check: _Checker, declared: Any, plugin_fields: dict[str, dict[str, MapField]]
) -> dict[str, dict[str, MapField]]:
    """The variant fields entries may carry: the plugins' and the map's own ``[fields]``."""
    fields = {table: dict(by_name) for table, by_name in plugin_fields.items()}
    if declared is None:
        return fields
    if not isinstance(declared, Mapping):
        check.add("[fields]", "must be a table of [fields.<table>] tables", ("fields",))
        return fields
    for table, entries in declared.items():
        entry = f"[fields.{_label(table)}]"
        at: Where = ("fields", table)
        if table not in fields:
            check.add(
                entry,
                f"unknown table {_show(table)} (expected one of: {', '.join(fields)})"
                + check.hint(table, fields),
                at,
            )
            continue
        if not isinstance(entries, Mapping):
            check.add(entry, "must be a table of field = kind", at)
            continue
        if len(entries) > MAX_FIELDS:
            check.add(entry, f"{len(entries)} fields: a map may declare at most {MAX_FIELDS}", at)
            continue
        for name, kind_name in entries.items():
            problem = _text_problem(name, MAX_NAME_LENGTH)
            if problem is not None:
                check.add(entry, f"field name {_show(name)} {problem}", at, name)
                continue
            kind = _FIELD_KINDS.get(kind_name) if isinstance(kind_name, str) else None
            if kind is None:
                kinds = ", ".join(_FIELD_KINDS)
                check.add(
                    entry,
                    f"field {name!r}: kind must be one of {kinds}, not {_show(kind_name)}"
                    + check.hint(kind_name, _FIELD_KINDS),
                    at,
                    name,
                )
                continue
            if name in _CORE_ENTRY_KEYS[table]:
                check.add(entry, f"field {name!r} is a core key of {table}", at, name)
                continue
            known = fields[table].get(name)
            if known is not None:
                if _kind_name(known.type) != kind_name:
                    check.add(
                        entry,
                        f"field {name!r} is declared {kind_name!r} here but "
                        f"{_kind_name(known.type)!r} by an installed variant",
                        at,
                        name,
                    )
                continue
            fields[table][name] = MapField(table, name, kind, None, "declared by the map")
    return fields


def parse_map(text: str, source: str = "<map>") -> Board:
    """Parse and validate map data given as TOML text.

    ``source`` names the file in error messages. Raises :class:`MapError`
    listing every problem found, each with its line where the text shows
    it. A map that loads but is probably wrong (a location no route reaches,
    a ticket that can never be completed) gives a :class:`MapWarning` for
    each such doubt. Every size and count is bounded (``docs/map-format.md``,
    "Limits"). Raises :class:`ArgumentError` if ``text`` or ``source`` is
    not a ``str``.
    """
    _check_str("text", text, "the map's TOML text")
    _check_str("source", source, "the name for messages")
    return _parse_map(text, source, stacklevel=3)


def _check_str(name: str, value: object, meaning: str) -> None:
    if not isinstance(value, str):
        raise ArgumentError(f"{name} must be a str ({meaning}), not {what(value)}")


def _file_error(source: str, message: str, line: int | None = None) -> MapError:
    return MapError([MapProblem(source, "file", message, line)])


def _size_error(source: str, size: int, kind: str) -> MapError:
    return _file_error(
        source, f"the file is {size} bytes: a {kind} file may have at most {MAX_FILE_BYTES} bytes"
    )


def _plain_text(text: str) -> str:
    """``text`` with the line ends and the byte-order mark every reader of maps
    accepts made plain: a byte-order mark at the start (as some editors write
    one) is dropped, and ``\\r\\n`` and a lone ``\\r`` become ``\\n``, as in a
    file opened as text. ``parse_map`` and ``load_map`` (and the ticket deck
    readers) read a text the same way, and report the same lines."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _prepared(text: str, source: str, kind: str) -> str:
    """:func:`_plain_text` of ``text``, once it is known to be small enough: its
    UTF-8 as written (the bytes a file of it would hold) within the limit."""
    # Up to a quarter of the limit in characters, the UTF-8 cannot exceed it.
    if len(text) > MAX_FILE_BYTES // 4:
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > MAX_FILE_BYTES:
            raise _size_error(source, size, kind)
    return _plain_text(text)


def _toml(text: str, source: str) -> dict[str, Any]:
    """The TOML ``text`` (prepared by :func:`_prepared`) parsed, once it is known
    to be shallow enough (``MapError`` with the line for text that is not TOML)."""
    nested = nesting_problem(text, MAX_NESTING, MAX_KEY_PARTS)
    if nested is not None:
        message, line = nested
        raise _file_error(source, f"{message}: too deeply nested to read", line)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _file_error(source, f"not valid TOML: {exc}", toml_error_line(exc)) from None
    except ValueError as exc:
        # Python refuses to read an integer of more than 4300 digits (its own
        # guard against slow conversions); tomllib lets that ValueError out.
        digits = _LONG_NUMBER.search(text)
        if digits is None:
            raise _file_error(source, f"not valid TOML: {_show(str(exc))}") from None
        line = text.count("\n", 0, digits.start()) + 1
        raise _file_error(source, "a whole number of more than 4300 digits", line) from None
    except (RecursionError, MemoryError):  # the scan above should make these impossible
        raise _file_error(source, "too large or too deeply nested to read") from None


_LONG_NUMBER = re.compile(r"[0-9_]{4301,}")


def _parse_map(text: str, source: str, stacklevel: int) -> Board:
    """:func:`parse_map` of a ``str``; warnings name the caller ``stacklevel`` frames up.

    Whatever the text, it returns a :class:`Board` or raises :class:`MapError`
    (or a :class:`TtrError` of a plugin): an exception of any other kind
    from checking hostile text is turned into a ``MapError`` naming it.
    """
    return _guarded(source, _checked_map, text, source, stacklevel + 2)


def _guarded(source: str, work: Callable[..., _T], *args: Any) -> _T:
    """``work(*args)``, with any exception but a :class:`TtrError` turned into a
    :class:`MapError` about ``source``: the last line of defence against a
    hostile file reaching a case the checks missed."""
    try:
        return work(*args)
    except TtrError:
        raise
    except (RecursionError, MemoryError, OverflowError) as exc:
        message = f"too large or too deeply nested to check ({type(exc).__name__})"
        raise _file_error(source, message) from None
    except (ArithmeticError, LookupError, TypeError, ValueError, AttributeError) as exc:
        message = (
            f"could not be checked: {type(exc).__name__}: {_show(str(exc))} "
            "(a bug in ttr-core: please report it with the file)"
        )
        raise _file_error(source, message) from exc


def _checked_map(text: str, source: str, stacklevel: int) -> Board:
    text = _prepared(text, source, "map")
    data = _toml(text, source)
    check = _Checker(source, text, data)
    top: Where = ()

    check.unknown_keys(data, _TOP_KEYS, "file", top)
    version = data.get("format")
    if type(version) is not int or version != FORMAT_VERSION:
        check.add("file", f"'format' must be {FORMAT_VERSION}, not {_show(version)}", top, "format")

    meta = check.table(data, "map", "[map]", top)
    at: Where = ("map",)
    check.unknown_keys(meta, _MAP_KEYS, "[map]", at)
    map_id = check.string(meta, "id", "[map]", at)
    name = check.string(meta, "name", "[map]", at, breaks=True)
    aliases = check.string_list(meta, "aliases", "[map]", at)
    _check_map_names(check, map_id, aliases)
    default_variants = check.string_list(meta, "variants", "[map]", at)
    players = meta.get("players")
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(p, int) and not isinstance(p, bool) for p in players)
        or not 1 <= players[0] <= players[1]
    ):
        check.add(
            "[map]",
            f"'players' must be [min, max] with 1 ≤ min ≤ max, not {_show(players)}",
            at,
            "players",
        )
        players = [1, 1]
    elif players[1] > MAX_PLAYERS:
        check.add(
            "[map]",
            f"'players' must be [min, max] with 1 ≤ min ≤ max ≤ {MAX_PLAYERS}, "
            f"not {_show(players)}",
            at,
            "players",
        )
        players = [1, 1]

    aspect = _parse_aspect(check, meta.get("aspect"))
    pieces = check.string(meta, "pieces", "[map]", at) if "pieces" in meta else "cars"
    colors, deck, wild_name = _parse_cards(check, check.table(data, "cards", "[cards]", top))
    rules = _parse_rules(
        check, check.table(data, "rules", "[rules]", top), players, default_variants
    )

    board_data = check.table(data, "board", "[board]", top)
    check.unknown_keys(board_data, {"locations", "routes", "tickets"}, "[board]", ("board",))
    _check_counts(check, board_data, "map", _MAP_COUNTS)
    if check.too_big:
        # Checking each of tens of thousands of entries (or colours) is slow
        # and adds nothing to "too many".
        raise MapError(check.problems())
    plugin_fields: dict[str, dict[str, MapField]] = {"locations": {}, "routes": {}, "tickets": {}}
    for field in declared_map_fields():
        if field.table in plugin_fields:
            plugin_fields[field.table][field.name] = field
    fields = _map_fields(check, data.get("fields"), plugin_fields)

    places = _places(board_data)
    locations = _parse_locations(check, board_data, fields["locations"], places)
    names = {loc.name for loc in locations}
    routes = _parse_routes(check, board_data, fields["routes"], names, colors, rules, places)
    tickets = _parse_tickets(check, board_data, fields["tickets"], names, places)

    _check_components(check, data.get("components"), locations, routes, tickets, deck)
    _check_enough_components(
        check, rules, deck, max(len(tickets), rules.ticket_deck_size), colors, routes
    )
    if rules.ticket_deck_size and rules.ticket_deck_size < len(tickets):
        check.add(
            "[rules.tickets]",
            f"'deck' ({rules.ticket_deck_size}) is smaller than the {len(tickets)} tickets listed",
            ("rules", "tickets"),
            "deck",
        )
    provenance = _parse_provenance(check, data.get("provenance"))
    rules_table = data.get("rules")
    titles = _parse_titles(check, rules_table) if isinstance(rules_table, Mapping) else {}

    problems = check.problems()
    if problems:
        raise MapError(problems)
    board = Board(
        id=map_id,
        name=name,
        source=source,
        locations=locations,
        routes=routes,
        tickets=tickets,
        colors=colors,
        deck=deck,
        rules=rules,
        aliases=aliases,
        wild_name=wild_name,
        provenance=provenance,
        aspect=aspect,
        titles=titles,
        pieces=pieces or "cars",
    )
    variant_problems = validate_variant_fields(board)
    if variant_problems:
        raise MapError(MapProblem(source, "variant fields", msg) for msg in variant_problems)
    for doubt in _doubts(check, board):
        warnings.warn(doubt, MapWarning, stacklevel=stacklevel)
    missing = rules.ticket_deck_size - len(tickets)
    if missing > 0:
        board = _with_generated_tickets(board, missing, fields["tickets"], stacklevel + 1)
    return board


def _script_problem(value: str) -> str | None:
    """The problem with a name that mixes Latin, Cyrillic and Greek letters
    (the usual disguise of a look-alike: ``Sоho`` with a Cyrillic ``о``)."""
    mixed = mixed_scripts(value)
    if mixed is None:
        return None
    return (
        f"mixes {mixed[0]} and {mixed[1]} letters ({unusual_characters(value)}): "
        "a name must write its letters in one script"
    )


#: What no map alias may hold or start with: it would read as a path.
_PATH_CHARACTERS = frozenset("/\\:")


def _check_map_names(check: _Checker, map_id: str, aliases: tuple[str, ...]) -> None:
    """``[map] id`` is a name, never a path; no alias reads as a path, and no
    two of the id and the aliases look alike."""
    at: Where = ("map",)
    if map_id and not MAP_ID.fullmatch(map_id):
        check.add(
            "[map]",
            f"'id' must be a map name (1 to 64 lower-case letters a-z, digits, '_' and '-', "
            f"starting with a letter or digit), not {_show(map_id)}: data names a map by "
            "its id, never by a path",
            at,
            "id",
        )
    looks: dict[str, str] = {skeleton(map_id): f"the map id {map_id!r}"} if map_id else {}
    for alias in aliases:
        if alias.startswith((".", "~")) or not _PATH_CHARACTERS.isdisjoint(alias):
            message = (
                f"alias {_show(alias)} is not a name but reads as a path "
                "(no '/', '\\' or ':', no '.' or '~' first)"
            )
            check.add("[map]", message, at, "aliases")
        problem = _script_problem(alias)
        if problem is not None:
            check.add("[map]", f"alias {_show(alias)} {problem}", at, "aliases")
        look = skeleton(alias)
        other = looks.get(look)
        if other is not None:
            message = f"alias {_show(alias)} looks like {other}: each name of a map must differ"
            check.add("[map]", message, at, "aliases")
        looks.setdefault(look, f"alias {_show(alias)}")


def _with_generated_tickets(
    board: Board, missing: int, fields: Mapping[str, MapField], stacklevel: int
) -> Board:
    """``board`` with its ticket deck completed by generated tickets, said once."""
    defaults = {name: field.default for name, field in fields.items()}
    made = generate_tickets(board, missing, existing=board.tickets, extra=defaults)
    made = tuple(attrs.evolve(t, extra={**t.extra, GENERATED: True}) for t in made)
    warnings.warn(
        f"{board.source}: map {board.id!r} knows {len(board.tickets)} of the "
        f"{board.rules.ticket_deck_size} printed tickets; games play {missing} generated "
        "ones in their place (value = fewest spaces between the places). Supply the printed "
        "deck with new_game(..., tickets='deck.toml') or ttr --tickets deck.toml.",
        GeneratedTicketsWarning,
        stacklevel=stacklevel,
    )
    return attrs.evolve(board, tickets=board.tickets + made)


#: ``Ticket.extra`` key marking a ticket the library generated (not printed).
GENERATED = "generated"


def _parse_provenance(check: _Checker, raw: Any) -> Provenance | None:
    """The ``[provenance]`` table: where the map's facts come from."""
    if raw is None:
        return None
    at: Where = ("provenance",)
    if not isinstance(raw, Mapping):
        check.add("[provenance]", "must be a table", at)
        return None
    check.unknown_keys(raw, _PROVENANCE_KEYS, "[provenance]", at)
    summary = check.string(raw, "summary", "[provenance]", at, MAX_TEXT_LENGTH, breaks=True)
    verified, unverified = (
        check.string_list(
            raw,
            key,
            "[provenance]",
            at,
            most=MAX_PROVENANCE_ITEMS,
            limit=MAX_TEXT_LENGTH,
            noun="entries",
            breaks=True,
        )
        for key in ("verified", "unverified")
    )
    sources: list[tuple[str, str]] = []
    listed = raw.get("sources", [])
    if not isinstance(listed, list) or len(listed) > MAX_PROVENANCE_ITEMS:
        check.add(
            "[provenance]",
            f"'sources' must be a list of at most {MAX_PROVENANCE_ITEMS} {{ id, what }} tables",
            at,
            "sources",
        )
        listed = []
    for i, item in enumerate(listed):
        if (
            not isinstance(item, Mapping)
            or set(item) != {"id", "what"}
            or not all(isinstance(v, str) and v.strip() for v in item.values())
        ):
            check.add(
                "[provenance]",
                f'source {i} must be {{ id = "…", what = "…" }}, not {_show(item)}',
                at,
                "sources",
            )
            continue
        entry = f"[provenance] source {i}"
        ident = check.string(item, "id", entry, at)
        what = check.string(item, "what", entry, at, MAX_TEXT_LENGTH, breaks=True)
        if ident and what:
            sources.append((ident, what))
    return Provenance(summary, tuple(sources), verified, unverified)


def _doubts(check: _Checker, board: Board) -> list[str]:
    """What is probably wrong with a map that loads: a location no route
    reaches, two locations at the same position, a ticket whose ends no
    chain of routes can join."""
    doubts: list[str] = []
    reached = {route.a for route in board.routes} | {route.b for route in board.routes}
    for loc in board.locations:
        if loc.name not in reached:
            line = check.line(("board", "locations", loc.id))
            entry = f"location {loc.id} ({loc.name!r})"
            doubts.append(str(MapProblem(board.source, entry, "no route reaches it", line)))

    spot: dict[tuple[float, float], str] = {}
    for loc in board.locations:
        if loc.pos is not None:
            other = spot.setdefault(loc.pos, loc.name)
            if other != loc.name:
                line = check.line(("board", "locations", loc.id))
                entry = f"location {loc.id} ({loc.name!r})"
                message = f"has the same 'pos' as {other!r}: the two would be drawn on each other"
                doubts.append(str(MapProblem(board.source, entry, message, line)))

    index = board.location_id
    root = connected_pairs(len(board.locations), ((index(r.a), index(r.b)) for r in board.routes))
    for ticket in board.tickets:
        if root[index(ticket.a)] != root[index(ticket.b)]:
            at = check.entry_at.get(("ticket", ticket.id))
            line = None if at is None else check.line(at)
            message = (
                f"no chain of routes joins {ticket.a!r} and {ticket.b!r}: "
                "the ticket can never be completed"
            )
            doubts.append(str(MapProblem(board.source, f"ticket {ticket.id}", message, line)))
    return doubts


def _parse_cards(
    check: _Checker, cards: Mapping[str, Any]
) -> tuple[tuple[str, ...], tuple[int, ...], str]:
    at: Where = ("cards",)
    check.unknown_keys(cards, _CARDS_KEYS, "[cards]", at)
    raw_colors = cards.get("colors")
    colors: list[str] = []
    counts: list[int] = []
    if not isinstance(raw_colors, Mapping) or not raw_colors:
        check.add("[cards]", "'colors' must be a table of colour = number of cards", at, "colors")
    elif len(raw_colors) > MAX_COLORS:
        message = f"{len(raw_colors)} card colours: a map may have at most {MAX_COLORS}"
        check.add("[cards]", message, at, "colors")
        check.too_big = True
    else:
        looks: dict[str, str] = {}
        for color, count in raw_colors.items():
            look = skeleton(color)
            if look in _RESERVED_LOOKS:
                reserved = _RESERVED_LOOKS[look]
                seems = "" if color == reserved else f" (it reads as {reserved!r})"
                message = f"{_show(color)} is reserved and cannot be a card colour{seems}"
                check.add("[cards]", message, at, "colors")
            elif look in looks:
                message = (
                    f"colour {_show(color)} looks like colour {looks[look]!r}: "
                    "people cannot tell them apart"
                )
                check.add("[cards]", message, at, "colors")
            looks.setdefault(look, color)
            problem = _text_problem(color, MAX_NAME_LENGTH) if color.strip() else "must be named"
            problem = problem or _script_problem(color)
            if problem is not None:
                check.add("[cards]", f"colour {_show(color)} {problem}", at, "colors")
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                check.add(
                    "[cards]",
                    f"colour {_show(color)} must have a whole number ≥ 1 of cards",
                    at,
                    "colors",
                )
                count = 0
            elif count > MAX_CARDS_PER_KIND:
                check.add(
                    "[cards]",
                    f"colour {_show(color)} must have a whole number of cards from 1 to "
                    f"{MAX_CARDS_PER_KIND}, not {_show(count)}",
                    at,
                    "colors",
                )
                count = 0
            colors.append(color)
            counts.append(count)
    wild = check.integer(cards, "wild", "[cards]", at, high=MAX_CARDS_PER_KIND)
    if sum(counts) + wild > MAX_CARDS:
        message = f"{sum(counts) + wild} cards: a deck may have at most {MAX_CARDS}"
        check.add("[cards]", message, at)
    wild_name = cards.get("wild_name", WILD)
    if not isinstance(wild_name, str):
        check.add("[cards]", "'wild_name' must be a string", at, "wild_name")
        wild_name = WILD
    elif (problem := _text_problem(wild_name, MAX_NAME_LENGTH)) is not None:
        check.add("[cards]", f"'wild_name' {problem}", at, "wild_name")
        wild_name = WILD
    else:
        look = skeleton(wild_name)
        like = next((c for c in colors if skeleton(c) == look), None)
        if like is None and look == skeleton(GRAY):
            like = GRAY
        problem = _script_problem(wild_name)
        if like is not None:
            message = f"'wild_name' {_show(wild_name)} looks like colour {like!r}"
            check.add("[cards]", message, at, "wild_name")
        elif problem is not None:
            check.add("[cards]", f"'wild_name' {_show(wild_name)} {problem}", at, "wild_name")
    return tuple(colors), (*counts, wild), wild_name


def _parse_rules(
    check: _Checker, rules: Mapping[str, Any], players: list[int], default_variants: tuple[str, ...]
) -> MapRules:
    at: Where = ("rules",)
    check.unknown_keys(rules, _RULES_KEYS, "[rules]", at)
    tickets = check.table(rules, "tickets", "[rules]", at)
    t_at: Where = ("rules", "tickets")
    check.unknown_keys(tickets, _TICKET_RULE_KEYS, "[rules.tickets]", t_at)
    # Each of the 2**n ways to keep n tickets offered is an action id.
    dealt = {"low": 1, "high": MAX_TICKETS_DEALT}
    start_dealt = check.integer(tickets, "start_dealt", "[rules.tickets]", t_at, **dealt)
    start_keep = check.integer(tickets, "start_keep", "[rules.tickets]", t_at, **dealt)
    draw = check.integer(tickets, "draw", "[rules.tickets]", t_at, **dealt)
    draw_keep = check.integer(tickets, "draw_keep", "[rules.tickets]", t_at, **dealt)
    if start_keep > start_dealt:
        check.add(
            "[rules.tickets]",
            f"start_keep ({start_keep}) exceeds start_dealt ({start_dealt})",
            t_at,
            "start_keep",
        )
    if draw_keep > draw:
        check.add(
            "[rules.tickets]", f"draw_keep ({draw_keep}) exceeds draw ({draw})", t_at, "draw_keep"
        )
    returned = tickets.get("returned")
    if returned not in _RETURNED:
        check.add(
            "[rules.tickets]",
            f"'returned' must be one of {_RETURNED}, not {_show(returned)}",
            t_at,
            "returned",
        )
        returned = "bottom"
    # Unkept starting tickets go where returned ones do, unless the map says
    # otherwise (Europe boxes them).
    start_returned = tickets.get("start_returned", returned)
    if start_returned not in _START_RETURNED:
        check.add(
            "[rules.tickets]",
            f"'start_returned' must be one of {_START_RETURNED}, not {_show(start_returned)}",
            t_at,
            "start_returned",
        )
        start_returned = returned
    deck_size = check.integer(tickets, "deck", "[rules.tickets]", t_at, high=MAX_TICKETS, default=0)

    points_raw = check.table(rules, "route_points", "[rules]", at)
    p_at: Where = ("rules", "route_points")
    if not points_raw and "route_points" in rules:
        check.add("[rules.route_points]", "must give the points of at least one route length", p_at)
    route_points: dict[int, int] = {}
    for length, points in points_raw.items():
        digits = length.isascii() and length.isdigit() and len(length) <= 3
        if not digits or not 1 <= int(length) <= MAX_ROUTE_LENGTH:
            check.add(
                "[rules.route_points]",
                f"length {_show(length)} must be a whole number from 1 to {MAX_ROUTE_LENGTH}",
                p_at,
                length,
            )
            continue
        if isinstance(points, bool) or not isinstance(points, int):
            check.add(
                "[rules.route_points]",
                f"points for length {length} must be a whole number",
                p_at,
                length,
            )
            continue
        if not 0 <= points <= MAX_POINTS:
            check.add(
                "[rules.route_points]",
                f"points for length {length} must be a whole number from 0 to {MAX_POINTS}, "
                f"not {_show(points)}",
                p_at,
                length,
            )
            continue
        route_points[int(length)] = points

    start_scores_raw = rules.get("start_scores", [0] * players[1])
    if (
        not isinstance(start_scores_raw, list)
        or not players[1] <= len(start_scores_raw) <= MAX_PLAYERS
        or not all(
            isinstance(s, int) and not isinstance(s, bool) and -MAX_POINTS <= s <= MAX_POINTS
            for s in start_scores_raw
        )
    ):
        check.add(
            "[rules]",
            f"'start_scores' must list a whole number from {-MAX_POINTS} to {MAX_POINTS} "
            f"for each of {players[1]} seats (at most {MAX_PLAYERS} entries)",
            at,
            "start_scores",
        )
        start_scores_raw = [0] * players[1]

    cars = check.integer(rules, "cars_per_player", "[rules]", at, low=1, high=MAX_CARS)
    end_trigger = check.integer(rules, "end_trigger_cars", "[rules]", at, high=MAX_CARS)
    if end_trigger >= cars and rules.get("cars_per_player") == cars:
        check.add(
            "[rules]",
            f"end_trigger_cars ({end_trigger}) must be less than cars_per_player ({cars})",
            at,
            "end_trigger_cars",
        )
    return MapRules(
        min_players=players[0],
        max_players=players[1],
        cars_per_player=cars,
        starting_hand=check.integer(rules, "starting_hand", "[rules]", at, high=MAX_STARTING_HAND),
        display_size=check.integer(rules, "display_size", "[rules]", at, low=1, high=MAX_DISPLAY),
        max_face_up_wilds=check.integer(
            rules, "max_face_up_wilds", "[rules]", at, high=MAX_DISPLAY
        ),
        start_tickets_dealt=start_dealt,
        start_tickets_keep=start_keep,
        draw_tickets=draw,
        draw_tickets_keep=draw_keep,
        returned_tickets=returned,
        route_points=route_points,
        end_trigger_cars=end_trigger,
        both_pair_routes_min_players=check.integer(
            rules, "both_pair_routes_min_players", "[rules]", at, low=1
        ),
        start_scores=tuple(start_scores_raw),
        default_variants=default_variants,
        ticket_deck_size=deck_size,
        start_returned_tickets=start_returned,
    )


def _parse_titles(check: _Checker, rules: Mapping[str, Any]) -> dict[str, str]:
    """``[rules.titles]``: a title for a variant's score lines, by the key the
    variant reads it with (``longest_route = "European Express"``)."""
    if "titles" not in rules:
        return {}
    at: Where = ("rules", "titles")
    table = check.table(rules, "titles", "[rules]", ("rules",))
    if len(table) > MAX_FIELDS:
        check.add("[rules.titles]", f"{len(table)} titles: a map may give at most {MAX_FIELDS}", at)
        return {}
    titles: dict[str, str] = {}
    for key in table:
        if not _TITLE_KEY.fullmatch(key):
            check.add(
                "[rules.titles]",
                f"key {_show(key)} must be a variant name or key (letters, digits, '_', '.')",
                at,
                key,
            )
            continue
        title = check.string(table, key, "[rules.titles]", at)
        if title:
            titles[key] = title
    return titles


#: A key of ``[rules.titles]``: a variant name, maybe with a dotted suffix.
_TITLE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}(\.[A-Za-z0-9_]{1,64})?")


def _entries(
    check: _Checker, board_data: Mapping[str, Any], key: str
) -> list[tuple[Where, Mapping[str, Any]]]:
    """The tables listed under ``key``, each with where it is (its index in the file)."""
    items = board_data.get(key)
    if not isinstance(items, list) or not items:
        check.add("[board]", f"'{key}' must be a non-empty list of tables", ("board",), key)
        return []
    good = []
    for i, item in enumerate(items):
        at: Where = ("board", key, i)
        if isinstance(item, Mapping):
            good.append((at, item))
        else:
            check.add(f"{key}[{i}]", f"must be a table, not {_show(item)}", at)
    return good


def _places(board_data: Any) -> _Places:
    """Location names and joined pairs, read leniently (errors are reported elsewhere)."""
    if not isinstance(board_data, Mapping):
        return _Places(frozenset(), frozenset())
    locations = board_data.get("locations")
    routes = board_data.get("routes")
    written: dict[str, str] = {}
    spellings: dict[str, str] = {}
    for item in locations if isinstance(locations, list) else []:
        if isinstance(item, Mapping) and isinstance(item.get("name"), str):
            aliases = item.get("aliases")
            others = aliases if isinstance(aliases, list) else []
            for spelling in (item["name"], *others):
                if isinstance(spelling, str):
                    written.setdefault(spelling, item["name"])
                    spellings.setdefault(name_key(spelling), item["name"])
    names = frozenset(
        item["name"]
        for item in (locations if isinstance(locations, list) else [])
        if isinstance(item, Mapping) and isinstance(item.get("name"), str)
    )
    joined = frozenset(
        frozenset((item["a"], item["b"]))
        for item in (routes if isinstance(routes, list) else [])
        if isinstance(item, Mapping)
        and isinstance(item.get("a"), str)
        and isinstance(item.get("b"), str)
    )
    return _Places(names, joined, written, spellings)


def _parse_locations(
    check: _Checker, board_data: Mapping[str, Any], fields: Mapping[str, MapField], places: _Places
) -> tuple[Location, ...]:
    locations: list[Location] = []
    seen: dict[str, str] = {}
    # By skeleton: the first spelling, its location's index and where it is.
    looks: dict[str, tuple[str, int, Where]] = {}
    placed: list[tuple[int, Where, str, bool]] = []
    for i, (at, item) in enumerate(_entries(check, board_data, "locations")):
        entry = f"location {i}"
        name = check.string(item, "name", entry, at)
        entry = f"location {i} ({name!r})"
        aliases = check.string_list(item, "aliases", entry, at)
        for spelling in (name, *aliases):
            key = name_key(spelling)
            if key in seen and seen[key] != name:
                check.add(
                    entry, f"name or alias {spelling!r} is taken by location {seen[key]!r}", at
                )
            elif spelling == name and key in seen:
                check.add(entry, "duplicate location name", at)
            elif spelling:
                _check_look_alike(check, looks, spelling, i, entry, at)
            seen.setdefault(key, name)
        extra = _check_extra(check, "locations", item, entry, at, fields, places)
        pos = _position(check, item.get("pos"), entry, at)
        locations.append(Location(i, name, extra, aliases, pos))
        placed.append((i, at, entry, "pos" in item))
    _check_all_placed(check, placed)
    return tuple(locations)


def _check_look_alike(
    check: _Checker,
    looks: dict[str, tuple[str, int, Where]],
    spelling: str,
    index: int,
    entry: str,
    at: Where,
) -> None:
    """Report a location name or alias that mixes scripts, or that looks like
    (has the :func:`skeleton` of) a name or alias of another location: naming
    both, and the line of the first."""
    problem = _script_problem(spelling)
    if problem is not None:
        check.add(entry, f"name or alias {spelling!r} {problem}", at)
    other, other_index, other_at = looks.setdefault(
        skeleton(name_key(spelling)), (spelling, index, at)
    )
    if other_index != index:
        line = check.line(other_at)
        other_line = f", line {line}" if line is not None else ""
        differ = unusual_characters(spelling + other)
        check.add(
            entry,
            f"name or alias {spelling!r} looks like {other!r} of location {other_index}"
            f"{other_line}: people cannot tell them apart" + (f" ({differ})" if differ else ""),
            at,
        )


def _is_number(value: object) -> bool:
    """A TOML integer or float (``true``/``false`` are not numbers)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def _position(check: _Checker, value: Any, entry: str, at: Where) -> tuple[float, float] | None:
    """A location's ``pos``: ``[x, y]``, each a number from 0 to 1 (else reported, and ``None``)."""
    if value is None:
        return None
    expected = "[x, y]: two numbers from 0 to 1 (fractions of the board's width and height)"
    if not isinstance(value, list) or len(value) != 2 or not all(_is_number(v) for v in value):
        check.add(entry, f"'pos' must be {expected}, not {_show(value)}", at, "pos")
        return None
    for axis, number in zip("xy", value, strict=True):
        if not 0 <= number <= 1:  # also refuses nan and inf, and compares huge ints exactly
            message = f"'pos' {axis} must be a number from 0 to 1, not {_show(number)}"
            check.add(entry, message, at, "pos")
            return None
    return float(value[0]), float(value[1])


def _check_all_placed(check: _Checker, placed: list[tuple[int, Where, str, bool]]) -> None:
    """Positions are on every location or on none: a board drawn from some
    positions and made-up others would put the rest anywhere."""
    having = sum(1 for *_rest, has in placed if has)
    if not having or having == len(placed):
        return
    for _i, at, entry, has in placed:
        if not has:
            message = (
                f"missing 'pos': {having} of the {len(placed)} locations have one "
                "(give every location a position, or none)"
            )
            check.add(entry, message, at)


def _parse_aspect(check: _Checker, value: Any) -> float | None:
    """``[map] aspect``: the board's width ÷ height, a number from
    :data:`MIN_ASPECT` to :data:`MAX_ASPECT` (else reported, and ``None``)."""
    if value is None:
        return None
    if not _is_number(value) or not MIN_ASPECT <= value <= MAX_ASPECT:  # nan fails too
        message = (
            f"'aspect' must be the board's width ÷ height, a number from {MIN_ASPECT} to "
            f"{MAX_ASPECT}, not {_show(value)}"
        )
        check.add("[map]", message, ("map",), "aspect")
        return None
    return float(value)


_MAP_COUNTS = {"locations": MAX_LOCATIONS, "routes": MAX_ROUTES, "tickets": MAX_TICKETS}


def _check_counts(
    check: _Checker, board_data: Mapping[str, Any], whose: str, limits: Mapping[str, int]
) -> None:
    """Report each list of ``[board]`` longer than its limit (and mark the check too big)."""
    for key, most in limits.items():
        items = board_data.get(key)
        if isinstance(items, list) and len(items) > most:
            message = f"{len(items)} {key}: a {whose} may have at most {most}"
            check.add("[board]", message, ("board",), key)
            check.too_big = True


def _check_ids(check: _Checker, kind: str, ids: list[tuple[int, Where]]) -> None:
    seen: set[int] = set()
    for ident, at in ids:
        if ident in seen:
            check.add(f"{kind} {ident}", f"duplicate {kind} id", at)
        seen.add(ident)
    expected = set(range(len(ids)))
    if seen != expected and len(seen) == len(ids):
        check.add(
            f"{kind}s",
            f"{kind} ids must be 0..{len(ids) - 1}; got {_show(sorted(seen))}",
            ("board", f"{kind}s"),
        )


def _endpoints(
    check: _Checker,
    item: Mapping[str, Any],
    entry: str,
    at: Where,
    names: set[str],
    places: _Places,
) -> tuple[str, str]:
    a = check.string(item, "a", entry, at)
    b = check.string(item, "b", entry, at)
    for end in (a, b):
        if end and end not in names:
            message = places.alias_message(end)
            if message is None:
                message = f"unknown location {end!r}{check.closest_place(end, places)}"
            check.add(entry, message, at)
    if a and a == b:
        check.add(entry, f"both ends are {a!r}", at)
    return a, b


def _parse_routes(
    check: _Checker,
    board_data: Mapping[str, Any],
    fields: Mapping[str, MapField],
    names: set[str],
    colors: tuple[str, ...],
    rules: MapRules,
    places: _Places,
) -> tuple[Route, ...]:
    parsed: list[tuple[int, str, str, str, int, int | None, dict[str, Any]]] = []
    ids: list[tuple[int, Where]] = []
    for i, (at, item) in enumerate(_entries(check, board_data, "routes")):
        ident = check.identifier(item, f"route #{i}", at)
        entry = f"route {ident}" if ident is not None else f"route #{i}"
        a, b = _endpoints(check, item, entry, at, names, places)
        color = check.string(item, "color", entry, at)
        if color and color != GRAY and color not in colors:
            check.add(
                entry,
                f"bad colour {color!r} (expected gray or one of: {', '.join(colors)})"
                + check.hint(color, (GRAY, *colors)),
                at,
            )
        length = check.integer(item, "length", entry, at, low=1, high=MAX_ROUTE_LENGTH)
        if length not in rules.route_points:
            check.add(entry, f"length {length} has no entry in [rules.route_points]", at)
        elif length > rules.cars_per_player:  # no player could ever claim it
            message = f"length {length} is more than the {rules.cars_per_player} cars a player has"
            check.add(entry, message, at, "length")
        pair = item.get("pair")
        if pair is not None and (isinstance(pair, bool) or not isinstance(pair, int)):
            check.add(entry, f"'pair' must be a whole number, not {_show(pair)}", at)
            pair = None
        elif pair is not None and not -MAX_NUMBER <= pair <= MAX_NUMBER:
            message = (
                f"'pair' must be a whole number from {-MAX_NUMBER} to {MAX_NUMBER}, "
                f"not {_show(pair)}"
            )
            check.add(entry, message, at, "pair")
            pair = None
        extra = _check_extra(check, "routes", item, entry, at, fields, places)
        if ident is not None:
            parsed.append((ident, a, b, color, length, pair, extra))
            ids.append((ident, at))
            check.entry_at.setdefault(("route", ident), at)
    _check_ids(check, "route", ids)
    spaces = sum(p[4] for p in parsed)
    if spaces > MAX_SPACES:
        message = f"{spaces} route spaces: a map may have at most {MAX_SPACES}"
        check.add("[board]", message, ("board",), "routes")

    by_pair: dict[int, list[int]] = {}
    for ident, _a, _b, _c, _l, pair, _e in parsed:
        if pair is not None:
            by_pair.setdefault(pair, []).append(ident)
    partner: dict[int, int] = {}
    by_id = {p[0]: p for p in parsed}
    for pair, members in by_pair.items():
        last = check.entry_at[("route", members[-1])]  # the route that completes (or spoils) it
        if len(members) != 2:
            check.add(
                f"pair {pair}",
                f"a pair needs exactly 2 routes, found {len(members)}: {members}",
                last,
            )
            continue
        r1, r2 = (by_id[m] for m in members)
        if {r1[1], r1[2]} != {r2[1], r2[2]}:
            check.add(f"pair {pair}", f"routes {r1[0]} and {r2[0]} join different locations", last)
        if r1[4] != r2[4]:
            check.add(f"pair {pair}", f"routes {r1[0]} and {r2[0]} differ in length", last)
        partner[r1[0]] = r2[0]
        partner[r2[0]] = r1[0]
    ends_seen: dict[frozenset[str], int] = {}
    for ident, a, b, _c, _l, _p, _e in parsed:
        ends = frozenset((a, b))
        other = ends_seen.get(ends)
        if other is not None and partner.get(ident) != other:
            check.add(
                f"route {ident}",
                f"duplicates route {other} ({a}–{b}) without sharing its pair",
                check.entry_at[("route", ident)],
            )
        ends_seen.setdefault(ends, ident)
    routes = [
        Route(ident, a, b, color, length, pair, partner.get(ident), extra)
        for ident, a, b, color, length, pair, extra in parsed
    ]
    return tuple(sorted(routes, key=lambda r: r.id))


def _parse_tickets(
    check: _Checker,
    board_data: Mapping[str, Any],
    fields: Mapping[str, MapField],
    names: set[str],
    places: _Places,
) -> tuple[Ticket, ...]:
    tickets: list[tuple[Ticket, Where]] = []
    for i, (at, item) in enumerate(_entries(check, board_data, "tickets")):
        ident = check.identifier(item, f"ticket #{i}", at)
        entry = f"ticket {ident}" if ident is not None else f"ticket #{i}"
        a, b = _endpoints(check, item, entry, at, names, places)
        points = check.integer(item, "points", entry, at, low=1, high=MAX_POINTS)
        extra = _check_extra(check, "tickets", item, entry, at, fields, places)
        if ident is not None:
            tickets.append((Ticket(ident, a, b, points, extra), at))
            check.entry_at.setdefault(("ticket", ident), at)
    _check_ids(check, "ticket", [(t.id, at) for t, at in tickets])
    return tuple(sorted((t for t, _at in tickets), key=lambda t: t.id))


def _check_components(
    check: _Checker,
    declared: Any,
    locations: tuple[Location, ...],
    routes: tuple[Route, ...],
    tickets: tuple[Ticket, ...],
    deck: tuple[int, ...],
) -> None:
    at: Where = ("components",)
    if declared is None:
        return
    if not isinstance(declared, Mapping):
        check.add("[components]", "must be a table of declared counts", at)
        return
    check.unknown_keys(declared, _COMPONENT_KEYS, "[components]", at)
    actual = {
        "locations": len(locations),
        "routes": len(routes),
        "double_pairs": sum(1 for r in routes if r.partner is not None) // 2,
        "spaces": sum(r.length for r in routes),
        "tickets": len(tickets),
        "cards": sum(deck),
    }
    for key, value in declared.items():
        if key in actual and value != actual[key]:
            check.add(
                "[components]",
                f"declares {_show(value)} {key} but the data has {actual[key]}",
                at,
                key,
            )


def _check_enough_components(
    check: _Checker,
    rules: MapRules,
    deck: tuple[int, ...],
    ticket_count: int,
    colors: tuple[str, ...],
    routes: tuple[Route, ...],
) -> None:
    most = rules.max_players
    if sum(deck) < most * rules.starting_hand + rules.display_size:
        check.add(
            "[cards]",
            f"{sum(deck)} cards cannot deal {rules.starting_hand} to {most} players "
            f"and lay {rules.display_size} face up",
            ("cards",),
        )
    if ticket_count and ticket_count < most * rules.start_tickets_dealt:
        check.add(
            "[rules.tickets]",
            f"{ticket_count} tickets cannot deal {rules.start_tickets_dealt} to {most} players",
            ("rules", "tickets"),
        )
    if rules.max_face_up_wilds >= rules.display_size:
        check.add(
            "[rules]",
            "max_face_up_wilds must be smaller than display_size",
            ("rules",),
            "max_face_up_wilds",
        )
    most_of_a_colour = max(deck[:-1], default=0) + deck[-1]
    for route in routes:
        if route.color in colors:
            need = route.length
            have = deck[colors.index(route.color)] + deck[-1]
            if have < need:
                check.add(
                    f"route {route.id}",
                    f"needs {need} {route.color} cards; the deck holds {have} with wilds",
                    check.entry_at.get(("route", route.id)),
                )
        elif route.color == GRAY and route.length > most_of_a_colour:
            check.add(
                f"route {route.id}",
                f"needs {route.length} cards of one colour; the deck holds at most "
                f"{most_of_a_colour} with wilds",
                check.entry_at.get(("route", route.id)),
            )


# ---------------------------------------------------------------------------
# Finding maps by name
# ---------------------------------------------------------------------------


def _builtin_dir() -> Path:
    packaged = Path(str(resources.files("ttr_core") / "maps"))
    if packaged.is_dir():
        return packaged
    # An editable install runs from the source tree, where the maps folder
    # sits at the top of the repository rather than inside the package.
    return Path(__file__).resolve().parents[2] / "maps"


@functools.cache
def _builtin_index() -> dict[str, Path]:
    """Built-in map files by lower-cased file name, map id and alias."""
    index: dict[str, Path] = {}
    folder = _builtin_dir()
    if folder.is_dir():
        # Resolved once here, not at every load_map (resolving a path looks at
        # each of its folders: most of a load of a map already loaded).
        for path in sorted(p.resolve() for p in folder.glob("*.toml")):
            index[path.stem.lower()] = path
            try:
                meta = tomllib.loads(_plain_text(_read(path, path.name, "map"))).get("map", {})
            except (MapError, ValueError, RecursionError, MemoryError):
                continue  # reported when the map itself is loaded
            aliases = meta.get("aliases", []) if isinstance(meta, dict) else []
            names = [meta.get("id"), *aliases] if isinstance(aliases, list) else []
            for alias in names:
                if isinstance(alias, str):
                    index.setdefault(alias.lower(), path)
    return index


def available_maps(*, packages: bool = False) -> tuple[str, ...]:
    """The names of the built-in maps; with ``packages=True`` also the ids of
    the maps installed packages ship (:func:`package_maps`), sorted.

    Raises :class:`ArgumentError` if ``packages`` is not a ``bool``."""
    if type(packages) is not bool:
        raise ArgumentError(f"packages must be True or False, not {what(packages)}")
    names = {path.stem for path in _builtin_index().values()}
    if packages:
        names.update(_package_index().maps)
    return tuple(sorted(names))


def builtin_map(name: str) -> Board | None:
    """The built-in map named ``name`` (file name, id or alias; any case), or
    ``None``: never a file outside the built-in maps, whatever ``name`` is."""
    path = _builtin_index().get(name.lower()) if type(name) is str else None
    if path is None:
        return None
    stat, resolved = _stat(path, resolved=True)
    return _load_file(resolved, stat.st_mtime_ns, stat.st_size, plugins_generation())


def load_map(name_or_path: str | os.PathLike[str]) -> Board:
    """Load a map by name: a built-in map, or one an installed package ships
    (by id or alias, any case; see :func:`package_maps`); else a map file by path.

    The same file is loaded once and then shared (a changed file is loaded
    again). Raises :class:`UnknownMapError` for a name that is neither,
    :class:`MapError` for a file that is not a valid map (a file larger
    than the limit is refused before it is read; a broken package map, with
    what :func:`broken_maps` says of it), and :class:`ArgumentError` if
    ``name_or_path`` is neither a ``str`` nor an ``os.PathLike``.
    """
    key = path_argument("name_or_path", name_or_path, "a map name or the path of a map file")
    path, entry = _installed(key)
    if entry is not None:
        return _load_package_map(entry)
    if path is not None:
        stat, resolved = _stat(path, resolved=True)  # a built-in map's path is resolved
    else:
        try:
            found = Path(key).is_file()  # any other name is the path of a file
        except (OSError, ValueError):  # a name too long for a path, a NUL byte, ...
            found = False
        if not found:
            raise UnknownMapError(key, available_maps())
        path = Path(key)
        stat, resolved = _stat(path)
    if stat.st_size > MAX_FILE_BYTES:
        raise _size_error(path.name, stat.st_size, "map")
    # Keyed by the installed plugins too: their map fields shape the board.
    return _load_file(resolved, stat.st_mtime_ns, stat.st_size, plugins_generation())


def installed_map(name: str) -> Board | None:
    """The built-in map or the installed package map named ``name`` (id or
    alias, any case), else ``None``: never a file of any other name, whatever
    ``name`` is. :class:`MapError` for a broken package map."""
    path, entry = _installed(name)
    if entry is not None:
        return _load_package_map(entry)
    if path is None:
        return None
    stat, resolved = _stat(path, resolved=True)
    return _load_file(resolved, stat.st_mtime_ns, stat.st_size, plugins_generation())


def _installed(name: str) -> tuple[Path | None, _PackageMap | None]:
    """Where the built-in map (its path) or package map (its entry) named
    ``name`` is; ``(None, None)`` for neither. :class:`MapError` for a broken
    package map."""
    path = _builtin_index().get(name.lower())
    if path is None and _may_name_a_package_map(name):
        index = _package_index()
        entry = index.names.get(name.lower())
        if entry is not None:
            return None, entry
        broken = index.broken.get(name) or index.broken.get(name.lower())
        if broken is not None:
            raise _file_error(name, f"the installed map is broken: {broken}")
    return path, None


# ---------------------------------------------------------------------------
# Maps installed packages ship (the ttr_core.maps entry-point group)
# ---------------------------------------------------------------------------

#: The entry-point group through which an installed package ships maps: the
#: entry-point name is the map's id, the value ``package:path/in/package.toml``
#: (docs/map-format.md).
MAP_ENTRY_POINT_GROUP = "ttr_core.maps"
#: Most entry points of that group looked at; any more are reported broken.
MAX_PACKAGE_MAPS = 64
#: ``package.module:path/in/it.toml``: an importable package, then a relative file path.
_MAP_REFERENCE = re.compile(
    r"\s*(?P<package>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*:\s*(?P<path>[^\s:\\]+\.toml)\s*"
)


@attrs.frozen
class _PackageMap:
    """A map an installed package ships: its id, the distribution, the file."""

    id: str
    package: str
    path: Path


@attrs.frozen
class _PackageIndex:
    """The package maps by id, by every lower-cased name (id and aliases), and
    the broken entry points with what is wrong with each."""

    maps: dict[str, _PackageMap]
    names: dict[str, _PackageMap]
    broken: dict[str, str]


_PACKAGE_LOCK = threading.Lock()
# (plugins generation, index): rebuilt when the plugins change, so that
# rescan_entry_points() finds newly installed maps too. Readers take no lock.
_package_cache: tuple[int, _PackageIndex] | None = None
#: Package maps that failed to load when used (map id -> the error), per generation.
_package_failures: tuple[int, dict[str, str]] = (-1, {})


def _may_name_a_package_map(key: str) -> bool:
    """Whether ``key`` could be a package map's id or alias: a path (with a
    separator) never is, so loading a file by path reads no package metadata."""
    return len(key) <= MAX_NAME_LENGTH and _PATH_CHARACTERS.isdisjoint(key)


def _package_index() -> _PackageIndex:
    """The maps the installed packages ship (looked for once per plugins
    generation, by one thread). Nothing of a package is imported or run: its
    directory is found from its import spec and the map file's header read."""
    global _package_cache
    generation = plugins_generation()
    found = _package_cache
    if found is None or found[0] != generation:
        with _PACKAGE_LOCK:
            found = _package_cache
            if found is None or found[0] != generation:
                found = _package_cache = (generation, _scan_package_maps())
    return found[1]


def _scan_package_maps() -> _PackageIndex:
    builtin = _builtin_index()
    taken = {skeleton(name): f"the built-in map {path.stem!r}" for name, path in builtin.items()}
    maps: dict[str, _PackageMap] = {}
    names: dict[str, _PackageMap] = {}
    broken: dict[str, str] = {}
    try:
        found = sorted(entry_points(group=MAP_ENTRY_POINT_GROUP), key=_entry_order)
    except Exception as exc:  # broken metadata of some distribution must not break loading
        return _PackageIndex({}, {}, {"*": f"cannot read the installed entry points: {exc}"})
    for number, ep in enumerate(found):
        package = _distribution(ep)
        if number >= MAX_PACKAGE_MAPS:
            broken[ep.name] = (
                f"from {package}: more than {MAX_PACKAGE_MAPS} maps are installed; "
                "the others are left out"
            )
            continue
        try:
            entry, aliases = _package_map(ep, package)
        except MapError as exc:
            broken[ep.name] = f"from {package}: " + "; ".join(p.message for p in exc.problems)
            continue
        own: dict[str, str] = {}  # skeleton -> name, the id first
        for name in (entry.id, *aliases):
            own.setdefault(skeleton(name), name)
        clash = next((look for look in own if look in taken), None)
        if clash is not None:
            which = "id" if own[clash] == entry.id else "alias"
            broken[ep.name] = (
                f"from {package}: its {which} {own[clash]!r} is a name of {taken[clash]}; "
                "an installed map never replaces another"
            )
            continue
        taken.update(dict.fromkeys(own, f"map {entry.id!r} of {package}"))
        maps[entry.id] = entry
        for name in (entry.id, *aliases):
            names.setdefault(name.lower(), entry)
    return _PackageIndex(maps, names, broken)


def _entry_order(ep: EntryPoint) -> tuple[str, str]:
    """By map id, then package: of two clashing maps the second is the broken one."""
    return (ep.name, _distribution(ep))


def _distribution(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    name = getattr(dist, "name", None)
    return name if isinstance(name, str) else "an unknown package"


def _package_map(ep: EntryPoint, package: str) -> tuple[_PackageMap, tuple[str, ...]]:
    """The map an entry point names, with its aliases, read from its file's
    ``[map]`` table (``MapError`` naming what is wrong)."""
    source = f"{ep.name} = {ep.value!r}"
    if not MAP_ID.fullmatch(ep.name):
        raise _file_error(source, f"the entry-point name {_show(ep.name)} is not a map id")
    reference = _MAP_REFERENCE.fullmatch(ep.value)
    parts = reference["path"].split("/") if reference else []
    if reference is None or any(part in ("", ".", "..") for part in parts):
        raise _file_error(
            source, "the value must be 'package:path/in/the/package.toml' (a relative path)"
        )
    top, *inner = reference["package"].split(".")
    try:
        spec = importlib.util.find_spec(top)  # a top-level name: nothing is imported
    except Exception as exc:  # a finder of another package may raise anything
        raise _file_error(source, f"cannot find package {top!r}: {exc}") from None
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    if not folders:
        raise _file_error(source, f"package {top!r} is not installed (or not a package)")
    candidates = [Path(folder, *inner, *parts) for folder in folders]
    path = next((c for c in candidates if c.is_file()), candidates[0])
    meta = _toml(_prepared(_read(path, path.name, "map"), path.name, "map"), path.name).get("map")
    meta = meta if isinstance(meta, dict) else {}
    if meta.get("id") != ep.name:
        raise _file_error(
            path.name,
            f"the map's [map] id is {_show(meta.get('id'))}, not the entry-point name {ep.name!r}",
        )
    raw = meta.get("aliases", [])
    aliases = raw[:MAX_NAMES] if isinstance(raw, list) else []
    good = tuple(a for a in aliases if isinstance(a, str) and _may_name_a_package_map(a))
    return _PackageMap(ep.name, package, path), good


def _load_package_map(entry: _PackageMap) -> Board:
    """The board of a package map (``MapError`` if it is not a valid map; the
    failure is then reported by :func:`broken_maps`)."""
    global _package_failures
    try:
        stat, resolved = _stat(entry.path)
        board = _load_file(resolved, stat.st_mtime_ns, stat.st_size, plugins_generation())
        if board.id != entry.id:  # the file changed since the index was made
            message = f"the map's id is now {board.id!r}, not {entry.id!r}"
            raise _file_error(entry.path.name, message)
    except MapError as exc:
        generation = plugins_generation()
        with _PACKAGE_LOCK:
            failures = _package_failures
            known = failures[1] if failures[0] == generation else {}
            error = "; ".join(p.message for p in exc.problems[:3])
            _package_failures = (generation, {**known, entry.id: f"from {entry.package}: {error}"})
        raise
    return board


def _package_board(map_id: str) -> Board | None:
    """The package map whose id is ``map_id`` (never by alias), or ``None``."""
    entry = _package_index().maps.get(map_id) if _may_name_a_package_map(map_id) else None
    return None if entry is None else _load_package_map(entry)


def package_maps() -> dict[str, str]:
    """The maps installed packages ship that can be used: ``{map id: the
    package (distribution) that ships it}``, by id. ``load_map``, ``new_game``
    and ``ttr --map`` find each by id and by its aliases, and saved games name
    it by id like a built-in map. Packages register maps in the
    ``ttr_core.maps`` entry-point group (docs/map-format.md); a package map
    never replaces a built-in map or an earlier one (:func:`broken_maps`).
    """
    index = _package_index()
    failures = _package_failures
    failed = failures[1] if failures[0] == plugins_generation() else {}
    return {i: entry.package for i, entry in sorted(index.maps.items()) if i not in failed}


def broken_maps() -> dict[str, str]:
    """``{name: error}`` for each map an installed package ships that cannot be
    used: an entry point that names no readable map file, a file that is not
    TOML or whose ``[map] id`` is not the entry-point name, a name that is a
    name of a built-in or an earlier package map (which it never replaces),
    or a map that failed to load when used."""
    broken = dict(_package_index().broken)
    failures = _package_failures
    if failures[0] == plugins_generation():
        broken.update(failures[1])
    return dict(sorted(broken.items()))


def _stat(path: Path, resolved: bool = False) -> tuple[os.stat_result, str]:
    """The file's status and resolved path (``MapError`` if it cannot be read);
    ``resolved``: ``path`` is resolved already."""
    try:
        return path.stat(), str(path if resolved else path.resolve())
    except (OSError, ValueError, RuntimeError) as exc:
        raise _file_error(path.name, f"cannot read the file: {exc}") from None


#: How a file is opened to be read: never waiting for a writer (a FIFO), never
#: becoming the controlling terminal (a terminal device), and not inherited.
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


def _not_regular(mode: int) -> str | None:
    """Why a file of ``mode`` is not read (``None`` for a regular file): a
    named pipe, a terminal or ``/dev/stdin`` can block a read forever, and a
    device such as ``/dev/zero`` never ends."""
    if S_ISREG(mode):
        return None
    if S_ISDIR(mode):
        kind = "a directory"
    elif S_ISFIFO(mode):
        kind = "a named pipe"
    elif S_ISCHR(mode) or S_ISBLK(mode):
        kind = "a device"
    else:
        kind = "a special file"
    return f"not a regular file ({kind}): only regular files are read"


def _read(path: str | Path, source: str, kind: str) -> str:
    """The text of the regular file ``path`` of at most :data:`MAX_FILE_BYTES`
    (``MapError`` otherwise), as UTF-8.

    The file is opened without waiting (a named pipe opened to read would
    wait for a writer) and checked on the opened descriptor, so a file
    replaced by a pipe or a device after an earlier check is still refused;
    its size is checked before it is read, and no more than the limit is read.
    """
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except (OSError, ValueError) as exc:
        raise _file_error(source, f"cannot read the file: {exc}") from None
    try:
        status = os.fstat(fd)
        problem = _not_regular(status.st_mode)
        if problem is not None:
            raise _file_error(source, problem)
        if status.st_size > MAX_FILE_BYTES:
            raise _size_error(source, status.st_size, kind)
        chunks: list[bytes] = []
        left = MAX_FILE_BYTES + 1  # never more, even if the file grew
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        raw = b"".join(chunks)
        if len(raw) > MAX_FILE_BYTES:
            raise _size_error(source, max(len(raw), os.fstat(fd).st_size), kind)
    except OSError as exc:
        raise _file_error(source, f"cannot read the file: {exc}") from None
    finally:
        os.close(fd)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _file_error(source, f"not UTF-8 text: {exc}") from None


#: Map files kept loaded (and ticket decks per board): the ones used last.
_FILES_KEPT = 16
#: Held while a map file is looked up or loaded (reentrant: a plugin's map
#: check may load another map).
_LOAD_LOCK = threading.RLock()


def _load_file(path: str, mtime_ns: int, size: int, plugins: int) -> Board:
    """The board of a map file in this state, loaded once (kept while the file
    is one of the last used). Under a lock, so that threads loading one file
    at once parse it once and share one board: ``lru_cache`` alone would run
    the parse in each of them."""
    with _LOAD_LOCK:
        return _cached_file(path, mtime_ns, size, plugins)


@functools.lru_cache(maxsize=_FILES_KEPT)
def _cached_file(path: str, _mtime_ns: int, _size: int, _plugins: int) -> Board:
    name = Path(path).name
    return _parse_map(_read(path, name, "map"), name, stacklevel=5)  # naming load_map's caller


# ---------------------------------------------------------------------------
# Ticket decks supplied by users
# ---------------------------------------------------------------------------


def parse_ticket_deck(text: str, board: Board, source: str = "<tickets>") -> tuple[Ticket, ...]:
    """The tickets of a ticket deck file (TOML text) for ``board``, checked against it.

    The format is the map's own ticket list under ``[board]``, with a
    ``[deck]`` table naming the map (see ``docs/map-format.md``). Raises
    :class:`MapError` naming ``source``, each bad entry and the problem (a
    deck file is bounded like a map file: ``docs/map-format.md``, "Limits"),
    and :class:`ArgumentError` for an argument of the wrong type.
    """
    _check_str("text", text, "the ticket deck's TOML text")
    if not isinstance(board, Board):
        raise ArgumentError(f"board must be a ttr_core.Board, not {what(board)}")
    _check_str("source", source, "the name for messages")
    return _guarded(source, _checked_ticket_deck, text, board, source)


def _checked_ticket_deck(text: str, board: Board, source: str) -> tuple[Ticket, ...]:
    text = _prepared(text, source, "ticket deck")
    data = _toml(text, source)
    check = _Checker(source, text, data)
    check.unknown_keys(data, _DECK_TOP_KEYS, "file", ())
    version = data.get("format")
    if type(version) is not int or version != FORMAT_VERSION:
        check.add("file", f"'format' must be {FORMAT_VERSION}, not {_show(version)}", (), "format")
    deck = check.table(data, "deck", "[deck]", ())
    check.unknown_keys(deck, {"map"}, "[deck]", ("deck",))
    named = deck.get("map")
    if named is not None and named != board.id and named not in board.aliases:
        message = f"the deck is for map {_show(named)}, not {board.id!r}"
        check.add("[deck]", message, ("deck",), "map")
        # Its tickets name another map's places: each would be one more
        # problem hiding this one.
        raise MapError(check.problems())
    board_data = check.table(data, "board", "[board]", ())
    check.unknown_keys(board_data, {"tickets"}, "[board]", ("board",))
    _check_counts(check, board_data, "deck", {"tickets": MAX_TICKETS})
    if check.too_big:
        raise MapError(check.problems())
    fields = {f.name: f for f in declared_map_fields() if f.table == "tickets"}
    names = {loc.name for loc in board.locations}
    places = _places(
        {
            "locations": [
                {"name": loc.name, "aliases": list(loc.aliases)} for loc in board.locations
            ],
            "routes": [{"a": route.a, "b": route.b} for route in board.routes],
        }
    )
    tickets = _parse_tickets(check, board_data, fields, names, places)
    seen: dict[frozenset[str], int] = {}
    for ticket in tickets:
        pair = frozenset((ticket.a, ticket.b))
        if pair in seen:
            at = check.entry_at.get(("ticket", ticket.id), ("board", "tickets"))
            check.add(
                f"ticket {ticket.id}",
                f"joins {ticket.a!r} and {ticket.b!r} like ticket {seen[pair]}",
                at,
            )
        seen.setdefault(pair, ticket.id)
    problems = check.problems()
    if problems:
        raise MapError(problems)
    # Fields the map itself declared for its tickets take their defaults (None).
    defaults = {key: None for key in (board.tickets[0].extra if board.tickets else {})}
    defaults.pop(GENERATED, None)
    return tuple(attrs.evolve(t, extra={**defaults, **t.extra}) for t in tickets)


def board_with_tickets(board: Board, deck: str | os.PathLike[str]) -> Board:
    """``board`` playing the ticket deck in file ``deck`` instead of its own tickets.

    A deck with fewer tickets than the map's printed deck size is completed
    with generated tickets (with a :class:`GeneratedTicketsWarning`). The
    result is cached on ``board`` while the file is unchanged.
    """
    path = Path(path_argument("deck", deck, "the path of a ticket deck file"))
    stat, resolved = _stat(path)
    problem = _not_regular(stat.st_mode)  # checked again on the file once opened
    if problem is not None:
        raise _file_error(path.name, problem)
    if stat.st_size > MAX_FILE_BYTES:
        raise _size_error(path.name, stat.st_size, "ticket deck")
    key = ("tickets", resolved, stat.st_mtime_ns, stat.st_size)
    cached: Board | None = board.derived.get(key)
    if cached is not None:
        return cached
    tickets = parse_ticket_deck(_read(path, path.name, "ticket deck"), board, path.name)
    rules = board.rules
    dealt = rules.max_players * rules.start_tickets_dealt
    if max(len(tickets), rules.ticket_deck_size) < dealt:
        problem = (
            f"{len(tickets)} tickets cannot deal {rules.start_tickets_dealt} to each of "
            f"{rules.max_players} players: the deck needs at least {dealt}"
        )
        raise MapError([MapProblem(path.name, "[board] tickets", problem)])
    playing = attrs.evolve(board, tickets=tickets)
    missing = board.rules.ticket_deck_size - len(tickets)
    if missing > 0:
        fields = {f.name: f for f in declared_map_fields() if f.table == "tickets"}
        playing = _with_generated_tickets(playing, missing, fields, stacklevel=4)
    # One board per deck file, whichever thread read it first; the decks
    # played last are kept, as many as load_map keeps map files.
    kept: Board = derive(board, key, lambda: playing, evict_oldest("tickets", _FILES_KEPT))
    return kept
