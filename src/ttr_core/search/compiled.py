"""A playout on the compiled engine: :class:`ttr_core.Playout`'s contract, in C.

``Playout(state)`` plays through one of these when the compiled engine was
built and the game's variants all run natively (:func:`ttr_core.native.why_not`);
``engine="python"`` (or ``TTR_CORE_ENGINE=python``) asks for the Python
kernel, ``engine="native"`` refuses a game the compiled engine cannot play.
It lists the same legal actions (the same shared objects, in the same
order), reaches the same states (:meth:`snapshot`) and scores the same as
the Python kernel: the differential tests play both in lock step.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from itertools import repeat
from typing import Any

from ttr_core.errors import GameNotOverError, IllegalAction, PluginError, Reason
from ttr_core.model.actions import Action, KeepTickets, keep_choices
from ttr_core.model.state import GameState, replace_state
from ttr_core.native import engine as native
from ttr_core.native.engine import key_words
from ttr_core.rules.action_ids import action_from_id
from ttr_core.rules.engine import apply
from ttr_core.rules.kernel.work import Work

_KEEP_KINDS = (2, 3)  # the engine's numbers of the two ticket choices
#: The longest seed the engine seeds a generator from itself (64 words).
_KEY_BITS = 64 * 32


class NativeGame:
    """What a :class:`~ttr_core.Playout` plays through on the compiled engine
    (see the module): the playout's methods, on the engine's state."""

    __slots__ = ("_base", "_broken", "_game", "_ids", "_legal", "_prepared", "_read", "_stale")

    def __init__(self, state: GameState, game: Any = None) -> None:
        # ``game``: the compiled game holding ``state`` (``native.loaded``), else loaded here.
        self._game: Any = native.new_game_object(state) if game is None else game
        self._base = state
        self._stale = False
        self._legal: tuple[Action, ...] | None = None
        self._ids: tuple[int, ...] | None = None
        self._broken: str | None = None
        self._prepared = native.prepared(state.rules)
        self._read: Work | None = None

    @classmethod
    def dealt(cls, template: GameState, seed: int) -> NativeGame:
        """The new game of ``template``'s configuration that ``new_game`` deals for
        ``seed``, dealt by the engine (its rules must be ones
        :func:`ttr_core.native.engine.deals` accepts; ``seed`` from 0 to
        ``2**256 - 1``): no frozen state is made until one is asked for."""
        made = cls(template, native.dealt(template.rules, seed))
        made.restart(template, seed)
        return made

    def starting_hands(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's hand, as card counts (what a new game dealt them)."""
        return self._usable().hands()  # type: ignore[no-any-return]

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (and copied) as its position: the compiled state is rebuilt from it.
        self._usable()
        return (NativeGame, (self.snapshot(),))

    def touched(self) -> None:
        """The engine's game was changed from outside (a batch step): forget
        what was worked out of the position."""
        self._stale = True
        self._legal = self._ids = None
        self._read = None

    def restart(self, template: GameState, seed: int) -> None:
        """Go on from a new game the engine has just dealt (``ttr_core.native.engine.deal``)
        with seed ``seed``: ``template`` is a new game of the same configuration
        (any seed), whose board, rules and names the snapshots take."""
        self._base = replace_state(template, seed=seed)
        self._broken = None
        self.touched()

    @property
    def game(self) -> Any:
        """The compiled engine's ``Game`` (read only: what adapters peek at)."""
        return self._usable()

    @property
    def base(self) -> GameState:
        """The frozen state published last (a snapshot, perhaps behind the game)."""
        return self._base

    # -- reading ------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        """The seat whose decision the game waits for; ``None`` once it is over."""
        return self._usable().player  # type: ignore[no-any-return]

    @property
    def ply(self) -> int:
        """Actions applied since the game began (as :attr:`GameState.ply`)."""
        return self._usable().ply  # type: ignore[no-any-return]

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._usable().over  # type: ignore[no-any-return]

    def snapshot(self) -> GameState:
        """The frozen state reached (see :meth:`Playout.snapshot`)."""
        game = self._usable()
        if self._stale:
            self._base = native.publish(game, self._base)
            self._stale = False
        return self._base

    def returns(self) -> tuple[float, ...]:
        """Each seat's zero-sum result once the game is over (see :meth:`Playout.returns`),
        from the compiled engine's own count."""
        # utilities() of the engine's own winners, worked out in C (the same steps).
        return self._usable().returns()  # type: ignore[no-any-return]

    def totals(self) -> tuple[int, ...]:
        """Each seat's final total by the compiled engine's own count (what
        ``final_scores`` adds up; :class:`GameNotOverError` before the end)."""
        game = self._usable()
        if not game.over:
            raise GameNotOverError("totals() needs a finished game")
        return game.scores()[0]  # type: ignore[no-any-return]

    def clone(self) -> NativeGame:
        """An independent copy: playing one changes nothing in the other (one copy
        of the compiled state)."""
        game = self._usable()
        twin = NativeGame.__new__(NativeGame)
        twin._game = game.clone()
        twin._base = self._base
        twin._stale = self._stale
        twin._legal = self._legal
        twin._ids = self._ids
        twin._broken = None
        twin._prepared = self._prepared
        twin._read = None
        return twin

    def _reading(self) -> Work:
        """A working state of the position, to read only (the observation tracker
        reads one): loaded from :meth:`snapshot`, once per position."""
        state = self.snapshot()
        work = self._read
        if work is None or work.base is not state:
            work = Work(state)
            work.keep_masks()
            self._read = work
        return work

    def _usable(self) -> Any:
        if self._broken is not None:
            raise PluginError(f"this playout is unusable: {self._broken}")
        return self._game

    # -- playing ------------------------------------------------------------

    def legal_ids(self) -> tuple[int, ...]:
        """The action ids (:func:`ttr_core.action_space`) of :meth:`legal_actions`,
        in the same order."""
        ids = self._ids
        if ids is None:
            ids = self._ids = self._usable().legal()
        return ids

    def observe(self, seat: int, view: memoryview, layout: tuple[Any, ...]) -> None:
        """Write ``seat``'s observation vector into ``view`` (checked by the
        encoder), by the encoder's ``layout`` (given to the engine once)."""
        game = self._usable()
        config = game.config
        if not config.has_layout:
            config.set_layout(*layout)
        game.observe(seat, view)

    def legal_mask(self, view: memoryview) -> None:
        """Write the legal ids' mask into ``view`` (checked by the playout)."""
        self._usable().mask(view)

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the seat to decide may take, exactly as
        :func:`ttr_core.legal_actions` lists them for :meth:`snapshot`."""
        legal = self._legal
        if legal is not None:
            return legal
        game = self._usable()
        ids = self.legal_ids()
        if game.kind in _KEEP_KINDS:
            pending = self.snapshot().pending
            assert pending is not None
            legal = tuple(keep_choices(pending.player, pending.offered, pending.min_keep))
        else:
            by_id = self._prepared.actions[game.player] if ids else ()
            legal = tuple(map(by_id.__getitem__, ids))
        self._legal = legal
        return legal

    def apply_id(self, action_id: int) -> None:
        """Carry out the legal action of id ``action_id``. An id that is not legal
        here is refused with the error :func:`ttr_core.apply` raises for its
        action (:class:`IllegalAction`, :class:`ArgumentError`), and changes
        nothing."""
        game = self._usable()
        ids = self.legal_ids()
        if type(action_id) is not int or action_id not in ids:
            # The pure API's error for it, from the position (refused: nothing changes).
            position = self.snapshot()
            apply(position, action_from_id(position, action_id))
            raise IllegalAction(Reason.UNKNOWN_ACTION, f"action id {action_id} is not legal here")
        self._step(game, action_id)

    def apply(self, action: Action) -> None:
        """Carry out ``action``, as :meth:`Playout.apply` does."""
        game = self._usable()
        legal = self.legal_actions()
        try:
            index = list(map(operator.is_, legal, repeat(action))).index(True)
        except ValueError:
            index = -1
        if index < 0:
            # Not one of the listed objects: the pure API checks it (and raises,
            # changing nothing, if it is refused); an equal action goes on.
            new = apply(self.snapshot(), action)
            native.load(game, new)
            self._base, self._stale = new, False
            self._legal = self._ids = None
            return
        self._step(game, self.legal_ids()[index])

    def record(self, action_id: int) -> tuple[int, int, Any, Any, int]:
        """Carry out the legal action of id ``action_id`` and return the engine's
        record of it (``_engine.Game.record``: what an adapter's history needs,
        and the seat to decide next, -1 once the game is over)."""
        # _usable() and touched(), inlined: an adapter's step.
        if self._broken is not None:
            raise PluginError(f"this playout is unusable: {self._broken}")
        game = self._game
        self._stale = True
        self._legal = self._ids = None
        self._read = None
        try:
            return game.record(action_id)  # type: ignore[no-any-return]
        except ValueError:  # not legal here: refused before anything changed
            raise
        except BaseException as exc:
            self._broken = (
                f"{type(exc).__name__} while action id {action_id} was carried out: {exc}"
            )
            raise

    def legal_sorted(self) -> list[int]:
        """The legal ids in increasing order (OpenSpiel's), a new list each call."""
        if self._broken is not None:
            raise PluginError(f"this playout is unusable: {self._broken}")
        return self._game.legal_sorted()  # type: ignore[no-any-return]

    def _step(self, game: Any, action_id: int) -> None:
        # touched(), inlined: the hot path of apply and apply_id.
        self._stale = True
        self._legal = self._ids = None
        try:
            game.apply(action_id)
        except BaseException as exc:
            self._broken = (
                f"{type(exc).__name__} while action id {action_id} was carried out: {exc}"
            )
            raise

    def play_random(self, chooser: random.Random | int, max_actions: int) -> list[Action]:
        """Play on with random choices as :func:`ttr_core.random_playout` makes
        them with ``chooser`` (a ``random.Random``, left as it would be, or the
        int seed of a fresh one), at most ``max_actions`` actions; the actions
        applied."""
        game = self._usable()
        if type(chooser) is int and abs(chooser).bit_length() > _KEY_BITS:
            chooser = random.Random(chooser)  # a key longer than the engine seeds from
        if isinstance(chooser, random.Random) and type(chooser) is not random.Random:
            # A generator of its own (SystemRandom, a subclass): its own choices,
            # one action at a time.
            history: list[Action] = []
            while not game.over and len(history) < max_actions:
                legal = self.legal_actions()
                action = legal[chooser.randrange(len(legal))] if len(legal) > 1 else legal[0]
                self.apply(action)
                history.append(action)
            return history
        self.touched()
        try:
            if type(chooser) is int:
                _, data, offers = game.play_seeded(key_words(chooser), max_actions, True)
                assert data is not None and offers is not None
                entries: Sequence[int] = memoryview(data).cast("i")
            else:
                assert isinstance(chooser, random.Random)
                version, words, gauss = chooser.getstate()
                entries = []
                offers = []
                _, twister = game.play(words, max_actions, entries, offers)
                chooser.setstate((version, twister, gauss))
        except BaseException as exc:
            self._broken = f"{type(exc).__name__} during a random playout: {exc}"
            raise
        return self._actions_of(entries, offers)

    def play_agents(
        self, seeds: Sequence[int], max_actions: int, record: bool
    ) -> tuple[int, tuple[int, ...], list[Action] | None]:
        """A simulation's game of random agents, played on to its end or
        ``max_actions`` actions: seat ``s`` chooses as
        :func:`ttr_core.agents.uniform_choice` does with
        ``random.Random(seeds[s])`` (seeds of at most 64 words). Returns the
        actions applied, the decisions taken in each loophole
        (``only_pass``, ``e3_guard``, ``deck_empty``, ``supply_empty``,
        ``tickets_empty``: counted as :func:`ttr_core.simulation.state_loopholes`
        names them) and, with ``record``, the actions."""
        game = self._usable()
        self.touched()
        keys = tuple(key_words(seed) for seed in seeds)
        try:
            done, seen, data = game.play_agents(keys, max_actions, record)
        except BaseException as exc:
            self._broken = f"{type(exc).__name__} during a simulated game: {exc}"
            raise
        if data is None:
            return done, seen, None
        entries, offers = data
        return done, seen, self._actions_of(memoryview(entries).cast("i"), offers)

    def _actions_of(self, entries: Sequence[int], offers: Sequence[Any]) -> list[Action]:
        """The actions of the engine's record of a loop (``id << 3 | seat`` each,
        and the offer of each ticket choice), as the kernel's action objects."""
        actions = self._prepared.actions
        config = self._game.config
        keep_base, core_ids = config.keep_base, config.core_ids
        offer = iter(offers)
        played: list[Action] = []
        for entry in entries:
            seat, aid = entry & 7, entry >> 3
            if keep_base <= aid < core_ids:
                offered = next(offer)
                mask = aid - keep_base
                kept = frozenset(t for i, t in enumerate(offered) if mask >> i & 1)
                played.append(KeepTickets(seat, kept))
            else:
                found = actions[seat][aid]
                assert found is not None
                played.append(found)
        return played

    def rollout(self, chooser: random.Random | int, max_actions: int) -> int:
        """:meth:`play_random` without the actions: how many were applied."""
        if type(chooser) is not int or abs(chooser).bit_length() > _KEY_BITS:
            return len(self.play_random(chooser, max_actions))
        game = self._usable()
        self.touched()
        try:
            done: int
            done, _, _ = game.play_seeded(key_words(chooser), max_actions, False)
        except BaseException as exc:
            self._broken = f"{type(exc).__name__} during a random playout: {exc}"
            raise
        return done
