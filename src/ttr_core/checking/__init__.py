"""Checking the rules as games are played: the invariant registry
(:mod:`~ttr_core.checking.registry`), every core invariant
(:mod:`~ttr_core.checking.invariants`) and the probes they change states with
(:mod:`~ttr_core.checking.probes`), and ``ttr verify``, which plays games
checking them after every action (:mod:`~ttr_core.checking.verify`).
Needs nothing beyond the core: the property-based kit that builds on it,
:mod:`ttr_core.testing`, needs hypothesis."""

from __future__ import annotations

# The core's invariants register themselves: every use of the registry sees them.
from ttr_core.checking import invariants as _core  # noqa: F401
