/* monitor-cond-change: --held M clients each hold a monitor_cond on the
 * Southbound tables ovn-controller conditions by datapath (default
 * Port_Binding and Logical_Flow), "where" one clause per datapath the
 * client wants, then every client changes its condition --changes K times
 * (monitor_cond_change: the local datapaths of a chassis come and go).
 * Every request is a JSON-RPC text parsed and served as ovsdb-server
 * serves it (ovsdb/jsonrpc-server.c, ovsdb/monitor.c):
 *
 *   - monitor_cond: the client's condition is parsed for each table; its
 *     initial reply is composed for it alone from the monitor's initial
 *     change set (built by the first request and kept), its condition
 *     tested on every row;
 *   - monitor_cond_change: the monitor is found by its id, the new
 *     condition parsed; for each table whose condition changed every row
 *     of the table is tested against the old and the new condition and the
 *     rows that enter are sent as "insert", the rows that leave as
 *     "delete" (monitor-cond-change.h), in an "update2" notification before
 *     the empty reply.
 *
 * A monitor_cond condition holds if any clause does.  The condition of
 * client c in round r (r = 0: the monitor_cond request) lists the
 * Datapath_Binding rows, sorted by UUID, at (c * W + r + j) mod n for
 * j < min(W, n), W = --datapaths: each change drops one datapath and adds
 * the next.  On each table the clause tests the alphabetically first
 * column that refers to Datapath_Binding ("==", or "includes" for a set
 * of more than one); a table with a column that refers to Logical_DP_Group
 * (Logical_Flow's logical_dp_group) also gets one clause per group, sorted
 * by UUID, that holds one of the client's datapaths, as older
 * ovn-controller releases ask for the flows of their datapaths' groups
 * (newer ones ask for every flow of any group with one clause,
 * logical_dp_group != [], which does not change).  Messages go to client
 * sockets (--send sockets, the full model's default; client-sockets.h).
 * Phases: load, held (the M requests), change (the M * K changes: one
 * iteration each, their CPU as iter_cpu_*_ms and cpu_per_change_ms;
 * rows_inserted, rows_deleted, rows_tested, updates), free.  The same
 * workload on a real server: realovs/condchange.py. */
#include <stdlib.h>
#include <string.h>

#include "clients/client-sockets.h"
#include "ds.h"
#include "json.h"
#include "measure/metrics.h"
#include "measure/phases.h"
#include "ovsdb/schema.h"
#include "ovsdb/uuid.h"
#include "server/condition.h"
#include "server/db.h"
#include "server/jsonrpc-reply.h"
#include "server/jsonrpc-send.h"
#include "server/monitor-changes.h"
#include "server/monitor-cond-change.h"
#include "shash.h"
#include "util.h"
#include "workloads/workload.h"

#define SCOPE_TABLE "Datapath_Binding"
/* Groups of datapaths that rows may refer to instead of one datapath. */
#define GROUP_TABLE "Logical_DP_Group"

static char *
cc_prepare(struct workload_options *o)
{
    if (!o->held) {
        o->held = 100;
    }
    if (!o->changes) {
        o->changes = 1;
    }
    if (!o->datapaths) {
        o->datapaths = 4;
    }
    if (!o->table) {
        o->table = "Port_Binding,Logical_Flow";
    }
    return workload_check_send(o, false);
}

static void
cc_describe(const struct workload_options *o, struct ds *ds)
{
    ds_put_format(ds, " held=%d changes=%d datapaths=%d table=%s send=%s",
                  o->held, o->changes, o->datapaths, o->table, o->send);
}

/* A monitored table: the column its clauses test, the one its group
 * clauses test (NULL if none) and, in the full model, the kept initial
 * change set. */
struct cc_table {
    struct table *table;
    const struct column_schema *column;
    const struct column_schema *group_column;
    struct monitor_changes init;
    bool have_init;
};

/* A client's monitor: its id and its condition on each table. */
struct cc_client {
    struct json *monitor_id;
    struct condition *conds;    /* Parallel to the tables; NULL until held. */
};

struct cc {
    struct db *db;
    struct cc_table *tables;
    size_t n_tables;
    struct cc_client *clients;
    int n_clients;
    struct client_sockets sockets;
    bool send;
    char *send_error;
    unsigned long long initial_rows, updates;
    struct cond_change_counts counts;
};

/* The GROUP_TABLE rows sorted by UUID and their column that lists
 * SCOPE_TABLE rows: what a client's group clauses are chosen from. */
struct cc_groups {
    struct row **rows;
    size_t n;
    const struct column_schema *column;
};

/* The column of 'ts' its clauses on 'ref' rows test: the alphabetically
 * first one whose key refers to 'ref', or NULL. */
static const struct column_schema *
ref_column(const struct table_schema *ts, const char *ref_table)
{
    const struct column_schema *best = NULL;

    for (unsigned int i = 0; i < ts->n_columns; i++) {
        const struct column_schema *c = ts->columns[i];
        const char *ref = c->type.key.u.uuid.ref_table_name;
        if (c->type.key.type == ATOMIC_UUID && ref
            && !strcmp(ref, ref_table)
            && (!best || strcmp(c->name, best->name) < 0)) {
            best = c;
        }
    }
    return best;
}

/* The monitored tables of --table, each with its column.  Returns NULL or
 * a malloc'd error. */
static char *
resolve_tables(struct cc *s, const char *spec)
{
    char *copy = xstrdup(spec);
    char *save = NULL;
    char *error = NULL;

    s->tables = xcalloc(strlen(spec) + 1, sizeof *s->tables);
    for (char *name = strtok_r(copy, ",", &save); name && !error;
         name = strtok_r(NULL, ",", &save)) {
        struct table *t = db_find_table(s->db, name);
        const struct column_schema *c = (t ? ref_column(t->schema,
                                                        SCOPE_TABLE)
                                         : NULL);
        if (!t) {
            error = xasprintf("--table: no table \"%s\"", name);
        } else if (!c) {
            error = xasprintf("--table: %s has no column that refers to "
                              SCOPE_TABLE, name);
        } else {
            s->tables[s->n_tables].table = t;
            s->tables[s->n_tables].group_column = ref_column(t->schema,
                                                             GROUP_TABLE);
            s->tables[s->n_tables++].column = c;
        }
    }
    xfree(copy);
    return error;
}

/* Appends to 'ds' one clause on 'col' per row of 'rows' ("==", or
 * "includes" for a set of more than one): the first after 'sep', the
 * others after a comma. */
static void
put_clauses(struct ds *ds, const struct column_schema *col,
            struct row **rows, size_t n, const char *sep)
{
    const char *function = col->type.n_max > 1 ? "includes" : "==";

    for (size_t i = 0; i < n; i++) {
        char uuid[UUID_LEN + 1];
        uuid_format(&rows[i]->uuid, uuid);
        ds_put_format(ds, "%s[\"%s\",\"%s\",[\"uuid\",\"%s\"]]",
                      i ? "," : sep, col->name, function, uuid);
    }
}

/* The rows of 'g' that list one of the 'n' datapaths 'dps', into 'out'
 * (room for g->n); returns how many: the groups whose flows an older
 * ovn-controller monitors. */
static size_t
local_groups(const struct cc_groups *g, struct row **dps, size_t n,
             struct row **out)
{
    size_t n_out = 0;

    for (size_t i = 0; i < g->n; i++) {
        const struct datum *d = &g->rows[i]->fields[g->column->index];
        for (size_t j = 0; j < n; j++) {
            union atom dp = { .uuid = dps[j]->uuid };
            if (datum_find_key(d, &dp, ATOMIC_UUID) != (unsigned int) -1) {
                out[n_out++] = g->rows[i];
                break;
            }
        }
    }
    return n_out;
}

/* Appends client 'c''s request for round 'round': a monitor_cond in round
 * 0, else a monitor_cond_change, its condition on every table over the
 * datapaths of the round and, on tables that refer to groups, the groups
 * that hold one of them. */
static char *
request_text(const struct cc *s, const struct workload_options *o,
             struct row **dps, size_t n_dps, const struct cc_groups *g,
             int c, int round)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    size_t width = ((size_t) o->datapaths < n_dps
                    ? (size_t) o->datapaths : n_dps);
    struct row **mine = xmalloc((width + g->n + 1) * sizeof *mine);
    struct row **groups = mine + width;

    for (size_t j = 0; j < width; j++) {
        mine[j] = dps[((size_t) c * o->datapaths + round + j) % n_dps];
    }
    size_t n_groups = local_groups(g, mine, width, groups);

    if (!round) {
        ds_put_format(&ds, "{\"method\":\"monitor_cond\",\"params\":[\"%s\","
                      "\"cc%d\",{", s->db->schema->name, c);
    } else {
        ds_put_format(&ds, "{\"method\":\"monitor_cond_change\",\"params\":"
                      "[\"cc%d\",\"cc%d\",{", c, c);
    }
    for (size_t i = 0; i < s->n_tables; i++) {
        const struct cc_table *t = &s->tables[i];
        ds_put_format(&ds, "%s\"%s\":[{\"where\":[", i ? "," : "",
                      t->table->schema->name);
        put_clauses(&ds, t->column, mine, width, "");
        if (t->group_column) {
            put_clauses(&ds, t->group_column, groups, n_groups,
                        width ? "," : "");
        }
        ds_put_cstr(&ds, "]}]");
    }
    ds_put_format(&ds, "}],\"id\":%lld}",
                  (long long) round * s->n_clients + c);
    xfree(mine);
    return ds_steal_cstr(&ds);
}

/* The groups in 'g', if a monitored table has group clauses and the
 * database groups datapaths; else none. */
static void
load_groups(const struct cc *s, struct cc_groups *g)
{
    struct table *t = db_find_table(s->db, GROUP_TABLE);
    bool wanted = false;

    for (size_t i = 0; i < s->n_tables; i++) {
        wanted |= s->tables[i].group_column != NULL;
    }
    g->column = t ? ref_column(t->schema, SCOPE_TABLE) : NULL;
    if (wanted && g->column) {
        g->rows = table_sorted_rows(t);
        g->n = t->n_rows;
    }
}

/* Client 'c''s requests, written first, as the clients would send them:
 * '*textsp' gets (K + 1) * M texts, round by round.  Returns NULL or a
 * malloc'd error. */
static char *
write_requests(const struct cc *s, const struct workload_options *o,
               char ***textsp)
{
    struct table *scope = db_find_table(s->db, SCOPE_TABLE);
    if (!scope || !scope->n_rows) {
        return xasprintf("monitor-cond-change needs rows in "
                         SCOPE_TABLE);
    }
    struct row **dps = table_sorted_rows(scope);
    struct cc_groups g = { .rows = NULL };
    load_groups(s, &g);
    size_t n = (size_t) (o->changes + 1) * o->held;
    char **texts = xcalloc(n, sizeof *texts);
    for (int r = 0; r <= o->changes; r++) {
        for (int c = 0; c < o->held; c++) {
            texts[(size_t) r * o->held + c] = request_text(s, o, dps,
                                                           scope->n_rows,
                                                           &g, c, r);
        }
    }
    xfree(g.rows);
    xfree(dps);
    *textsp = texts;
    return NULL;
}

/* Parses the {TABLE: [{"where": W}], ...} of request 'text' into one
 * condition per monitored table in 'conds' (unset ones stay empty and
 * 'given[i]' false).  Checks method and params; '*paramsp' and '*idp' point
 * into '*reqp', which the caller destroys.  Returns NULL or a malloc'd
 * error. */
static char *
parse_request(const struct cc *s, const char *text, const char *method,
              struct json **reqp, const struct json **paramsp,
              struct condition *conds, bool *given)
{
    char *error = NULL;
    struct json *req = json_parse_buffer(text, strlen(text), &error);
    if (!req) {
        return error;
    }
    *reqp = req;
    const struct json *m = json_object_get(req, "method");
    const struct json *params = json_object_get(req, "params");
    if (!m || json_get_type(m) != JSON_STRING
        || strcmp(json_string(m), method)
        || !params || json_get_type(params) != JSON_ARRAY
        || json_array_size(params) != 3
        || json_get_type(json_array_at(params, 2)) != JSON_OBJECT
        || !json_object_get(req, "id")) {
        return xasprintf("not a %s request", method);
    }
    *paramsp = params;

    const struct json *reqs = json_array_at(params, 2);
    for (size_t i = 0; i < s->n_tables && !error; i++) {
        const struct table_schema *ts = s->tables[i].table->schema;
        const struct json *r = json_object_get(reqs, ts->name);
        given[i] = r != NULL;
        if (!r) {
            continue;
        }
        if (json_get_type(r) == JSON_ARRAY && json_array_size(r) == 1) {
            r = json_array_at(r, 0);
        }
        const struct json *where = (json_get_type(r) == JSON_OBJECT
                                    ? json_object_get(r, "where") : NULL);
        if (!where) {
            error = xasprintf("table %s: no \"where\"", ts->name);
            break;
        }
        error = condition_from_json(&conds[i], ts, where, CONDITION_MONITOR);
        if (error) {
            char *e = xasprintf("table %s: %s", ts->name, error);
            xfree(error);
            error = e;
            given[i] = false;
            break;
        }
    }
    if (!error && shash_count(json_object(reqs)) != s->n_tables) {
        error = xasprintf("the request's tables are not the monitored ones");
    }
    if (error) {
        for (size_t i = 0; i < s->n_tables; i++) {
            if (given[i]) {
                condition_destroy(&conds[i]);
            }
        }
    }
    return error;
}

/* The initial <table-updates2> of a client with conditions 'conds': the
 * rows of each table that match, from the kept initial change set in the
 * full model, from the rows in json-only. */
static struct json *
compose_initial(struct cc *s, const struct condition *conds)
{
    struct json *tu = json_object_create();

    for (size_t i = 0; i < s->n_tables; i++) {
        struct cc_table *mt = &s->tables[i];
        const struct table_schema *ts = mt->table->schema;
        struct row **all = NULL;
        struct json *rows;
        if (db_model == DB_MODEL_FULL) {
            if (!mt->have_init) {
                all = table_sorted_rows(mt->table);
                monitor_changes_init(&mt->init, mt->table);
                monitor_changes_fill(&mt->init, all, mt->table->n_rows);
                mt->have_init = true;
            }
            rows = monitor_changes_initial2(&mt->init, &conds[i], false);
        } else {
            all = table_sorted_rows(mt->table);
            size_t n = 0;
            for (size_t j = 0; j < mt->table->n_rows; j++) {
                if (condition_matches(&conds[i], all[j])) {
                    all[n++] = all[j];
                }
            }
            rows = n ? update2_rows_tree(ts, all, n, NULL) : NULL;
        }
        xfree(all);
        if (rows && !json_object_is_empty(rows)) {
            s->initial_rows += shash_count(json_object(rows));
            json_object_put(tu, ts->name, rows);
        } else {
            json_destroy(rows);
        }
    }
    return tu;
}

/* Sends 'msg' (taken) to client 'c' (or only counts it without sockets);
 * returns its length. */
static size_t
send_msg(struct cc *s, struct json *msg, int c)
{
    return jsonrpc_send_text(s->send ? &s->sockets : NULL, c, msg,
                             &s->send_error);
}

/* Client 'c''s monitor_cond request: its monitor and initial reply.  Adds
 * the bytes sent to '*bytes'.  Returns NULL or a malloc'd error. */
static char *
serve_monitor(struct cc *s, int c, const char *text, size_t *bytes)
{
    struct condition *conds = xcalloc(s->n_tables, sizeof *conds);
    bool *given = xcalloc(s->n_tables, sizeof *given);
    struct json *req = NULL;
    const struct json *params = NULL;
    char *error = parse_request(s, text, "monitor_cond", &req, &params,
                                conds, given);
    for (size_t i = 0; !error && i < s->n_tables; i++) {
        if (!given[i]) {
            error = xasprintf("no condition on %s",
                              s->tables[i].table->schema->name);
            for (size_t j = 0; j < s->n_tables; j++) {
                if (given[j]) {
                    condition_destroy(&conds[j]);
                }
            }
        }
    }
    xfree(given);
    if (!error && (json_get_type(json_array_at(params, 0)) != JSON_STRING
                   || strcmp(json_string(json_array_at(params, 0)),
                             s->db->schema->name))) {
        error = xasprintf("unknown database");
        for (size_t j = 0; j < s->n_tables; j++) {
            condition_destroy(&conds[j]);
        }
    }
    if (error) {
        xfree(conds);
        json_destroy(req);
        return error;
    }
    struct cc_client *cl = &s->clients[c];
    cl->conds = conds;
    cl->monitor_id = json_clone(json_array_at(params, 1));
    struct json *id = json_clone(json_object_get(req, "id"));
    json_destroy(req);
    *bytes += send_msg(s, jsonrpc_reply(id, compose_initial(s, conds)), c);
    return NULL;
}

/* Client 'c''s monitor_cond_change: the rows that enter or leave its
 * conditions in an update2, then the reply.  Adds the bytes sent to
 * '*bytes'.  Returns NULL or a malloc'd error. */
static char *
serve_change(struct cc *s, int c, const char *text, size_t *bytes)
{
    struct cc_client *cl = &s->clients[c];
    struct condition *conds = xcalloc(s->n_tables, sizeof *conds);
    bool *given = xcalloc(s->n_tables, sizeof *given);
    struct json *req = NULL;
    const struct json *params = NULL;
    char *error = parse_request(s, text, "monitor_cond_change", &req,
                                &params, conds, given);
    if (!error && !json_equal(json_array_at(params, 0), cl->monitor_id)) {
        error = xasprintf("unknown monitor");
        for (size_t i = 0; i < s->n_tables; i++) {
            if (given[i]) {
                condition_destroy(&conds[i]);
            }
        }
    }
    if (error) {
        xfree(given);
        xfree(conds);
        json_destroy(req);
        return error;
    }

    struct json *tu = NULL;
    for (size_t i = 0; i < s->n_tables; i++) {
        if (!given[i]) {
            continue;
        }
        if (!condition_equals(&cl->conds[i], &conds[i])) {
            struct json *rows = cond_change_rows2(s->tables[i].table,
                                                  &cl->conds[i], &conds[i],
                                                  &s->counts);
            if (rows) {
                if (!tu) {
                    tu = json_object_create();
                }
                json_object_put(tu, s->tables[i].table->schema->name, rows);
            }
        }
        condition_destroy(&cl->conds[i]);
        cl->conds[i] = conds[i];
    }
    xfree(given);
    xfree(conds);
    /* The monitor takes its new id, which the update names. */
    json_destroy(cl->monitor_id);
    cl->monitor_id = json_clone(json_array_at(params, 1));
    if (tu) {
        struct json *msg = json_object_create();
        json_object_put(msg, "id", json_null_create());
        json_object_put_string(msg, "method", "update2");
        json_object_put(msg, "params",
                        json_array_create_2(json_clone(cl->monitor_id), tu));
        *bytes += send_msg(s, msg, c);
        s->updates++;
    }
    struct json *id = json_clone(json_object_get(req, "id"));
    json_destroy(req);
    *bytes += send_msg(s, jsonrpc_reply(id, json_object_create()), c);
    return NULL;
}

/* Requests [first, first + n) of 'texts', request i from client i mod M,
 * each one iteration of the current phase, its CPU in 'cpu_ms'. */
static char *
serve_round(struct phases *p, struct cc *s, char **texts, size_t first,
            size_t n, bool change, double *cpu_ms)
{
    char *error = NULL;

    for (size_t i = first; i < first + n && !error; i++) {
        int c = i % s->n_clients;
        double t0 = metrics_now_ms();
        double cpu0 = metrics_cpu_ms();
        size_t bytes = 0;
        error = (change ? serve_change(s, c, texts[i], &bytes)
                 : serve_monitor(s, c, texts[i], &bytes));
        if (error) {
            char *e = xasprintf("request %zu: %s", i, error);
            xfree(error);
            return e;
        }
        phases_bytes_out(p, bytes);
        cpu_ms[i - first] = metrics_cpu_ms() - cpu0;
        phases_iteration(p, metrics_now_ms() - t0);
    }
    return NULL;
}

static void
cc_free(struct cc *s)
{
    for (int c = 0; s->clients && c < s->n_clients; c++) {
        struct cc_client *cl = &s->clients[c];
        for (size_t i = 0; cl->conds && i < s->n_tables; i++) {
            condition_destroy(&cl->conds[i]);
        }
        xfree(cl->conds);
        json_destroy(cl->monitor_id);
    }
    xfree(s->clients);
    for (size_t i = 0; i < s->n_tables; i++) {
        if (s->tables[i].have_init) {
            monitor_changes_destroy(&s->tables[i].init);
        }
    }
    xfree(s->tables);
    db_destroy(s->db);
}

static char *
cc_run(struct phases *p, const struct workload_options *o)
{
    struct cc s;
    char *error;

    memset(&s, 0, sizeof s);
    /* Before the load, so that the readers' forks copy a small heap. */
    if (!strcmp(o->send, "sockets")) {
        error = client_sockets_open(&s.sockets, o->held, false);
        if (error) {
            return error;
        }
        s.send = true;
    }

    char **texts = NULL;
    size_t n_changes = (size_t) o->held * o->changes;
    double *cpu_ms = xcalloc(n_changes + o->held + 1, sizeof *cpu_ms);
    error = workload_load_phase(p, o, &s.db, NULL);
    if (error) {
        goto close_sockets;
    }
    s.n_clients = o->held;
    s.clients = xcalloc(o->held, sizeof *s.clients);
    error = resolve_tables(&s, o->table);
    if (!error) {
        error = write_requests(&s, o, &texts);
    }
    if (error) {
        goto out;
    }

    phases_begin(p, "held");
    error = serve_round(p, &s, texts, 0, o->held, false, cpu_ms);
    phases_items(p, o->held);
    phases_end(p);
    if (error) {
        goto out;
    }
    phases_counter(p, "held_cpu_s", phases_last_cpu_s(p));
    phases_counter(p, "initial_rows", s.initial_rows);

    phases_begin(p, "change");
    error = serve_round(p, &s, texts, o->held, n_changes, true, cpu_ms);
    phases_items(p, n_changes);
    phases_end(p);
    if (error) {
        goto out;
    }
    double cpu_s = phases_last_cpu_s(p);
    phases_counter(p, "change_cpu_s", cpu_s);
    phases_counter(p, "cpu_per_change_ms", cpu_s * 1e3 / n_changes);
    phases_cpu_counters(p, cpu_ms, n_changes);
    phases_counter(p, "clients", o->held);
    phases_counter(p, "changes", n_changes);
    phases_counter(p, "updates", s.updates);
    phases_counter(p, "rows_inserted", s.counts.inserted);
    phases_counter(p, "rows_deleted", s.counts.deleted);
    phases_counter(p, "rows_sent", s.counts.inserted + s.counts.deleted);
    phases_counter(p, "rows_tested", s.counts.tested);
    if (s.send) {
        phases_counter(p, "socket_writes", s.sockets.writes);
    }
    if (s.send_error) {
        error = s.send_error;
        s.send_error = NULL;
    }

out:
    phases_begin(p, "free");
    cc_free(&s);
    for (size_t i = 0; texts && i < n_changes + o->held; i++) {
        xfree(texts[i]);
    }
    xfree(texts);
    phases_end(p);

close_sockets:
    xfree(cpu_ms);
    xfree(s.send_error);
    if (s.send) {
        error = client_sockets_close(&s.sockets, error);
    }
    return error;
}

const struct workload workload_monitor_cond_change = {
    .name = "monitor-cond-change",
    .summary = "M conditional monitors held, then each changes its "
               "condition",
    .help = "           --held M clients with a monitor_cond (default "
            "100),\n"
            "           --changes K condition changes per client (default "
            "1),\n"
            "           --datapaths W datapaths per condition (default 4;\n"
            "           each change drops one and adds one), --table\n"
            "           T1,T2,... (default Port_Binding,Logical_Flow; each\n"
            "           needs a column that refers to Datapath_Binding;\n"
            "           one that refers to Logical_DP_Group gets a clause\n"
            "           per group holding one of the datapaths),\n"
            "           --send sockets|none (default sockets with the full\n"
            "           model); phases: load, held (held_cpu_s,\n"
            "           initial_rows), change (one iteration per change,\n"
            "           change_cpu_s, cpu_per_change_ms, iter_cpu_{min,\n"
            "           median,mean,max}_ms, updates, rows_inserted,\n"
            "           rows_deleted, rows_sent, rows_tested), free\n",
    .needs_dataset = true,
    .prepare = cc_prepare,
    .describe = cc_describe,
    .run = cc_run,
};
