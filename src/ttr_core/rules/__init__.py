"""The rules of the game, once: the pure API (``new_game``, ``legal_actions``,
``apply``), the kernel that carries the rules out on a working state, scoring,
what a seat may see, early endings, actions in words, action ids and a seat's
status."""
