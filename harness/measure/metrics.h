/* Process measurements taken around each phase: time, CPU, RSS, heap and the
 * x*alloc counters. */
#ifndef HARNESS_METRICS_H
#define HARNESS_METRICS_H 1

#include <stdbool.h>
#include <stdint.h>

#include "util.h"

struct metrics_snapshot {
    double wall_s;              /* CLOCK_MONOTONIC. */
    double user_s, sys_s;       /* getrusage(RUSAGE_SELF). */
    uint64_t minor_faults;      /* Page faults without and with I/O, */
    uint64_t major_faults;      /* getrusage(RUSAGE_SELF). */
    uint64_t rss_bytes;         /* /proc/self/statm resident. */
    uint64_t peak_rss_bytes;    /* VmHWM since the last metrics_reset_peak. */
    uint64_t heap_allocated;    /* Bytes in live allocations. */
    uint64_t heap_active;       /* Bytes in pages the allocator uses. */
    uint64_t heap_resident;     /* Bytes the allocator keeps resident. */
    struct xalloc_stats alloc;
};

/* False: skip the heap figures (they read as 0).  glibc's mallinfo2 takes
 * up to a fraction of a second on a large heap and consolidates its
 * fastbins; whole-process timings (hyperfine) may prefer to skip it. */
extern bool metrics_heap_stats;

/* Snapshots for the start and the end of a timed interval. */
void metrics_take_start(struct metrics_snapshot *);
void metrics_take_end(struct metrics_snapshot *);
/* Resets the kernel's peak RSS (VmHWM) so that the next phase's peak is its
 * own.  Silently does nothing where the kernel refuses. */
void metrics_reset_peak(void);
/* CLOCK_MONOTONIC in ms, for timing inner iterations. */
double metrics_now_ms(void);
/* CPU time (user + sys) of the whole process so far in ms,
 * CLOCK_PROCESS_CPUTIME_ID: the CPU of one inner iteration, at nanosecond
 * resolution where getrusage() would give microseconds. */
double metrics_cpu_ms(void);
/* "jemalloc" or "glibc": which allocator the heap figures come from. */
const char *metrics_allocator(void);

/* Runs the statements without counting their allocations in xalloc_stats:
 * the harness's own bookkeeping must not show up in the figures of a
 * phase. */
#define UNCOUNTED(...)                                  \
    do {                                                \
        struct xalloc_stats saved_stats_ = xalloc_stats;\
        __VA_ARGS__;                                    \
        xalloc_stats = saved_stats_;                    \
    } while (0)

#endif
