"""Map files and ticket decks a person can trust (issue 24, findings 4 and 7).

Found: ``new_game(..., tickets=<a FIFO>)`` or ``/dev/stdin`` blocked forever
(``load_map`` checked ``is_file()``, the deck loader did not); two locations
that look identical (``Soho`` and a Cyrillic ``Sоho``) loaded; a colour
``Gray`` beside the reserved ``gray``; a map id ``../../etc/passwd``; lone-CR
line ends refused by ``parse_map`` but accepted by ``load_map``; a byte-order
mark gave an unhelpful message. Every call that could block runs in a thread
with a time bound, so that a regression fails the test instead of hanging it.
"""

from __future__ import annotations

import contextlib
import os
import threading
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import ttr_core
from ttr_core import MapError, UnknownMapError
from ttr_core.mapfiles.confusables import mixed_scripts, skeleton
from ttr_core.mapfiles.decks import board_with_tickets
from ttr_core.mapfiles.reading import _read

from .test_maps import TINY_MAP, edited

NEWYORK = ttr_core.load_map("newyork")
#: TINY_MAP without its [components] table, so that counts are not cross-checked.
PLAIN = TINY_MAP.split("[components]")[0] + "[board]" + TINY_MAP.split("[board]")[1]
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")


# -- files that are not regular files ------------------------------------------------


def within(seconds: float, work: Callable[[], Any], unblock: Callable[[], None]) -> BaseException:
    """The exception ``work()`` raises, which it must do within ``seconds``
    (run in a daemon thread; ``unblock`` frees it if it hangs, so that the test
    fails instead of hanging)."""
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            work()
            outcome.append(None)
        except BaseException as exc:  # handed to the test
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        unblock()
        thread.join(seconds)
        pytest.fail(f"still blocked after {seconds} s")
    (exc,) = outcome
    assert exc is not None, "accepted a file that is not a regular file"
    return exc


def unblock_fifo(path: Path) -> Callable[[], None]:
    """Opening a FIFO to write (and closing it) ends a reader's wait."""

    def unblock() -> None:
        with contextlib.suppress(OSError):
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))

    return unblock


@needs_fifo
def test_a_fifo_as_ticket_deck_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "deck.toml"
    os.mkfifo(fifo)
    exc = within(5, lambda: ttr_core.new_game("newyork", 2, tickets=fifo), unblock_fifo(fifo))
    assert isinstance(exc, MapError), repr(exc)
    assert "deck.toml" in str(exc) and "not a regular file" in str(exc)


@needs_fifo
def test_a_fifo_as_map_file_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "map.toml"
    os.mkfifo(fifo)
    exc = within(5, lambda: ttr_core.load_map(fifo), unblock_fifo(fifo))
    assert isinstance(exc, UnknownMapError)  # like a directory: not a map file


@needs_fifo
def test_a_file_replaced_by_a_fifo_after_its_check_is_refused_when_opened(
    tmp_path: Path,
) -> None:
    # The check is made on the opened descriptor, so that a file swapped for a
    # FIFO between a path check and the open cannot block the read.
    fifo = tmp_path / "swapped.toml"
    os.mkfifo(fifo)
    exc = within(5, lambda: _read(fifo, "swapped.toml", "map"), unblock_fifo(fifo))
    assert isinstance(exc, MapError) and "not a regular file" in str(exc)


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="no /dev/fd")
def test_a_pipe_as_ticket_deck_is_refused_without_blocking() -> None:
    # /dev/stdin of a process whose input is a pipe that stays open.
    read_end, write_end = os.pipe()
    try:
        exc = within(
            5,
            lambda: board_with_tickets(NEWYORK, f"/dev/fd/{read_end}"),
            lambda: os.close(write_end),
        )
    finally:
        for fd in (read_end, write_end):
            with contextlib.suppress(OSError):
                os.close(fd)
    assert isinstance(exc, MapError) and "not a regular file" in str(exc)


@pytest.mark.parametrize("device", ["/dev/stdin", "/dev/zero", "/dev/null"])
def test_devices_as_ticket_deck_are_refused(device: str) -> None:
    if not Path(device).exists():
        pytest.skip(f"no {device}")
    if Path(device).is_file():
        pytest.skip(f"{device} is a regular file here")
    exc = within(5, lambda: board_with_tickets(NEWYORK, device), lambda: None)
    assert isinstance(exc, MapError), repr(exc)
    assert "not a regular file" in str(exc)


@pytest.mark.parametrize("device", ["/dev/stdin", "/dev/zero"])
def test_devices_as_map_files_are_not_maps(device: str) -> None:
    if not Path(device).exists() or Path(device).is_file():
        pytest.skip(f"no {device} device")
    exc = within(5, lambda: ttr_core.load_map(device), lambda: None)
    assert isinstance(exc, UnknownMapError)


def test_a_directory_as_ticket_deck_is_refused(tmp_path: Path) -> None:
    with pytest.raises(MapError, match="not a regular file"):
        board_with_tickets(NEWYORK, tmp_path)


# -- names a person can tell apart ---------------------------------------------------


def refused(text: str, *fragments: str) -> MapError:
    with pytest.raises(MapError) as info:
        ttr_core.parse_map(text, "hostile.toml")
    messages = "\n".join(str(p) for p in info.value.problems)
    for fragment in fragments:
        assert fragment in messages, f"{fragment!r} not in:\n{messages}"
    return info.value


def loads(text: str, source: str = "edge.toml") -> ttr_core.Board:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.TtrWarning)
        return ttr_core.parse_map(text, source)


def test_the_skeleton_matches_look_alike_letters() -> None:
    assert skeleton("Sоho") == skeleton("Soho")  # Cyrillic о
    assert skeleton("Сосо") == skeleton("Coco")  # all Cyrillic
    assert skeleton("ΑΒΕ") == skeleton("ABE")  # Greek capitals
    assert skeleton("Ｓｏｈｏ") == skeleton("soho")  # fullwidth, case
    assert skeleton("Liège") == skeleton("liege")
    assert skeleton("Soho") != skeleton("Sohu")
    assert mixed_scripts("Sоho") == ("Latin", "Cyrillic")
    assert mixed_scripts("Soho") is None and mixed_scripts("Москва") is None
    assert mixed_scripts("Αthína") == ("Greek", "Latin")
    assert mixed_scripts("Liège-2") is None


def test_a_location_mixing_latin_and_cyrillic_letters_is_refused() -> None:
    text = PLAIN.replace('"Gamma"', '"Gаmma"')  # with a Cyrillic а, everywhere
    error = refused(text, "'Gаmma' mixes Latin and Cyrillic letters", "U+0430")
    (problem,) = [p for p in error.problems if "mixes" in p.message]
    assert problem.entry.startswith("location 2") and problem.line is not None


def test_two_locations_that_look_the_same_are_refused_naming_both() -> None:
    # All-Cyrillic "Сосо" is a fine name, but not beside a Latin "Coco".
    text = edited(
        PLAIN,
        [
            ('{ name = "Gamma" }', '{ name = "Coco" }'),
            ('{ name = "Delta" }', '{ name = "Delta" },\n  { name = "Сосо" }'),
        ],
    )
    text = text.replace('"Gamma"', '"Coco"')
    error = refused(text, "'Сосо'", "looks like 'Coco' of location 2", "line ")
    (problem,) = [p for p in error.problems if "looks like" in p.message]
    assert problem.entry.startswith("location 4") and problem.line is not None


def test_an_alias_that_looks_like_another_location_is_refused() -> None:
    text = edited(PLAIN, [('{ name = "Delta" }', '{ name = "Delta", aliases = ["ΑLPHA"] }')])
    refused(text, "'ΑLPHA' looks like 'Alpha' of location 0")


def test_reserved_colour_names_are_refused_in_any_case_or_disguise() -> None:
    for name in ("Gray", "GRAY", "Wild", "grаy"):  # the last with a Cyrillic а
        text = edited(PLAIN, [("red = 8, blue = 8", f'red = 8, blue = 8, "{name}" = 1')])
        refused(text, f"{name!r} is reserved")


def test_two_colours_that_look_the_same_are_refused() -> None:
    text = edited(PLAIN, [("red = 8, blue = 8", "red = 8, blue = 8, Red = 1")])
    refused(text, "colour 'Red' looks like colour 'red'")


def test_a_wild_name_that_looks_like_a_colour_is_refused() -> None:
    text = edited(PLAIN, [('wild_name = "joker"', 'wild_name = "Red"')])
    refused(text, "'wild_name' 'Red' looks like colour 'red'")


@pytest.mark.parametrize(
    "map_id", ["../../etc/passwd", "/etc/passwd", "a/b", "a\\\\b", "..", ".hidden", "Tiny", "a b"]
)
def test_a_map_id_must_be_a_name_not_a_path(map_id: str) -> None:
    text = edited(PLAIN, [('id = "tiny"', f'id = "{map_id}"')])
    refused(text, "'id' must be a map name")


@pytest.mark.parametrize("alias", ["../tiny", "/etc/passwd", "a\\\\b", ".."])
def test_a_map_alias_must_not_be_a_path(alias: str) -> None:
    text = edited(PLAIN, [('aliases = ["tiny-test"]', f'aliases = ["{alias}"]')])
    refused(text, "[map]: alias ", "is not a name but reads as a path")


def test_map_aliases_that_look_like_the_id_or_each_other_are_refused() -> None:
    text = edited(PLAIN, [('aliases = ["tiny-test"]', 'aliases = ["TINY"]')])
    refused(text, "alias 'TINY' looks like the map id 'tiny'")
    text = edited(PLAIN, [('aliases = ["tiny-test"]', 'aliases = ["tt", "TT"]')])
    refused(text, "alias 'TT' looks like alias 'tt'")


def test_every_built_in_and_example_map_id_is_a_name() -> None:
    for name in ttr_core.available_maps():
        board = ttr_core.load_map(name)
        assert ttr_core.mapfiles.limits.MAP_ID.fullmatch(board.id), board.id
    assert loads(PLAIN).id == "tiny"


# -- line ends and the byte-order mark -------------------------------------------------


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_line_ends_are_read_the_same_by_parse_map_and_load_map(end: str, tmp_path: Path) -> None:
    text = PLAIN.replace("\n", end)
    parsed = loads(text, "ends.toml")
    path = tmp_path / "ends.toml"
    path.write_bytes(text.encode("utf-8"))
    loaded = ttr_core.load_map(path)
    assert parsed.locations == loaded.locations == loads(PLAIN).locations
    assert parsed.routes == loaded.routes
    # Problems are reported on the same line whatever the line ends.
    broken = edited(PLAIN, [('{ name = "Gamma" }', '{ name = "Gamma", big = 1 }')])
    (expected,) = refused(broken).problems
    (got,) = refused(broken.replace("\n", end)).problems
    assert got.line == expected.line is not None
    path.write_bytes(broken.replace("\n", end).encode("utf-8"))
    with pytest.raises(MapError) as info:
        ttr_core.load_map(path)
    assert [p.line for p in info.value.problems] == [expected.line]


def test_a_byte_order_mark_is_accepted_by_parse_map_and_load_map(tmp_path: Path) -> None:
    assert loads("\ufeff" + PLAIN).locations == loads(PLAIN).locations
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + PLAIN.encode("utf-8"))
    assert ttr_core.load_map(path).id == "tiny"
    broken = edited(PLAIN, [('{ name = "Gamma" }', '{ name = "Gamma", big = 1 }')])
    (expected,) = refused(broken).problems
    (got,) = refused("\ufeff" + broken).problems
    assert got.line == expected.line


def test_a_byte_order_mark_and_crlf_in_a_ticket_deck_are_accepted(tmp_path: Path) -> None:
    text = ttr_core.ticket_deck_toml(NEWYORK, NEWYORK.tickets)
    path = tmp_path / "deck.toml"
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    assert board_with_tickets(NEWYORK, path).tickets == NEWYORK.tickets
    assert ttr_core.parse_ticket_deck("\ufeff" + text.replace("\n", "\r"), NEWYORK) == (
        NEWYORK.tickets
    )


def test_a_byte_order_mark_in_the_middle_is_still_refused() -> None:
    refused(PLAIN.replace("[cards]", "\ufeff[cards]"), "not valid TOML")
