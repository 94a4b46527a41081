// The C++ side of gbench.h: every call forwards to google-benchmark.
#include "gbench.h"

#include <benchmark/benchmark.h>

#include <cstdio>

namespace {

benchmark::State &
state_of(struct gb_state *st)
{
    return *reinterpret_cast<benchmark::State *>(st);
}

const benchmark::State &
state_of(const struct gb_state *st)
{
    return *reinterpret_cast<const benchmark::State *>(st);
}

benchmark::internal::Benchmark *
benchmark_of(struct gb_benchmark *b)
{
    return reinterpret_cast<benchmark::internal::Benchmark *>(b);
}

// Set by gb_skip_with_error() so that gb_main() can fail the process: a
// benchmark that could not run must not look like a successful run.
bool any_benchmark_failed = false;

}  // namespace

extern "C" {

struct gb_benchmark *
gb_register(const char *name, gb_func *func, void *aux)
{
    benchmark::internal::Benchmark *b = benchmark::RegisterBenchmark(
        name, [func, aux](benchmark::State &state) {
            func(reinterpret_cast<struct gb_state *>(&state), aux);
        });
    return reinterpret_cast<struct gb_benchmark *>(b);
}

void
gb_benchmark_unit(struct gb_benchmark *b, enum gb_time_unit unit)
{
    static const benchmark::TimeUnit units[] = {
        benchmark::kNanosecond, benchmark::kMicrosecond,
        benchmark::kMillisecond, benchmark::kSecond,
    };
    benchmark_of(b)->Unit(units[unit]);
}







void
gb_add_context(const char *key, const char *value)
{
    benchmark::AddCustomContext(key, value);
}

int
gb_main(int argc, char *argv[])
{
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 1;
    }
    size_t n = benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    if (n == 0) {
        std::fprintf(stderr, "%s: no benchmark matches the filter\n",
                     argv[0]);
        return 1;
    }
    return any_benchmark_failed ? 1 : 0;
}

bool
gb_keep_running(struct gb_state *st)
{
    return state_of(st).KeepRunning();
}

bool
gb_keep_running_batch(struct gb_state *st, int64_t n)
{
    return state_of(st).KeepRunningBatch(n);
}

void
gb_pause_timing(struct gb_state *st)
{
    state_of(st).PauseTiming();
}

void
gb_resume_timing(struct gb_state *st)
{
    state_of(st).ResumeTiming();
}

int64_t
gb_iterations(const struct gb_state *st)
{
    return state_of(st).iterations();
}


void
gb_set_bytes_processed(struct gb_state *st, int64_t bytes)
{
    state_of(st).SetBytesProcessed(bytes);
}

void
gb_set_items_processed(struct gb_state *st, int64_t items)
{
    state_of(st).SetItemsProcessed(items);
}

void
gb_set_counter(struct gb_state *st, const char *name, double value,
               enum gb_counter_kind kind)
{
    static const benchmark::Counter::Flags flags[] = {
        benchmark::Counter::kDefaults,
        benchmark::Counter::kIsRate,
        benchmark::Counter::kAvgIterations,
        benchmark::Counter::kAvgIterationsRate,
    };
    state_of(st).counters[name] = benchmark::Counter(value, flags[kind]);
}


void
gb_skip_with_error(struct gb_state *st, const char *message)
{
    any_benchmark_failed = true;
    state_of(st).SkipWithError(message);
}


}  // extern "C"
