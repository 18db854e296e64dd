"""The library's version (``ttr_core.__version__``), kept apart so that every
layer may read it (a record names the version that wrote it)."""

__version__ = "0.1.0"
