/* The google-benchmark JSON writer (results-json.h).  It only formats: the
 * figures and their statistics come from summary.h. */
#include "measure/results-json.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ds.h"
#include "ovsdb/out-file.h"
#include "measure/phases.h"
#include "measure/summary.h"
#include "util.h"

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
    ds_put_format(ds, "    \"num_cpus\": %ld,\n",
                  sysconf(_SC_NPROCESSORS_ONLN));
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
    put_kv_string(ds, "model", c->model ? c->model : "", true);
    put_kv_string(ds, "node_size", node_size, false);
    ds_put_cstr(ds, "  },\n");
}

static void
put_field(struct ds *ds, const char *key, double value)
{
    ds_put_cstr(ds, ",\n      ");
    put_string(ds, key);
    ds_put_cstr(ds, ": ");
    put_number(ds, value);
}

/* The standard figures; google-benchmark's "time_unit" follows cpu_time. */
static void
put_figures(struct ds *ds, const struct figures *f)
{
    for (size_t k = 0; k < N_FIGURES; k++) {
        put_field(ds, figure_key(k), f->v[k]);
        if (k == FIG_CPU_TIME) {
            ds_put_cstr(ds, ",\n      \"time_unit\": \"ms\"");
        }
    }
}

/* The members every entry starts with; 'aggregate' is NULL for a run. */
static void
put_header(struct ds *ds, const struct phase_summary *ps,
           const char *aggregate, size_t family, bool *first)
{
    ds_put_cstr(ds, *first ? "\n    {\n      " : ",\n    {\n      ");
    *first = false;
    ds_put_cstr(ds, "\"name\": ");
    if (aggregate) {
        char *name = xasprintf("%s_%s", ps->name, aggregate);
        put_string(ds, name);
        xfree(name);
    } else {
        put_string(ds, ps->name);
    }
    ds_put_format(ds, ",\n      \"family_index\": %zu", family);
    ds_put_cstr(ds, ",\n      \"per_family_instance_index\": 0");
    ds_put_cstr(ds, ",\n      \"run_name\": ");
    put_string(ds, ps->name);
}

/* One repetition: its own figures and counters. */
static void
put_run(struct ds *ds, const struct phase_summary *ps, size_t family,
        size_t i, int repetitions, bool *first)
{
    const struct phase_result *r = ps->runs[i];

    put_header(ds, ps, NULL, family, first);
    ds_put_format(ds, ",\n      \"run_type\": \"iteration\""
                  ",\n      \"repetitions\": %d"
                  ",\n      \"repetition_index\": %d"
                  ",\n      \"threads\": 1"
                  ",\n      \"iterations\": %zu",
                  repetitions, r->repetition, r->n_iters ? r->n_iters : 1);
    put_figures(ds, &ps->figures[i]);
    for (size_t c = 0; c < r->n_counters; c++) {
        put_field(ds, r->counters[c].name, r->counters[c].value);
    }
    ds_put_cstr(ds, "\n    }");
}

static const struct {
    const char *name;
    size_t offset;              /* Of the value in struct stats. */
} aggregates[] = {
    { "mean", offsetof(struct stats, mean) },
    { "median", offsetof(struct stats, median) },
    { "stddev", offsetof(struct stats, stddev) },
    { "min", offsetof(struct stats, min) },
    { "max", offsetof(struct stats, max) },
};

static double
stats_value(const struct stats *s, size_t aggregate)
{
    return *(const double *) ((const char *) s + aggregates[aggregate].offset);
}

/* One aggregate over the repetitions, named "<phase>_<aggregate>". */
static void
put_aggregate(struct ds *ds, const struct phase_summary *ps, size_t family,
              size_t a, int repetitions, bool *first)
{
    struct figures f;

    put_header(ds, ps, aggregates[a].name, family, first);
    ds_put_format(ds, ",\n      \"run_type\": \"aggregate\""
                  ",\n      \"repetitions\": %d"
                  ",\n      \"threads\": 1"
                  ",\n      \"aggregate_name\": \"%s\""
                  ",\n      \"aggregate_unit\": \"time\""
                  ",\n      \"iterations\": %zu",
                  repetitions, aggregates[a].name, ps->n_runs);
    for (size_t k = 0; k < N_FIGURES; k++) {
        f.v[k] = stats_value(&ps->stats[k], a);
    }
    put_figures(ds, &f);
    for (size_t c = 0; c < ps->n_counters; c++) {
        put_field(ds, ps->counters[c].name,
                  stats_value(&ps->counters[c].stats, a));
    }
    ds_put_cstr(ds, "\n    }");
}

static void
put_benchmarks(struct ds *ds, const struct phases *p)
{
    struct summary s;
    bool first = true;

    summary_init(&s, p);
    ds_put_cstr(ds, "  \"benchmarks\": [");
    for (size_t fam = 0; fam < s.n_phases; fam++) {
        const struct phase_summary *ps = &s.phases[fam];
        for (size_t i = 0; i < ps->n_runs; i++) {
            put_run(ds, ps, fam, i, p->repetitions, &first);
        }
        for (size_t a = 0; a < ARRAY_SIZE(aggregates); a++) {
            put_aggregate(ds, ps, fam, a, p->repetitions, &first);
        }
    }
    ds_put_cstr(ds, "\n  ]\n");
    summary_destroy(&s);
}

char *
results_write(const struct phases *p, const struct results_context *c,
              const char *file)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    struct out_file out;
    char *error;

    ds_put_cstr(&ds, "{\n");
    put_context(&ds, c);
    put_benchmarks(&ds, p);
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
