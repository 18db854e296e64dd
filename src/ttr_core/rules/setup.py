"""Setting up a game: the map found (by name, path or board, or a name from
outside that never opens a file), the player count and variants checked, the
rule set resolved, cards and starting tickets dealt from the seed.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from ttr_core.errors import (
    ArgumentError,
    show,
    what,
)
from ttr_core.hooks import calls
from ttr_core.hooks.resolve import game_rules, resolve_variants
from ttr_core.mapfiles.decks import board_with_tickets
from ttr_core.mapfiles.finding import load_map
from ttr_core.mapfiles.registry import named_map
from ttr_core.model.board import Board
from ttr_core.model.state import (
    UNCLAIMED,
    GameState,
    Hand,
    Pending,
    PlayerState,
    replace_state,
)
from ttr_core.rules.checks import check_player_count
from ttr_core.rules.engine import _START
from ttr_core.rules.kernel.work import Work, shuffler

#: Seeds are whole numbers from 0 to ``SEED_LIMIT - 1`` (256 bits); ``new_game``
#: draws a fresh 128-bit one from the operating system when none is given.
SEED_LIMIT = 2**256


def new_game(
    map: str | os.PathLike[str] | Board,
    players: int,
    seed: int | None = None,
    variants: Iterable[str] | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    tickets: str | os.PathLike[str] | None = None,
    *,
    files: bool = True,
) -> GameState:
    """Set up a new game.

    ``map`` is a built-in map name, a map file path or a loaded :class:`Board`.
    ``files=False`` is for a map name from outside (a server's client): the
    name must be one :func:`~ttr_core.named_map` knows (a registered, built-in
    or installed map), and no file is ever opened for it, whatever it is
    (:class:`UnknownMapError` otherwise; a path-like ``map`` or a ``tickets``
    file is then an :class:`ArgumentError`).
    ``seed`` is the source of all chance: a whole number from 0 to ``2**256 -
    1``. Without one (``None``) a fresh 128-bit seed is drawn from the
    operating system (:mod:`secrets`), so that nobody can guess the deck
    order; it is kept in ``state.seed``, which a server keeps secret. Give a
    seed to replay a game (tests, research). ``variants`` names the variants to
    switch on; ``None`` means the map's defaults and ``[]`` none at all.
    ``options`` gives variant options as ``{variant: {option: value}}`` (see
    :func:`variant_options`); options not given take their defaults.
    ``tickets`` is the path of a ticket deck file to play instead of the
    map's tickets (see ``docs/map-format.md``). The state returned waits for
    the first seat's starting ticket choice (engine decision E7).

    Raises :class:`UnknownMapError`, :class:`MapError`,
    :class:`UnknownVariantError`, :class:`PlayerCountError`,
    :class:`OptionError`, :class:`PluginError` (a variant that is installed
    but broken), or :class:`ArgumentError` for an argument of the wrong type
    (a seed that is not a whole number in range, a map that is not a name,
    a path or a board).
    """
    if seed is None:
        seed = secrets.randbits(128)
    elif type(seed) is not int or not 0 <= seed < SEED_LIMIT:
        if type(seed) is int:
            raise ArgumentError(
                f"seed must be a whole number from 0 to 2**256 - 1, not {show(seed)}"
            )
        raise ArgumentError(f"seed must be an int (or None for a fresh one), not {what(seed)}")
    if not isinstance(map, str | os.PathLike | Board):
        raise ArgumentError(
            f"map must be a map name, the path of a map file or a Board, not {what(map)}"
        )
    if tickets is not None and not isinstance(tickets, str | os.PathLike):
        raise ArgumentError(
            f"tickets must be the path of a ticket deck file (or None), not {what(tickets)}"
        )
    if type(files) is not bool:
        raise ArgumentError(f"files must be True or False, not {what(files)}")
    if isinstance(map, Board):
        board = map
    elif files:
        board = load_map(map)
    else:
        if not isinstance(map, str) or tickets is not None:
            raise ArgumentError(
                "with files=False, map is the name of a map (a str) and tickets is None: "
                "no file is opened"
            )
        board = named_map(map)
    if tickets is not None:
        board = board_with_tickets(board, tickets)
    check_player_count(board, players)
    rules = game_rules(board, players, resolve_variants(board, variants), options)
    mr = board.rules

    cards = [card for card, n in enumerate(board.deck) for _ in range(n)]
    shuffler(seed, 0).shuffle(cards)
    hands = [[0] * len(board.deck) for _ in range(players)]
    for _ in range(mr.starting_hand):
        for hand in hands:
            hand[cards.pop(0)] += 1
    display = tuple(cards[: mr.display_size])
    deck = tuple(cards[mr.display_size :])

    ticket_ids = list(range(len(board.tickets)))
    shuffler(seed, 1).shuffle(ticket_ids)
    offers = []
    for _ in range(players):
        offers.append(tuple(ticket_ids[: mr.start_tickets_dealt]))
        del ticket_ids[: mr.start_tickets_dealt]

    names = board.card_names
    start_scores = mr.start_scores
    state = GameState(
        board=board,
        rules=rules,
        seed=seed,
        players=tuple(
            PlayerState(
                hand=Hand(tuple(hands[p]), names),
                tickets=(),
                cars=mr.cars_per_player,
                routes=(),
                score=start_scores[p] if p < len(start_scores) else 0,
            )
            for p in range(players)
        ),
        deck=deck,
        display=display,
        discard=(0,) * len(board.deck),
        ticket_deck=tuple(ticket_ids),
        ticket_discard=(),
        owners=(UNCLAIMED,) * len(board.routes),
        pending=Pending(_START, 0, offers[0], min(mr.start_tickets_keep, len(offers[0]))),
        start_offers=tuple(offers[1:]),
        shuffles=2,  # the cards' and the tickets' shuffles
    )
    if display.count(board.wild) > mr.max_face_up_wilds:
        work = Work(state)
        work.check_wilds()  # the starting display too (E3)
        state = work.publish()
    if rules.deal_tickets:
        state = _hook_deal(state)
    if rules.setup:
        state = calls.run_setup(rules, state)
    return state


def _hook_deal(state: GameState) -> GameState:
    """The starting deal redone seat by seat through ``ttr_deal_tickets``, from the
    same shuffled tickets (a seat the hook leaves to the core gets the top ones)."""
    assert state.pending is not None
    count = state.board.rules.start_tickets_dealt
    pool = [*state.pending.offered, *(t for o in state.start_offers for t in o)]
    deck = (*pool, *state.ticket_deck)
    offers = []
    for seat in range(state.num_players):
        asked = replace_state(state, ticket_deck=deck)
        chosen = calls.run_deal_tickets(state.rules, asked, seat, count, True)
        if chosen is None:
            chosen = deck[:count]
        taken = set(chosen)
        deck = tuple(t for t in deck if t not in taken)
        offers.append(chosen)
    pending = Pending(_START, 0, offers[0], state.pending.min_keep)
    return replace_state(state, ticket_deck=deck, pending=pending, start_offers=tuple(offers[1:]))
