"""Data in and out: the library's JSON (:mod:`~ttr_core.data.messages`: actions,
states, views, score sheets, records and seat statuses, each kind in a module
of its own on one strict converter), game records and their JSON Lines form
(:mod:`~ttr_core.data.records`, :mod:`~ttr_core.data.jsonl`), JSON Schemas
(:mod:`~ttr_core.data.schema`) and the board described for clients
(:mod:`~ttr_core.data.boarddata`)."""
