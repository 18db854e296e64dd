"""The variant plugins that ship with ttr-core.

Each module here is a plugin registered through the ``ttr_core.plugins``
entry-point group in ``pyproject.toml``, exactly as a third-party package
would register its own. None of them is imported by the core.
"""

#: Shipped and versioned with ttr-core (game records name it per variant).
__version__ = "0.1.0"
