"""The compiled rules engine (C, through the CPython API), when it was built.

``pip install .`` compiles :mod:`ttr_core.native._engine` when a C compiler
is there (``hatch_build.py``); without one the install still succeeds and
the pure-Python kernel plays every game. :data:`available` says which.
"""

from __future__ import annotations

try:
    from ttr_core.native import _engine
except ImportError:  # no compiler at install time: the pure-Python kernel plays
    _engine = None  # type: ignore[assignment]

#: Whether the compiled engine was built and imports.
available: bool = _engine is not None
