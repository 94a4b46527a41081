"""The figures a history or find study reads from its runs, their units
and its study file's name: shared by the study (jsonbench.history) and
its report (jsonbench.report.history) without either importing the other."""

# name: (workload, row, field, label, unit, how)
#   how "value": the point's median and spread (min..max) and its ratio to
#                the reference's median in the same group
#   how "ratio": the per-repetition ratio to the reference (CPU time is
#                only comparable between neighbouring processes)
FIGURES = {
    "rss_after_load": ("load", "load/load", "rss_after_load_bytes",
                       "RSS after load", "MB", "value"),
    "peak_rss": ("load", "load/load", "peak_rss_bytes", "peak RSS", "MB",
                 "value"),
    "load_cpu": ("load", "load/load", "cpu_time", "load CPU / reference",
                 "ratio", "ratio"),
    "load_instructions": ("load-ir", "load-ir/load", "instructions",
                          "load instructions (valgrind)", "M", "value"),
}
HISTORY_FIGURES = ["rss_after_load", "peak_rss", "load_cpu",
                   "load_instructions"]
SCALE = {"MB": 1e-6, "M": 1e-6, "ratio": 1.0}
STUDY = "study.json"
