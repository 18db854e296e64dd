"""``python -m ttr_core``: the same as the ``ttr`` command."""

from ttr_core.cli import main

raise SystemExit(main())
