"""Report sections, in the order they appear.  Each module has
build(ctx) -> document.Section or None (None: nothing to show for this run).
A new section is a new module plus one line here (issue 6 adds `claims`)."""

from . import (overview, before_after, workloads, scaling, distributions,
               processes, micro, environment, counters)
from .. import claims  # issue 6: seed claims table (reproduce results only)

SECTIONS = [claims, overview, before_after, workloads, scaling, distributions,
            counters, processes, micro, environment]
