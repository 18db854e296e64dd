"""The information-state tensor's perfect recall: each seat's history of what
it saw, laid out once per configuration.
"""

from __future__ import annotations

from typing import Any

from ttr_core.errors import ArgumentError
from ttr_core.hooks.resolve import game_rules
from ttr_core.model.board import Board
from ttr_core.model.state import Termination
from ttr_core.openspiel.core import _Core, _max_game_length
from ttr_core.openspiel.deps import np
from ttr_core.rules.action_ids import (
    ActionSpace,
    rules_space,
)
from ttr_core.rules.views import player_view

__all__ = ["history_features"]


_HISTORY_COUNTS = ("blind", "tickets", "kept", "claims", "passes")


#: The kinds of the record's actions, in the order of ``record[i].kind``.
_KINDS = ("blind", "face_up", "tickets", "keep", "claim", "pass", "variant")


_KIND_INDEX = {kind: i for i, kind in enumerate(_KINDS)}


_TERMINATIONS = tuple(Termination)


class _Recall:
    """The layout of the information state's history part for (board, players):
    the summary counts, the starting hand, one fixed-width row per action of
    the record (``max_game_length`` rows) and the view's order facts."""

    def __init__(self, board: Board, players: int) -> None:
        self.players = players
        self.names = board.card_names
        self.kinds = len(board.card_names)
        self.index = {name: i for i, name in enumerate(board.card_names)}
        self.display = board.rules.display_size
        self.offer = _core_space(board, players).keep_bits
        self.tickets = len(board.tickets)
        self.routes = len(board.routes)
        self.rows = _max_game_length(board, players)
        self.width = 5 + self.offer + self.display
        self.summary = players * (len(_HISTORY_COUNTS) + self.kinds) + self.kinds
        self.start = self.summary
        self.record = self.start + 1 + self.kinds
        self.view = self.record + self.rows * self.width
        self.size = self.view + self.display + 3 * self.tickets + self.routes + 1

    def feature_names(self) -> tuple[str, ...]:
        names: list[str] = []
        for k in range(self.players):
            names += [f"history.seat[+{k}].{what}" for what in _HISTORY_COUNTS]
            names += [f"history.seat[+{k}].face_up[{card}]" for card in self.names]
        names += [f"history.my_blind[{card}]" for card in self.names]
        names.append("history.start_hand.known")
        names += [f"history.start_hand[{card}]" for card in self.names]
        row = ["seat", "kind", "value", "keep_mask"]
        row += [f"offered[{j}]" for j in range(self.offer)]
        row.append("display_changed")
        row += [f"display[{s}]" for s in range(self.display)]
        for i in range(self.rows):
            names += [f"history.record[{i}].{what}" for what in row]
        names += [f"history.view.display[{s}]" for s in range(self.display)]
        for what in ("my_ticket_order", "offered_order", "ticket_discard_order"):
            names += [f"history.view.{what}[{t}]" for t in range(self.tickets)]
        names += [f"history.view.route_order[{r}]" for r in range(self.routes)]
        names.append("history.view.termination")
        assert len(names) == self.size
        return tuple(names)


def _core_space(board: Board, players: int) -> ActionSpace:
    return rules_space(game_rules(board, players, (), {}))


def history_features(board: Board, players: int) -> tuple[str, ...]:
    """Names of the features the information state adds to the observation.

    First a summary: per seat, relative to the viewer, counts of what it did
    (draws blind, ticket draws, tickets kept, claims, passes, cards taken face
    up by kind), then the cards the viewer itself drew blind, by kind. Then
    the perfect-recall part: the viewer's starting hand; one row per action
    of the record as the viewer saw it (``max_game_length`` rows: who acted,
    what kind of action, the card or count or action id it showed, the
    viewer's own offers and keeps, the display after it when it changed);
    and what the view shows in an order the observation does not keep (the
    display slot by slot, the order of the viewer's tickets, of its offer,
    of the ticket discard and of each owner's routes, how the game ended).
    ``docs/openspiel.md`` gives the encoding."""
    return _Recall(board, players).feature_names()


def _history_vector(core: _Core, viewer: int, out: Any) -> None:
    state = core.snapshot()
    board = state.board
    n = state.num_players
    kinds = len(board.card_names)
    index = {name: i for i, name in enumerate(board.card_names)}
    per_seat = len(_HISTORY_COUNTS) + kinds
    cards = float(board.total_cards or 1)
    tickets = float(len(board.tickets) or 1)
    routes = float(len(board.routes) or 1)
    turns = float(2 * n * (board.rules.cars_per_player or 1))
    out.fill(0.0)
    for seat, _, kind, public, private, _ in core.events:
        base = ((seat - viewer) % n) * per_seat
        if kind == "blind":
            out[base] += 1 / cards
            if seat == viewer and private is not None:
                out[n * per_seat + index[private]] += 1 / cards
        elif kind == "tickets":
            out[base + 1] += 1 / tickets
        elif kind == "keep":
            out[base + 2] += public / tickets
        elif kind == "claim":
            out[base + 3] += 1 / routes
        elif kind == "pass":
            out[base + 4] += 1 / turns
        elif kind == "face_up" and public is not None:
            out[base + len(_HISTORY_COUNTS) + index[public]] += 1 / cards


def _recall_vector(layout: _Recall, core: _Core, viewer: int, out: Any) -> None:
    """The history part of seat ``viewer``'s information state tensor, into ``out``.

    Everything written is what the information state string says, in
    numbers, each a one-to-one code of what it stands for (an index ``i`` of
    ``m`` possible values is ``(i + 1) / (m + 1)``, 0 for nothing): so two
    records the seat can tell apart differ somewhere, and a fact hidden from
    the seat (another seat's blind card, offer and keep) is never read.
    """
    state = core.snapshot()
    space = rules_space(state.rules)
    events = core.events
    if len(events) > layout.rows:
        raise ArgumentError(
            f"the game has {len(events)} actions, more than max_game_length ({layout.rows}) "
            "rows of the information state tensor"
        )
    _history_vector(core, viewer, out[: layout.summary])
    out[layout.summary :] = 0.0
    n = layout.players
    kinds = layout.kinds
    index = layout.index
    card_scale = kinds + 1.0
    start = core.start_hands[viewer] if viewer < len(core.start_hands) else None
    if start is not None:
        cards = float(state.board.total_cards or 1)
        out[layout.start] = 1.0
        out[layout.start + 1 : layout.start + 1 + kinds] = np.asarray(start) / cards
    offer = layout.offer
    ticket_scale = layout.tickets + 1.0
    id_scale = space.size + 1.0
    mask_scale = float(2**offer + 1)
    variants = {name: i for i, (name, _, _) in enumerate(space.variant_ranges)}
    changed_at = 4 + offer
    rows = out[layout.record : layout.view].reshape(layout.rows, layout.width)
    for row, (seat, aid, kind, public, private, display) in zip(rows, events, strict=False):
        mine = seat == viewer
        row[0] = ((seat - viewer) % n + 1) / n
        row[1] = (_KIND_INDEX[kind] + 1) / len(_KINDS)
        if kind == "blind":
            if mine and private is not None:
                row[2] = (index[private] + 1) / card_scale
        elif kind == "face_up":
            if public is not None:
                row[2] = (index[public] + 1) / card_scale
        elif kind == "tickets" or kind == "keep":
            row[2] = (public + 1) / (offer + 2)
            if mine and private is not None:
                offered = private if kind == "tickets" else private[0]
                if len(offered) > offer:
                    raise ArgumentError(f"an offer of {len(offered)} tickets: at most {offer}")
                for j, ticket in enumerate(offered):
                    row[4 + j] = (ticket + 1) / ticket_scale
                if kind == "keep":
                    mask = sum(1 << offered.index(t) for t in private[1])
                    row[3] = (mask + 1) / mask_scale
        elif kind == "claim":
            row[2] = (aid + 1) / id_scale
        elif kind == "variant":
            if mine:
                row[2] = (aid + 1) / id_scale
            else:  # only which variant: its fields may be the acting seat's own business
                row[3] = (variants.get(str(space.template(aid)[1]), -1) + 2) / (len(variants) + 2)
        if display is not None:
            row[changed_at] = 1.0
            for slot, card in enumerate(display, changed_at + 1):
                if card is not None:
                    row[slot] = (index[card] + 1) / card_scale
    # What the view shows in an order the observation vector does not keep.
    view = player_view(state, viewer)
    at = layout.view
    for slot, name in enumerate(view.display):
        if name is not None:
            out[at + slot] = (index[name] + 1) / card_scale
    at += layout.display
    for listed in (view.tickets, view.offered, view.ticket_discard):
        for place, ticket in enumerate(listed, 1):
            out[at + ticket] = place / ticket_scale
        at += layout.tickets
    route_scale = layout.routes + 1.0
    for owned in (*(seat.routes for seat in view.seats), *(o.routes for o in view.others)):
        for place, route in enumerate(owned, 1):
            out[at + route] = place / route_scale
    at += layout.routes
    if view.termination is not None:
        ended = _TERMINATIONS.index(Termination(view.termination))
        out[at] = (ended + 1) / (len(_TERMINATIONS) + 1)
