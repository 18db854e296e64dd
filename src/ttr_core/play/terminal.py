"""``ttr play``: a person plays one or more seats in the terminal against the
built-in bots (docs/play.md).

:class:`Session` runs one game between the person's seats, answered through
``ask`` and ``say``, and bots (:func:`ttr_core.agents.make_agent`), which see
only their own seat's view. The person sees the board through their seat's
:class:`~ttr_core.PlayerView` and the other seats' moves as
:func:`ttr_core.describe` tells them to that seat: nothing of a bot's hand,
tickets or draws from the deck reaches the screen before the final score
sheet. Moves are applied with ``apply``'s ``seat`` and ``expect_ply``
guards, as a server would.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from ttr_core import (
    Action,
    GameState,
    Termination,
    apply,
    describe,
    end_game,
    final_scores,
    is_over,
    legal_actions,
    non_seat_owners,
    player_score_sheets,
    player_view,
)
from ttr_core.agents import Agent
from ttr_core.play import moves, text

#: The bots' style unless ``--bots`` says otherwise.
DEFAULT_BOTS = "route"


class Session:
    """One game of ``ttr play``.

    ``humans`` are the seats the person plays (0-based); ``bots`` the agent
    of every other seat. ``ask(prompt)`` returns what the person typed
    (``EOFError`` when there is no more input: they resign); ``say(text)``
    shows text. ``seed`` seeds the bots' own choices.
    """

    def __init__(
        self,
        state: GameState,
        humans: Sequence[int],
        bots: Mapping[int, Agent],
        *,
        ask: Callable[[str], str],
        say: Callable[[str], None],
        seed: int = 0,
    ) -> None:
        self.state = state
        self.humans = tuple(sorted(humans))
        self.bots = dict(bots)
        self.ask = ask
        self.say = say
        self.rngs = {seat: random.Random(f"ttr play {seed} {seat}") for seat in self.bots}
        #: What each of the person's seats has not been shown yet.
        self.news: dict[int, list[str]] = {seat: [] for seat in self.humans}

    def run(self) -> int:
        """Play the game to its end; the exit status."""
        last: int | None = None
        while not is_over(self.state):
            seat = self.state.current_player
            assert seat is not None
            if seat in self.humans:
                if len(self.humans) > 1 and last is not None and last != seat:
                    self._ask_or_eof(f"{text.player(seat)}'s turn: press Enter> ")
                last = seat
                action = self._decide(seat)
                if action is None:
                    self._resign(seat)
                    break
            else:
                view = player_view(self.state, seat)
                action = self.bots[seat].act(view, legal_actions(self.state), self.rngs[seat])
            self._play(seat, action)
        scores = final_scores(self.state)
        self.say(
            text.final(scores, self.state.board, humans=self.humans, forfeit=self.state.forfeit)
        )
        return 0

    def _ask_or_eof(self, prompt: str) -> str | None:
        try:
            return self.ask(prompt)
        except EOFError:
            return None

    def _play(self, seat: int, action: Action) -> None:
        before = self.state
        self.state = apply(before, action, seat=seat, expect_ply=before.ply)
        for viewer in self.humans:
            # Each of the person's seats learns the move as describe tells it
            # to that seat: its own draws in full, another seat's redacted.
            line = text.event(describe(before, action, seat=viewer), viewer, self.humans)
            self.news[viewer].append(line)
        if before.rules.variants:
            self._other_claims(before)

    def _other_claims(self, before: GameState) -> None:
        old = {o.owner: set(o.routes) for o in non_seat_owners(before)}
        for other in non_seat_owners(self.state):
            for route in other.routes:
                if route not in old.get(other.owner, set()):
                    line = f"{other.name.capitalize()} claimed {text.route(before.board, route)}"
                    for viewer in self.humans:
                        self.news[viewer].append(line)

    def _resign(self, seat: int) -> None:
        self.state = end_game(self.state, Termination.RESIGNATION, seat)

    def _decide(self, seat: int) -> Action | None:
        """The person's move for ``seat``, or ``None`` when they resign."""
        state = self.state
        view = player_view(state, seat)
        legal = legal_actions(state)
        menu = moves.build(view, legal)
        both = state.rules.both_pair_routes_usable
        sheets = player_score_sheets(state, seat)
        board = text.screen(
            view,
            humans=self.humans,
            both_pairs=both,
            sheet=sheets[seat],
            events=tuple(self.news[seat]),
        )
        self.news[seat].clear()
        self.say(f"{board}\n{menu.text()}")
        prompt = moves.prompt(view, menu)
        while True:
            typed = self._ask_or_eof(prompt)
            if typed is None:
                self.say("\nNo more input: you resign.")
                return None
            chosen = moves.choose(menu, typed)
            if isinstance(chosen, Action):
                return chosen
            if chosen is moves.Command.QUIT:
                self.say("You resign.")
                return None
            if chosen is moves.Command.HELP:
                self.say(moves.help_text(view.board, menu))
            elif chosen is moves.Command.MOVES:
                self.say(menu.text(every=True))
            elif chosen is moves.Command.SCORES:
                title = "Score sheets as you may see them (tickets of others hidden):"
                self.say(text.sheets(sheets, humans=self.humans, title=title))
            elif chosen is moves.Command.ROUTES:
                self.say(text.all_routes(view, humans=self.humans, both_pairs=both))
            elif chosen is moves.Command.BOARD:
                self.say(f"{board}\n{menu.text()}")
            else:
                self.say(chosen)
