"""The screens of ``ttr play`` on every built-in map, as docs/play-screens.md shows them.

    python scripts/play_screens.py             # writes docs/play-screens.md
    python scripts/play_screens.py --check     # exit 1 if the page is out of date

For each map a seeded two-player game is played by ``route`` bots, the
person's seat (Player 1) included, up to a moment worth showing — a turn
with routes to claim; on Europe a turn where a station may be built and a
tunnel's turned-up cards; on Pennsylvania a share to choose; on Nordic
Countries a claim with sets — and the screen ``ttr play`` shows there is
written out, exactly as the terminal prints it (the same functions:
:mod:`ttr_core.play.text` and :mod:`ttr_core.play.moves`). New York's game is
played to its end for the final score sheet. tests/test_docs.py checks that
the page is what this script writes now.
"""

from __future__ import annotations

import argparse
import random
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import ttr_core
from ttr_core.agents import make_agent
from ttr_core.play import moves, text

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "play-screens.md"

#: A moment worth showing: (title, test on the legal actions of Player 1's decision).
Moment = tuple[str, Callable[[ttr_core.GameState, list[ttr_core.Action]], bool]]


def _kinds(legal: list[ttr_core.Action]) -> set[str]:
    return {type(action).__name__ for action in legal}


def _turn(after: int) -> Callable[[ttr_core.GameState, list[ttr_core.Action]], bool]:
    def ready(state: ttr_core.GameState, legal: list[ttr_core.Action]) -> bool:
        return state.turn >= after and any(isinstance(a, ttr_core.ClaimRoute) for a in legal)

    return ready


def _has(kind: str, after: int = 0) -> Callable[[ttr_core.GameState, list[ttr_core.Action]], bool]:
    def ready(state: ttr_core.GameState, legal: list[ttr_core.Action]) -> bool:
        return state.turn >= after and kind in _kinds(legal)

    return ready


#: The moments shown per map, in order.
MOMENTS: dict[str, list[Moment]] = {
    "newyork": [("A turn", _turn(6))],
    "nederland": [("A turn, with the tolls on each claim", _turn(10))],
    "usa": [("A turn", _turn(10))],
    "amsterdam": [("A turn, with the merchandise routes", _turn(6))],
    "europe": [
        ("A turn: stations are built by city", _has("BuildStation", 12)),
        ("A tunnel: the cards turned up, before paying or giving up", _has("GiveUpTunnel")),
    ],
    "switzerland": [("A turn, with the tunnels marked", _turn(8))],
    "nordiccountries": [("A turn: claims paid with sets of cards", _has("ClaimWithSets", 6))],
    "pennsylvania": [("A share to choose after a claim", _has("TakeShare"))],
    "india": [("A turn", _turn(8))],
}


def screens(name: str, seed: int = 3) -> list[tuple[str, str]]:
    """The titled screens of ``name``'s game, as ``ttr play`` prints them."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # maps with generated tickets say so
        state = ttr_core.new_game(name, 2, seed=seed)
    rng = random.Random(seed)
    bots = [make_agent("route"), make_agent("route")]
    wanted = list(MOMENTS[name])
    found: list[tuple[str, str]] = []
    news: list[str] = []
    for _ in range(5000):
        legal = ttr_core.legal_actions(state)
        if not legal or not wanted:
            break
        seat = legal[0].player
        view = ttr_core.player_view(state, seat)
        if seat == 0 and wanted[0][1](state, legal):
            title, _ = wanted.pop(0)
            menu = moves.build(view, legal)
            sheet = ttr_core.player_score_sheets(state, 0)[0]
            both = state.rules.both_pair_routes_usable
            shown = text.screen(view, humans=[0], both_pairs=both, sheet=sheet, events=tuple(news))
            found.append((title, f"{shown}\n{menu.text()}\n{moves.prompt(view, menu)}"))
            news.clear()
        action = bots[seat].act(view, legal, rng)
        news.append(text.event(ttr_core.describe(state, action, seat=0), 0, [0]))
        del news[:-4]  # the screen shows what happened since the last move: a few lines
        state = ttr_core.apply(state, action)
    if wanted:
        raise SystemExit(f"{name}: no moment {wanted[0][0]!r} in the seeded game")
    if name == "newyork":
        while not state.is_over:
            legal = ttr_core.legal_actions(state)
            seat = legal[0].player
            state = ttr_core.apply(
                state, bots[seat].act(ttr_core.player_view(state, seat), legal, rng)
            )
        scores = ttr_core.final_scores(state)
        found.append(("The end", text.final(scores, state.board, humans=[0], forfeit=None)))
    return found


def page() -> str:
    """docs/play-screens.md, whole."""
    parts = [
        "# ttr play: a screen of every map",
        "",
        "<!-- Written by scripts/play_screens.py: do not edit by hand. -->",
        "",
        "What `ttr play` shows on each built-in map, at a moment of a seeded game",
        "played by the `route` bots for both players (Player 1 is the seat a",
        "person would play). Written by `python scripts/play_screens.py` with the",
        "very functions the terminal prints with; tests/test_docs.py checks the",
        "page is current. How to read and answer a screen: [play.md](play.md).",
        "",
    ]
    for name in MOMENTS:
        board = ttr_core.load_map(name)
        parts.append(f"## {board.name}")
        parts.append("")
        for title, screen in screens(name):
            parts.extend([f"### {title}", "", "```text", screen.rstrip(), "```", ""])
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is out of date")
    args = parser.parse_args(argv)
    written = page()
    if args.check:
        if PAGE.read_text(encoding="utf-8") != written:
            print(f"{PAGE} is out of date: run python scripts/play_screens.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(written, encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
