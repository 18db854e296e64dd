"""``ttr play``: a person against the bots in the terminal (docs/play.md).

Whole games are driven through a pseudo-terminal (the standard library's
``pty``), as a person would type them; the secrecy of the bots' seats is
checked in-process against the true state at every prompt.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable

import attrs
import pytest

import ttr_core
from ttr_core.agents import make_agent
from ttr_core.cli.play import main
from ttr_core.play import Session, moves, text
from ttr_core.simulation import play_game

from .helpers import started, with_hand

# -- a person at a pseudo-terminal ---------------------------------------------------


def drive(args: list[str], answer: Callable[[str, str], str], limit: float = 60.0) -> str:
    """Run ``python -m ttr_core play ARGS`` on a pseudo-terminal; at every prompt
    type ``answer(screen, prompt)``, where ``screen`` is what was shown since the
    last prompt. Returns the whole transcript (line ends as ``\\n``)."""
    import pty  # POSIX only
    import select

    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ttr_core", "play", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        close_fds=True,
    )
    os.close(slave)
    transcript = ""
    since = 0  # where the current screen starts in the transcript
    deadline = time.monotonic() + limit
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1.0)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the program closed the terminal
                break
            if not chunk:
                break
            transcript += chunk.decode("utf-8", "replace").replace("\r\n", "\n")
            if transcript.endswith("> "):
                screen = transcript[since:]
                prompt = screen[screen.rfind("\n") + 1 :]
                typed = answer(screen, prompt)
                os.write(master, typed.encode() + b"\n")
                since = len(transcript)
        else:
            pytest.fail(f"ttr play did not finish within {limit} s:\n{transcript[-3000:]}")
        assert proc.wait(timeout=10) == 0, transcript[-3000:]
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return transcript


def section(screen: str, heading: str) -> str:
    """The lines of the menu group whose heading starts with ``heading``."""
    found = re.search(rf"^{re.escape(heading)}[^\n]*:\n((?:  [^\n]*\n?)*)", screen, re.M)
    return found.group(1) if found else ""


class Person:
    """Plays as a hurried person would: claims the first route listed when it
    can (once by a short command ``c FROM TO``), else draws blind with ``b``,
    else takes the first move; tries some bad input first."""

    def __init__(self) -> None:
        self.said: list[tuple[str, str]] = []
        self.bad = ["xyzzy", "999", "c Nowhere Elsewhere", "b"]
        self.bad_on_a_turn = ["c Nowhere Elsewhere"]
        self.claimed_by_name = False

    def __call__(self, screen: str, prompt: str) -> str:
        typed = self.choose(screen, prompt)
        self.said.append((prompt, typed))
        return typed

    def choose(self, screen: str, prompt: str) -> str:
        if self.bad:
            return self.bad.pop(0)
        if self.bad_on_a_turn and prompt.startswith("Your move"):
            return self.bad_on_a_turn.pop(0)
        claims = section(screen, "Claim a route")
        if claims:
            first = claims.splitlines()[0]
            if not self.claimed_by_name:
                self.claimed_by_name = True
                route = re.match(r"  (.+?)–(.+?) \(", first)
                assert route is not None, first
                return f"c {route.group(1)} {route.group(2)}"
            number = re.search(r"\[(\d+)\]", first)
            assert number is not None, first
            return number.group(1)
        if re.search(r"^  \[\d+\] +b ", screen, re.M):
            return "b"
        return "1"


def bot_tickets(transcript: str) -> list[tuple[str, str, str]]:
    """The tickets of Player 2 on the final score sheet, as ``(a, b, points)``."""
    final = transcript[transcript.index("Final score sheet:") :]
    block = final[final.index("\nPlayer 2:") : final.index("\nWinner")]
    return re.findall(r"Ticket (.+?) – (.+?) \((\d+)\)", block)


@pytest.mark.parametrize(
    "args",
    [
        ["--map", "newyork", "--players", "2", "--seed", "11"],
        ["--map", "nederland", "--players", "2", "--variants", "tolls", "--seed", "5"],
    ],
    ids=["newyork", "nederland-tolls"],
)
@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX only")
def test_a_whole_game_in_a_pseudo_terminal(args: list[str]) -> None:
    person = Person()
    transcript = drive(args, person)
    assert "I do not understand 'xyzzy'" in transcript
    assert "There is no move 999 now: the moves offered are 1–" in transcript
    # Errors say why (issue 34): the places typed that are on no map are named.
    assert "'Nowhere Elsewhere' is no place on Ticket to Ride:" in transcript
    # 'b' while choosing the starting tickets is refused in words, not a traceback.
    assert "'b' is not a move you may make now" in transcript
    assert "Traceback" not in transcript
    # The moves were chosen by number and by short commands, and claims happened.
    typed = [t for _, t in person.said]
    assert any(t.isdigit() for t in typed) and "b" in typed[4:]
    assert person.claimed_by_name and "You claimed" in transcript
    # The game ran to its end by the rules and showed the final score sheet.
    pieces = {"newyork": "taxis", "nederland": "trains"}[args[1]]  # the map's word
    assert f"Game over: a player ran low on {pieces}" in transcript
    assert "Final score sheet:" in transcript and "\nWinner" in transcript
    assert "Player 1 (you):" in transcript and "Player 2:" in transcript
    # Nothing of the bot's seat before the end: its tickets, its draws.
    during = transcript[: transcript.index("Game over")]
    tickets = bot_tickets(transcript)
    assert tickets
    offered_to_me = set(re.findall(r"^  [a-e]  (.+?)–(.+?) \((\d+)\)", during, re.M))
    for a, b, points in tickets:
        if (a, b, points) in offered_to_me:
            continue  # the person saw it on offer and returned it: not the bot's secret
        for shown in (f"{a}–{b} ({points})", f"{a} – {b} ({points})", f"({a}–{b}, {points})"):
            assert shown not in during
    assert not re.search(r"Player 2 drew (a|an) (?!card)\w+ card", during)
    assert not re.search(r"Player 2 (kept|drew) tickets? \d", during)
    assert re.search(r"Player 2 (drew a card from the deck|kept \d tickets?)", during)


# -- in-process: the screen against the true state -----------------------------------


def bot_secrets(state: ttr_core.GameState) -> tuple[str, list[str]]:
    """How seat 1's hidden facts would read on the screen: its hand, and its
    tickets and ticket offers (the person, seat 0, chooses its starting tickets
    first, so every starting offer still waiting is another seat's)."""
    board = state.board
    tickets = list(state.players[1].tickets)
    if state.pending is not None and state.pending.player == 1:
        tickets.extend(state.pending.offered)
    for offer in state.start_offers:
        tickets.extend(offer)
    words = []
    for t in tickets:
        ticket = board.tickets[t]
        words += [text.ticket(board, t), f"{ticket.a} – {ticket.b} ({ticket.points})"]
    return text.cards(board, state.players[1].hand), words


@pytest.mark.parametrize(
    ("map_name", "variants", "seed"),
    [
        ("newyork", None, 3),
        ("nederland", ["tolls", "neutral"], 4),
        ("europe", None, 2),
        ("switzerland", None, 5),
        ("nordiccountries", None, 6),
        ("pennsylvania", None, 7),
        ("india", None, 8),
    ],
)
def test_the_screen_never_shows_a_bots_hand_or_tickets(
    map_name: str, variants: list[str] | None, seed: int
) -> None:
    state = ttr_core.new_game(map_name, 2, seed=seed, variants=variants)
    rng = random.Random(seed)
    shown: list[str] = []
    seen_offers: set[int] = set()
    checked = 0

    def ask(prompt: str) -> str:
        nonlocal checked
        now = session.state
        screen = "\n".join(shown)
        shown.clear()
        view = ttr_core.player_view(now, 0)
        seen_offers.update(view.offered)
        hand, tickets = bot_secrets(now)
        for t in tickets:
            # A ticket the person was offered and returned is theirs to know.
            if not any(t.startswith(text.ticket(now.board, o)) for o in seen_offers):
                assert t not in screen, (t, screen)
        # The hand, beside the places where hands are shown by right: the
        # person's own and the cards every player knows of.
        rest = [
            line.split("; known cards:")[0]
            for line in screen.splitlines()
            if not line.startswith("Your hand:")
        ]
        if sum(1 for n in now.players[1].hand.values() if n) > 1:
            assert hand not in "\n".join(rest), (hand, screen)
        for line in screen.splitlines():
            if line.startswith("  Player 2:"):
                public = line.split("; known cards:")[0]
                assert not any(f" {c} " in public for c in now.board.colors), line
            assert not re.search(r"Player 2 drew (a|an) (?!card)\w+ card", line), line
            assert not re.match(r"\s*Player 2 kept tickets? \d", line), line
        checked += 1
        number = int(re.search(r"\[1-(\d+)", prompt).group(1))  # type: ignore[union-attr]
        return str(rng.randint(1, number))

    session = Session(state, [0], {1: make_agent("route")}, ask=ask, say=shown.append, seed=seed)
    assert session.run() == 0
    assert ttr_core.is_over(session.state) and checked > 10


def test_the_screen_is_drawn_from_the_view_alone() -> None:
    """Two states a seat cannot tell apart (``determinize``) give the same screen."""
    state = ttr_core.new_game("nederland", 3, seed=9)
    for _ in range(40):
        state = ttr_core.apply(state, ttr_core.legal_actions(state)[0])
    view = ttr_core.player_view(state, 0)
    other = ttr_core.player_view(ttr_core.determinize(view, seed=1), 0)
    assert other == view
    assert ttr_core.determinize(view, seed=1).players[1].hand != state.players[1].hand
    shown = text.screen(view, humans=[0], both_pairs=False)
    assert shown == text.screen(other, humans=[0], both_pairs=False)


# -- commands ------------------------------------------------------------------------


def menu_of(state: ttr_core.GameState) -> moves.Menu:
    view = ttr_core.player_view(state, state.current_player or 0)
    return moves.build(view, ttr_core.legal_actions(state))


def test_short_commands_choose_moves() -> None:
    state = ttr_core.new_game("nederland", 2, seed=1, variants=[])
    menu = menu_of(state)
    offered = ttr_core.player_view(state, 0).offered
    assert moves.choose(menu, "k a c d") == ttr_core.KeepTickets(
        0, frozenset({offered[0], offered[2], offered[3]})
    )
    assert moves.choose(menu, "k acd") == moves.choose(menu, "k a c d")
    assert "at least 3" in str(moves.choose(menu, "k a"))
    assert "letters" in str(moves.choose(menu, "k z"))
    state = ttr_core.apply(state, moves.choose(menu, "1"))  # type: ignore[arg-type]
    state = ttr_core.apply(state, ttr_core.legal_actions(state)[0])
    menu = menu_of(state)
    assert moves.choose(menu, "b") == ttr_core.DrawBlind(0)
    assert moves.choose(menu, " F3 ") == ttr_core.DrawFaceUp(0, 2)
    assert moves.choose(menu, "t") == ttr_core.DrawTickets(0)
    assert moves.choose(menu, "?") is moves.Command.HELP
    assert moves.choose(menu, "") is moves.Command.BOARD
    assert moves.choose(menu, "q") is moves.Command.QUIT
    assert "no move 0" in str(moves.choose(menu, "0"))
    assert "not a move you may make now" in str(moves.choose(menu, "p"))
    claims = [e.action for e in menu.entries if isinstance(e.action, ttr_core.ClaimRoute)]
    assert claims
    claim = claims[0]
    route = state.board.routes[claim.route]
    chosen = moves.choose(menu, f"c {route.a.upper()} {route.b}")
    assert isinstance(chosen, ttr_core.ClaimRoute)
    assert {state.board.routes[chosen.route].a, state.board.routes[chosen.route].b} == {
        route.a,
        route.b,
    }
    assert moves.choose(menu, f"c {route.b}–{route.a}") == chosen
    assert "between" in str(moves.choose(menu, "c Den Helder Maastricht"))
    assert "Name two places" in str(moves.choose(menu, "c Atlantis"))


def test_a_claim_names_places_of_several_words_and_a_colour() -> None:
    board = ttr_core.load_map("nederland")
    den_helder = next(r for r in board.routes if "Den Helder" in (r.a, r.b))
    other = den_helder.b if den_helder.a == "Den Helder" else den_helder.a
    view = ttr_core.player_view(ttr_core.new_game(board, 2, seed=1), 0)
    paid = [
        ttr_core.ClaimRoute(0, den_helder.id, den_helder.color, 0),
        ttr_core.ClaimRoute(0, den_helder.id, None, den_helder.length),
    ]
    menu = moves.build(view, paid)
    assert moves.choose(menu, f"c Den Helder {other}") == paid[0]  # fewest wild cards
    assert moves.choose(menu, f"c den helder {other} locomotive") == paid[1]
    assert "goes with" in str(moves.choose(menu, f"c Den Helder {other} orange"))


def test_hot_seat_and_resigning_by_end_of_input() -> None:
    """Two seats played by people, no bot; input ends: the seat to move resigns."""
    state = ttr_core.new_game("newyork", 2, seed=2)
    typed = iter(["1", "", "1"])
    shown: list[str] = []

    def ask(prompt: str) -> str:
        shown.append(prompt)
        return next(typed)  # StopIteration is not EOFError: make it one

    def ask_or_eof(prompt: str) -> str:
        try:
            return ask(prompt)
        except StopIteration:
            raise EOFError from None

    session = Session(state, [0, 1], {}, ask=ask_or_eof, say=shown.append)
    assert session.run() == 0
    out = "\n".join(shown)
    assert "Player 2's turn: press Enter> " in out
    assert session.state.forfeit == 0 and "Game over: Player 1 resigned." in out
    assert "Final score sheet:" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seats", "3"], "--seats takes seats from 1 to 2"),
        (["--bots", "clever"], "no agent 'clever'"),
        (["--map", "atlantis"], "atlantis"),
        (["--option", "tolls"], "--option takes VARIANT.NAME=VALUE"),
    ],
)
def test_bad_arguments_are_said_in_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("ttr play: ") and message in err


def test_ttr_play_is_a_subcommand(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from ttr_core import cli

    monkeypatch.setattr("builtins.input", lambda prompt: "q")
    assert cli.main(["play", "--map", "newyork", "--seed", "1", "--bots", "random"]) == 0
    out = capsys.readouterr().out
    assert "Ticket to Ride: New York, 2 players (Player 1: you, Player 2: random bot)" in out
    assert "You resign." in out and "Game over: Player 1 (you) resigned." in out


# -- Pennsylvania's shares and India's Grand Tour (issue 33) ---------------------------


def test_a_share_is_chosen_by_number_after_a_claim() -> None:
    from ttr_core_plugins.shares import DeclineShare, TakeShare

    state = started(ttr_core.new_game("pennsylvania", 3, seed=2))
    route = next(
        r for r in state.board.routes if r.extra.get("companies") == ("PRR", "WM")
    )  # Baltimore–Gettysburg
    state = attrs.evolve(state, pending=ttr_core.Pending("turn", 0))
    state = with_hand(state, 0, **{route.color: route.length})
    state = ttr_core.apply(state, ttr_core.ClaimRoute(0, route.id, route.color, 0))
    menu = moves.build(ttr_core.player_view(state, 0), ttr_core.legal_actions(state))
    words = [(e.action, e.words) for e in menu.entries]
    assert [a for a, _ in words] == [TakeShare(0, "PRR"), TakeShare(0, "WM"), DeclineShare(0)]
    assert "Pennsylvania Railroad (PRR)" in words[0][1] and "no share" in words[2][1].lower()
    chosen = moves.choose(menu, str(menu.entries[1].number))
    assert chosen == TakeShare(0, "WM")
    after = ttr_core.apply(state, chosen)
    assert after.variant("shares").held[0][6] == (1,)  # Western Maryland's share 1


def test_the_final_sheet_names_the_grand_tour_tickets() -> None:
    from ttr_core_plugins.mandala import qualifying, ticket_name

    for seed in range(20):
        state = ttr_core.new_game("india", 2, seed=seed)
        agents = [make_agent("route"), make_agent("route")]
        final_state = play_game(state, agents, seed=seed, keep_history=False).state
        made = [qualifying(final_state, seat) for seat in range(2)]
        if any(made):
            break
    else:
        pytest.fail("no Grand Tour ticket in 20 games of route bots")
    scores = ttr_core.final_scores(final_state)
    shown = text.final(scores, final_state.board, humans=[0], forfeit=None)
    assert "Grand Tour of India: " in shown
    for tickets in made:
        for ticket in tickets:
            assert ticket_name(final_state.board, ticket) in shown
