"""``python -m ttr_core``: the same as the ``ttr`` command."""

from .cli import main

raise SystemExit(main())
