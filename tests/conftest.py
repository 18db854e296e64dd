import os
import sys
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

import ttr_core

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("ci" if os.environ.get("CI") else "default")

# The suite runs with every hook result checked in full (docs/hooks.md, "Checked
# results"); tests of the cheap default checks switch it off where they need to.
ttr_core.set_strict(True)


@pytest.fixture
def busy_switching() -> Iterator[None]:
    """Threads switched as often as the interpreter can (restored after): what the
    thread-safety tests run under (docs/threads.md)."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def pytest_make_parametrize_id(config: pytest.Config, val: object, argname: str) -> str | None:
    """Test ids that are the same in every process: a value shown with its memory
    address (``<object object at 0x...>``) is named by its type instead, so that
    the ids do not change from one collection to the next (pytest-xdist's workers
    must collect the same tests)."""
    try:
        text = repr(val)
    except Exception:  # a hostile value of the junk tests
        return f"{argname}-{type(val).__name__}"
    if " at 0x" in text:
        return f"{argname}-{type(val).__name__}"
    return None
