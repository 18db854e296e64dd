"""The payment-options function, against a brute-force enumeration."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ttr_core import payment_options
from ttr_core.model.payment import ANY_COLOR

COLOURS = 6
WILD = COLOURS


def brute_force(route_color: int, length: int, counts: list[int]) -> set[tuple[int | None, int]]:
    options: set[tuple[int | None, int]] = set()
    for wilds in range(length + 1):
        if counts[WILD] < wilds:
            continue
        if wilds == length:
            options.add((None, wilds))
            continue
        colours = range(COLOURS) if route_color == ANY_COLOR else [route_color]
        for colour in colours:
            if counts[colour] >= length - wilds:
                options.add((colour, wilds))
    return options


@given(
    route_color=st.sampled_from([ANY_COLOR, *range(COLOURS)]),
    length=st.integers(1, 6),
    counts=st.lists(st.integers(0, 8), min_size=COLOURS + 1, max_size=COLOURS + 1),
)
def test_payment_options_are_exactly_the_ways_to_pay(
    route_color: int, length: int, counts: list[int]
) -> None:
    options = payment_options(route_color, length, counts, WILD)
    assert len(options) == len(set(options))  # each option once
    assert set(options) == brute_force(route_color, length, counts)


def test_example_gray_two() -> None:
    counts = [2, 1, 0, 0, 0, 0, 2]
    assert sorted(payment_options(ANY_COLOR, 2, counts, WILD), key=str) == sorted(
        [(0, 0), (0, 1), (1, 1), (None, 2)], key=str
    )
