"""A game's rule set: the configuration and the variants' hook implementations.

A :class:`GameRules` is a value: the board, the player count, the variants
and their options, and for every hook the implementations of the game's
variants in the game's order (:class:`HookImpl`). Every state of a game
refers to one. It is resolved once per configuration by the plugin manager
(:mod:`ttr_core.hooks.resolve`) and its hooks are called, their results
checked, by :mod:`ttr_core.hooks.calls`: this module knows neither, so the
states below the plugin interface can hold their rule set.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import attrs

from ttr_core.errors import ArgumentError, OptionError, PluginError, TtrError, show
from ttr_core.model.board import Board

__all__ = ["GameRules", "HookImpl", "Impls", "OptionValues"]


@attrs.frozen
class HookImpl:
    """One plugin's implementation of one hook.

    Called with the hook's arguments positionally, in the spec's order; it
    passes the implementation the ones it names (``call``, the adapter the
    plugin manager builds once from the hook's spec).
    """

    variant: str
    hook: str
    function: Callable[..., Any]
    argnames: tuple[str, ...]
    #: ``function`` taking the hook's arguments positionally, in the spec's order.
    call: Callable[..., Any] = attrs.field(repr=False, eq=False)
    #: Print each call to stderr (``TTR_TRACE_HOOKS``, read when a game's rules are resolved).
    trace: bool = False

    def __call__(self, *args: Any) -> Any:
        if self.trace:
            sys.stderr.write(f"ttr hook {self.hook} [{self.variant}]\n")
        try:
            return self.call(*args)
        except Exception as exc:
            blamed = self.blame(exc)
            if blamed is exc:
                raise
            raise blamed from exc

    def blame(self, exc: Exception, *, reading: bool = False) -> Exception:
        """The error to raise for ``exc``, raised by this hook's code while it ran
        (or, ``reading``, while its lazy result was read): an error that names a
        variant already, or any other library error, as it is; a library call
        that refused what the plugin asked, or the plugin's own bug, as a
        :class:`PluginError` naming this variant and hook."""
        if isinstance(exc, PluginError):
            if exc.variant is not None:
                return exc
            where = " (while its result was read)" if reading else ""
            message = f"variant {self.variant!r}: hook {self.hook}{where}: {exc}"
        elif isinstance(exc, TtrError):
            return exc
        else:
            where = " while its result was read" if reading else ""
            message = (
                f"variant {self.variant!r}: hook {self.hook} raised "
                f"{type(exc).__name__}{where}: {exc}"
            )
        return PluginError(message, variant=self.variant, hook=self.hook)


#: Per hook, the implementations of a game's variants, in the game's variant order.
Impls = tuple[HookImpl, ...]

#: A game's options, canonical: ``((variant, ((name, value), ...)), ...)`` with
#: every option of every variant of the game, defaults filled in, names sorted.
OptionValues = tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]


@attrs.frozen(eq=False)
class GameRules:
    """The rule set of one game configuration, resolved once and shared.

    ``board``, ``players``, ``variants`` and ``options`` identify the
    configuration; :meth:`option` reads one option's value. The hook tuples
    hold, per hook, the implementations of the game's variants in variant
    order (empty: the engine never calls the hook). The engine calls them
    through :mod:`ttr_core.hooks.calls`, which checks every result; the
    plugin manager (:mod:`ttr_core.hooks.resolve`) builds a rule set.
    """

    board: Board
    players: int
    variants: tuple[str, ...]
    options: OptionValues
    both_pair_routes_usable: bool
    setup: Impls = attrs.field(repr=False)
    filter: Impls = attrs.field(repr=False)
    veto: Impls = attrs.field(repr=False)
    extra_actions: Impls = attrs.field(repr=False)
    apply_action: Impls = attrs.field(repr=False)
    after_claim: Impls = attrs.field(repr=False)
    between_turns: Impls = attrs.field(repr=False)
    game_over: Impls = attrs.field(repr=False)
    score_lines: Impls = attrs.field(repr=False)
    tie_break: Impls = attrs.field(repr=False)
    player_view: Impls = attrs.field(repr=False)
    non_seat_owners: Impls = attrs.field(repr=False)
    determinize: Impls = attrs.field(repr=False, default=())
    check_state: Impls = attrs.field(repr=False, default=())
    agent_route_costs: Impls = attrs.field(repr=False, default=())
    agent_action_purpose: Impls = attrs.field(repr=False, default=())
    #: Run by the checkers (``ttr_core.testing``), never by ``apply``.
    check_transition: Impls = attrs.field(repr=False, default=())
    #: ``ttr_action_space``: called by :mod:`ttr_core.rules.action_ids` only, once per
    #: configuration.
    action_space: Impls = attrs.field(repr=False, default=())
    #: ``ttr_ticket_connections``: called by the ticket check
    #: (``rules.scoring.completed_tickets``).
    ticket_connections: Impls = attrs.field(repr=False, default=())
    #: ``ttr_ticket_ends``: asked once per ticket by the ticket check
    #: (``rules.tickets.ticket_ends``), its answers kept in :attr:`derived`.
    ticket_ends: Impls = attrs.field(repr=False, default=())
    #: ``ttr_describe_action``, ``ttr_tokens`` and ``ttr_route_styles``: words and
    #: pictures, never ``apply``.
    describe_action: Impls = attrs.field(repr=False, default=())
    tokens: Impls = attrs.field(repr=False, default=())
    route_styles: Impls = attrs.field(repr=False, default=())
    #: ``ttr_move_words``, ``ttr_move_notes`` and ``ttr_view_words``: the front
    #: ends' words, never ``apply``.
    move_words: Impls = attrs.field(repr=False, default=())
    describe_effects: Impls = attrs.field(repr=False, default=())
    move_notes: Impls = attrs.field(repr=False, default=())
    view_words: Impls = attrs.field(repr=False, default=())
    #: ``ttr_before_claim``: asked by ``apply`` of a legal ``ClaimRoute`` (the claim pipeline).
    before_claim: Impls = attrs.field(repr=False, default=())
    #: ``ttr_native_rules``: asked once per configuration by ``ttr_core.native``.
    native_rules: Impls = attrs.field(repr=False, default=())
    #: ``ttr_deal_tickets``: asked by the starting deal and ``DrawTickets`` (``ticket_draw``).
    deal_tickets: Impls = attrs.field(repr=False, default=())
    _option_map: dict[tuple[str, str], Any] = attrs.field(init=False, repr=False)
    #: What the rules derive from this rule set once (the ticket check's ends),
    #: kept here for as long as the rule set lives. Filled by one store of a
    #: finished value: a race builds the same value twice, never half of one.
    derived: dict[str, Any] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        values = {(v, name): value for v, opts in self.options for name, value in opts}
        object.__setattr__(self, "_option_map", values)
        object.__setattr__(self, "derived", {})

    def _key(self) -> tuple[str, int, tuple[str, ...], OptionValues]:
        return (self.board.id, self.players, self.variants, self.options)

    def __eq__(self, other: object) -> bool:
        # Rule sets are equal when they configure the same game, even across
        # processes (a pickled state resolves its own).
        if not isinstance(other, GameRules):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __deepcopy__(self, memo: dict[int, Any]) -> GameRules:
        return self

    def option(self, variant: str, name: str) -> Any:
        """The value of option ``name`` of ``variant`` in this game (``OptionError``
        if there is none, or ``variant`` or ``name`` is not a ``str``)."""
        try:
            if type(variant) is not str or type(name) is not str:
                raise KeyError(name)
            return self._option_map[(variant, name)]
        except KeyError:
            raise OptionError(
                f"variant {show(variant)} has no option {show(name)} in this game "
                f"(variants: {', '.join(self.variants) or 'none'})"
            ) from None

    def title(self, key: str, default: str) -> str:
        """The map's title for a variant's score lines (``[rules.titles]``), or ``default``.

        ``key`` is the variant's name (or a dotted key of its own,
        ``"longest_route.short"``): a map of the European Express gives
        ``longest_route = "European Express"``. ``ArgumentError`` if ``key``
        or ``default`` is not a string.
        """
        if type(key) is not str or type(default) is not str:
            raise ArgumentError(
                f"key and default must be strings, not {show(key)} and {show(default)}"
            )
        return self.board.titles.get(key, default)
