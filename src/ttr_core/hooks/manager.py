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
results checked (see :mod:`ttr_core.hooks.checks`).
"""

from __future__ import annotations

import inspect
import re
import threading
import warnings
from collections.abc import Callable, Iterable, Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import attrs
import pluggy

from ttr_core.errors import (
    PluginError,
    TtrWarning,
    UnknownVariantError,
    show,
)
from ttr_core.hooks import checks as hookcheck
from ttr_core.hooks import declared
from ttr_core.hooks import specs as hookspecs
from ttr_core.hooks.specs import ENTRY_POINT_GROUP, PROJECT
from ttr_core.model.board import Board
from ttr_core.model.declarations import (
    MapField,
    VariantOption,
)
from ttr_core.model.gamerules import HookImpl

#: Longest variant name :func:`register_variant` takes.
MAX_VARIANT_NAME = 64


#: What a variant name looks like: a short identifier ("tolls", "longest_route").
VARIANT_NAME = re.compile(rf"[A-Za-z0-9_][A-Za-z0-9_.\-]{{0,{MAX_VARIANT_NAME - 1}}}")


#: Set ``TTR_TRACE_HOOKS=1`` to print every hook call (hook and variant) to stderr.
TRACE_ENV = "TTR_TRACE_HOOKS"


#: The hook names, from the specs.
HOOK_NAMES: tuple[str, ...] = tuple(
    sorted(name for name in vars(hookspecs) if name.startswith("ttr_"))
)


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
            argnames = tuple(impl.argnames)
            call = _positional(impl.function, argnames, hook)
            impls[hook] = HookImpl(name, hook, impl.function, argnames, call)
    if not impls:
        # Anything registers with pluggy (an int, None); a plugin implements a hook.
        raise PluginError(
            f"variant plugin {name!r} implements no hook: expected an object or module with "
            f"functions marked @ttr_core.hookimpl, not {show(obj)}",
            variant=name,
        )
    fields: tuple[MapField, ...] = ()
    if "ttr_map_fields" in impls:
        fields = declared.map_fields(impls["ttr_map_fields"], impls["ttr_map_fields"]())
    options: tuple[VariantOption, ...] = ()
    if "ttr_options" in impls:
        options = declared.options(impls["ttr_options"], impls["ttr_options"]())
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
        _generation += 1  # the rule sets resolved before are left behind


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
