"""Hook specifications: every point where a variant plugin extends the core.

A plugin is any object (usually a module) with functions decorated by
:data:`hookimpl` whose names match the specs below. It is registered under a
*variant name* through the ``ttr_core.plugins`` entry-point group::

    [project.entry-points."ttr_core.plugins"]
    myvariant = "my_package.my_plugin"

A game switches variants on by name; only the plugins of the variants switched
on take part in that game. Each game resolves its plugins once into a
:class:`ttr_core.model.gamerules.GameRules`: a hook no plugin implements costs
nothing per move.

Every hook is called directly from the resolved rule set (not through
pluggy's caller, for speed), in the order of the game's variant list; an
implementation takes no ``wrapper``/``tryfirst``/``trylast`` marker. Three
kinds of hook:

* **collecting** hooks return a value (or ``None`` to abstain); the core
  gathers every result;
* **first-result** hooks stop at the first plugin that returns something
  other than ``None``;
* **chained** hooks take a value (a state, a list of actions, a set of
  seats) and return a new one (or ``None`` for "no change"); each plugin
  receives what the previous one returned.

Results are checked: a result of the wrong shape, or an exception other than
a :class:`ttr_core.TtrError` escaping a hook, raises
:class:`ttr_core.PluginError` naming the variant and the hook. Checks that
would cost time on every move run only in strict mode
(:func:`ttr_core.set_strict`); ``docs/hooks.md`` says which.

Variant state: a plugin keeps its own frozen data in the game state under
keys prefixed with its variant name (``"tolls"``, ``"tolls.bank"``); read it
with ``state.variant(key)`` and write it with ``state.with_variant(key,
value)``. Values must be immutable and hashable (frozen attrs classes,
tuples, ints ...).

Hooks receive states and must return new states: nothing may be mutated.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pluggy

from ttr_core.model.actions import Action
from ttr_core.model.board import Board, Ticket
from ttr_core.model.declarations import (
    ActionPurpose,
    ActionTemplate,
    MapField,
    MoveWords,
    NativeRule,
    NonSeatOwner,
    RouteStyle,
    TicketEnds,
    Token,
    VariantOption,
)
from ttr_core.model.gamerules import GameRules
from ttr_core.model.scores import ScoreLine, ScoreSheet
from ttr_core.model.state import GameState
from ttr_core.model.views import PlayerView

#: Project name shared by the markers and the plugin manager.
PROJECT = "ttr_core"


#: Entry-point group through which plugins (built-in and third-party) register.
ENTRY_POINT_GROUP = "ttr_core.plugins"


hookspec = pluggy.HookspecMarker(PROJECT)


#: Decorate a plugin's hook implementations with this marker.
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def ttr_map_fields() -> Sequence[MapField]:
    """Declare the variant fields this plugin reads from map files.

    Called over *every installed* plugin (not only those a game switches on)
    each time a map file is parsed, so that any map can be loaded and checked.
    Two plugins may not declare the same field. A key in a
    map entry that no plugin declares is reported as an unknown field.

    :return: the fields; their values are type-checked by the loader and
        stored in the entry's ``extra`` mapping.
    """
    raise NotImplementedError


@hookspec
def ttr_validate_map(board: Board) -> Iterable[str] | None:
    """Check the plugin's fields across a whole map.

    Called over every installed plugin after the core checks pass. Return one
    message per problem (each is reported with the map's file name); return
    nothing when the map is fine. Any iterable of strings will do (a list, a
    generator); a result that is not one leaves the plugin out from then on,
    with a :class:`ttr_core.TtrWarning` at the load that found it.

    :param board: the loaded board.
    """
    raise NotImplementedError


@hookspec
def ttr_options() -> Sequence[VariantOption]:
    """Declare the variant's options: names, types, defaults and docs.

    Called once per plugin when it is found (entry point) or registered.
    A game gives values with ``new_game(..., options={variant: {name:
    value}})``; they are checked against these declarations, part of the
    game's identity (``state.rules``), and read by the plugin with
    ``state.rules.option(variant, name)``.

    :return: the options; names must be unique within the variant and each
        default must be a valid value.
    """
    raise NotImplementedError


@hookspec
def ttr_check_game(board: Board, players: int, variants: Sequence[str]) -> str | None:
    """Refuse a game configuration the variant cannot be played with.

    Called once per configuration, when ``new_game`` resolves the game's rule
    set, before anything is set up. Return a sentence saying why the variant
    cannot be played this way (``"the neutral player is used only with 2
    players, not 3"``), or ``None``. ``new_game`` raises
    :class:`ttr_core.GameConfigError` with that sentence.

    :param players: the player count (already within the map's range).
    :param variants: every variant of the game, in order.
    """
    raise NotImplementedError


@hookspec(firstresult=True)
def ttr_both_pair_routes_usable(board: Board, players: int) -> bool | None:
    """Override the map's double-route policy for this game.

    The core makes both routes of a double pair usable when ``players`` is at
    least ``board.rules.both_pair_routes_min_players``. A plugin returning
    ``True`` opens both routes at any player count, ``False`` closes the
    second route at any count; ``None`` abstains. A player may never own both
    routes of a pair, whatever this hook says.

    First result wins; resolved once per game, so it costs nothing per move.
    """
    raise NotImplementedError


@hookspec
def ttr_setup(state: GameState) -> GameState | None:
    """Chained: prepare the plugin's variant state for a new game.

    ``state`` is the core's set-up state (cards dealt, display laid, starting
    tickets offered). Return it with the plugin's variant keys set
    (``state.with_variant(...)``), or ``None`` if the plugin keeps no state.
    """
    raise NotImplementedError


@hookspec(firstresult=True)
def ttr_deal_tickets(state: GameState, seat: int, count: int, start: bool) -> Sequence[int] | None:
    """Choose the tickets dealt to ``seat``: ``count`` ids from ``state.ticket_deck``.

    Asked for each seat's starting deal (``start`` true, in seat order, in
    ``new_game`` before ``ttr_setup``: ``state.ticket_deck`` then holds the
    shuffled tickets not yet dealt) and for each ``DrawTickets`` (``start``
    false, after an empty ticket deck was refilled). Return exactly
    ``min(count, len(state.ticket_deck))`` distinct ids of the ticket deck
    (e.g. one ticket whose map field ``long`` is true and three others), in
    the order offered, or ``None`` for the core's deal (the top of the deck).
    The others keep their order. First result wins; never asked when no
    variant of the game implements it. Draws a plugin makes itself
    (``effects.draw_tickets``) are not asked.
    """
    raise NotImplementedError


@hookspec
def ttr_native_rules(rules: GameRules) -> Sequence[NativeRule] | None:
    """This variant's whole effect on play and scoring in the compiled engine's
    terms (:class:`ttr_core.NativeRule`), for the game ``rules`` (its options
    read there), or ``None`` when it has none: the game then runs on the
    Python kernel.

    Asked once per game configuration when a :class:`ttr_core.Playout` is
    made. A variant that changes play or scoring through any other hook
    (filters, vetoes, its own actions, after-claim decisions, between turns,
    at the game's end, score lines, tie-breaks, ticket connections, deals,
    owners that are no seat) and does not answer here keeps its games on the
    Python kernel. An answer is a promise that the rules declared are all it
    does there: the kit's ``native_agrees`` invariant (``ttr verify``) plays
    each game on both engines and fails where they differ. Words, views,
    pictures and the bots' advice need no declaration.
    """
    raise NotImplementedError


@hookspec
def ttr_filter_actions(state: GameState, actions: Sequence[Action]) -> Sequence[Action] | None:
    """Chained: narrow the core's candidate actions of ``state``, once per state.

    Called by ``legal_actions`` with the core's candidates (before ``Pass``
    and variant actions are added); each plugin receives what the previous
    one kept. ``apply`` refuses an action a filter removed (reason
    ``vetoed_by_variant``). Cheaper than :func:`ttr_veto_action`, which is
    asked once per action.

    :param actions: the candidates; do not mutate.
    :return: the actions to keep (a subset of ``actions``, in any order), or
        ``None`` to keep them all.
    """
    raise NotImplementedError


@hookspec
def ttr_veto_action(state: GameState, action: Action) -> str | None:
    """Forbid an action the core would allow.

    Called for every core-legal action while listing legal actions, and by
    ``apply`` for an action the core allows. Return a sentence saying why the
    action is forbidden, or ``None`` to abstain. Any veto forbids the action
    (``apply`` refuses it with reason ``vetoed_by_variant``). ``Pass`` cannot
    be vetoed; a decision other than a turn left with no action at all raises
    :class:`ttr_core.PluginError`.
    """
    raise NotImplementedError


@hookspec
def ttr_extra_actions(state: GameState) -> Sequence[Action] | None:
    """Add variant actions to the legal actions of ``state``.

    Return the variant's own actions (classes the core does not know) that are
    legal now; the core appends them to its list. Every action returned here
    must be accepted by :func:`ttr_apply_action`. When the state's pending
    decision belongs to the plugin (``state.pending.kind`` is a string the
    plugin owns), these are the only legal actions.
    """
    raise NotImplementedError


@hookspec(firstresult=True)
def ttr_apply_action(state: GameState, action: Action) -> GameState | None:
    """Apply a variant action; return ``None`` if the action is not this plugin's.

    Raise :class:`ttr_core.IllegalAction` for an action of the plugin's that
    is not legal in ``state``. First result wins.
    """
    raise NotImplementedError


@hookspec
def ttr_action_types() -> Mapping[str, type[Action]] | None:
    """Declare the variant's own action classes with their stable JSON tags.

    Called once per plugin when it is found or registered. Saves, game
    records and action messages name an action by its tag, never by a
    Python class path, so a tag must not change between versions. Each tag
    is the variant name or starts with it and a dot (``"swap.pick"``); each
    class is a frozen attrs subclass of :class:`ttr_core.Action` whose fields
    are ints, strings, bools, ``None`` or tuples/frozensets of those.

    :return: a mapping tag → action class, or ``None``.
    """
    raise NotImplementedError


@hookspec
def ttr_action_space(
    board: Board, players: int, rules: GameRules
) -> Sequence[ActionTemplate] | None:
    """Declare the variant's actions that get action ids (:mod:`ttr_core.rules.action_ids`).

    Collecting: called once per game configuration, when its action space is
    first built, with the game's rule set (``rules.option(...)`` reads an
    option). Return the variant's :class:`ActionTemplate` s in a fixed order:
    their ids follow the core's, variant after variant in the game's
    variant order, template after template, so they are dense and the same
    for every game of the configuration. Every action the variant lists in
    :func:`ttr_extra_actions` must be one of these. OpenSpiel and PettingZoo
    refuse a game with a variant that adds actions and implements no
    ``ttr_action_space``.

    :return: the templates, or ``None`` (no action of the variant has an id).
    """
    raise NotImplementedError


@hookspec
def ttr_variant_state_types() -> Mapping[str, Any] | None:
    """Declare the types of the variant's state, so that saves can hold it.

    Called once per plugin when it is found or registered. Maps each variant
    state key the plugin stores (``"tolls"``), and each of its own decision
    kinds whose ``Pending.data`` is not ``None`` (``"neutral.choose"``), to
    its type: a frozen attrs class, or a type such as ``tuple[bool, ...]``;
    the library's converter
    (``ttr_core.data.messages``) writes and reads values of that type, checking
    every field. A game whose variant state has a key no plugin declares
    cannot be saved.

    :return: a mapping key → type, or ``None``.
    """
    raise NotImplementedError


@hookspec
def ttr_view_types(board: Board, players: int) -> Mapping[str, Any] | None:
    """Declare the types of what the plugin shows in player views, so that a view
    read from JSON is checked.

    Called when ``ttr_core.from_json`` reads a :class:`ttr_core.PlayerView`
    of a game with the variant, with that game's board and player count.
    Maps each key the plugin's :func:`ttr_player_view` shows to its type, as
    :func:`ttr_variant_state_types` does; a value with one entry per seat is
    a tuple of that length (``tuple[int, int, int]`` for 3 players). A view
    read must show exactly these keys, each of its type, or it is refused
    with :class:`ttr_core.DataError` naming the key
    (``variants.tolls.loans``). Without this hook, the plugin's keys are read
    as any JSON value.

    :return: a mapping view key → type, or ``None``.
    """
    raise NotImplementedError


@hookspec
def ttr_before_claim(state: GameState, action: Action) -> GameState | None:
    """First result: make a legal claim wait for a decision of the claiming seat.

    Asked by ``apply`` for a ``ClaimRoute`` the core allows (the claim
    pipeline; never asked when no plugin implements it). Return ``None`` to
    let the claim go through, or a state (built from ``state`` with effects:
    cards revealed, ``set_pending``) that waits for a decision of the
    claiming seat of the variant's own kind, the claim in its data, nothing
    claimed yet. The variant's actions later finish the claim with
    ``effects.complete_claim`` or ``effects.cancel_claim``.

    :param action: the claim, a ``ClaimRoute`` that passed the core's checks.
    :return: the waiting state, or ``None``.
    """
    raise NotImplementedError


@hookspec
def ttr_after_claim(state: GameState, player: int, route: int) -> GameState | None:
    """Chained: effects of a claim (pay a toll, draw a merchandise card).

    Called after the route is recorded, its cards paid, its cars placed and
    its points scored, before the end of the turn is processed.

    :param player: the seat that claimed.
    :param route: the id of the claimed route.
    :return: the new state, or ``None`` for no change.
    """
    raise NotImplementedError


@hookspec
def ttr_between_turns(state: GameState) -> GameState | None:
    """Chained: something that happens after a turn ends and before the next.

    ``state.current_player`` is already the next player. Not called once the
    game is over. Return the new state, or ``None`` for no change.
    """
    raise NotImplementedError


@hookspec
def ttr_game_over(state: GameState) -> GameState | None:
    """Chained: the game has just ended (``state.termination`` is set).

    Called once, after the turn that ended the game, for a variant to settle
    its state (reveal something, compute a final tally). The state must stay
    over. Return the new state, or ``None`` for no change.
    """
    raise NotImplementedError


@hookspec
def ttr_check_state(state: GameState) -> Iterable[str] | None:
    """Problems with the variant's own state in ``state``: its invariants.

    Called on every state read from a save (``ttr_core.from_json``), where
    the input is untrusted, and by verification tools. Return one sentence
    per broken invariant, naming the variant state key (``"tolls: holdings
    has 2 entries for 3 seats"``), or nothing when all hold (any iterable of
    strings: a list, a generator). The core checks its own invariants
    (cards, tickets, routes, cars, scores) itself; invariants across a step
    belong in :func:`ttr_check_transition`.
    """
    raise NotImplementedError


@hookspec
def ttr_check_transition(
    before: GameState, action: Action, after: GameState
) -> Iterable[str] | None:
    """Problems with one step of a game: the variant's invariants across an action.

    A rule that links two states ("the surcharge paid equals the revealed
    cards that match") cannot be seen in one state. Called by verification
    tools only — ``ttr verify``, the kit's :func:`~ttr_core.testing.check_rules`
    and state machine, ``check_transition`` — after every action they apply,
    as the invariant ``"<variant>.check_transition"``; never by ``apply``, so
    it costs nothing in play.

    :param before: the state the action was applied to.
    :param action: the action applied (a core action or any variant's).
    :param after: ``apply(before, action)``.
    :return: one sentence per broken invariant, or nothing when all hold
        (any iterable of strings: a list, a generator).
    """
    raise NotImplementedError


@hookspec
def ttr_score_lines(state: GameState) -> Sequence[Sequence[ScoreLine]] | None:
    """Final-scoring lines of the plugin, one sequence per seat.

    Called each time score sheets are counted (``final_scores`` and the
    provisional ``score_sheets``), after the core's route and ticket lines.
    Lines appear in each score sheet in plugin order. Return ``None`` to add
    nothing.
    """
    raise NotImplementedError


@hookspec
def ttr_ticket_connections(state: GameState, seat: int) -> Iterable[int] | None:
    """Collecting: routes ``seat`` may use to join its tickets' ends besides its own.

    The core's one ticket check (``ttr_core.rules.scoring.completed_tickets``, and so
    score sheets, their completed/failed counts, the core's tie-break,
    ``ttr simulate`` and the SVG panel) joins a ticket's ends through the
    seat's own routes and the routes every variant names here (a station
    lets its owner use one route of another player into its city). Return
    route ids of the board (any iterable, at most one per route), or
    ``None``. The result for ``seat`` must follow from what ``seat``'s view
    shows (``ttr_player_view``, rebuilt by ``ttr_determinize``): the bots
    compute it on a state dealt from their view.
    """
    raise NotImplementedError


@hookspec(firstresult=True)
def ttr_ticket_ends(board: Board, ticket: Ticket) -> TicketEnds | None:
    """First result: what completes ``ticket`` and what it is worth, if the
    variant decides it (a ticket whose ends its own fields or map tables
    give); ``None`` leaves it to the map (``a``, ``b`` and ``points``; the
    map's regions and tickets with several destinations).

    The core's one ticket check (:func:`ttr_core.ticket_outcomes`: score
    sheets, their completed/failed counts, the core's tie-break, ``ttr
    simulate``, the SVG panel, the bots' plans) reads every ticket through
    it. Asked once per ticket and game configuration: the answer must follow
    from the board alone. Return a :class:`ttr_core.TicketEnds` whose
    location ids are the board's, with at least one goal.
    """
    raise NotImplementedError


@hookspec
def ttr_tie_break(
    state: GameState, sheets: Sequence[ScoreSheet], tied: Sequence[int]
) -> Sequence[int] | None:
    """Chained: break a tie for first place that the core's rule left.

    Called by ``final_scores`` only when several seats share the highest
    total *and* the most completed tickets. Each plugin receives the seats
    still tied after the previous one.

    :param sheets: every seat's score sheet.
    :param tied: the seats still tied, in seat order.
    :return: the seats that stay winners (a non-empty subset of ``tied``), or
        ``None`` to leave the tie as it is.
    """
    raise NotImplementedError


@hookspec
def ttr_non_seat_owners(state: GameState) -> Sequence[NonSeatOwner] | None:
    """The owners of routes that are not seats, that the plugin plays (a neutral player).

    A plugin that claims routes for an owner numbered ``num_players`` or more
    (``effects.claim_route``) names it here, with the cars it has left, so
    that player views, final scores and the ``ttr`` command show it. Each
    owner number must be declared once in a game. Return ``None`` when the
    plugin has none.
    """
    raise NotImplementedError


@hookspec
def ttr_determinize(state: GameState, view: PlayerView, rng: random.Random) -> GameState | None:
    """Chained: rebuild the variant's state from one seat's view, hidden parts at random.

    Called by :func:`ttr_core.determinize`, which builds a full state that
    agrees with a seat's view, for information-set search: cards and tickets
    the seat cannot see are dealt at random. ``state`` is that state so far,
    without the plugin's variant state; ``view.variants`` is what the plugin
    showed the seat (``ttr_player_view``). Return ``state`` with the
    plugin's variant state set: public parts as the view shows them, hidden
    parts (another seat's toll holdings) drawn from ``rng`` so that they agree
    with everything the view shows. A variant that keeps state must implement
    this hook for its games to be determinized.
    """
    raise NotImplementedError


@hookspec
def ttr_player_view(state: GameState, player: int) -> Mapping[str, Any] | None:
    """What ``player`` may see of the plugin's variant state.

    Variant state is hidden from player views unless a plugin shows it here.
    Return a mapping of keys (prefixed with the variant name) to values safe
    for that player to see, or ``None``.
    """
    raise NotImplementedError


@hookspec
def ttr_describe_action(
    state: GameState, action: Action, after: GameState, full: bool
) -> str | None:
    """The plugin's own ``action`` in words, for :func:`ttr_core.describe` and ``ttr replay``.

    ``state`` is the state before the action and ``after`` the state after
    it. Return what the acting seat did, as a predicate that follows "Seat
    1" ("chose the route Amsterdam–Utrecht for the neutral player"), or
    ``None`` for an action that is not the plugin's. When ``full`` is false
    the sentence is for another seat: say only what that seat's view shows.
    The first variant (in game order) to answer is used; an action no
    variant names is shown by its class (and, when ``full``, its fields).
    """
    raise NotImplementedError


@hookspec
def ttr_describe_effects(
    state: GameState, action: Action, after: GameState, full: bool
) -> Sequence[str] | None:
    """Collecting: what the plugin did as a consequence of ``action`` (any action,
    the core's claims included), in words for :func:`ttr_core.describe`, which
    adds them to the action's line after a semicolon ("paid a toll of 3 to Seat
    1", "drew a merchandise card").

    ``state`` is the state before the action and ``after`` the state after it.
    Name seats as describe does ("Seat 1", counted from 0: the front ends say
    "Player 2"). When ``full`` is false the words are for another seat: say
    only what its view shows. Return short lines (at most 20, each at most 200
    characters), or ``None``.
    """
    raise NotImplementedError


@hookspec
def ttr_move_words(view: PlayerView, action: Action) -> MoveWords | None:
    """The plugin's own legal ``action`` in words, for the person about to choose
    it (``ttr play``'s menu, ``ttr serve``'s buttons; :func:`ttr_core.move_words`).

    ``view`` is the deciding seat's view (the action is one of its legal
    actions): use only what it shows. Return a :class:`MoveWords` — the move
    in the imperative ("Build a station in Berlin with 1 red"), its group,
    the place or route it is about (so that front ends let people click a
    city, then pick), the short words telling it apart and the terminal's
    command word — or ``None`` for an action that is not the plugin's. The
    first variant (in game order) to answer is used; an action no variant
    names is worded from its class and its whole-number and text fields.
    """
    raise NotImplementedError


@hookspec
def ttr_move_notes(view: PlayerView, action: Action) -> Sequence[str] | None:
    """Collecting: what a person should know of a legal ``action`` before
    choosing it, that the move's words do not say — a ferry's locomotives, a
    tunnel's risk, a toll's cost and who is paid, the shares a claim offers.

    Asked for every legal action, the core's claims included, with the
    deciding seat's ``view``: use only what it shows. Return short lines of
    words (at most 200 characters each), or ``None``.
    """
    raise NotImplementedError


@hookspec
def ttr_view_words(view: PlayerView) -> Sequence[str] | None:
    """Collecting: the plugin's part of ``view`` in words, for the person who
    sees it (``ttr play``'s screen, ``ttr serve``'s page;
    :func:`ttr_core.view_words`): the stations each seat has left and where,
    the tunnel waiting and its turned-up cards, the money held.

    Return short lines of words (at most 200 characters each, at most 20
    lines), or ``None``. Front ends show these lines, never ``view.variants``
    itself: a variant that does not answer shows nothing there.
    """
    raise NotImplementedError


@hookspec
def ttr_tokens(game: GameState | PlayerView) -> Sequence[Token] | None:
    """The plugin's tokens on the board (stations), for pictures.

    ``game`` is a state, or a seat's view (read the plugin's public keys in
    ``view.variants`` then). Tokens are public: return the same ones from a
    state and from any seat's view of it, or ``None`` for none. Drawn by
    :func:`ttr_core.render.svg` at their locations in their owner's colour,
    one legend entry per kind.
    """
    raise NotImplementedError


@hookspec
def ttr_route_styles(board: Board, rules: GameRules) -> Iterable[RouteStyle] | None:
    """How the plugin's routes are drawn (tunnels outlined, ferries with
    locomotive marks), for pictures.

    Collecting: called once per picture by :func:`ttr_core.render.svg`, never
    by the engine, with the game's board and rule set (``rules.option(...)``
    reads an option). Return a :class:`RouteStyle` per route the variant
    draws its own way, or ``None`` for none. Styles are public and depend on
    the board and the options, not on the play: a state and every seat's
    view draw the same.
    """
    raise NotImplementedError


@hookspec
def ttr_agent_action_purpose(view: PlayerView, action: Action) -> ActionPurpose | None:
    """First-result: advice for bots, never called by the engine.

    What ``action``, one of the variant's own legal actions for the seat of
    ``view``, is for, in the terms the heuristic agents of
    :mod:`ttr_core.agents` reason with: :class:`ClaimsRoute` (a tunnel
    attempt), :class:`BuildsToken` (a station) or :class:`ClosesRoute` (a
    route given to the neutral player); ``None`` when the plugin does not
    know the action or it is none of these (the bots then fall back to a
    legal action of their choice). Called only for actions that are not the
    core's, and only in games where a variant implements it. Use only what
    ``view`` shows.
    """
    raise NotImplementedError


@hookspec
def ttr_agent_route_costs(view: PlayerView) -> Sequence[float] | None:
    """Collecting: advice for bots, never called by the engine.

    For each route of the board (in route id order), what claiming it now
    would cost the seat of ``view`` beyond what its score sheet shows at once,
    in points (negative for a gain): toll value spent, the price of a loan, a
    bonus card won. The heuristic agents of :mod:`ttr_core.agents` add up the
    advice of a game's variants and weigh routes by it; a variant whose
    effects its score lines show at once needs no advice. Return one finite
    number per route, or ``None``. Use only what ``view`` shows (a bot must
    not see hidden information).
    """
    raise NotImplementedError
