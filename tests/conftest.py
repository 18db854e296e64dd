import os

from hypothesis import HealthCheck, settings

import ttr_core

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("ci" if os.environ.get("CI") else "default")

# The suite runs with every hook result checked in full (docs/hooks.md, "Checked
# results"); tests of the cheap default checks switch it off where they need to.
ttr_core.set_strict(True)
