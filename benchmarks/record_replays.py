"""Record the stored replays of ``tests/test_replays.py`` (run from the repository root).

    python benchmarks/record_replays.py

Plays random games on every benchmark map and writes ``tests/data/replays.json``:
map, players, variants, seed, every action, a digest of every legal-action list,
and the final score sheets, with the commit they were recorded with. Record
again only when the rules change on purpose: the file is what a faster engine
must reproduce.
"""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import ttr_core  # noqa: E402
from tests.replay_codec import encode  # noqa: E402

CONFIGS = [
    ("newyork", 2, None),
    ("newyork", 4, None),
    ("newyork", 3, []),
    ("nederland", 4, None),
    ("nederland", 2, None),
    ("nederland", 3, []),
    ("usa", 2, None),
    ("usa", 4, None),
    ("usa", 5, []),
]
games = []
for map_name, players, variants in CONFIGS:
    for seed in range(4):
        state = ttr_core.new_game(map_name, players, seed=seed, variants=variants)
        chooser = random.Random(seed * 7919 + players)
        actions = []
        digest = hashlib.sha256()
        while state.pending is not None:
            legal = ttr_core.legal_actions(state)
            digest.update(json.dumps([encode(a) for a in legal]).encode())
            action = legal[chooser.randrange(len(legal))]
            actions.append(encode(action))
            state = ttr_core.apply(state, action)
        scores = ttr_core.final_scores(state)
        games.append(
            {
                "map": map_name,
                "players": players,
                "variants": variants,
                "seed": seed,
                "actions": actions,
                "totals": list(scores.totals),
                "winners": list(scores.winners),
                "lines": [
                    [[line.kind, line.label, line.points] for line in sheet.lines]
                    for sheet in scores.sheets
                ],
                "legal_sha256": digest.hexdigest(),
            }
        )
commit = subprocess.run(
    ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
).stdout.strip()
out = ROOT / "tests" / "data" / "replays.json"
out.write_text(json.dumps({"recorded_with": commit, "games": games}, separators=(",", ":")))
print(f"{len(games)} games, {sum(len(g['actions']) for g in games)} actions -> {out}")
