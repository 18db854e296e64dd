"""Finding variant plugins and resolving them into a game's rule set.

Plugins are found through the ``ttr_core.plugins`` entry-point group (the
built-in ones register there too) or registered at run time with
:func:`register_variant`. Each game gets a :class:`GameRules`: its own
pluggy manager holding only the variants switched on, with every hook
resolved once, so that a hook no plugin implements costs nothing per move.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, cast

import attrs
import pluggy

from . import hookspecs
from .board import Board
from .errors import PluginError, UnknownVariantError
from .hookspecs import ENTRY_POINT_GROUP, PROJECT, MapField

if TYPE_CHECKING:
    from .state import GameState

#: Set ``TTR_TRACE_HOOKS=1`` (before games are set up) to print the hook calls
#: pluggy dispatches to stderr; chained hooks are called directly and not traced.
TRACE_ENV = "TTR_TRACE_HOOKS"

_registered: dict[str, object] = {}
_generation = 0


def plugins_generation() -> int:
    """A number that changes whenever a variant is registered or unregistered."""
    return _generation


@functools.cache
def _entry_point_plugins() -> dict[str, object]:
    found: dict[str, object] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            found[ep.name] = ep.load()
        except Exception as exc:  # a broken third-party plugin must be named
            raise PluginError(
                f"variant plugin {ep.name!r} ({ep.value}) failed to load: {exc}"
            ) from exc
    return found


def installed_plugins() -> dict[str, object]:
    """Every known variant plugin by name: entry points, then run-time registrations."""
    return {**_entry_point_plugins(), **_registered}


def available_variants() -> tuple[str, ...]:
    """The names of every installed variant, sorted."""
    return tuple(sorted(installed_plugins()))


def register_variant(name: str, plugin: object) -> None:
    """Register ``plugin`` under variant ``name`` for this process.

    For trying a plugin without packaging it; installed packages should use
    the ``ttr_core.plugins`` entry-point group instead. Registering a name again
    replaces the earlier plugin.
    """
    _check_plugin(name, plugin)
    _registered[name] = plugin
    _plugins_changed()


def unregister_variant(name: str) -> None:
    """Forget a variant registered with :func:`register_variant`."""
    _registered.pop(name, None)
    _plugins_changed()


def _plugins_changed() -> None:
    global _generation
    _generation += 1
    _all_plugins_manager.cache_clear()
    _resolve.cache_clear()


def _new_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    if os.environ.get(TRACE_ENV):
        pm.trace.root.setwriter(sys.stderr.write)
        pm.enable_tracing()
    return pm


def _register(pm: pluggy.PluginManager, name: str, plugin: object) -> None:
    try:
        pm.register(plugin, name=name)
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginError(f"variant plugin {name!r} is invalid: {exc}") from exc


def _check_plugin(name: str, plugin: object) -> None:
    _register(_new_manager(), name, plugin)


@functools.cache
def _all_plugins_manager() -> pluggy.PluginManager:
    pm = _new_manager()
    for name, plugin in installed_plugins().items():
        _register(pm, name, plugin)
    return pm


def declared_map_fields() -> tuple[MapField, ...]:
    """Every variant map field declared by any installed plugin.

    Raises :class:`PluginError` when two plugins declare the same field.
    """
    pm = _all_plugins_manager()
    owners: dict[tuple[str, str], str] = {}
    fields: list[MapField] = []
    for impl in pm.hook.ttr_map_fields.get_hookimpls():
        declared = cast(Sequence[MapField], impl.function())
        for field in declared:
            key = (field.table, field.name)
            if key in owners:
                raise PluginError(
                    f"variants {owners[key]!r} and {impl.plugin_name!r} both declare "
                    f"the map field {field.name!r} on {field.table}"
                )
            owners[key] = impl.plugin_name
            fields.append(field)
    return tuple(fields)


def validate_variant_fields(board: Board) -> list[str]:
    """Problems the installed plugins find in ``board``'s variant fields."""
    problems: list[str] = []
    for result in _all_plugins_manager().hook.ttr_validate_map(board=board):
        if result:
            problems.extend(result)
    return problems


ChainStep = Callable[..., Any]


def _chain(
    pm: pluggy.PluginManager, hook_name: str, variants: tuple[str, ...]
) -> tuple[tuple[ChainStep, tuple[str, ...]], ...]:
    """A chained hook's implementations, in the game's variant order.

    Chains pass a state from one plugin to the next, so pluggy's ordering
    markers and wrappers have no meaning here and are refused.
    """
    impls = getattr(pm.hook, hook_name).get_hookimpls()
    for impl in impls:
        if impl.hookwrapper or impl.wrapper or impl.tryfirst or impl.trylast:
            raise PluginError(
                f"variant {impl.plugin_name!r}: {hook_name} is a chained hook; it runs in "
                "variant order and takes no wrapper, tryfirst or trylast marker"
            )
    order = {name: i for i, name in enumerate(variants)}
    impls = sorted(impls, key=lambda impl: order[impl.plugin_name])
    return tuple((impl.function, impl.argnames) for impl in impls)


def run_chain(
    steps: Sequence[tuple[ChainStep, tuple[str, ...]]], state: GameState, **kwargs: Any
) -> GameState:
    """Run a chained hook: each step gets the state the previous one returned."""
    for function, argnames in steps:
        kwargs["state"] = state
        result = function(**{name: kwargs[name] for name in argnames})
        if result is not None:
            state = result
    return state


@attrs.frozen(eq=False)
class GameRules:
    """The rule set of one game configuration, resolved once and shared.

    Holds the game's plugin manager (only the variants switched on) and, for
    each hook, either what the engine must call or nothing at all.
    """

    board: Board
    players: int
    variants: tuple[str, ...]
    pm: pluggy.PluginManager = attrs.field(repr=False)
    both_pair_routes_usable: bool
    setup: tuple[tuple[ChainStep, tuple[str, ...]], ...] = attrs.field(repr=False)
    after_claim: tuple[tuple[ChainStep, tuple[str, ...]], ...] = attrs.field(repr=False)
    between_turns: tuple[tuple[ChainStep, tuple[str, ...]], ...] = attrs.field(repr=False)
    has_veto: bool
    has_extra_actions: bool
    has_apply_action: bool
    has_score_lines: bool
    has_player_view: bool

    def _key(self) -> tuple[str, int, tuple[str, ...]]:
        return (self.board.id, self.players, self.variants)

    def __eq__(self, other: object) -> bool:
        # Rule sets are equal when they configure the same game, even across
        # processes (a pickled state resolves its own).
        if not isinstance(other, GameRules):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[Any, tuple[Board, int, tuple[str, ...]]]:
        # Pickled by configuration: the receiving process resolves its own plugins.
        return (game_rules, (self.board, self.players, self.variants))

    def __deepcopy__(self, memo: dict[int, Any]) -> GameRules:
        return self

    def veto(self, state: GameState, action: Any) -> str | None:
        """The first veto any plugin gives ``action``, or ``None``."""
        if not self.has_veto:
            return None
        for reason in self.pm.hook.ttr_veto_action(state=state, action=action):
            if reason:
                return str(reason)
        return None


def _implemented(pm: pluggy.PluginManager, hook_name: str) -> bool:
    return bool(getattr(pm.hook, hook_name).get_hookimpls())


def resolve_variants(board: Board, variants: Iterable[str] | None) -> tuple[str, ...]:
    """The variant names a game uses: the map's defaults when ``variants`` is None."""
    names = board.rules.default_variants if variants is None else tuple(variants)
    known = installed_plugins()
    for name in names:
        if name not in known:
            raise UnknownVariantError(name, sorted(known))
    return tuple(dict.fromkeys(names))


def game_rules(board: Board, players: int, variants: tuple[str, ...]) -> GameRules:
    """The resolved :class:`GameRules` for a game configuration (cached)."""
    return _resolve(board, players, variants)


@functools.lru_cache(maxsize=256)
def _resolve(board: Board, players: int, variants: tuple[str, ...]) -> GameRules:
    pm = _new_manager()
    known = installed_plugins()
    for name in variants:
        _register(pm, name, known[name])
    usable = pm.hook.ttr_both_pair_routes_usable(board=board, players=players)
    if usable is None:
        usable = players >= board.rules.both_pair_routes_min_players
    return GameRules(
        board=board,
        players=players,
        variants=variants,
        pm=pm,
        both_pair_routes_usable=bool(usable),
        setup=_chain(pm, "ttr_setup", variants),
        after_claim=_chain(pm, "ttr_after_claim", variants),
        between_turns=_chain(pm, "ttr_between_turns", variants),
        has_veto=_implemented(pm, "ttr_veto_action"),
        has_extra_actions=_implemented(pm, "ttr_extra_actions"),
        has_apply_action=_implemented(pm, "ttr_apply_action"),
        has_score_lines=_implemented(pm, "ttr_score_lines"),
        has_player_view=_implemented(pm, "ttr_player_view"),
    )
