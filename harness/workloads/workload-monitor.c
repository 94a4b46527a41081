/* monitor (seeds 2 and 3): N clients monitor one table with a condition
 * (default Logical_Flow with actions != "drop;"), get the initial reply and
 * then K batches of R row modifications, in one of four ways:
 *   tree        every client gets its own JSON tree, built and serialized:
 *               what ovsdb-server does for a monitor with a condition,
 *               which its json cache skips (ovsdb_monitor_get_update());
 *   tree-cache  the update is built once and kept as a tree in the json
 *               cache; each client's message clones it and is serialized
 *               on its own (OVS for monitors without a condition before
 *               43e66fc27: the "before" of seed 2);
 *   cache       the update is built once, turned into a serialized node
 *               (json_serialized_object_create) and shared: each client's
 *               message clones it (seed 2, 43e66fc27; where the impl has no
 *               serialized nodes, this is a full clone per client);
 *   direct      like cache, but each row is written straight into a buffer
 *               and wrapped with json_serialized_object_create_nocopy
 *               (seed 3, composed once and shared);
 *   direct-each every client gets its own update, each row written straight
 *               into a buffer as in direct: seed 3 as ovsdb-server would
 *               run it for monitors with a condition, composed per client
 *               like tree (patches/ovs/monitor-rows-to-buffer).
 * The initial reply comes from the monitor's initial change set: kept
 * (the default, OVS since 07c27226e) it is built once, for the first
 * client, kept up to date by every commit, and in the cache modes its
 * reply is composed once; per-monitor (OVS before 07c27226e) each client's
 * monitor request builds one, composes its reply from it (the json cache
 * entry goes with it) and frees it.
 * Messages use the monitor_cond "update2" shape and carry _version, as the
 * columns `ovsdb-client monitor-cond` asks for do.  The workload is the one
 * the real-OVS runner runs (python/jsonbench/realovs/workloads.py): same
 * column changed ("match" on Logical_Flow), same requests.  With the full
 * model (--model full) each batch is a JSON-RPC "transact" request text,
 * parsed and executed on a transaction (transact.h), whose commit is
 * appended to a log file as the standalone server appends it (txn-log.h)
 * and fills the monitor's change set (monitor-changes.h); the reply is
 * serialized, and
 * each client's update2 is composed from the change set with its condition
 * tested on the old and new values; the initial replies are composed from
 * the initial change set.  json-only has no change sets: it changes the
 * rows in place and composes from the rows.  Each message's text goes to
 * its client's Unix socket (--send sockets, the full model's default;
 * client-sockets.h), as jsonrpc_send() writes it; with --send print each
 * client parses and prints it as ovsdb-client does (client-print.h). */
#include <stdlib.h>
#include <string.h>

#include "server/condition.h"
#include "server/db.h"
#include "server/db-file.h"
#include "ds.h"
#include "json.h"
#include "server/jsonrpc-reply.h"
#include "clients/client-sockets.h"
#include "server/monitor-changes.h"
#include "ovsdb/out-file.h"
#include "ovsdb/rng.h"
#include "ovsdb/schema.h"
#include "ovsdb/uuid.h"
#include "measure/phases.h"
#include "server/row-version.h"
#include "measure/stats.h"
#include "server/transact.h"
#include "server/txn-log.h"
#include "util.h"
#include "workloads/workload.h"

enum monitor_mode {
    MODE_TREE, MODE_TREE_CACHE, MODE_CACHE, MODE_DIRECT, MODE_DIRECT_EACH
};

static const char *const mode_names[] = {
    "tree", "tree-cache", "cache", "direct", "direct-each",
};

/* Whether each client's messages are composed for it alone (no json
 * cache), and whether rows are written straight into a buffer. */
static bool
mode_per_client(enum monitor_mode mode)
{
    return mode == MODE_TREE || mode == MODE_DIRECT_EACH;
}

static bool
mode_direct(enum monitor_mode mode)
{
    return mode == MODE_DIRECT || mode == MODE_DIRECT_EACH;
}

/* The mode named 'name', or -1. */
static int
mode_from_name(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(mode_names); i++) {
        if (!strcmp(name, mode_names[i])) {
            return i;
        }
    }
    return -1;
}

static char *
monitor_prepare(struct workload_options *o)
{
    if (!o->clients) {
        o->clients = 10;
    }
    if (!o->batches) {
        o->batches = 5;
    }
    if (!o->batch_rows) {
        o->batch_rows = 100;
    }
    if (!o->mode) {
        o->mode = "tree";
    }
    if (mode_from_name(o->mode) < 0) {
        return xasprintf("--mode: \"%s\" is not tree, tree-cache, cache, "
                         "direct or direct-each", o->mode);
    }
    if (!o->initial) {
        o->initial = "kept";
    }
    if (strcmp(o->initial, "kept") && strcmp(o->initial, "per-monitor")) {
        return xasprintf("--initial: \"%s\" is not kept or per-monitor",
                         o->initial);
    }
    char *error = workload_check_send(o, true);
    if (error) {
        return error;
    }
    if (!o->table) {
        o->table = "Logical_Flow";
    }
    if (!o->condition) {
        o->condition = (!strcmp(o->table, "Logical_Flow")
                        ? "[[\"actions\",\"!=\",\"drop;\"]]" : "[true]");
    }
    return NULL;
}

static void
monitor_describe(const struct workload_options *o, struct ds *ds)
{
    ds_put_format(ds, " clients=%d batches=%d batch_rows=%d mode=%s table=%s "
                  "condition=%s", o->clients, o->batches, o->batch_rows,
                  o->mode, o->table, o->condition);
    if (strcmp(o->initial, "kept")) {
        ds_put_format(ds, " initial=%s", o->initial);
    }
    ds_put_format(ds, " send=%s", o->send);
}

struct monitor {
    struct db *db;
    struct table *table;
    struct condition cond;
    enum monitor_mode mode;
    const struct column_schema *mod_column;     /* Changed by updates. */
    bool per_monitor;           /* --initial per-monitor. */
    struct row **rows;          /* All rows, sorted by UUID. */
    size_t reply_bytes;         /* Full model: transact replies' bytes. */
    /* Full model, --initial kept: the initial change set, built for the
     * first client and updated by every commit. */
    struct monitor_changes init;
    bool have_init;
    struct ds *transcript;      /* --output: every message sent. */
    /* --send sockets: client c's socket is c, the transacting client's
     * is the last one. */
    struct client_sockets sockets;
    bool send;
    char *send_error;           /* The first failed send; later ones skip. */
    struct txn_log log;         /* Full model: each batch's commit. */
    bool have_log;
};

/* The column the updates change: the first scalar string column without
 * an enum ("match" on Logical_Flow, the column the real-OVS runner
 * changes), else the first unbounded scalar integer column, that the
 * condition does not test. */
static const struct column_schema *
choose_column(const struct table_schema *ts, const struct condition *cond)
{
    for (int pass = 0; pass < 2; pass++) {
        enum atomic_type want = pass ? ATOMIC_INTEGER : ATOMIC_STRING;
        for (unsigned int i = 0; i < ts->n_columns; i++) {
            const struct column_schema *c = ts->columns[i];
            bool in_cond = false;
            for (size_t j = 0; j < cond->n; j++) {
                in_cond |= cond->clauses[j].column == c;
            }
            if (!in_cond && ovsdb_type_is_scalar(&c->type)
                && c->type.key.type == want && !c->type.key.enum_
                && (want != ATOMIC_INTEGER
                    || c->type.key.u.integer.max == INT64_MAX)) {
                return c;
            }
        }
    }
    return NULL;
}

/* The message for 'client' around 'tu' (taken): the reply to its
 * monitor_cond request (its id is the client's number), or an update2. */
static struct json *
wrap(struct json *tu, int client, const struct column_schema *modified)
{
    return (modified ? update2_notification(tu)
            : jsonrpc_reply(json_integer_create(client), tu));
}

/* Serializes 'msg' (taken) as jsonrpc_send() does: into a buffer of its
 * own, the tree freed, the text written to 'client''s socket (--send
 * sockets), then the buffer freed.  (A buffer kept from message to
 * message would spare the allocator the large blocks the server takes for
 * each one.) */
static size_t
serialize_msg(struct monitor *m, struct json *msg, int client)
{
    struct ds out = DS_EMPTY_INITIALIZER;

    json_to_ds(msg, 0, &out);
    json_destroy(msg);
    size_t n = out.length;
    if (m->send && !m->send_error) {
        m->send_error = client_sockets_send(&m->sockets, client, out.string,
                                            out.length);
    }
    if (m->transcript) {
        ds_put_buffer(m->transcript, out.string, out.length);
        ds_put_char(m->transcript, '\n');
    }
    ds_destroy(&out);
    return n;
}

/* Printing clients: waits until they have printed all sent so far. */
static void
wait_printed(struct monitor *m)
{
    if (m->send && !m->send_error) {
        m->send_error = client_sockets_wait_printed(&m->sockets);
    }
}

static void
send_msg(struct phases *p, struct monitor *m, struct json *msg, int client)
{
    phases_bytes_out(p, serialize_msg(m, msg, client));
}

/* What the json cache keeps of a composed <table-updates> 'tu' (taken):
 * the tree itself (tree-cache), or its text in a serialized node. */
static struct json *
cache_entry(const struct monitor *m, struct json *tu)
{
    if (m->mode == MODE_TREE_CACHE) {
        return tu;
    }
    struct json *cached = json_serialized_object_create(tu);
    json_destroy(tu);
    return cached;
}

/* Sends 'rows' to every client in the configured mode: as the initial reply
 * if 'modified' is NULL, else as an update2 of column 'modified'. */
static void
compose_and_send(struct phases *p, struct monitor *m, int first_client,
                 int n_clients, struct row **rows, size_t n,
                 const struct column_schema *modified)
{
    const struct table_schema *ts = m->table->schema;

    bool direct = mode_direct(m->mode);

    if (mode_per_client(m->mode)) {
        for (int c = first_client; c < first_client + n_clients; c++) {
            struct json *tu = update2_table_updates(
                ts->name, (direct
                           ? update2_rows_direct(ts, rows, n, modified)
                           : update2_rows_tree(ts, rows, n, modified)));
            send_msg(p, m, wrap(tu, c, modified), c);
        }
        return;
    }

    struct json *cached = cache_entry(m, update2_table_updates(
        ts->name, (!direct
                   ? update2_rows_tree(ts, rows, n, modified)
                   : update2_rows_direct(ts, rows, n, modified))));
    for (int c = first_client; c < first_client + n_clients; c++) {
        send_msg(p, m, wrap(json_clone(cached), c, modified), c);
    }
    json_destroy(cached);
}

static void
modify_row(struct monitor *m, struct row *row, int batch, size_t i)
{
    const struct column_schema *c = m->mod_column;
    struct datum *d = &row->fields[c->index];

    if (c->type.key.type == ATOMIC_INTEGER) {
        d->keys[0].integer = batch + 1;
    } else {
        json_destroy(d->keys[0].s);
        d->keys[0].s = json_string_create_nocopy(
            xasprintf("batch%d-row%zu", batch, i));
    }
}

/* The text of batch 'k''s request, as the real-OVS runner sends it: one
 * "update" per row, naming the row by _uuid and setting the column. */
static char *
batch_request(const struct monitor *m, int k, struct row **rows, size_t n)
{
    const struct column_schema *c = m->mod_column;
    struct ds ds = DS_EMPTY_INITIALIZER;

    ds_put_format(&ds, "{\"method\":\"transact\",\"params\":[\"%s\"",
                  m->db->schema->name);
    for (size_t i = 0; i < n; i++) {
        char uuid[UUID_LEN + 1];
        uuid_format(&rows[i]->uuid, uuid);
        ds_put_format(&ds, ",{\"op\":\"update\",\"table\":\"%s\","
                      "\"where\":[[\"_uuid\",\"==\",[\"uuid\",\"%s\"]]],"
                      "\"row\":{\"%s\":", m->table->schema->name, uuid,
                      c->name);
        if (c->type.key.type == ATOMIC_INTEGER) {
            ds_put_format(&ds, "%d}}", k + 1);
        } else {
            ds_put_format(&ds, "\"batch%d-row%zu\"}}", k, i);
        }
    }
    ds_put_format(&ds, "],\"id\":%d}", k);
    return ds_steal_cstr(&ds);
}

/* The commit's callback with a kept initial change set: each changed row
 * goes into the batch's change set and the initial one, as
 * ovsdb_monitor_commit() updates every change set of the monitor. */
struct two_sets {
    struct monitor_changes *batch, *init;
};

static void
add_to_both(void *aux_, struct table *t, struct row *old, struct row *new)
{
    struct two_sets *aux = aux_;

    monitor_changes_add(aux->batch, t, old, new);
    monitor_changes_add(aux->init, t, old, new);
}

/* One update batch in the full model: the request parsed and executed,
 * its commit filling the change set, the reply serialized, then each
 * client's update2 composed from the change set and serialized. */
static char *
full_batch(struct phases *p, struct monitor *m,
           const struct workload_options *o, const char *request, int k)
{
    struct monitor_changes mc;
    struct json *reply;
    struct two_sets both = { &mc, &m->init };

    monitor_changes_init(&mc, m->table);
    /* The commit's changes go to the log record, then to the change
     * set(s), as ovsdb_txn_commit_() hands them to the storage and then
     * to the monitors. */
    if (m->have_init) {
        txn_log_begin(&m->log, add_to_both, &both);
    } else {
        txn_log_begin(&m->log, monitor_changes_add, &mc);
    }
    char *error = transact_run(m->db, request, strlen(request),
                               txn_log_change, &m->log, &reply);
    if (error) {
        txn_log_cancel(&m->log);
    } else {
        /* A fixed clock, so the record's length is the same every run. */
        error = txn_log_end(&m->log, m->db->schema, 1700000000000LL + k);
        if (error) {
            json_destroy(reply);
        }
    }
    if (!error) {
        /* The reply goes to the transacting client; bytes_out counts what
         * the monitoring clients get, the same in both models. */
        m->reply_bytes += serialize_msg(m, reply, o->clients);

        const char *table = m->table->schema->name;
        if (mode_per_client(m->mode)) {
            for (int c = 0; c < o->clients; c++) {
                struct json *rows = monitor_changes_update2(
                    &mc, &m->cond, mode_direct(m->mode));
                if (rows) {
                    send_msg(p, m, update2_notification(
                                 update2_table_updates(table, rows)), c);
                }
            }
        } else {
            struct json *rows = monitor_changes_update2(
                &mc, &m->cond, mode_direct(m->mode));
            if (rows) {
                struct json *cached = cache_entry(
                    m, update2_table_updates(table, rows));
                for (int c = 0; c < o->clients; c++) {
                    send_msg(p, m, update2_notification(json_clone(cached)),
                             c);
                }
                json_destroy(cached);
            }
        }
    }
    monitor_changes_destroy(&mc);
    return error;
}

/* The <table-updates> of one client's initial reply, composed: in the full
 * model from an initial change set (the kept one, built on first use, or
 * one of this request's own), in json-only from the rows; with the
 * client's condition tested on every row in tree mode. */
static struct json *
compose_initial(struct monitor *m, struct row **matching, size_t n_matching,
                struct row **scratch)
{
    const struct table_schema *ts = m->table->schema;
    bool direct = mode_direct(m->mode);
    struct json *rows;

    if (db_model == DB_MODEL_FULL) {
        struct monitor_changes own;
        struct monitor_changes *cs = &m->init;
        if (m->per_monitor) {
            cs = &own;
            monitor_changes_init(cs, m->table);
            monitor_changes_fill(cs, m->rows, m->table->n_rows);
        } else if (!m->have_init) {
            monitor_changes_init(cs, m->table);
            monitor_changes_fill(cs, m->rows, m->table->n_rows);
            m->have_init = true;
        }
        rows = monitor_changes_initial2(cs, &m->cond, direct);
        if (m->per_monitor) {
            monitor_changes_destroy(cs);
        }
    } else if (mode_per_client(m->mode)) {
        size_t n = 0;
        for (size_t i = 0; i < m->table->n_rows; i++) {
            if (condition_matches(&m->cond, m->rows[i])) {
                scratch[n++] = m->rows[i];
            }
        }
        rows = (direct ? update2_rows_direct(ts, scratch, n, NULL)
                : update2_rows_tree(ts, scratch, n, NULL));
    } else {
        rows = (direct ? update2_rows_direct(ts, matching, n_matching, NULL)
                : update2_rows_tree(ts, matching, n_matching, NULL));
    }
    return update2_table_updates(ts->name, rows);
}

/* The server's long poll intervals, as the real runner reads them from the
 * server's log (OVS logs those of 1 s or more): here each unit of work the
 * server does in one go -- a client's initial reply, a batch -- of 1 s or
 * more.  Counters poll_interval_{count,min,median,p95,max}_ms. */
static void
poll_interval_counters(struct phases *p, const double *units, size_t n)
{
    double *longs = xmalloc((n ? n : 1) * sizeof *longs);
    size_t n_long = 0;

    for (size_t i = 0; i < n; i++) {
        if (units[i] >= 1000.0) {
            longs[n_long++] = units[i];
        }
    }
    struct stats st;
    stats_compute(&st, longs, n_long);
    double p95 = 0;
    if (n_long) {
        /* Nearest rank, as the runner's _percentile(). */
        for (size_t i = 1; i < n_long; i++) {
            for (size_t j = i; j > 0 && longs[j - 1] > longs[j]; j--) {
                double t = longs[j];
                longs[j] = longs[j - 1];
                longs[j - 1] = t;
            }
        }
        size_t r = (size_t) (0.95 * (n_long - 1) + 0.5);
        p95 = longs[r < n_long ? r : n_long - 1];
    }
    phases_counter(p, "poll_interval_count", n_long);
    phases_counter(p, "poll_interval_min_ms", st.min);
    phases_counter(p, "poll_interval_median_ms", st.median);
    phases_counter(p, "poll_interval_p95_ms", p95);
    phases_counter(p, "poll_interval_max_ms", st.max);
    xfree(longs);
}

static char *
monitor_run(struct phases *p, const struct workload_options *o)
{
    struct monitor m;
    char *error;

    memset(&m, 0, sizeof m);
    m.mode = mode_from_name(o->mode);
    m.per_monitor = !strcmp(o->initial, "per-monitor");
    struct ds transcript = DS_EMPTY_INITIALIZER;
    if (o->output && p->repetition == 0) {
        m.transcript = &transcript;
    }

    /* Before the load, so that the reader's fork copies a small heap. */
    if (strcmp(o->send, "none")) {
        error = client_sockets_open(&m.sockets, o->clients + 1,
                                    !strcmp(o->send, "print"));
        if (error) {
            ds_destroy(&transcript);
            return error;
        }
        m.send = true;
    }

    error = workload_load_phase(p, o, &m.db, NULL);
    if (error) {
        goto close_sockets;
    }

    if (db_model == DB_MODEL_FULL) {
        error = txn_log_open(&m.log, m.db->schema->n_tables);
        if (error) {
            goto out;
        }
        m.have_log = true;
    }

    m.table = db_find_table(m.db, o->table);
    if (!m.table) {
        error = xasprintf("%s: no table \"%s\"", o->dataset, o->table);
        goto out;
    }
    error = condition_parse(&m.cond, m.table->schema, o->condition);
    if (error) {
        char *e = xasprintf("--condition: %s", error);
        xfree(error);
        error = e;
        goto out;
    }
    m.mod_column = choose_column(m.table->schema, &m.cond);
    if (!m.mod_column) {
        error = xasprintf("table %s has no scalar integer or string column "
                          "outside the condition to modify", o->table);
        goto out;
    }
    m.rows = table_sorted_rows(m.table);

    /* Matching rows, once (every client has the same condition). */
    struct row **matching = xmalloc((m.table->n_rows + 1) * sizeof *matching);
    size_t n_matching = 0;
    for (size_t i = 0; i < m.table->n_rows; i++) {
        if (condition_matches(&m.cond, m.rows[i])) {
            matching[n_matching++] = m.rows[i];
        }
    }

    /* Update batches: 'batch_rows' distinct matching rows each, in UUID
     * order, a strided walk from a random start (the real runner's
     * choice); the full model's requests are written first, as a client
     * would send them. */
    size_t per_batch = (size_t) o->batch_rows < n_matching
                       ? (size_t) o->batch_rows : n_matching;
    struct row **batch = xmalloc((per_batch + 1) * sizeof *batch);
    char **requests = xcalloc(o->batches, sizeof *requests);
    size_t *starts = xmalloc(o->batches * sizeof *starts);
    size_t stride = per_batch ? n_matching / per_batch : 1;
    struct rng rng;
    rng_init(&rng, o->seed);
    for (int k = 0; k < o->batches; k++) {
        starts[k] = rng_range(&rng, n_matching ? n_matching : 1);
        if (db_model == DB_MODEL_FULL) {
            for (size_t i = 0; i < per_batch; i++) {
                batch[i] = matching[(starts[k] + i * stride) % n_matching];
            }
            requests[k] = batch_request(&m, k, batch, per_batch);
        }
    }
    /* Units of work done in one go, for the poll-interval counters. */
    double *units = xmalloc((o->clients + o->batches + 1) * sizeof *units);
    size_t n_units = 0;
    double *batch_cpu = xmalloc((o->batches + 1) * sizeof *batch_cpu);
    size_t n_batches = 0;
    double cpu_s = 0;

    phases_begin(p, "initial");
    {
        /* Each client's monitor_cond request: its reply composed (in tree
         * mode with the client's own condition evaluated on every row), or
         * the cached one cloned; per-monitor, each request's cache entry
         * goes with its change set before the reply is sent. */
        struct row **scratch = xmalloc((m.table->n_rows + 1)
                                       * sizeof *scratch);
        struct json *cached = NULL;
        for (int c = 0; c < o->clients; c++) {
            double t0 = metrics_now_ms();
            struct json *tu;
            if (mode_per_client(m.mode)) {
                tu = compose_initial(&m, matching, n_matching, scratch);
            } else {
                if (!cached) {
                    cached = cache_entry(&m, compose_initial(
                                             &m, matching, n_matching,
                                             scratch));
                }
                tu = json_clone(cached);
                if (m.per_monitor) {
                    json_destroy(cached);
                    cached = NULL;
                }
            }
            send_msg(p, &m, wrap(tu, c, NULL), c);
            units[n_units++] = metrics_now_ms() - t0;
        }
        json_destroy(cached);
        xfree(scratch);
    }
    phases_items(p, n_matching * o->clients);
    phases_end(p);
    wait_printed(&m);
    const struct phase_result *r = phases_last(p);
    cpu_s += (r->end.user_s - r->start.user_s) + (r->end.sys_s
                                                  - r->start.sys_s);
    phases_counter(p, "rows_matching", n_matching);
    phases_counter(p, "initial_cpu_s", cpu_s);

    uint64_t versions_before = row_version_count();
    double clients_cpu0 = m.send ? client_sockets_cpu_ms(&m.sockets) : -1;
    phases_begin(p, "updates");
    for (int k = 0; k < o->batches; k++) {
        double t0 = metrics_now_ms();
        double cpu0 = metrics_cpu_ms();
        if (db_model == DB_MODEL_FULL) {
            error = full_batch(p, &m, o, requests[k], k);
            if (error) {
                break;
            }
        } else {
            for (size_t i = 0; i < per_batch; i++) {
                batch[i] = matching[(starts[k] + i * stride) % n_matching];
                modify_row(&m, batch[i], k, i);
            }
            compose_and_send(p, &m, 0, o->clients, batch, per_batch,
                             m.mod_column);
        }
        batch_cpu[n_batches++] = metrics_cpu_ms() - cpu0;
        double ms = metrics_now_ms() - t0;
        phases_iteration(p, ms);
        units[n_units++] = ms;
        phases_items(p, per_batch * o->clients);
        /* Outside the batch's figures, as the real runner waits for
         * every client's output. */
        wait_printed(&m);
    }
    phases_end(p);
    r = phases_last(p);
    double upd_s = (r->end.user_s - r->start.user_s) + (r->end.sys_s
                                                        - r->start.sys_s);
    cpu_s += upd_s;
    phases_counter(p, "updates_cpu_s", upd_s);
    phases_counter(p, "cpu_after_load_s", cpu_s);
    phases_counter(p, "rows_per_batch", per_batch);
    phases_counter(p, "clients", o->clients);
    if (db_model == DB_MODEL_FULL) {
        phases_counter(p, "transact_reply_bytes", m.reply_bytes);
        /* One per changed row: the commits' new _version UUIDs. */
        phases_counter(p, "row_versions",
                       row_version_count() - versions_before);
    }
    poll_interval_counters(p, units, n_units);
    /* The CPU of each update batch: the measure the real runner takes of
     * the server per batch, from its transact request until every client
     * has the batch's update (python/jsonbench/realovs/workloads.py).  Here
     * it is the whole batch: the request parsed and executed, the commit
     * and its change sets, the reply, then every client's update2 composed
     * and serialized. */
    phases_cpu_counters(p, batch_cpu, n_batches);
    xfree(units);
    xfree(batch_cpu);
    for (int k = 0; k < o->batches; k++) {
        xfree(requests[k]);
    }
    xfree(requests);
    xfree(starts);
    xfree(batch);
    xfree(matching);

    if (!error && m.send_error) {
        error = m.send_error;
        m.send_error = NULL;
    }
    if (m.have_log) {
        phases_counter(p, "log_records", m.log.records);
        phases_counter(p, "log_bytes", m.log.bytes);
    }
    if (m.send) {
        /* What the clients did with the updates (printing ones parse and
         * print; dropping ones only read), per batch. */
        double clients_cpu1 = client_sockets_cpu_ms(&m.sockets);
        if (clients_cpu0 >= 0 && clients_cpu1 >= 0 && o->batches) {
            phases_counter(p, "clients_cpu_per_batch_ms",
                           (clients_cpu1 - clients_cpu0) / o->batches);
        }
        phases_counter(p, "socket_writes", m.sockets.writes);
        phases_counter(p, "socket_stalls", m.sockets.stalls);
    }
    if (!error && m.transcript) {
        error = out_file_write_all(o->output, transcript.string,
                                   transcript.length);
    }

out:
    ds_destroy(&transcript);
    phases_begin(p, "free");
    if (m.have_init) {
        monitor_changes_destroy(&m.init);
    }
    xfree(m.rows);
    if (m.have_log) {
        txn_log_close(&m.log);
    }
    condition_destroy(&m.cond);
    db_destroy(m.db);
    phases_end(p);

close_sockets:
    xfree(m.send_error);
    if (m.send) {
        error = client_sockets_close(&m.sockets, error);
    }
    return error;
}

const struct workload workload_monitor = {
    .name = "monitor",
    .summary = "seeds 2/3: N clients monitor a table, initial + K batches",
    .help = "           --clients N (default 10), --batches K (default 5),\n"
            "           --batch-rows R rows modified per batch (default "
            "100),\n"
            "           --mode tree|tree-cache|cache|direct|direct-each\n"
            "           (default tree),\n"
            "           --initial kept|per-monitor: the initial change set\n"
            "           built once (default, OVS >= 07c27226e) or per client,\n"
            "           --output FILE: every message sent, one a line,\n"
            "           --send sockets|print|none: each message written\n"
            "           to its client's Unix socket, drained by a reader\n"
            "           process (sockets, default with the full model), or\n"
            "           by one that parses and prints it as a table, as\n"
            "           ovsdb-client monitor-cond does (print; the batches\n"
            "           wait for the clients, untimed), or only composed\n"
            "           (default with json-only; counters socket_writes,\n"
            "           socket_stalls, clients_cpu_per_batch_ms),\n"
            "           --table T (default Logical_Flow), --condition JSON:\n"
            "           a row matches if any clause holds (monitor_cond)\n"
            "           (default [[\"actions\",\"!=\",\"drop;\"]] for "
            "Logical_Flow,\n"
            "           else [true]); the real-OVS runner's monitor (the\n"
            "           full model parses each batch's transact request);\n"
            "           phases: load, initial (initial_cpu_s), updates\n"
            "           (per-batch iterations, updates_cpu_s, "
            "cpu_after_load_s,\n"
            "           poll_interval_*, per-batch CPU iter_cpu_{min,median,\n"
            "           mean,max}_ms; full model: transact_reply_bytes,\n"
            "           row_versions, log_records, log_bytes), free\n",
    .needs_dataset = true,
    .prepare = monitor_prepare,
    .describe = monitor_describe,
    .run = monitor_run,
};
