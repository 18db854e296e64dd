"""Card swap and bridges: a worked example of a third-party ttr-core variant.

Registered under the variant name ``swap`` through the ``ttr_core.plugins``
entry-point group (see this package's ``pyproject.toml``). Switch it on with
``ttr_core.new_game(map, players, variants=[..., "swap"])``.

The rules:

* **The swap.** Once per game, instead of a normal turn, a seat may discard
  :data:`SWAP_DISCARD` cards of one colour (not wilds) from its hand, then
  take any one face-up card (a wild too). Taking it ends the turn. The swap
  is an action of the variant's own, :class:`SwapCards`; the choice that
  follows is a decision of the variant's own (kind :data:`PICK`), answered
  with :class:`PickFaceUp`.
* **No lone wild.** A route of length 1 may not be claimed with a wild
  alone: the variant filters those claims out of the legal actions.
* **Unused swap bonus.** At the end, each seat that never used its swap
  scores the option ``unused_bonus`` (default :data:`UNUSED_BONUS`)::

      ttr_core.new_game("newyork", 2, variants=["swap"], options={"swap": {"unused_bonus": 3}})

* **Bridges.** A route the map marks ``bridge = true`` (the package's map
  ``fourtowns`` has two) costs one card more. Its claim waits for a decision
  of the claiming seat (kind :data:`BRIDGE`): pay one more card of the colour
  it paid with or a wild (:class:`PayExtra`), or give the claim up
  (:class:`GiveUp`). A bridge claim is listed only when the seat holds such a
  card.
* **Open bridges.** Every seat's tickets may cross every bridge another seat
  built.

Variant state: under the key ``"swap"``, one bool per seat, ``True`` once
the seat has swapped. It is public (every player saw the swap), so each
player's view shows it as ``"swap.used"``, and a bridge claim waiting
for its extra card as ``"swap.bridge"``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from ttr_core import (
    WILD,
    Action,
    ActionTemplate,
    Board,
    ClaimRoute,
    ClaimsRoute,
    GameState,
    IllegalAction,
    MoveWords,
    PendingKind,
    PlayerView,
    PluginError,
    Route,
    ScoreLine,
    VariantOption,
    effects,
    hookimpl,
    player_name,
)

__all__ = [
    "BRIDGE",
    "NAME",
    "PICK",
    "SWAP_DISCARD",
    "UNUSED_BONUS",
    "GiveUp",
    "PayExtra",
    "PickFaceUp",
    "SwapCards",
    "extra_cards",
    "is_bridge",
    "swap_refusal",
    "swaps_used",
    "waiting_bridge",
]

#: The variant name: the entry-point name in ``pyproject.toml``. Variant state
#: keys, view keys and decision kinds all start with it.
NAME = "swap"
#: Kind of the variant's own pending decision: the face-up card to take.
PICK = f"{NAME}.pick"
#: Kind of the decision a bridge claim waits for: pay one card more, or give up.
BRIDGE = f"{NAME}.bridge"
#: Cards of one colour discarded by a swap.
SWAP_DISCARD = 2
#: Default of the ``unused_bonus`` option: points for a swap never used.
UNUSED_BONUS = 2


# ---------------------------------------------------------------------------
# The variant's actions: frozen (hashable, comparable) subclasses of Action
# ---------------------------------------------------------------------------


@attrs.frozen
class SwapCards(Action):
    """Discard :data:`SWAP_DISCARD` cards of ``color`` (a card colour, not wild)
    from the hand; a :class:`PickFaceUp` decision follows."""

    color: str


@attrs.frozen
class PickFaceUp(Action):
    """Take the face-up card in ``slot`` after a swap; this ends the turn."""

    slot: int


@attrs.frozen
class PayExtra(Action):
    """Pay one ``card`` more for the bridge claim waiting (its colour or ``"wild"``),
    and claim the bridge; this ends the turn."""

    card: str


@attrs.frozen
class GiveUp(Action):
    """Give the bridge claim waiting up: nothing is claimed or paid; the turn ends."""


# ---------------------------------------------------------------------------
# Variant state
# ---------------------------------------------------------------------------


def swaps_used(state: GameState) -> tuple[bool, ...]:
    """For each seat, whether it has used its swap (the variant state ``"swap"``)."""
    used = state.variant(NAME)
    if not isinstance(used, tuple):
        raise PluginError(f"the game has no {NAME!r} state: is the variant switched on?")
    return used


@hookimpl
def ttr_action_types() -> Mapping[str, type[Action]]:
    """Name the variant's actions in saves and messages: stable tags, never class paths."""
    return {
        f"{NAME}.swap": SwapCards,
        f"{NAME}.pick": PickFaceUp,
        f"{NAME}.pay_extra": PayExtra,
        f"{NAME}.give_up": GiveUp,
    }


@hookimpl
def ttr_action_space(board: Board) -> Sequence[ActionTemplate]:
    """Give the variant's actions action ids, so that OpenSpiel and PettingZoo can
    play it: a swap of each card colour, a pick of each face-up slot and, on a
    map with bridges, an extra card of each kind and giving up."""
    templates = [
        ActionTemplate(SwapCards, {"color": board.colors}),
        ActionTemplate(PickFaceUp, {"slot": range(board.rules.display_size)}),
    ]
    if any(is_bridge(route) for route in board.routes):
        templates += [
            ActionTemplate(PayExtra, {"card": board.card_names}),
            ActionTemplate(GiveUp, {}),
        ]
    return templates


@hookimpl
def ttr_variant_state_types() -> Mapping[str, Any]:
    """The types of the variant state and of the bridge decision's data (the claim
    waiting), so that saved games hold them."""
    return {NAME: tuple[bool, ...], BRIDGE: ClaimRoute}


@hookimpl
def ttr_options() -> Sequence[VariantOption]:
    """Declare the option ``unused_bonus``; ttr-core checks the values games give."""
    return [
        VariantOption(
            "unused_bonus",
            int,
            UNUSED_BONUS,
            "points at the end for each seat that never used its card swap",
            low=0,
        )
    ]


@hookimpl
def ttr_setup(state: GameState) -> GameState:
    """Start the game with no swap used."""
    return state.with_variant(NAME, (False,) * state.num_players)


@hookimpl
def ttr_player_view(state: GameState) -> Mapping[str, Any]:
    """Who has swapped, and the bridge claim waiting, are public: every seat sees
    them (keys start with ``"swap"``)."""
    claim = waiting_bridge(state)
    return {
        f"{NAME}.used": swaps_used(state),
        f"{NAME}.bridge": None if claim is None else attrs.astuple(claim),
    }


@hookimpl
def ttr_determinize(state: GameState, view: PlayerView) -> GameState:
    """Rebuild the variant state for ``ttr_core.determinize``: it is public, so the
    view shows all of it (a variant with hidden state would draw that part from
    the hook's ``rng`` argument). A bridge decision comes back without its data:
    the claim waiting is put back from the view."""
    state = state.with_variant(NAME, tuple(view.variants[f"{NAME}.used"]))
    shown = view.variants[f"{NAME}.bridge"]
    if shown is None:
        return state
    claim = ClaimRoute(*shown)
    return effects.set_pending(state, BRIDGE, claim.player, data=claim)


# ---------------------------------------------------------------------------
# The swap: listed when legal, applied, then the variant's own decision
# ---------------------------------------------------------------------------


def swap_refusal(state: GameState, seat: int, color: object) -> IllegalAction | None:
    """Why ``seat`` may not swap ``color`` cards now, or ``None`` if it may.

    The one statement of the rule: :func:`ttr_extra_actions` lists exactly
    the swaps this allows, and :func:`ttr_apply_action` refuses the others
    with this error (reason codes of the variant's own, ``"swap.…"``).
    """
    pending = state.pending
    if pending is None or pending.kind != PendingKind.TURN:
        return IllegalAction(f"{NAME}.not_now", "a card swap is only allowed as a whole turn")
    if swaps_used(state)[seat]:
        return IllegalAction(f"{NAME}.already_used", f"seat {seat} has already used its swap")
    colors = state.board.colors
    if not isinstance(color, str) or color not in colors:
        return IllegalAction(
            f"{NAME}.bad_color", f"swapped cards are one of {', '.join(colors)}, not {color!r}"
        )
    held = state.players[seat].hand[color]
    if held < SWAP_DISCARD:
        return IllegalAction(
            f"{NAME}.too_few_cards",
            f"a swap discards {SWAP_DISCARD} {color} cards; seat {seat} holds {held}",
        )
    if all(card is None for card in state.display):
        return IllegalAction(f"{NAME}.no_face_up", "there is no face-up card to take")
    return None


@hookimpl
def ttr_extra_actions(state: GameState) -> Sequence[Action] | None:
    """The swaps legal on a turn; during the variant's own decisions, the picks, or
    the extra cards a bridge claim may be paid with and giving it up.

    During a :data:`PICK` decision the core lists nothing, so the picks are
    the only legal actions: there must always be one, or ttr-core raises
    ``PluginError`` (a stalled game). There is: a swap needs a face-up card,
    and its discarded cards refill any slot left empty. (A bridge decision
    always offers :class:`GiveUp`.)
    """
    pending = state.pending
    if pending is None:
        return None
    seat = pending.player
    if pending.kind == PICK:
        display = state.display
        return [PickFaceUp(seat, slot) for slot, card in enumerate(display) if card is not None]
    if pending.kind == PendingKind.TURN:
        colors = state.board.colors
        return [SwapCards(seat, c) for c in colors if swap_refusal(state, seat, c) is None]
    claim = waiting_bridge(state)
    if claim is not None:
        return [*(PayExtra(seat, card) for card in extra_cards(state, claim)), GiveUp(seat)]
    return None


@hookimpl
def ttr_apply_action(state: GameState, action: Action) -> GameState | None:
    """Carry out the variant's actions; ``None`` for other actions.

    ttr-core has already checked that the game is not over and that
    ``action.player`` is the seat to decide.
    """
    seat = action.player
    if isinstance(action, SwapCards):
        refusal = swap_refusal(state, seat, action.color)
        if refusal is not None:
            raise refusal
        state = effects.discard_cards(state, seat, {action.color: SWAP_DISCARD})
        used = swaps_used(state)
        state = state.with_variant(NAME, (*used[:seat], True, *used[seat + 1 :]))
        # The turn is not over: wait for this seat's pick.
        return effects.set_pending(state, PICK, seat)
    if isinstance(action, PickFaceUp):
        if state.pending is None or state.pending.kind != PICK:
            raise IllegalAction(f"{NAME}.not_now", "no card swap is waiting for its pick")
        # take_face_up checks the slot (core reasons bad_slot / empty_slot),
        # refills it and enforces the wild limit, as the core's draw does.
        state = effects.take_face_up(state, seat, action.slot)
        return effects.end_turn(state)
    if isinstance(action, PayExtra | GiveUp):
        claim = waiting_bridge(state)
        if claim is None:
            raise IllegalAction(f"{NAME}.not_now", "no bridge claim is waiting for its extra card")
        if isinstance(action, GiveUp):
            return effects.cancel_claim(state, claim)  # the turn ends, the route stays free
        if action.card not in extra_cards(state, claim):
            raise IllegalAction(
                f"{NAME}.no_extra_card",
                f"the bridge is paid one more of {', '.join(extra_cards(state, claim))}, "
                f"not {action.card!r}",
            )
        # The core's bookkeeping of the claim, plus the extra card; the turn ends.
        return effects.complete_claim(state, claim, {action.card: 1})
    return None


# ---------------------------------------------------------------------------
# The filter: no length-1 route claimed with a wild alone, no bridge unpaid
# ---------------------------------------------------------------------------


@hookimpl
def ttr_filter_actions(state: GameState, actions: Sequence[Action]) -> Sequence[Action] | None:
    """Remove the claims paying a length-1 route with a lone wild, and the claims
    of a bridge by a seat holding no card to pay it one more.

    ``apply`` then refuses such a claim (reason ``vetoed_by_variant``).
    Returns ``None`` (keep everything) when there is nothing to remove.
    """
    routes = state.board.routes
    kept = [
        action
        for action in actions
        if not (
            isinstance(action, ClaimRoute)
            and (
                (action.color is None and routes[action.route].length == 1)
                or (is_bridge(routes[action.route]) and not extra_cards(state, action))
            )
        )
    ]
    return None if len(kept) == len(actions) else kept


# ---------------------------------------------------------------------------
# Bridges: a claim that waits for the seat's extra card
# ---------------------------------------------------------------------------


def is_bridge(route: Route) -> bool:
    """Whether the map marks ``route`` ``bridge = true`` (a field the map declares)."""
    return route.extra.get("bridge") is True


def extra_cards(state: GameState, claim: ClaimRoute) -> list[str]:
    """The cards ``claim``'s seat may pay one more of for a bridge: the colour it
    pays with, or a wild, when its hand holds one beyond what the claim pays.

    The one statement of the rule: the filter keeps a bridge claim only when
    this is not empty, the decision lists a :class:`PayExtra` for each card,
    and :func:`ttr_apply_action` refuses any other.
    """
    length = state.board.routes[claim.route].length
    paid = {} if claim.color is None else {claim.color: length - claim.wilds}
    paid[WILD] = claim.wilds
    hand = state.players[claim.player].hand
    return [card for card, count in paid.items() if hand[card] > count]


def waiting_bridge(state: GameState) -> ClaimRoute | None:
    """The bridge claim waiting for its seat's decision, or ``None``."""
    pending = state.pending
    if pending is None or pending.kind != BRIDGE or not isinstance(pending.data, ClaimRoute):
        return None
    return pending.data


@hookimpl
def ttr_before_claim(state: GameState, action: ClaimRoute) -> GameState | None:
    """A claim of a bridge waits for its seat's decision (the claim in the decision's
    data); any other claim goes through. Nothing is claimed or paid yet: the
    claim's cards are shown (``effects.show_cards``)."""
    if not is_bridge(state.board.routes[action.route]):
        return None
    # The claim's cards are on the table while the seat decides: every player
    # sees them (and a state dealt from another seat's view deals them to it).
    state = effects.show_cards(state, action.player, effects.claim_cards(state, action))
    return effects.set_pending(state, BRIDGE, action.player, data=action)


# ---------------------------------------------------------------------------
# Open bridges: a connectivity rule for tickets
# ---------------------------------------------------------------------------


@hookimpl
def ttr_ticket_connections(state: GameState, seat: int) -> list[int]:
    """The routes besides its own that ``seat``'s tickets may use: every bridge
    another seat built. Owners are public, so every view, and every bot, agrees."""
    return [
        route.id
        for route in state.board.routes
        if is_bridge(route) and state.owner(route.id) not in (None, seat)
    ]


# ---------------------------------------------------------------------------
# Words and advice: replays, ``describe`` and the bots
# ---------------------------------------------------------------------------


@hookimpl
def ttr_describe_action(state: GameState, action: Action) -> str | None:
    """The variant's actions in words, after "Seat 1" (all of them public); ``state``
    is the state before the action, in which it is legal."""
    board = state.board
    # Hands name the wild card "wild"; the map may print it otherwise ("joker").
    words = dict(zip(board.card_names, (*board.colors, board.wild_name), strict=True))
    if isinstance(action, SwapCards):
        return f"swapped {SWAP_DISCARD} {action.color} cards"
    if isinstance(action, PickFaceUp):
        card = state.display[action.slot]
        return f"took the face-up {'?' if card is None else words[board.card_names[card]]} card"
    claim = waiting_bridge(state)
    if claim is None:
        return None
    route = board.routes[claim.route]
    if isinstance(action, PayExtra):
        return f"paid one {words[action.card]} card more for the bridge {route.a}–{route.b}"
    if isinstance(action, GiveUp):
        return f"gave up the bridge {route.a}–{route.b}"
    return None


@hookimpl
def ttr_agent_action_purpose(view: PlayerView, action: Action) -> ClaimsRoute | None:
    """Tell the bots that paying the extra card claims the bridge waiting (a wild
    weighs as a wild spent); they then pay rather than give up."""
    shown = view.variants[f"{NAME}.bridge"]
    if isinstance(action, PayExtra) and shown is not None:
        return ClaimsRoute(ClaimRoute(*shown).route, wilds=int(action.card == WILD))
    return None


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------


@hookimpl
def ttr_score_lines(state: GameState) -> Sequence[Sequence[ScoreLine]]:
    """One line per seat: the ``unused_bonus`` option's points if it never swapped."""
    bonus = state.rules.option(NAME, "unused_bonus")
    return [
        [
            ScoreLine(NAME, "Card swap used", 0)
            if used
            else ScoreLine(NAME, "Card swap never used", bonus)
        ]
        for used in swaps_used(state)
    ]


@hookimpl
def ttr_check_state(state: GameState) -> list[str]:
    """The variant's invariant, checked on states read from saves: one flag per seat."""
    used = state.variant(NAME)
    if not isinstance(used, tuple) or len(used) != state.num_players:
        return [f"{NAME}: expected one swap flag per seat"]
    return []


# ---------------------------------------------------------------------------
# Words for people (ttr play, ttr serve)
# ---------------------------------------------------------------------------


@hookimpl
def ttr_move_words(view: PlayerView, action: Action) -> MoveWords | None:
    """The variant's moves for the person choosing, from their view alone."""
    board = view.board
    if isinstance(action, SwapCards):
        return MoveWords(
            f"Swap {SWAP_DISCARD} {action.color} cards for a face-up card",
            "Swap cards (once a game)",
            choice=action.color,
            command="swap",
        )
    if isinstance(action, PickFaceUp):
        card = view.display[action.slot]
        shown = "empty slot" if card is None else (board.wild_name if card == WILD else card)
        return MoveWords(f"Take the face-up {shown}", "Take a face-up card for your swap")
    bridge = view.variants.get(f"{NAME}.bridge")
    route = None if bridge is None else board.routes[bridge[1]]
    where = "" if route is None else f" {route.a}–{route.b}"
    if isinstance(action, PayExtra):
        card = board.wild_name if action.card == WILD else action.card
        return MoveWords(
            f"Pay 1 {card} more and claim the bridge{where}",
            "The bridge's extra card",
            route=None if route is None else route.id,
            choice=f"pay 1 {card}",
            command="pay",
        )
    if isinstance(action, GiveUp):
        return MoveWords(f"Give up the bridge{where}", "The bridge's extra card", command="g")
    return None


@hookimpl
def ttr_view_words(view: PlayerView) -> list[str]:
    """Who has used the swap."""
    used = view.variants[f"{NAME}.used"]
    told = ", ".join(
        f"{player_name(seat, view.viewer)} {'used' if done else 'not used'}"
        for seat, done in enumerate(used)
    )
    return [f"Swap: {told}"]
