# Types of the compiled engine (_engine.c): see ttr_core.native.engine for its use.
from typing import Any

ABI: int
VIEWS: tuple[str, ...]

class Config:
    size: int
    keep_base: int
    has_layout: bool
    has_play: bool
    core_ids: int
    def __init__(self, rules: Any, routes: Any, tickets: Any, scoring: Any, /) -> None: ...
    def set_deal(
        self, deck: tuple[int, ...], hand: int, cars: int, scores: tuple[int, ...], dealt: int, /
    ) -> None: ...
    def set_layout(
        self,
        ints: tuple[int, ...],
        score_scale: float,
        slots: tuple[int, ...],
        deck: tuple[int, ...],
        views: tuple[tuple[int, int, float], ...],
        /,
    ) -> None: ...
    def set_play(
        self,
        size: int,
        min_wilds: tuple[int, ...],
        tunnel: tuple[Any, ...],
        stations: tuple[Any, ...],
        longs: tuple[int, ...],
        ties: tuple[int, ...],
        tokens: tuple[Any, ...],
        tolls: tuple[Any, ...],
        neutral: tuple[Any, ...],
        /,
    ) -> None: ...

class Game:
    player: int | None
    kind: int
    ply: int
    termination: int
    over: bool
    config: Config
    # shuffle: the game's seed (each shuffle's seed made from it in C), or a
    # function of the shuffle's number giving its seed's bytes.
    def __init__(self, config: Config, shuffle: Any, /) -> None: ...
    def load(self, core: Any, seats: Any, play: Any, /) -> None: ...
    def export(self) -> tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, Any]]: ...
    def legal(self) -> tuple[int, ...]: ...
    def legal_sorted(self) -> list[int]: ...
    def mask(self, buffer: Any, /) -> int: ...
    def apply(self, action_id: int, /) -> None: ...
    def observe(self, seat: int, buffer: Any, /) -> None: ...
    def deal(self, shuffle: Any, /) -> None: ...
    def record(self, action_id: int, /) -> tuple[int, int, Any, tuple[int, ...] | None, int]: ...
    def returns(self) -> tuple[float, ...]: ...
    def hands(self) -> tuple[tuple[int, ...], ...]: ...
    def peek(
        self, seat: int, /
    ) -> tuple[tuple[int | None, ...], tuple[int, ...], tuple[int, ...], int | None]: ...
    def clone(self) -> Game: ...
    def scores(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]: ...
    def play(
        self, twister: tuple[int, ...], most: int, history: list[int], offers: list[Any], /
    ) -> tuple[int, tuple[int, ...]]: ...
    def play_seeded(
        self, key: tuple[int, ...], most: int, record: bool, /
    ) -> tuple[int, bytes | None, list[tuple[int, ...]] | None]: ...
    def play_agents(
        self, keys: tuple[tuple[int, ...], ...], most: int, record: bool, /
    ) -> tuple[int, tuple[int, int, int, int, int], tuple[bytes, list[Any]] | None]: ...

def sha512(data: bytes, /) -> bytes: ...
def step_batch(
    games: tuple[Game, ...],
    actions: Any,
    observations: Any,
    masks: Any,
    rewards: Any,
    done: Any,
    seats: Any,
    /,
) -> list[int]: ...
