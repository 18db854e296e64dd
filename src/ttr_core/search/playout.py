"""A game played in place: the rules kernel, for search, learning and simulation.

:class:`Playout` has OpenSpiel's shape (``legal_actions()``, ``apply(action)``,
``clone()``, ``is_over()``, ``returns()``) and plays exactly the games of the
frozen API, with the same plugins: the same legal actions in the same order,
the same states. It keeps one mutable working state
(:mod:`ttr_core.rules.kernel`) and publishes a frozen :class:`GameState` only when
asked (:meth:`Playout.snapshot`), so a random playout builds no frozen object
per action.
"""

from __future__ import annotations

import operator
import os
import random
from collections.abc import Iterable, Mapping
from itertools import repeat
from typing import Any, cast

from ttr_core.errors import ArgumentError, PluginError, show
from ttr_core.model.actions import Action
from ttr_core.model.board import Board
from ttr_core.model.scores import FinalScores
from ttr_core.model.state import GameState, PendingKind, check_state
from ttr_core.native.engine import deals as native_deals
from ttr_core.native.engine import engine_choice
from ttr_core.native.engine import loaded as native_loaded
from ttr_core.rules.action_ids import action_from_id, ids_of_listed, rules_space
from ttr_core.rules.engine import apply, legal_actions
from ttr_core.rules.kernel import rules as kernel
from ttr_core.rules.kernel.legal import or_pass, second_card_actions, turn_actions
from ttr_core.rules.kernel.tables import claimable_bits
from ttr_core.rules.kernel.work import Work
from ttr_core.rules.scoring import final_scores, utilities
from ttr_core.rules.setup import new_game
from ttr_core.search.compiled import NativeGame

_TURN = PendingKind.TURN
_SECOND = PendingKind.SECOND_CARD


class Playout:
    """One game, played in place.

    ``Playout(state)`` goes on from a frozen ``state``; :meth:`new` sets a game
    up as :func:`new_game` does. :meth:`apply` changes the playout (it returns
    nothing); :meth:`snapshot` gives the frozen state it has reached, equal to
    the one the pure API reaches with the same actions.

    ``engine``: ``"auto"`` (the default, or the environment's
    ``TTR_CORE_ENGINE``) plays on the compiled engine when it was built and
    every variant of the game runs natively (:func:`ttr_core.native.why_not`
    says why a game does not), else on the Python kernel; ``"python"`` asks
    for the Python kernel, ``"native"`` for the compiled engine
    (:class:`ArgumentError` saying why a game cannot have it). Both play the
    same games, action for action; :attr:`engine` says which plays.

    An action that is not among :meth:`legal_actions` is refused with the
    same typed error :func:`ttr_core.apply` raises, and changes nothing. A
    plugin that fails while an action is carried out (a
    :class:`PluginError`, or any exception of its own) leaves the playout
    unusable: every later call raises :class:`PluginError`.

    Not safe to share between threads while it is played (it is mutable);
    clone it (:meth:`clone`) or snapshot it instead. Its snapshots are
    ordinary frozen states, safe anywhere.
    """

    __slots__ = ("_both", "_broken", "_fast_apply", "_fast_legal", "_legal", "_native", "_work")

    def __init__(self, state: GameState, engine: str | None = None) -> None:
        if isinstance(engine, NativeGame):
            # clone() of a playout on the compiled engine: its copy, nothing to load.
            self._native: Any = engine
            return
        self._native = None
        check_state(state)
        # The compiled engine plays the game when it can (and is not refused);
        # the Python kernel otherwise: the same games either way.
        chosen = engine_choice(engine)
        if chosen != "python":
            found = native_loaded(state)  # the compiled game, or why the engine cannot play it
            if not isinstance(found, str):
                self._native = NativeGame(state, found)
                return
            if chosen == "native":
                raise ArgumentError(f"this game cannot run on the native engine: {found}")
        work = Work(state)
        work.keep_masks()
        self._work = work
        self._legal: tuple[Action, ...] | None = None
        self._broken: str | None = None
        rules = state.rules
        # The kernel lists the core's actions; a game whose variants filter,
        # veto or add actions lists them through the pure API, on a snapshot.
        self._fast_legal = not (rules.filter or rules.veto or rules.extra_actions)
        self._both = rules.both_pair_routes_usable
        # A listed core action goes to the kernel, unless a variant adds actions
        # of its own (which may be of a core type): then the pure API checks it.
        self._fast_apply = not rules.extra_actions

    @classmethod
    def new(
        cls,
        map: str | os.PathLike[str] | Board,
        players: int,
        seed: int | None = None,
        variants: Iterable[str] | None = None,
        options: Mapping[str, Mapping[str, Any]] | None = None,
        tickets: str | os.PathLike[str] | None = None,
        engine: str | None = None,
    ) -> Playout:
        """A new game, set up as :func:`new_game` sets it up (same arguments, same
        errors); ``engine`` as for :class:`Playout`."""
        engine_choice(engine)  # a bad engine is refused before the game is set up
        return cls(new_game(map, players, seed, variants, options, tickets), engine)

    @classmethod
    def deal_like(cls, template: GameState, seed: int, engine: str | None = None) -> Playout:
        """A new game of ``template``'s configuration (board, players, variants,
        options) seeded ``seed``: the game ``new_game`` sets up, dealt by the
        compiled engine itself when it plays the game and deals as ``new_game``
        does (no frozen state made until one is asked for), else by
        :func:`new_game`. ``engine`` as for :class:`Playout`."""
        chosen = engine_choice(engine)
        if not isinstance(template, GameState):
            raise ArgumentError(f"template must be a GameState, not {type(template).__name__}")
        if type(seed) is not int:
            raise ArgumentError(f"seed must be an int, not {show(seed)}")
        rules = template.rules
        if chosen != "python" and 0 <= seed < 1 << 256 and native_deals(rules):
            return cls(template, cast(Any, NativeGame.dealt(template, seed)))
        options = {variant: dict(values) for variant, values in rules.options}
        state = new_game(template.board, len(template.players), seed, rules.variants, options)
        return cls(state, engine)

    @property
    def engine(self) -> str:
        """Which engine plays the game: ``"python"`` (the Python kernel) or
        ``"native"`` (the compiled engine, :mod:`ttr_core.native`)."""
        return "python" if self._native is None else "native"

    # -- reading ------------------------------------------------------------

    def _compiled(self) -> Any:
        """The compiled game this playout plays through (a
        :class:`~ttr_core.search.compiled.NativeGame`), or ``None`` on the
        Python kernel: what the observation encoder writes from."""
        return self._native

    def _reading(self) -> Work:
        """The working state, to read only (what the observation tracker reads)."""
        if self._native is not None:
            return self._native._reading()  # type: ignore[no-any-return]
        return self._check()

    def _check(self) -> Work:
        if self._broken is not None:
            raise PluginError(f"this playout is unusable: {self._broken}")
        return self._work

    @property
    def current_player(self) -> int | None:
        """The seat whose decision the game waits for; ``None`` once it is over."""
        if self._native is not None:
            return self._native.current_player  # type: ignore[no-any-return]
        pending = self._check().pending
        return None if pending is None else pending.player

    @property
    def ply(self) -> int:
        """Actions applied since the game began (as :attr:`GameState.ply`)."""
        if self._native is not None:
            return self._native.ply  # type: ignore[no-any-return]
        return self._check().ply

    def is_over(self) -> bool:
        """Whether the game has ended."""
        if self._native is not None:
            return self._native.is_over()  # type: ignore[no-any-return]
        return self._check().termination is not None

    def snapshot(self) -> GameState:
        """The frozen state reached: the state the pure API reaches with the same actions.

        Cheap when nothing changed since the last snapshot (the same object),
        and otherwise shares every part that did not change with it.
        """
        if self._native is not None:
            return self._native.snapshot()  # type: ignore[no-any-return]
        return self._check().published()

    def scores(self) -> FinalScores:
        """The final scores (:func:`final_scores`) of a game that is over
        (:class:`GameNotOverError` before that, as :func:`final_scores` raises)."""
        return final_scores(self.snapshot())

    def returns(self) -> tuple[float, ...]:
        """Each seat's zero-sum result once the game is over (OpenSpiel's
        ``returns``, see :func:`utilities`): all zeros before that."""
        if self._native is not None:
            return self._native.returns()  # type: ignore[no-any-return]
        work = self._check()
        players = len(work.players)
        if work.termination is None:
            return (0.0,) * players
        return tuple(utilities(final_scores(work.published()).winners, players))

    def totals(self) -> tuple[int, ...]:
        """Each seat's final total (the sheets' totals of :meth:`scores`;
        :class:`GameNotOverError` before the end)."""
        if self._native is not None:
            return self._native.totals()  # type: ignore[no-any-return]
        return tuple(sheet.total for sheet in self.scores().sheets)

    def clone(self) -> Playout:
        """An independent copy: playing one changes nothing in the other."""
        if self._native is not None:
            native = self._native
            return Playout(native.base, cast(Any, native.clone()))
        work = self._check()
        state = work.published()
        work.share_masks()  # the twin loads them from the cache, not from every route
        twin = Playout(state, engine="python")
        twin._legal = self._legal
        return twin

    # -- playing ------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the seat to decide may take, exactly as
        :func:`ttr_core.legal_actions` lists them for :meth:`snapshot`."""
        if self._native is not None:
            return self._native.legal_actions()  # type: ignore[no-any-return]
        legal = self._legal
        if legal is not None:
            return legal
        if self._broken is not None:
            self._check()
        work = self._work
        pending = work.pending
        if pending is None:
            legal = self._legal = ()
            return legal
        kind = pending.kind
        if not self._fast_legal or (kind != _TURN and kind != _SECOND):
            # Variants' lists, their decisions and the ticket choices: the pure API's.
            legal = self._legal = legal_actions(work.published())
            return legal
        seat = pending.player
        table = work.table
        deck = work.deck
        can_draw = True if deck else any(work.discard)
        if kind == _TURN:
            part = work.seats[seat]  # a playout keeps every seat loaded (keep_masks)
            masks = work.masks
            assert part is not None and masks is not None
            claimable = claimable_bits(masks[0], masks[1], masks[2][seat], self._both)
            acts: list[Action] = turn_actions(
                table,
                seat,
                part.counts,
                part.cars,
                claimable,
                work.display,
                can_draw,
                bool(work.ticket_deck or work.ticket_discard),
            )
        else:
            acts = second_card_actions(table, seat, work.display, table.turn_wild, can_draw)
        if not acts:  # the rule is asked only when it decides something (the hot path)
            acts = or_pass(acts, table, kind, seat, work.rules.variants)
        legal = self._legal = tuple(acts)
        return legal

    def legal_ids(self) -> tuple[int, ...]:
        """The action ids (:func:`ttr_core.action_space`) of :meth:`legal_actions`,
        in the same order."""
        if self._native is not None:
            return self._native.legal_ids()  # type: ignore[no-any-return]
        return ids_of_listed(rules_space(self._check().rules), self.legal_actions(), self.snapshot)

    def legal_mask(self, out: Any = None) -> Any:
        """The legal actions as a mask over the action ids: 1 at each legal id, 0
        elsewhere, written into ``out`` (any writable buffer of one byte per id
        of :func:`ttr_core.action_space`, a NumPy ``uint8`` or ``bool`` array
        say) and returned; a new ``bytearray`` without one. ``ArgumentError``
        for a buffer of another size or item size."""
        native = self._native
        size = rules_space(self._check().rules if native is None else native.base.rules).size
        if out is None:
            out = bytearray(size)
        try:
            view = memoryview(out)
        except TypeError:
            raise ArgumentError(
                f"out must be a writable buffer, not {type(out).__name__}"
            ) from None
        with view:
            if view.readonly or view.itemsize != 1 or view.nbytes != size or not view.c_contiguous:
                raise ArgumentError(
                    f"out must be a writable, contiguous buffer of {size} one-byte items "
                    f"(one per action id), not {view.nbytes // max(view.itemsize, 1)} of "
                    f"{view.itemsize} byte(s)"
                )
            if self._native is not None:
                self._native.legal_mask(view)
            else:
                flat = view.cast("B")
                flat[:] = bytes(size)
                for aid in self.legal_ids():
                    flat[aid] = 1
        return out

    def apply_id(self, action_id: int) -> None:
        """Carry out the legal action of id ``action_id``; an id that is not legal
        here is refused with the error :func:`ttr_core.apply` raises for its
        action, and changes nothing."""
        if self._native is not None:
            self._native.apply_id(action_id)
            return
        self.apply(action_from_id(self.snapshot(), action_id))

    def apply(self, action: Action) -> None:
        """Carry out ``action``. Raises what :func:`ttr_core.apply` raises for an
        action it refuses (:class:`IllegalAction`, :class:`ArgumentError`), and
        then changes nothing."""
        if self._native is not None:
            self._native.apply(action)
            return
        if self._broken is not None:
            self._check()
        work = self._work
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        pending = work.pending
        carry = kernel.CARRY.get(type(action))
        # One of the listed objects (what a search or a bot applies: one identity
        # scan, in C) of a core decision goes to the kernel; anything else is
        # checked and carried out by the pure API, on a snapshot.
        if (
            carry is None
            or not self._fast_apply
            or pending is None
            or pending.kind not in _CORE_KINDS
            or not any(map(operator.is_, legal, repeat(action)))
        ):
            self._slow(work, action)
            return
        ply = work.ply
        self._legal = None
        try:
            carry(work, action, pending.kind == _SECOND)
            if work.ply != ply + 1:  # a hook built its state from another one
                work.ply = ply + 1
                work.fresh = False
        except BaseException as exc:
            self._broken = f"{type(exc).__name__} while {action!r} was carried out: {exc}"
            raise

    def play_random(self, chooser: random.Random | int, max_actions: int) -> list[Action]:
        """Play on choosing uniformly with ``chooser`` (a ``random.Random``, or the
        int seed of a fresh one): ``legal[chooser.randrange(n)]``, no draw for a
        single choice, as :func:`ttr_core.random_playout` chooses, until the
        game ends or ``max_actions`` were applied; the actions applied. The
        compiled engine makes the same choices from the same generator, and
        leaves a ``chooser`` given as this loop would."""
        _check_random(chooser, max_actions)
        if self._native is not None:
            return self._native.play_random(chooser, max_actions)  # type: ignore[no-any-return]
        rng = random.Random(chooser) if type(chooser) is int else chooser
        assert isinstance(rng, random.Random)
        history: list[Action] = []
        while not self.is_over() and len(history) < max_actions:
            legal = self.legal_actions()
            action = legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]
            self.apply(action)
            history.append(action)
        return history

    def rollout(self, chooser: random.Random | int, max_actions: int = 200_000) -> int:
        """:meth:`play_random` without its list of actions (a search's rollout, on a
        :meth:`clone`): how many were applied."""
        _check_random(chooser, max_actions)
        if self._native is not None:
            return self._native.rollout(chooser, max_actions)  # type: ignore[no-any-return]
        return len(self.play_random(chooser, max_actions))

    def _slow(self, work: Work, action: Action) -> None:
        new = apply(work.published(), action)  # raises, and changes nothing, if refused
        self._legal = None
        work.load(new)


_CORE_KINDS = frozenset(PendingKind)

#: The most actions :meth:`Playout.play_random` and :meth:`Playout.rollout` play at once.
MOST_RANDOM_ACTIONS = 1_000_000


def _check_random(chooser: object, max_actions: object) -> None:
    """:class:`ArgumentError` unless ``chooser`` is a ``random.Random`` or an int
    seed and ``max_actions`` an int from 1 to :data:`MOST_RANDOM_ACTIONS`."""
    if not (isinstance(chooser, random.Random) or type(chooser) is int):
        raise ArgumentError(
            f"chooser must be a random.Random or an int seed, not {type(chooser).__name__}"
        )
    if type(max_actions) is not int or not 1 <= max_actions <= MOST_RANDOM_ACTIONS:
        raise ArgumentError(
            f"max_actions must be an int from 1 to {MOST_RANDOM_ACTIONS}, not {show(max_actions)}"
        )
