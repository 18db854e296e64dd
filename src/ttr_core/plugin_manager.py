"""Finding variant plugins and resolving them into a game's rule set.

Plugins are found through the ``ttr_core.plugins`` entry-point group (the
built-in ones register there too) or registered at run time with
:func:`register_variant`. Each plugin is checked once when found: pluggy
validates its hook implementations, and its map fields and options are read
and checked. A plugin that fails to import or to pass these checks is
*broken*: it is left out, :func:`broken_variants` says why, and only games
that ask for it fail.

Each game configuration gets a :class:`GameRules`: for every hook, the
implementations of the game's variants in the game's variant order, called
directly (a hook no plugin implements costs nothing per move) and with their
results checked (see :mod:`ttr_core.hookcheck`).
"""

from __future__ import annotations

import inspect
import itertools
import os
import random
import re
import sys
import threading
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any

import attrs
import pluggy

from . import hookcheck, hookspecs
from .board import Board, Location, Route, Ticket, derive
from .errors import (
    ArgumentError,
    GameConfigError,
    OptionError,
    PluginError,
    TtrError,
    TtrWarning,
    UnknownVariantError,
    show,
)
from .hookspecs import (
    ENTRY_POINT_GROUP,
    PROJECT,
    MapField,
    NonSeatOwner,
    RouteStyle,
    Token,
    VariantOption,
)

if TYPE_CHECKING:
    from .actions import Action, ClaimRoute
    from .hookspecs import BuildsToken, ClaimsRoute, ClosesRoute
    from .scoring import ScoreLine, ScoreSheet
    from .state import GameState
    from .views import PlayerView

#: Longest variant name :func:`register_variant` takes.
MAX_VARIANT_NAME = 64
#: The most variants one game switches on.
MAX_GAME_VARIANTS = 64
#: What a variant name looks like: a short identifier ("tolls", "longest_route").
VARIANT_NAME = re.compile(rf"[A-Za-z0-9_][A-Za-z0-9_.\-]{{0,{MAX_VARIANT_NAME - 1}}}")

#: Set ``TTR_TRACE_HOOKS=1`` to print every hook call (hook and variant) to stderr.
TRACE_ENV = "TTR_TRACE_HOOKS"

#: The hook names, from the specs.
HOOK_NAMES: tuple[str, ...] = tuple(
    sorted(name for name in vars(hookspecs) if name.startswith("ttr_"))
)


# ---------------------------------------------------------------------------
# Plugins: found, checked, and isolated when broken
# ---------------------------------------------------------------------------


#: Each hook's parameters, in the spec's order.
SPEC_ARGS: dict[str, tuple[str, ...]] = {
    name: tuple(inspect.signature(getattr(hookspecs, name)).parameters) for name in HOOK_NAMES
}


def _positional(function: Callable[..., Any], argnames: tuple[str, ...], hook: str) -> Any:
    """``function`` as a callable taking the hook's arguments positionally, in spec order.

    An implementation may take any subset of the spec's parameters, in any
    order; this adapter is built once, so each call passes no keywords.
    """
    spec = SPEC_ARGS[hook]
    if argnames == spec:
        return function
    picks = tuple(spec.index(name) for name in argnames)
    if not picks:
        return lambda *args: function()
    if len(picks) == 1:
        (only,) = picks
        return lambda *args: function(args[only])
    return lambda *args: function(*[args[i] for i in picks])


@attrs.frozen
class HookImpl:
    """One plugin's implementation of one hook.

    Called with the hook's arguments positionally, in the spec's order; it
    passes the implementation the ones it names.
    """

    variant: str
    hook: str
    function: Callable[..., Any]
    argnames: tuple[str, ...]
    #: Print each call to stderr (``TTR_TRACE_HOOKS``, read when a game's rules are resolved).
    trace: bool = False
    _call: Callable[..., Any] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_call", _positional(self.function, self.argnames, self.hook))

    def __call__(self, *args: Any) -> Any:
        if self.trace:
            sys.stderr.write(f"ttr hook {self.hook} [{self.variant}]\n")
        try:
            return self._call(*args)
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


@attrs.frozen
class Plugin:
    """A variant plugin, checked: its hook implementations, map fields and options."""

    name: str
    obj: object = attrs.field(repr=False)
    impls: Mapping[str, HookImpl] = attrs.field(repr=False)
    fields: tuple[MapField, ...]
    options: tuple[VariantOption, ...]


def _inspect(name: str, obj: object) -> Plugin:
    """Validate ``obj`` as the plugin of variant ``name`` (``PluginError`` if it is not)."""
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    try:
        pm.register(obj, name=name)
        pm.check_pending()
    except (pluggy.PluginValidationError, ValueError) as exc:
        raise PluginError(f"variant plugin {name!r} is invalid: {exc}", variant=name) from exc
    impls: dict[str, HookImpl] = {}
    for hook in HOOK_NAMES:
        for impl in getattr(pm.hook, hook).get_hookimpls():
            if impl.hookwrapper or impl.wrapper or impl.tryfirst or impl.trylast:
                raise PluginError(
                    f"variant {name!r}: {hook} runs in the game's variant order and takes "
                    "no wrapper, tryfirst or trylast marker",
                    variant=name,
                    hook=hook,
                )
            impls[hook] = HookImpl(name, hook, impl.function, tuple(impl.argnames))
    if not impls:
        # Anything registers with pluggy (an int, None); a plugin implements a hook.
        raise PluginError(
            f"variant plugin {name!r} implements no hook: expected an object or module with "
            f"functions marked @ttr_core.hookimpl, not {show(obj)}",
            variant=name,
        )
    fields: tuple[MapField, ...] = ()
    if "ttr_map_fields" in impls:
        fields = hookcheck.map_fields(impls["ttr_map_fields"], impls["ttr_map_fields"]())
    options: tuple[VariantOption, ...] = ()
    if "ttr_options" in impls:
        options = hookcheck.options(impls["ttr_options"], impls["ttr_options"]())
    return Plugin(name, obj, impls, fields, options)


#: Held by whoever changes the set of plugins (discovery, registration, a
#: plugin found broken). Readers take no lock: the dicts below are never
#: changed once published, only replaced (copy on write), so a reader
#: iterates a snapshot no thread changes. Reentrant: a plugin may register
#: another while it is imported.
_PLUGINS_LOCK = threading.RLock()
_discovered: tuple[dict[str, Plugin], dict[str, str]] | None = None


def _entry_point_plugins() -> tuple[dict[str, Plugin], dict[str, str]]:
    """The entry-point plugins: those that load and pass the checks, and the
    broken ones with what is wrong with each (looked for once, by one thread)."""
    global _discovered
    found = _discovered
    if found is None:
        with _PLUGINS_LOCK:
            found = _discovered
            if found is None:
                found = _discovered = _discover()
    return found


def _discover() -> tuple[dict[str, Plugin], dict[str, str]]:
    good: dict[str, Plugin] = {}
    broken: dict[str, str] = {}
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=_discovery_order):
        try:
            obj = ep.load()
        except Exception as exc:  # a broken third-party plugin must not break the others
            broken[ep.name] = f"failed to import {ep.value}: {type(exc).__name__}: {exc}"
            continue
        try:
            plugin = _inspect(ep.name, obj)
            _check_field_clash(plugin, good.values())
        except PluginError as exc:
            broken[ep.name] = str(exc)
            continue
        good[ep.name] = plugin
    return good, broken


def _discovery_order(ep: EntryPoint) -> tuple[bool, str]:
    """ttr-core's own plugins first, then the others by name: when two clash,
    the one found second is the broken one, so a third-party plugin can never
    break a built-in one."""
    dist = getattr(ep, "dist", None)
    own = dist is not None and dist.name.replace("_", "-").lower() == "ttr-core"
    return (not own, ep.name)


def _check_field_clash(plugin: Plugin, others: Iterable[Plugin]) -> None:
    """Refuse a plugin declaring a map field another plugin declares already."""
    taken = {(f.table, f.name): other.name for other in others for f in other.fields}
    for field in plugin.fields:
        owner = taken.get((field.table, field.name))
        if owner is not None and owner != plugin.name:
            raise PluginError(
                f"variant {plugin.name!r} declares the map field {show(field.name)} on "
                f"{field.table}, which variant {owner!r} declares already",
                variant=plugin.name,
                hook="ttr_map_fields",
            )


_registered: dict[str, Plugin] = {}
#: Plugins found broken while in use (a map check that crashed), with the error.
_failed: dict[str, str] = {}
_generation = 0


def plugins_generation() -> int:
    """A number that changes whenever the set of plugins changes."""
    return _generation


def installed_plugins() -> dict[str, Plugin]:
    """Every working variant plugin by name: entry points, then run-time registrations."""
    found = {**_entry_point_plugins()[0], **_registered}
    for name in _failed:
        found.pop(name, None)
    return found


def available_variants() -> tuple[str, ...]:
    """The names of every installed variant that works, sorted."""
    return tuple(sorted(installed_plugins()))


def broken_variants() -> dict[str, str]:
    """Installed variants that cannot be used, each with what is wrong.

    A plugin whose entry point fails to import, or whose hooks, map fields or
    options are invalid, is left out of every game; only a game that asks for
    it fails (with :class:`PluginError`).
    """
    broken = {n: e for n, e in _entry_point_plugins()[1].items() if n not in _registered}
    broken.update(_failed)
    return dict(sorted(broken.items()))


def variant_options(name: str) -> tuple[VariantOption, ...]:
    """The options variant ``name`` declares (``UnknownVariantError`` if none is installed,
    or ``name`` is not a ``str``)."""
    return _plugin(_variant_name(name)).options


def _variant_name(name: object) -> str:
    """``name`` if it is a ``str``, else :class:`UnknownVariantError` (a ``LookupError``
    like that of an unknown name)."""
    if not isinstance(name, str):
        known = available_variants()
        raise UnknownVariantError(
            name,
            known,
            f"a variant name is a str (one of {', '.join(known) or 'none'}), "
            f"not {type(name).__name__} {show(name)}",
        )
    return name


def register_variant(name: str, plugin: object) -> None:
    """Register ``plugin`` under variant ``name`` for this process.

    For trying a plugin without packaging it; installed packages should use
    the ``ttr_core.plugins`` entry-point group instead. The plugin is checked
    at once (:class:`PluginError`). Registering a name again replaces the
    earlier plugin.
    """
    if not isinstance(name, str) or not name:
        raise PluginError(f"a variant name must be a non-empty string, not {show(name)}")
    if not VARIANT_NAME.fullmatch(name):
        raise PluginError(
            f"a variant name is up to {MAX_VARIANT_NAME} letters, digits, '_', '.' or '-', "
            f"starting with a letter, digit or '_', not {show(name)}"
        )
    global _registered, _failed
    checked = _inspect(name, plugin)
    with _PLUGINS_LOCK:
        _check_field_clash(checked, (p for n, p in installed_plugins().items() if n != name))
        _registered = {**_registered, name: checked}
        _failed = {n: e for n, e in _failed.items() if n != name}
        _plugins_changed()


def unregister_variant(name: str) -> bool:
    """Forget a variant registered with :func:`register_variant`: ``True`` if one
    was, ``False`` if no variant is registered under ``name`` (an installed
    package's variant is not: it stays). :class:`UnknownVariantError` if
    ``name`` is not a ``str``.
    """
    global _registered, _failed
    _variant_name(name)
    with _PLUGINS_LOCK:
        if name not in _registered:
            return False
        _registered = {n: p for n, p in _registered.items() if n != name}
        _failed = {n: e for n, e in _failed.items() if n != name}
        _plugins_changed()
    return True


def rescan_entry_points() -> None:
    """Look for entry-point plugins again (after installing a package in a running process)."""
    global _discovered, _failed
    with _PLUGINS_LOCK:
        _discovered = None
        _failed = {}
        _plugins_changed()


def _plugins_changed() -> None:
    global _generation
    with _PLUGINS_LOCK:
        _generation += 1
        _resolve.cache_clear()


def _plugin(name: str) -> Plugin:
    plugins = installed_plugins()
    plugin = plugins.get(name)
    if plugin is not None:
        return plugin
    broken = broken_variants()
    if name in broken:
        raise PluginError(f"variant {name!r} is installed but broken: {broken[name]}", variant=name)
    known = sorted(plugins)
    raise UnknownVariantError(
        name, known, f"unknown variant {show(name)}: expected one of {', '.join(known) or 'none'}"
    )


def _all_impls(hook: str) -> list[HookImpl]:
    return [p.impls[hook] for p in installed_plugins().values() if hook in p.impls]


def declared_map_fields() -> tuple[MapField, ...]:
    """Every variant map field declared by any installed plugin.

    Raises :class:`PluginError` when two plugins declare the same field.
    """
    owners: dict[tuple[str, str], str] = {}
    fields: list[MapField] = []
    for plugin in installed_plugins().values():
        for field in plugin.fields:
            key = (field.table, field.name)
            if key in owners:
                raise PluginError(
                    f"variants {owners[key]!r} and {plugin.name!r} both declare "
                    f"the map field {show(field.name)} on {field.table}",
                    variant=plugin.name,
                    hook="ttr_map_fields",
                )
            owners[key] = plugin.name
            fields.append(field)
    return tuple(fields)


def validate_variant_fields(board: Board) -> list[str]:
    """Problems the installed plugins find in ``board``'s variant fields."""
    global _failed
    problems: list[str] = []
    for impl in _all_impls("ttr_validate_map"):
        try:
            problems.extend(hookcheck.messages(impl, impl(board)))
        except PluginError as exc:
            # A plugin whose map check crashes is broken: it must not make every
            # map unloadable. It is left out from now on, and says why — here,
            # at the load that found it, and in broken_variants().
            with _PLUGINS_LOCK:
                _failed = {**_failed, impl.variant: str(exc)}
                _plugins_changed()
            warnings.warn(
                f"{exc}; variant {impl.variant!r} is left out from now on "
                "(ttr_core.broken_variants() says why)",
                TtrWarning,
                stacklevel=2,
            )
    return problems


# ---------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------

#: A game's options, canonical: ``((variant, ((name, value), ...)), ...)`` with
#: every option of every variant of the game, defaults filled in, names sorted.
OptionValues = tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]


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
        declared = {opt.name: opt for opt in _plugin(variant).options}
        values = given.get(variant, {})
        if not isinstance(values, Mapping):
            raise OptionError(
                f"options of variant {variant!r} must be a table of option = value, "
                f"not {show(values)}"
            )
        for name in values:
            if name not in declared:
                raise OptionError(hookcheck.unknown_option(variant, name, declared))
        chosen = {
            name: hookcheck.option_value(variant, opt, values.get(name, opt.default))
            for name, opt in declared.items()
        }
        resolved.append((variant, tuple(sorted(chosen.items()))))
    return tuple(resolved)


# ---------------------------------------------------------------------------
# The resolved rule set of one game configuration
# ---------------------------------------------------------------------------

#: What the variants' filters removed from one state's candidates, for ``apply``
#: (which refuses those actions, ``vetoed_by_variant``): for each filter that
#: removed something, in order, the variant's name followed by the actions it
#: removed (flat, in one list: a name is a ``str``, never an action). Worked
#: out without hashing any action (see :func:`_left_out`).
FilteredOut = list["str | Action"]


def _left_out(candidates: tuple[Action, ...], kept: Sequence[Action]) -> list[Action] | None:
    """The candidates missing from ``kept`` when ``kept`` is the candidates with
    some left out, in their order, as the same objects (what a filter that
    keeps what it was given returns); else ``None``.

    One pass comparing objects by identity: neither hashes an action nor
    calls its ``__eq__``. A match of every kept object also shows that each
    is a candidate and none is kept twice (the candidates are distinct
    objects), the checks ``hookcheck.filtered`` makes by value.
    """
    left: list[Action] = []
    j = 0
    size = len(kept)
    for action in candidates:
        if j < size and kept[j] is action:
            j += 1
        else:
            left.append(action)
    return left if j == size else None


Impls = tuple[HookImpl, ...]
#: The argument names of a ttr_filter_actions implementation that run_filter
#: calls directly (any other is called through its HookImpl).
_ACTIONS = ("actions",)
_STATE_ACTIONS = ("state", "actions")


@attrs.frozen(eq=False)
class GameRules:
    """The rule set of one game configuration, resolved once and shared.

    ``board``, ``players``, ``variants`` and ``options`` identify the
    configuration; :meth:`option` reads one option's value. The hook tuples
    hold, per hook, the implementations of the game's variants in variant
    order (empty: the engine never calls the hook). The ``run_*`` methods
    call a hook and check its result.
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
    #: Run by the checkers (``ttr_core.invariants``), never by ``apply``.
    check_transition: Impls = attrs.field(repr=False, default=())
    #: ``ttr_action_space``: called by :mod:`ttr_core.action_ids` only, once per configuration.
    action_space: Impls = attrs.field(repr=False, default=())
    #: ``ttr_ticket_connections``: called by the ticket check (``scoring.completed_tickets``).
    ticket_connections: Impls = attrs.field(repr=False, default=())
    #: ``ttr_describe_action``, ``ttr_tokens`` and ``ttr_route_styles``: words and
    #: pictures, never ``apply``.
    describe_action: Impls = attrs.field(repr=False, default=())
    tokens: Impls = attrs.field(repr=False, default=())
    route_styles: Impls = attrs.field(repr=False, default=())
    #: ``ttr_before_claim``: asked by ``apply`` of a legal ``ClaimRoute`` (the claim pipeline).
    before_claim: Impls = attrs.field(repr=False, default=())
    #: ``ttr_deal_tickets``: asked by the starting deal and ``DrawTickets`` (``ticket_draw``).
    deal_tickets: Impls = attrs.field(repr=False, default=())
    _option_map: dict[tuple[str, str], Any] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        values = {(v, name): value for v, opts in self.options for name, value in opts}
        object.__setattr__(self, "_option_map", values)

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

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled by configuration: the receiving process resolves its own plugins.
        given = {variant: dict(values) for variant, values in self.options}
        return (game_rules, (self.board, self.players, self.variants, given))

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

    # -- chained state hooks -------------------------------------------------

    def run_setup(self, state: GameState) -> GameState:
        """Run the ``ttr_setup`` chain (results always fully checked: once per game)."""
        for impl in self.setup:
            state = hookcheck.state_result(impl, state, impl(state), full=True)
        return state

    def run_after_claim(self, state: GameState, player: int, route: int) -> GameState:
        """Run the ``ttr_after_claim`` chain."""
        full = hookcheck.STRICT[0]
        for impl in self.after_claim:
            result = impl(state, player, route)
            state = hookcheck.state_result(impl, state, result, full=full)
        return state

    def run_before_claim(self, state: GameState, action: ClaimRoute) -> GameState | None:
        """The first ``ttr_before_claim`` answer that makes ``action`` wait, or ``None``."""
        for impl in self.before_claim:
            result = impl(state, action)
            if result is not None:
                return hookcheck.claim_waits(impl, state, action, result)
        return None

    def run_between_turns(self, state: GameState) -> GameState:
        """Run the ``ttr_between_turns`` chain."""
        full = hookcheck.STRICT[0]
        for impl in self.between_turns:
            state = hookcheck.state_result(impl, state, impl(state), full=full)
        return state

    def run_game_over(self, state: GameState) -> GameState:
        """Run the ``ttr_game_over`` chain (fully checked; the game must stay over)."""
        for impl in self.game_over:
            state = hookcheck.state_result(impl, state, impl(state), full=True)
            hookcheck.still_over(impl, state)
        return state

    # -- actions ----------------------------------------------------------------

    def run_veto(self, state: GameState, action: Action) -> str | None:
        """The first veto any plugin gives ``action``, or ``None``."""
        for impl in self.veto:
            reason = impl(state, action)
            if reason is not None:
                return hookcheck.veto_reason(impl, reason)
        return None

    def run_filter(
        self, state: GameState, actions: list[Action]
    ) -> tuple[list[Action], FilteredOut | None]:
        """The candidates the filters keep, and what they removed (``None`` when
        nothing was): see :data:`FilteredOut`."""
        removed: FilteredOut | None = None
        strict = hookcheck.STRICT
        for impl in self.filter:
            candidates = tuple(actions)  # immutable: a filter answers, it cannot edit
            if impl.trace:
                result = impl(state, candidates)
            else:
                # HookImpl.__call__ inlined, and the plugin's function called with
                # the arguments it names without the adapter's frame: the filter
                # hook runs at every decision.
                try:
                    names = impl.argnames
                    if names == _ACTIONS:
                        result = impl.function(candidates)
                    elif names == _STATE_ACTIONS:
                        result = impl.function(state, candidates)
                    else:
                        result = impl(state, candidates)
                except Exception as exc:
                    blamed = impl.blame(exc)
                    if blamed is exc:
                        raise
                    raise blamed from exc
            if type(result) is list and len(result) < len(candidates) and not strict[0]:
                # The usual filter: some of the candidates, as the same objects,
                # in order. _left_out, inlined (the hot path of a filter that
                # removes something): the variant, then what it removed.
                gone: FilteredOut = [impl.variant]
                j = 0
                size = len(result)
                for action in candidates:
                    if j < size and result[j] is action:
                        j += 1
                    else:
                        gone.append(action)
                if j == size:
                    removed = gone if removed is None else removed + gone
                    actions = result  # the plugin's new list: the core never edits it
                    continue
            if result is None or result is candidates:
                continue
            # Anything else is checked in full, by value; ``kept`` are then
            # candidate objects (an equal copy is replaced by its candidate).
            kept = hookcheck.filtered(impl, candidates, result, strict=strict[0])
            if kept is candidates:
                continue
            left = _left_out(candidates, kept)
            if left is None:  # reordered
                ids = set(map(id, kept))
                left = [action for action in candidates if id(action) not in ids]
            gone = [impl.variant, *left]
            removed = gone if removed is None else removed + gone
            actions = list(kept)
        return actions, removed

    def run_extra_actions(self, state: GameState) -> list[Action]:
        """The variant actions legal in ``state``, in variant order."""
        assert state.pending is not None
        seat = state.pending.player
        found: list[Action] = []
        for impl in self.extra_actions:
            result = impl(state)
            if result:
                found.extend(hookcheck.extra_actions(impl, result, seat))
        return found

    def run_apply_action(self, state: GameState, action: Action) -> GameState | None:
        """The state a plugin's ``ttr_apply_action`` returns, or ``None`` if none took it."""
        for impl in self.apply_action:
            result = impl(state, action)
            if result is not None:
                return hookcheck.state_result(impl, state, result, full=hookcheck.STRICT[0])
        return None

    def run_deal_tickets(
        self, state: GameState, seat: int, count: int, start: bool
    ) -> tuple[int, ...] | None:
        """The first ``ttr_deal_tickets`` answer (checked), or ``None`` for the core's deal."""
        for impl in self.deal_tickets:
            result = impl(state, seat, count, start)
            if result is not None:
                return hookcheck.dealt_tickets(impl, result, state.ticket_deck, count)
        return None

    # -- scoring and views --------------------------------------------------------

    def run_score_lines(self, state: GameState) -> list[list[tuple[ScoreLine, ...]]]:
        """Each variant's score lines, one tuple per seat, in variant order."""
        return [
            hookcheck.score_lines(impl, impl(state), state.num_players) for impl in self.score_lines
        ]

    def run_ticket_connections(self, state: GameState, seat: int) -> set[int]:
        """The routes the variants let ``seat`` use for its tickets besides its own
        (hook ``ttr_ticket_connections``), merged."""
        found: set[int] = set()
        routes = len(self.board.routes)
        for impl in self.ticket_connections:
            found.update(hookcheck.ticket_connections(impl, impl(state, seat), routes))
        return found

    def run_tie_break(
        self, state: GameState, sheets: Sequence[ScoreSheet], tied: tuple[int, ...]
    ) -> tuple[int, ...]:
        """The winners left once every variant's tie-break has narrowed ``tied``."""
        for impl in self.tie_break:
            if len(tied) < 2:
                break
            result = impl(state, sheets, tied)
            if result is not None:
                tied = hookcheck.tie_break(impl, tied, result)
        return tied

    def run_player_view(self, state: GameState, player: int) -> dict[str, Any]:
        """The variant state ``player`` may see, merged from every variant."""
        shown: dict[str, Any] = {}
        owner: dict[str, str] = {}
        for impl in self.player_view:
            result = impl(state, player)
            if result is not None:
                for key, value in hookcheck.view(impl, result, owner).items():
                    owner[key] = impl.variant
                    shown[key] = value
        return shown

    def run_determinize(self, state: GameState, view: PlayerView, rng: random.Random) -> GameState:
        """Run the ``ttr_determinize`` chain (results always fully checked: once per call)."""
        for impl in self.determinize:
            state = hookcheck.determinized(impl, state, impl(state, view, rng))
        return state

    def run_check_state(self, state: GameState) -> list[tuple[str, str]]:
        """Every variant's own broken invariants, as ``(variant, sentence)`` pairs."""
        return [
            (impl.variant, problem)
            for impl in self.check_state
            for problem in hookcheck.messages(impl, impl(state))
        ]

    def run_check_transition(
        self, before: GameState, action: Action, after: GameState
    ) -> list[tuple[str, str]]:
        """Every variant's broken invariants across the step ``before`` → ``action``
        → ``after`` (hook ``ttr_check_transition``), as ``(variant, sentence)`` pairs."""
        return [
            (impl.variant, problem)
            for impl in self.check_transition
            for problem in hookcheck.messages(impl, impl(before, action, after))
        ]

    def run_agent_route_costs(self, view: PlayerView) -> list[float]:
        """The variants' advice to bots (``ttr_agent_route_costs``), summed per
        route: what claiming each route costs the viewing seat beyond what
        its score sheet shows at once (all 0 when no variant advises)."""
        costs = [0.0] * len(self.board.routes)
        for impl in self.agent_route_costs:
            result = impl(view)
            if result is not None:
                advice = hookcheck.route_costs(impl, result, len(costs))
                costs = [a + b for a, b in zip(costs, advice, strict=True)]
        return costs

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

    def run_describe_action(
        self, before: GameState, action: Action, after: GameState, full: bool
    ) -> str | None:
        """A variant's action in words: the first variant's answer, or ``None``."""
        for impl in self.describe_action:
            words = hookcheck.description(impl, impl(before, action, after, full))
            if words is not None:
                return words
        return None

    def run_tokens(self, game: GameState | PlayerView) -> list[Token]:
        """The variants' tokens on the board, in variant order."""
        found: list[Token] = []
        for impl in self.tokens:
            result = impl(game)
            if result is not None:
                found.extend(hookcheck.tokens(impl, result, self.board, self.players))
        return found

    def run_route_styles(self) -> list[RouteStyle]:
        """How the variants draw their routes (hook ``ttr_route_styles``), in
        variant order; called once per picture."""
        found: list[RouteStyle] = []
        for impl in self.route_styles:
            result = impl(self.board, self)
            if result is not None:
                found.extend(hookcheck.route_styles(impl, result, self.board))
        return found

    def run_agent_action_purpose(
        self, view: PlayerView, action: Action
    ) -> ClaimsRoute | BuildsToken | ClosesRoute | None:
        """What ``action`` is for, as the first variant that knows tells bots
        (``ttr_agent_action_purpose``); ``None`` when none does."""
        for impl in self.agent_action_purpose:
            result = impl(view, action)
            if result is not None:
                board = self.board
                return hookcheck.action_purpose(
                    impl, result, len(board.routes), len(board.locations)
                )
        return None

    def run_non_seat_owners(self, state: GameState) -> list[NonSeatOwner]:
        """The non-seat owners the variants declare, in variant order."""
        found: list[NonSeatOwner] = []
        for impl in self.non_seat_owners:
            result = impl(state)
            if result is not None:
                found.extend(hookcheck.non_seat_owners(impl, result, state, found))
        return found


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
    rule sets live exactly as long as the board. ``cache_clear`` forgets them
    all (when plugins change) by moving on to a new generation. Safe between
    threads (:func:`~ttr_core.board.derive`): the look-up is lock-free, the
    evictions and the fill are done under the board lock, and every thread
    gets the one rule set kept for a configuration."""

    #: Most rule sets kept per board (configurations: players, variants, options).
    PER_BOARD = 64

    def __init__(self) -> None:
        self.generation = 0

    def __call__(
        self, board: Board, players: int, variants: tuple[str, ...], options: OptionValues
    ) -> GameRules:
        generation = self.generation
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

    def cache_clear(self) -> None:
        self.generation += 1


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
        describe_action=impls("ttr_describe_action"),
        tokens=impls("ttr_tokens"),
        route_styles=impls("ttr_route_styles"),
        before_claim=impls("ttr_before_claim"),
        deal_tickets=impls("ttr_deal_tickets"),
    )
