"""Whole games of ``ttr play`` on every built-in map, played through the
terminal's own words as a person would (issue 34): the person reads the
screen and types short commands — ``k a b`` for tickets, ``c FROM TO`` for a
claim, ``st CITY`` for a Europe station, ``pay`` / ``g`` for a tunnel, ``sh``
for a Pennsylvania share, ``b`` to draw — or a number when nothing shorter
is offered. Every game ends by the rules, with stations, tunnels, ferries and
shares along the way, and no screen shows an engine repr.
"""

from __future__ import annotations

import re

import pytest

import ttr_core
from tests.test_front_end_words import REPR
from ttr_core.agents import make_agent
from ttr_core.play.terminal import Session


class Person:
    """Types what the last screen offers, preferring the short commands."""

    def __init__(self) -> None:
        self.screen = ""
        self.typed: list[str] = []
        self.stations = 0

    def say(self, words: str) -> None:
        self.screen = words
        self.shown.append(words)

    shown: list[str]

    def ask(self, prompt: str) -> str:
        self.shown.append(prompt)
        typed = self.choose(prompt)
        self.typed.append(typed)
        if len(self.typed) > 3000:
            raise EOFError
        return typed

    def choose(self, prompt: str) -> str:
        screen = self.screen
        self.screen = ""  # a refusal's sentence is no new screen: fall back next
        if not screen:
            return "1"
        if prompt.startswith(("Choose your starting tickets", "Choose the tickets to keep")):
            keep = int(re.search(r"keep at least (\d+)", screen).group(1))  # type: ignore[union-attr]
            letters = re.findall(r"^  ([a-z])  ", screen, re.M)
            return "k " + " ".join(letters[: max(keep, 1)])
        if prompt.startswith("Pay for the tunnel"):
            return "pay" if re.search(r"^  \[\d+\] +pay ", screen, re.M) else "g"
        if "(sh WORDS)" in screen:
            return "sh"  # the first share offered
        sets = re.search(r"\(cs FROM TO \[WORDS\]\):\n  (.+?)–(.+?) \(", screen)
        if sets and prompt.startswith("Your move") and len(self.typed) % 3 == 0:
            return f"cs {sets.group(1)} {sets.group(2)}"  # a claim with sets of cards
        station = re.search(r"^Build a station: type 'st PLACE'.*\n  ([^,\n]+)", screen, re.M)
        if station and self.stations < 2 and len(self.typed) % 7 == 0:
            self.stations += 1
            return f"st {station.group(1)}"
        claim = re.search(
            r"^  (.+?)–(.+?) \([a-z]+ \d+, \d+ points?[^)]*\): \[(\d+)\]", screen, re.M
        )
        if claim and prompt.startswith("Your move"):
            if len(self.typed) % 2:
                return f"c {claim.group(1)} {claim.group(2)}"
            return claim.group(3)
        if re.search(r"^  \[\d+\] +b ", screen, re.M):
            return "b"
        return re.search(r"\[(\d+)\]", screen).group(1) if "[" in screen else "1"  # type: ignore[union-attr]


@pytest.mark.parametrize("name", ttr_core.available_maps())
def test_a_whole_game_by_short_commands(name: str, recwarn: pytest.WarningsRecorder) -> None:
    state = ttr_core.new_game(name, 2, seed=21)
    person = Person()
    person.shown = []
    session = Session(state, [0], {1: make_agent("route")}, ask=person.ask, say=person.say, seed=21)
    assert session.run() == 0
    assert session.state.is_over and session.state.forfeit is None, person.typed[-5:]
    out = "\n".join(person.shown)
    assert "Final score sheet:" in out and "\nWinner" in out
    # The final sheet's numbers are final_scores', seat by seat and line by line.
    final = out[out.index("Final score sheet:") :]
    scores = ttr_core.final_scores(session.state)
    totals = re.findall(r"^Player (\d+)(?: \(you\))?: (-?\d+) points?$", final, re.M)
    assert [(int(n) - 1, int(p)) for n, p in totals] == [
        (sheet.player, sheet.total) for sheet in scores.sheets
    ]
    for sheet in scores.sheets:
        for line in sheet.lines:
            assert f"{line.points:+4d}  {line.label}" in final
    found = REPR.search(out)
    assert found is None, f"engine words {found.group(0)!r} on a screen"
    typed = person.typed
    assert any(t.startswith("c ") for t in typed) and "b" in typed and "You claimed" in out
    if name == "europe":
        assert any(t.startswith("st ") for t in typed) and "You built a station" in out
        assert any(t in ("pay", "g") for t in typed)  # a tunnel was answered
    if name == "nordiccountries":  # a claim with sets by its route, then its cards
        assert any(t.startswith("cs ") for t in typed) and "You set out to claim" in out
    if name == "pennsylvania":
        assert "sh" in typed and "You took share" in out
