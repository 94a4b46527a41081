/* Process measurements around each phase: monotonic time, CPU and page
 * faults (getrusage), RSS and peak RSS (/proc), heap (jemalloc mallctl or
 * glibc mallinfo2) and the x*alloc counters. */
#include "measure/metrics.h"

#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#ifdef JSONBENCH_JEMALLOC
/* Declared here rather than through <jemalloc/jemalloc.h> so that the
 * harness compiles the same way for both allocators.  Deliberately a strong
 * reference: with the linker's --as-needed, nothing else would keep
 * libjemalloc in the executable (malloc itself resolves in libc at link
 * time), and the program would silently run on glibc malloc. */
int mallctl(const char *, void *, size_t *, void *, size_t);
#endif

static double
metrics_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double
metrics_now_ms(void)
{
    return metrics_now_s() * 1e3;
}

double
metrics_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

const char *
metrics_allocator(void)
{
#ifdef JSONBENCH_JEMALLOC
    return "jemalloc";
#else
    return "glibc";
#endif
}

/* Reads what fits of /proc file 'name' into 'buf' of 'size' bytes,
 * null-terminated.  Returns false if it could not read any. */
static bool
read_proc_file(const char *name, char *buf, size_t size)
{
    int fd = open(name, O_RDONLY);

    if (fd < 0) {
        return false;
    }
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n <= 0) {
        return false;
    }
    buf[n] = '\0';
    return true;
}

static uint64_t
read_rss(void)
{
    char buf[128];
    unsigned long long size, resident;

    if (!read_proc_file("/proc/self/statm", buf, sizeof buf)
        || sscanf(buf, "%llu %llu", &size, &resident) != 2) {
        return 0;
    }
    return resident * (uint64_t) sysconf(_SC_PAGESIZE);
}

static uint64_t
read_peak_rss(void)
{
    char buf[4096];

    if (!read_proc_file("/proc/self/status", buf, sizeof buf)) {
        return 0;
    }
    const char *p = strstr(buf, "VmHWM:");
    unsigned long long kb;
    if (!p || sscanf(p + 6, "%llu", &kb) != 1) {
        return 0;
    }
    return kb * 1024;
}

void
metrics_reset_peak(void)
{
    int fd = open("/proc/self/clear_refs", O_WRONLY);
    if (fd >= 0) {
        if (write(fd, "5", 1) < 0) {
            /* Not allowed here (e.g. some containers): keep the old peak. */
        }
        close(fd);
    }
}

static void
read_heap(struct metrics_snapshot *m)
{
#ifdef JSONBENCH_JEMALLOC
    {
        uint64_t epoch = 1;
        size_t sz = sizeof epoch;
        size_t v;
        size_t vsz = sizeof v;

        /* Stats are cached until the epoch advances. */
        mallctl("epoch", &epoch, &sz, &epoch, sz);
        if (!mallctl("stats.allocated", &v, &vsz, NULL, 0)) {
            m->heap_allocated = v;
        }
        vsz = sizeof v;
        if (!mallctl("stats.active", &v, &vsz, NULL, 0)) {
            m->heap_active = v;
        }
        vsz = sizeof v;
        if (!mallctl("stats.resident", &v, &vsz, NULL, 0)) {
            m->heap_resident = v;
        }
    }
#else
    /* glibc: in-use = small chunks in use + mmapped chunks; active = arena
     * obtained from the system (used + free) + mmapped; resident is the
     * same as active (glibc does not tell which pages are resident). */
    struct mallinfo2 mi = mallinfo2();
    m->heap_allocated = mi.uordblks + mi.hblkhd;
    m->heap_active = mi.arena + mi.hblkhd;
    m->heap_resident = mi.arena + mi.hblkhd;
#endif
}

static void
read_times(struct metrics_snapshot *m)
{
    struct rusage ru;

    m->wall_s = metrics_now_s();
    if (!getrusage(RUSAGE_SELF, &ru)) {
        m->user_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6;
        m->sys_s = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
        m->minor_faults = ru.ru_minflt;
        m->major_faults = ru.ru_majflt;
    }
}

bool metrics_heap_stats = true;

static void
read_memory(struct metrics_snapshot *m)
{
    m->rss_bytes = read_rss();
    m->peak_rss_bytes = read_peak_rss();
    if (metrics_heap_stats) {
        read_heap(m);
    }
}

/* Reading the heap is not free (glibc's mallinfo2 walks the free lists and
 * consolidates fastbins, which takes long on a large heap), so it stays
 * outside the timed interval: memory first at a phase's start, last at its
 * end.  The allocation counters bracket the timed interval exactly: they
 * are read between 'first' and 'last'. */
static void
take_snapshot(struct metrics_snapshot *m,
              void (*first)(struct metrics_snapshot *),
              void (*last)(struct metrics_snapshot *))
{
    memset(m, 0, sizeof *m);
    first(m);
    m->alloc = xalloc_stats;
    last(m);
}

void
metrics_take_start(struct metrics_snapshot *m)
{
    take_snapshot(m, read_memory, read_times);
}

void
metrics_take_end(struct metrics_snapshot *m)
{
    take_snapshot(m, read_times, read_memory);
}
