"""The sections of a map file that are rules: the cards (``[cards]``), the
rule numbers (``[rules]``, ``[rules.tickets]``) and the score line titles
(``[rules.titles]``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ttr_core.mapfiles.checker import _Checker, _script_problem, _show, _text_problem
from ttr_core.mapfiles.confusables import skeleton
from ttr_core.mapfiles.limits import (
    MAX_CARDS,
    MAX_CARDS_PER_KIND,
    MAX_CARS,
    MAX_DISPLAY,
    MAX_FIELDS,
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MAX_POINTS,
    MAX_STARTING_HAND,
    MAX_TICKETS,
    MAX_TICKETS_DEALT,
)
from ttr_core.mapfiles.places import _RESERVED_LOOKS
from ttr_core.mapfiles.tomllines import Where
from ttr_core.model.board import (
    GRAY,
    MAX_COLORS,
    MAX_ROUTE_LENGTH,
    WILD,
    MapRules,
)

#: Where unkept tickets may go: under the deck, to a discard pile, to the box.
_RETURNED = ("bottom", "discard", "box")


#: Where unkept starting tickets may go: where returned ones may.
_START_RETURNED = _RETURNED


#: ``[rules.cards] face_up_wild``: a face-up wild is the whole draw, or a card.
FACE_UP_WILD = ("turn", "card")


_CARDS_KEYS = {"colors", "wild", "wild_name"}


_RULES_KEYS = {
    "cars_per_player",
    "starting_hand",
    "display_size",
    "max_face_up_wilds",
    "end_trigger_cars",
    "both_pair_routes_min_players",
    "start_scores",
    "tickets",
    "route_points",
    "titles",
    "cards",
}


_CARD_RULE_KEYS = {"wild_routes", "face_up_wild"}


_TICKET_RULE_KEYS = {
    "start_dealt",
    "start_keep",
    "draw",
    "draw_keep",
    "returned",
    "start_returned",
    "deck",
}


def _parse_cards(
    check: _Checker, cards: Mapping[str, Any]
) -> tuple[tuple[str, ...], tuple[int, ...], str]:
    at: Where = ("cards",)
    check.unknown_keys(cards, _CARDS_KEYS, "[cards]", at)
    raw_colors = cards.get("colors")
    colors: list[str] = []
    counts: list[int] = []
    if not isinstance(raw_colors, Mapping) or not raw_colors:
        check.add("[cards]", "'colors' must be a table of colour = number of cards", at, "colors")
    elif len(raw_colors) > MAX_COLORS:
        message = f"{len(raw_colors)} card colours: a map may have at most {MAX_COLORS}"
        check.add("[cards]", message, at, "colors")
        check.too_big = True
    else:
        looks: dict[str, str] = {}
        for color, count in raw_colors.items():
            look = skeleton(color)
            if look in _RESERVED_LOOKS:
                reserved = _RESERVED_LOOKS[look]
                seems = "" if color == reserved else f" (it reads as {reserved!r})"
                message = f"{_show(color)} is reserved and cannot be a card colour{seems}"
                check.add("[cards]", message, at, "colors")
            elif look in looks:
                message = (
                    f"colour {_show(color)} looks like colour {looks[look]!r}: "
                    "people cannot tell them apart"
                )
                check.add("[cards]", message, at, "colors")
            looks.setdefault(look, color)
            problem = _text_problem(color, MAX_NAME_LENGTH) if color.strip() else "must be named"
            problem = problem or _script_problem(color)
            if problem is not None:
                check.add("[cards]", f"colour {_show(color)} {problem}", at, "colors")
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                check.add(
                    "[cards]",
                    f"colour {_show(color)} must have a whole number ≥ 1 of cards",
                    at,
                    "colors",
                )
                count = 0
            elif count > MAX_CARDS_PER_KIND:
                check.add(
                    "[cards]",
                    f"colour {_show(color)} must have a whole number of cards from 1 to "
                    f"{MAX_CARDS_PER_KIND}, not {_show(count)}",
                    at,
                    "colors",
                )
                count = 0
            colors.append(color)
            counts.append(count)
    wild = check.integer(cards, "wild", "[cards]", at, high=MAX_CARDS_PER_KIND)
    if sum(counts) + wild > MAX_CARDS:
        message = f"{sum(counts) + wild} cards: a deck may have at most {MAX_CARDS}"
        check.add("[cards]", message, at)
    wild_name = cards.get("wild_name", WILD)
    if not isinstance(wild_name, str):
        check.add("[cards]", "'wild_name' must be a string", at, "wild_name")
        wild_name = WILD
    elif (problem := _text_problem(wild_name, MAX_NAME_LENGTH)) is not None:
        check.add("[cards]", f"'wild_name' {problem}", at, "wild_name")
        wild_name = WILD
    else:
        look = skeleton(wild_name)
        like = next((c for c in colors if skeleton(c) == look), None)
        if like is None and look == skeleton(GRAY):
            like = GRAY
        problem = _script_problem(wild_name)
        if like is not None:
            message = f"'wild_name' {_show(wild_name)} looks like colour {like!r}"
            check.add("[cards]", message, at, "wild_name")
        elif problem is not None:
            check.add("[cards]", f"'wild_name' {_show(wild_name)} {problem}", at, "wild_name")
    return tuple(colors), (*counts, wild), wild_name


def _parse_rules(
    check: _Checker, rules: Mapping[str, Any], players: list[int], default_variants: tuple[str, ...]
) -> MapRules:
    at: Where = ("rules",)
    check.unknown_keys(rules, _RULES_KEYS, "[rules]", at)
    tickets = check.table(rules, "tickets", "[rules]", at)
    t_at: Where = ("rules", "tickets")
    check.unknown_keys(tickets, _TICKET_RULE_KEYS, "[rules.tickets]", t_at)
    # Each of the 2**n ways to keep n tickets offered is an action id.
    dealt = {"low": 1, "high": MAX_TICKETS_DEALT}
    start_dealt = check.integer(tickets, "start_dealt", "[rules.tickets]", t_at, **dealt)
    start_keep = check.integer(tickets, "start_keep", "[rules.tickets]", t_at, **dealt)
    draw = check.integer(tickets, "draw", "[rules.tickets]", t_at, **dealt)
    draw_keep = check.integer(tickets, "draw_keep", "[rules.tickets]", t_at, **dealt)
    if start_keep > start_dealt:
        check.add(
            "[rules.tickets]",
            f"start_keep ({start_keep}) exceeds start_dealt ({start_dealt})",
            t_at,
            "start_keep",
        )
    if draw_keep > draw:
        check.add(
            "[rules.tickets]", f"draw_keep ({draw_keep}) exceeds draw ({draw})", t_at, "draw_keep"
        )
    returned = tickets.get("returned")
    if returned not in _RETURNED:
        check.add(
            "[rules.tickets]",
            f"'returned' must be one of {_RETURNED}, not {_show(returned)}",
            t_at,
            "returned",
        )
        returned = "bottom"
    # Unkept starting tickets go where returned ones do, unless the map says
    # otherwise (Europe boxes them).
    start_returned = tickets.get("start_returned", returned)
    if start_returned not in _START_RETURNED:
        check.add(
            "[rules.tickets]",
            f"'start_returned' must be one of {_START_RETURNED}, not {_show(start_returned)}",
            t_at,
            "start_returned",
        )
        start_returned = returned
    deck_size = check.integer(tickets, "deck", "[rules.tickets]", t_at, high=MAX_TICKETS, default=0)

    points_raw = check.table(rules, "route_points", "[rules]", at)
    p_at: Where = ("rules", "route_points")
    if not points_raw and "route_points" in rules:
        check.add("[rules.route_points]", "must give the points of at least one route length", p_at)
    route_points: dict[int, int] = {}
    for length, points in points_raw.items():
        digits = length.isascii() and length.isdigit() and len(length) <= 3
        if not digits or not 1 <= int(length) <= MAX_ROUTE_LENGTH:
            check.add(
                "[rules.route_points]",
                f"length {_show(length)} must be a whole number from 1 to {MAX_ROUTE_LENGTH}",
                p_at,
                length,
            )
            continue
        if isinstance(points, bool) or not isinstance(points, int):
            check.add(
                "[rules.route_points]",
                f"points for length {length} must be a whole number",
                p_at,
                length,
            )
            continue
        if not 0 <= points <= MAX_POINTS:
            check.add(
                "[rules.route_points]",
                f"points for length {length} must be a whole number from 0 to {MAX_POINTS}, "
                f"not {_show(points)}",
                p_at,
                length,
            )
            continue
        route_points[int(length)] = points

    start_scores_raw = rules.get("start_scores", [0] * players[1])
    if (
        not isinstance(start_scores_raw, list)
        or not players[1] <= len(start_scores_raw) <= MAX_PLAYERS
        or not all(
            isinstance(s, int) and not isinstance(s, bool) and -MAX_POINTS <= s <= MAX_POINTS
            for s in start_scores_raw
        )
    ):
        check.add(
            "[rules]",
            f"'start_scores' must list a whole number from {-MAX_POINTS} to {MAX_POINTS} "
            f"for each of {players[1]} seats (at most {MAX_PLAYERS} entries)",
            at,
            "start_scores",
        )
        start_scores_raw = [0] * players[1]

    cars = check.integer(rules, "cars_per_player", "[rules]", at, low=1, high=MAX_CARS)
    end_trigger = check.integer(rules, "end_trigger_cars", "[rules]", at, high=MAX_CARS)
    if end_trigger >= cars and rules.get("cars_per_player") == cars:
        check.add(
            "[rules]",
            f"end_trigger_cars ({end_trigger}) must be less than cars_per_player ({cars})",
            at,
            "end_trigger_cars",
        )
    wild_routes, face_up_wild = _parse_card_rules(check, rules)
    return MapRules(
        min_players=players[0],
        max_players=players[1],
        cars_per_player=cars,
        starting_hand=check.integer(rules, "starting_hand", "[rules]", at, high=MAX_STARTING_HAND),
        display_size=check.integer(rules, "display_size", "[rules]", at, low=1, high=MAX_DISPLAY),
        max_face_up_wilds=check.integer(
            rules, "max_face_up_wilds", "[rules]", at, high=MAX_DISPLAY
        ),
        start_tickets_dealt=start_dealt,
        start_tickets_keep=start_keep,
        draw_tickets=draw,
        draw_tickets_keep=draw_keep,
        returned_tickets=returned,
        route_points=route_points,
        end_trigger_cars=end_trigger,
        both_pair_routes_min_players=check.integer(
            rules, "both_pair_routes_min_players", "[rules]", at, low=1
        ),
        start_scores=tuple(start_scores_raw),
        default_variants=default_variants,
        ticket_deck_size=deck_size,
        start_returned_tickets=start_returned,
        wild_routes=wild_routes,
        face_up_wild=face_up_wild,
    )


def _parse_card_rules(check: _Checker, rules: Mapping[str, Any]) -> tuple[tuple[str, ...], str]:
    """``[rules.cards]``: the route fields on which wilds pay (checked against the
    route fields once they are known: :func:`check_wild_routes`), and what a
    face-up wild is."""
    if "cards" not in rules:
        return (), "turn"
    cards = check.table(rules, "cards", "[rules]", ("rules",))
    at: Where = ("rules", "cards")
    check.unknown_keys(cards, _CARD_RULE_KEYS, "[rules.cards]", at)
    wild_routes = check.string_list(cards, "wild_routes", "[rules.cards]", at)
    if "wild_routes" in cards and not wild_routes:
        check.add(
            "[rules.cards]",
            "'wild_routes' must name at least one route field (leave it out for wilds "
            "that pay on every route)",
            at,
            "wild_routes",
        )
    if len(set(wild_routes)) != len(wild_routes):
        check.add("[rules.cards]", "'wild_routes' names a field twice", at, "wild_routes")
    face_up_wild = cards.get("face_up_wild", "turn")
    if face_up_wild not in FACE_UP_WILD:
        check.add(
            "[rules.cards]",
            f"'face_up_wild' must be one of {FACE_UP_WILD}, not {_show(face_up_wild)}"
            + check.hint(face_up_wild, FACE_UP_WILD),
            at,
            "face_up_wild",
        )
        face_up_wild = "turn"
    return wild_routes, face_up_wild


def _parse_titles(check: _Checker, rules: Mapping[str, Any]) -> dict[str, str]:
    """``[rules.titles]``: a title for a variant's score lines, by the key the
    variant reads it with (``longest_route = "European Express"``)."""
    if "titles" not in rules:
        return {}
    at: Where = ("rules", "titles")
    table = check.table(rules, "titles", "[rules]", ("rules",))
    if len(table) > MAX_FIELDS:
        check.add("[rules.titles]", f"{len(table)} titles: a map may give at most {MAX_FIELDS}", at)
        return {}
    titles: dict[str, str] = {}
    for key in table:
        if not _TITLE_KEY.fullmatch(key):
            check.add(
                "[rules.titles]",
                f"key {_show(key)} must be a variant name or key (letters, digits, '_', '.')",
                at,
                key,
            )
            continue
        title = check.string(table, key, "[rules.titles]", at)
        if title:
            titles[key] = title
    return titles


#: A key of ``[rules.titles]``: a variant name, maybe with a dotted suffix.
_TITLE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}(\.[A-Za-z0-9_]{1,64})?")
