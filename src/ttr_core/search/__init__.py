"""Play for search and learning: a game played in place (:class:`~ttr_core.search.playout.Playout`),
random games (:mod:`~ttr_core.search.simulate`), and how games end, counted the
same way by the simulator and the verification kit
(:mod:`~ttr_core.search.outcomes`)."""
