"""The limits of a map file (docs/map-format.md, "Limits"): each far above
every real map, each bounding what a hostile file can make the loader do.
"""

from __future__ import annotations

import re

#: The map format version this loader reads.
FORMAT_VERSION = 1


# Limits (docs/map-format.md, "Limits"): each far above every real map, each
# low enough that a map within all of them loads in well under a second and
# plays its first game without stalling (the engine prepares every payment of
# every route for every seat, so route lengths, colours and seats multiply).
#: Largest map or ticket deck file, in bytes of UTF-8, checked before parsing.
MAX_FILE_BYTES = 256 * 1024


#: Deepest nesting of arrays and inline tables.
MAX_NESTING = 10


#: Most parts of a dotted key (``a.b.c`` has three).
MAX_KEY_PARTS = 10


#: Largest whole number anywhere in a file (ids, pair labels, field values, ...).
MAX_NUMBER = 1_000_000


#: Most players a map may be played by.
MAX_PLAYERS = 8


#: Most cards of one colour, and most wild cards.
MAX_CARDS_PER_KIND = 500


#: Most transportation cards in all.
MAX_CARDS = 1000


#: Most cars a player starts with.
MAX_CARS = 200


#: Most route spaces on the board (the sum of all route lengths).
MAX_SPACES = 1500


MAX_LOCATIONS = 200


MAX_ROUTES = 1000


#: Most tickets listed, in a map or a ticket deck file, and largest ``deck``.
MAX_TICKETS = 1000


#: Most tickets dealt at setup (``start_dealt``) or drawn (``draw``) at once.
MAX_TICKETS_DEALT = 10


MAX_STARTING_HAND = 100


MAX_DISPLAY = 20


#: Most points of a route or a ticket (route points may be 0, never negative),
#: and the largest start score either way.
MAX_POINTS = 1000


#: Longest name (ids, names, aliases, colours, variants, field names and
#: most strings), and longest text (provenance, ``str`` field values).
MAX_NAME_LENGTH = 100


MAX_TEXT_LENGTH = 2000


#: Most names in one list (aliases, variants).
MAX_NAMES = 20


#: Most fields a map declares for one table, and most provenance entries per list.
MAX_FIELDS = 50


MAX_PROVENANCE_ITEMS = 100


#: Most items of a list-valued field (``"list[int]"`` ...) in one entry.
MAX_LIST_ITEMS = 100


#: Most regions (``[regions]``), and most destinations of one ticket (``to``).
MAX_REGIONS = 50


MAX_DESTINATIONS = 12


#: Most values (tables, arrays and their items, all counted) in one
#: ``[variants.<name>]`` table.
MAX_VARIANT_DATA_ITEMS = 10_000


#: The narrowest and the widest board (``[map] aspect``, width ÷ height).
MIN_ASPECT = 0.1


MAX_ASPECT = 10.0


#: What a ``[map] id`` must be: a name (lower-case ASCII letters, digits, ``_``
#: and ``-``; at most 64 characters), never a path. Data names maps by id.
MAP_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


#: Most problems one ``MapError`` lists; one more entry counts the rest.
MAX_PROBLEMS = 100
