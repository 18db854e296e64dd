"""Resolving a game configuration into its rule set: the variants named (or
the map's defaults), their options checked and completed, each variant's
``ttr_check_game`` asked, and the hook implementations gathered into a
:class:`~ttr_core.model.gamerules.GameRules`, kept on the board per
configuration.
"""

from __future__ import annotations

import copyreg
import itertools
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from ttr_core.errors import (
    GameConfigError,
    OptionError,
    UnknownVariantError,
    show,
)
from ttr_core.hooks import checks as hookcheck
from ttr_core.hooks import declared
from ttr_core.hooks.manager import (
    TRACE_ENV,
    Plugin,
    _plugin,
    available_variants,
    plugins_generation,
)
from ttr_core.model.board import Board, Location, Route, Ticket, derive
from ttr_core.model.gamerules import GameRules, Impls, OptionValues

#: The most variants one game switches on.
MAX_GAME_VARIANTS = 64


def resolve_options(
    variants: tuple[str, ...], given: Mapping[str, Mapping[str, Any]] | None
) -> OptionValues:
    """Check ``given`` against the options the game's variants declare; fill in defaults."""
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise OptionError(
            f"options must map variant names to {{option: value}} tables, not {show(given)}"
        )
    for variant in given:
        if variant not in variants:
            raise OptionError(
                f"options are given for variant {show(variant)}, which this game does not switch "
                f"on (its variants: {', '.join(variants) or 'none'})"
            )
    resolved = []
    for variant in variants:
        offered = {opt.name: opt for opt in _plugin(variant).options}
        values = given.get(variant, {})
        if not isinstance(values, Mapping):
            raise OptionError(
                f"options of variant {variant!r} must be a table of option = value, "
                f"not {show(values)}"
            )
        for name in values:
            if name not in offered:
                raise OptionError(declared.unknown_option(variant, name, offered))
        chosen = {
            name: declared.option_value(variant, opt, values.get(name, opt.default))
            for name, opt in offered.items()
        }
        resolved.append((variant, tuple(sorted(chosen.items()))))
    return tuple(resolved)


def resolve_variants(board: Board, variants: Iterable[str] | None) -> tuple[str, ...]:
    """The variant names a game uses: the map's defaults when ``variants`` is None."""
    if variants is None:
        names = board.rules.default_variants
    elif isinstance(variants, str) or not isinstance(variants, Iterable):
        known = available_variants()
        raise UnknownVariantError(
            variants,
            known,
            f"variants must be a list of variant names (from {', '.join(known)}), "
            f"not {show(variants)}",
        )
    else:
        try:  # a bounded read of whatever iterable was given
            names = tuple(itertools.islice(variants, MAX_GAME_VARIANTS + 1))
        except Exception as exc:
            raise UnknownVariantError(
                variants,
                available_variants(),
                f"variants cannot be read: {type(exc).__name__} from {type(variants).__name__}",
            ) from None
        if len(names) > MAX_GAME_VARIANTS:
            raise UnknownVariantError(
                variants,
                available_variants(),
                f"a game switches on at most {MAX_GAME_VARIANTS} variants",
            )
    for name in names:
        if not isinstance(name, str):
            known = available_variants()
            raise UnknownVariantError(
                name,
                known,
                f"a variant name is a str (one of {', '.join(known)}), "
                f"not {type(name).__name__} {show(name)}",
            )
        _plugin(name)
    _check_once(names)
    return names


def _check_once(variants: Iterable[str]) -> None:
    """Refuse a variant named twice (``["tolls", "tolls"]``): a game switches a
    variant on once."""
    seen: set[str] = set()
    for name in variants:
        if name in seen:
            raise GameConfigError(
                f"variant {show(name)} is named twice: a game switches each variant on once",
                variant=name,
            )
        seen.add(name)


def game_rules(
    board: Board,
    players: int,
    variants: tuple[str, ...],
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> GameRules:
    """The resolved :class:`GameRules` for a game configuration (cached)."""
    _check_once(variants)
    return _resolve(board, players, variants, resolve_options(variants, options))


class _RuleSets:
    """The resolved rule sets, kept on each board (``board.derived``): a board's
    rule sets live exactly as long as the board. Each is kept for the plugins'
    generation (:func:`~ttr_core.hooks.manager.plugins_generation`): when the
    plugins change, every rule set resolved before is left behind. Safe between
    threads (:func:`~ttr_core.model.board.derive`): the look-up is lock-free, the
    evictions and the fill are done under the board lock, and every thread
    gets the one rule set kept for a configuration."""

    #: Most rule sets kept per board (configurations: players, variants, options).
    PER_BOARD = 64

    def __call__(
        self, board: Board, players: int, variants: tuple[str, ...], options: OptionValues
    ) -> GameRules:
        generation = plugins_generation()
        key = ("rules", generation, players, variants, options)
        rules: GameRules | None = board.derived.get(key)
        if rules is None:

            def evict(derived: dict[Any, Any]) -> None:
                kept = [k for k in derived if type(k) is tuple and k[0] == "rules"]
                for k in kept:
                    if k[1] != generation:
                        del derived[k]
                kept = [k for k in kept if k[1] == generation]
                for k in kept[: max(0, len(kept) + 1 - self.PER_BOARD)]:
                    del derived[k]  # the oldest configurations first

            def resolve() -> GameRules:
                return _resolve_rules(board, players, variants, options)

            rules = derive(board, key, resolve, evict)
        return rules


_resolve = _RuleSets()


def _check_needed_fields(board: Board, plugin: Plugin) -> None:
    """Refuse ``plugin``'s variant on ``board`` if it declares needed map fields
    (``MapField.needed``) and the map gives none of them a value of its own."""
    needed = [f for f in plugin.fields if f.needed]
    if not needed:
        return
    tables: dict[str, Sequence[Location | Route | Ticket]] = {
        "locations": board.locations,
        "routes": board.routes,
        "tickets": board.tickets,
    }
    for field in needed:
        entries = tables.get(field.table, ())
        if any(e.extra.get(field.name, field.default) != field.default for e in entries):
            return
    missing = " or ".join(f"{show(f.name)} on {f.table}" for f in needed)
    raise GameConfigError(
        f"variant {plugin.name!r} cannot be played on map {show(board.id)}: it needs the map "
        f"field {missing}, which no entry of the map gives",
        variant=plugin.name,
    )


def _resolve_rules(
    board: Board, players: int, variants: tuple[str, ...], options: OptionValues
) -> GameRules:
    plugins = [_plugin(name) for name in variants]
    trace = bool(os.environ.get(TRACE_ENV))

    def impls(hook: str) -> Impls:
        found = tuple(p.impls[hook] for p in plugins if hook in p.impls)
        return tuple(attrs.evolve(impl, trace=True) for impl in found) if trace else found

    for plugin in plugins:
        _check_needed_fields(board, plugin)
    for impl in impls("ttr_check_game"):
        refusal = hookcheck.refusal(impl, impl(board, players, variants))
        if refusal is not None:
            raise GameConfigError(f"variant {impl.variant!r}: {refusal}", variant=impl.variant)
    usable: bool | None = None
    for impl in impls("ttr_both_pair_routes_usable"):
        usable = hookcheck.optional_bool(impl, impl(board, players))
        if usable is not None:
            break
    if usable is None:
        usable = players >= board.rules.both_pair_routes_min_players
    return GameRules(
        board=board,
        players=players,
        variants=variants,
        options=options,
        both_pair_routes_usable=usable,
        setup=impls("ttr_setup"),
        filter=impls("ttr_filter_actions"),
        veto=impls("ttr_veto_action"),
        extra_actions=impls("ttr_extra_actions"),
        apply_action=impls("ttr_apply_action"),
        after_claim=impls("ttr_after_claim"),
        between_turns=impls("ttr_between_turns"),
        game_over=impls("ttr_game_over"),
        score_lines=impls("ttr_score_lines"),
        tie_break=impls("ttr_tie_break"),
        player_view=impls("ttr_player_view"),
        non_seat_owners=impls("ttr_non_seat_owners"),
        determinize=impls("ttr_determinize"),
        check_state=impls("ttr_check_state"),
        agent_route_costs=impls("ttr_agent_route_costs"),
        agent_action_purpose=impls("ttr_agent_action_purpose"),
        check_transition=impls("ttr_check_transition"),
        action_space=impls("ttr_action_space"),
        ticket_connections=impls("ttr_ticket_connections"),
        ticket_ends=impls("ttr_ticket_ends"),
        describe_action=impls("ttr_describe_action"),
        tokens=impls("ttr_tokens"),
        route_styles=impls("ttr_route_styles"),
        move_words=impls("ttr_move_words"),
        describe_effects=impls("ttr_describe_effects"),
        move_notes=impls("ttr_move_notes"),
        view_words=impls("ttr_view_words"),
        before_claim=impls("ttr_before_claim"),
        deal_tickets=impls("ttr_deal_tickets"),
        native_rules=impls("ttr_native_rules"),
    )


def _pickled_rules(rules: GameRules) -> tuple[Any, tuple[Any, ...]]:
    # Pickled by configuration: the receiving process resolves its own plugins.
    given = {variant: dict(values) for variant, values in rules.options}
    return (game_rules, (rules.board, rules.players, rules.variants, given))


# Registered here, not in GameRules.__reduce__: the rule set (a value of the
# model layer) cannot name the plugin manager that resolves it.
copyreg.pickle(GameRules, _pickled_rules)
