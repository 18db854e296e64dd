"""A third-party variant package written through ttr-core's public API only.

Five plugins that play together the way Ticket to Ride: Europe's tunnels,
stations and long tickets do, on :data:`MAP` (the USA map with its routes
through the Rockies marked as tunnels and its tickets of 16 points or more as
long tickets, both fields declared by the map itself):

* ``tp_long`` (:mod:`.longdeal`): one long ticket and regular ones dealt to
  each seat, the other long tickets boxed;
* ``tp_tunnels`` (:mod:`.tunnels`): a tunnel claim reveals three cards and
  waits for the seat to pay the surcharge or give up;
* ``tp_stations`` (:mod:`.stations`): a turn action placing a station that
  lends its owner one route of another owner for its tickets;
* ``tp_rewards`` (:mod:`.rewards`): a claim of 3 spaces or more opens a
  decision (``ttr_after_claim``): 2 points or a card, the claimer's choice,
  and the turn waits for it;
* ``tp_coasts`` (:mod:`.coasts`): coast tickets, reached at any city of a coast
  and scored by the coast reached (``ttr_ticket_ends``, from the map's
  ``[variants.tp_coasts]`` table and list-valued ticket fields). Not among
  :data:`VARIANTS`: its own tests play it.

It imports nothing but ``ttr_core``'s stable names (``ttr_core.__all__``)
and ``ttr_core.effects`` (``tests/test_thirdparty.py`` checks its source).
Register it with :func:`register` (tests use the ``thirdparty`` fixture).
"""

from __future__ import annotations

from pathlib import Path

import ttr_core

from .coasts import Coasts
from .longdeal import LongTickets
from .rewards import Rewards
from .stations import Stations
from .tunnels import Tunnels

#: The package's map file.
MAP = str(Path(__file__).with_name("rockies.toml"))
#: The package's variants, in the order a game plays them.
VARIANTS = ("tp_long", "tp_tunnels", "tp_stations", "tp_rewards")


def plugins() -> dict[str, object]:
    """A fresh plugin object per variant name."""
    return {
        "tp_long": LongTickets(),
        "tp_tunnels": Tunnels(),
        "tp_stations": Stations(),
        "tp_rewards": Rewards(),
        "tp_coasts": Coasts(),
    }


def register() -> None:
    """Register the package's variants for this process (``register_variant``)."""
    for name, plugin in plugins().items():
        ttr_core.register_variant(name, plugin)


def unregister() -> None:
    """Forget the package's variants (``unregister_variant``)."""
    for name in (*VARIANTS, "tp_coasts"):
        ttr_core.unregister_variant(name)
