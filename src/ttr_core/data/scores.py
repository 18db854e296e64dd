"""Score sheets, final scores and seat statuses as JSON: each read only if its
parts agree (a sheet's total is the sum of its lines, winners as the rules
pick them, a status's actions are its seat's).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from cattrs.gen import make_dict_structure_fn

from ttr_core.data.actions import _structure_action_list, _unstructure_action
from ttr_core.data.converter import (
    _CONVERTER,
    FORMAT_VERSION,
    _at,
    _Bad,
    _check_format,
    _check_keys,
    _field,
    _is,
    _natural,
    _Path,
    _structure_list_of,
    _what,
)
from ttr_core.data.views import _structure_view, _unstructure_view
from ttr_core.model.scores import SHOWN, FinalScores, ScoreSheet
from ttr_core.model.state import (
    EARLY_ENDINGS,
    Termination,
)
from ttr_core.model.views import PlayerView
from ttr_core.rules.consistency import MAX_ACTIONS
from ttr_core.rules.status import SeatStatus


@functools.lru_cache(maxsize=8)
def _shape_of(cls: type) -> Callable[[Any, Any], Any]:
    """The fields of ``cls`` read by type (no check between them)."""
    return make_dict_structure_fn(cls, _CONVERTER, _cattrs_forbid_extra_keys=True)


def _structure_sheet(value: Any, _: Any) -> ScoreSheet:
    """A score sheet as the library writes it (:func:`~ttr_core.score_sheets`,
    :func:`~ttr_core.player_score_sheets`): its total is the sum of its lines
    (a sheet withholding lines totals those it shows), its ticket counts are
    those of its ticket lines (0 and 0 where they are withheld)."""
    if not isinstance(value, dict):
        raise _Bad(f"expected a score sheet object, not {_what(value)}")
    sheet: ScoreSheet = _shape_of(ScoreSheet)(value, ScoreSheet)
    for name in ("player", "tickets_completed", "tickets_failed"):
        if getattr(sheet, name) < 0:
            raise _Path(name, f"expected a whole number ≥ 0, not {getattr(sheet, name)}")
    refs: set[int] = set()
    won = lost = even = 0
    for i, line in enumerate(sheet.lines):
        if line.shown not in SHOWN:
            raise _Path(f"lines[{i}].shown", f"expected one of {SHOWN}, not {_what(line.shown)}")
        if line.kind == "ticket" and line.ref is not None:
            if line.ref in refs:
                raise _Path(f"lines[{i}].ref", f"ticket {line.ref} is counted twice")
            refs.add(line.ref)
            won += line.points > 0
            lost += line.points < 0
            even += line.points == 0
    points = sum(line.points for line in sheet.lines)
    if sheet.total != points:
        raise _Path("total", f"{sheet.total}, but the lines add up to {points}")
    if not won <= sheet.tickets_completed <= won + even:
        raise _Path("tickets_completed", f"{sheet.tickets_completed}, but {won} ticket lines score")
    if sheet.tickets_completed + sheet.tickets_failed != won + lost + even:
        raise _Path(
            "tickets_failed",
            f"{sheet.tickets_completed} completed and {sheet.tickets_failed} failed, but the "
            f"sheet shows {won + lost + even} ticket lines",
        )
    return sheet


def _structure_final_scores(value: Any, _: Any) -> FinalScores:
    """Final scores as :func:`~ttr_core.final_scores` writes them: a sheet per seat
    in seat order, a finished game's ending, and winners among the seats (sorted,
    each once) who share the best total and then the most completed tickets (a
    variant's tie-break may have narrowed them); the seat that resigned or ran
    out of time, whose sheet may be better, is never among them; an abandoned
    game has none."""
    if not isinstance(value, dict):
        raise _Bad(f"expected a final scores object, not {_what(value)}")
    scores: FinalScores = _shape_of(FinalScores)(value, FinalScores)
    sheets, winners, how = scores.sheets, scores.winners, scores.termination
    if not sheets:
        raise _Path("sheets", "a game has at least one seat")
    for seat, sheet in enumerate(sheets):
        if sheet.player != seat:
            raise _Path(
                f"sheets[{seat}].player", f"sheets go in seat order: {seat}, not {sheet.player}"
            )
    if how is None:
        raise _Path("termination", "final scores are those of a finished game")
    for i, seat in enumerate(winners):
        if not 0 <= seat < len(sheets):
            raise _Path(f"winners[{i}]", f"{seat} is not a seat (0 to {len(sheets) - 1})")
    if list(winners) != sorted(set(winners)):
        raise _Path("winners", f"seats are listed once each, in order, not {_what(winners)}")
    if how == Termination.ABANDONED or not winners:
        if how == Termination.ABANDONED and winners:
            raise _Path("winners", "an abandoned game has no winner")
        if how != Termination.ABANDONED:
            raise _Path("winners", f"a game ended by {how} has a winner")
        return scores
    best = {(sheets[w].total, sheets[w].tickets_completed) for w in winners}
    if len(best) > 1:
        raise _Path("winners", "winners share the same total and completed tickets")
    ahead = sum(
        1
        for sheet in sheets
        if sheet.player not in winners and (sheet.total, sheet.tickets_completed) > min(best)
    )
    # Only the seat that resigned or timed out may do better than the winners.
    if ahead > (1 if EARLY_ENDINGS.get(how) else 0):
        raise _Path("winners", f"{ahead} other seats have a better total than the winners")
    seats = len(sheets)
    owners = [other.owner for other in scores.others]
    if any(owner < seats for owner in owners) or len(set(owners)) != len(owners):
        raise _Path("others", f"owners other than the seats, each once, not {_what(owners)}")
    return scores


#: The keys of a seat status (:class:`~ttr_core.SeatStatus`) as written.
_STATUS_KEYS = frozenset(
    {"format", "seat", "ply", "view", "legal", "legal_ids", "sheets", "scores"}
)


def _unstructure_status(status: SeatStatus) -> dict[str, Any]:
    ids = status.legal_ids
    scores = status.scores
    return {
        "format": FORMAT_VERSION,
        "seat": status.seat,
        "ply": status.ply,
        "view": _unstructure_view(status.view),
        "legal": [_unstructure_action(a) for a in status.legal],
        "legal_ids": None if ids is None else list(ids),
        "sheets": [_CONVERTER.unstructure(sheet, ScoreSheet) for sheet in status.sheets],
        "scores": None if scores is None else _CONVERTER.unstructure(scores, FinalScores),
    }


def _structure_status(value: Any, _: Any) -> SeatStatus:
    """A seat's status as :func:`~ttr_core.seat_status` writes it: each part read
    with its own checks, and the parts agreeing — the view is the seat's, at the
    same ply; the actions are the seat's, listed only while it decides, each
    with an id (or none at all); a sheet per seat; final scores exactly when
    the game is over."""
    if not isinstance(value, dict):
        raise _Bad(f"expected a seat status object, not {_what(value)}")
    _check_keys(value, _STATUS_KEYS, _STATUS_KEYS)
    _check_format(value)
    view: PlayerView = _field(value, "view", lambda v: _structure_view(v, None))
    seat = _field(value, "seat", _natural)
    ply = _field(value, "ply", _natural)
    if seat != view.viewer:
        raise _Path("seat", f"{seat}, but the view is seat {view.viewer}'s")
    if ply != view.ply:
        raise _Path("ply", f"{ply}, but the view is at ply {view.ply}")
    legal = tuple(_field(value, "legal", lambda v: _structure_action_list(v, None)))
    for i, action in enumerate(legal):
        if action.player != seat:
            raise _Path(f"legal[{i}].player", f"an action of seat {seat}, not {action.player}")
    if legal and view.current_player != seat:
        raise _Path("legal", f"seat {seat} has no action while another seat decides")
    ids = _field(value, "legal_ids", _natural_ids)
    if ids is not None and len(ids) != len(legal):
        raise _Path("legal_ids", f"{len(ids)} ids for {len(legal)} actions")
    sheets = tuple(_field(value, "sheets", lambda v: _structure_list_of(v, ScoreSheet)))
    if [sheet.player for sheet in sheets] != list(range(len(view.seats))):
        raise _Path("sheets", f"a sheet per seat, in seat order (0 to {len(view.seats) - 1})")
    scores = _field(
        value, "scores", lambda v: None if v is None else _structure_final_scores(v, None)
    )
    if (scores is not None) != view.is_over:
        raise _Path("scores", "final scores are given exactly when the game is over")
    return SeatStatus(seat, ply, view, legal, ids, sheets, scores)


def _natural_ids(value: Any) -> tuple[int, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise _Bad(f"expected a list of action ids or null, not {_what(value)}")
    if len(value) > MAX_ACTIONS:
        raise _Bad(f"{len(value)} ids; at most {MAX_ACTIONS} are read")
    return tuple(_at(i, functools.partial(_natural, v)) for i, v in enumerate(value))


_CONVERTER.register_structure_hook_func(_is(ScoreSheet), _structure_sheet)
_CONVERTER.register_structure_hook_func(_is(FinalScores), _structure_final_scores)
_CONVERTER.register_unstructure_hook_func(_is(SeatStatus), _unstructure_status)
_CONVERTER.register_structure_hook_func(_is(SeatStatus), _structure_status)
