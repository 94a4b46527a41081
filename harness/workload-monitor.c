/* monitor (seeds 2 and 3): N clients monitor one table with a condition
 * (default Logical_Flow with actions != "drop;"), get the initial reply and
 * then K batches of row modifications, in one of three ways:
 *   tree    every client gets its own JSON tree, built and serialized (as
 *           before the json cache);
 *   cache   the update is built once, turned into a serialized node
 *           (json_serialized_object_create) and shared: each client's
 *           message clones it (seed 2; where the impl has no serialized
 *           nodes, this is a full clone per client, the cost it removed);
 *   direct  like cache, but each row is written straight into a buffer and
 *           wrapped with json_serialized_object_create_nocopy (seed 3).
 * Messages use the monitor_cond "update2" shape.  With the full model
 * (--model full) each batch is a transaction (txn.h) whose commit fills the
 * monitor's change set (monitor-changes.h), and the update is composed from
 * the changed columns found there, as ovsdb-server does; json-only changes
 * the rows in place. */
#include <stdlib.h>
#include <string.h>

#include "condition.h"
#include "db.h"
#include "db-file.h"
#include "ds.h"
#include "json.h"
#include "jsonrpc-reply.h"
#include "monitor-changes.h"
#include "ovsdb/rng.h"
#include "ovsdb/schema.h"
#include "phases.h"
#include "util.h"
#include "workload.h"

enum monitor_mode { MODE_TREE, MODE_CACHE, MODE_DIRECT };

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
    if (strcmp(o->mode, "tree") && strcmp(o->mode, "cache")
        && strcmp(o->mode, "direct")) {
        return xasprintf("--mode: \"%s\" is not tree, cache or direct",
                         o->mode);
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
}

struct monitor {
    struct db *db;
    struct table *table;
    struct condition cond;
    enum monitor_mode mode;
    const struct column_schema *mod_column;     /* Changed by updates. */
    struct row **rows;          /* All rows, sorted by UUID. */
    struct ds out;              /* Serialized messages (a sink). */
};

/* The column the updates change: the first scalar integer column, else the
 * first scalar string column, that the condition does not test. */
static const struct column_schema *
choose_column(const struct table_schema *ts, const struct condition *cond)
{
    for (int pass = 0; pass < 2; pass++) {
        enum atomic_type want = pass ? ATOMIC_STRING : ATOMIC_INTEGER;
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

static void
send_msg(struct phases *p, struct monitor *m, struct json *msg)
{
    ds_clear(&m->out);
    json_to_ds(msg, 0, &m->out);
    json_destroy(msg);
    phases_bytes_out(p, m->out.length);
}

/* Sends 'rows' to every client in the configured mode: as the initial reply
 * if 'modified' is NULL, else as an update2 of column 'modified'. */
static void
compose_and_send(struct phases *p, struct monitor *m, int first_client,
                 int n_clients, struct row **rows, size_t n,
                 const struct column_schema *modified)
{
    const struct table_schema *ts = m->table->schema;

    if (m->mode == MODE_TREE) {
        for (int c = first_client; c < first_client + n_clients; c++) {
            struct json *tu = update2_table_updates(
                ts->name, update2_rows_tree(ts, rows, n, modified));
            send_msg(p, m, wrap(tu, c, modified));
        }
        return;
    }

    struct json *tu = update2_table_updates(
        ts->name, (m->mode == MODE_CACHE
                   ? update2_rows_tree(ts, rows, n, modified)
                   : update2_rows_direct(ts, rows, n, modified)));
    struct json *cached = json_serialized_object_create(tu);
    json_destroy(tu);
    for (int c = first_client; c < first_client + n_clients; c++) {
        send_msg(p, m, wrap(json_clone(cached), c, modified));
    }
    json_destroy(cached);
}

static void
modify_row(struct monitor *m, struct row *row, int batch, size_t i)
{
    const struct column_schema *c = m->mod_column;
    struct datum *d = &row->fields[c->index];

    if (c->type.key.type == ATOMIC_INTEGER) {
        d->keys[0].integer = d->keys[0].integer + 1;
    } else {
        json_destroy(d->keys[0].s);
        d->keys[0].s = json_string_create_nocopy(
            xasprintf("batch%d-row%zu", batch, i));
    }
}

/* One update batch in the full model: a transaction changing the rows, its
 * commit filling the change set, the update composed from that.  The rows
 * are replaced by their new versions in 'matching'. */
static char *
full_batch(struct phases *p, struct monitor *m,
           const struct workload_options *o, struct row **matching,
           size_t n_matching, size_t start, size_t stride, size_t per_batch,
           int k, struct row **batch)
{
    const struct table_schema *ts = m->table->schema;
    struct txn *txn = txn_create(m->db);

    for (size_t i = 0; i < per_batch; i++) {
        size_t idx = (start + i * stride) % n_matching;
        struct row *row = txn_modify_row(txn, m->table, matching[idx]);
        matching[idx] = row;
        row_field_unshare(row, ts, m->mod_column->index);
        modify_row(m, row, k, i);
    }

    struct monitor_changes mc;
    monitor_changes_init(&mc, m->table);
    char *error = txn_commit(txn, monitor_changes_add, &mc);
    if (!error) {
        size_t n = 0;
        for (size_t i = 0; i < mc.n; i++) {
            const struct column_schema *c
                = monitor_change_first_changed(&mc, mc.order[i]);
            if (c) {
                /* Only 'mod_column' changes, so the update names it. */
                batch[n++] = mc.order[i]->row;
            }
        }
        compose_and_send(p, m, 0, o->clients, batch, n, m->mod_column);
    }
    monitor_changes_destroy(&mc);
    return error;
}

static char *
monitor_run(struct phases *p, const struct workload_options *o)
{
    struct monitor m;
    char *error;

    memset(&m, 0, sizeof m);
    m.mode = (!strcmp(o->mode, "tree") ? MODE_TREE
              : !strcmp(o->mode, "cache") ? MODE_CACHE : MODE_DIRECT);

    error = workload_load_phase(p, o, &m.db, NULL);
    if (error) {
        return error;
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

    double cpu_s = 0;
    phases_begin(p, "initial");
    if (m.mode == MODE_TREE) {
        /* Each client's monitor evaluates its own condition. */
        struct row **mine = xmalloc((m.table->n_rows + 1) * sizeof *mine);
        for (int c = 0; c < o->clients; c++) {
            size_t n = 0;
            for (size_t i = 0; i < m.table->n_rows; i++) {
                if (condition_matches(&m.cond, m.rows[i])) {
                    mine[n++] = m.rows[i];
                }
            }
            compose_and_send(p, &m, c, 1, mine, n, NULL);
        }
        xfree(mine);
    } else {
        compose_and_send(p, &m, 0, o->clients, matching, n_matching, NULL);
    }
    phases_items(p, n_matching * o->clients);
    phases_end(p);
    const struct phase_result *r = phases_last(p);
    cpu_s += (r->end.user_s - r->start.user_s) + (r->end.sys_s
                                                  - r->start.sys_s);
    phases_counter(p, "rows_matching", n_matching);

    /* Update batches: modify 'batch_rows' random matching rows each. */
    size_t per_batch = (size_t) o->batch_rows < n_matching
                       ? (size_t) o->batch_rows : n_matching;
    struct row **batch = xmalloc((per_batch + 1) * sizeof *batch);
    struct rng rng;
    rng_init(&rng, o->seed);
    phases_begin(p, "updates");
    for (int k = 0; k < o->batches; k++) {
        double t0 = metrics_now_ms();
        /* Distinct rows, in UUID order: a strided walk from a random
         * start. */
        size_t start = rng_range(&rng, n_matching ? n_matching : 1);
        size_t stride = per_batch ? n_matching / per_batch : 1;
        if (db_model == DB_MODEL_FULL) {
            error = full_batch(p, &m, o, matching, n_matching, start,
                               stride, per_batch, k, batch);
            if (error) {
                break;
            }
        } else {
            for (size_t i = 0; i < per_batch; i++) {
                batch[i] = matching[(start + i * stride) % n_matching];
                modify_row(&m, batch[i], k, i);
            }
            compose_and_send(p, &m, 0, o->clients, batch, per_batch,
                             m.mod_column);
        }
        phases_iteration(p, metrics_now_ms() - t0);
        phases_items(p, per_batch * o->clients);
    }
    phases_end(p);
    r = phases_last(p);
    cpu_s += (r->end.user_s - r->start.user_s) + (r->end.sys_s
                                                  - r->start.sys_s);
    phases_counter(p, "cpu_after_load_s", cpu_s);
    phases_counter(p, "rows_per_batch", per_batch);
    xfree(batch);
    xfree(matching);

out:
    phases_begin(p, "free");
    xfree(m.rows);
    condition_destroy(&m.cond);
    db_destroy(m.db);
    ds_destroy(&m.out);
    phases_end(p);
    return error;
}

const struct workload workload_monitor = {
    .name = "monitor",
    .summary = "seeds 2/3: N clients monitor a table, initial + K batches",
    .help = "           --clients N (default 10), --batches K (default 5),\n"
            "           --batch-rows R rows modified per batch (default "
            "100),\n"
            "           --mode tree|cache|direct (default tree),\n"
            "           --table T (default Logical_Flow), --condition JSON\n"
            "           (default [[\"actions\",\"!=\",\"drop;\"]] for "
            "Logical_Flow,\n"
            "           else [true]); phases: load, initial, updates\n"
            "           (per-batch iterations, counter cpu_after_load_s), "
            "free\n",
    .needs_dataset = true,
    .prepare = monitor_prepare,
    .describe = monitor_describe,
    .run = monitor_run,
};
