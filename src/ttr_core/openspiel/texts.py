"""The strings OpenSpiel asks for: an action, a state, a seat's view and a
seat's information state, in words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ttr_core.model.board import Board
from ttr_core.model.state import GameState
from ttr_core.model.views import PlayerView
from ttr_core.openspiel.core import _Core, _Event
from ttr_core.rules.action_ids import (
    ActionSpace,
    rules_space,
)
from ttr_core.rules.views import player_view


def _ticket(board: Board, ticket: int) -> str:
    return f"#{ticket} {board.tickets[ticket].text('-')}"


def _cards(names: Sequence[str], counts: Iterable[int]) -> str:
    held = [f"{n}={c}" for n, c in zip(names, counts, strict=True) if c]
    return " ".join(held) or "none"


def action_text(state: GameState, player: int, aid: int) -> str:
    """Action id ``aid`` in words (for ``action_to_string``)."""
    space: ActionSpace = rules_space(state.rules)
    board = state.board
    if not 0 <= aid < space.size:
        return f"invalid action id {aid}"
    if aid >= space.core_size:
        return _variant_text(space, aid)
    if aid >= space.keep_base:
        mask = aid - space.keep_base
        pending = state.pending
        if pending is not None and pending.player == player and pending.offered:
            kept = [t for i, t in enumerate(pending.offered) if mask >> i & 1]
            return "keep " + ("; ".join(_ticket(board, t) for t in kept) or "no ticket")
        positions = [str(i) for i in range(space.keep_bits) if mask >> i & 1]
        return f"keep offered tickets at positions {','.join(positions) or 'none'}"
    template = space.template(aid)
    kind = template[0]
    if kind == "blind":
        return "draw a card from the deck"
    if kind == "face_up":
        slot = template[1]
        assert isinstance(slot, int)
        card = state.display[slot] if slot < len(state.display) else None
        shown = "" if card is None else f" ({board.card_names[card]})"
        return f"take face-up card {slot}{shown}"
    if kind == "tickets":
        return "draw tickets"
    if kind == "pass":
        return "pass"
    _, rid, colour, wilds = template
    assert isinstance(rid, int) and isinstance(wilds, int)
    route = board.routes[rid]
    paid = []
    if colour is not None:
        paid.append(f"{route.length - wilds} {colour}")
    if wilds:
        paid.append(f"{wilds} {board.wild_name}")
    return (
        f"claim #{rid} {route.a}-{route.b} ({route.color} {route.length}) with {' + '.join(paid)}"
    )


def _variant_text(space: ActionSpace, aid: int) -> str:
    """A variant action id in words: its variant, class and field values."""
    _, variant, cls, names, values = space.template(aid)
    assert isinstance(cls, type) and isinstance(names, tuple) and isinstance(values, tuple)
    fields = ", ".join(f"{n}={v!r}" for n, v in zip(names, values, strict=True))
    return f"{variant}: {cls.__name__}({fields})"


def state_text(state: GameState) -> str:
    """The whole state in words, hidden information included (``str(state)``)."""
    board = state.board
    names = board.card_names
    lines = [
        f"{board.id} {state.num_players}p turn {state.turn} "
        + (
            f"over ({state.termination})"
            if state.is_over
            else f"seat {state.current_player} to {state.pending.kind if state.pending else '?'}"
        ),
        "display: " + " ".join("-" if c is None else names[c] for c in state.display),
        "deck: " + " ".join(names[c] for c in state.deck),
        f"discard: {_cards(names, state.discard)}",
        f"ticket deck: {list(state.ticket_deck)} discard: {list(state.ticket_discard)}",
    ]
    if state.pending is not None and state.pending.offered:
        lines.append(f"offered: {list(state.pending.offered)} keep >= {state.pending.min_keep}")
    for i, offer in enumerate(state.start_offers):
        lines.append(f"start offer {i}: {list(offer)}")
    for seat, p in enumerate(state.players):
        lines.append(
            f"seat {seat}: cars {p.cars} score {p.score} hand {_cards(names, p.hand.counts)} "
            f"tickets {list(p.tickets)} routes {list(p.routes)}"
        )
    lines.append(
        f"final turns {state.final_turns} passes {state.passes} shuffles {state.shuffles} "
        f"seed {state.seed}"
    )
    for key, value in state.variant_state:
        lines.append(f"{key}: {value!r}")
    return "\n".join(lines)


def view_text(view: PlayerView) -> str:
    """What a seat sees, in words (the observation string)."""
    board = view.board
    names = board.card_names
    n = len(view.seats)
    head = f"seat {view.viewer} of {n}, turn {view.turn}: "
    if view.is_over:
        head += f"game over ({view.termination})"
    else:
        head += f"seat {view.current_player} to {view.pending}"
    lines = [head, f"hand: {_cards(names, view.hand.counts)}"]
    lines.append("tickets: " + ("; ".join(_ticket(board, t) for t in view.tickets) or "none"))
    if view.offered:
        lines.append(
            "offered: "
            + "; ".join(_ticket(board, t) for t in view.offered)
            + f" (keep at least {view.min_keep})"
        )
    elif view.offer_size:
        lines.append(f"offered to seat {view.current_player}: {view.offer_size} tickets")
    lines.append("display: " + " ".join(c or "-" for c in view.display))
    lines.append(
        f"deck {view.deck_size}, discard {view.discard_size}, ticket deck "
        f"{view.ticket_deck_size}, ticket discard {list(view.ticket_discard)}"
    )
    for seat in view.seats:
        known = " ".join(f"{k}={v}" for k, v in sorted(seat.known.items())) or "none"
        lines.append(
            f"seat {seat.seat}: cars {seat.cars}, cards {seat.hand_size} (known {known}), "
            f"tickets {seat.tickets_held}, score {seat.score}, routes {list(seat.routes)}"
        )
    for other in view.others:
        lines.append(f"{other.name}: routes {list(other.routes)}")
    if view.final_turns >= 0:
        lines.append(f"final round: {view.final_turns} turns left")
    if view.passes:
        lines.append(f"passes in a row: {view.passes}")
    for key in sorted(view.variants):
        lines.append(f"{key}: {view.variants[key]!r}")
    return "\n".join(lines)


def _event_text(space: ActionSpace, event: _Event, viewer: int) -> str:
    """One action of the record as seat ``viewer`` saw it."""
    board = space.board
    seat, aid, kind, public, private, display = event
    mine = seat == viewer
    if kind == "blind":
        text = f"draws {private if mine and private else 'a card'} blind"
    elif kind == "face_up":
        text = f"takes face-up {public}"
    elif kind == "tickets":
        if mine and private is not None:
            text = "draws tickets " + "; ".join(_ticket(board, t) for t in private)
        else:
            text = f"draws {public} tickets"
    elif kind == "keep":
        if mine and private is not None:
            offered, kept = private
            text = "keeps " + ("; ".join(_ticket(board, t) for t in kept) or "none")
            text += " of " + "; ".join(_ticket(board, t) for t in offered)
        else:
            text = f"keeps {public} tickets"
    elif kind == "claim":
        _, rid, colour, wilds = space.template(aid)
        assert isinstance(rid, int) and isinstance(wilds, int)
        route = board.routes[rid]
        paid = [f"{route.length - wilds} {colour}"] if colour is not None else []
        if wilds:
            paid.append(f"{wilds} {board.wild_name}")
        text = f"claims #{rid} {route.a}-{route.b} with {' + '.join(paid)}"
    elif kind == "variant":
        # Its fields may be the seat's own business: the others see only the variant.
        text = _variant_text(space, aid) if mine else f"takes a {space.template(aid)[1]} action"
    else:
        text = kind
    line = f"seat {seat} {text}"
    if display is not None:
        line += " | display " + " ".join(c or "-" for c in display)
    return line


def information_text(core: _Core, viewer: int) -> str:
    """The information state string: the seat's view now, its starting hand
    and every action so far as the seat saw it."""
    state = core.snapshot()
    board = state.board
    space = rules_space(state.rules)
    lines = [view_text(player_view(state, viewer)), "history:"]
    start = core.start_hands[viewer] if viewer < len(core.start_hands) else None
    lines.append("starting hand: " + ("?" if start is None else _cards(board.card_names, start)))
    lines += [_event_text(space, event, viewer) for event in core.events]
    return "\n".join(lines)
