"""Variant options, and plugins that are broken without breaking the others."""

from __future__ import annotations

import pickle
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from ttr_core_plugins import attractions, tolls

import ttr_core
from ttr_core import OptionError, PluginError, VariantOption, hookimpl
from ttr_core.cli import main
from ttr_core.hooks.manager import rescan_entry_points

from .helpers import claim, route_id, started

# -- options ---------------------------------------------------------------------------


def test_builtin_plugins_declare_their_rulebook_numbers_as_options() -> None:
    by_name = {opt.name: opt for opt in ttr_core.variant_options("tolls")}
    assert by_name["start_value"].default == tolls.START_VALUE == 30
    assert by_name["loan_penalty"].default == tolls.LOAN_PENALTY == 5
    (points,) = ttr_core.variant_options("attractions")
    assert (points.name, points.type, points.default) == ("points_per_attraction", int, 1)


def test_defaults_are_filled_in_and_part_of_the_rule_set() -> None:
    state = ttr_core.new_game("nederland", 3, seed=1)
    assert state.rules.option("tolls", "start_value") == 30
    assert state.rules.options == (("tolls", (("loan_penalty", 5), ("start_value", 30))),)
    same = ttr_core.new_game("nederland", 3, seed=2, options={"tolls": {"start_value": 30}})
    assert same.rules is state.rules  # the defaults given explicitly: the same configuration


def test_an_option_changes_the_game_and_its_identity() -> None:
    rich = ttr_core.new_game("nederland", 3, seed=1, options={"tolls": {"start_value": 50}})
    assert tolls.tolls(rich).holdings == (50, 50, 50)
    plain = ttr_core.new_game("nederland", 3, seed=1)
    assert rich.rules != plain.rules and rich != plain
    assert pickle.loads(pickle.dumps(rich)) == rich


def test_loan_penalty_option_is_scored() -> None:
    state = ttr_core.new_game("nederland", 2, seed=1, options={"tolls": {"loan_penalty": 9}})
    current = tolls.tolls(state)
    state = state.with_variant("tolls", tolls.TollState(current.holdings, (2, 0)))
    lines = [line for line in ttr_core.score_sheets(state)[0].lines if line.kind == "loans"]
    assert [(line.points, line.label) for line in lines] == [(-18, "Loans: 2 × −9")]


def test_points_per_attraction_option_is_scored() -> None:
    def attraction_points(options: dict[str, dict[str, int]] | None) -> int:
        state = started(ttr_core.new_game("newyork", 2, seed=1, options=options))
        state = claim(state, 0, route_id(state, "Chelsea", "Soho"), "pink")
        assert attractions.attractions_touched(state, 0) == frozenset({"Chelsea"})
        sheet = ttr_core.score_sheets(state)[0]
        (line,) = [line for line in sheet.lines if line.kind == "attractions"]
        return line.points

    assert attraction_points(None) == 1
    assert attraction_points({"attractions": {"points_per_attraction": 3}}) == 3


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"tolls": {"start_valu": 1}}, "no option 'start_valu'.*did you mean 'start_value'"),
        ({"tolls": {"start_value": True}}, "must be a whole number, not bool True"),
        ({"tolls": {"start_value": "30"}}, "must be a whole number, not str"),
        ({"tolls": {"start_value": 2.5}}, "must be a whole number, not float"),
        ({"tolls": {"start_value": -1}}, "at least 0"),
        ({"tolls": {"start_value": 10**12}}, "at most 10000"),
        ({"attractions": {}}, "does not switch on"),
        ({"tolls": 3}, "must be a table"),
        (["tolls"], "must map variant names"),
    ],
)
def test_bad_options_are_refused_with_the_typed_error(options: object, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        ttr_core.new_game("nederland", 3, options=options)  # type: ignore[arg-type]


class Tunable:
    @hookimpl
    def ttr_options(self) -> list[VariantOption]:
        return [
            VariantOption("speed", float, 1.5, "how fast", low=0),
            VariantOption("mode", str, "calm", "the mood", choices=("calm", "wild")),
            VariantOption("loud", bool, False, "whether to shout"),
        ]


@pytest.fixture
def tunable() -> Iterator[None]:
    ttr_core.register_variant("tunable", Tunable())
    yield
    ttr_core.unregister_variant("tunable")


@pytest.mark.usefixtures("tunable")
def test_option_types_floats_choices_and_bools() -> None:
    state = ttr_core.new_game(
        "newyork", 2, variants=["tunable"], options={"tunable": {"speed": 2, "mode": "wild"}}
    )
    assert state.rules.option("tunable", "speed") == 2.0
    assert isinstance(state.rules.option("tunable", "speed"), float)
    assert state.rules.option("tunable", "mode") == "wild"
    assert state.rules.option("tunable", "loud") is False
    with pytest.raises(OptionError, match="one of 'calm', 'wild'"):
        ttr_core.new_game("newyork", 2, variants=["tunable"], options={"tunable": {"mode": "x"}})
    with pytest.raises(OptionError, match="finite"):
        ttr_core.new_game(
            "newyork", 2, variants=["tunable"], options={"tunable": {"speed": float("nan")}}
        )
    with pytest.raises(OptionError, match="no option 'nope'"):
        state.rules.option("tunable", "nope")


def test_a_plugin_declaring_a_bad_option_is_refused() -> None:
    class BadDefault:
        @hookimpl
        def ttr_options(self) -> list[VariantOption]:
            return [VariantOption("n", int, "three", "a number")]

    class Twice:
        @hookimpl
        def ttr_options(self) -> list[VariantOption]:
            return [VariantOption("n", int, 1), VariantOption("n", int, 2)]

    for plugin, message in ((BadDefault(), "invalid default"), (Twice(), "twice")):
        with pytest.raises(PluginError, match=message) as err:
            ttr_core.register_variant("badopt", plugin)
        assert (err.value.variant, err.value.hook) == ("badopt", "ttr_options")


@pytest.mark.usefixtures("tunable")
def test_the_command_line_lists_and_sets_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--list"]) == 0
    out = capsys.readouterr().out
    assert "--option tolls.start_value=…  (int, default 30, 0 ≤ value ≤ 10000)" in out
    assert "tunable.mode=…  (str, default 'calm', one of 'calm', 'wild'): the mood" in out
    assert main(["--map", "nederland", "--players", "3", "--option", "tolls.start_value=7"]) == 0
    assert "options: tolls.loan_penalty=5, tolls.start_value=7" in capsys.readouterr().out
    assert main(["--variants", "tunable", "--option", "tunable.loud=yes"]) == 0
    assert "tunable.loud=True" in capsys.readouterr().out
    assert main(["--map", "nederland", "--option", "tolls.start_value=lots"]) == 2
    assert "expected a whole number" in capsys.readouterr().err
    assert main(["--option", "novariant"]) == 2
    assert "VARIANT.NAME=VALUE" in capsys.readouterr().err


# -- isolation of broken plugins -----------------------------------------------------------


@pytest.fixture
def broken_install(tmp_path: Path) -> Iterator[None]:
    """Install, on sys.path, a distribution with three entry points: one whose
    module does not import, one that is not a valid plugin, one that works."""
    (tmp_path / "ttr_broken_a.py").write_text("import no_such_module_anywhere\n")
    (tmp_path / "ttr_broken_b.py").write_text(
        textwrap.dedent(
            """
            from ttr_core import hookimpl

            @hookimpl
            def ttr_after_clam(state):
                return None
            """
        )
    )
    (tmp_path / "ttr_fine_c.py").write_text(
        "from ttr_core import hookimpl\n\n@hookimpl\ndef ttr_setup(state):\n"
        "    return state.with_variant('fine', 1)\n"
    )
    (tmp_path / "ttr_crash_d.py").write_text(
        "from ttr_core import hookimpl\n\n@hookimpl\ndef ttr_validate_map(board):\n"
        "    return board.no_such_attribute\n"
    )
    (tmp_path / "ttr_clash_e.py").write_text(
        "from ttr_core import MapField, hookimpl\n\n@hookimpl\ndef ttr_map_fields():\n"
        "    return [MapField('routes', 'toll', int, 0)]\n"
    )
    info = tmp_path / "ttr_broken_demo-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ttr-broken-demo\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[ttr_core.plugins]\nimportfails = ttr_broken_a\ninvalid = ttr_broken_b\n"
        "fine = ttr_fine_c\ncrashcheck = ttr_crash_d\naclash = ttr_clash_e\n"
    )
    sys.path.insert(0, str(tmp_path))
    rescan_entry_points()
    try:
        yield
    finally:
        sys.path.remove(str(tmp_path))
        for module in ("ttr_broken_a", "ttr_broken_b", "ttr_fine_c", "ttr_crash_d", "ttr_clash_e"):
            sys.modules.pop(module, None)
        rescan_entry_points()


@pytest.mark.usefixtures("broken_install")
def test_a_broken_plugin_breaks_only_the_games_that_ask_for_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert "fine" in ttr_core.available_variants()
    assert "importfails" not in ttr_core.available_variants()
    broken = ttr_core.broken_variants()
    assert set(broken) == {"importfails", "invalid", "aclash"}
    # found before "tolls" by name, the clashing plugin is still the broken one
    assert "'toll' on routes, which variant 'tolls' declares already" in broken["aclash"]
    assert "No module named 'no_such_module_anywhere'" in broken["importfails"]
    assert "ttr_after_clam" in broken["invalid"]
    # every other game still plays, the maps still load; the crashing map
    # check is found broken on the first map it sees, and left out after
    ttr_core.load_map("newyork")
    ttr_core.random_playout("newyork", 2, seed=1)
    ttr_core.random_playout("nederland", 3, seed=1)
    broken = ttr_core.broken_variants()
    assert "hook ttr_validate_map raised AttributeError" in broken["crashcheck"]
    assert ttr_core.new_game("newyork", 2, variants=["fine"]).variant("fine") == 1
    for name in ("importfails", "invalid", "crashcheck", "aclash"):
        with pytest.raises(PluginError, match="installed but broken") as err:
            ttr_core.new_game("newyork", 2, variants=[name])
        assert err.value.variant == name
    assert main(["--list"]) == 0
    out = capsys.readouterr().out
    assert "broken plugins (not usable):" in out
    assert "importfails: failed to import ttr_broken_a" in out
    assert main(["--games", "1"]) == 0
    assert main(["--variants", "importfails"]) == 2
    assert "installed but broken" in capsys.readouterr().err


@pytest.mark.usefixtures("broken_install")
def test_a_registered_variant_replaces_a_broken_entry_point_of_its_name() -> None:
    class Working:
        @hookimpl
        def ttr_setup(self, state: ttr_core.GameState) -> ttr_core.GameState:
            return state.with_variant("importfails", 2)

    ttr_core.register_variant("importfails", Working())
    try:
        assert "importfails" in ttr_core.available_variants()
        assert "importfails" not in ttr_core.broken_variants()
        assert ttr_core.new_game("newyork", 2, variants=["importfails"]).variant("importfails") == 2
    finally:
        ttr_core.unregister_variant("importfails")
    assert "importfails" in ttr_core.broken_variants()


def test_no_broken_plugin_in_a_clean_install() -> None:
    assert ttr_core.broken_variants() == {}
