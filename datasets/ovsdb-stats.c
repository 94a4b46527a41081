/* ovsdb-stats: reads any OVSDB standalone database file (generated or real,
 * snapshot or log, with or without "_is_diff"), applies every record, and
 * reports rows and atoms per table, atoms by type, string lengths, distinct
 * strings and set/map sizes (db-load.c, db-counts.c).  Atoms are counted as
 * OVSDB counts them: one per scalar or set element, two per map pair,
 * including each row's _uuid and _version and the default value of every
 * scalar column.
 *
 * --profile derives a dataset twin, a profile of the file's shape without
 * its contents (twin-derive.c); --compare puts a source and its twin side by
 * side with the fidelity tolerances (twin-compare.c). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db-counts.h"
#include "db-load.h"
#include "ds.h"
#include "json.h"
#include "ovsdb/schema.h"
#include "twin-compare.h"
#include "twin-derive.h"
#include "util.h"

/* ---- Output. ---- */

static double
pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * part / whole : 0.0;
}

static void
print_text(const struct db_file *ctx, const struct db_counts *dc,
           uint64_t file_size)
{
    const struct db_schema *s = ctx->schema;
    const struct counts *c = &dc->total;
    uint64_t rows = 0, atoms = 0;
    printf("file: %s (%"PRIu64" bytes, %"PRIu64" records, %"PRIu64
           " transactions)\n", ctx->file, file_size, ctx->n_records,
           ctx->n_txns);
    printf("schema: %s %s\n", s->name, s->version);
    printf("applied: %"PRIu64" inserts, %"PRIu64" modifies, %"PRIu64
           " deletes\n\n", ctx->n_inserts, ctx->n_modifies, ctx->n_deletes);
    printf("%-32s %12s %14s %14s\n", "table", "rows", "atoms",
           "row bytes");
    for (size_t t = 0; t < s->n_tables; t++) {
        if (dc->tables[t].rows) {
            printf("%-32s %12"PRIu64" %14"PRIu64" %14"PRIu64"\n",
                   s->tables[t]->name, dc->tables[t].rows, dc->tables[t].atoms, dc->tables[t].bytes);
            rows += dc->tables[t].rows;
            atoms += dc->tables[t].atoms;
        }
    }
    printf("%-32s %12"PRIu64" %14"PRIu64"\n\n", "total", rows, atoms);
    printf("atoms by type:");
    for (int t = ATOMIC_INTEGER; t < N_ATOMIC_TYPES; t++) {
        printf("  %s %"PRIu64" (%.1f%%)", atomic_type_to_string(t),
               c->by_type[t], pct(c->by_type[t], atoms));
    }
    printf("\n  (uuid includes 2 per row for _uuid and _version: "
           "%.1f%% without them)\n", pct(c->by_type[ATOMIC_UUID] - 2 * rows,
                                         atoms - 2 * rows));
    printf("\nstrings: %"PRIu64", %"PRIu64" distinct (%.1f%%), mean length "
           "%.1f, <= 23 bytes: %.1f%%\n", c->strings, (uint64_t) c->distinct.n,
           pct(c->distinct.n, c->strings),
           c->strings ? (double) c->string_bytes / c->strings : 0.0,
           pct(c->short_strings, c->strings));
    printf("string length (bytes):");
    for (int b = 0; b < N_LEN_BUCKETS; b++) {
        printf("  %s: %.1f%%", len_bucket_names[b],
               pct(c->len_hist[b], c->strings));
    }
    uint64_t sets = 0, maps = 0;
    for (int b = 1; b < N_SIZE_BUCKETS; b++) {
        sets += c->set_sizes[b];
        maps += c->map_sizes[b];
    }
    printf("\n\nset sizes (%"PRIu64" non-empty of %"PRIu64"; %% of "
           "non-empty; max %"PRIu64"):\n ", sets, sets + c->set_sizes[0],
           c->max_set);
    for (int b = 1; b < N_SIZE_BUCKETS; b++) {
        printf(" %s: %.1f%%", size_bucket_names[b],
               pct(c->set_sizes[b], sets));
    }
    printf("\nmap sizes (%"PRIu64" non-empty of %"PRIu64"; %% of "
           "non-empty; max %"PRIu64"):\n ", maps, maps + c->map_sizes[0],
           c->max_map);
    for (int b = 1; b < N_SIZE_BUCKETS; b++) {
        printf(" %s: %.1f%%", size_bucket_names[b],
               pct(c->map_sizes[b], maps));
    }
    printf("\n");
}

static void
json_key(struct ds *d, const char *name)
{
    json_string_escape(name, d);
    ds_put_cstr(d, ": ");
}

static void
print_json(const struct db_file *ctx, const struct db_counts *dc,
           uint64_t file_size)
{
    const struct db_schema *s = ctx->schema;
    struct ds d = DS_EMPTY_INITIALIZER;
    const struct counts *c = &dc->total;
    uint64_t rows = 0, atoms = 0;
    ds_put_cstr(&d, "{\n  ");
    json_key(&d, "file");
    json_string_escape(ctx->file, &d);
    ds_put_format(&d, ",\n  \"bytes\": %"PRIu64",\n  \"records\": %"PRIu64
                  ",\n  \"transactions\": %"PRIu64",\n", file_size,
                  ctx->n_records, ctx->n_txns);
    ds_put_cstr(&d, "  \"schema\": ");
    json_string_escape(s->name, &d);
    ds_put_cstr(&d, ",\n  \"schema_version\": ");
    json_string_escape(s->version, &d);
    ds_put_format(&d, ",\n  \"inserts\": %"PRIu64", \"modifies\": %"PRIu64
                  ", \"deletes\": %"PRIu64",\n", ctx->n_inserts,
                  ctx->n_modifies, ctx->n_deletes);
    for (int pass = 0; pass < 3; pass++) {
        static const char *const names[] = { "rows", "atoms", "row_bytes" };
        
        ds_put_format(&d, "  \"%s\": {", names[pass]);
        bool first = true;
        for (size_t t = 0; t < s->n_tables; t++) {
            if (dc->tables[t].rows) {
                ds_put_cstr(&d, first ? "\n    " : ",\n    ");
                json_key(&d, s->tables[t]->name);
                const struct counts *ct = &dc->tables[t];
                ds_put_format(&d, "%"PRIu64, pass == 0 ? ct->rows
                              : pass == 1 ? ct->atoms : ct->bytes);
                if (pass == 1) {
                    atoms += dc->tables[t].atoms;
                } else if (pass == 0) {
                    rows += dc->tables[t].rows;
                }
                first = false;
            }
        }
        ds_put_cstr(&d, "\n  },\n");
    }
    ds_put_format(&d, "  \"rows_total\": %"PRIu64",\n  \"atoms_total\": "
                  "%"PRIu64",\n  \"atoms_by_type\": {", rows, atoms);
    for (int t = ATOMIC_INTEGER; t < N_ATOMIC_TYPES; t++) {
        ds_put_format(&d, "%s\"%s\": %"PRIu64, t == ATOMIC_INTEGER ? "" : ", ",
                      atomic_type_to_string(t), c->by_type[t]);
    }
    ds_put_format(&d, "},\n  \"strings\": %"PRIu64",\n  \"strings_distinct\": "
                  "%"PRIu64",\n  \"string_bytes\": %"PRIu64",\n"
                  "  \"strings_le_23\": %"PRIu64",\n  \"string_length\": {",
                  c->strings, (uint64_t) c->distinct.n, c->string_bytes,
                  c->short_strings);
    for (int b = 0; b < N_LEN_BUCKETS; b++) {
        ds_put_format(&d, "%s\"%s\": %"PRIu64, b ? ", " : "",
                      len_bucket_names[b], c->len_hist[b]);
    }
    for (int pass = 0; pass < 2; pass++) {
        const uint64_t *h = pass ? c->map_sizes : c->set_sizes;
        ds_put_format(&d, "},\n  \"%s_sizes\": {", pass ? "map" : "set");
        for (int b = 0; b < N_SIZE_BUCKETS; b++) {
            ds_put_format(&d, "%s\"%s\": %"PRIu64, b ? ", " : "",
                          size_bucket_names[b], h[b]);
        }
    }
    ds_put_format(&d, "},\n  \"max_set_size\": %"PRIu64",\n  \"max_map_size\":"
                  " %"PRIu64"\n}\n", c->max_set, c->max_map);
    fwrite(d.string, 1, d.length, stdout);
    ds_destroy(&d);
}

static void
usage(void)
{
    printf("\
usage: ovsdb-stats [--json] FILE\n\
       ovsdb-stats --profile [--drop-keys] FILE > twin.profile\n\
       ovsdb-stats --compare [--json] SOURCE TWIN\n\
Reads an OVSDB standalone database file (any schema, snapshot or log),\n\
applies every record, and prints rows and atoms per table, atoms by type,\n\
string-length histogram, distinct strings, and set/map size distributions.\n\
Atoms count as in OVSDB: 1 per scalar or set element, 2 per map pair,\n\
including _uuid, _version and default values.\n\
\n\
  --json       machine-readable output\n\
  --profile    write a profile of FILE's shape (a dataset twin: counts,\n\
               distributions, string templates and map key names, no\n\
               values) for ovsdb-gen --profile, with FILE's schema\n\
  --drop-keys  with --profile: synthetic map keys instead of FILE's\n\
  --compare    SOURCE and TWIN side by side, per table and overall, with\n\
               the fidelity tolerances; exit 3 if one is not met\n\
  -h, --help   this help\n");
}

enum mode { M_STATS, M_PROFILE, M_COMPARE };

struct options {
    enum mode mode;
    bool as_json;
    bool drop_keys;
};

/* Exits on a usage error. */
static void
parse_options(int argc, char *argv[], struct options *o)
{
    static const struct option options[] = {
        { "json", no_argument, NULL, 'j' },
        { "profile", no_argument, NULL, 'p' },
        { "drop-keys", no_argument, NULL, 'd' },
        { "compare", no_argument, NULL, 'c' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    memset(o, 0, sizeof *o);
    opterr = 0;                 /* One message of our own, naming it. */
    for (;;) {
        int c = getopt_long(argc, argv, "h", options, NULL);
        if (c == -1) {
            break;
        }
        switch (c) {
        case 'j': o->as_json = true; break;
        case 'p': o->mode = M_PROFILE; break;
        case 'd': o->drop_keys = true; break;
        case 'c': o->mode = M_COMPARE; break;
        case 'h': usage(); exit(0);
        default:
            if (optopt) {
                fprintf(stderr, "ovsdb-stats: unknown option -%c (use "
                        "--help)\n", optopt);
            } else {
                fprintf(stderr, "ovsdb-stats: unknown option %s (use "
                        "--help)\n", argv[optind - 1]);
            }
            exit(2);
        }
    }
    int want = o->mode == M_COMPARE ? 2 : 1;
    const char *what = want == 2 ? "SOURCE and TWIN" : "one FILE";
    if (argc - optind != want) {
        fprintf(stderr, "ovsdb-stats: expected %s (use --help)\n", what);
        exit(2);
    }
    if (o->drop_keys && o->mode != M_PROFILE) {
        fprintf(stderr, "ovsdb-stats: --drop-keys needs --profile\n");
        exit(2);
    }
    if (o->as_json && o->mode == M_PROFILE) {
        fprintf(stderr, "ovsdb-stats: --json and --profile do not mix\n");
        exit(2);
    }
}

static void
write_stdout(const struct ds *d)
{
    fwrite(d->string, 1, d->length, stdout);
    if (fflush(stdout) || ferror(stdout)) {
        ovs_fatal(errno, "standard output: write error");
    }
}

int
main(int argc, char *argv[])
{
    struct options o;
    parse_options(argc, argv, &o);
    if (o.mode == M_COMPARE) {
        int status = twin_compare(argv[optind], argv[optind + 1], o.as_json);
        if (fflush(stdout) || ferror(stdout)) {
            ovs_fatal(errno, "standard output: write error");
        }
        return status;
    }

    struct db_file db;
    db_file_load(&db, argv[optind]);
    if (o.mode == M_PROFILE) {
        /* Built whole before any output, so an error leaves none. */
        struct ds text = DS_EMPTY_INITIALIZER;
        struct twin_options to = { .drop_keys = o.drop_keys };
        twin_derive(&db, &to, &text);
        write_stdout(&text);
        ds_destroy(&text);
    } else {
        struct db_counts dc;
        db_counts_compute(&dc, &db, false);
        if (o.as_json) {
            print_json(&db, &dc, db.f.size);
        } else {
            print_text(&db, &dc, db.f.size);
        }
        db_counts_destroy(&dc);
        if (fflush(stdout) || ferror(stdout)) {
            ovs_fatal(errno, "standard output: write error");
        }
    }
    db_file_close(&db);
    return 0;
}
