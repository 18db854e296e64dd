"""Maps in: map files read and checked into frozen :class:`~ttr_core.model.board.Board`\\ s
(:mod:`~ttr_core.mapfiles.parse` with its sections, places and checker),
found by name or path (:mod:`~ttr_core.mapfiles.finding`), shipped by
installed packages (:mod:`~ttr_core.mapfiles.packages`), registered by apps
and named by data (:mod:`~ttr_core.mapfiles.registry`, by content
fingerprint: :mod:`~ttr_core.mapfiles.fingerprint`); ticket decks supplied by
users or generated."""
