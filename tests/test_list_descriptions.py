"""``ttr --list`` shows what each variant is (issue 20, finding 11): a declared
``description``, else the first line of the plugin's docstring."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

import ttr_core
from ttr_core import Action, hookimpl
from ttr_core.cli import main
from ttr_core.cli.listing import MAX_DESCRIPTION


class Documented:
    """Keeps every action: a documented test variant.

    Only the first line is listed.
    """

    @hookimpl
    def ttr_filter_actions(self, actions: Sequence[Action]) -> None:
        return None


class Declared(Documented):
    """Not this line."""

    description = "Declared\x1b[31m in so many words " + "x" * 200


class Silent:
    @hookimpl
    def ttr_filter_actions(self, actions: Sequence[Action]) -> None:
        return None


class Raising(Silent):
    @property
    def description(self) -> str:
        raise RuntimeError("no")


@pytest.fixture
def listed(capsys: pytest.CaptureFixture[str]) -> Iterator[dict[str, str]]:
    plugins = {"ld_doc": Documented(), "ld_declared": Declared(), "ld_silent": Silent()}
    plugins["ld_raising"] = Raising()
    for name, plugin in plugins.items():
        ttr_core.register_variant(name, plugin)
    try:
        assert main(["--list"]) == 0
        out = capsys.readouterr().out
    finally:
        for name in plugins:
            ttr_core.unregister_variant(name)
    lines = {}
    for line in out.splitlines():
        name, _, rest = line.strip().partition(":")
        if line.startswith("  ") and not line.startswith("    "):
            lines[name] = rest.strip()
    yield lines


def test_list_shows_each_variants_description(listed: dict[str, str]) -> None:
    assert listed["ld_doc"] == "Keeps every action: a documented test variant."
    declared = listed["ld_declared"]
    assert declared.startswith("Declared [31m in so many words xxx")  # no control character
    assert len(declared) == MAX_DESCRIPTION and declared.endswith("…")
    assert listed["ld_silent"] == "" and listed["ld_raising"] == ""
    # The shipped plugins' module docstrings.
    assert listed["tolls"] == "Bridge tolls and loans (Ticket to Ride: Nederland)."
    assert listed["neutral"].startswith("The neutral player")
