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
 * Messages use the monitor_cond "update2" shape. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "condition.h"
#include "db.h"
#include "db_file.h"
#include "ds.h"
#include "json.h"
#include "rng.h"
#include "schema.h"
#include "util.h"
#include "workload.h"

enum monitor_mode { MODE_TREE, MODE_CACHE, MODE_DIRECT };

static char *
monitor_prepare(struct bench_options *o)
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
monitor_describe(const struct bench_options *o, struct ds *ds)
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

/* {"<uuid>": {"<kind>": {columns}}, ...} for 'rows' as a tree.  'kind' is
 * "initial" (non-default columns) or "modify" (the changed column). */
static struct json *
rows_tree(const struct monitor *m, struct row **rows, size_t n,
          const char *kind)
{
    const struct table_schema *ts = m->table->schema;
    struct json *tu = json_object_create();
    bool initial = !strcmp(kind, "initial");

    for (size_t i = 0; i < n; i++) {
        struct json *cols;
        if (initial) {
            cols = row_to_json(rows[i], ts, false, false);
        } else {
            cols = json_object_create();
            json_object_put(cols, m->mod_column->name,
                            datum_to_json(&rows[i]->fields[
                                              m->mod_column->index],
                                          &m->mod_column->type));
        }
        struct json *update = json_object_create();
        json_object_put(update, kind, cols);
        char uuid[UUID_LEN + 1];
        uuid_format(&rows[i]->uuid, uuid);
        json_object_put(tu, uuid, update);
    }
    return tu;
}

/* The same as rows_tree(), each row written directly as text and wrapped in
 * a serialized node. */
static struct json *
rows_direct(const struct monitor *m, struct row **rows, size_t n,
            const char *kind)
{
    const struct table_schema *ts = m->table->schema;
    struct json *tu = json_object_create();
    bool initial = !strcmp(kind, "initial");

    for (size_t i = 0; i < n; i++) {
        struct ds text = DS_EMPTY_INITIALIZER;
        bool first = true;

        ds_put_format(&text, "{\"%s\":{", kind);
        for (unsigned int j = 0; j < ts->n_columns; j++) {
            const struct column_schema *c = ts->columns[j];
            const struct datum *d = &rows[i]->fields[j];
            if (initial ? datum_is_default(d, &c->type) : c != m->mod_column) {
                continue;
            }
            if (!first) {
                ds_put_char(&text, ',');
            }
            first = false;
            ds_put_format(&text, "\"%s\":", c->name);
            datum_to_ds(d, &c->type, &text);
        }
        ds_put_cstr(&text, "}}");

        char uuid[UUID_LEN + 1];
        uuid_format(&rows[i]->uuid, uuid);
        json_object_put(tu, uuid,
                        json_serialized_object_create_nocopy(
                            ds_steal_cstr(&text)));
    }
    return tu;
}

static struct json *
table_updates(const struct monitor *m, struct json *rows)
{
    struct json *tu = json_object_create();
    json_object_put(tu, m->table->schema->name, rows);
    return tu;
}

/* The message for 'client' around 'tu' (taken). */
static struct json *
wrap(struct json *tu, int client, bool initial)
{
    struct json *msg = json_object_create();

    if (initial) {
        json_object_put(msg, "id", json_integer_create(client));
        json_object_put(msg, "result", tu);
        json_object_put(msg, "error", json_null_create());
    } else {
        json_object_put(msg, "id", json_null_create());
        json_object_put_string(msg, "method", "update2");
        json_object_put(msg, "params",
                        json_array_create_2(json_string_create("monid"), tu));
    }
    return msg;
}

static void
send_msg(struct bench *b, struct monitor *m, struct json *msg)
{
    ds_clear(&m->out);
    json_to_ds(msg, 0, &m->out);
    json_destroy(msg);
    bench_phase_bytes_out(b, m->out.length);
}

/* Sends 'rows' (of kind 'kind') to every client in the configured mode. */
static void
compose_and_send(struct bench *b, struct monitor *m, int first_client,
                 int n_clients, struct row **rows, size_t n,
                 const char *kind)
{
    bool initial = !strcmp(kind, "initial");

    if (m->mode == MODE_TREE) {
        for (int c = first_client; c < first_client + n_clients; c++) {
            struct json *tu = table_updates(m, rows_tree(m, rows, n, kind));
            send_msg(b, m, wrap(tu, c, initial));
        }
        return;
    }

    struct json *tu = table_updates(m, (m->mode == MODE_CACHE
                                        ? rows_tree(m, rows, n, kind)
                                        : rows_direct(m, rows, n, kind)));
    struct json *cached = json_serialized_object_create(tu);
    json_destroy(tu);
    for (int c = first_client; c < first_client + n_clients; c++) {
        send_msg(b, m, wrap(json_clone(cached), c, initial));
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

static char *
monitor_run(struct bench *b, const struct bench_options *o)
{
    struct monitor m;
    char *error;

    memset(&m, 0, sizeof m);
    m.mode = (!strcmp(o->mode, "tree") ? MODE_TREE
              : !strcmp(o->mode, "cache") ? MODE_CACHE : MODE_DIRECT);

    error = workload_load_phase(b, o, &m.db, NULL);
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
        free(error);
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
    bench_phase_begin(b, "initial");
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
            compose_and_send(b, &m, c, 1, mine, n, "initial");
        }
        free(mine);
    } else {
        compose_and_send(b, &m, 0, o->clients, matching, n_matching,
                         "initial");
    }
    bench_phase_items(b, n_matching * o->clients);
    bench_phase_end(b);
    const struct phase_result *r = bench_last(b);
    cpu_s += (r->end.user_s - r->start.user_s) + (r->end.sys_s
                                                  - r->start.sys_s);
    bench_counter(b, "rows_matching", n_matching);

    /* Update batches: modify 'batch_rows' random matching rows each. */
    size_t per_batch = (size_t) o->batch_rows < n_matching
                       ? (size_t) o->batch_rows : n_matching;
    struct row **batch = xmalloc((per_batch + 1) * sizeof *batch);
    struct rng rng;
    rng_init(&rng, o->seed);
    bench_phase_begin(b, "updates");
    for (int k = 0; k < o->batches; k++) {
        double t0 = bench_now_ms();
        /* Distinct rows, in UUID order: a strided walk from a random
         * start. */
        size_t start = rng_range(&rng, n_matching ? n_matching : 1);
        size_t stride = per_batch ? n_matching / per_batch : 1;
        for (size_t i = 0; i < per_batch; i++) {
            batch[i] = matching[(start + i * stride) % n_matching];
            modify_row(&m, batch[i], k, i);
        }
        compose_and_send(b, &m, 0, o->clients, batch, per_batch, "modify");
        bench_phase_iteration(b, bench_now_ms() - t0);
        bench_phase_items(b, per_batch * o->clients);
    }
    bench_phase_end(b);
    r = bench_last(b);
    cpu_s += (r->end.user_s - r->start.user_s) + (r->end.sys_s
                                                  - r->start.sys_s);
    bench_counter(b, "cpu_after_load_s", cpu_s);
    bench_counter(b, "rows_per_batch", per_batch);
    free(batch);
    free(matching);

out:
    bench_phase_begin(b, "free");
    free(m.rows);
    condition_destroy(&m.cond);
    db_destroy(m.db);
    ds_destroy(&m.out);
    bench_phase_end(b);
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
