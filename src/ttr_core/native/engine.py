"""The compiled engine behind the Python API: which games it plays, and the
bridge between its compact state and a frozen :class:`~ttr_core.GameState`.

A game runs on the compiled engine (``ttr_core.native._engine``, C) when it
was built (:data:`ttr_core.native.available`) and every variant of the game
either leaves play and scoring alone or declares all it does there in the
engine's terms (hook ``ttr_native_rules``): :func:`why_not` says why a game
does not. The engine then works on its own state and action ids; a frozen
state is built only when asked (:func:`publish`), equal to the one the
Python kernel reaches with the same actions (the differential tests play
both in lock step).

The module reads best whole: the rule set in (:func:`config`), the state in
(:func:`holds`, :func:`load`) and out (:func:`publish`) are one bridge, and
its halves check each other (what :func:`holds` accepts :func:`load` takes);
the variants' parts of it are in :mod:`ttr_core.native.variants`.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from ttr_core import native as _package
from ttr_core.errors import ArgumentError, IllegalAction, PluginError, TtrError
from ttr_core.hooks import calls
from ttr_core.model.actions import Action
from ttr_core.model.board import GRAY, wilds_pay
from ttr_core.model.declarations import NATIVE_VIEWS, NativeRule
from ttr_core.model.gamerules import GameRules
from ttr_core.model.state import (
    GameState,
    Hand,
    Pending,
    PendingKind,
    PlayerState,
    Termination,
)
from ttr_core.native.variants import (
    MOST_AMOUNT,
    MOST_COUNT,
    MOST_STATIONS,
    Prepared,
    neutral_decision,
    play_part,
    published_variants,
    variant_pending,
)
from ttr_core.rules.action_ids import rules_space, variant_action_id
from ttr_core.rules.kernel.tables import action_table
from ttr_core.rules.kernel.work import SHUFFLE_SEED
from ttr_core.rules.tickets import ends_of

#: The environment variable that chooses the engine of every playout made
#: without ``engine=``: ``auto`` (the default), ``native`` or ``python``.
ENGINE_ENV = "TTR_CORE_ENGINE"

#: The engines a playout can be asked for.
ENGINES = ("auto", "native", "python")

#: The rule-set fields (hooks) through which a variant changes play or scoring:
#: a variant implementing one of them runs natively only by declaring its
#: rules (``ttr_native_rules``).
PLAY_HOOKS = (
    "filter",
    "veto",
    "extra_actions",
    "apply_action",
    "after_claim",
    "between_turns",
    "game_over",
    "score_lines",
    "tie_break",
    "non_seat_owners",
    "ticket_connections",
    "before_claim",
    "deal_tickets",
)

#: The pending kinds of the core the engine holds, by its numbers (then 4:
#: none, 5: a tunnel's decision, of the kind its variant declares).
KINDS = (
    PendingKind.TURN,
    PendingKind.SECOND_CARD,
    PendingKind.KEEP_TICKETS,
    PendingKind.START_TICKETS,
)
_KIND_NUMBER: dict[str, int] = {kind: number for number, kind in enumerate(KINDS)}
_NONE = 4
_TUNNEL = 5
_CHOOSE = 6
# The engine's codes of the variants' tie-breaks (engine.h: TIE_*).
_TIE = {"longest_trail": 1, "stations": 2}
#: Terminations the engine reaches, by its numbers.
ENDINGS = (None, Termination.CARS, Termination.STALEMATE)
_RETURNS = {"discard": 0, "bottom": 1, "box": 2}

# Limits of the compiled engine's fixed-size state (_engine.c).
_LIMITS = {
    "seats": 6,
    "card kinds": 16,
    "face-up slots": 8,
    "routes": 255,
    "locations": 255,
    "tickets": 256,
}


def engine_choice(engine: str | None) -> str:
    """The engine asked for: ``engine``, else the environment's
    (:data:`ENGINE_ENV`), else ``"auto"``; :class:`ArgumentError` for
    anything but one of :data:`ENGINES`."""
    chosen = engine if engine is not None else os.environ.get(ENGINE_ENV, "auto") or "auto"
    if chosen not in ENGINES:
        where = "engine" if engine is not None else ENGINE_ENV
        shown = chosen if isinstance(chosen, str) and len(chosen) <= 40 else type(chosen).__name__
        raise ArgumentError(f"{where} must be one of {', '.join(ENGINES)}, not {shown!r}")
    return chosen


def why_not(rules: GameRules) -> str | None:
    """Why games of ``rules`` cannot run on the compiled engine, or ``None`` when they can."""
    found = _prepared(rules)
    return found if isinstance(found, str) else None


def config(rules: GameRules) -> Any:
    """The engine's ``Config`` of ``rules`` (built once per rule set);
    :class:`ArgumentError` saying why when its games cannot run natively."""
    return prepared(rules).config


def prepared(rules: GameRules) -> Prepared:
    """What the engine plays ``rules`` with (see :class:`Prepared`);
    :class:`ArgumentError` saying why when its games cannot run natively."""
    found = _prepared(rules)
    if isinstance(found, str):
        raise ArgumentError(f"this game cannot run on the native engine: {found}")
    assert isinstance(found, Prepared)
    return found


def _prepared(rules: GameRules) -> Any:
    found = rules.derived.get("native")
    if found is None:
        try:
            found = _build(rules)
        except ValueError as exc:  # a limit of the compiled engine
            found = f"the game exceeds the native engine's limits ({exc})"
        # Two threads may both build it: the same value, one of them kept.
        found = rules.derived.setdefault("native", found)
    return found


def _declared(rules: GameRules) -> list[tuple[str, NativeRule]] | str:
    """The native rules every variant declares (with its name), or why a
    variant's are missing."""
    answers = calls.run_native_rules(rules) if rules.native_rules else {}
    declared: list[tuple[str, NativeRule]] = []
    for variant in rules.variants:
        touches = [
            field
            for field in PLAY_HOOKS
            if any(i.variant == variant for i in getattr(rules, field))
        ]
        answer = answers.get(variant)
        if answer is None:
            if touches:
                return (
                    f"variant {variant!r} changes play or scoring ({', '.join(touches)}) "
                    "and declares no native rules"
                )
            continue
        declared += [(variant, rule) for rule in answer]
    return declared


def _build(rules: GameRules) -> Any:
    if _package._engine is None:
        return "the native engine was not built (no C compiler when ttr-core was installed)"
    declared = _declared(rules)
    if isinstance(declared, str):
        return declared
    board = rules.board
    mr = board.rules
    players = rules.players
    kinds = len(board.colors) + 1
    sizes = {
        "seats": players,
        "card kinds": kinds,
        "face-up slots": mr.display_size,
        "routes": len(board.routes),
        "locations": len(board.locations),
        "tickets": len(board.tickets),
    }
    for what, most in _LIMITS.items():
        if sizes[what] > most:
            return f"{sizes[what]} {what}, more than the native engine holds ({most})"
    if board.wild != kinds - 1:
        return "the wild card is not the last card kind"
    if max(board.deck, default=0) > 255 or mr.cars_per_player > 32767:
        return "more cards of a kind (255) or cars (32,767) than the native engine holds"
    if mr.returned_tickets not in _RETURNS or mr.start_returned_tickets not in _RETURNS:
        return "tickets returned somewhere the native engine does not know"
    by_kind: dict[str, NativeRule] = {}
    tie_kinds: dict[str, str] = {}  # variant -> the kind of its declared tie-break
    for variant, rule in declared:
        if rule.kind in by_kind:
            return f"two variants declare the native rule {rule.kind!r}"
        by_kind[rule.kind] = rule
        if rule.tie_break:
            if variant in tie_kinds:
                return f"variant {variant!r} declares two tie-breaks"
            tie_kinds[variant] = rule.kind
    breaking = [impl.variant for impl in rules.tie_break]
    if sorted(breaking) != sorted(tie_kinds):
        return "the variants that break ties are not those declaring native tie-breaks"
    shortest = min((route.length for route in board.routes), default=1)
    if "longest_trail" in by_kind and min(len(board.routes), mr.cars_per_player // shortest) > 64:
        return "a seat could hold more than 64 routes, the native longest trail's most"
    table = action_table(board, players)
    core = (
        players,
        kinds,
        mr.display_size,
        mr.max_face_up_wilds,
        table.turn_wild if 0 <= table.turn_wild < kinds else -1,
        mr.end_trigger_cars,
        mr.draw_tickets,
        mr.draw_tickets_keep,
        mr.start_tickets_keep,
        _RETURNS[mr.returned_tickets],
        _RETURNS[mr.start_returned_tickets],
        int(rules.both_pair_routes_usable),
        len(board.locations),
    )
    longest = max((route.length for route in board.routes), default=1)
    points = tuple(mr.route_points.get(length, 0) for length in range(longest + 1))
    loc = board.location_id
    routes = tuple(
        (
            -1 if route.color == GRAY else board.colors.index(route.color),
            route.length,
            -1 if route.partner is None else route.partner,
            loc(route.a),
            loc(route.b),
            0 if wilds_pay(mr, route) else 1,
        )
        for route in board.routes
    )
    tickets = tuple(
        (end.start, tuple((goal.places, goal.points) for goal in end.goals), end.lost)
        for end in ends_of(rules)
    )
    touched = by_kind.get("places_touched")
    trail = by_kind.get("longest_trail")
    most_tickets = by_kind.get("most_tickets")
    scoring = (
        max(mr.start_tickets_dealt, mr.draw_tickets),
        touched.points if touched else 0,
        tuple(loc(name) for name in touched.places) if touched else (),
        trail.points if trail else -1,
        int(bool(trail and trail.tie_break)),
        most_tickets.points if most_tickets else -1,
    )
    made = _package._engine.Config(core, (routes, points), tickets, scoring)
    made.set_deal(
        tuple(board.deck), mr.starting_hand, mr.cars_per_player, tuple(mr.start_scores),
        mr.start_tickets_dealt,
    )  # fmt: skip
    space = rules_space(rules)
    variant_actions: list[tuple[int, Action]] = []
    play_ids: dict[str, tuple[int, ...]] = {}
    for variant, rule in declared:
        if rule.kind in ("tunnel", "stations", "neutral_owner"):
            try:
                ids = tuple(variant_action_id(space, a) for a in rule.actions)
            except (IllegalAction, PluginError) as exc:
                raise PluginError(
                    f"variant {variant!r}: hook ttr_native_rules: an action of its "
                    f"{rule.kind!r} rule has no id in the game's action space ({exc})",
                    variant=variant,
                    hook="ttr_native_rules",
                ) from None
            play_ids[rule.kind] = ids
            variant_actions += zip(ids, rule.actions, strict=True)
    minimum = by_kind.get("claim_min_wilds")
    tunnel = by_kind.get("tunnel")
    stations = by_kind.get("stations")
    regular = by_kind.get("regular_draws")
    tokens = by_kind.get("claim_tokens")
    tolls = by_kind.get("route_tolls")
    neutral = by_kind.get("neutral_owner")
    too_many = _beyond_limits(tunnel, stations, tokens, tolls, neutral, players)
    if too_many is not None:
        return f"the game exceeds the native engine's limits ({too_many})"
    made.set_play(
        space.size,
        minimum.per_route if minimum else (),
        (tunnel.per_route, tunnel.count, play_ids["tunnel"][:-1], play_ids["tunnel"][-1])
        if tunnel
        else (),
        (stations.count, stations.points, play_ids["stations"]) if stations else (),
        regular.tickets if regular else (),
        tuple(_TIE[tie_kinds[variant]] for variant in breaking),
        (tokens.per_route, tokens.count, tokens.ranks) if tokens else (),
        (tolls.per_route, tolls.count, tolls.points, tolls.ranks) if tolls else (),
        _neutral_config(neutral, play_ids.get("neutral_owner", ())),
    )
    return Prepared(
        made,
        space,
        tuple(variant_actions),
        decision=tunnel.decision if tunnel else None,
        wait=tunnel.record if tunnel else None,
        reveal=tunnel.count if tunnel else 0,
        tunnels=tunnel.per_route if tunnel else (),
        key=stations.key if stations else None,
        station=stations.record if stations else None,
        stations=stations.count if stations else 0,
        token_key=tokens.key if tokens else None,
        token=tokens.record if tokens else None,
        toll_key=tolls.key if tolls else None,
        toll=tolls.record if tolls else None,
        neutral=neutral,
        views=_views(declared),
    )


def _views(declared: list[tuple[str, NativeRule]]) -> tuple[tuple[str, int, str | None], ...]:
    """The view keys the declared rules show the engine's numbers under: ``(view
    key, the engine's number, its shape)`` each (``Prepared.views``)."""
    assert _package._engine is not None  # _build checked it
    names: tuple[str, ...] = _package._engine.VIEWS
    found: list[tuple[str, int, str | None]] = []
    by_key: dict[str, str] = {}
    for variant, rule in declared:
        for key, number in rule.views:
            if key in by_key:
                raise PluginError(
                    f"variant {variant!r}: hook ttr_native_rules: the view key {key!r} is "
                    f"declared by variant {by_key[key]!r} too",
                    variant=variant,
                    hook="ttr_native_rules",
                )
            by_key[key] = variant
            code = names.index(f"{rule.kind}.{number}") + 1
            found.append((key, code, NATIVE_VIEWS[rule.kind][number]))
    return tuple(found)


def _neutral_config(rule: NativeRule | None, ids: tuple[int, ...]) -> tuple[Any, ...]:
    """``neutral_owner`` as the engine takes it: (trains, first round, routes per
    ticket, (route, choice id) per route a ticket lists), or ``()``."""
    if rule is None:
        return ()
    printed = sorted({r for routes in rule.per_ticket for r in routes})
    return (rule.count, rule.round, rule.per_ticket, tuple(zip(printed, ids, strict=True)))


def _beyond_limits(
    tunnel: NativeRule | None,
    stations: NativeRule | None,
    tokens: NativeRule | None,
    tolls: NativeRule | None,
    neutral: NativeRule | None,
    players: int,
) -> str | None:
    """What in the declared play rules exceeds the compiled engine's sizes, or ``None``."""
    if tunnel and tunnel.count > MOST_COUNT:
        return f"a tunnel turns up {tunnel.count} cards, more than {MOST_COUNT}"
    if stations and (stations.count > MOST_COUNT or stations.count * players > MOST_STATIONS):
        return f"{stations.count} stations a seat"
    if tokens and tokens.count > MOST_AMOUNT:
        return f"{tokens.count} tokens, more than {MOST_AMOUNT:,}"
    if tolls and max(tolls.count, tolls.points, *tolls.per_route) > MOST_AMOUNT:
        return f"money or tolls beyond {MOST_AMOUNT:,}"
    if neutral and players != 2:  # the marker passes to "the other seat"
        return f"a neutral owner in a game of {players} seats (the engine plays it with 2)"
    if neutral and (
        neutral.count > MOST_AMOUNT
        or neutral.round > MOST_AMOUNT
        or max(map(len, neutral.per_ticket), default=0) > 2
    ):
        return "a neutral owner's trains or rounds beyond the engine's, or 3 routes on a ticket"
    return None


# -- state in, state out -------------------------------------------------------------


def key_words(value: int) -> tuple[int, ...]:
    """The 32-bit words, least significant first, of ``abs(value)``: the key
    ``random.seed(value)`` seeds Python's Mersenne Twister with (one word, 0,
    for 0)."""
    value = abs(value)
    if value <= 0xFFFFFFFF:
        return (value,)  # the usual seed: one word
    count = (value.bit_length() + 31) // 32
    return tuple((value >> (32 * i)) & 0xFFFFFFFF for i in range(count))


def shuffle_seed(seed: int, number: int) -> bytes:
    """What shuffle ``number`` of the game seeded ``seed`` seeds its generator
    with, as an integer's big-endian bytes: :func:`~ttr_core.rules.kernel.work.shuffler`
    seeds ``random.Random`` with a string, which Python turns into the integer
    of its bytes followed by their SHA-512. The compiled engine makes these
    bytes itself, in C, from the game's seed; this is the reference its tests
    compare it with (a ``Game`` given this function of the number uses it)."""
    text = SHUFFLE_SEED.format(seed=seed, number=number).encode()
    return text + hashlib.sha512(text).digest()


def why_not_state(state: GameState) -> str | None:
    """Why ``state``'s game cannot go on on the compiled engine (its rules, or
    the state itself: :func:`holds`), or ``None`` when it can."""
    found = loaded(state)
    return found if isinstance(found, str) else None


def holds(state: GameState) -> str | None:
    """Why the engine cannot hold ``state`` (a game of rules it plays), or
    ``None``: a variant's decision pending, a game ended early, or a state no
    game reaches (cards or tickets not conserved, routes not their owners', a
    decision of no seat, numbers beyond the engine's sizes) — which the
    Python kernel plays on as it is given."""
    found = _loaded(state, prepared(state.rules))
    return found if isinstance(found, str) else None


def loaded(state: GameState) -> Any:
    """A compiled ``Game`` holding ``state``, or why the engine cannot play it
    on (a string: :func:`why_not` of its rules, or :func:`holds`)."""
    found = _prepared(state.rules)
    if isinstance(found, str):
        return found
    return _loaded(state, found)


def _loaded(state: GameState, play: Prepared) -> Any:
    why = _refused(state, play)
    if why is not None:
        return why
    assert _package._engine is not None
    # The seed: the engine makes each shuffle's seed from it (SHUFFLE_SEED, SHA-512) in C.
    game = _package._engine.Game(play.config, state.seed)
    try:
        variants = play_part(play, state)
    except (AttributeError, TypeError, ValueError, KeyError, IndexError, TtrError):
        return "a variant's state the native engine cannot hold"
    try:
        load(game, state, variants)
    except (ValueError, OverflowError, TypeError) as exc:
        # The loader's own check (game.c) of what no game of the rules reaches.
        return str(exc) if isinstance(exc, ValueError) else "numbers beyond the engine's"
    return game


def _refused(state: GameState, play: Prepared) -> str | None:
    """What in ``state`` the engine does not play on, its loader aside."""
    pending = state.pending
    if (
        pending is not None
        and (pending.kind not in _KIND_NUMBER or pending.data is not None)
        and pending.kind != play.decision
        and pending.kind != neutral_decision(play)
    ):
        return f"a {pending.kind!r} decision is pending"
    if state.termination not in ENDINGS:
        return f"the game ended by {state.termination}"
    if state.forfeit is not None:
        return "a seat forfeited"
    if type(state.seed) is not int or not 0 <= state.seed < 1 << 256:
        return "a seed beyond 256 bits"
    for player in state.players:
        if player.play_points:
            return "points were scored during play"
    return None


def load(game: Any, state: GameState, variants: tuple[Any, ...] | None = None) -> None:
    """Load ``state`` into the engine's ``game`` (``variants``: its variants'
    part, :func:`~ttr_core.native.variants.play_part`, when made already);
    ``ValueError`` naming what no game of the rules reaches, and the game
    unchanged, when the engine refuses it."""
    pending = state.pending
    play = prepared(state.rules)
    display = state.display
    if None in display:
        display = tuple(-1 if card is None else card for card in display)
    if pending is None:
        kind = _NONE
    elif pending.kind == play.decision:
        kind = _TUNNEL
    elif pending.kind == neutral_decision(play):
        kind = _CHOOSE
    else:
        kind = _KIND_NUMBER[pending.kind]
    core = (
        state.deck,
        display,
        state.discard,
        state.ticket_deck,
        state.ticket_discard,
        state.owners,
        state.boxed_tickets,
        kind,
        0 if pending is None else pending.player,
        () if pending is None else pending.offered,
        0 if pending is None else pending.min_keep,
        state.start_offers,
        state.final_turns,
        state.passes,
        state.turn,
        state.shuffles,
        ENDINGS.index(state.termination),
        state.ply,
    )
    seats = [(p.hand.counts, p.known, p.cars, p.score, p.tickets, p.routes) for p in state.players]
    game.load(core, seats, play_part(play, state) if variants is None else variants)


def new_game_object(state: GameState) -> Any:
    """A compiled ``Game`` holding ``state``; :class:`ArgumentError` saying why
    when the engine cannot play it on (:func:`loaded`)."""
    found = loaded(state)
    if isinstance(found, str):
        raise ArgumentError(f"this game cannot run on the native engine: {found}")
    return found


def step_batch(games: tuple[Any, ...], *arrays: Any) -> list[int]:
    """Step compiled games together (``_engine.step_batch``; the engine must be built)."""
    assert _package._engine is not None
    ended: list[int] = _package._engine.step_batch(games, *arrays)
    return ended


def deals(rules: GameRules) -> bool:
    """Whether the compiled engine deals new games of ``rules`` as ``new_game``
    does: no variant deals the tickets or sets the game up its own way."""
    return why_not(rules) is None and not rules.deal_tickets and not rules.setup


def dealt(rules: GameRules, seed: int) -> Any:
    """A compiled ``Game`` of ``rules`` (which :func:`deals` accepts) dealt the new
    game ``new_game`` deals for ``seed`` (an int from 0 to ``2**256 - 1``)."""
    assert _package._engine is not None
    game = _package._engine.Game(prepared(rules).config, None)
    deal(game, seed)
    return game


def deal(game: Any, seed: int) -> None:
    """Deal ``game`` (a compiled ``Game`` of rules :func:`deals` accepts) a new game
    seeded ``seed`` (an int from 0 to ``2**256 - 1``): ``new_game``'s deal."""
    game.deal(seed)


def publish(game: Any, base: GameState) -> GameState:
    """The engine's state as a frozen ``GameState`` of ``base``'s game (its board,
    rules, seed, variant state and names), sharing ``base``'s players and
    tuples where they are equal."""
    core, seats, (tunnel, stations, tokens, tolls, neutral, choice) = game.export()
    (
        deck,
        display,
        discard,
        ticket_deck,
        ticket_discard,
        owners,
        boxed,
        kind,
        player,
        offered,
        min_keep,
        start_offers,
        final_turns,
        passes,
        turn,
        shuffles,
        termination,
        ply,
    ) = core
    board = base.board
    table = action_table(board, len(base.players))
    play = prepared(base.rules)
    if kind == _NONE:
        pending = None
    elif kind == 0:
        pending = table.turn[player]
    elif kind == 1:
        pending = table.second[player]
    elif kind >= _TUNNEL:
        pending = variant_pending(
            play, board, kind == _TUNNEL, player, tunnel, choice, base.pending
        )
    else:
        pending = Pending(KINDS[kind], player, offered, min_keep)
    variant_state = published_variants(play, base, stations, tokens, tolls, neutral)
    players = []
    for old, (counts, known, cars, score, tickets, routes) in zip(base.players, seats, strict=True):
        hand = old.hand if old.hand.counts == counts else Hand(counts, old.hand.names)
        new = PlayerState(hand, tickets, cars, routes, score, old.play_points, known)
        players.append(old if new == old else new)

    def same(new: tuple[Any, ...], old: tuple[Any, ...]) -> tuple[Any, ...]:
        return old if new == old else new

    return GameState(
        base.board,
        base.rules,
        base.seed,
        tuple(players),
        same(deck, base.deck),
        same(tuple(None if card < 0 else card for card in display), base.display),
        same(discard, base.discard),
        same(ticket_deck, base.ticket_deck),
        same(ticket_discard, base.ticket_discard),
        same(owners, base.owners),
        pending,
        start_offers,
        final_turns,
        passes,
        turn,
        shuffles,
        ENDINGS[termination],
        variant_state,
        ply,
        base.forfeit,
        same(boxed, base.boxed_tickets),
    )
