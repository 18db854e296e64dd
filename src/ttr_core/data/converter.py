"""The one cattrs converter of the library's JSON and its strict readers:
exact types (an ``int`` is never a ``bool`` or a ``float``), known keys only,
every problem raised with the path of the field at fault. Each kind of message
registers its own hooks on it (:mod:`~ttr_core.data.actions`,
:mod:`~ttr_core.data.states`, :mod:`~ttr_core.data.views`,
:mod:`~ttr_core.data.scores`, :mod:`~ttr_core.data.records`).
"""

from __future__ import annotations

import contextvars
import functools
import math
import os
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, get_args, get_origin

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn

from ttr_core.errors import (
    DataError,
    show,
)
from ttr_core.model.board import Board, FrozenMap
from ttr_core.model.state import (
    Hand,
    Termination,
)
from ttr_core.rules.consistency import MAX_ACTIONS
from ttr_core.rules.setup import SEED_LIMIT

__all__ = ["FORMAT_VERSION"]


#: Version of the JSON format; a file of another version is refused.
FORMAT_VERSION = 1


T = TypeVar("T")


#: The board given to ``from_json`` (``None``: built-in maps by id).
_BOARD: contextvars.ContextVar[Board | str | os.PathLike[str] | None] = contextvars.ContextVar(
    "ttr_board", default=None
)


#: The board of the document being read, once resolved.
_READING: contextvars.ContextVar[Board | None] = contextvars.ContextVar("ttr_reading", default=None)


class _Bad(Exception):
    """A value of the wrong type or out of range (turned into a DataError with its path)."""


def _what(value: Any) -> str:
    return show(value, 40)


def _strict_int(value: Any, _: Any) -> int:
    if type(value) is not int:
        raise _Bad(f"expected a whole number, not {_what(value)}")
    return value


def _strict_str(value: Any, _: Any) -> str:
    if type(value) is not str:
        raise _Bad(f"expected a string, not {_what(value)}")
    return value


def _strict_bool(value: Any, _: Any) -> bool:
    if type(value) is not bool:
        raise _Bad(f"expected true or false, not {_what(value)}")
    return value


def _strict_float(value: Any, _: Any) -> float:
    if type(value) not in (int, float) or not math.isfinite(value):
        raise _Bad(f"expected a number, not {_what(value)}")
    return float(value)


def _json_value(value: Any, _: Any = None) -> Any:
    """A free-form value (variant view entries, options): JSON scalars, and lists
    read back as tuples and objects as read-only mappings, so that they stay hashable."""
    if type(value) is float and not math.isfinite(value):
        raise _Bad(f"{value} is not a number JSON allows")
    if value is None or type(value) in (int, str, bool, float):
        return value
    if isinstance(value, list):
        return tuple(_json_value(v) for v in value)
    if isinstance(value, dict):
        return FrozenMap({k: _json_value(v) for k, v in value.items()})
    raise _Bad(f"expected a JSON value, not {_what(value)}")


def _plain_value(value: Any) -> Any:
    """A free-form value written as JSON (tuples and frozensets as lists)."""
    if value is None or type(value) in (int, str, bool, float):
        return value
    if isinstance(value, Mapping):
        return {str(k): _plain_value(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain_value(v) for v in value]
    if isinstance(value, frozenset):
        return sorted((_plain_value(v) for v in value), key=repr)
    if attrs.has(type(value)):
        return _CONVERTER.unstructure(value)
    raise DataError("", f"cannot write {type(value).__name__} as JSON")


def _make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True)
    conv.register_structure_hook(int, _strict_int)
    conv.register_structure_hook(str, _strict_str)
    conv.register_structure_hook(bool, _strict_bool)
    conv.register_structure_hook(float, _strict_float)
    conv.register_structure_hook(Any, _json_value)
    conv.register_unstructure_hook(Any, _plain_value)

    def attrs_factory(cls: type) -> Callable[[Any, Any], Any]:
        inner: Callable[[Any, Any], Any] = make_dict_structure_fn(
            cls, conv, _cattrs_forbid_extra_keys=True
        )

        def structure(value: Any, _: Any) -> Any:
            if not isinstance(value, dict):
                raise _Bad(f"expected an object, not {_what(value)}")
            return inner(value, cls)

        return structure

    conv.register_structure_hook_factory(attrs.has, attrs_factory)

    def is_tuple(t: Any) -> bool:
        return get_origin(t) is tuple

    def tuple_factory(t: Any) -> Callable[[Any, Any], Any]:
        args = get_args(t)
        if len(args) == 2 and args[1] is Ellipsis:
            item = args[0]

            def structure_items(value: Any, _: Any) -> Any:
                if not isinstance(value, list):
                    raise _Bad(f"expected a list, not {_what(value)}")
                return tuple(
                    _at(i, functools.partial(conv.structure, v, item)) for i, v in enumerate(value)
                )

            return structure_items

        def structure_fixed(value: Any, _: Any) -> Any:
            if not isinstance(value, list) or len(value) != len(args):
                raise _Bad(f"expected a list of {len(args)} items, not {_what(value)}")
            return tuple(
                _at(i, functools.partial(conv.structure, v, a))
                for i, (v, a) in enumerate(zip(value, args, strict=True))
            )

        return structure_fixed

    conv.register_structure_hook_factory(is_tuple, tuple_factory)

    def is_mapping(t: Any) -> bool:
        return get_origin(t) in (Mapping, dict) or t is Mapping

    def mapping_factory(t: Any) -> Callable[[Any, Any], Any]:
        args = get_args(t) or (str, Any)
        key_type, value_type = args

        def structure_mapping(value: Any, _: Any) -> Any:
            if not isinstance(value, dict):
                raise _Bad(f"expected an object, not {_what(value)}")
            return FrozenMap(
                {
                    conv.structure(k, key_type): conv.structure(v, value_type)
                    for k, v in value.items()
                }
            )

        return structure_mapping

    conv.register_structure_hook_factory(is_mapping, mapping_factory)
    conv.register_unstructure_hook_func(
        lambda t: isinstance(t, type) and issubclass(t, Mapping) and t is not Hand,
        lambda m: {str(k): _plain_value(v) for k, v in m.items()},
    )

    def frozenset_of_ints(value: Any, _: Any) -> frozenset[int]:
        if not isinstance(value, list):
            raise _Bad(f"expected a list, not {_what(value)}")
        return frozenset(_strict_int(v, int) for v in value)

    conv.register_structure_hook_func(_is_frozenset, frozenset_of_ints)
    conv.register_unstructure_hook(frozenset, lambda s: sorted(s, key=repr))

    # The enums; each kind of message registers its own hooks (its module's end).
    conv.register_structure_hook_func(_is(Termination), _enum(Termination))
    # cattrs reads an optional StrEnum as any string: only a member, or null.
    read_termination = _enum(Termination)
    conv.register_structure_hook_func(
        lambda t: t == (Termination | None),
        lambda v, _: None if v is None else read_termination(v, None),
    )
    return conv


def _is_frozenset(kind: Any) -> bool:
    origin: Any = get_origin(kind)
    return origin is frozenset


def _read(value: Any, kind: Any) -> Any:
    """``value`` structured as ``kind`` by the converter (any type form)."""
    return _CONVERTER.structure(value, kind)


def _is(cls: type) -> Callable[[Any], bool]:
    return lambda t: t is cls


def _enum(kind: Any) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _: Any) -> Any:
        try:
            return kind(_strict_str(value, str))
        except ValueError:
            choices = ", ".join(repr(m.value) for m in kind)
            raise _Bad(f"expected one of {choices}, not {_what(value)}") from None

    return structure


class _Path(Exception):
    """A problem at ``key`` below the value being read."""

    def __init__(self, key: str | int, message: str) -> None:
        super().__init__(message)
        self.key = key
        self.message = message


def _natural(value: Any) -> int:
    number = _strict_int(value, int)
    if number < 0:
        raise _Bad(f"expected a whole number ≥ 0, not {number}")
    return number


def _seed(value: Any) -> int:
    seed = _natural(value)
    if seed >= SEED_LIMIT:
        raise _Bad(f"a seed is below 2**256, not {_what(seed)}")
    return seed


def _ints(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise _Bad(f"expected a list of whole numbers, not {_what(value)}")
    for i, item in enumerate(value):
        if type(item) is not int:
            raise _Path(i, f"expected a whole number, not {_what(item)}")
    return tuple(value)


def _check_keys(
    value: dict[str, Any], allowed: set[str] | frozenset[str], required: Any = None
) -> None:
    extra = sorted(set(value) - set(allowed))
    if extra:
        raise _Bad(f"unknown fields {show(extra, 120)} (expected: {', '.join(sorted(allowed))})")
    missing = sorted(set(allowed if required is None else required) - set(value))
    if missing:
        raise _Bad(f"missing fields {show(missing, 200)}")


def _check_format(value: dict[str, Any]) -> None:
    found = value.get("format")
    if found != FORMAT_VERSION or type(found) is not int:
        raise _Path("format", f"format {_what(found)}: this library reads format {FORMAT_VERSION}")


def _field(value: dict[str, Any], key: str, read: Callable[[Any], T]) -> T:
    return _at(key, lambda: read(value[key]))


def _optional(value: dict[str, Any], key: str, read: Callable[[Any], T], default: T) -> T:
    """:func:`_field` for a key a document written before it existed may lack."""
    return _field(value, key, read) if key in value else default


def _termination_or_none(value: Any) -> Termination | None:
    return None if value is None else _enum(Termination)(value, None)


def _natural_or_none(value: Any) -> int | None:
    return None if value is None else _natural(value)


def _at(key: str | int, read: Callable[[], T]) -> T:
    """Run ``read``, prefixing any problem's path with ``key``."""
    try:
        return read()
    except _Path as exc:
        raise DataError(_join(key, str(exc.key)), exc.message) from None
    except _Bad as exc:
        raise DataError(_join(key, ""), str(exc)) from None
    except DataError as exc:
        raise DataError(_join(key, exc.path), exc.message) from None
    except cattrs.BaseValidationError as exc:
        path, message = _cattrs_problem(exc)
        raise DataError(_join(key, path), message) from None


def _join(key: str | int, rest: str) -> str:
    # A key from the input is quoted cut short: a path stays a few words long.
    head = f"[{key}]" if isinstance(key, int) else (key if len(key) <= 40 else show(key, 40))
    if not rest:
        return head
    if rest.startswith("["):
        return head + rest
    if rest[0].isdigit():
        return f"{head}[{rest}]"
    return f"{head}.{rest}"


def _cattrs_problem(exc: cattrs.BaseValidationError) -> tuple[str, str]:
    def describe(error: BaseException, _: Any) -> str:
        # An inner path travels after a NUL, to be joined to cattrs' own below.
        if isinstance(error, DataError):
            return f"{error.message}\0{error.path}"
        if isinstance(error, _Path):
            return f"{error.message}\0{error.key}"
        if isinstance(error, _Bad):
            return str(error)
        if isinstance(error, cattrs.ForbiddenExtraKeysError):
            return f"unknown fields {show(sorted(error.extra_fields), 120)}"
        if isinstance(error, KeyError):
            return "required field missing"
        return f"{type(error).__name__}: {error}"

    messages = cattrs.transform_error(exc, format_exception=describe)
    first = messages[0] if messages else "invalid value"
    message, _, where = first.rpartition(" @ ")
    path = where.removeprefix("$").removeprefix(".")
    message, _, inner = (message or first).partition("\0")
    if inner:
        path = _join(path, inner) if path else inner
    return path, message


def _structure(data: Any, kind: Any) -> Any:
    token = _READING.set(None)
    try:
        return _at_root(lambda: _CONVERTER.structure(data, kind))
    finally:
        _READING.reset(token)


def _at_root(read: Callable[[], T]) -> T:
    try:
        return read()
    except DataError:
        raise
    except _Path as exc:
        raise DataError(str(exc.key), exc.message) from None
    except _Bad as exc:
        raise DataError("", str(exc)) from None
    except cattrs.BaseValidationError as exc:
        path, message = _cattrs_problem(exc)
        raise DataError(path, message) from None
    except RecursionError:
        raise DataError("", "the input is nested too deeply") from None
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise DataError("", f"malformed input: {type(exc).__name__}: {exc}") from None


_CONVERTER = _make_converter()


def _structure_list_of(value: Any, item: Any) -> list[Any]:
    """A list of ``item`` read item by item (each problem's path starts ``[i]``)."""
    if not isinstance(value, list):
        raise _Bad(f"expected a list, not {_what(value)}")
    if len(value) > MAX_ACTIONS:
        raise _Bad(f"{len(value)} items; at most {MAX_ACTIONS} are read")
    return [_at(i, functools.partial(_CONVERTER.structure, v, item)) for i, v in enumerate(value)]
