"""ttr-core as an OpenSpiel game: ``python_ttr``.

Importing this module registers the game with ``pyspiel``::

    import pyspiel
    import ttr_core.openspiel  # registers "python_ttr"

    game = pyspiel.load_game("python_ttr", {"map": "newyork", "players": 2})
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.returns()

``import ttr_core`` never imports ``pyspiel``; this module needs the extra
``pip install '.[openspiel]'`` in a clone of ttr-core. ``docs/openspiel.md`` documents the
game: its parameters, why chance is explicit but only at the start (16
chance nodes draw the engine's 128-bit seed, a byte each), the action ids,
the tensors, the utilities and the limits.
"""

from __future__ import annotations

from ttr_core.errors import UnsupportedVariantError
from ttr_core.openspiel.config import GAME_TYPE, SHORT_NAME
from ttr_core.openspiel.game import TtrGame, TtrState
from ttr_core.openspiel.tensors import history_features

__all__ = [
    "GAME_TYPE",
    "SHORT_NAME",
    "TtrGame",
    "TtrState",
    "UnsupportedVariantError",
    "history_features",
]
