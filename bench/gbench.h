/* A C interface to google-benchmark.
 *
 * google-benchmark is C++; the benchmarks of this project are C, compiled
 * once and linked with every JSON impl.  This header lets C code register
 * benchmarks and drive the timing loop; gbench.cc forwards every call to
 * benchmark::State and benchmark::RegisterBenchmark, and gb_main() runs
 * google-benchmark's own command line, so all of its flags work
 * (--benchmark_filter, --benchmark_format=json, --benchmark_out,
 * --benchmark_repetitions, --benchmark_min_time, ...).
 *
 * A benchmark body looks like:
 *
 *     static void
 *     bench_thing(struct gb_state *st, void *aux)
 *     {
 *         ...untimed setup...
 *         while (gb_keep_running(st)) {
 *             ...timed work...
 *         }
 *         gb_set_bytes_processed(st, gb_iterations(st) * n_bytes);
 *         ...untimed cleanup...
 *     }
 */
#ifndef JSONBENCH_GBENCH_H
#define JSONBENCH_GBENCH_H 1

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gb_state;                /* A benchmark::State. */
struct gb_benchmark;            /* A registered benchmark::internal::Benchmark. */

/* The body of a benchmark.  'aux' is the pointer given to gb_register(). */
typedef void gb_func(struct gb_state *, void *aux);

/* Registers 'func' under 'name' (copied).  Benchmarks run in registration
 * order.  The returned handle configures the benchmark, like the methods of
 * benchmark::internal::Benchmark (only those this project calls are
 * wrapped; add a wrapper when a benchmark needs another). */
struct gb_benchmark *gb_register(const char *name, gb_func *func, void *aux);

enum gb_time_unit { GB_NS, GB_US, GB_MS, GB_S };
void gb_benchmark_unit(struct gb_benchmark *, enum gb_time_unit);

/* Adds "key": "value" to the "context" object of the report.  Call before
 * gb_main(). */
void gb_add_context(const char *key, const char *value);

/* Runs google-benchmark's command line: parses (and removes) its flags from
 * argv, rejects unknown ones, runs the selected benchmarks.  Returns the exit
 * status for main(): 0 on success, 1 for bad arguments or when a benchmark
 * called gb_skip_with_error(). */
int gb_main(int argc, char *argv[]);

/* --- Inside a benchmark body --- */

/* The timing loop: true while another iteration should run. */
bool gb_keep_running(struct gb_state *);
/* The same, but each pass of the loop counts as 'n' iterations, so that the
 * reported time per iteration is per operation even when a pass does 'n'
 * operations (to amortize gb_pause_timing()). */
bool gb_keep_running_batch(struct gb_state *, int64_t n);

/* Excludes work from the timing, e.g. building the tree a destroy benchmark
 * destroys.  Each pause/resume pair costs a few hundred nanoseconds of clock
 * reads that partly leak into the measurement, so batch short operations. */
void gb_pause_timing(struct gb_state *);
void gb_resume_timing(struct gb_state *);

int64_t gb_iterations(const struct gb_state *);   /* Iterations run so far. */

/* Totals over all iterations; reported as bytes_per_second and
 * items_per_second. */
void gb_set_bytes_processed(struct gb_state *, int64_t bytes);
void gb_set_items_processed(struct gb_state *, int64_t items);

/* Custom counters, reported as flat keys in the benchmark's JSON entry. */
enum gb_counter_kind {
    GB_COUNTER_PLAIN,           /* The value as given. */
    GB_COUNTER_RATE,            /* Value divided by the measured time. */
    GB_COUNTER_PER_ITERATION,   /* Value divided by the iteration count. */
    GB_COUNTER_PER_ITERATION_RATE,  /* Both. */
};
void gb_set_counter(struct gb_state *, const char *name, double value,
                    enum gb_counter_kind);

/* Marks the benchmark as failed with 'message'; gb_keep_running() then
 * returns false.  gb_main() returns 1 at the end if any benchmark failed. */
void gb_skip_with_error(struct gb_state *, const char *message);

#ifdef __cplusplus
}
#endif

#endif /* JSONBENCH_GBENCH_H */
