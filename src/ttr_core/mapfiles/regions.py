"""Regions and variant data of a map file: ``[regions]`` (named sets of
locations a ticket end may name: Switzerland's countries) and
``[variants.<name>]`` (a variant's own tables, checked by the variant).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ttr_core.mapfiles.checker import _Checker, _label, _Places, _show, _text_problem
from ttr_core.mapfiles.confusables import skeleton
from ttr_core.mapfiles.limits import (
    MAX_NAME_LENGTH,
    MAX_NAMES,
    MAX_NUMBER,
    MAX_REGIONS,
    MAX_TEXT_LENGTH,
    MAX_VARIANT_DATA_ITEMS,
)
from ttr_core.mapfiles.tomllines import Where
from ttr_core.model.board import name_key


def parse_regions(check: _Checker, raw: Any, places: _Places) -> dict[str, tuple[str, ...]]:
    """``[regions]``: each region a non-empty list of distinct printed location
    names; no region named or looking like a location (a ticket end names one
    or the other)."""
    if raw is None:
        return {}
    at: Where = ("regions",)
    if not isinstance(raw, Mapping):
        check.add("[regions]", f"must be a table of region = [locations], not {_show(raw)}", at)
        return {}
    if len(raw) > MAX_REGIONS:
        check.add("[regions]", f"{len(raw)} regions: a map may have at most {MAX_REGIONS}", at)
        return {}
    looks = {skeleton(spelling): printed for spelling, printed in places.written.items()}
    regions: dict[str, tuple[str, ...]] = {}
    seen: dict[str, str] = {}
    for name, members in raw.items():
        entry = f"region {_label(name)}"
        problem = "must not be empty" if not name.strip() else _text_problem(name, MAX_NAME_LENGTH)
        if problem is not None:
            check.add("[regions]", f"region name {_show(name)} {problem}", at, name)
            continue
        place = looks.get(skeleton(name)) or places.spellings.get(name_key(name))
        if place is not None:
            check.add(
                entry,
                f"is named like location {place!r}: a ticket end could not tell them apart",
                at,
                name,
            )
            continue
        other = seen.get(skeleton(name))
        if other is not None:
            check.add(entry, f"looks like region {other!r}", at, name)
            continue
        seen[skeleton(name)] = name
        if not isinstance(members, list) or not members:
            wanted = f"must be a non-empty list of location names, not {_show(members)}"
            check.add(entry, wanted, at, name)
            continue
        good: list[str] = []
        for member in members:
            if not isinstance(member, str) or member not in places.names:
                hint = ""
                if isinstance(member, str):
                    alias = places.alias_message(member)
                    if alias is not None:
                        check.add(entry, alias, at, name)
                        continue
                    hint = check.closest_place(member, places)
                check.add(entry, f"unknown location {_show(member)}{hint}", at, name)
            elif member in good:
                check.add(entry, f"lists {member!r} twice", at, name)
            else:
                good.append(member)
        if len(good) == len(members):
            regions[name] = tuple(good)
    return regions


def parse_variant_data(check: _Checker, raw: Any) -> dict[str, Any]:
    """``[variants.<name>]``: one table per variant, of plain values (strings,
    whole numbers, finite numbers, booleans, arrays and tables of them),
    bounded; what they mean is the variant's to check (``ttr_validate_map``)."""
    if raw is None:
        return {}
    at: Where = ("variants",)
    if not isinstance(raw, Mapping):
        wanted = f"must be a table of [variants.<name>] tables, not {_show(raw)}"
        check.add("[variants]", wanted, at)
        return {}
    if len(raw) > MAX_NAMES:
        check.add("[variants]", f"{len(raw)} tables: a map may have at most {MAX_NAMES}", at)
        return {}
    tables: dict[str, Any] = {}
    for name, table in raw.items():
        entry = f"[variants.{_label(name)}]"
        problem = _text_problem(name, MAX_NAME_LENGTH)
        if problem is not None:
            check.add("[variants]", f"variant name {_show(name)} {problem}", at, name)
            continue
        if not isinstance(table, Mapping):
            check.add(entry, f"must be a table, not {_show(table)}", (*at, name))
            continue
        count = [0]
        problem = _plain_problem(table, count)
        if problem is not None:
            check.add(entry, problem, (*at, name))
            continue
        tables[name] = table
    return tables


def _plain_problem(value: Any, count: list[int]) -> str | None:
    """What makes ``value`` no plain, bounded variant data (``None`` if nothing)."""
    count[0] += 1
    if count[0] > MAX_VARIANT_DATA_ITEMS:
        return f"holds more than {MAX_VARIANT_DATA_ITEMS} values"
    if isinstance(value, Mapping):
        for key, item in value.items():
            problem = _text_problem(key, MAX_NAME_LENGTH)
            if problem is not None:
                return f"key {_show(key)} {problem}"
            problem = _plain_problem(item, count)
            if problem is not None:
                return f"{_label(key)}: {problem}"
        return None
    if isinstance(value, list):
        for index, item in enumerate(value):
            problem = _plain_problem(item, count)
            if problem is not None:
                return f"[{index}]: {problem}"
        return None
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        if not -MAX_NUMBER <= value <= MAX_NUMBER:
            return f"{_show(value)} is not a whole number from {-MAX_NUMBER} to {MAX_NUMBER}"
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{_show(value)} is not a finite number"
    if isinstance(value, str):
        problem = _text_problem(value, MAX_TEXT_LENGTH, breaks=True)
        return None if problem is None else f"{_show(value)} {problem}"
    return f"{_show(value)} is no string, number, boolean, array or table"
