"""Loaded states checked like the rules (issue 24, finding 1): a state read
import ttr_core.checking.registry
from JSON that the rules can never reach, and that would break play later, is
refused with a DataError naming the field."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest

import ttr_core
from ttr_core import (
    DataError,
    DrawTickets,
    GameState,
    IllegalAction,
    KeepTickets,
    PlayerView,
    from_json,
    to_json,
)

from .helpers import cpu_clock

pytestmark = pytest.mark.filterwarnings("ignore::ttr_core.GeneratedTicketsWarning")


def data_of(state: GameState) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(to_json(state))
    return data


def load(data: dict[str, Any]) -> GameState:
    return from_json(json.dumps(data), GameState)


def refused(data: dict[str, Any], path: str) -> DataError:
    """``data`` is refused with a DataError whose path starts with ``path``."""
    with pytest.raises(DataError) as info:
        load(data)
    assert info.value.path.startswith(path), (info.value.path, info.value.message)
    return info.value


def started(map_: str, players: int = 2, variants: list[str] | None = None) -> GameState:
    state = ttr_core.new_game(map_, players, seed=7, variants=variants)
    while state.pending is not None and state.pending.kind == "start_tickets":
        pending = state.pending
        state = ttr_core.apply(state, KeepTickets(pending.player, pending.offered))
    return state


def ticket_choice(map_: str) -> dict[str, Any]:
    """A saved state waiting for seat 0 to keep tickets it drew."""
    state = started(map_)
    return data_of(ttr_core.apply(state, DrawTickets(0)))


def offer_everything(data: dict[str, Any]) -> dict[str, Any]:
    """The whole ticket deck moved into the pending offer (tickets stay conserved)."""
    data["pending"]["offered"] += data["ticket_deck"]
    data["ticket_deck"] = []
    return data


# -- finding 1, one test per reproduction ------------------------------------------


def test_a_huge_ticket_offer_is_refused_amsterdam() -> None:
    data = offer_everything(ticket_choice("amsterdam"))
    assert len(data["pending"]["offered"]) >= 16
    refused(data, "pending.offered")


def test_a_huge_ticket_offer_is_refused_newyork() -> None:
    data = offer_everything(ticket_choice("newyork"))
    refused(data, "pending.offered")


def test_a_start_offer_larger_than_dealt_is_refused() -> None:
    data = data_of(ttr_core.new_game("nederland", 2, seed=3))
    data["pending"]["offered"].append(data["ticket_deck"].pop())
    refused(data, "pending.offered")


def test_ticket_ids_offered_are_distinct_and_valid() -> None:
    data = ticket_choice("usa")
    data["pending"]["offered"].append(data["pending"]["offered"][0])
    refused(data, "pending.offered")
    data = ticket_choice("usa")
    data["pending"]["offered"][0] = 999
    refused(data, "")


def test_extra_start_offers_are_refused() -> None:
    data = data_of(ttr_core.new_game("usa", 2, seed=3))
    data["start_offers"].append([data["ticket_deck"].pop() for _ in range(3)])
    refused(data, "start_offers")


def test_start_offers_outside_the_start_phase_are_refused() -> None:
    data = data_of(started("usa"))
    data["start_offers"] = [[data["ticket_deck"].pop() for _ in range(3)]]
    refused(data, "start_offers")


def test_start_offers_of_another_size_are_refused() -> None:
    data = data_of(ttr_core.new_game("usa", 3, seed=3))
    data["ticket_deck"].append(data["start_offers"][0].pop())
    refused(data, "start_offers[0]")


def test_the_start_choice_is_the_next_seat_s() -> None:
    data = data_of(ttr_core.new_game("usa", 3, seed=3))
    data["pending"]["player"] = 2
    refused(data, "pending.player")


def test_a_huge_shuffle_count_is_refused() -> None:
    data = data_of(started("usa"))
    data["shuffles"] = int("9" * 4200)
    refused(data, "shuffles")


@pytest.mark.parametrize("field", ["turn", "passes", "ply", "final_turns", "shuffles"])
def test_every_counter_is_bounded(field: str) -> None:
    data = data_of(started("usa"))
    data[field] = 10**30
    refused(data, field)


def test_an_unknown_pending_kind_is_refused() -> None:
    data = data_of(started("nederland", 2, ["tolls"]))
    data["pending"]["kind"] = "tolls.nothing"
    refused(data, "pending.kind")


def test_an_empty_ticket_choice_is_refused() -> None:
    data = ticket_choice("usa")
    data["ticket_deck"] += data["pending"]["offered"]
    data["pending"]["offered"] = []
    data["pending"]["min_keep"] = 0
    refused(data, "pending.offered")


def test_min_keep_above_the_offer_is_refused() -> None:
    data = ticket_choice("usa")
    data["pending"]["min_keep"] = 4
    refused(data, "pending.min_keep")


def test_min_keep_is_what_the_rules_ask() -> None:
    data = ticket_choice("usa")
    data["pending"]["min_keep"] = 0
    refused(data, "pending.min_keep")
    data = data_of(ttr_core.new_game("usa", 2, seed=1))
    data["pending"]["min_keep"] = 3
    refused(data, "pending.min_keep")


@pytest.mark.parametrize("kind", ["turn", "second_card"])
def test_a_turn_carrying_offered_tickets_is_refused(kind: str) -> None:
    data = ticket_choice("usa")
    data["pending"]["kind"] = kind
    refused(data, "pending.offered")
    data = data_of(started("usa"))
    data["pending"]["kind"] = kind
    data["pending"]["min_keep"] = 1
    refused(data, "pending.min_keep")


def test_duplicate_variants_are_refused() -> None:
    data = data_of(started("nederland", 2, ["tolls"]))
    data["variants"] = ["tolls", "tolls"]
    refused(data, "variants")


def test_known_cards_are_canonical() -> None:
    data = data_of(started("usa"))
    data["players"][0]["known"] = {"red": 0}
    refused(data, "players[0].known")


def test_a_core_pending_kind_carries_no_data() -> None:
    data = data_of(started("usa"))
    data["pending"]["data"] = [1]
    refused(data, "pending.data")


def test_a_second_card_decision_needs_a_card_to_take() -> None:
    data = data_of(started("usa"))
    data["pending"]["kind"] = "second_card"
    wild = "wild"
    # Every card outside the hands is a wild on display, or in seat 1's hand.
    outside = (
        data["deck"]
        + [c for c in data["display"] if c]
        + [card for card, n in data["discard"].items() for _ in range(n)]
    )
    for card in outside:
        data["players"][1]["hand"][card] += 1
    data["deck"] = []
    data["discard"] = dict.fromkeys(data["discard"], 0)
    data["display"] = [None] * len(data["display"])
    data["players"][1]["hand"][wild] -= 2
    data["display"][:2] = [wild, wild]
    refused(data, "pending.kind")


# -- the fuzz: mutants of real saves and views, played on ---------------------------

#: Mutants tried per kind (states, views); ``nox -s fuzz`` runs 10,000.
EXAMPLES = int(os.environ.get("TTR_FUZZ_EXAMPLES", "60"))
#: Actions played on from each accepted mutant.
PLAY_ON = 12
#: CPU seconds a mutant may take, loaded and played on (a hang is a failure).
MUTANT_SECONDS = 5.0
#: Most actions a state may list (a ticket choice of the biggest built-in offer
#: lists 26 subsets; a turn about one per route and card): more is a huge listing.
MOST_LISTED = 5_000

CORE_ACTIONS = (
    ttr_core.ClaimRoute,
    ttr_core.DrawBlind,
    ttr_core.DrawFaceUp,
    DrawTickets,
    KeepTickets,
    ttr_core.Pass,
)

#: Every built-in map with every variant combination worth playing.
CONFIGS: list[tuple[str, int, list[str] | None]] = [
    ("newyork", 2, None),
    ("newyork", 3, []),
    ("newyork", 2, ["attractions", "swap"]),
    ("usa", 3, None),
    ("usa", 2, []),
    ("nederland", 2, ["tolls", "neutral"]),
    ("nederland", 3, None),
    ("nederland", 2, []),
    ("amsterdam", 2, None),
    ("amsterdam", 3, []),
    # Issue 30, finding 5: a loaded Europe state broke long_tickets' own
    # invariant later in play (every variant's checks run on loading).
    ("europe", 2, None),
    ("europe", 3, None),
    ("europe", 4, ["tunnels", "ferries", "stations", "long_tickets"]),
]


@functools.cache
def base_states() -> tuple[GameState, ...]:
    """States of random games on every configuration: the start, each kind of
    decision met, and the end."""
    found: list[GameState] = []
    for number, (map_, players, variants) in enumerate(CONFIGS):
        rng = random.Random(number)
        state = ttr_core.new_game(map_, players, seed=number, variants=variants)
        kinds: set[str] = set()
        step = 0
        while True:
            pending = state.pending
            kind = "over" if pending is None else str(pending.kind)
            if kind not in kinds or step % 40 == 0:
                kinds.add(kind)
                found.append(state)
            if pending is None:
                break
            legal = ttr_core.legal_actions(state)
            state = ttr_core.apply(state, legal[rng.randrange(len(legal))])
            step += 1
    return tuple(found)


def edge_numbers(value: int, rng: random.Random) -> int:
    """An edge value for a number that was ``value``."""
    big: int = 10 ** rng.randrange(2, 60)
    edges: list[int] = [0, 1, 2, -1, -2, value + 1, value - 1, 2 * value, big, -big]
    return rng.choice([*edges, 2**31, 2**63, 10**4200 - 1])


def places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into ``value`` (object keys and list indices)."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += places(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += places(item, (*path, i))
    return found


def get(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def put(data: Any, path: tuple[Any, ...], value: Any) -> None:
    get(data, path[:-1])[path[-1]] = value


def mutate_number(data: dict[str, Any], rng: random.Random) -> str:
    paths = [p for p in places(data) if p and type(get(data, p)) is int and p[0] != "format"]
    path = rng.choice(paths)
    put(data, path, edge_numbers(get(data, path), rng))
    return f"number {path}"


def mutate_list(data: dict[str, Any], rng: random.Random) -> str:
    paths = [p for p in places(data) if p and isinstance(get(data, p), list)]
    path = rng.choice(paths)
    items = get(data, path)
    how = rng.choice(["lengthen", "shorten", "duplicate", "empty", "shuffle"])
    if how == "lengthen":
        extra = rng.choice(items) if items else rng.randrange(50)
        items.extend([extra] * rng.choice([1, 2, 30]))
    elif how == "shorten" and items:
        del items[rng.randrange(len(items))]
    elif how == "duplicate" and items:
        items.insert(rng.randrange(len(items) + 1), rng.choice(items))
    elif how == "empty":
        items.clear()
    else:
        rng.shuffle(items)
    return f"list {how} {path}"


def move_tickets(data: dict[str, Any], rng: random.Random) -> str:
    """Tickets moved between the deck, the pending offer and the starting
    offers (kept in one place each, so only the rules can refuse them)."""
    spots: list[list[int]] = [data["ticket_deck"], data["ticket_discard"]]
    if data["pending"] is not None:
        spots.append(data["pending"]["offered"])
    spots += data["start_offers"]
    spots += [p["tickets"] for p in data["players"]]
    source = rng.choice([s for s in spots if s] or [data["ticket_deck"]])
    target = rng.choice(spots)
    for _ in range(rng.choice([1, 1, 2, 5, 40])):
        if source:
            target.append(source.pop(rng.randrange(len(source))))
    return "move tickets"


def mutate_pending(data: dict[str, Any], rng: random.Random) -> str:
    pending = data["pending"]
    if pending is None:
        data["pending"] = {"kind": "turn", "player": 0, "offered": [], "min_keep": 0, "data": None}
        return "pending added"
    field = rng.choice(["kind", "player", "offered", "min_keep", "data", "none"])
    if field == "kind":
        variants = data["variants"]
        pending["kind"] = rng.choice(
            ["turn", "second_card", "keep_tickets", "start_tickets", "bogus", ""]
            + [f"{v}.choose" for v in variants]
            + [f"{v}" for v in variants]
        )
    elif field == "player":
        pending["player"] = rng.choice([0, 1, 2, 3, 5, -1])
    elif field == "offered":
        return move_tickets(data, rng)
    elif field == "min_keep":
        pending["min_keep"] = rng.choice([0, 1, 2, 3, 4, 5, 50, len(pending["offered"])])
    elif field == "data":
        pending["data"] = rng.choice([[1], 0, "x", [[0, 1], None]])
    else:
        data["pending"] = None
    return f"pending {field}"


def mutate_start_offers(data: dict[str, Any], rng: random.Random) -> str:
    offers = data["start_offers"]
    how = rng.choice(["add", "drop", "move"])
    if how == "add":
        deck = data["ticket_deck"]
        offers.append([deck.pop() for _ in range(min(len(deck), rng.choice([1, 2, 3, 5])))])
    elif how == "drop" and offers:
        data["ticket_deck"] += offers.pop(rng.randrange(len(offers)))
    else:
        return move_tickets(data, rng)
    return f"start_offers {how}"


def mutate_cards(data: dict[str, Any], rng: random.Random) -> str:
    """A card moved (deck, display, discard, a hand), or known cards changed."""
    players = data["players"]
    seat = rng.randrange(len(players))
    names = list(players[seat]["hand"])
    how = rng.choice(["known", "known", "to_hand", "to_display", "wild_display"])
    if how == "known":
        known = players[seat]["known"]
        known[rng.choice(names)] = rng.choice([0, 1, 2, 3, players[seat]["hand"][names[0]]])
    elif how == "to_hand" and data["deck"]:
        players[seat]["hand"][data["deck"].pop(rng.randrange(len(data["deck"])))] += 1
    elif how == "to_display" and data["deck"]:
        data["display"][rng.randrange(len(data["display"]))] = data["deck"].pop()
    elif how == "wild_display":
        for slot in range(len(data["display"])):
            if "wild" in data["deck"]:
                data["deck"].remove("wild")
                old = data["display"][slot]
                data["display"][slot] = "wild"
                if old is not None:
                    data["deck"].append(old)
    return f"cards {how}"


def mutate_variant_state(data: dict[str, Any], rng: random.Random) -> str:
    slots = data["variant_state"]
    if not slots:
        return mutate_number(data, rng)
    key = rng.choice(sorted(slots))
    paths = [p for p in places(slots[key]) if p and type(get(slots[key], p)) is int]
    if paths and rng.random() < 0.7:
        path = rng.choice(paths)
        put(slots[key], path, edge_numbers(get(slots[key], path), rng))
        return f"variant_state {key} {path}"
    return mutate_list(slots, rng) if places(slots[key]) else "none"


STATE_MUTATIONS: list[Callable[[dict[str, Any], random.Random], str]] = [
    mutate_number,
    mutate_list,
    move_tickets,
    mutate_pending,
    mutate_pending,
    mutate_start_offers,
    mutate_cards,
    mutate_variant_state,
]


class Tally:
    """Mutants tried, accepted and refused, printed as one summary line."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.tried = self.accepted = self.refused = 0
        self.failures: list[str] = []

    def line(self) -> str:
        return (
            f"{self.what}: {self.tried} mutants tried, {self.accepted} accepted and played "
            f"on, {self.refused} refused, {len(self.failures)} accepted then failing"
        )


def play_on(state: GameState, rng: random.Random) -> None:
    """Random play from ``state``: every public function on each state works,
    every invariant holds, nothing raises but IllegalAction."""
    for _ in range(PLAY_ON):
        problems = [str(v) for v in ttr_core.checking.registry.check_state(state)]
        assert not problems, problems[:3]
        legal = ttr_core.legal_actions(state)
        assert len(legal) <= MOST_LISTED, f"{len(legal)} actions listed"
        if all(type(a) in CORE_ACTIONS for a in legal):  # a variant's actions have no ids
            ids = ttr_core.legal_action_ids(state)
            mask = ttr_core.legal_action_mask(state)
            assert sorted(i for i, on in enumerate(mask) if on) == sorted(ids)
        for seat in range(state.num_players):
            ttr_core.player_view(state, seat)
        ttr_core.score_sheets(state)
        assert from_json(to_json(state), GameState) == state
        if state.is_over:
            ttr_core.final_scores(state)
            return
        with contextlib.suppress(IllegalAction):  # if refused, by IllegalAction only
            ttr_core.apply(state, DrawTickets(state.pending.player))  # type: ignore[union-attr]
        state = ttr_core.apply(state, legal[rng.randrange(len(legal))])


def try_mutant(tally: Tally, text: str, kind: Any, rng: random.Random, what: str) -> None:
    tally.tried += 1
    with cpu_clock() as clock:
        try:
            try:
                loaded = from_json(text, kind)
            except DataError:
                tally.refused += 1
                return
            tally.accepted += 1
            if kind is PlayerView:
                state = ttr_core.determinize(loaded, rng.randrange(2**32))
            else:
                state = loaded
            play_on(state, rng)
        except Exception as exc:  # every other error is a finding
            tally.failures.append(f"{what}: {type(exc).__name__}: {str(exc)[:300]}")
        if clock() > MUTANT_SECONDS:
            tally.failures.append(f"{what}: took {clock():.1f} s")


def report(tally: Tally) -> None:
    print(f"\n{tally.line()}")
    assert not tally.failures, "\n".join([tally.line(), *tally.failures[:10]])


def test_loaded_state_mutants_play_on() -> None:
    bases = base_states()
    tally = Tally("states")
    for number in range(EXAMPLES):
        rng = random.Random(f"ttr-core:loaded states:{number}")  # each mutant alone repeats
        base = bases[number % len(bases)]
        data = data_of(base)
        how = rng.choice(STATE_MUTATIONS)(data, rng)
        what = f"mutant {number} of {base!r} ({how})"
        try_mutant(tally, json.dumps(data), GameState, rng, what)
    report(tally)


def test_loaded_view_mutants_determinize_and_play_on() -> None:
    bases = base_states()
    tally = Tally("views")
    for number in range(EXAMPLES):
        rng = random.Random(f"ttr-core:loaded views:{number}")
        base = bases[number % len(bases)]
        seat = rng.randrange(base.num_players)
        data: dict[str, Any] = json.loads(to_json(ttr_core.player_view(base, seat)))
        how = rng.choice([mutate_number, mutate_number, mutate_list])(data, rng)
        what = f"view mutant {number} of seat {seat} of {base!r} ({how})"
        try_mutant(tally, json.dumps(data), PlayerView, rng, what)
    report(tally)


def test_a_decision_to_resume_is_checked_too() -> None:
    """Found by the fuzz: ``neutral.choose`` keeps the turn to resume in its data;
    tickets offered there would be in no place once it resumes."""
    choosing = next(s for s in base_states() if s.pending and s.pending.kind == "neutral.choose")
    data = data_of(choosing)
    data["pending"]["data"][1]["offered"] = [data["ticket_deck"][0]]
    refused(data, "pending.data")
    data = data_of(choosing)
    data["pending"]["data"][1]["player"] = 7
    refused(data, "pending.data")


@pytest.mark.parametrize("field", ["passes", "turn", "ply"])
def test_determinize_refuses_counters_below_zero(field: str) -> None:
    """Found by the fuzz: a view with ``passes`` -100000 gave a state that its
    own save could not load."""
    state = started("usa")
    changes: dict[str, Any] = {field: -5}
    view = attrs.evolve(ttr_core.player_view(state, 0), **changes)
    with pytest.raises(ttr_core.ArgumentError):
        ttr_core.determinize(view, 1)


def test_the_effect_helpers_make_only_decisions_a_save_keeps() -> None:
    from ttr_core import PluginError, effects

    state = started("usa")
    with pytest.raises(PluginError, match=r"pending\.offered"):
        effects.offer_tickets(state, 0, count=20)
    with pytest.raises(PluginError, match=r"pending\.data"):
        effects.set_pending(state, "turn", 0, data=1)
    offered = effects.offer_tickets(state, 0, count=3, min_keep=3)
    assert load(data_of(offered)) == offered
