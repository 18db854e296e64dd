"""Checking the rules as games are played: the invariant registry and every
core invariant (:mod:`~ttr_core.checking.invariants`), and ``ttr verify``, which
plays games checking them after every action (:mod:`~ttr_core.checking.verify`).
Needs nothing beyond the core: the property-based kit that builds on it,
:mod:`ttr_core.testing`, needs hypothesis."""
