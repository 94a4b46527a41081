/* raft (seed 2): a cluster leader keeps E log entries and sends each to F
 * followers in an append_request.  The entries are transactions built from
 * the dataset's rows (split evenly), serialized and read back as a server
 * reads its log, and kept either as JSON trees (--mode tree) or as
 * serialized text nodes (--mode serialized, what OVS does since 2.16).
 * Reports the memory the retained log takes and the CPU of sending. */
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db-file.h"
#include "ds.h"
#include "json.h"
#include "ovsdb/rng.h"
#include "phases.h"
#include "util.h"
#include "workload.h"

static char *
raft_prepare(struct workload_options *o)
{
    if (!o->entries) {
        o->entries = 100;
    }
    if (!o->followers) {
        o->followers = 2;
    }
    if (!o->mode) {
        o->mode = "tree";
    }
    if (strcmp(o->mode, "tree") && strcmp(o->mode, "serialized")) {
        return xasprintf("--mode: \"%s\" is not tree or serialized",
                         o->mode);
    }
    return NULL;
}

static void
raft_describe(const struct workload_options *o, struct ds *ds)
{
    ds_put_format(ds, " entries=%d followers=%d mode=%s", o->entries,
                  o->followers, o->mode);
}

struct raft_entry {
    uint64_t term, index;
    struct uuid eid;
    struct json *data;          /* Tree or serialized node. */
};

/* Every row of 'db', all tables in name order, rows in UUID order. */
struct row_ref {
    const struct table *table;
    const struct row *row;
};

static struct row_ref *
all_rows(const struct db *db, size_t *np)
{
    size_t n = db_n_rows(db), k = 0;
    struct row_ref *refs = xmalloc((n + 1) * sizeof *refs);

    for (unsigned int i = 0; i < db->schema->n_tables; i++) {
        const struct table *t = &db->tables[i];
        struct row **rows = table_sorted_rows(t);
        for (size_t j = 0; j < t->n_rows; j++) {
            refs[k++] = (struct row_ref) { t, rows[j] };
        }
        xfree(rows);
    }
    *np = k;
    return refs;
}

/* The text of a transaction inserting refs[0..n-1], as a raft entry's data:
 * [null, {"<table>": {"<uuid>": {row}}}] (null: no schema change). */
static char *
entry_text(const struct row_ref *refs, size_t n)
{
    struct json *txn = json_object_create();

    for (size_t i = 0; i < n; i++) {
        const char *tname = refs[i].table->schema->name;
        struct json *rows = (struct json *) json_object_get(txn, tname);
        if (!rows) {
            rows = json_object_create();
            json_object_put(txn, tname, rows);
        }
        char uuid[UUID_LEN + 1];
        uuid_format(&refs[i].row->uuid, uuid);
        json_object_put(rows, uuid, row_to_json(refs[i].row,
                                                refs[i].table->schema,
                                                false, false));
    }
    struct json *data = json_array_create_2(json_null_create(), txn);
    char *text = json_to_string(data, 0);
    json_destroy(data);
    return text;
}

static struct json *
append_request(const struct raft_entry *e, int follower, uint64_t commit)
{
    char eid[UUID_LEN + 1];
    uuid_format(&e->eid, eid);

    struct json *entry = json_object_create();
    json_object_put(entry, "term", json_integer_create(e->term));
    json_object_put(entry, "index", json_integer_create(e->index));
    json_object_put(entry, "data", json_clone(e->data));
    json_object_put_string(entry, "eid", eid);

    struct json *args = json_object_create();
    json_object_put_string(args, "cluster",
                           "1b4a8e6c-0c1b-4a4e-9a8c-000000000001");
    json_object_put_format(args, "from", "%04x", 1);
    json_object_put_format(args, "to", "%04x", follower + 2);
    json_object_put(args, "term", json_integer_create(e->term));
    json_object_put(args, "prev_log_index",
                    json_integer_create(e->index - 1));
    json_object_put(args, "prev_log_term", json_integer_create(e->term));
    json_object_put(args, "leader_commit", json_integer_create(commit));
    json_object_put(args, "log", json_array_create_1(entry));

    struct json *msg = json_object_create();
    json_object_put_string(msg, "method", "append_request");
    json_object_put(msg, "params", json_array_create_1(args));
    json_object_put(msg, "id", json_null_create());
    return msg;
}

static char *
raft_run(struct phases *p, const struct workload_options *o)
{
    bool serialized = !strcmp(o->mode, "serialized");
    struct db *db;

    char *error = workload_load_phase(p, o, &db, NULL);
    if (error) {
        return error;
    }

    /* The entries' text, as the leader would read it from its log file. */
    size_t n_rows;
    struct row_ref *refs = all_rows(db, &n_rows);
    size_t n_entries = o->entries;
    char **texts = xmalloc(n_entries * sizeof *texts);
    for (size_t i = 0; i < n_entries; i++) {
        size_t lo = n_rows * i / n_entries, hi = n_rows * (i + 1) / n_entries;
        texts[i] = entry_text(refs + lo, hi - lo);
    }
    xfree(refs);
    db_destroy(db);

    /* Retained log: parsed trees, or serialized text nodes. */
    struct rng rng;
    rng_init(&rng, o->seed);
    struct raft_entry *log = xmalloc(n_entries * sizeof *log);
    phases_begin(p, "build_log");
    for (size_t i = 0; i < n_entries; i++) {
        struct raft_entry *e = &log[i];
        e->term = 1;
        e->index = i + 1;
        uuid_generate(&e->eid, &rng);
        if (serialized) {
            e->data = json_serialized_object_create_from_text(texts[i]);
        } else {
            e->data = json_parse_buffer(texts[i], strlen(texts[i]), &error);
            if (!e->data) {
                break;
            }
        }
        phases_bytes_out(p, strlen(texts[i]));
    }
    phases_items(p, n_entries);
    phases_end(p);
    const struct phase_result *r = phases_last(p);
    phases_counter(p, "retained_log_heap_bytes",
                  (double) r->end.heap_allocated - r->start.heap_allocated);
    phases_counter(p, "retained_log_rss_bytes",
                  (double) r->end.rss_bytes - r->start.rss_bytes);
    phases_counter(p, "retained_log_alloc_bytes",
                  (double) (r->end.alloc.bytes - r->start.alloc.bytes));
    for (size_t i = 0; i < n_entries; i++) {
        xfree(texts[i]);
    }
    xfree(texts);
    if (error) {
        for (size_t i = 0; log[i].data; i++) {
            json_destroy(log[i].data);
        }
        xfree(log);
        return error;
    }

    /* Send every entry to every follower. */
    struct ds out = DS_EMPTY_INITIALIZER;
    phases_begin(p, "send");
    for (size_t i = 0; i < n_entries; i++) {
        double t0 = metrics_now_ms();
        for (int f = 0; f < o->followers; f++) {
            struct json *msg = append_request(&log[i], f, i);
            ds_clear(&out);
            json_to_ds(msg, 0, &out);
            json_destroy(msg);
            phases_bytes_out(p, out.length);
        }
        phases_iteration(p, metrics_now_ms() - t0);
    }
    phases_items(p, n_entries * o->followers);
    phases_end(p);
    ds_destroy(&out);

    phases_begin(p, "free");
    for (size_t i = 0; i < n_entries; i++) {
        json_destroy(log[i].data);
    }
    xfree(log);
    phases_end(p);
    return NULL;
}

const struct workload workload_raft = {
    .name = "raft",
    .summary = "seed 2: leader keeps E log entries, sends each to F "
               "followers",
    .help = "           --entries E (default 100), --followers F (default "
            "2),\n"
            "           --mode tree|serialized (default tree); phases: "
            "load,\n"
            "           build_log (counters retained_log_*), send "
            "(per-entry\n"
            "           iterations), free\n",
    .needs_dataset = true,
    .prepare = raft_prepare,
    .describe = raft_describe,
    .run = raft_run,
};
