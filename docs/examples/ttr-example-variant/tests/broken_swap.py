"""A deliberately broken copy of the card-swap plugin, for the kit to catch.

The copy is the plugin's own source with two lines changed: its variant name
(``swap_off_by_one``, so that it can be registered beside the real one) and
an off-by-one in the rule — a swap is allowed with one card of a colour too
few. ``tests/test_with_kit.py`` shows that ``ttr_core.testing`` catches it
and shrinks the failure to a short game.
"""

from __future__ import annotations

import inspect
import types

import ttr_example_variant

#: The variant name the broken copy is registered under.
NAME = "swap_off_by_one"
#: The rule as written, and as broken (one card too few is enough).
RULE = "if held < SWAP_DISCARD:"
BROKEN_RULE = "if held < SWAP_DISCARD - 1:"


def broken_plugin() -> types.ModuleType:
    """The plugin's source with the off-by-one, as a new module (not registered)."""
    source = inspect.getsource(ttr_example_variant)
    for old in ('NAME = "swap"', RULE):
        assert source.count(old) == 1, f"the plugin no longer has exactly one {old!r}"
    source = source.replace('NAME = "swap"', f"NAME = {NAME!r}").replace(RULE, BROKEN_RULE)
    module = types.ModuleType("ttr_example_variant_off_by_one")
    exec(compile(source, "<ttr_example_variant with an off-by-one>", "exec"), module.__dict__)
    return module
