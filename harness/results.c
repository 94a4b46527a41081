#include "results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "ds.h"
#include "ovsdb/out-file.h"
#include "util.h"

/* A run's figures as (key, value) pairs, standard ones first. */
struct field {
    const char *key;
    double value;
};

#define N_STD_FIELDS 17

static int
compare_doubles(const void *a_, const void *b_)
{
    double a = *(const double *) a_, b = *(const double *) b_;
    return (a > b) - (a < b);
}

static double
median_of(double *v, size_t n)
{
    if (!n) {
        return 0;
    }
    qsort(v, n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Fills 'f' (room for N_STD_FIELDS + n_counters + 2) and returns the count.
 * Index 0 and 1 are real_time and cpu_time in ms. */
static size_t
run_fields(const struct phase_result *r, struct field *f)
{
    const struct metrics_snapshot *s = &r->start, *e = &r->end;
    double user = e->user_s - s->user_s, sys = e->sys_s - s->sys_s;
    double imin = 0, imed = 0, imax = 0;
    size_t n = 0;

    if (r->n_iters) {
        double *v = xmemdup(r->iters_ms, r->n_iters * sizeof *v);
        imed = median_of(v, r->n_iters);
        imin = v[0];
        imax = v[r->n_iters - 1];
        free(v);
    }
    f[n++] = (struct field) { "real_time", (e->wall_s - s->wall_s) * 1e3 };
    f[n++] = (struct field) { "cpu_time", (user + sys) * 1e3 };
    f[n++] = (struct field) { "user_cpu_s", user };
    f[n++] = (struct field) { "sys_cpu_s", sys };
    f[n++] = (struct field) { "rss_bytes", e->rss_bytes };
    f[n++] = (struct field) { "peak_rss_bytes", e->peak_rss_bytes };
    f[n++] = (struct field) { "heap_allocated_bytes", e->heap_allocated };
    f[n++] = (struct field) { "heap_active_bytes", e->heap_active };
    f[n++] = (struct field) { "heap_resident_bytes", e->heap_resident };
    f[n++] = (struct field) { "alloc_calls", e->alloc.calls - s->alloc.calls };
    f[n++] = (struct field) { "alloc_bytes", e->alloc.bytes - s->alloc.bytes };
    f[n++] = (struct field) { "frees", e->alloc.frees - s->alloc.frees };
    f[n++] = (struct field) { "bytes_out", r->bytes_out };
    f[n++] = (struct field) { "items", r->items };
    f[n++] = (struct field) { "iter_min_ms", imin };
    f[n++] = (struct field) { "iter_median_ms", imed };
    f[n++] = (struct field) { "iter_max_ms", imax };
    for (size_t i = 0; i < r->n_counters; i++) {
        f[n++] = (struct field) { r->counters[i].name, r->counters[i].value };
    }
    return n;
}

static void
put_string(struct ds *ds, const char *s)
{
    ds_put_char(ds, '"');
    for (; s && *s; s++) {
        unsigned char c = *s;
        if (c == '"' || c == '\\') {
            ds_put_char(ds, '\\');
            ds_put_char(ds, c);
        } else if (c < 0x20) {
            ds_put_format(ds, "\\u%04x", c);
        } else {
            ds_put_char(ds, c);
        }
    }
    ds_put_char(ds, '"');
}

static void
put_number(struct ds *ds, double v)
{
    if (!isfinite(v)) {
        ds_put_cstr(ds, "0");
    } else if (v == floor(v) && fabs(v) < 9007199254740992.0) {
        ds_put_format(ds, "%.0f", v);
    } else {
        ds_put_format(ds, "%.17g", v);
    }
}

static void
put_kv_string(struct ds *ds, const char *key, const char *value, bool comma)
{
    ds_put_cstr(ds, "    ");
    put_string(ds, key);
    ds_put_cstr(ds, ": ");
    put_string(ds, value);
    ds_put_cstr(ds, comma ? ",\n" : "\n");
}

static double
mhz_per_cpu(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    double mhz = 0;

    if (!f) {
        return 0;
    }
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "cpu MHz", 7)) {
            const char *colon = strchr(line, ':');
            if (colon) {
                mhz = atof(colon + 1);
            }
            break;
        }
    }
    fclose(f);
    return mhz;
}

static void
put_context(struct ds *ds, const struct results_context *c)
{
    char date[64], host[256] = "";
    time_t now = time(NULL);
    struct tm tm;
    char node_size[32];

    localtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", &tm);
    gethostname(host, sizeof host - 1);
    snprintf(node_size, sizeof node_size, "%zu", c->node_size);

    ds_put_cstr(ds, "  \"context\": {\n");
    put_kv_string(ds, "date", date, true);
    put_kv_string(ds, "host_name", host, true);
    put_kv_string(ds, "executable", c->executable, true);
    ds_put_format(ds, "    \"num_cpus\": %ld,\n", sysconf(_SC_NPROCESSORS_ONLN));
    ds_put_format(ds, "    \"mhz_per_cpu\": %.0f,\n", mhz_per_cpu());
    ds_put_cstr(ds, "    \"cpu_scaling_enabled\": false,\n");
    ds_put_cstr(ds, "    \"caches\": [],\n");
    put_kv_string(ds, "library_build_type", c->build_type, true);
    put_kv_string(ds, "impl", c->impl, true);
    put_kv_string(ds, "allocator", c->allocator, true);
    put_kv_string(ds, "workload", c->workload, true);
    put_kv_string(ds, "params", c->params, true);
    put_kv_string(ds, "dataset", c->dataset ? c->dataset : "", true);
    put_kv_string(ds, "dataset_sha256",
                  c->dataset_sha256 ? c->dataset_sha256 : "", true);
    put_kv_string(ds, "build_type", c->build_type, true);
    put_kv_string(ds, "compiler", c->compiler, true);
    put_kv_string(ds, "cflags", c->cflags, true);
    put_kv_string(ds, "git_commit", c->git_commit, true);
    put_kv_string(ds, "node_size", node_size, false);
    ds_put_cstr(ds, "  },\n");
}

static void
put_fields(struct ds *ds, const struct field *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ds_put_cstr(ds, ",\n      ");
        put_string(ds, f[i].key);
        ds_put_cstr(ds, ": ");
        put_number(ds, f[i].value);
        if (i == 1) {
            ds_put_cstr(ds, ",\n      \"time_unit\": \"ms\"");
        }
    }
}

/* Distinct phase names in order of first appearance. */
static size_t
distinct_names(const struct bench *b, const char **names)
{
    size_t n = 0;
    for (size_t i = 0; i < b->n_results; i++) {
        size_t j;
        for (j = 0; j < n && strcmp(names[j], b->results[i].name); j++) {
            continue;
        }
        if (j == n) {
            names[n++] = b->results[i].name;
        }
    }
    return n;
}

static void
put_benchmarks(struct ds *ds, const struct bench *b)
{
    const char **names = xmalloc((b->n_results + 1) * sizeof *names);
    size_t n_names = distinct_names(b, names);
    bool first = true;

    ds_put_cstr(ds, "  \"benchmarks\": [");
    for (size_t fam = 0; fam < n_names; fam++) {
        const char *name = names[fam];
        size_t n_runs = 0, n_fields = 0;
        struct field *fields = NULL;    /* n_runs x n_fields. */

        for (size_t i = 0; i < b->n_results; i++) {
            const struct phase_result *r = &b->results[i];
            if (strcmp(r->name, name)) {
                continue;
            }
            struct field *f = xmalloc((N_STD_FIELDS + r->n_counters)
                                      * sizeof *f);
            size_t nf = run_fields(r, f);
            ds_put_cstr(ds, first ? "\n    {\n      " : ",\n    {\n      ");
            first = false;
            ds_put_cstr(ds, "\"name\": ");
            put_string(ds, name);
            ds_put_format(ds, ",\n      \"family_index\": %zu", fam);
            ds_put_cstr(ds, ",\n      \"per_family_instance_index\": 0");
            ds_put_cstr(ds, ",\n      \"run_name\": ");
            put_string(ds, name);
            ds_put_format(ds, ",\n      \"run_type\": \"iteration\""
                          ",\n      \"repetitions\": %d"
                          ",\n      \"repetition_index\": %d"
                          ",\n      \"threads\": 1"
                          ",\n      \"iterations\": %zu",
                          b->repetitions, r->repetition,
                          r->n_iters ? r->n_iters : 1);
            put_fields(ds, f, nf);
            ds_put_cstr(ds, "\n    }");

            /* Keep the first run's field list as the aggregate's shape. */
            if (!n_runs) {
                n_fields = nf;
            }
            fields = xrealloc(fields, (n_runs + 1) * n_fields
                              * sizeof *fields);
            for (size_t k = 0; k < n_fields; k++) {
                /* Match by key: counters may come in another order. */
                const char *key = n_runs ? fields[k].key : f[k].key;
                double v = 0;
                for (size_t m = 0; m < nf; m++) {
                    if (!strcmp(f[m].key, key)) {
                        v = f[m].value;
                        break;
                    }
                }
                fields[n_runs * n_fields + k] = (struct field) { key, v };
            }
            n_runs++;
            free(f);
        }

        static const char *const aggs[] = {
            "mean", "median", "stddev", "min", "max"
        };
        double *col = xmalloc(n_runs * sizeof *col);
        struct field *agg = xmalloc(n_fields * sizeof *agg);
        for (size_t a = 0; a < ARRAY_SIZE(aggs); a++) {
            for (size_t k = 0; k < n_fields; k++) {
                double sum = 0, v;
                for (size_t i = 0; i < n_runs; i++) {
                    col[i] = fields[i * n_fields + k].value;
                    sum += col[i];
                }
                double mean = sum / n_runs;
                switch (a) {
                case 0:
                    v = mean;
                    break;
                case 1:
                    v = median_of(col, n_runs);
                    break;
                case 2: {
                    double ss = 0;
                    for (size_t i = 0; i < n_runs; i++) {
                        ss += (col[i] - mean) * (col[i] - mean);
                    }
                    v = n_runs > 1 ? sqrt(ss / (n_runs - 1)) : 0;
                    break;
                }
                case 3:
                    qsort(col, n_runs, sizeof *col, compare_doubles);
                    v = col[0];
                    break;
                default:
                    qsort(col, n_runs, sizeof *col, compare_doubles);
                    v = col[n_runs - 1];
                    break;
                }
                agg[k] = (struct field) { fields[k].key, v };
            }
            ds_put_cstr(ds, ",\n    {\n      \"name\": ");
            ds_put_format(ds, "\"%s_%s\"", name, aggs[a]);
            ds_put_format(ds, ",\n      \"family_index\": %zu", fam);
            ds_put_cstr(ds, ",\n      \"per_family_instance_index\": 0");
            ds_put_cstr(ds, ",\n      \"run_name\": ");
            put_string(ds, name);
            ds_put_format(ds, ",\n      \"run_type\": \"aggregate\""
                          ",\n      \"repetitions\": %d"
                          ",\n      \"threads\": 1"
                          ",\n      \"aggregate_name\": \"%s\""
                          ",\n      \"aggregate_unit\": \"time\""
                          ",\n      \"iterations\": %zu",
                          b->repetitions, aggs[a], n_runs);
            put_fields(ds, agg, n_fields);
            ds_put_cstr(ds, "\n    }");
        }
        free(agg);
        free(col);
        free(fields);
    }
    ds_put_cstr(ds, "\n  ]\n");
    free(names);
}

char *
results_write(const struct bench *b, const struct results_context *c,
              const char *file)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    struct out_file out;
    char *error;

    ds_put_cstr(&ds, "{\n");
    put_context(&ds, c);
    put_benchmarks(&ds, b);
    ds_put_cstr(&ds, "}\n");

    error = out_file_open(&out, file);
    if (!error) {
        error = out_file_write(&out, ds.string, ds.length);
        if (error) {
            out_file_abort(&out);
        } else {
            error = out_file_commit(&out);
        }
    }
    ds_destroy(&ds);
    return error;
}

void
results_print_table(const struct bench *b, FILE *stream)
{
    const char **names = xmalloc((b->n_results + 1) * sizeof *names);
    size_t n_names = distinct_names(b, names);

    fprintf(stream, "%-22s %10s %10s %10s %10s %10s %12s %12s\n", "phase "
            "(median)", "wall ms", "cpu ms", "rss MB", "peak MB", "heap MB",
            "alloc calls", "bytes out");
    for (size_t i = 0; i < n_names; i++) {
        double cols[7][64];
        size_t n = 0;
        const struct phase_result *last = NULL;
        for (size_t j = 0; j < b->n_results && n < 64; j++) {
            const struct phase_result *r = &b->results[j];
            if (strcmp(r->name, names[i])) {
                continue;
            }
            struct field f[N_STD_FIELDS + 64];
            if (r->n_counters > 64) {
                continue;
            }
            run_fields(r, f);
            cols[0][n] = f[0].value;
            cols[1][n] = f[1].value;
            cols[2][n] = f[4].value / 1048576.0;
            cols[3][n] = f[5].value / 1048576.0;
            cols[4][n] = f[6].value / 1048576.0;
            cols[5][n] = f[9].value;
            cols[6][n] = f[12].value;
            n++;
            last = r;
        }
        fprintf(stream, "%-22s %10.1f %10.1f %10.1f %10.1f %10.1f %12.0f "
                "%12.0f\n", names[i], median_of(cols[0], n),
                median_of(cols[1], n), median_of(cols[2], n),
                median_of(cols[3], n), median_of(cols[4], n),
                median_of(cols[5], n), median_of(cols[6], n));
        if (last && last->n_iters) {
            struct field f[N_STD_FIELDS + 64];
            run_fields(last, f);
            fprintf(stream, "%-22s iterations %zu: min %.3f median %.3f max "
                    "%.3f ms\n", "", last->n_iters, f[14].value, f[15].value,
                    f[16].value);
        }
        for (size_t k = 0; last && k < last->n_counters; k++) {
            fprintf(stream, "%-22s %s = %.10g\n", "", last->counters[k].name,
                    last->counters[k].value);
        }
    }
    free(names);
}
