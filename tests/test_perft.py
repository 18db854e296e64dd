"""Golden action counts ("perft"): any change in the rules' behaviour shows here.

``tests/data/perft.json`` holds, for every built-in map, variant set and
player count, the number of legal actions at each decision along a fixed
line of play (``random.Random(1)`` choosing), the line's length and sum, and
the number of two-action sequences from the first turn
(:mod:`ttr_core.testing.perft`). After an intended change of behaviour,
regenerate the file and review its diff with the change::

    python -m ttr_core.testing.perft --write tests/data/perft.json
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ttr_core
from ttr_core.testing import perft

GOLDEN = Path(__file__).parent / "data" / "perft.json"
REGENERATE = "python -m ttr_core.testing.perft --write tests/data/perft.json"


@pytest.fixture(scope="module")
def golden() -> dict[str, dict[str, object]]:
    data: dict[str, dict[str, object]] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def actual() -> dict[str, dict[str, object]]:
    return perft.compute()


def test_the_golden_file_covers_every_built_in_map_variant_set_and_player_count(
    golden: dict[str, dict[str, object]],
) -> None:
    maps = {key.split("/")[0] for key in golden}
    assert maps == set(ttr_core.available_maps())
    assert set(golden) == {key for key, *_ in perft.entries()}
    numbers = sum(len(entry["first"]) + 3 for entry in golden.values())  # type: ignore[arg-type]
    assert 200 <= numbers <= 1000, "a few hundred numbers, reviewable in a diff"


def test_the_legal_action_counts_are_the_golden_ones(
    golden: dict[str, dict[str, object]], actual: dict[str, dict[str, object]]
) -> None:
    problems = perft.differences(golden, actual)
    assert not problems, (
        "the number of legal actions changed along the golden lines:\n"
        + "\n".join(problems)
        + f"\nIf the change is intended, run `{REGENERATE}` and review the diff."
    )


def test_perft_counts_action_sequences() -> None:
    state = ttr_core.new_game("newyork", 2, seed=1)
    first = ttr_core.legal_actions(state)
    assert perft.perft(state, 0) == 1
    assert perft.perft(state, 1) == len(first)
    assert perft.perft(state, 2) == sum(
        len(ttr_core.legal_actions(ttr_core.apply(state, a))) for a in first
    )


def test_the_check_command_fails_on_a_changed_count(tmp_path: Path) -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    key = next(iter(golden))
    golden[key]["first"][0] += 1
    changed = tmp_path / "perft.json"
    changed.write_text(json.dumps(golden), encoding="utf-8")
    assert perft.main(["--check", str(changed)]) == 1
    written = tmp_path / "again.json"
    assert perft.main(["--write", str(written)]) == 0
    assert perft.main(["--check", str(written)]) == 0
