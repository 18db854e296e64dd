"""The invariant registry behind ``ttr_core.testing`` and ``ttr verify``.

An invariant is a named check that must hold in every game, whatever the
map, the variants and the choices made. It returns (or yields) one sentence
per problem found, and nothing when it holds. Three kinds:

* ``"state"`` invariants look at one state: ``check(state)``;
* ``"transition"`` invariants at one step: ``check(before, action, after)``;
* ``"game"`` invariants at a whole game played so far: ``check(play)``, a
  :class:`GamePlay`.

The core's invariants are registered here; a plugin adds its own through
the hook ``ttr_check_state`` (they appear as ``"<variant>.check_state"``);
an author adds more in Python with :func:`invariant` or
:func:`register_invariant`. Nothing here needs hypothesis: ``ttr verify``
uses it with plain seeded random games. The public names are re-exported
by ``ttr_core.testing`` (see ``docs/testing.md``).
"""

from __future__ import annotations

import difflib
import itertools
import random
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal, cast

import attrs

from ttr_core.data.messages import to_json
from ttr_core.data.records import GameRecord, record_of, replay
from ttr_core.errors import ArgumentError, IllegalAction, TtrError, show
from ttr_core.hooks import checks as hookcheck
from ttr_core.hooks.manager import installed_plugins
from ttr_core.model.actions import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
)
from ttr_core.model.board import Board
from ttr_core.model.gamerules import GameRules
from ttr_core.model.state import (
    UNCLAIMED,
    GameState,
    Hand,
    Pending,
    PendingKind,
    PlayerState,
    Termination,
    cards_outside_hands,
)
from ttr_core.rules.consistency import car_accounting, display_rules, route_ownership
from ttr_core.rules.engine import apply, legal_actions
from ttr_core.rules.scoring import final_scores, score_sheets
from ttr_core.rules.setup import new_game
from ttr_core.rules.views import player_view
from ttr_core.search.playout import Playout

__all__ = [
    "CORE_INVARIANTS",
    "LISTED_SAMPLE",
    "GamePlay",
    "Invariant",
    "Kind",
    "Violation",
    "action_bound",
    "check_game",
    "check_state",
    "check_transition",
    "chosen_names",
    "hidden_changes",
    "illegal_candidates",
    "invariant",
    "invariant_names",
    "invariants_for",
    "mutants_of",
    "reachable",
    "record_text",
    "register_invariant",
    "registered_invariants",
    "run_check",
    "unknown_invariant",
    "unregister_invariant",
]


Kind = Literal["state", "transition", "game"]


_KINDS = ("state", "transition", "game")


@attrs.frozen
class Invariant:
    """A named check over states, steps or whole games.

    ``check`` returns an iterable of problem sentences (or ``None``) and takes
    ``(state)``, ``(before, action, after)`` or ``(play)`` as ``kind`` says.
    ``variants`` limits it to games that play all of those variants (empty:
    every game). ``every`` checks a costly state or transition invariant on
    every ``every``-th step only (and always on a game's last state).
    """

    name: str
    kind: Kind
    check: Callable[..., Iterable[str] | None] = attrs.field(eq=False, repr=False)
    doc: str = ""
    variants: frozenset[str] = frozenset()
    every: int = 1

    def applies(self, rules: GameRules) -> bool:
        """Whether this invariant is checked in games of ``rules``."""
        return self.variants <= set(rules.variants)


@attrs.frozen
class Violation:
    """One broken invariant: its name, what is wrong, and after how many actions.

    ``step`` counts the actions applied since ``new_game`` (0: the state
    ``new_game`` returned).
    """

    invariant: str
    message: str
    step: int

    def __str__(self) -> str:
        return f"{self.invariant}: {self.message} (after {self.step} actions)"


@attrs.frozen(repr=False)
class GamePlay:
    """A game played so far: every state from ``new_game`` on and the actions between.

    ``states[i + 1]`` is ``apply(states[i], actions[i])``; ``options`` are the
    options the game was set up with.
    """

    states: tuple[GameState, ...]
    actions: tuple[Action, ...]
    options: Mapping[str, Mapping[str, Any]] = attrs.field(factory=dict)
    #: The most actions the game may take (``None``: :func:`action_bound`).
    max_actions: int | None = None

    @property
    def state(self) -> GameState:
        """The last state."""
        return self.states[-1]

    def __repr__(self) -> str:
        first = self.states[0]
        return (
            f"GamePlay({first.board.id!r}, {first.num_players} players, variants "
            f"{list(first.rules.variants)}, seed {first.seed}, {len(self.actions)} actions)"
        )

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """The short repr, also in hypothesis' reports (``.record`` has the whole game)."""
        printer.text(repr(self))

    @property
    def record(self) -> GameRecord:
        """The game's record (``ttr_core.to_json`` writes it, ``ttr_core.replay`` replays it)."""
        return record_of(self.states[0], self.actions, self.options)


#: Replaced, never changed in place (copy on write, under the lock): a check
#: running in another thread looks over the registry it read.
_REGISTRY: dict[str, Invariant] = {}


_REGISTRY_LOCK = threading.Lock()


def register_invariant(inv: Invariant) -> Invariant:
    """Add ``inv`` to the registry (replacing any invariant of the same name)."""
    if inv.kind not in _KINDS:
        raise ValueError(f"an invariant's kind is one of {', '.join(_KINDS)}, not {inv.kind!r}")
    if inv.every < 1:
        raise ValueError(f"an invariant's 'every' is at least 1, not {inv.every}")
    global _REGISTRY
    with _REGISTRY_LOCK:
        _REGISTRY = {**_REGISTRY, inv.name: inv}
    return inv


def unregister_invariant(name: str) -> None:
    """Remove the invariant called ``name`` from the registry (``KeyError`` if absent)."""
    global _REGISTRY
    with _REGISTRY_LOCK:
        if name not in _REGISTRY:
            raise KeyError(name)
        _REGISTRY = {key: inv for key, inv in _REGISTRY.items() if key != name}


def invariant(
    name: str | None = None,
    *,
    kind: Kind = "state",
    variants: Iterable[str] = (),
    every: int = 1,
) -> Callable[[Callable[..., Iterable[str] | None]], Callable[..., Iterable[str] | None]]:
    """Register the decorated function as an invariant (named after it by default).

    The function returns or yields one sentence per problem::

        @ttr_core.testing.invariant(variants=["swap"])
        def swap_flags_are_per_seat(state):
            if len(state.variant("swap")) != state.num_players:
                yield "one swap flag per seat"
    """

    def register(
        function: Callable[..., Iterable[str] | None],
    ) -> Callable[..., Iterable[str] | None]:
        doc = (function.__doc__ or "").strip().split("\n\n")[0]
        register_invariant(
            Invariant(
                name or function.__name__,
                kind,
                function,
                " ".join(doc.split()),
                frozenset(variants),
                every,
            )
        )
        return function

    return register


def registered_invariants() -> tuple[Invariant, ...]:
    """Every invariant in the registry, core ones first, in registration order."""
    return tuple(_REGISTRY.values())


def invariants_for(
    rules: GameRules,
    *,
    only: Iterable[str] | None = None,
    skip: Iterable[str] = (),
    extra: Iterable[Invariant] = (),
) -> tuple[Invariant, ...]:
    """The invariants checked in a game of ``rules``: the registry's that apply,
    then each variant's own — ``"<variant>.check_state"`` (hook
    ``ttr_check_state``) and ``"<variant>.check_transition"`` (hook
    ``ttr_check_transition``) per variant implementing them, in variant order —
    then those of ``extra`` that apply; ``only`` keeps those names, ``skip``
    drops these. A name in ``only`` or ``skip`` that no invariant has (see
    :func:`invariant_names`) raises :class:`~ttr_core.ArgumentError` with the
    closest names and the list; so does an empty ``only``."""
    extra = _invariant_list(extra)
    found = _applicable(rules, extra)
    wanted, dropped = chosen_names(only, skip, [*invariant_names(extra=extra), *_names(found)])
    return tuple(
        inv for inv in found if inv.name not in dropped and (wanted is None or inv.name in wanted)
    )


def _applicable(rules: GameRules, extra: Sequence[Invariant]) -> list[Invariant]:
    found = [inv for inv in _REGISTRY.values() if inv.applies(rules)]
    found += _plugin_invariants(rules)
    found += [inv for inv in extra if inv.applies(rules)]
    return found


def _names(invariants: Iterable[Invariant]) -> list[str]:
    return [inv.name for inv in invariants]


def _invariant_list(extra: Iterable[Invariant]) -> tuple[Invariant, ...]:
    if isinstance(extra, (str, bytes)) or not isinstance(extra, Iterable):
        raise ArgumentError(f"invariants must be a list of Invariant objects, not {show(extra)}")
    found = tuple(extra)
    for inv in found:
        if not isinstance(inv, Invariant):
            raise ArgumentError(f"invariants must be Invariant objects, not {show(inv)}")
    return found


def invariant_names(
    rules: GameRules | None = None, *, extra: Iterable[Invariant] = ()
) -> tuple[str, ...]:
    """The names of the invariants, for ``only`` and ``skip``: with ``rules``, those
    checked in games of that configuration (:func:`invariants_for`); without,
    every name there is — the registry's, then ``"<variant>.check_state"`` and
    ``"<variant>.check_transition"`` of each installed variant implementing the
    hook — then those of ``extra``."""
    extra = _invariant_list(extra)
    if rules is not None:
        return tuple(_names(_applicable(rules, extra)))
    names = list(_REGISTRY)
    for variant, plugin in sorted(installed_plugins().items()):
        names += [f"{variant}.{kind}" for kind, hook in _PLUGIN_KINDS if hook in plugin.impls]
    names += _names(extra)
    return tuple(dict.fromkeys(names))


def chosen_names(
    only: Iterable[str] | None, skip: Iterable[str], known: Sequence[str]
) -> tuple[frozenset[str] | None, frozenset[str]]:
    """``only`` and ``skip`` as sets of names, each checked to be one of ``known``:
    :class:`~ttr_core.ArgumentError` for a name that is not (with the closest
    known names: "did you mean ...?", and the list), for an ``only`` naming none,
    and for anything but a list of strings."""
    known = tuple(dict.fromkeys(known))
    wanted = None if only is None else _name_list("only", only, known)
    if wanted is not None and not wanted:
        raise ArgumentError(
            "only names no invariant, so nothing would be checked: give at least one name "
            f"(or None for all): {', '.join(known)}"
        )
    return wanted, _name_list("skip", skip, known)


def _name_list(argument: str, names: Iterable[str], known: Sequence[str]) -> frozenset[str]:
    if isinstance(names, (str, bytes)) or not isinstance(names, Iterable):
        raise ArgumentError(
            f"{argument} must be a list of invariant names, not {type(names).__name__} "
            f"{show(names)}"
        )
    given = list(itertools.islice(names, _MAX_NAMES + 1))
    if len(given) > _MAX_NAMES:
        raise ArgumentError(f"{argument} names more than {_MAX_NAMES} invariants")
    listed = set(known)
    for name in given:
        if not isinstance(name, str):
            raise ArgumentError(
                f"{argument} must name invariants by str, not {type(name).__name__} {show(name)}"
            )
        if name not in listed:
            raise ArgumentError(unknown_invariant(argument, name, known))
    return frozenset(given)


#: The most names ``only`` or ``skip`` may give.
_MAX_NAMES = 10_000


def unknown_invariant(argument: str, name: str, known: Sequence[str]) -> str:
    """The message for ``name``, given in ``argument``, that is not one of ``known``."""
    close = difflib.get_close_matches(name, list(known), n=3)
    listed = ", ".join(known) or "none"
    missing = f"{argument}: no invariant is called {show(name)}"
    if close:
        hint = " or ".join(repr(c) for c in close)
        return f"{missing}; did you mean {hint}? (the invariants: {listed})"
    return f"{missing}; choose among: {listed}"


#: The plugin invariants: the name each gets after the variant's, and its hook.
_PLUGIN_KINDS = (("check_state", "ttr_check_state"), ("check_transition", "ttr_check_transition"))


def _plugin_invariants(rules: GameRules) -> list[Invariant]:
    """Each variant's invariants from its hooks, in variant order, its state
    invariant before its transition one."""
    found: list[tuple[int, int, Invariant]] = []
    order = {variant: i for i, variant in enumerate(rules.variants)}
    for impl in rules.check_state:

        def check(state: GameState, impl: Any = impl) -> list[str]:
            return hookcheck.messages(impl, impl(state))

        doc = f"the {impl.variant!r} variant's own invariants (hook ttr_check_state)"
        inv = Invariant(f"{impl.variant}.check_state", "state", check, doc)
        found.append((order.get(impl.variant, 0), 0, inv))
    for impl in rules.check_transition:

        def step(
            before: GameState, action: Action, after: GameState, impl: Any = impl
        ) -> list[str]:
            return hookcheck.messages(impl, impl(before, action, after))

        doc = f"the {impl.variant!r} variant's own invariants across a step (hook {impl.hook})"
        inv = Invariant(f"{impl.variant}.check_transition", "transition", step, doc)
        found.append((order.get(impl.variant, 0), 1, inv))
    return [inv for _, _, inv in sorted(found, key=lambda item: item[:2])]


def run_check(inv: Invariant, step: int, *args: Any) -> list[Violation]:
    """Run one invariant: its problems as :class:`Violation` s at ``step`` (an exception
    raised while checking is one too)."""
    try:
        found = inv.check(*args)
        problems = [] if found is None else list(found)
    except AssertionError as exc:
        problems = [str(exc) or "assertion failed"]
    except Exception as exc:  # a crash while checking is a finding too
        problems = [f"raised {type(exc).__name__}: {exc}"]
    return [Violation(inv.name, str(problem), step) for problem in problems]


def check_state(
    state: GameState, invariants: Iterable[Invariant] | None = None, step: int = 0
) -> list[Violation]:
    """The state invariants ``state`` breaks (every applicable one, ``every`` ignored)."""
    chosen = invariants_for(state.rules) if invariants is None else invariants
    return [v for inv in chosen if inv.kind == "state" for v in run_check(inv, step, state)]


def check_transition(
    before: GameState,
    action: Action,
    after: GameState,
    invariants: Iterable[Invariant] | None = None,
    step: int = 1,
) -> list[Violation]:
    """The transition invariants the step ``before`` → ``action`` → ``after`` breaks."""
    chosen = invariants_for(before.rules) if invariants is None else invariants
    return [
        v
        for inv in chosen
        if inv.kind == "transition"
        for v in run_check(inv, step, before, action, after)
    ]


def check_game(play: GamePlay, invariants: Iterable[Invariant] | None = None) -> list[Violation]:
    """The game invariants a game played so far breaks."""
    chosen = invariants_for(play.state.rules) if invariants is None else invariants
    step = len(play.actions)
    return [v for inv in chosen if inv.kind == "game" for v in run_check(inv, step, play)]


def record_text(play: GamePlay) -> str:
    """The game's record as JSON (``ttr replay`` reads it), or a readable fallback
    when a variant action has no declared JSON tag."""
    try:
        return to_json(play.record)
    except TtrError as exc:
        record = play.record
        return (
            f"(no JSON record: {exc}) map={record.map!r} players={record.players} "
            f"variants={list(record.variants)} options={dict(record.options)} "
            f"seed={record.seed} actions={list(record.actions)!r}"
        )


def _rng(state: GameState, salt: str) -> random.Random:
    """A generator fixed by the state (so that a check repeats exactly)."""
    pending = state.pending
    key = (state.seed, state.turn, state.shuffles, len(state.deck), state.owners.count(UNCLAIMED))
    return random.Random(f"{salt}:{key}:{pending.kind if pending else None}")


def cards_conserved(state: GameState) -> Iterator[str]:
    """Every transportation card is in exactly one place: deck, display, discard pile
    or a hand; no count is negative; known cards never exceed the hand."""
    board = state.board
    kinds = len(board.card_names)
    if len(state.display) != board.rules.display_size:
        yield f"the display has {len(state.display)} slots, not {board.rules.display_size}"
    if len(state.discard) != kinds or any(n < 0 for n in state.discard):
        yield f"the discard pile is not a non-negative count per card: {state.discard}"
        return
    totals = cards_outside_hands(state)
    for seat, player in enumerate(state.players):
        counts = player.hand.counts
        if len(counts) != kinds or any(n < 0 for n in counts):
            yield f"seat {seat}'s hand is not a non-negative count per card: {counts}"
            return
        for card, n in enumerate(counts):
            totals[card] += n
        known = player.known
        if known and (
            len(known) != kinds or any(not 0 <= k <= n for k, n in zip(known, counts, strict=True))
        ):
            yield f"seat {seat} has known cards {known} its hand {counts} does not hold"
    for card, (have, want) in enumerate(zip(totals, board.deck, strict=True)):
        if have != want:
            yield f"{have} {board.card_names[card]} cards are in play; the map has {want}"


def tickets_conserved(state: GameState) -> Iterator[str]:
    """Every destination ticket is in exactly one place: the ticket deck or discard
    pile, a seat's tickets, the pending offer, or a seat's starting offer."""
    places = Counter(hookcheck.ticket_places(state))
    everything = range(len(state.board.tickets))
    missing = [t for t in everything if t not in places]
    twice = sorted(t for t, n in places.items() if n > 1)
    unknown = sorted(t for t in places if t not in everything)
    if missing:
        yield f"tickets {missing} are nowhere"
    if twice:
        yield f"tickets {twice} are in two places"
    if unknown:
        yield f"there are no tickets {unknown}"


def running_score(state: GameState) -> Iterator[str]:
    """Each seat's running score is its start score, its routes' points and the
    points variants awarded during play."""
    board = state.board
    starts = board.rules.start_scores
    for seat, player in enumerate(state.players):
        start = starts[seat] if seat < len(starts) else 0
        routes = sum(board.rules.route_points[board.routes[r].length] for r in player.routes)
        if player.score != start + routes + player.play_points:
            yield (
                f"seat {seat} scores {player.score}; start {start} + routes {routes} + play "
                f"points {player.play_points} make {start + routes + player.play_points}"
            )


def score_breakdown(state: GameState) -> Iterator[str]:
    """Every score sheet's total is the sum of its lines, its tickets are all counted
    once; at the end the winners have the highest total."""
    sheets = final_scores(state).sheets if state.is_over else score_sheets(state)
    if len(sheets) != state.num_players:
        yield f"{len(sheets)} score sheets for {state.num_players} seats"
    for seat, sheet in enumerate(sheets):
        if sheet.player != seat:
            yield f"sheet {seat} is seat {sheet.player}'s"
        points = sum(line.points for line in sheet.lines)
        if sheet.total != points:
            yield f"seat {seat}'s sheet totals {sheet.total}; its lines add up to {points}"
        tickets = len(state.players[seat].tickets)
        if sheet.tickets_completed + sheet.tickets_failed != tickets:
            yield (
                f"seat {seat}'s sheet counts {sheet.tickets_completed} + "
                f"{sheet.tickets_failed} tickets; it holds {tickets}"
            )
    if state.is_over:
        scores = final_scores(state)
        # The seats that may win: every seat; none of an abandoned game; all
        # but the seat that resigned or ran out of time (docs/rules.md).
        ending = state.termination
        if ending == Termination.ABANDONED:
            may_win = []
        else:
            may_win = [s for s in range(state.num_players) if s != state.forfeit]
        best = max((scores.totals[s] for s in may_win), default=None)
        if (bool(scores.winners) != bool(may_win)) or any(
            w not in may_win or scores.totals[w] != best for w in scores.winners
        ):
            yield (
                f"winners {scores.winners} for totals {scores.totals} "
                f"(ended by {ending}, forfeit {state.forfeit})"
            )
        if scores.termination != state.termination:
            yield f"the scores say the game ended by {scores.termination}, not {state.termination}"


def decision(state: GameState) -> Iterator[str]:
    """The game waits for a seat's decision exactly when it is not over; the legal
    actions are that seat's, none twice; ``Pass`` only alone, in a turn (E1)."""
    pending = state.pending
    legal = legal_actions(state)
    if (pending is None) != (state.termination is not None):
        yield "a game waits for a decision exactly when it is not over"
    if pending is None:
        if legal:
            yield f"a finished game lists {len(legal)} legal actions"
        return
    if not 0 <= pending.player < state.num_players:
        yield f"the pending decision is seat {pending.player}'s, not a seat"
    if not legal:
        yield "a game that is not over lists no legal action"
    if len(set(legal)) != len(legal):
        twice = [a for a, n in Counter(legal).items() if n > 1]
        yield f"actions listed twice: {twice[:3]}"
    others = [a for a in legal if a.player != pending.player]
    if others:
        yield f"actions of another seat listed: {others[:3]}"
    passes = [a for a in legal if type(a) is Pass]
    if passes and (len(legal) > 1 or pending.kind != "turn"):
        yield f"Pass is listed with {len(legal) - 1} other actions in a {pending.kind!r} decision"
    if pending.kind in ("start_tickets", "keep_tickets") and not (
        pending.offered and 0 <= pending.min_keep <= len(pending.offered)
    ):
        yield f"a ticket choice offers {pending.offered} and asks to keep {pending.min_keep}"
    if state.passes > state.num_players:
        yield f"{state.passes} passes in a row with {state.num_players} seats"


#: The most listed actions :func:`legal_actions_exact` applies in one state (drawn
#: from the state when more are listed; the action played is applied anyway).
LISTED_SAMPLE = 12


def legal_actions_exact(state: GameState) -> Iterator[str]:
    """``legal_actions`` is exact: each listed action applies (every one, or
    :data:`LISTED_SAMPLE` drawn from the state when more are listed); sampled
    well-formed actions that are not listed are refused with ``IllegalAction``;
    neither changes the state."""
    legal = legal_actions(state)
    snapshot = attrs.evolve(state)
    rng = _rng(state, "exact")
    tried = legal if len(legal) <= LISTED_SAMPLE else rng.sample(legal, LISTED_SAMPLE)
    for action in tried:
        try:
            after = apply(state, action)
        except Exception as exc:
            yield f"listed {action!r} is refused: {type(exc).__name__}: {exc}"
            continue
        if not isinstance(after, GameState):
            yield f"listed {action!r} gives {type(after).__name__}, not a GameState"
    listed = set(legal)
    for action in illegal_candidates(state, rng, limit=8):
        if action in listed:
            continue
        try:
            apply(state, action)
        except IllegalAction:
            pass
        except Exception as exc:
            yield f"unlisted {action!r} raises {type(exc).__name__}, not IllegalAction: {exc}"
        else:
            yield f"{action!r} is not listed but apply accepts it"
    if state != snapshot or legal_actions(state) != legal:
        yield "applying actions changed the state they were applied to"


def views_hide_secrets(state: GameState) -> Iterator[str]:
    """No view holds a game state or another seat's hand, and states that differ
    only in what a seat cannot see (another hand, the deck's order, the discard
    pile, another seat's tickets and offer, the seed) give it the same view.
    Each check looks through the eyes of one seat, drawn from the state."""
    rng = _rng(state, "views")
    viewer = rng.randrange(state.num_players)
    view = player_view(state, viewer)
    for path, value in reachable(view):
        if isinstance(value, GameState | PlayerState | Pending | GameRules):
            yield f"seat {viewer}'s view holds a {type(value).__name__} at {path}"
        elif isinstance(value, Hand) and path != "view.hand":
            yield f"seat {viewer}'s view holds a hand at {path}"
    for what, changed in hidden_changes(state, viewer, rng):
        if player_view(changed, viewer) != view:
            yield f"seat {viewer}'s view changes with {what}, which it cannot see"


def reachable(value: object, path: str = "view") -> Iterator[tuple[str, object]]:
    """Every value reachable from ``value`` (attrs fields, mapping keys and
    values, sequence and set items), with its path. Boards and rule sets are
    public configuration and are not entered; a :class:`~ttr_core.Hand` is
    not entered either (its card counts are the value itself). What the
    checks of view secrecy walk: no game state may be among these."""
    yield path, value
    if isinstance(value, Board | GameRules | Hand):
        return
    if attrs.has(type(value)):
        for field in attrs.fields(cast(Any, type(value))):
            yield from reachable(getattr(value, field.name), f"{path}.{field.name}")
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from reachable(key, f"{path}[{key!r}] (key)")
            yield from reachable(item, f"{path}[{key!r}]")
    elif isinstance(value, tuple | list | set | frozenset):
        for i, item in enumerate(value):
            yield from reachable(item, f"{path}[{i}]")


def _replace(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*items[:i], value, *items[i + 1 :])


def _unknown_cards(player: PlayerState) -> list[int]:
    known = player.known or (0,) * len(player.hand.counts)
    return [
        card
        for card, (n, k) in enumerate(zip(player.hand.counts, known, strict=True))
        for _ in range(n - k)
    ]


def exchange_hand_and_deck(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """Exchange one of ``seat``'s unknown cards with a deck card of another colour."""
    player = state.players[seat]
    cards = _unknown_cards(player)
    for card in rng.sample(cards, len(cards)):
        for i, other in enumerate(state.deck):
            if other != card:
                counts = list(player.hand.counts)
                counts[card] -= 1
                counts[other] += 1
                new = attrs.evolve(player, hand=Hand(tuple(counts), player.hand.names))
                return attrs.evolve(
                    state,
                    players=_replace(state.players, seat, new),
                    deck=_replace(state.deck, i, card),
                )
    return None


def _reorder_deck(state: GameState, rng: random.Random) -> GameState | None:
    deck = list(state.deck)
    rng.shuffle(deck)
    return None if tuple(deck) == state.deck else attrs.evolve(state, deck=tuple(deck))


def _exchange_discard_and_deck(state: GameState, rng: random.Random) -> GameState | None:
    discard = list(state.discard)
    held = [card for card, n in enumerate(discard) if n]
    for card in rng.sample(held, len(held)):
        for i, other in enumerate(state.deck):
            if other != card:
                discard[card] -= 1
                discard[other] += 1
                return attrs.evolve(
                    state, discard=tuple(discard), deck=_replace(state.deck, i, card)
                )
    return None


def exchange_seat_ticket(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """Exchange one of ``seat``'s tickets with one of the ticket deck."""
    player = state.players[seat]
    if not player.tickets or not state.ticket_deck:
        return None
    i = rng.randrange(len(player.tickets))
    j = rng.randrange(len(state.ticket_deck))
    tickets = _replace(player.tickets, i, state.ticket_deck[j])
    return attrs.evolve(
        state,
        players=_replace(state.players, seat, attrs.evolve(player, tickets=tickets)),
        ticket_deck=_replace(state.ticket_deck, j, player.tickets[i]),
    )


def _exchange_offer(state: GameState, viewer: int, rng: random.Random) -> GameState | None:
    pending = state.pending
    if not state.ticket_deck:
        return None
    j = rng.randrange(len(state.ticket_deck))
    if pending is not None and pending.player != viewer and pending.offered:
        i = rng.randrange(len(pending.offered))
        offered = _replace(pending.offered, i, state.ticket_deck[j])
        return attrs.evolve(
            state,
            pending=attrs.evolve(pending, offered=offered),
            ticket_deck=_replace(state.ticket_deck, j, pending.offered[i]),
        )
    if state.start_offers and state.start_offers[0]:
        offer = state.start_offers[0]
        i = rng.randrange(len(offer))
        return attrs.evolve(
            state,
            start_offers=_replace(state.start_offers, 0, _replace(offer, i, state.ticket_deck[j])),
            ticket_deck=_replace(state.ticket_deck, j, offer[i]),
        )
    return None


def _exchange_box(state: GameState, rng: random.Random) -> GameState | None:
    """Exchange a boxed ticket (face down, out of the game) with one of the ticket deck."""
    boxed, deck = state.boxed_tickets, state.ticket_deck
    if not boxed or not deck:
        return None
    i, j = rng.randrange(len(boxed)), rng.randrange(len(deck))
    return attrs.evolve(
        state, boxed_tickets=_replace(boxed, i, deck[j]), ticket_deck=_replace(deck, j, boxed[i])
    )


def _other(state: GameState, viewer: int, rng: random.Random) -> int:
    return rng.choice([seat for seat in range(state.num_players) if seat != viewer])


_HIDDEN: dict[str, Callable[[GameState, int, random.Random], GameState | None]] = {
    "another seat's hand against the deck": lambda s, v, r: exchange_hand_and_deck(
        s, _other(s, v, r), r
    ),
    "the deck's order": lambda s, v, r: _reorder_deck(s, r),
    "the discard pile against the deck": lambda s, v, r: _exchange_discard_and_deck(s, r),
    "another seat's tickets": lambda s, v, r: exchange_seat_ticket(s, _other(s, v, r), r),
    "another seat's ticket offer": _exchange_offer,
    "the box against the ticket deck": lambda s, v, r: _exchange_box(s, r),
    "the seed": lambda s, v, r: attrs.evolve(s, seed=r.randrange(2**62)),
}


def hidden_changes(
    state: GameState, viewer: int, rng: random.Random
) -> Iterator[tuple[str, GameState]]:
    """``state`` changed in each way seat ``viewer`` cannot see, where the state
    allows it: (what was changed, the changed state). Variant state is left as
    it is (a variant's hidden parts are its own to check). A change that cannot
    apply gives ``None`` and is left out."""
    for what, change in _HIDDEN.items():
        changed = change(state, viewer, rng)
        if changed is not None:
            yield what, changed


def illegal_candidates(state: GameState, rng: random.Random, limit: int = 12) -> list[Action]:
    """Up to ``limit`` well-formed actions around the legal ones that ``legal_actions``
    does not list (each of the right types): listed actions for other seats or with
    a field moved by one (variants' actions first), and random core actions for any
    seat, route and payment."""
    legal = legal_actions(state)
    listed = set(legal)
    # Variants' actions first (they are few and the least tested), then core ones.
    own = [a for a in legal if type(a) not in _CORE_ACTIONS]
    first = [m for action in rng.sample(own, min(len(own), 4)) for m in mutants_of(state, action)]
    core = [a for a in legal if type(a) in _CORE_ACTIONS]
    pool = [m for action in rng.sample(core, min(len(core), 3)) for m in mutants_of(state, action)]
    pool.extend(_random_core_action(state, rng) for _ in range(limit))
    rng.shuffle(first)
    rng.shuffle(pool)
    pool = first + pool
    found: list[Action] = []
    seen: set[Action] = set()
    for action in pool:
        if action not in listed and action not in seen:
            seen.add(action)
            found.append(action)
            if len(found) >= limit:
                break
    return found


_CORE_ACTIONS = (DrawBlind, DrawFaceUp, ClaimRoute, DrawTickets, KeepTickets, Pass)


def mutants_of(state: GameState, action: Action) -> Iterator[Action]:
    """``action`` with one field changed: another seat, an int moved by one, another
    card name, a ticket set grown or shrunk."""
    cls = type(action)
    if not attrs.has(cls):
        return
    names = state.board.card_names
    for field in attrs.fields(cast(Any, cls)):
        value = getattr(action, field.name)
        changes: list[Any] = []
        if field.name == "player":
            changes = [s for s in range(state.num_players) if s != value]
        elif isinstance(value, bool):
            changes = [not value]
        elif isinstance(value, int):
            changes = [value - 1, value + 1]
        elif isinstance(value, str):
            changes = [c for c in (*names, None) if c != value]
        elif value is None:
            changes = list(names)
        elif isinstance(value, frozenset):
            offered = state.pending.offered if state.pending is not None else ()
            changes = [value - {t} for t in value] + [value | {t} for t in offered]
            changes.append(value | {len(state.board.tickets)})
        for change in changes:
            try:
                yield attrs.evolve(action, **{field.name: change})
            except (TypeError, ValueError):
                continue


def _random_core_action(state: GameState, rng: random.Random) -> Action:
    board = state.board
    seat = rng.randrange(state.num_players)
    kind = rng.randrange(6)
    if kind == 0:
        return DrawBlind(seat)
    if kind == 1:
        return DrawFaceUp(seat, rng.randrange(-1, board.rules.display_size + 1))
    if kind == 2:
        return DrawTickets(seat)
    if kind == 3:
        return Pass(seat)
    if kind == 4:
        route = board.routes[rng.randrange(len(board.routes))]
        color = rng.choice([*board.colors, None])
        wilds = rng.randrange(route.length + 1)
        return ClaimRoute(seat, route.id, color, wilds)
    pending = state.pending
    offered = list(pending.offered) if pending is not None else []
    tickets = rng.sample(offered, rng.randrange(len(offered) + 1))
    if rng.random() < 0.3:
        tickets.append(rng.randrange(len(board.tickets) + 1))
    return KeepTickets(seat, tickets)


def claims_are_permanent(before: GameState, action: Action, after: GameState) -> Iterator[str]:
    """What is settled stays settled: a claimed route keeps its owner, a kept ticket
    stays kept, cars never come back, turns and shuffles never go back, the
    move counter (``ply``) counts each action once, and the final round, once
    started, only counts down."""
    if after.ply != before.ply + 1:
        yield f"ply went from {before.ply} to {after.ply}, not up by one action"
    for rid, (was, now) in enumerate(zip(before.owners, after.owners, strict=True)):
        if was != UNCLAIMED and now != was:
            yield f"route {rid} changed owner from {was} to {now}"
    for seat, (old, new) in enumerate(zip(before.players, after.players, strict=True)):
        if not set(old.tickets) <= set(new.tickets):
            yield f"seat {seat} lost kept tickets {sorted(set(old.tickets) - set(new.tickets))}"
        if new.cars > old.cars:
            yield f"seat {seat}'s cars went from {old.cars} up to {new.cars}"
    if after.turn < before.turn or after.shuffles < before.shuffles:
        yield "the turn count or the shuffle count went back"
    if before.final_turns != -1 and not (
        after.final_turns <= before.final_turns and after.final_turns != -1
    ):
        yield f"the final round count went from {before.final_turns} to {after.final_turns}"


def claim_effect(before: GameState, action: Action, after: GameState) -> Iterator[str]:
    """A claim gives the seat the route and takes exactly its length in cars; a
    claim a variant makes wait (``ttr_before_claim``) changes no owner, car or hand."""
    if type(action) is not ClaimRoute:
        return
    route = before.board.routes[action.route]
    pending = after.pending
    if (
        pending is not None
        and pending.player == action.player
        and pending.kind not in frozenset(PendingKind)
        and before.rules.before_claim
    ):
        if after.owners != before.owners or after.players != before.players:
            yield f"{action!r} waits for a decision but changed owners or players already"
        return
    if after.owners[route.id] != action.player:
        yield f"{action!r} left route {route.id} owned by {after.owners[route.id]}"
    cars = before.players[action.player].cars - after.players[action.player].cars
    if cars != route.length:
        yield f"{action!r} took {cars} cars for a route of length {route.length}"


def action_bound(board: Board, players: int) -> int:
    """A generous bound on the actions of any game of ``board``: between two claims
    at most every card is drawn once and every ticket choice made, and there are at
    most as many claims as routes."""
    per_claim = 2 * board.total_cards + 4 * players + 4
    return (len(board.routes) + 1) * per_claim + 4 * len(board.tickets) + 10 * players


def terminates(play: GamePlay) -> Iterator[str]:
    """A game ends within :func:`action_bound` actions (or the bound the game was
    played with)."""
    state = play.state
    bound = play.max_actions
    if bound is None:
        bound = action_bound(state.board, state.num_players)
    if len(play.actions) > bound:
        yield f"the game has gone on for {len(play.actions)} actions (bound: {bound})"


def determinism(play: GamePlay) -> Iterator[str]:
    """The same seed sets up the same game, and replaying the game's record
    reproduces every state."""
    first = play.states[0]
    options = {v: dict(values) for v, values in first.rules.options}
    again = new_game(
        first.board,
        first.num_players,
        seed=first.seed,
        variants=first.rules.variants,
        options=options,
    )
    if again != first:
        yield "new_game with the same seed and configuration gave another state"
        return
    try:
        for i, (state, replayed) in enumerate(
            zip(play.states, replay(play.record, board=first.board), strict=True)
        ):
            if state != replayed:
                yield f"replaying the record gives another state after {i} actions"
                return
    except (TtrError, ValueError) as exc:
        yield f"the record does not replay: {exc}"


def playout_agrees(play: GamePlay) -> Iterator[str]:
    """Played through a :class:`~ttr_core.Playout` (the rules kernel played in
    place), the game's actions list the same legal actions and reach the same
    states as through the pure API."""
    playout = Playout(play.states[0])
    for i, action in enumerate(play.actions):
        state = play.states[i]
        if playout.legal_actions() != legal_actions(state):
            yield f"the playout lists other legal actions after {i} actions"
            return
        try:
            playout.apply(action)
        except TtrError as exc:
            yield f"the playout refused action {i + 1} ({show(action)}): {exc}"
            return
        if playout.snapshot() != play.states[i + 1]:
            yield f"the playout reaches another state after {i + 1} actions"
            return


_CORE: list[tuple[Kind, Callable[..., Iterable[str] | None], int]] = [
    ("state", cards_conserved, 1),
    ("state", tickets_conserved, 1),
    ("state", car_accounting, 1),
    ("state", route_ownership, 1),
    ("state", running_score, 1),
    ("state", score_breakdown, 3),
    ("state", display_rules, 1),
    ("state", decision, 1),
    ("state", legal_actions_exact, 1),
    ("state", views_hide_secrets, 4),
    ("transition", claims_are_permanent, 1),
    ("transition", claim_effect, 1),
    ("game", terminates, 1),
    ("game", determinism, 1),
    ("game", playout_agrees, 1),
]


#: The names of the core's invariants, in order.
CORE_INVARIANTS: tuple[str, ...] = tuple(function.__name__ for _, function, _ in _CORE)


for _kind, _function, _every in _CORE:
    invariant(kind=_kind, every=_every)(_function)
