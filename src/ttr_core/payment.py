"""How a hand can pay for a route: one small pure function and its expansion.

A payment is a colour (card index) plus a number of wilds; the colour pays
``length - wilds`` cards. Paying with wilds alone is its own option, reported
with the wild's own index as colour. Each option is listed exactly once.
"""

from __future__ import annotations

from collections.abc import Sequence

#: ``route_color`` value of a gray route.
ANY_COLOR = -1


def payment_ranges(
    route_color: int, length: int, counts: Sequence[int], wild: int
) -> list[tuple[int, int, int]]:
    """The ways ``counts`` can pay a route, as ``(colour, fewest wilds, most wilds)``.

    ``route_color`` is the route's card index, or :data:`ANY_COLOR` for a gray
    route (any single colour pays). ``counts`` is a hand by card index and
    ``wild`` the wild card's index. A colour range never includes the
    all-wild payment, which is the entry ``(wild, length, length)`` when the
    hand holds enough wilds.
    """
    wilds = counts[wild]
    result: list[tuple[int, int, int]] = []
    most = wilds if wilds < length - 1 else length - 1
    colours = range(wild) if route_color == ANY_COLOR else (route_color,)
    for colour in colours:
        have = counts[colour]
        if have == 0 or have + wilds < length:
            continue
        fewest = length - have if have < length else 0
        result.append((colour, fewest, most))
    if wilds >= length:
        result.append((wild, length, length))
    return result


def payment_options(
    route_color: int, length: int, counts: Sequence[int], wild: int
) -> list[tuple[int | None, int]]:
    """Every distinct payment as ``(colour index or None for wilds alone, wilds)``."""
    options: list[tuple[int | None, int]] = []
    for colour, fewest, most in payment_ranges(route_color, length, counts, wild):
        for wilds in range(fewest, most + 1):
            options.append((None if colour == wild else colour, wilds))
    return options
