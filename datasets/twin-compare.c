/* Fidelity of a dataset twin (ovsdb-stats --compare): the counts of a
 * source and of its twin side by side, per table and overall, each with its
 * tolerance marked pass or fail; see twin-compare.h. */
#include "twin-compare.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db-counts.h"
#include "db-load.h"
#include "ds.h"
#include "json.h"
#include "util.h"

/* The tolerances that a twin at scale 1 holds (datasets/README.md). */
#define TOL_ROWS_PCT 2.0        /* Rows per table, or one row. */
#define TOL_ATOMS_PCT 5.0       /* Atoms of each type, or two atoms. */
#define TOL_LEN_POINTS 3.0      /* Each string-length bucket. */
#define TOL_DISTINCT_POINTS 5.0 /* Share of distinct strings. */

struct side {
    const char *file;
    uint64_t file_bytes;
    struct db_schema *schema;
    struct db_counts c;
};

static void
load_side(struct side *s, const char *file)
{
    struct db_file db;
    db_file_load(&db, file);
    s->file = file;
    s->file_bytes = db.f.size;
    db_counts_compute(&s->c, &db, false);
    /* Keep the schema for the names; the rows go. */
    s->schema = db.schema;
    db.schema = NULL;
    db_file_close(&db);
}

/* One checked figure. */
struct check {
    char *what;
    double src, twin, diff, tol;
    bool points;                /* 'diff' in points of a share, not %. */
    bool pass;
};

struct report {
    struct check *checks;
    size_t n, allocated;
    size_t failed;
};

static struct check *
add_check(struct report *r, char *what, double src, double twin, double diff,
          double tol, bool points, bool pass)
{
    if (r->n >= r->allocated) {
        r->allocated = r->allocated ? 2 * r->allocated : 64;
        r->checks = xrealloc(r->checks, r->allocated * sizeof *r->checks);
    }
    struct check *c = &r->checks[r->n++];
    *c = (struct check) { what, src, twin, diff, tol, points, pass };
    r->failed += !pass;
    return c;
}

static double
pct_of(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * part / whole : 0.0;
}

static double
rel_diff(double src, double twin)
{
    return src ? 100.0 * (twin - src) / src : (twin ? 100.0 : 0.0);
}

/* Relative figure: within 'tol' % or 'abs_slack' units. */
static const struct check *
check_rel(struct report *r, char *what, uint64_t src, uint64_t twin,
          double tol, double abs_slack)
{
    double d = rel_diff(src, twin);
    bool pass = fabs(d) <= tol
                || fabs((double) twin - (double) src) <= abs_slack;
    return add_check(r, what, src, twin, d, tol, false, pass);
}

/* A share in percent: within 'tol' points. */
static const struct check *
check_points(struct report *r, char *what, double src, double twin,
             double tol)
{
    double d = twin - src;
    return add_check(r, what, src, twin, d, tol, true, fabs(d) <= tol);
}

static const char *
mark(const struct check *c)
{
    return c->pass ? "ok" : "FAIL";
}

static uint64_t
nonempty(const uint64_t *h)
{
    uint64_t n = 0;
    for (int b = 1; b < N_SIZE_BUCKETS; b++) {
        n += h[b];
    }
    return n;
}

/* The table of rows and atoms per table. */
static void
compare_tables(struct report *r, const struct side *a, const struct side *b,
               struct ds *text)
{
    ds_put_format(text, "%-30s %10s %10s %7s %4s %11s %11s %7s\n", "table",
                  "rows src", "twin", "diff", "", "atoms src", "twin",
                  "diff");
    for (size_t t = 0; t < a->schema->n_tables; t++) {
        const char *name = a->schema->tables[t]->name;
        int bt = db_schema_table_index(b->schema, name);
        const struct counts *ca = &a->c.tables[t];
        const struct counts *cb = bt >= 0 ? &b->c.tables[bt] : NULL;
        uint64_t rows_b = cb ? cb->rows : 0, atoms_b = cb ? cb->atoms : 0;
        if (!ca->rows && !rows_b) {
            continue;
        }
        const struct check *c = check_rel(r, xasprintf("rows %s", name),
                                          ca->rows, rows_b, TOL_ROWS_PCT, 1);
        ds_put_format(text, "%-30s %10"PRIu64" %10"PRIu64" %+6.1f%% %4s "
                      "%11"PRIu64" %11"PRIu64" %+6.1f%%\n", name, ca->rows,
                      rows_b, c->diff, mark(c), ca->atoms, atoms_b,
                      rel_diff(ca->atoms, atoms_b));
    }
    const struct check *c = check_rel(r, xstrdup("rows total"),
                                      a->c.total.rows, b->c.total.rows,
                                      TOL_ROWS_PCT, 1);
    ds_put_format(text, "%-30s %10"PRIu64" %10"PRIu64" %+6.1f%% %4s "
                  "%11"PRIu64" %11"PRIu64" %+6.1f%%\n\n", "total",
                  a->c.total.rows, b->c.total.rows, c->diff, mark(c),
                  a->c.total.atoms, b->c.total.atoms,
                  rel_diff(a->c.total.atoms, b->c.total.atoms));
}

static void
compare_atoms(struct report *r, const struct counts *a, const struct counts *b,
              struct ds *text)
{
    ds_put_format(text, "%-30s %12s %12s %7s %4s   (tolerance +-%.0f%%)\n",
                  "atoms by type", "src", "twin", "diff", "", TOL_ATOMS_PCT);
    for (int t = ATOMIC_INTEGER; t < N_ATOMIC_TYPES; t++) {
        const char *name = atomic_type_to_string(t);
        const struct check *c = check_rel(r, xasprintf("atoms %s", name),
                                          a->by_type[t], b->by_type[t],
                                          TOL_ATOMS_PCT, 2);
        ds_put_format(text, "%-30s %12"PRIu64" %12"PRIu64" %+6.1f%% %4s\n",
                      name, a->by_type[t], b->by_type[t], c->diff, mark(c));
    }
    ds_put_cstr(text, "\n");
}

static void
compare_strings(struct report *r, const struct counts *a,
                const struct counts *b, struct ds *text)
{
    ds_put_format(text, "%-30s %12s %12s %7s %4s   (tolerance +-%.0f "
                  "points)\n", "string length (% of strings)", "src", "twin",
                  "diff", "", TOL_LEN_POINTS);
    for (int k = 0; k < N_LEN_BUCKETS; k++) {
        const struct check *c = check_points(
            r, xasprintf("string length %s", len_bucket_names[k]),
            pct_of(a->len_hist[k], a->strings),
            pct_of(b->len_hist[k], b->strings), TOL_LEN_POINTS);
        ds_put_format(text, "%-30s %11.1f%% %11.1f%% %+6.1f  %4s\n",
                      len_bucket_names[k], c->src, c->twin, c->diff,
                      mark(c));
    }
    const struct check *c = check_points(
        r, xstrdup("distinct strings"), pct_of(a->distinct.n, a->strings),
        pct_of(b->distinct.n, b->strings), TOL_DISTINCT_POINTS);
    ds_put_format(text, "%-30s %11.1f%% %11.1f%% %+6.1f  %4s   "
                  "(tolerance +-%.0f points)\n", "distinct strings",
                  c->src, c->twin, c->diff, mark(c), TOL_DISTINCT_POINTS);
    ds_put_format(text, "%-30s %12.1f %12.1f %+6.1f%%\n\n",
                  "mean string length",
                  a->strings ? (double) a->string_bytes / a->strings : 0.0,
                  b->strings ? (double) b->string_bytes / b->strings : 0.0,
                  rel_diff(a->strings ? (double) a->string_bytes / a->strings
                           : 0, b->strings ? (double) b->string_bytes
                           / b->strings : 0));
}

/* Set and map sizes: shown, not checked (no tolerance is promised). */
static void
compare_sizes(const struct counts *a, const struct counts *b,
              struct ds *text)
{
    for (int pass = 0; pass < 2; pass++) {
        const uint64_t *ha = pass ? a->map_sizes : a->set_sizes;
        const uint64_t *hb = pass ? b->map_sizes : b->set_sizes;
        uint64_t na = nonempty(ha), nb = nonempty(hb);
        ds_put_format(text, "%s sizes (%% of non-empty)%*s %12"PRIu64
                      " %12"PRIu64"  non-empty\n", pass ? "map" : "set", 5,
                      "", na, nb);
        for (int k = 1; k < N_SIZE_BUCKETS; k++) {
            ds_put_format(text, "  %-28s %11.1f%% %11.1f%% %+6.1f\n",
                          size_bucket_names[k], pct_of(ha[k], na),
                          pct_of(hb[k], nb),
                          pct_of(hb[k], nb) - pct_of(ha[k], na));
        }
        ds_put_format(text, "  %-28s %12"PRIu64" %12"PRIu64"\n", "max",
                      pass ? a->max_map : a->max_set,
                      pass ? b->max_map : b->max_set);
    }
}

static void
put_sizes_json(struct ds *d, const char *name, const uint64_t *h)
{
    ds_put_format(d, "\"%s\": {", name);
    for (int k = 0; k < N_SIZE_BUCKETS; k++) {
        ds_put_format(d, "%s\"%s\": %"PRIu64, k ? ", " : "",
                      size_bucket_names[k], h[k]);
    }
    ds_put_cstr(d, "}");
}

static void
put_side_json(struct ds *d, const char *name, const struct side *s)
{
    ds_put_format(d, "  \"%s\": {\"file\": ", name);
    json_string_escape(s->file, d);
    ds_put_format(d, ", \"bytes\": %"PRIu64", \"rows\": %"PRIu64
                  ", \"atoms\": %"PRIu64", \"row_bytes\": %"PRIu64
                  ", \"strings\": %"PRIu64", \"strings_distinct\": %"PRIu64
                  ", ", s->file_bytes, s->c.total.rows, s->c.total.atoms,
                  s->c.total.bytes, s->c.total.strings,
                  (uint64_t) s->c.total.distinct.n);
    put_sizes_json(d, "set_sizes", s->c.total.set_sizes);
    ds_put_cstr(d, ", ");
    put_sizes_json(d, "map_sizes", s->c.total.map_sizes);
    ds_put_cstr(d, "}");
}

static void
put_json(const struct report *r, const struct side *a, const struct side *b,
         struct ds *d)
{
    ds_put_cstr(d, "{\n");
    put_side_json(d, "source", a);
    ds_put_cstr(d, ",\n");
    put_side_json(d, "twin", b);
    ds_put_cstr(d, ",\n  \"checks\": [");
    for (size_t i = 0; i < r->n; i++) {
        const struct check *c = &r->checks[i];
        ds_put_format(d, "%s\n    {\"what\": ", i ? "," : "");
        json_string_escape(c->what, d);
        ds_put_format(d, ", \"source\": %.6g, \"twin\": %.6g, \"diff\": "
                      "%.4f, \"unit\": \"%s\", \"tolerance\": %.6g, "
                      "\"pass\": %s}", c->src, c->twin, c->diff,
                      c->points ? "points" : "%", c->tol,
                      c->pass ? "true" : "false");
    }
    ds_put_format(d, "\n  ],\n  \"failed\": %zu,\n  \"pass\": %s\n}\n",
                  r->failed, r->failed ? "false" : "true");
}

int
twin_compare(const char *source, const char *twin, bool as_json)
{
    struct side a, b;
    load_side(&a, source);
    load_side(&b, twin);

    struct report r = { 0 };
    struct ds text = DS_EMPTY_INITIALIZER;
    ds_put_format(&text, "source: %s (%"PRIu64" bytes)\ntwin:   %s "
                  "(%"PRIu64" bytes, %+.1f%%)\n\n", source, a.file_bytes,
                  twin, b.file_bytes, rel_diff(a.file_bytes, b.file_bytes));
    compare_tables(&r, &a, &b, &text);
    compare_atoms(&r, &a.c.total, &b.c.total, &text);
    compare_strings(&r, &a.c.total, &b.c.total, &text);
    compare_sizes(&a.c.total, &b.c.total, &text);
    ds_put_format(&text, "\n%-30s %12"PRIu64" %12"PRIu64" %+6.1f%%\n",
                  "row bytes", a.c.total.bytes, b.c.total.bytes,
                  rel_diff(a.c.total.bytes, b.c.total.bytes));
    ds_put_format(&text, "%s: %zu of %zu checks failed", r.failed ? "FAIL"
                  : "PASS", r.failed, r.n);
    for (size_t i = 0, k = 0; i < r.n && k < 8; i++) {
        if (!r.checks[i].pass) {
            ds_put_format(&text, "%s%s", k++ ? ", " : " (", r.checks[i].what);
        }
    }
    ds_put_cstr(&text, r.failed ? ")\n" : "\n");

    if (as_json) {
        struct ds d = DS_EMPTY_INITIALIZER;
        put_json(&r, &a, &b, &d);
        fwrite(d.string, 1, d.length, stdout);
        ds_destroy(&d);
    } else {
        fwrite(text.string, 1, text.length, stdout);
    }
    ds_destroy(&text);
    for (size_t i = 0; i < r.n; i++) {
        free(r.checks[i].what);
    }
    free(r.checks);
    db_counts_destroy(&a.c);
    db_counts_destroy(&b.c);
    db_schema_destroy(a.schema);
    db_schema_destroy(b.schema);
    return r.failed ? 3 : 0;
}
