"""Pictures of the board: :func:`svg` draws a game, or what one seat sees of it, as SVG.

The picture shows the locations at their printed positions (``Location.pos``;
on a circle when the map gives none), every route as a row of car spaces in
its colour (the two routes of a double pair side by side), claimed routes as
train pieces in their owner's colour (a colour no route has), closed routes
struck through, the names off the routes, the marks of the map's variant
fields, and a panel of scores under the board, and the tokens variants put on
locations (stations, hook ``ttr_tokens``) in their owner's colour. Marks are
chosen by the kind of each field, never by a variant's name
(docs/pictures.md): a true ``bool`` field puts a symbol on its location or on
its route, a positive ``int`` field a badge with the number. A variant may
draw its routes its own way instead (hook ``ttr_route_styles``): outlined
(tunnels), or with a locomotive in some of their spaces (ferries).

The output is plain, self-contained SVG text (nothing to fetch: no fonts, no
images) and the same bytes for the same input. Each route is a group
``<g id="route-N" class="route ...">``, each location ``<g id="location-N">``,
so that programs and tests can find them.
"""

from __future__ import annotations

from ttr_core.render.drawing import svg
from ttr_core.render.scene import CARD_FILLS, MAX_WIDTH, MIN_WIDTH, OTHER_COLORS, SEAT_COLORS

__all__ = ["CARD_FILLS", "MAX_WIDTH", "MIN_WIDTH", "OTHER_COLORS", "SEAT_COLORS", "svg"]
