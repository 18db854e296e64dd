"""Test set-up: strict hook checks, and a clear message if the package is not installed."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import PackageNotFoundError, version

import pytest

import ttr_core


def pytest_configure(config: pytest.Config) -> None:
    """Refuse to run against a package that is not installed.

    The tests exercise the plugin as ttr-core finds it, through its entry
    point, which exists only once the package is installed.
    """
    try:
        version("ttr-example-variant")
    except PackageNotFoundError:
        raise pytest.UsageError(
            "ttr-example-variant is not installed: run "
            "`pip install ./docs/examples/ttr-example-variant` first"
        ) from None


@pytest.fixture(autouse=True)
def strict_hooks() -> Iterator[None]:
    """Check every hook result in full (states, card counts, filter subsets)."""
    previous = ttr_core.set_strict(True)
    yield
    ttr_core.set_strict(previous)
