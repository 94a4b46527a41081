/* raft (seed 2): the leader of a 3-server cluster, keeping its log as
 * ovsdb-server's raft.c keeps it, while it runs the real-OVS runner's raft
 * workload (python/jsonbench/realovs/workloads.py): the cluster starts from
 * the dataset (the snapshot its file holds), then E clients' transactions,
 * each one insert into Address_Set, go through the log to F followers.
 *
 * Per log entry the leader keeps what struct raft_entry holds: term, the
 * data as a parsed tree and/or a serialized node, eid, servers, election
 * timer; per follower what struct raft_server holds on a leader (sid,
 * address, nickname, next and match index, replied).  Per transaction: the
 * request parsed, the entry appended and written to the log file (record
 * header with SHA-1), an append_request serialized for each follower, each
 * follower's append_reply parsed, the commit index advanced once a
 * majority has the entry, the committed entry read back and applied to the
 * database (as ovsdb_storage_read() hands it to the server), and the
 * client's reply serialized.  --mode tree is raft before OVS commit
 * 0de882954: data kept as trees, cloned into every message and serialized
 * there, the snapshot's tree kept for the server's life; --mode serialized
 * is raft since: the data serialized once and kept in that form, the tree
 * freed once the server has read it (the snapshot's at start, each entry's
 * at commit).  Followers themselves are not modelled (the real runner
 * measures them in their own processes).
 *
 * Phases: load (the database), build_log (the snapshot the leader keeps
 * after reading its file: counters retained_log_*), send (one iteration
 * per transaction), free. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "server/db.h"
#include "server/db-file.h"
#include "ds.h"
#include "json.h"
#include "server/jsonrpc-reply.h"
#include "ovsdb/record.h"
#include "ovsdb/rng.h"
#include "ovsdb/uuid.h"
#include "measure/phases.h"
#include "server/txn.h"
#include "util.h"
#include "workloads/workload.h"
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
    uint64_t term;
    struct json *full_json;     /* Parsed data, while kept. */
    struct json *serialized;    /* The data as a serialized node. */
    struct uuid eid;
    struct json *servers;       /* Configuration entries only. */
    uint64_t election_timer;
};

/* What a leader keeps per follower (the leader's part of struct
 * raft_server). */
struct raft_follower {
    struct uuid sid;
    char *address;
    char *nickname;
    uint64_t next_index;
    uint64_t match_index;
    bool replied;
};

struct raft_leader {
    bool serialized;            /* --mode serialized: since 0de882954. */
    uint64_t term;
    struct raft_entry snap;     /* The snapshot the log starts after. */
    uint64_t log_start;         /* Index of entries[0]. */
    struct raft_entry *entries;
    size_t n_entries, allocated;
    uint64_t commit_index;
    struct raft_follower *followers;
    int n_followers;
    struct ds log_file;         /* Records written (a sink). */
    uint64_t log_bytes;
    struct ds out;              /* Messages sent (a sink). */
};

static void
entry_serialize(struct raft_entry *e)
{
    if (!e->serialized && e->full_json) {
        e->serialized = json_serialized_object_create(e->full_json);
    }
}

/* The data as a message carries it: since 0de882954 the serialized node
 * (made once), before it a clone of the tree. */
static struct json *
entry_data(struct raft_leader *l, struct raft_entry *e)
{
    if (l->serialized) {
        entry_serialize(e);
        return json_clone(e->serialized);
    }
    return json_clone(e->full_json);
}

/* The data the server reads once the entry is committed (ovsdb_storage_read):
 * since 0de882954 the tree is taken from the entry, which keeps only the
 * serialized form; before it a clone of the tree the entry keeps. */
static struct json *
entry_read(struct raft_leader *l, struct raft_entry *e)
{
    if (l->serialized) {
        entry_serialize(e);
        struct json *data = e->full_json;
        e->full_json = NULL;
        return data;
    }
    return json_clone(e->full_json);
}

static void
entry_destroy(struct raft_entry *e)
{
    json_destroy(e->full_json);
    json_destroy(e->serialized);
    json_destroy(e->servers);
}

static struct json *
entry_to_json(struct raft_leader *l, struct raft_entry *e, uint64_t index)
{
    char eid[UUID_LEN + 1];
    struct json *json = json_object_create();

    json_object_put(json, "term", json_integer_create(e->term));
    if (index) {
        json_object_put(json, "index", json_integer_create(index));
    }
    json_object_put(json, "data", entry_data(l, e));
    uuid_format(&e->eid, eid);
    json_object_put_string(json, "eid", eid);
    if (e->servers) {
        json_object_put(json, "servers", json_clone(e->servers));
    }
    if (e->election_timer) {
        json_object_put(json, "election_timer",
                        json_integer_create(e->election_timer));
    }
    return json;
}

/* {"<sid>": "<address>", ...}: the cluster's configuration. */
static struct json *
servers_json(const struct raft_follower *self,
             const struct raft_follower *f, int n)
{
    struct json *servers = json_object_create();
    char sid[UUID_LEN + 1];

    uuid_format(&self->sid, sid);
    json_object_put_string(servers, sid, self->address);
    for (int i = 0; i < n; i++) {
        uuid_format(&f[i].sid, sid);
        json_object_put_string(servers, sid, f[i].address);
    }
    return servers;
}

static void
send_json(struct phases *p, struct raft_leader *l, struct json *msg)
{
    ds_clear(&l->out);
    json_to_ds(msg, 0, &l->out);
    json_destroy(msg);
    phases_bytes_out(p, l->out.length);
}

static struct json *
append_request(struct raft_leader *l, const struct raft_follower *f,
               uint64_t index)
{
    struct raft_entry *e = &l->entries[index - l->log_start];
    char sid[UUID_LEN + 1];
    struct json *args = json_object_create();

    json_object_put_string(args, "cluster",
                           "1b4a8e6c-0c1b-4a4e-9a8c-000000000001");
    uuid_format(&f->sid, sid);
    json_object_put_string(args, "to", sid);
    json_object_put(args, "term", json_integer_create(l->term));
    json_object_put(args, "prev_log_index", json_integer_create(index - 1));
    json_object_put(args, "prev_log_term", json_integer_create(l->term));
    json_object_put(args, "leader_commit",
                    json_integer_create(l->commit_index));
    json_object_put(args, "log",
                    json_array_create_1(entry_to_json(l, e, 0)));

    struct json *msg = json_object_create();
    json_object_put_string(msg, "method", "append_request");
    json_object_put(msg, "params", json_array_create_1(args));
    json_object_put(msg, "id", json_null_create());
    return msg;
}

/* The text of follower 'f''s reply to the request for 'index'. */
static char *
append_reply_text(const struct raft_follower *f, uint64_t term,
                  uint64_t index)
{
    char sid[UUID_LEN + 1];

    uuid_format(&f->sid, sid);
    return xasprintf("{\"method\":\"append_reply\",\"params\":[{"
                     "\"cluster\":\"1b4a8e6c-0c1b-4a4e-9a8c-000000000001\","
                     "\"from\":\"%s\",\"term\":%"PRIu64","
                     "\"log_end\":%"PRIu64",\"prev_log_index\":%"PRIu64","
                     "\"prev_log_term\":%"PRIu64",\"n_entries\":1,"
                     "\"result\":\"success\"}],\"id\":null}",
                     sid, term, index + 1, index - 1, term);
}

/* The leader takes one follower's reply: parsed, its follower's indexes
 * moved on.  Returns NULL or an error. */
static char *
take_reply(struct raft_leader *l, const char *text)
{
    char *error = NULL;
    struct json *msg = json_parse_buffer(text, strlen(text), &error);
    if (!msg) {
        return error;
    }
    const struct json *params = json_object_get(msg, "params");
    const struct json *args = params ? json_array_at(params, 0) : NULL;
    const struct json *from = args ? json_object_get(args, "from") : NULL;
    const struct json *end = args ? json_object_get(args, "log_end") : NULL;
    struct uuid sid;
    if (!from || !end || !uuid_from_string(&sid, json_string(from))) {
        json_destroy(msg);
        return xstrdup("raft: malformed append_reply");
    }
    for (int i = 0; i < l->n_followers; i++) {
        struct raft_follower *f = &l->followers[i];
        if (uuid_equals(&f->sid, &sid)) {
            f->match_index = json_integer(end) - 1;
            f->next_index = json_integer(end);
            f->replied = true;
        }
    }
    json_destroy(msg);
    return NULL;
}

/* Commits every entry a majority (the leader and half the followers) has,
 * and applies each to the database as the server reads it. */
static char *
advance_commit(struct raft_leader *l, struct db *db, uint64_t log_end)
{
    for (uint64_t idx = l->commit_index + 1; idx < log_end; idx++) {
        int have = 1;
        for (int i = 0; i < l->n_followers; i++) {
            have += l->followers[i].match_index >= idx;
        }
        if (have * 2 <= l->n_followers + 1) {
            break;
        }
        l->commit_index = idx;
        struct json *data = entry_read(l, &l->entries[idx - l->log_start]);
        const struct json *txn = json_array_at(data, 1);
        char *error = (db_model == DB_MODEL_FULL
                       ? txn_apply_record(db, txn)
                       : db_apply_record(db, txn));
        json_destroy(data);
        if (error) {
            return error;
        }
    }
    return NULL;
}

/* One client transaction through the leader: 'request' inserts one row
 * into Address_Set. */
static char *
raft_transact(struct phases *p, struct raft_leader *l, struct db *db,
              const char *request, struct rng *rng)
{
    char *error = NULL;
    struct json *msg = json_parse_buffer(request, strlen(request), &error);
    if (!msg) {
        return error;
    }
    const struct json *params = json_object_get(msg, "params");
    const struct json *op = json_array_at(params, 1);
    const struct json *row = json_object_get(op, "row");
    const char *table = json_string(json_object_get(op, "table"));

    /* The transaction's data, as ovsdb_file_txn_to_json() writes it: the
     * inserted row under its new UUID; null: no schema change. */
    struct uuid uuid;
    char uuid_s[UUID_LEN + 1];
    uuid_generate(&uuid, rng);
    uuid_format(&uuid, uuid_s);
    struct json *rows = json_object_create();
    json_object_put(rows, uuid_s, json_clone(row));
    struct json *txn = json_object_create();
    json_object_put(txn, table, rows);

    /* Append, write to the log file, send to every follower. */
    if (l->n_entries >= l->allocated) {
        l->allocated = l->allocated * 2 + 16;
        l->entries = xrealloc_as(XALLOC_MODEL, l->entries,
                                 l->allocated * sizeof *l->entries);
    }
    uint64_t index = l->log_start + l->n_entries;
    struct raft_entry *e = &l->entries[l->n_entries++];
    memset(e, 0, sizeof *e);
    e->term = l->term;
    e->full_json = json_array_create_2(json_null_create(), txn);
    uuid_generate(&e->eid, rng);

    struct json *rec = entry_to_json(l, e, index);
    char *text = json_to_string(rec, 0);
    json_destroy(rec);
    ds_clear(&l->log_file);
    ovsdb_record_to_ds(text, strlen(text), &l->log_file);
    l->log_bytes += l->log_file.length;
    xfree(text);

    for (int i = 0; i < l->n_followers; i++) {
        send_json(p, l, append_request(l, &l->followers[i], index));
    }
    for (int i = 0; i < l->n_followers && !error; i++) {
        char *reply = append_reply_text(&l->followers[i], l->term, index);
        error = take_reply(l, reply);
        xfree(reply);
    }
    if (!error) {
        error = advance_commit(l, db, index + 1);
    }
    if (!error) {
        send_json(p, l, insert_reply(json_object_get(msg, "id"), &uuid));
    }
    json_destroy(msg);
    return error;
}

static void
leader_init(struct raft_leader *l, const struct workload_options *o,
            struct rng *rng)
{
    memset(l, 0, sizeof *l);
    l->serialized = !strcmp(o->mode, "serialized");
    l->term = 1;
    l->n_followers = o->followers;
    l->followers = xcalloc_as(XALLOC_MODEL, l->n_followers + 1,
                              sizeof *l->followers);
    for (int i = 0; i <= l->n_followers; i++) {
        /* The last one is the leader itself, for the configuration. */
        struct raft_follower *f = &l->followers[i];
        uuid_generate(&f->sid, rng);
        f->address = xasprintf("unix:s%d.raft", i);
        f->nickname = xasprintf("%04x(s%d)", (unsigned int) (f->sid.parts[0]
                                                             >> 16), i);
    }
    ds_init(&l->log_file);
    ds_init(&l->out);
}

static void
leader_destroy(struct raft_leader *l)
{
    entry_destroy(&l->snap);
    for (size_t i = 0; i < l->n_entries; i++) {
        entry_destroy(&l->entries[i]);
    }
    xfree(l->entries);
    for (int i = 0; i <= l->n_followers; i++) {
        xfree(l->followers[i].address);
        xfree(l->followers[i].nickname);
    }
    xfree(l->followers);
    ds_destroy(&l->log_file);
    ds_destroy(&l->out);
}

static char *
raft_run(struct phases *p, const struct workload_options *o)
{
    struct db *db;
    char *error = workload_load_phase(p, o, &db, NULL);
    if (error) {
        return error;
    }
    struct table *t = db_find_table(db, "Address_Set");
    if (!t || !table_schema_find_column(t->schema, "name")) {
        db_destroy(db);
        return xasprintf("%s: raft inserts into Address_Set (name), which "
                         "the database lacks (NB and SB have it)",
                         o->dataset);
    }

    struct rng rng;
    rng_init(&rng, o->seed);
    struct raft_leader l;
    leader_init(&l, o, &rng);

    /* The cluster file's snapshot, as written when the cluster was
     * created from the dataset: the database's contents. */
    struct json *snap = json_array_create_2(json_null_create(),
                                            snapshot_record(db));
    char *snap_text = json_to_string(snap, 0);
    json_destroy(snap);
    /* The clients' requests, as the real runner sends them. */
    char **requests = xmalloc((o->entries + 1) * sizeof *requests);
    for (int k = 0; k < o->entries; k++) {
        requests[k] = xasprintf(
            "{\"method\":\"transact\",\"params\":[\"%s\",{\"op\":"
            "\"insert\",\"table\":\"Address_Set\",\"row\":{\"name\":"
            "\"jsonbench-raft-%d\"}}],\"id\":%d}", db->schema->name, k, k);
    }

    /* The leader reads its file: the snapshot parsed; the server reads it
     * (since 0de882954 the tree goes, its serialized form stays). */
    phases_begin(p, "build_log");
    l.snap.term = l.term;
    l.snap.full_json = json_parse_buffer(snap_text, strlen(snap_text),
                                         &error);
    if (l.snap.full_json) {
        uuid_generate(&l.snap.eid, &rng);
        l.snap.servers = servers_json(&l.followers[l.n_followers],
                                      l.followers, l.n_followers);
        l.snap.election_timer = 1000;
        if (l.serialized) {
            json_destroy(entry_read(&l, &l.snap));
        }
    }
    l.log_start = 2;            /* The snapshot is index 1. */
    l.commit_index = 1;
    for (int i = 0; i < l.n_followers; i++) {
        l.followers[i].next_index = l.followers[i].match_index = 1;
    }
    phases_bytes_out(p, strlen(snap_text));
    phases_items(p, 1);
    phases_end(p);
    const struct phase_result *r = phases_last(p);
    phases_counter(p, "retained_log_heap_bytes",
                   (double) r->end.heap_allocated - r->start.heap_allocated);
    phases_counter(p, "retained_log_rss_bytes",
                   (double) r->end.rss_bytes - r->start.rss_bytes);
    phases_counter(p, "retained_log_alloc_bytes",
                   (double) (r->end.alloc.bytes - r->start.alloc.bytes));
    xfree(snap_text);

    if (!error) {
        phases_begin(p, "send");
        for (int k = 0; k < o->entries && !error; k++) {
            double t0 = metrics_now_ms();
            error = raft_transact(p, &l, db, requests[k], &rng);
            phases_iteration(p, metrics_now_ms() - t0);
        }
        phases_items(p, (uint64_t) o->entries * o->followers);
        phases_end(p);
        phases_counter(p, "log_bytes", l.log_bytes);
        phases_counter(p, "commit_index", l.commit_index);
    }
    for (int k = 0; k < o->entries; k++) {
        xfree(requests[k]);
    }
    xfree(requests);

    phases_begin(p, "free");
    leader_destroy(&l);
    db_destroy(db);
    phases_end(p);
    return error;
}

const struct workload workload_raft = {
    .name = "raft",
    .summary = "seed 2: a raft leader's log as OVS keeps it, E inserts "
               "to F followers",
    .help = "           --entries E (default 100), --followers F (default "
            "2),\n"
            "           --mode tree|serialized (default tree: before OVS "
            "0de882954;\n"
            "           serialized: since); the dataset needs Address_Set;\n"
            "           phases: load, build_log (the snapshot kept: counters\n"
            "           retained_log_*), send (one iteration per insert; "
            "log_bytes,\n"
            "           commit_index), free\n",
    .needs_dataset = true,
    .prepare = raft_prepare,
    .describe = raft_describe,
    .run = raft_run,
};
