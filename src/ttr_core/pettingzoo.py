"""A PettingZoo AEC environment for ttr-core games.

::

    from ttr_core.pettingzoo import env

    game = env(map="newyork", players=2)
    game.reset(seed=7)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            action = game.action_space(agent).sample(mask)
        game.step(action)

Agents are ``"player_0"`` to ``"player_{n-1}"`` (seat ``i`` is ``player_i``)
and take turns as the game's pending decision says: the AEC order is the
game's own, not a fixed cycle (a seat drawing a second card, or choosing its
tickets, acts again). Each observation is a dict: ``"observation"``, the
:mod:`ttr_core.observation` vector of what that seat sees (``float32``), and
``"action_mask"``, 1 at every legal action id (``int8``; all 0 for a seat not
to decide). Actions are the :mod:`ttr_core.rules.action_ids` ids of the game's
configuration, variant actions included
(``Discrete(action_space(board, players, variants, options).size)``).

Rewards come only at the end: +1 to the sole winner and -1 to every other
seat; when several seats share the win (the tie-break left them tied), 0 to
each of them and -1 to the others. ``info`` then holds each seat's final
``score``, the ``winners`` (agent names) and how the game ended
(``termination``). The documentation is ``docs/pettingzoo.md``.

PettingZoo, Gymnasium and NumPy are an optional extra: importing ``ttr_core``
never imports this module.
"""

from __future__ import annotations

import numbers
import os
import random
from collections.abc import Iterable, Mapping
from typing import Any

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt

    # PettingZoo ships no type information.
    from pettingzoo import AECEnv  # type: ignore[import-untyped, unused-ignore]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped, unused-ignore]
    from pettingzoo.utils.env_logger import (  # type: ignore[import-untyped, unused-ignore]
        EnvLogger,
    )
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "ttr_core.pettingzoo needs PettingZoo, Gymnasium and NumPy: "
        "pip install '.[pettingzoo]' in a clone of ttr-core "
        "(pip install 'ttr-core[pettingzoo]' once it is on the package index)"
    ) from exc

from ttr_core.errors import ArgumentError, IllegalAction, Reason, show, what
from ttr_core.model.actions import Action
from ttr_core.model.board import Board
from ttr_core.model.scores import FinalScores
from ttr_core.model.state import GameState
from ttr_core.native import engine as native
from ttr_core.observation import ObservationTracker, observation_encoder
from ttr_core.rules.action_ids import (
    action_from_id,
    check_all_numbered,
    ids_of_listed,
    rules_space,
)
from ttr_core.rules.engine import apply
from ttr_core.rules.narrate import other_claims, predicate
from ttr_core.rules.scoring import final_scores
from ttr_core.rules.setup import SEED_LIMIT, new_game
from ttr_core.search.playout import Playout

__all__ = ["LOSS", "TIE", "WIN", "env", "raw_env"]

#: The reward of the sole winner, of each seat sharing the win, and of every other seat.
WIN, TIE, LOSS = 1.0, 0.0, -1.0

Observation = dict[str, npt.NDArray[Any]]


def env(
    map: str | os.PathLike[str] | Board = "newyork",
    players: int = 2,
    variants: Iterable[str] | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    render_mode: str | None = None,
    tickets: str | os.PathLike[str] | None = None,
) -> AECEnv:
    """A ttr-core game as a PettingZoo AEC environment, checked for call order.

    The arguments are those of :class:`raw_env`; the environment is wrapped in
    PettingZoo's ``OrderEnforcingWrapper`` (an error for ``step`` or
    ``observe`` before ``reset``). ``env(...).unwrapped`` is the
    :class:`raw_env`.
    """
    return _OrderEnforcing(
        raw_env(map, players, variants, options, render_mode=render_mode, tickets=tickets)
    )


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # untyped base
    """PettingZoo's ``OrderEnforcingWrapper``, whose ``last()`` asks the raw
    environment at once: the base class's reads five attributes through the
    wrapper's ``__getattr__`` at every step, which cost as much as the step."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)  # type: ignore[no-any-return]


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name; AECEnv is untyped
    """A ttr-core game as a PettingZoo AEC environment (see :mod:`ttr_core.pettingzoo`).

    ``map``, ``players``, ``variants``, ``options`` and ``tickets`` are those
    of :func:`ttr_core.new_game` (``variants=None``: the map's defaults) and
    raise what it raises for a configuration that cannot be played.
    ``render_mode`` is ``None`` or ``"ansi"`` (:meth:`render` returns the
    public table as text), else :class:`ArgumentError`. A game with a variant
    that adds actions of its own and declares no action ids for them (hook
    ``ttr_action_space``) is refused with
    :class:`~ttr_core.errors.UnsupportedVariantError` (a
    :class:`GameConfigError`) naming the variant.

    ``game`` is the current :class:`~ttr_core.GameState` (``None`` before the
    first :meth:`reset`). The game is played in place by a
    :class:`~ttr_core.Playout`; ``game`` is its snapshot, made when read (or
    when an observation needs it), the same object while nothing changed.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class
        "name": "ttr_core_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        map: str | os.PathLike[str] | Board = "newyork",
        players: int = 2,
        variants: Iterable[str] | None = None,
        options: Mapping[str, Mapping[str, Any]] | None = None,
        render_mode: str | None = None,
        tickets: str | os.PathLike[str] | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ArgumentError(
                f"render_mode must be None or 'ansi', not {what(render_mode)} "
                "(pictures of the board come from ttr_core.render)"
            )
        self.render_mode = render_mode
        # A trial game checks the whole configuration, as new_game does, once.
        trial = new_game(map, players, seed=0, variants=variants, options=options, tickets=tickets)
        rules = trial.rules
        # A variant's own actions have ids only if it declares them (ttr_action_space).
        check_all_numbered(rules, "the PettingZoo environment")
        # The trial's board: a ticket deck given by path makes a board of its own.
        self.board: Board = trial.board
        self.num_players: int = players
        self.variants: tuple[str, ...] = rules.variants
        self._options = {variant: dict(values) for variant, values in rules.options}
        self._option_values = rules.options
        self.encoder = observation_encoder(self.board, players, rules.variants, self._options)
        # The engine's layout (None: the engine cannot write this configuration's vectors).
        self._layout = self.encoder._native_layout()
        # A new game of the configuration, whose board, rules and names a game the
        # compiled engine deals in place takes (when it deals as new_game does).
        self._template = trial
        self._deals = native.deals(rules) and self._layout is not None
        self.space = rules_space(rules)

        self.possible_agents: list[str] = [f"player_{seat}" for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        # Unbounded: the encoder scales to about [0, 1], but scores may be
        # negative and the turn count and variant values may pass 1.
        observation = gymnasium.spaces.Box(
            low=-np.inf, high=np.inf, shape=(self.encoder.size,), dtype=np.float32
        )
        mask = gymnasium.spaces.Box(low=0, high=1, shape=(self.space.size,), dtype=np.int8)
        # One object per agent, kept: PettingZoo seeds and compares spaces by identity.
        self.observation_spaces = {
            agent: gymnasium.spaces.Dict({"observation": observation, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: gymnasium.spaces.Discrete(self.space.size) for agent in self.possible_agents
        }
        self._play: Playout | None = None
        self._seeder: random.Random | None = None
        self._last_move: tuple[GameState, Action, GameState] | None = None
        # Each seat's observation, kept up to date from the playout (only what changed).
        self._eyes = [
            _Eyes(self.encoder.tracker(seat), self.space.size, self.encoder.size)
            for seat in range(players)
        ]
        #: Positions reached (the seats' observations say which one they show).
        self._moves = 0
        # The legal ids of the position, in the playout's order (None: not worked out).
        self._ids: tuple[int, ...] | None = None

    @property
    def game(self) -> GameState | None:
        """The game's current state (``None`` before the first :meth:`reset`)."""
        play = self._play
        return None if play is None else play.snapshot()

    # -- spaces ---------------------------------------------------------------

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of ``agent`` (the same object at every call)."""
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete`` over the map's action ids."""
        return self.action_spaces[self._agent(agent)]

    # -- the AEC protocol -----------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game.

        With a ``seed`` (an int from 0 to ``2**256 - 1``), the game is
        ``new_game(map, players, seed=seed, ...)``, so the same seed gives the
        same game; later resets without a seed continue a sequence of seeds
        drawn from it. Without a seed ever given, each game has a fresh seed
        from the operating system. ``options`` is accepted for the PettingZoo
        API and not used.
        """
        del options  # the configuration is fixed at construction
        if seed is not None:
            # NumPy integers too, as seeds often come from NumPy code.
            if isinstance(seed, bool | np.bool_) or not isinstance(seed, numbers.Integral):
                raise ArgumentError(f"seed must be an int or None, not {what(seed)}")
            game_seed: int | None = int(seed)
        elif self._seeder is not None:
            game_seed = self._seeder.getrandbits(128)
        else:
            game_seed = None
        play = self._play
        game = None if play is None else play._compiled()
        if (
            game is not None
            and self._deals
            and type(game_seed) is int
            and 0 <= game_seed < SEED_LIMIT
        ):
            # The compiled engine deals the new game as new_game does, in place.
            native.deal(game.game, game_seed)
            game.restart(self._template, game_seed)
            if seed is not None:
                self._seeder = random.Random(game_seed)
            self._start(None)
            return
        # new_game checks the seed's range (ArgumentError) before anything changes here.
        state = new_game(
            self.board, self.num_players, game_seed, self.variants, options=self._options
        )
        if seed is not None:
            self._seeder = random.Random(game_seed)
        self._start(state)

    def reset_to(self, state: GameState) -> None:
        """Go on from ``state`` (a loaded save, a determinized state) as if after a reset.

        ``state`` must be a game of this environment's configuration (map,
        players, variants and options), else :class:`ArgumentError`.
        """
        if not isinstance(state, GameState):
            raise ArgumentError(f"state must be a ttr_core.GameState, not {what(state)}")
        rules = state.rules
        given = (state.board.id, state.num_players, rules.variants, rules.options)
        wanted = (self.board.id, self.num_players, self.variants, self._option_values)
        if given != wanted:
            raise ArgumentError(
                f"state is a game of {given[0]!r} with {given[1]} players and variants "
                f"{list(given[2])}; this environment plays {wanted[0]!r} with {wanted[1]} "
                f"players and variants {list(wanted[2])} (options must match too)"
            )
        if state.board is not self.board:
            # Same id, another board (a user's copy of a map): its ids and features differ.
            raise ArgumentError(
                f"state is a game on another board with the id {given[0]!r} (a map file of "
                "its own): play it in an environment made with that board, env(map=state.board)"
            )
        self._start(state)

    def step(self, action: int | None) -> None:
        """Take action id ``action`` for the agent selected (``None`` for one that is done).

        An id that is not legal now (its ``action_mask`` entry is 0), or a
        value that is not an action id, raises :class:`IllegalAction` and
        changes nothing.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalAction(
                    Reason.GAME_OVER,
                    f"the game is over: {agent} is done and must be stepped with None, "
                    f"not {show(action)}",
                )
            self._was_dead_step(action)
            return
        play = self._playout()
        aid = action if type(action) is int else _action_id(action, agent)
        ids = self._legal_ids()
        if aid in ids:
            if self.render_mode is not None:
                # The engine's own action object at that id's place in the legal list.
                chosen = play.legal_actions()[ids.index(aid)]
                before = self.game
            else:
                before = None
            play.apply_id(aid)
        else:
            # Refused as the pure API refuses it (the same errors), or, for an
            # action it takes that the list names by another object, played by it.
            state = play.snapshot()
            try:
                chosen = action_from_id(state, aid)
                after = apply(state, chosen)
            except IllegalAction as exc:
                raise IllegalAction(
                    exc.reason, f"{agent} cannot take action id {aid}: {exc.message}"
                ) from exc
            before = state
            play = self._play = Playout(after)
        # The line render() shows, worked out only if it is asked for (and only
        # with a render mode: otherwise no frozen state is made for it).
        self._last_move = None if before is None else (before, chosen, play.snapshot())
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._moved()
        if play.is_over():
            game = play._compiled()
            if game is None:
                self._finish(play.scores())
            else:  # the compiled engine's own count: totals and winners
                engine = game.game
                totals, _, winners = engine.scores()
                self._finish_with(totals, winners, str(native.ENDINGS[engine.termination]))
        self._accumulate_rewards()

    def observe(self, agent: str) -> Observation:
        """What ``agent`` sees now: its observation vector and its action mask."""
        eyes = self._eyes[self._seats[self._agent(agent)]]
        if eyes.moves != self._moves:
            self._look(eyes)
        # Copies: a caller may change its arrays in place without touching the seat's own.
        return {"observation": eyes.vector.copy(), "action_mask": eyes.mask.copy()}

    def _look(self, eyes: _Eyes) -> None:
        """Bring a seat's vector and mask up to the position (only what changed;
        on the compiled engine, which writes both in C, all of it)."""
        play = self._playout()
        seat = eyes.tracker.seat
        deciding = play.current_player == seat
        game = play._compiled()
        if game is not None and self._layout is not None:
            # The compiled engine writes both, in C (the encoder's layout given once).
            game.observe(seat, eyes.vector, self._layout)
            if deciding:
                game.legal_mask(eyes.mask)
                eyes.ids = None
            elif eyes.ids != ():
                eyes.mask.fill(0)
                eyes.ids = ()
        else:
            eyes.tracker.update(play)
            eyes.vector[:] = np.frombuffer(eyes.tracker.vector, dtype=np.float32)
            ids = self._legal_ids() if deciding else ()
            if ids != eyes.ids:
                mask = eyes.mask
                mask.fill(0)
                mask[list(ids)] = 1
                eyes.ids = ids
        eyes.moves = self._moves

    def _legal_ids(self) -> tuple[int, ...]:
        """The ids of the playout's legal actions, in its order (``legal_action_ids``)."""
        known = self._ids
        if known is not None:
            return known
        play = self._playout()
        if play.engine == "native":
            ids = self._ids = play.legal_ids()
        else:
            ids = self._ids = ids_of_listed(self.space, play.legal_actions(), play.snapshot)
        return ids

    def render(self) -> str | None:
        """The game as text for ``render_mode="ansi"``: what every player may see.

        The table shows only public facts (no hand, ticket or deck), and the
        last action as the other players saw it. ``None`` (with a warning)
        without a render mode.
        """
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render mode: give render_mode='ansi'"
            )
            return None
        last = None if self._last_move is None else _public_line(*self._last_move)
        return _table(self._state(), last)

    def close(self) -> None:
        """Nothing to release (no window, no process)."""

    # -- helpers --------------------------------------------------------------

    def _agent(self, agent: object) -> str:
        if not isinstance(agent, str) or agent not in self._seats:
            raise ArgumentError(
                f"agent must be one of {', '.join(self.possible_agents)}, not {what(agent)}"
            )
        return agent

    def _playout(self) -> Playout:
        play = self._play
        if play is None:
            raise ArgumentError("the environment has no game yet: call reset() first")
        return play

    def _state(self) -> GameState:
        return self._playout().snapshot()

    def _moved(self) -> None:
        """Forget what was worked out of the last position; select the seat to decide."""
        self._moves += 1
        self._ids = None
        seat = self._playout().current_player
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def _start(self, state: GameState | None) -> None:
        """Begin the game of ``state``, or (``None``) the one the compiled engine
        has just dealt in place."""
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._last_move = None
        self.agent_selection = self.agents[0]
        for eyes in self._eyes:
            eyes.moves = -1  # a new game: every seat looks again
        if state is not None:
            self._play = Playout(state)
        self._moved()
        if state is not None and state.is_over:
            self._finish(final_scores(state))
            self._accumulate_rewards()

    def _finish(self, scores: FinalScores) -> None:
        ended = None if scores.termination is None else str(scores.termination)
        self._finish_with(scores.totals, scores.winners, ended)

    def _finish_with(self, totals: Any, winners: Any, ended: str | None) -> None:
        won = WIN if len(winners) == 1 else TIE
        names = tuple(self.possible_agents[seat] for seat in winners)
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = won if seat in winners else LOSS
            self.terminations[agent] = True
            self.infos[agent] = {
                "score": totals[seat],
                "winners": names,
                "termination": ended,
            }


class _Eyes:
    """One seat's observation: its tracker (whose numbers are the vector), its
    action mask and the ids the mask marks, and the position
    (``raw_env._moves``) they show. No NumPy view of the tracker's numbers is
    kept: a copy of the environment (``copy.deepcopy``, pickle) would copy
    the view apart from the numbers."""

    __slots__ = ("ids", "mask", "moves", "tracker", "vector")

    def __init__(self, tracker: ObservationTracker, actions: int, size: int) -> None:
        self.tracker = tracker
        self.vector: npt.NDArray[np.float32] = np.zeros(size, dtype=np.float32)
        self.mask: npt.NDArray[np.int8] = np.zeros(actions, dtype=np.int8)
        # The legal ids the mask marks; None: written by the compiled engine.
        self.ids: tuple[int, ...] | None = ()
        self.moves = -1


def _action_id(action: object, agent: str) -> int:
    """``action`` as an int id: an int or NumPy integer (or a 0-d integer array)."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action.item()
    if isinstance(action, bool | np.bool_) or not isinstance(action, numbers.Integral):
        raise IllegalAction(
            Reason.UNKNOWN_ACTION,
            f"{agent} must take an action id (an int from its action_mask), not {what(action)}",
        )
    return int(action)


def _public_line(before: GameState, action: Action, after: GameState) -> str:
    """The action as every player saw it (no card drawn blind, no ticket named)."""
    text = predicate(before, action, after, full=False)
    lines = [f"player_{action.player} {text}", *other_claims(before, after)]
    return "; ".join(lines)


def _table(state: GameState, last: str | None) -> str:
    """The public facts of ``state`` as lines of text."""
    board = state.board
    names = board.card_names
    variants = ", ".join(state.rules.variants) or "none"
    lines = [
        f"{board.name}: {state.num_players} players, variants {variants}, turn {state.turn}",
        "face up: " + ", ".join("-" if c is None else names[c] for c in state.display),
        f"deck {len(state.deck)} cards, discard {sum(state.discard)}, "
        f"tickets {len(state.ticket_deck)}",
    ]
    for seat, player in enumerate(state.players):
        marker = "*" if seat == state.current_player else " "
        routes = ", ".join(f"{board.routes[r].a}–{board.routes[r].b}" for r in player.routes)
        lines.append(
            f"{marker} player_{seat}: {player.score} points, {player.cars} cars, "
            f"{player.hand.total} cards, {len(player.tickets)} tickets; "
            f"routes: {routes or 'none'}"
        )
    if last is not None:
        lines.append(f"last: {last}")
    if state.is_over:
        scores = final_scores(state)
        won = ", ".join(f"player_{seat}" for seat in scores.winners)
        totals = ", ".join(f"player_{s}: {t}" for s, t in enumerate(scores.totals))
        lines.append(f"game over ({scores.termination}): {totals}; won by {won}")
    elif state.pending is not None:
        lines.append(f"to decide: player_{state.pending.player} ({state.pending.kind})")
    return "\n".join(lines)
