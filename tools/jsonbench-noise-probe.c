/* jsonbench-noise-probe: fixed memory-bound work whose CPU time, measured
 * over a few fresh processes, is this machine's process-to-process noise
 * floor (python/jsonbench/measuring.py runs it at the start of a study).
 *
 * It does what a server loading a database does to memory, only simpler:
 * fills a heap of small blocks from malloc (first touch: page faults),
 * then reads and writes them at random (cache and TLB misses), then frees
 * them.  The work is the same in every process (a fixed seed), so the
 * spread of its CPU seconds is the machine's, not the program's.  Prints
 * one JSON object: the work done, CPU user and system seconds, wall
 * seconds and the minor and major page faults of the whole process.
 *
 * With --slices N the random work is cut into N equal slices, each timed
 * on its own: the spread of the slices is how much the speed of memory
 * drifts within one process over time, which no fresh-process spread
 * shows when each process is shorter than the drift's periods. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define BLOCK_BYTES 4096        /* Below malloc's mmap threshold: the heap. */
#define MAX_SLICES 1000

static void
usage(void)
{
    fputs("usage: jsonbench-noise-probe [--mib N] [--ops N] [--seed N] "
          "[--slices N]\n"
          "  --mib N     heap to fill, in MiB (default 256)\n"
          "  --ops N     random 8-byte read-modify-writes over it, in\n"
          "              millions (default 8)\n"
          "  --seed N    the random sequence (default 1)\n"
          "  --slices N  time the random work in N equal slices (default 1)\n"
          "Prints one JSON object: CPU user/system seconds, wall seconds,\n"
          "minor and major page faults of the process, and with --slices\n"
          "the CPU seconds of each slice (slice_cpu_s).\n", stdout);
}

static unsigned long
parse_count(const char *opt, const char *arg, unsigned long max)
{
    char *end;
    unsigned long v;

    errno = 0;
    v = arg ? strtoul(arg, &end, 10) : 0;
    if (!arg || errno || end == arg || *end || !v || v > max) {
        fprintf(stderr, "jsonbench-noise-probe: %s: expected a number from "
                "1 to %lu, got '%s'\n", opt, max, arg ? arg : "");
        exit(1);
    }
    return v;
}

/* xorshift64*: fast, fixed sequence for a given seed. */
static uint64_t
next_random(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * UINT64_C(2685821657736338717);
}

static double
thread_cpu_seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double
seconds(struct timeval tv)
{
    return tv.tv_sec + tv.tv_usec * 1e-6;
}

int
main(int argc, char *argv[])
{
    unsigned long mib = 256, mops = 8, seed = 1, n_slices = 1;

    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
            usage();
            return 0;
        }
        const char *arg = i + 1 < argc ? argv[++i] : NULL;
        if (!strcmp(opt, "--mib")) {
            mib = parse_count(opt, arg, 65536);
        } else if (!strcmp(opt, "--ops")) {
            mops = parse_count(opt, arg, 100000);
        } else if (!strcmp(opt, "--seed")) {
            seed = parse_count(opt, arg, UINT32_MAX);
        } else if (!strcmp(opt, "--slices")) {
            n_slices = parse_count(opt, arg, MAX_SLICES);
        } else {
            fprintf(stderr, "jsonbench-noise-probe: unknown option '%s' "
                    "(--help)\n", opt);
            return 1;
        }
    }

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);

    size_t n_blocks = mib * (1024 * 1024 / BLOCK_BYTES);
    size_t words = BLOCK_BYTES / sizeof(uint64_t);
    uint64_t **blocks = malloc(n_blocks * sizeof *blocks);
    if (!blocks) {
        fprintf(stderr, "jsonbench-noise-probe: out of memory (%lu MiB)\n",
                mib);
        return 1;
    }
    for (size_t i = 0; i < n_blocks; i++) {
        blocks[i] = malloc(BLOCK_BYTES);
        if (!blocks[i]) {
            fprintf(stderr, "jsonbench-noise-probe: out of memory "
                    "(%lu MiB)\n", mib);
            return 1;
        }
        for (size_t w = 0; w < words; w++) {
            blocks[i][w] = i + w;
        }
    }

    uint64_t state = seed * UINT64_C(0x9e3779b97f4a7c15) | 1;
    uint64_t sum = 0;
    unsigned long long ops = mops * 1000000ULL;
    double slice_cpu[MAX_SLICES];
    for (unsigned long s = 0; s < n_slices; s++) {
        unsigned long long end = ops * (s + 1) / n_slices;
        double start = thread_cpu_seconds();
        for (unsigned long long k = ops * s / n_slices; k < end; k++) {
            uint64_t r = next_random(&state);
            uint64_t *word = &blocks[r % n_blocks][(r >> 32) % words];
            sum += *word;
            *word = sum;
        }
        slice_cpu[s] = thread_cpu_seconds() - start;
    }

    for (size_t i = 0; i < n_blocks; i++) {
        free(blocks[i]);
    }
    free(blocks);

    struct rusage ru;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (getrusage(RUSAGE_SELF, &ru)) {
        fprintf(stderr, "jsonbench-noise-probe: getrusage: %s\n",
                strerror(errno));
        return 1;
    }
    double user = seconds(ru.ru_utime), sys = seconds(ru.ru_stime);
    printf("{\"mib\": %lu, \"mops\": %lu, \"seed\": %lu, "
           "\"user_s\": %.6f, \"sys_s\": %.6f, \"cpu_s\": %.6f, "
           "\"wall_s\": %.6f, \"minor_faults\": %ld, \"major_faults\": %ld, "
           "\"checksum\": %llu",
           mib, mops, seed, user, sys, user + sys,
           (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9,
           ru.ru_minflt, ru.ru_majflt, (unsigned long long) sum);
    if (n_slices > 1) {
        fputs(", \"slice_cpu_s\": [", stdout);
        for (unsigned long s = 0; s < n_slices; s++) {
            printf("%s%.6f", s ? ", " : "", slice_cpu[s]);
        }
        putchar(']');
    }
    puts("}");
    return 0;
}
