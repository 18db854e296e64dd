"""Deliberately broken copies of the plugin, for the tests to catch.

Each copy is the plugin's own source with two lines changed: its variant name
(so that it can be registered beside the real one) and one rule, as
:data:`BREAKS` says. ``tests/test_with_kit.py`` shows that ``ttr_core.testing``
catches each and shrinks the failure to a short game;
``tests/test_example_variant.py`` that its hand-written checks fail on them.
"""

from __future__ import annotations

import inspect
import types

import ttr_example_variant

#: Each broken copy's variant name: (the rule as written, the rule as broken).
BREAKS = {
    # A swap allowed with one card of a colour too few.
    "swap_off_by_one": ("if held < SWAP_DISCARD:", "if held < SWAP_DISCARD - 1:"),
    # An extra card for a bridge listed when the hand holds none beyond the claim.
    "swap_spare_off_by_one": ("if hand[card] > count]", "if hand[card] >= count]"),
    # The extra card of a bridge never paid.
    "swap_free_bridges": ("{action.card: 1})", "{})"),
    # Every route of another seat open to tickets, not only its bridges.
    "swap_all_routes_open": (
        "if is_bridge(route) and state.owner(route.id)",
        "if state.owner(route.id)",
    ),
}
#: The variant name of the first copy (a swap with one card too few).
NAME = "swap_off_by_one"
#: Its rule as written, and as broken.
RULE, BROKEN_RULE = BREAKS[NAME]


def broken_plugin(name: str = NAME) -> types.ModuleType:
    """The plugin's source with the break :data:`BREAKS` names, as a new module
    whose variant name is ``name`` (not registered)."""
    rule, broken_rule = BREAKS[name]
    source = inspect.getsource(ttr_example_variant)
    for old in ('NAME = "swap"', rule):
        assert source.count(old) == 1, f"the plugin no longer has exactly one {old!r}"
    source = source.replace('NAME = "swap"', f"NAME = {name!r}").replace(rule, broken_rule)
    module = types.ModuleType(f"ttr_example_variant_{name}")
    exec(compile(source, f"<ttr_example_variant as {name}>", "exec"), module.__dict__)
    return module
