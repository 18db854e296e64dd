"""OpenSpiel and NumPy, the ``openspiel`` extra: imported once here, so that
every module of the adapter says the same thing when they are missing."""

from __future__ import annotations

try:
    import numpy as np  # type: ignore[import-not-found, unused-ignore]
    import numpy.typing as npt  # type: ignore[import-not-found, unused-ignore]
    import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "ttr_core.openspiel needs OpenSpiel and numpy: pip install '.[openspiel]' in a clone "
        "of ttr-core (pip install 'ttr-core[openspiel]' once it is on the package index) "
        f"({exc})"
    ) from exc

__all__ = ["np", "npt", "pyspiel"]
