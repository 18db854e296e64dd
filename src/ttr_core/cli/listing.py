"""``ttr --list`` and ``ttr --show-map``: the maps, variants and options, and
where a map's facts come from.
"""

from __future__ import annotations

import warnings

from ttr_core.errors import (
    TtrError,
)
from ttr_core.hooks.manager import (
    available_variants,
    broken_variants,
    installed_plugins,
    variant_options,
)
from ttr_core.mapfiles.finding import available_maps, load_map
from ttr_core.mapfiles.packages import broken_maps, package_maps
from ttr_core.mapfiles.parse import GENERATED
from ttr_core.model.board import Board


def _show_map(board: Board) -> None:
    rules = board.rules
    generated = sum(1 for t in board.tickets if t.extra.get(GENERATED))
    print(f"{board.name} ({board.id}; also {', '.join(board.aliases) or 'no alias'})")
    print(
        f"  {len(board.locations)} locations, {len(board.routes)} routes "
        f"({sum(1 for r in board.routes if r.partner is not None) // 2} double), "
        f"{board.total_spaces} spaces, {board.total_cards} cards"
    )
    print(
        f"  {len(board.tickets)} tickets ({len(board.tickets) - generated} printed, "
        f"{generated} generated); {rules.min_players}–{rules.max_players} players, "
        f"{rules.cars_per_player} {board.pieces} each"
    )
    print(f"  default variants: {', '.join(rules.default_variants) or 'none'}")
    provenance = board.provenance
    if provenance is None:
        print("  provenance: not given")
        return
    print(f"  provenance: {provenance.summary}")
    for source, what in provenance.sources:
        print(f"    source {source}: {what}")
    for part in provenance.verified:
        print(f"    verified: {part}")
    for part in provenance.unverified:
        print(f"    NOT verified: {part}")


def _tickets_notice(board: Board) -> None:
    generated = sum(1 for t in board.tickets if t.extra.get(GENERATED))
    if generated:
        print(
            f"Tickets: {len(board.tickets) - generated} printed, {generated} generated (the map "
            "does not know them); supply the printed deck with --tickets FILE "
            "(see --generate-tickets for the file format)"
        )


def _print_list() -> None:
    print("maps:", ", ".join(available_maps()))
    installed = package_maps()
    if installed:
        print("maps from installed packages:")
        for map_id, package in installed.items():
            print(f"  {map_id} ({_map_aliases(map_id)}from {package})")
    print("variants:")
    for name in available_variants():
        description = _variant_description(name)
        print(f"  {name}: {description}" if description else f"  {name}")
        for opt in variant_options(name):
            bounds = ""
            if opt.low is not None or opt.high is not None:
                low = "" if opt.low is None else f"{opt.low} ≤ "
                high = "" if opt.high is None else f" ≤ {opt.high}"
                bounds = f", {low}value{high}"
            if opt.choices:
                bounds = f", one of {', '.join(repr(c) for c in opt.choices)}"
            print(
                f"    --option {name}.{opt.name}=…  ({opt.type.__name__}, "
                f"default {opt.default!r}{bounds}): {opt.doc}"
            )
    broken = broken_variants()
    if broken:
        print("broken plugins (not usable):")
        for name, error in broken.items():
            print(f"  {name}: {error}")
    broken_map_list = broken_maps()
    if broken_map_list:
        print("broken maps of installed packages (not usable):")
        for name, error in broken_map_list.items():
            print(f"  {name}: {error}")


#: Most characters of a variant's description ``ttr --list`` prints.
MAX_DESCRIPTION = 100


def _variant_description(name: str) -> str:
    """What ``ttr --list`` says a variant is: its plugin's declared ``description``
    (a ``str`` attribute of the plugin object), else the first line of its
    docstring (a module's, or a plugin class's); ``""`` if it has neither.
    One line of printable characters, cut to :data:`MAX_DESCRIPTION`."""
    plugin = installed_plugins().get(name)
    if plugin is None:
        return ""
    try:  # a plugin's attributes are its own code: a listing must not fail on them
        text = getattr(plugin.obj, "description", None)
        if type(text) is not str or not text.strip():
            text = getattr(plugin.obj, "__doc__", None)
    except Exception:
        return ""
    if type(text) is not str or not text.strip():
        return ""
    line = text.strip().splitlines()[0].strip()
    line = "".join(c if c.isprintable() else " " for c in line)
    return line if len(line) <= MAX_DESCRIPTION else line[: MAX_DESCRIPTION - 1] + "…"


def _map_aliases(map_id: str) -> str:
    """``"aliases: a, b; "`` of a package map, loaded to check it (a map that
    fails is then listed as broken; its problem is not printed here)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a listing is no place for a map's doubts
            board = load_map(map_id)
    except TtrError:
        return "broken: see below; "
    return f"aliases: {', '.join(board.aliases)}; " if board.aliases else ""
