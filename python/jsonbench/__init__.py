"""ovsdb-jsonbench's Python side, one package (root: python/).

  build      meson/ninja, the impls the build defines, cached datasets,
             harness command lines (every runner goes through it)
  claims     the seeds' claims: load, plan runs, evaluate (no report code)
  suite, reproduce, compare, gate
             command-line entry points (python3 -m jsonbench.<name>;
             scripts/*.sh are thin wrappers)
  report     results folder -> report.md + report.html (matplotlib)
  env, gbench, util
             run environment, google-benchmark JSON, progress helpers

Everything but report (matplotlib) and the statistical tests (scipy) uses
the standard library only, so the gate runs with any python3."""

import os

# The repository: python/jsonbench/__init__.py is two levels below it.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
