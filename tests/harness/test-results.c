/* Unit tests of the harness's results path: stats.c, summary.c and the two
 * reporters, on phases recorded through the phases.h API with chosen items,
 * bytes, iterations and counters (no timing is asserted).
 *
 * usage: test-results DIR   (DIR: a scratch directory for results files) */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "measure/phases.h"
#include "measure/results-json.h"
#include "measure/results-table.h"
#include "measure/stats.h"
#include "measure/summary.h"
#include "test-util.h"
#include "util.h"

#define CHECK_NEAR(A, B)                                                \
    do {                                                                \
        double a_ = (A), b_ = (B);                                      \
        if (!(fabs(a_ - b_) <= 1e-9 * (1 + fabs(b_)))) {                \
            test_failures++;                                            \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%.17g vs "  \
                    "%.17g)\n", __FILE__, __LINE__, #A, #B, a_, b_);    \
        }                                                               \
    } while (0)

static void
test_stats(void)
{
    struct stats s;

    stats_compute(&s, NULL, 0);
    CHECK_EQ(s.n, 0);
    CHECK(s.mean == 0 && s.median == 0 && s.stddev == 0 && s.cv == 0);

    double one[] = { 5 };
    stats_compute(&s, one, 1);
    CHECK(s.mean == 5 && s.median == 5 && s.min == 5 && s.max == 5);
    CHECK(s.stddev == 0 && s.cv == 0);

    /* Unsorted, even count: the input is left as it was. */
    double four[] = { 4, 1, 3, 2 };
    stats_compute(&s, four, 4);
    CHECK_EQ(s.n, 4);
    CHECK_NEAR(s.mean, 2.5);
    CHECK_NEAR(s.median, 2.5);
    CHECK_NEAR(s.stddev, sqrt(5.0 / 3));
    CHECK_NEAR(s.cv, sqrt(5.0 / 3) / 2.5);
    CHECK(s.min == 1 && s.max == 4);
    CHECK(four[0] == 4 && four[1] == 1 && four[2] == 3 && four[3] == 2);

    double three[] = { 10, -2, 7 };
    stats_compute(&s, three, 3);
    CHECK_NEAR(s.median, 7);
    CHECK_NEAR(s.mean, 5);
    CHECK(s.min == -2 && s.max == 10);

    double zeros[] = { 0, 0 };
    stats_compute(&s, zeros, 2);
    CHECK(s.cv == 0);
}

/* 'n_reps' repetitions of phases "t/a" and "t/b".  In repetition r, "t/a"
 * has r items, 10 r bytes out, one iteration of r ms and counter "c" = r,
 * except repetition 50, which sets no counter; "t/b" has counter "d" = 1. */
static void
record(struct phases *p, int n_reps)
{
    phases_init(p, "t", n_reps);
    for (int r = 0; r < n_reps; r++) {
        p->repetition = r;
        phases_begin(p, "a");
        phases_items(p, r);
        phases_bytes_out(p, 10 * r);
        phases_iteration(p, r);
        phases_end(p);
        if (r != 50) {
            phases_counter(p, "c", r);
        }
        phases_begin(p, "b");
        phases_counter(p, "d", 1);
        phases_end(p);
    }
}

static void
test_summary(void)
{
    struct phases p;
    struct summary s;

    record(&p, 100);
    summary_init(&s, &p);
    CHECK_EQ(s.n_phases, 2);
    CHECK_STREQ(s.phases[0].name, "t/a");
    CHECK_STREQ(s.phases[1].name, "t/b");

    /* Every repetition counts, not only the first 64. */
    const struct phase_summary *a = &s.phases[0];
    CHECK_EQ(a->n_runs, 100);
    CHECK_NEAR(a->stats[FIG_ITEMS].median, 49.5);
    CHECK_NEAR(a->stats[FIG_ITEMS].mean, 49.5);
    CHECK(a->stats[FIG_ITEMS].min == 0 && a->stats[FIG_ITEMS].max == 99);
    CHECK_NEAR(a->stats[FIG_BYTES_OUT].median, 495);
    CHECK_NEAR(a->stats[FIG_ITER_MAX].max, 99);
    CHECK_EQ(a->runs[99]->repetition, 99);
    CHECK_NEAR(a->figures[99].v[FIG_ITER_MEDIAN], 99);
    CHECK_NEAR(a->figures[7].v[FIG_ITEMS], 7);

    /* Repetition 50's missing counter counts as 0: sorted values are
     * 0, 0, 1, ..., 49, 51, ..., 99. */
    CHECK_EQ(a->n_counters, 1);
    CHECK_STREQ(a->counters[0].name, "c");
    CHECK_NEAR(a->counters[0].stats.median, 48.5);
    CHECK_NEAR(a->counters[0].stats.max, 99);

    const struct phase_summary *b = &s.phases[1];
    CHECK_EQ(b->n_counters, 1);
    CHECK_NEAR(b->counters[0].stats.mean, 1);
    CHECK_NEAR(b->stats[FIG_ITEMS].max, 0);

    summary_destroy(&s);
    phases_destroy(&p);
}

/* The line of 'text' that starts with 'prefix', or NULL. */
static const char *
find_line(const char *text, const char *prefix)
{
    size_t n = strlen(prefix);
    for (const char *line = text; line && *line;) {
        if (!strncmp(line, prefix, n)) {
            return line;
        }
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    return NULL;
}

static void
test_table(void)
{
    struct phases p;
    char *text = NULL;
    size_t size = 0;

    record(&p, 100);
    FILE *stream = open_memstream(&text, &size);
    results_print_table(&p, stream);
    fclose(stream);

    /* The bytes-out column is the median over all 100 repetitions. */
    const char *line = find_line(text, "t/a ");
    CHECK(line != NULL);
    if (line) {
        const char *end = strchr(line, '\n');
        CHECK(end && end - line > 4 && !strncmp(end - 4, " 495", 4));
    }
    /* Iterations and counters are the last repetition's. */
    CHECK(strstr(text, "iterations 1: min 99.000 median 99.000 max 99.000")
          != NULL);
    CHECK(strstr(text, " c = 99\n") != NULL);
    CHECK(strstr(text, " d = 1\n") != NULL);
    free(text);
    phases_destroy(&p);
}

static void
test_json(const char *dir)
{
    struct results_context ctx = {
        .executable = "test", .impl = "none", .allocator = "glibc",
        .workload = "t", .params = "p=\"q\"", .build_type = "debug",
        .compiler = "cc", .cflags = "", .git_commit = "0",
    };
    struct phases p;

    record(&p, 3);
    char *file = xasprintf("%s/results.json", dir);
    char *error = results_write(&p, &ctx, file);
    CHECK(!error);
    free(error);

    size_t len;
    char *text = read_file(file, &len);
    CHECK(strstr(text, "\"params\": \"p=\\\"q\\\"\",\n") != NULL);
    CHECK(strstr(text, "\"dataset\": \"\",\n") != NULL);
    CHECK(strstr(text, "\"name\": \"t/a\",\n      \"family_index\": 0")
          != NULL);
    CHECK(strstr(text, "\"name\": \"t/b_max\",\n      \"family_index\": 1")
          != NULL);
    /* The aggregates of "t/a": 3 runs of 0, 1 and 2 items. */
    const char *median = strstr(text, "\"name\": \"t/a_median\"");
    CHECK(median && strstr(median, "\"iterations\": 3,\n"));
    CHECK(median && strstr(median, "\"items\": 1,\n"));
    const char *stddev = strstr(text, "\"name\": \"t/a_stddev\"");
    CHECK(stddev && strstr(stddev, "\"items\": 1,\n"));
    CHECK(stddev && strstr(stddev, "\"c\": 1\n"));
    free(text);
    free(file);

    /* A directory that does not exist: an error naming the file, and no
     * file left behind. */
    file = xasprintf("%s/missing/results.json", dir);
    error = results_write(&p, &ctx, file);
    CHECK(error && strstr(error, "missing/results.json"));
    free(error);
    struct stat st;
    CHECK(stat(file, &st) && errno == ENOENT);
    free(file);

    phases_destroy(&p);
}

int
main(int argc, char *argv[])
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    test_stats();
    test_summary();
    test_table();
    test_json(argv[1]);
    if (test_failures) {
        fprintf(stderr, "%d check(s) failed\n", test_failures);
        return 1;
    }
    return 0;
}
