"""JSON Schema (draft 2020-12) of every message :func:`~ttr_core.to_json` writes.

The schemas are generated, not written by hand: the attrs classes give the
fields and their types, the readers' own key sets (``GameState``'s keys, the
fields of :class:`PlayerView`, :class:`GameRecord` ...) the properties, and
the action tags and variant state types come from the core and the plugins'
``ttr_action_types`` / ``ttr_variant_state_types`` declarations. Objects are
closed (``additionalProperties: false``), keys the reader requires are
``required``, and counts the reader refuses below zero have ``minimum: 0``.

A schema checks shape, not the rules: a message it accepts may still be
refused by :func:`~ttr_core.from_json` (a card name the map does not have, a
state whose cards do not add up), never the other way round. Card names
differ between maps, so hands are objects of counts under any name.
JSON Schema counts ``2.0`` as an integer; the library does not.

``json_schema(kind)`` covers the core and every installed variant;
``scripts/write_schemas.py`` writes the schemas of the built-in variants to
``ttr_core/schemas/*.json`` (:data:`SCHEMA_FILES`).
"""

from __future__ import annotations

import enum
import itertools
import types
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Union, get_args, get_origin

import attrs

from ttr_core.data import messages as _ser
from ttr_core.data.actions import CORE_ACTION_TAGS
from ttr_core.data.boarddata import BOARD_FIELDS
from ttr_core.data.converter import FORMAT_VERSION
from ttr_core.data.records import GameRecord
from ttr_core.data.states import _STATE_KEYS, _STATE_KEYS_ADDED
from ttr_core.errors import ArgumentError, show
from ttr_core.hooks import declared
from ttr_core.hooks.manager import installed_plugins
from ttr_core.model.actions import Action
from ttr_core.model.board import Board, Location, MapRules, Route, Ticket
from ttr_core.model.gamerules import GameRules
from ttr_core.model.scores import SHOWN, FinalScores, ScoreLine, ScoreSheet
from ttr_core.model.state import GameState, Hand, Pending, PlayerState
from ttr_core.model.views import PlayerView, SeatView
from ttr_core.rules.consistency import MAX_ACTIONS
from ttr_core.rules.status import SeatStatus

__all__ = ["SCHEMA_FILES", "json_schema", "schema_texts", "shipped_variants"]

DIALECT = "https://json-schema.org/draft/2020-12/schema"

#: The kinds with a schema, by the name of their file (``schemas/NAME.json``).
SCHEMA_FILES: Mapping[str, Any] = {
    "action": Action,
    "actions": list[Action],
    "game_state": GameState,
    "player_view": PlayerView,
    "score_sheet": ScoreSheet,
    "score_sheets": list[ScoreSheet],
    "final_scores": FinalScores,
    "game_record": GameRecord,
    "seat_status": SeatStatus,
    "board": Board,
}


def shipped_variants() -> tuple[str, ...]:
    """The variants the ttr-core distribution itself registers (its own entry
    points, whatever else is installed): the shipped schema files cover these.
    Read from the package metadata, so the core names no variant."""
    from importlib import metadata

    try:
        points = metadata.distribution("ttr-core").entry_points
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a bare tree
        return ()
    return tuple(sorted(p.name for p in points if p.group == "ttr_core.plugins"))


_NATURAL: dict[str, Any] = {"type": "integer", "minimum": 0}
#: Integer fields of view classes that no state gives below zero (the view
#: reader rebuilds a state from the view, which refuses them).
_NATURAL_FIELDS: dict[type, frozenset[str]] = {
    PlayerView: frozenset(
        {
            *("viewer", "current_player", "min_keep", "deck_size", "discard_size"),
            *("ticket_deck_size", "ticket_discard_size", "turn", "passes", "shuffles"),
            *("offer_size", "offer_min_keep", "ply", "forfeit", "tickets", "offered"),
            *("ticket_discard", "start_offer_sizes", "boxed_tickets_size"),
        }
    ),
    SeatView: frozenset({"seat", "hand_size", "tickets_held", "cars", "routes"}),
}


def _naturally(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (of an int, an optional int or a list of ints) with ints ≥ 0."""
    if schema.get("type") == "integer":
        return {**schema, "minimum": 0}
    if schema.get("type") == "array" and "items" in schema:
        return {**schema, "items": _naturally(schema["items"])}
    if "anyOf" in schema:
        return {**schema, "anyOf": [_naturally(s) for s in schema["anyOf"]]}
    return schema


_INTS: dict[str, Any] = {"type": "array", "items": {"type": "integer"}}
_STRINGS: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
#: Card counts by card name (hands, the discard pile): names differ by map.
_COUNTS: dict[str, Any] = {"type": "object", "additionalProperties": _NATURAL}
_NATURAL_OR_NULL: dict[str, Any] = {"anyOf": [{"type": "null"}, _NATURAL]}
_FORMAT: dict[str, Any] = {"type": "integer", "const": FORMAT_VERSION}
_OPTIONS: dict[str, Any] = {"type": "object", "additionalProperties": {"type": "object"}}
_SEED: dict[str, Any] = {"type": "integer", "minimum": 0, "exclusiveMaximum": 2**256}

#: The JSON form of :class:`GameState` keys whose JSON differs from the
#: attrs field's type (other keys follow the field's type). Keep in step with
#: ``data.states._structure_state``: the tests check every key against it.
_STATE_KEY_SCHEMAS: dict[str, Callable[[_Builder], dict[str, Any]]] = {
    "format": lambda b: _FORMAT,
    "board": lambda b: b.ref(Board),
    "players": lambda b: {"type": "array", "items": b.ref(PlayerState)},
    "variants": lambda b: _STRINGS,
    "options": lambda b: _OPTIONS,
    "seed": lambda b: _SEED,
    "deck": lambda b: _STRINGS,
    "display": lambda b: {"type": "array", "items": {"type": ["string", "null"]}},
    "discard": lambda b: _COUNTS,
    "ticket_deck": lambda b: _INTS,
    "ticket_discard": lambda b: _INTS,
    "boxed_tickets": lambda b: _INTS,
    "owners": lambda b: _INTS,
    "pending": lambda b: {"anyOf": [{"type": "null"}, b.ref(Pending)]},
    "passes": lambda b: _NATURAL,
    "turn": lambda b: _NATURAL,
    "shuffles": lambda b: _NATURAL,
    "ply": lambda b: _NATURAL,
    "forfeit": lambda b: _NATURAL_OR_NULL,
    "variant_state": lambda b: b.variant_state(),
}

#: Player fields read as counts ≥ 0 (``data.states._structure_player``).
_PLAYER_NATURAL = frozenset({"cars"})


#: The most variants :func:`json_schema` is asked for.
_MAX_VARIANTS = 256


def json_schema(kind: Any, *, variants: Iterable[str] | None = None) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of what :func:`~ttr_core.to_json` writes
    for ``kind``: ``Action``, ``list[Action]``, ``GameState``, ``PlayerView``,
    ``ScoreSheet``, ``list[ScoreSheet]`` (or a list of any other of these),
    ``FinalScores``, ``GameRecord``, ``SeatStatus`` or ``Board``
    (:func:`~ttr_core.board_data`),
    or the name of one of :data:`SCHEMA_FILES` (``"game_state"``).

    ``variants`` limits the plugin action types and variant state to those
    variants' (default: every installed variant). A new dict on each call.
    """
    if isinstance(kind, str):
        if kind not in SCHEMA_FILES:
            raise ArgumentError(
                f"kind must be one of {', '.join(SCHEMA_FILES)} or a class, not {show(kind)}"
            )
        name, kind = kind, SCHEMA_FILES[kind]
    else:
        try:  # any object may be passed: its == and hash are not to be trusted
            name = next((n for n, k in SCHEMA_FILES.items() if k == kind), "")
            item = _ser._list_item(kind)
            known = bool(name) or kind in _ser._READABLE or item in _ser._READABLE
        except Exception:
            known = False
        if not (known or kind is Board):
            raise ArgumentError(f"no JSON schema for {show(kind)}")
    if variants is None:
        names = tuple(installed_plugins())
    elif isinstance(variants, str | bytes) or not isinstance(variants, Iterable):
        raise ArgumentError(f"variants must be a list of variant names, not {show(variants)}")
    else:
        try:  # a bounded read of whatever iterable was given
            read: tuple[object, ...] = tuple(itertools.islice(variants, _MAX_VARIANTS + 1))
        except Exception:
            read = (None,)  # refused below
        names = tuple(n for n in read if type(n) is str)
        if len(read) > _MAX_VARIANTS or len(names) != len(read):
            raise ArgumentError(f"variants must be a list of variant names, not {show(variants)}")
    builder = _Builder(names)
    body = builder.schema(kind)
    schema: dict[str, Any] = {"$schema": DIALECT}
    if name:
        schema["$id"] = f"urn:ttr-core:schema:{name}"
    item = _ser._list_item(kind)
    title = f"list[{item.__name__}]" if item is not None else kind.__name__
    schema["title"] = f"ttr-core {title} (format {FORMAT_VERSION})"
    schema.update(body)
    if builder.defs:
        schema["$defs"] = dict(sorted(builder.defs.items()))
    return schema


class _Builder:
    """Schemas of types, the named ones (attrs classes) kept in ``$defs``."""

    def __init__(self, variants: tuple[str, ...]) -> None:
        self.variants = variants
        self.defs: dict[str, Any] = {}
        self._names: dict[Any, str] = {}
        plugins = installed_plugins()
        self.actions: dict[str, type[Action]] = dict(CORE_ACTION_TAGS)
        self.declared: dict[str, Any] = {}
        for variant in variants:
            plugin = plugins.get(variant)
            if plugin is None:
                raise ArgumentError(f"no installed variant {show(variant)}")
            impl = plugin.impls.get("ttr_action_types")
            if impl is not None:
                self.actions.update(declared.declarations(impl, impl(), "action class"))
            impl = plugin.impls.get("ttr_variant_state_types")
            if impl is not None:
                self.declared.update(declared.declarations(impl, impl(), "type"))

    # -- named definitions ---------------------------------------------------

    def ref(self, cls: Any) -> dict[str, Any]:
        """A ``$ref`` to ``cls``'s definition, made on first use."""
        name = self._names.get(cls)
        if name is None:
            name = cls.__name__
            while name in self.defs:  # two classes of one name (plugins)
                name += "_"
            self._names[cls] = name
            self.defs[name] = {}  # placed first: a recursive type refers to itself
            self.defs[name] = self._definition(cls)
        return {"$ref": f"#/$defs/{name}"}

    def _definition(self, cls: Any) -> dict[str, Any]:
        if cls is Action:
            return {"oneOf": [self.ref(c) for _, c in sorted(self.actions.items())]}
        if isinstance(cls, type) and issubclass(cls, Action):
            return self.action(cls)
        special = {
            Board: self.board_ref,
            GameState: self.state,
            PlayerState: self.player,
            Pending: self.pending,
            PlayerView: self.view,
            GameRecord: self.record,
            ScoreSheet: self.score_sheet,
            ScoreLine: self.score_line,
            FinalScores: self.final_scores,
            SeatStatus: self.seat_status,
        }.get(cls)
        if special is not None:
            return special()
        return self.attrs_object(cls)

    def schema(self, kind: Any) -> dict[str, Any]:
        """The top-level schema of ``kind`` (a board *description* for Board)."""
        if kind is Board:
            return self.board_data()
        item = _ser._list_item(kind)
        if item is not None:
            return {"type": "array", "items": self.of(item), "maxItems": MAX_ACTIONS}
        return self.of(kind)

    # -- types -----------------------------------------------------------------

    def of(self, tp: Any) -> dict[str, Any]:
        """The schema of a field of type ``tp``, as the converter reads it."""
        origin = get_origin(tp)
        args = get_args(tp)
        simple = {int: "integer", str: "string", bool: "boolean", float: "number"}
        if tp in simple:
            return {"type": simple[tp]}
        if tp is None or tp is type(None):
            return {"type": "null"}
        if tp is Any or tp is object:
            return {}
        if tp is Hand:
            return _COUNTS
        if origin in (Union, types.UnionType):
            return {"anyOf": [self.of(a) for a in args]}
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return {"type": "array", "items": self.of(args[0])}
            return {
                "type": "array",
                "prefixItems": [self.of(a) for a in args],
                "items": False,
                "minItems": len(args),
            }
        if origin in (frozenset, list):
            return {"type": "array", "items": self.of(args[0]) if args else {}}
        if origin in (Mapping, dict) or tp in (Mapping, dict):
            key, value = args or (str, Any)
            found: dict[str, Any] = {"type": "object", "additionalProperties": self.of(value)}
            if key is int:  # written with the numbers as keys (route points by length)
                found["propertyNames"] = {"pattern": "^-?[0-9]+$"}
            return found
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return {"type": "string", "enum": [m.value for m in tp]}
        if isinstance(tp, type) and (attrs.has(tp) or issubclass(tp, Action)):
            return self.ref(tp)
        raise ArgumentError(f"no JSON schema for type {tp!r}")

    @staticmethod
    def _fields(cls: type) -> list[attrs.Attribute[Any]]:
        # Names some modules import only for type checking (GameState.rules).
        names = {"GameRules": GameRules, "Action": Action, "Board": Board}
        return [f for f in attrs.fields(attrs.resolve_types(cls, localns=names)) if f.init]

    def attrs_object(
        self,
        cls: type,
        *,
        all_required: bool = False,
        override: Mapping[str, dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """An attrs class as cattrs reads it: its fields by their init names,
        those without a default required, no other key."""
        properties: dict[str, Any] = {}
        required = []
        naturals = _NATURAL_FIELDS.get(cls, frozenset())
        for field in self._fields(cls):
            key = field.alias or field.name
            if override and key in override:
                properties[key] = override[key]
            else:
                properties[key] = self.of(field.type)
            if key in naturals:  # a count or a seat: the reader refuses it below zero
                properties[key] = _naturally(properties[key])
            if all_required or field.default is attrs.NOTHING:
                required.append(key)
        return _object(properties, required)

    def action(self, cls: type[Action]) -> dict[str, Any]:
        tags = [t for t, c in sorted(self.actions.items()) if c is cls]
        if not tags:
            raise ArgumentError(f"{cls.__name__} has no JSON tag (hook ttr_action_types)")
        tag = tags[0]
        inner = self.attrs_object(cls)
        properties = {"type": {"const": tag}, **inner["properties"]}
        return _object(properties, ["type", *inner["required"]], title=tag)

    def board_ref(self) -> dict[str, Any]:
        string = {"type": "string"}
        return _object({"id": string, "fingerprint": string}, ["id", "fingerprint"])

    def state(self) -> dict[str, Any]:
        fields = {f.name: f for f in self._fields(GameState)}
        properties = {}
        for key in sorted(_STATE_KEYS):
            make = _STATE_KEY_SCHEMAS.get(key)
            if make is not None:
                properties[key] = make(self)
            elif key in fields:
                properties[key] = self.of(fields[key].type)
            else:
                raise ArgumentError(f"GameState key {key!r} has no known JSON form")
        # Keys added after format 1 was first written may be missing (old saves).
        return _object(properties, sorted(_STATE_KEYS - _STATE_KEYS_ADDED))

    def player(self) -> dict[str, Any]:
        override: dict[str, dict[str, Any]] = {
            "hand": _COUNTS,
            "known": _COUNTS,
            "tickets": _INTS,
            "routes": _INTS,
        }
        override.update({name: _NATURAL for name in _PLAYER_NATURAL})
        return self.attrs_object(PlayerState, override=override)

    def pending(self) -> dict[str, Any]:
        data = [{"type": "null"}, *(self.of(t) for _, t in sorted(self.declared.items()))]
        properties = {
            "kind": {"type": "string"},
            "player": _NATURAL,
            "offered": _INTS,
            "min_keep": _NATURAL,
            "data": {"anyOf": data},
        }
        return _object(properties, list(properties))

    def variant_state(self) -> dict[str, Any]:
        properties = {key: self.of(tp) for key, tp in sorted(self.declared.items())}
        return _object(properties, [])

    def view(self) -> dict[str, Any]:
        found = self.attrs_object(PlayerView, override={"board": self.ref(Board)})
        properties = {"format": _FORMAT, **found["properties"]}
        return _object(properties, ["format", *found["required"]])

    def record(self) -> dict[str, Any]:
        override = {
            "format": _FORMAT,
            "players": _NATURAL,
            "seed": _SEED,
            "options": _OPTIONS,
            "actions": {"type": "array", "items": self.ref(Action), "maxItems": MAX_ACTIONS},
            "forfeit": _NATURAL_OR_NULL,
        }
        # Read as required: every field without a default, and the format.
        found = self.attrs_object(GameRecord, override=override)
        found["required"] = ["format", *found["required"]]
        return found

    def score_sheet(self) -> dict[str, Any]:
        counts = ("player", "tickets_completed", "tickets_failed")
        return self.attrs_object(ScoreSheet, override={name: _NATURAL for name in counts})

    def score_line(self) -> dict[str, Any]:
        shown = {"type": "string", "enum": list(SHOWN)}
        return self.attrs_object(ScoreLine, override={"shown": shown})

    def final_scores(self) -> dict[str, Any]:
        # The winners' order, their totals and the ending are checked by the reader.
        winners = {"type": "array", "items": _NATURAL, "uniqueItems": True}
        return self.attrs_object(FinalScores, override={"winners": winners})

    def seat_status(self) -> dict[str, Any]:
        # How the parts agree (the seat's view, its actions) the reader checks.
        ids = {"type": "array", "items": _NATURAL}
        properties = {
            "format": _FORMAT,
            "seat": _NATURAL,
            "ply": _NATURAL,
            "view": self.ref(PlayerView),
            "legal": {"type": "array", "items": self.ref(Action), "maxItems": MAX_ACTIONS},
            "legal_ids": {"anyOf": [ids, {"type": "null"}]},
            "sheets": {"type": "array", "items": self.ref(ScoreSheet)},
            "scores": {"anyOf": [self.ref(FinalScores), {"type": "null"}]},
        }
        return _object(properties, list(properties))

    def board_data(self) -> dict[str, Any]:
        fields = {f.name: f for f in self._fields(Board)}
        entries = {
            Location: self._entry(Location),
            Route: self._entry(Route),
            Ticket: self._entry(Ticket),
            MapRules: self._entry(MapRules),
        }
        properties: dict[str, Any] = {"format": _FORMAT}
        for name in BOARD_FIELDS:
            tp = fields[name].type
            item = get_args(tp)[0] if get_origin(tp) is tuple else tp
            if item in entries:
                properties[name] = (
                    {"type": "array", "items": entries[item]}
                    if get_origin(tp) is tuple
                    else entries[item]
                )
            else:
                properties[name] = self.of(tp)
            if name == "name":
                properties["fingerprint"] = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
            elif name == "wild_name":
                properties["card_names"] = _STRINGS
                properties["deck"] = _COUNTS
        return _object(properties, list(properties))

    def _entry(self, cls: type) -> dict[str, Any]:
        # board_data writes every field, defaults included.
        return self.attrs_object(cls, all_required=True)


def _object(
    properties: Mapping[str, Any], required: Iterable[str], title: str = ""
) -> dict[str, Any]:
    found: dict[str, Any] = {"type": "object"}
    if title:
        found["title"] = title
    found["properties"] = dict(properties)
    found["required"] = list(required)
    found["additionalProperties"] = False
    return found


def schema_texts() -> dict[str, str]:
    """The text of each shipped schema file by file name (``game_state.json``):
    the built-in variants' schemas, as ``scripts/write_schemas.py`` writes them."""
    import json

    return {
        f"{name}.json": json.dumps(
            json_schema(name, variants=shipped_variants()), indent=2, ensure_ascii=False
        )
        + "\n"
        for name in SCHEMA_FILES
    }
