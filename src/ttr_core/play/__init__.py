"""``ttr play``: Ticket to Ride in the terminal, a person against the built-in
bots (docs/play.md).

Built on the public API alone: the person's screen is drawn from their seat's
:class:`~ttr_core.PlayerView` (:mod:`.text`, :mod:`.progress`), their moves
are the legal actions in words (:mod:`.moves`), and the game is run by
:class:`~ttr_core.play.terminal.Session` (:mod:`.terminal`).
"""

from __future__ import annotations

from ttr_core.play.terminal import Session, main

__all__ = ["Session", "main"]
