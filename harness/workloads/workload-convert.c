/* convert: DATASET converted to the schema of --schema FILE, written as a
 * new database file (schema + one snapshot record), as OVS converts one.
 *
 *   online       ovsdb-server's "convert" request (ovsdb-client convert) on
 *                a standalone database: the database is loaded in its own
 *                schema; the new schema is checked and the database
 *                converted in memory (ovsdb_convert(): a new database,
 *                every row re-created, one transaction, its commit checks);
 *                a column whose type did not change shares its datum
 *                (OVS since b7f540129, 3.2), every other goes through JSON
 *                (ovsdb_datum_convert()); the new database is written as
 *                schema + snapshot record to a new file, synced; then it
 *                replaces the old one, which is freed.
 *   online-json  the same as OVS before b7f540129 (3.1): every column
 *                through JSON.
 *   offline      `ovsdb-tool convert DB SCHEMA TARGET`: the file read
 *                straight into the new schema (ovsdb_file_read_as_schema():
 *                tables and columns it lacks skipped, values parsed with
 *                its types), then written as schema + snapshot record.
 *
 * A schema the data cannot convert to (a value out of a narrowed type, a
 * missing referenced row) is an error naming the files, and the table, row
 * and column (offline: the record and its offset); nothing is written. */
#include <stdlib.h>
#include <string.h>

#include "server/db.h"
#include "server/db-convert.h"
#include "server/db-file.h"
#include "server/snapshot-file.h"
#include "ds.h"
#include "measure/phases.h"
#include "ovsdb/schema.h"
#include "util.h"
#include "workloads/workload.h"

enum convert_mode { MODE_ONLINE, MODE_ONLINE_JSON, MODE_OFFLINE };
static const char *const mode_names[] = { "online", "online-json",
                                          "offline" };

static enum convert_mode
convert_mode(const struct workload_options *o)
{
    for (size_t i = 0; i < ARRAY_SIZE(mode_names); i++) {
        if (!strcmp(o->mode, mode_names[i])) {
            return i;
        }
    }
    return MODE_ONLINE;
}

static char *
convert_prepare(struct workload_options *o)
{
    if (!o->schema) {
        return xasprintf("--schema FILE is required (the schema to convert "
                         "to)");
    }
    if (!o->mode) {
        o->mode = "online";
    }
    for (size_t i = 0; i < ARRAY_SIZE(mode_names); i++) {
        if (!strcmp(o->mode, mode_names[i])) {
            return NULL;
        }
    }
    return xasprintf("--mode %s: expected online, online-json or offline",
                     o->mode);
}

static void
convert_describe(const struct workload_options *o, struct ds *ds)
{
    ds_put_format(ds, " mode=%s schema=%s", o->mode, o->schema);
}

/* The file the conversion writes: --output (kept from the first repetition
 * only), else a temporary one that is removed. */
static char *
convert_target(const struct workload_options *o, int repetition)
{
    if (o->output && repetition == 0) {
        return xstrdup(o->output);
    }
    const char *dir = getenv("TMPDIR");
    return xasprintf("%s/jsonbench-convert.db", dir && *dir ? dir : "/tmp");
}

/* The new schema, or NULL and '*errorp'. */
static struct db_schema *
read_schema(const struct workload_options *o, char **errorp)
{
    struct db_schema *schema;
    *errorp = db_schema_read_file(o->schema, &schema);
    return *errorp ? NULL : schema;
}

/* Figures over the phases from 'first' to the last one: the conversion as
 * a whole (its peak, the RSS it leaves, its CPU and allocations). */
static void
convert_counters(struct phases *p, size_t first)
{
    uint64_t peak = 0, calls = 0, bytes = 0;
    double cpu = 0;
    for (size_t i = first; i < p->n_results; i++) {
        const struct phase_result *r = &p->results[i];
        if (r->end.peak_rss_bytes > peak) {
            peak = r->end.peak_rss_bytes;
        }
        cpu += (r->end.user_s + r->end.sys_s
                - r->start.user_s - r->start.sys_s);
        calls += r->end.alloc.calls - r->start.alloc.calls;
        bytes += r->end.alloc.bytes - r->start.alloc.bytes;
    }
    phases_counter(p, "convert_peak_rss_bytes", peak);
    phases_counter(p, "rss_after_convert_bytes",
                   phases_last(p)->end.rss_bytes);
    phases_counter(p, "convert_cpu_s", cpu);
    phases_counter(p, "convert_alloc_calls", calls);
    phases_counter(p, "convert_alloc_bytes", bytes);
}

/* Writes 'db' as the new database file ("write" phase). */
static char *
write_phase(struct phases *p, const struct workload_options *o,
            const struct db *db)
{
    char *target = convert_target(o, p->repetition);
    size_t bytes = 0;

    phases_begin(p, "write");
    char *error = snapshot_file_write(db, target,
                                      o->output && p->repetition == 0,
                                      &bytes);
    phases_items(p, db_n_rows(db));
    phases_bytes_out(p, bytes);
    phases_end(p);
    xfree(target);
    return error;
}

static char *
convert_offline(struct phases *p, const struct workload_options *o)
{
    struct db_load_stats stats;
    struct db *db;
    char *error;

    /* ovsdb-tool reads the schema first, then the file into it. */
    struct db_schema *schema = read_schema(o, &error);
    if (!schema) {
        return error;
    }
    size_t first = p->n_results;
    error = workload_load_phase_as(p, o, schema, &db, &stats);
    if (error) {
        char *e = xasprintf("%s (converting to %s)", error, o->schema);
        xfree(error);
        return e;
    }
    phases_counter(p, "records", stats.records);
    error = write_phase(p, o, db);
    if (!error) {
        convert_counters(p, first);
    }
    phases_begin(p, "free");
    db_destroy(db);
    phases_end(p);
    return error;
}

static char *
convert_online(struct phases *p, const struct workload_options *o)
{
    struct db_load_stats stats;
    struct db *old, *new;
    char *error;

    /* The schema is read before the load, so that a bad one fails first;
     * its parse is a small part of the request. */
    struct db_schema *schema = read_schema(o, &error);
    if (!schema) {
        return error;
    }
    error = workload_load_phase(p, o, &old, &stats);
    if (error) {
        db_schema_destroy(schema);
        return error;
    }

    size_t first = p->n_results;
    struct db_convert_stats cs;
    phases_begin(p, "convert");
    if (strcmp(schema->name, old->schema->name)) {
        error = xasprintf("new schema name (%s) does not match database "
                          "name (%s)", schema->name, old->schema->name);
        db_schema_destroy(schema);
    } else {
        error = db_convert(old, schema,
                           (convert_mode(o) == MODE_ONLINE_JSON
                            ? CONVERT_UNCHANGED_JSON
                            : CONVERT_UNCHANGED_CLONE), &new, &cs);
    }
    if (!error) {
        phases_items(p, cs.rows);
    }
    phases_end(p);
    if (!error) {
        phases_counter(p, "converted", cs.converted);
        phases_counter(p, "cloned", cs.cloned);
        phases_counter(p, "added", cs.added);
        phases_counter(p, "dropped", cs.dropped);
        error = write_phase(p, o, new);
        if (error) {
            db_destroy(new);
        }
    }
    if (error) {
        char *e = xasprintf("%s: converting to %s: %s", o->dataset,
                            o->schema, error);
        xfree(error);
        db_destroy(old);
        return e;
    }

    /* The new database replaces the old one (ovsdb_replace()). */
    phases_begin(p, "replace");
    db_destroy(old);
    phases_end(p);
    convert_counters(p, first);

    phases_begin(p, "free");
    db_destroy(new);
    phases_end(p);
    return NULL;
}

static char *
convert_run(struct phases *p, const struct workload_options *o)
{
    return (convert_mode(o) == MODE_OFFLINE
            ? convert_offline(p, o) : convert_online(p, o));
}

const struct workload workload_convert = {
    .name = "convert",
    .summary = "convert DATASET to --schema FILE and write it anew",
    .help = "           --schema FILE (required) the schema to convert to;\n"
            "           --mode online (default: ovsdb-server's convert,\n"
            "           unchanged columns shared as OVS >= 3.2),\n"
            "           online-json (every column through JSON, as OVS\n"
            "           3.1) or offline (ovsdb-tool convert: the file read\n"
            "           into the new schema); --output FILE keeps the\n"
            "           converted database (valid for ovsdb-tool), otherwise\n"
            "           it is written, synced and removed in $TMPDIR;\n"
            "           phases: online load, convert, write, replace (the\n"
            "           old database freed), free; offline load, write,\n"
            "           free; convert_peak_rss_bytes, rss_after_convert_bytes,\n"
            "           convert_cpu_s, convert_alloc_calls over the\n"
            "           conversion's phases\n",
    .needs_dataset = true,
    .prepare = convert_prepare,
    .describe = convert_describe,
    .run = convert_run,
};
