"""How a hand can pay for a route: one small pure function and its expansion.

A payment is a colour (card index) plus a number of wilds; the colour pays
``length - wilds`` cards. Paying with wilds alone is its own option, reported
with the wild's own index as colour. Each option is listed exactly once.
"""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core.errors import ArgumentError, show
from ttr_core.model.board import MAX_COLORS, MAX_ROUTE_LENGTH

#: ``route_color`` value of a gray route.
ANY_COLOR = -1


def _whole(name: str, value: object, low: int, high: int | None = None) -> int:
    """``value`` if it is an ``int`` (not a bool) from ``low`` up to ``high``, else
    :class:`ArgumentError` naming the argument."""
    if type(value) is not int or value < low or (high is not None and value > high):
        span = f"from {low}" if high is None else f"from {low} to {high}"
        raise ArgumentError(
            f"{name} must be a whole number (int) {span}, not {type(value).__name__} {show(value)}"
        )
    return value


def _check(route_color: object, length: object, counts: object, wild: object) -> None:
    """Refuse arguments :func:`payment_options` cannot use (:class:`ArgumentError`)."""
    if isinstance(counts, str | bytes) or not isinstance(counts, Sequence):
        raise ArgumentError(
            f"counts must be a sequence of card counts (by card index), not {type(counts).__name__}"
        )
    # Sizes are bounded before any work (a map's): at most MAX_COLORS colours
    # and routes of MAX_ROUTE_LENGTH spaces, so at most a few hundred options.
    if not 2 <= len(counts) <= MAX_COLORS + 1:
        raise ArgumentError(
            f"counts must hold a count per card index, colours and wild (2 to "
            f"{MAX_COLORS + 1}), not {len(counts)}"
        )
    for index, count in enumerate(counts):
        _whole(f"counts[{index}]", count, 0)
    wild = _whole("wild", wild, 0, len(counts) - 1)
    _whole("length", length, 1, MAX_ROUTE_LENGTH)
    if type(route_color) is not int or route_color != ANY_COLOR:
        colour = _whole("route_color", route_color, ANY_COLOR, len(counts) - 1)
        if colour == wild:
            raise ArgumentError(
                f"route_color must be a colour's card index or {ANY_COLOR} (gray), not the wild's"
            )


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
    """Every distinct payment as ``(colour index or None for wilds alone, wilds)``.

    Raises :class:`ArgumentError` for an argument of the wrong type or out of
    range (``counts`` must hold a count ≥ 0 per card index, at most
    ``MAX_COLORS + 1`` of them, ``wild`` one of them, ``route_color`` another
    or ``ANY_COLOR``, ``length`` from 1 to ``MAX_ROUTE_LENGTH``: a map's
    bounds, checked before any work).
    """
    if not _plainly_good(route_color, length, counts, wild):
        _check(route_color, length, counts, wild)
    return unchecked_payment_options(route_color, length, counts, wild)


def _plainly_good(route_color: object, length: object, counts: object, wild: object) -> bool:
    """Whether the arguments of :func:`payment_options` are good, by a few checks
    done in C (a list or tuple of ints): the common case. ``False`` leaves it
    to :func:`_check`, which finds what is wrong and says so."""
    return (
        type(counts) in (list, tuple)
        and 2 <= len(counts) <= MAX_COLORS + 1  # type: ignore[arg-type]
        and type(length) is int
        and 1 <= length <= MAX_ROUTE_LENGTH
        and type(wild) is int
        and 0 <= wild < len(counts)  # type: ignore[arg-type]
        and type(route_color) is int
        and route_color != wild
        and ANY_COLOR <= route_color < len(counts)  # type: ignore[arg-type]
        and set(map(type, counts)) == _INT  # type: ignore[call-overload]
        and min(counts) >= 0  # type: ignore[call-overload]
    )


_INT = {int}


def unchecked_payment_options(
    route_color: int, length: int, counts: Sequence[int], wild: int
) -> list[tuple[int | None, int]]:
    """:func:`payment_options` without the argument checks, for the engine's own
    callers (and plugins) that pass a board's numbers and a hand's counts: the
    checks cost as much as the work on a route's few options."""
    options: list[tuple[int | None, int]] = []
    for colour, fewest, most in payment_ranges(route_color, length, counts, wild):
        for wilds in range(fewest, most + 1):
            options.append((None if colour == wild else colour, wilds))
    return options
