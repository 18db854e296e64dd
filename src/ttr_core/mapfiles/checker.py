"""Checking a map file's data: every problem collected with the line it stands
on (:class:`_Checker`), values quoted short, text and names checked for what
people read, variant fields read as their plugins declare them.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from ttr_core.errors import (
    MapProblem,
    show,
)
from ttr_core.mapfiles.confusables import mixed_scripts, unusual_characters
from ttr_core.mapfiles.limits import (
    MAX_FIELDS,
    MAX_LIST_ITEMS,
    MAX_NAME_LENGTH,
    MAX_NAMES,
    MAX_NUMBER,
    MAX_PROBLEMS,
    MAX_TEXT_LENGTH,
)
from ttr_core.mapfiles.tomllines import Locator, Where
from ttr_core.model.board import (
    name_key,
)
from ttr_core.model.declarations import INTS, LIST_KINDS, LOCATION, LOCATIONS, ROUTE, STRS, MapField

#: Most "did you mean" hints one load computes (each compares with every name).
_MAX_HINTS = 50


#: Characters refused in every string: controls (Cc), formatting (Cf, such as
#: right-to-left overrides and zero-width spaces), surrogates, line and
#: paragraph separators. They corrupt or disguise text shown to people.
_CONTROL_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


_FIELD_KINDS: dict[str, type | str] = {
    "bool": bool,
    "int": int,
    "str": str,
    LOCATION: LOCATION,
    ROUTE: ROUTE,
    INTS: INTS,
    STRS: STRS,
    LOCATIONS: LOCATIONS,
}


_CORE_ENTRY_KEYS = {
    "locations": {"name", "aliases", "pos"},
    "routes": {"id", "a", "b", "color", "length", "pair"},
    "tickets": {"id", "a", "b", "points", "to"},
}


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
    if isinstance(kind, str) and kind in LIST_KINDS:
        return _list_value(check, field, value, places)
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


def _list_value(
    check: _Checker, field: MapField, value: Any, places: _Places
) -> tuple[Any, str | None]:
    """A list field's value (an array of its kind's items) as a tuple, or the
    problem with its first bad item."""
    assert isinstance(field.type, str)
    if not isinstance(value, list) or len(value) > MAX_LIST_ITEMS:
        return None, (
            f"field {field.name!r} must be a list of at most {MAX_LIST_ITEMS} items "
            f"({field.type}), not {_show(value)}"
        )
    item = MapField(field.table, field.name, LIST_KINDS[field.type], None)
    stored = []
    for index, one in enumerate(value):
        kept, error = _field_value(check, item, one, places)
        if error is not None:
            return None, f"{error} (item {index})"
        stored.append(kept)
    return tuple(stored), None


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
