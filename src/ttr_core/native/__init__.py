"""The compiled rules engine (C, through the CPython API), when it was built.

``pip install .`` compiles :mod:`ttr_core.native._engine` when a C compiler
is there (``hatch_build.py``); without one the install still succeeds and
the pure-Python kernel plays every game. :data:`available` says which.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

#: The interface version of the engine these sources compile (``_engine.ABI``).
ABI = 4

_engine: ModuleType | None
try:
    from ttr_core.native import _engine
except ImportError:  # no compiler at install time: the pure-Python kernel plays
    _engine = None
if _engine is not None and getattr(_engine, "ABI", None) != ABI:
    _engine = None  # built from other sources (an install not rebuilt): not used

#: Whether the compiled engine was built and imports.
available: bool = _engine is not None


def why_not(game: Any) -> str | None:
    """Why ``game`` (a :class:`~ttr_core.GameState` or its
    :class:`~ttr_core.GameRules`) does not run on the compiled engine — not
    built, a variant without native rules, a limit — or ``None`` when it does."""
    from ttr_core.errors import ArgumentError
    from ttr_core.model.gamerules import GameRules
    from ttr_core.model.state import GameState
    from ttr_core.native import engine

    if isinstance(game, GameState):
        return engine.why_not_state(game)
    if isinstance(game, GameRules):
        return engine.why_not(game)
    raise ArgumentError(f"game must be a GameState or GameRules, not {type(game).__name__}")
