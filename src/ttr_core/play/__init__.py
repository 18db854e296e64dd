"""``ttr play``: Ticket to Ride in the terminal, a person against the built-in
bots (docs/play.md).

Built on the public API alone: the person's screen is drawn from their seat's
:class:`~ttr_core.PlayerView` (:mod:`.text`, :mod:`.progress`), their moves
are the legal actions in words (:mod:`.moves`), and the game is run by
:class:`~ttr_core.play.terminal.Session` (:mod:`.terminal`); the command,
its arguments and the game it sets up are :mod:`ttr_core.cli.play`'s.
"""

from __future__ import annotations

from ttr_core.play.terminal import Session

__all__ = ["Session"]
