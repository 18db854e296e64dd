"""Write the JSON Schema files shipped in ``src/ttr_core/schemas/``.

Run after changing a message's fields (``python scripts/write_schemas.py``);
``--check`` only reports files that differ (exit 1), as the tests do.
The schemas come from ``ttr_core.data.schema`` (generated from the classes), for
the built-in variants.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ttr_core.data.schema import schema_texts

FOLDER = Path(__file__).resolve().parent.parent / "src" / "ttr_core" / "schemas"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report stale files, write nothing")
    args = parser.parse_args()
    texts = schema_texts()
    stale = [
        name
        for name, text in texts.items()
        if not (FOLDER / name).exists() or (FOLDER / name).read_text(encoding="utf-8") != text
    ]
    extra = sorted(p.name for p in FOLDER.glob("*.json") if p.name not in texts)
    if args.check:
        for name in [*stale, *extra]:
            print(f"stale: {FOLDER / name}")
        return 1 if stale or extra else 0
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name in stale:
        (FOLDER / name).write_text(texts[name], encoding="utf-8")
        print(f"wrote {FOLDER / name}")
    for name in extra:
        (FOLDER / name).unlink()
        print(f"removed {FOLDER / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
