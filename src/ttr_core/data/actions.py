"""Actions as JSON: a tagged union, the tag a stable name (``draw_blind``, a
variant's ``neutral.choose_route``), every field read with its exact type.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import attrs
from cattrs.gen import make_dict_structure_fn

from ttr_core.data.converter import _CONVERTER, _Bad, _plain_value, _what
from ttr_core.errors import (
    DataError,
)
from ttr_core.hooks import declared
from ttr_core.hooks.manager import installed_plugins, plugins_generation
from ttr_core.model.actions import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
)
from ttr_core.rules.consistency import MAX_ACTIONS

#: Tags of the core's actions: stable names, never class paths.
CORE_ACTION_TAGS: Mapping[str, type[Action]] = {
    "draw_blind": DrawBlind,
    "draw_face_up": DrawFaceUp,
    "claim_route": ClaimRoute,
    "draw_tickets": DrawTickets,
    "keep_tickets": KeepTickets,
    "pass": Pass,
}


@functools.lru_cache(maxsize=4)
def _action_tags(generation: int) -> tuple[Mapping[str, type[Action]], Mapping[type, str]]:
    """Tag → class and class → tag: the core's and every installed plugin's."""
    tags: dict[str, type[Action]] = dict(CORE_ACTION_TAGS)
    for plugin in installed_plugins().values():
        impl = plugin.impls.get("ttr_action_types")
        if impl is not None:
            tags.update(declared.declarations(impl, impl(), "action class"))
    return tags, {cls: tag for tag, cls in tags.items()}


def _unstructure_action(action: Action) -> dict[str, Any]:
    tags = _action_tags(plugins_generation())[1]
    tag = tags.get(type(action))
    if tag is None:
        raise DataError(
            "",
            f"{type(action).__name__} has no JSON tag: its variant must declare it with the "
            "ttr_action_types hook",
        )
    data: dict[str, Any] = {"type": tag}
    for field in attrs.fields(type(action)):
        data[field.name] = _plain_value(getattr(action, field.name))
    return data


@functools.lru_cache(maxsize=256)
def _action_structurer(cls: type[Action]) -> Callable[[Any, Any], Any]:
    return make_dict_structure_fn(cls, _CONVERTER, _cattrs_forbid_extra_keys=True)


def _structure_action(value: Any, _: Any) -> Action:
    if not isinstance(value, dict):
        raise _Bad(f"expected an action object, not {_what(value)}")
    tag = value.get("type")
    tags = _action_tags(plugins_generation())[0]
    cls = tags.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise _Bad(f"unknown action type {_what(tag)} (expected one of {', '.join(sorted(tags))})")
    fields = {k: v for k, v in value.items() if k != "type"}
    action: Action = _action_structurer(cls)(fields, cls)  # type: ignore[arg-type]
    return action


def _structure_action_list(value: Any, _: Any) -> list[Action]:
    if not isinstance(value, list):
        raise _Bad(f"expected a list of actions, not {_what(value)}")
    if len(value) > MAX_ACTIONS:
        raise _Bad(f"{len(value)} actions; at most {MAX_ACTIONS} are read")
    return [_CONVERTER.structure(v, Action) for v in value]


# Actions: a tagged union, the tag a stable name.
_CONVERTER.register_unstructure_hook_func(
    lambda t: isinstance(t, type) and issubclass(t, Action), _unstructure_action
)
_CONVERTER.register_structure_hook(Action, _structure_action)
_CONVERTER.register_structure_hook_func(lambda t: t == list[Action], _structure_action_list)
