"""Hook specifications: every point where a variant plugin extends the core.

A plugin is any object (usually a module) with functions decorated by
:data:`hookimpl` whose names match the specs below. It is registered under a
*variant name* through the ``ttr_core.plugins`` entry-point group::

    [project.entry-points."ttr_core.plugins"]
    myvariant = "my_package.my_plugin"

A game switches variants on by name; only the plugins of the variants switched
on take part in that game. Each game resolves its plugins once into a
:class:`ttr_core.plugin_manager.GameRules`: a hook no plugin implements costs
nothing per move.

Three kinds of hook:

* **collecting** hooks return a value (or ``None`` to abstain); the core
  gathers every result;
* **first-result** hooks (``firstresult=True``) stop at the first plugin that
  returns something other than ``None``;
* **chained** hooks take a state and return a new state (or ``None`` for "no
  change"); each plugin receives the state the previous one returned, in the
  order of the game's variant list. They are called directly from the
  resolved rule set (not through pluggy's caller, for speed), so they take no
  ``wrapper``/``tryfirst``/``trylast`` marker and are not traced.

Variant state: a plugin keeps its own frozen data in the game state under
keys prefixed with its variant name (``"tolls"``, ``"tolls.bank"``); read it
with ``state.variant(key)`` and write it with ``state.with_variant(key,
value)``. Values must be immutable (frozen attrs classes, tuples, ints ...).

Hooks receive states and must return new states: nothing may be mutated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import pluggy

if TYPE_CHECKING:
    from .actions import Action
    from .board import Board
    from .scoring import ScoreLine
    from .state import GameState

#: Project name shared by the markers and the plugin manager.
PROJECT = "ttr_core"
#: Entry-point group through which plugins (built-in and third-party) register.
ENTRY_POINT_GROUP = "ttr_core.plugins"

hookspec = pluggy.HookspecMarker(PROJECT)
#: Decorate a plugin's hook implementations with this marker.
hookimpl = pluggy.HookimplMarker(PROJECT)


#: ``MapField.type`` of a field naming one location of the map.
LOCATION = "location"
#: ``MapField.type`` of a field naming two locations joined by a route; stored
#: as a tuple of the two names.
ROUTE = "route"


@attrs.frozen
class MapField:
    """A variant field that map files may carry on their entries.

    ``table`` is ``"locations"``, ``"routes"`` or ``"tickets"``; ``name`` the
    key in the entry; ``type`` one of ``bool``, ``int``, ``str``,
    :data:`LOCATION` or :data:`ROUTE`; ``default`` the value entries without
    the key get; ``doc`` a sentence for the map format documentation.
    """

    table: str
    name: str
    type: type | str
    default: Any
    doc: str = ""


# ---------------------------------------------------------------------------
# Map data
# ---------------------------------------------------------------------------


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
    nothing when the map is fine.

    :param board: the loaded board.
    """
    raise NotImplementedError


# ---------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# Effects
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# Scoring and views
# ---------------------------------------------------------------------------


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
def ttr_player_view(state: GameState, player: int) -> Mapping[str, Any] | None:
    """What ``player`` may see of the plugin's variant state.

    Variant state is hidden from player views unless a plugin shows it here.
    Return a mapping of keys (prefixed with the variant name) to values safe
    for that player to see, or ``None``.
    """
    raise NotImplementedError
