"""The checks of what plugins declare: their map fields and options (once per
plugin), the option values a game gives, and the action classes and types
they name for saving (``ttr_action_types``, ``ttr_variant_state_types``,
``ttr_view_types``). A bad declaration is a :class:`PluginError` naming the
variant and the hook (:func:`ttr_core.hooks.checks._bad`)."""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping
from typing import Any, get_origin

import attrs

from ttr_core.errors import OptionError, show
from ttr_core.hooks.checks import _TABLES, _bad, _kind, _sequence
from ttr_core.model.actions import Action
from ttr_core.model.declarations import (
    LIST_KINDS,
    LOCATION,
    OPTION_TYPES,
    ROUTE,
    MapField,
    VariantOption,
)
from ttr_core.model.gamerules import HookImpl

_TYPE_NAMES = {bool: "true or false", int: "a whole number", float: "a number", str: "a string"}
_FIELD_TYPES: tuple[type | str, ...] = (bool, int, str, LOCATION, ROUTE, *LIST_KINDS)


def map_fields(impl: HookImpl, result: object) -> tuple[MapField, ...]:
    """``ttr_map_fields``: MapFields on a known table, of a known type, with a matching default."""
    fields = _sequence(impl, result, "MapField")
    for field in fields:
        if not isinstance(field, MapField):
            _bad(impl, f"must return MapField objects, not {_kind(field)}")
        if field.table not in _TABLES:
            _bad(impl, f"declares field {field.name!r} on unknown table {field.table!r}")
        if field.type not in _FIELD_TYPES:
            _bad(impl, f"declares field {field.name!r} of unknown type {field.type!r}")
        if not isinstance(field.name, str) or not field.name.isidentifier():
            _bad(impl, f"declares a field named {field.name!r}: names are identifiers")
        if not _valid_default(field):
            _bad(impl, f"declares field {field.name!r} with a default of the wrong type")
        if not isinstance(field.needed, bool):
            _bad(impl, f"declares field {field.name!r} with needed = {_kind(field.needed)}")
    return tuple(fields)


def _valid_default(field: MapField) -> bool:
    default, kind = field.default, field.type
    if kind == LOCATION:
        return default is None or isinstance(default, str)
    if kind == ROUTE:
        return default is None or (
            isinstance(default, tuple)
            and len(default) == 2
            and all(isinstance(end, str) for end in default)
        )
    if isinstance(kind, str):  # a list kind: a tuple (usually empty) of its items
        item = LIST_KINDS[kind]
        item_type = str if item == LOCATION else item
        assert isinstance(item_type, type)
        return isinstance(default, tuple) and all(
            isinstance(v, bool) == (item_type is bool) and isinstance(v, item_type) for v in default
        )
    return isinstance(default, bool) == (kind is bool) and isinstance(default, kind)


def options(impl: HookImpl, result: object) -> tuple[VariantOption, ...]:
    """``ttr_options``: unique VariantOptions of a supported type with a valid default."""
    declared = _sequence(impl, result, "VariantOption")
    seen: set[str] = set()
    for opt in declared:
        if not isinstance(opt, VariantOption):
            _bad(impl, f"must return VariantOption objects, not {_kind(opt)}")
        if not isinstance(opt.name, str) or not opt.name.isidentifier():
            _bad(impl, f"declares an option named {opt.name!r}: names are identifiers")
        if opt.name in seen:
            _bad(impl, f"declares option {opt.name!r} twice")
        seen.add(opt.name)
        if opt.type not in OPTION_TYPES:
            _bad(impl, f"declares option {opt.name!r} of unsupported type {opt.type!r}")
        try:
            option_value(impl.variant, opt, opt.default)
        except OptionError as exc:
            _bad(impl, f"declares an invalid default: {exc}")
    return tuple(declared)


#: The most problem messages one call of ``ttr_validate_map``, ``ttr_check_state``
#: or ``ttr_check_transition`` may give (a generator that never ends is a bug).


def unknown_option(variant: str, name: object, declared: Mapping[str, VariantOption]) -> str:
    """The message for an option name the variant does not declare."""
    known = ", ".join(declared) or "none"
    hint = ""
    if isinstance(name, str):
        close = difflib.get_close_matches(name, list(declared), n=1)
        if close:
            hint = f"; did you mean {close[0]!r}?"
    return f"variant {variant!r} has no option {name!r} (its options: {known}){hint}"


def option_value(variant: str, opt: VariantOption, value: object) -> Any:
    """``value`` checked against ``opt`` (an ``int`` is accepted for a ``float``)."""
    where = f"option {variant}.{opt.name}"
    kind = opt.type
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        if abs(value) > 2**1023:
            raise OptionError(f"{where} must be a finite number, not {show(value)}")
        value = float(value)
    if isinstance(value, bool) != (kind is bool) or not isinstance(value, kind):
        raise OptionError(f"{where} must be {_TYPE_NAMES[kind]}, not {_kind(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise OptionError(f"{where} must be a finite number, not {show(value)}")
    if opt.choices and value not in opt.choices:
        allowed = ", ".join(repr(c) for c in opt.choices)
        raise OptionError(f"{where} must be one of {allowed}, not {show(value)}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if opt.low is not None and value < opt.low:
            raise OptionError(f"{where} must be at least {opt.low}, not {show(value)}")
        if opt.high is not None and value > opt.high:
            raise OptionError(f"{where} must be at most {opt.high}, not {show(value)}")
    return value


def declarations(impl: HookImpl, result: object, what: str) -> dict[str, Any]:
    """``ttr_action_types`` / ``ttr_variant_state_types``: a mapping whose keys are
    the variant name or start with it and a dot; ``what`` names the values."""
    if result is None:
        return {}
    if not isinstance(result, Mapping):
        _bad(impl, f"must return a mapping name → {what}, not {_kind(result)}")
    prefix = impl.variant + "."
    for key in result:
        if not isinstance(key, str) or not (key == impl.variant or key.startswith(prefix)):
            _bad(impl, f"declared {show(key)}: names start with {prefix!r}")
    if impl.hook == "ttr_action_types":
        for key, cls in result.items():
            if not (isinstance(cls, type) and issubclass(cls, Action) and attrs.has(cls)):
                _bad(impl, f"declared {key!r} as {show(cls)}, not an attrs subclass of Action")
    else:
        for key, kind in result.items():
            # A class or a type form (tuple[int, ...], int | None): what the converter reads.
            if not isinstance(kind, type) and get_origin(kind) is None:
                _bad(impl, f"declared {key!r} as {show(kind)}, not a type")
    return dict(result)
