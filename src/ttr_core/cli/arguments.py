"""What the commands share: the game arguments (``--map``, ``--players``,
``--variants``, ``--option``, ``--tickets``), variant options read from
``name.key=value``, files written.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Any

from ttr_core.errors import (
    OptionError,
)
from ttr_core.hooks.manager import (
    variant_options,
)


def add_game_arguments(parser: argparse.ArgumentParser, options_listed_by: str) -> None:
    """The game configuration as every command playing games reads it: ``--map``,
    ``--players``, ``--variants``, ``--option`` (repeatable) and ``--tickets``."""
    parser.add_argument(
        "--map", default="newyork", help="map name or .toml path (default: newyork)"
    )
    parser.add_argument("--players", type=int, default=2, help="number of players (default: 2)")
    parser.add_argument(
        "--variants",
        help="comma-separated variants to switch on (default: the map's own; '' for none)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="VARIANT.NAME=VALUE",
        help=f"set a variant option (repeatable; {options_listed_by} shows every option)",
    )
    parser.add_argument(
        "--tickets", metavar="FILE", help="play this ticket deck file instead of the map's tickets"
    )


def _write_file(path: str, text: str) -> None:
    """Write an output file, creating missing folders (as ``ttr replay --svg`` does)."""
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)


def _names(text: str | None) -> list[str] | None:
    return None if text is None else [v.strip() for v in text.split(",") if v.strip()]


def _parse_options(given: Sequence[str]) -> dict[str, dict[str, Any]]:
    """``VARIANT.NAME=VALUE`` strings as an options table, each value read as its option's type."""
    options: dict[str, dict[str, Any]] = {}
    for item in given:
        key, eq, text = item.partition("=")
        variant, dot, name = key.rpartition(".")
        if not eq or not dot or not variant or not name:
            raise OptionError(f"--option takes VARIANT.NAME=VALUE, not {item!r}")
        declared = {opt.name: opt for opt in variant_options(variant)}
        opt = declared.get(name)
        value: Any = text
        if opt is not None and opt.type is not str:
            value = _typed(opt.type, text, item)
        options.setdefault(variant, {})[name] = value
    return options


def _typed(kind: type, text: str, item: str) -> Any:
    if kind is bool:
        lowered = text.strip().lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        raise OptionError(f"--option {item!r}: expected true or false")
    try:
        return kind(text)
    except ValueError:
        expected = "a whole number" if kind is int else "a number"
        raise OptionError(f"--option {item!r}: expected {expected}") from None


def _print_options(options: Any) -> None:
    shown = [f"{v}.{name}={value!r}" for v, values in options for name, value in values]
    if shown:
        print("options:", ", ".join(shown))
