/* monitor-storm: --held M clients already hold monitors on the database
 * when --clients N more monitor_cond requests arrive (hundreds of clients
 * reconnecting to a server that kept running).  Every request, held or
 * new, is a JSON-RPC text parsed and served as ovsdb-server serves it
 * (ovsdb/jsonrpc-server.c and ovsdb/monitor.c):
 *
 *   - the request's tables are resolved and a monitor is made for them;
 *     the server keeps one ovsdb_monitor per distinct set of monitored
 *     tables and columns (ovsdb_monitor_add() finds an equal one by hash
 *     and the new one is dropped), each with the list of clients using it;
 *   - each table's condition is parsed for the client;
 *   - the initial update comes from the monitor's initial change set, built
 *     by the first request and kept while the monitor has clients (OVS
 *     since 07c27226e);
 *   - a client without a condition gets the monitor's json cache entry of
 *     that change set when there is one (built, serialized once and shared
 *     by every such client: json_serialized_object_create(), 43e66fc27);
 *     a client with a condition gets an update composed for it alone, its
 *     condition tested on every row (ovsdb_monitor_get_update());
 *   - the reply is serialized and written to the client's socket (--send
 *     sockets, the full model's default; client-sockets.h).
 *
 * The model monitors every column (with _version), as a monitor_cond
 * request without "columns" asks.  --table T1,T2,... names the tables;
 * --mode all (default): every request monitors all of them (one monitor);
 * --mode one: request c monitors table c mod n alone (n monitors).
 * Phases: load, held (the M requests), storm (the N requests: one
 * iteration each, the CPU of each as iter_cpu_*_ms, cpu_per_request_ms),
 * free.  The same workload on a real server: realovs/workloads.py
 * monitor_storm(). */
#include <stdlib.h>
#include <string.h>

#include "clients/client-sockets.h"
#include "ds.h"
#include "json.h"
#include "measure/metrics.h"
#include "measure/phases.h"
#include "ovsdb/schema.h"
#include "server/condition.h"
#include "server/db.h"
#include "server/hmap.h"
#include "server/jsonrpc-reply.h"
#include "server/jsonrpc-send.h"
#include "server/monitor-changes.h"
#include "shash.h"
#include "util.h"
#include "workloads/workload.h"

/* The monitor_cond protocol version, the json cache's key beside the
 * change set (OVS_MONITOR_VERSION_2). */
#define MONITOR_VERSION_2 2

static char *
storm_prepare(struct workload_options *o)
{
    if (!o->held) {
        o->held = 100;
    }
    if (!o->clients) {
        o->clients = 100;
    }
    if (!o->mode) {
        o->mode = "all";
    }
    if (strcmp(o->mode, "all") && strcmp(o->mode, "one")) {
        return xasprintf("--mode: \"%s\" is not all or one", o->mode);
    }
    if (!o->condition) {
        o->condition = "[true]";
    }
    return workload_check_send(o, false);
}

static void
storm_describe(const struct workload_options *o, struct ds *ds)
{
    ds_put_format(ds, " held=%d clients=%d mode=%s table=%s condition=%s "
                  "send=%s", o->held, o->clients, o->mode,
                  o->table ? o->table : "(default)", o->condition, o->send);
}

/* One monitored table of a monitor, with its kept initial change set. */
struct mon_table {
    struct table *table;
    struct monitor_changes init;
    bool have_init;
};

/* A json cache entry: the serialized <table-updates2> of the initial
 * change set for clients without a condition. */
struct cache_node {
    struct hmap_node node;      /* In 'json_cache', by version. */
    int version;
    struct json *json;
    size_t n_rows;              /* Rows in 'json', counted when composed. */
};

/* ovsdb_monitor: one per distinct set of monitored tables (all columns). */
struct dbmon {
    struct hmap_node node;      /* In 'monitors', by 'hash'. */
    uint32_t hash;
    struct mon_table *tables;   /* Sorted by name. */
    size_t n_tables;
    size_t n_clients;           /* Clients using it. */
    struct hmap json_cache;
};

/* A client's monitor (ovsdb_jsonrpc_monitor): its monitor, its id and its
 * condition on each of the monitor's tables. */
struct storm_client {
    struct dbmon *dbmon;
    struct json *monitor_id;
    struct condition *conds;    /* Parallel to dbmon->tables. */
    bool conditional;
};

struct storm {
    struct db *db;
    struct hmap monitors;
    struct storm_client *clients;
    size_t n_clients;
    struct client_sockets sockets;
    bool send;
    char *send_error;
    unsigned long long cache_hits, cache_misses, composed, change_sets;
    unsigned long long initial_rows;    /* Rows sent in initial replies. */
};

static uint32_t
hash_bytes(const void *p_, size_t n, uint32_t basis)
{
    const unsigned char *p = p_;
    uint32_t h = 2166136261u ^ basis;      /* FNV-1a. */

    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * 16777619u;
    }
    return h;
}

/* A monitor's hash: its tables' names and columns, as ovsdb_monitor_hash()
 * hashes the monitored tables and columns. */
static uint32_t
dbmon_hash(const struct dbmon *m)
{
    uint32_t h = 0;

    for (size_t i = 0; i < m->n_tables; i++) {
        const struct table_schema *ts = m->tables[i].table->schema;
        h = hash_bytes(ts->name, strlen(ts->name), h);
        for (unsigned int j = 0; j < ts->n_columns; j++) {
            const char *c = ts->columns[j]->name;
            h = hash_bytes(c, strlen(c), h);
        }
    }
    return h;
}

static bool
dbmon_equal(const struct dbmon *a, const struct dbmon *b)
{
    if (a->n_tables != b->n_tables) {
        return false;
    }
    for (size_t i = 0; i < a->n_tables; i++) {
        if (a->tables[i].table != b->tables[i].table) {
            return false;
        }
    }
    return true;
}

static void
dbmon_destroy(struct dbmon *m)
{
    for (size_t i = 0; i < m->n_tables; i++) {
        if (m->tables[i].have_init) {
            monitor_changes_destroy(&m->tables[i].init);
        }
    }
    xfree(m->tables);
    struct hmap_node *n;
    while ((n = hmap_first(&m->json_cache))) {
        struct cache_node *c = CONTAINER_OF(n, struct cache_node, node);
        hmap_remove(&m->json_cache, n);
        json_destroy(c->json);
        xfree(c);
    }
    hmap_destroy(&m->json_cache);
    xfree(m);
}

/* The <table-updates2> of the initial update for 'cl': every monitored
 * table with a row that matches its condition.  Stores its rows' count in
 * '*n_rows'. */
static struct json *
compose_initial(struct storm *s, const struct storm_client *cl,
                size_t *n_rows)
{
    *n_rows = 0;
    struct dbmon *m = cl->dbmon;
    struct json *tu = json_object_create();

    s->composed++;
    for (size_t i = 0; i < m->n_tables; i++) {
        struct mon_table *mt = &m->tables[i];
        const struct table_schema *ts = mt->table->schema;
        struct json *rows;
        if (db_model == DB_MODEL_FULL) {
            if (!mt->have_init) {
                struct row **all = table_sorted_rows(mt->table);
                monitor_changes_init(&mt->init, mt->table);
                monitor_changes_fill(&mt->init, all, mt->table->n_rows);
                xfree(all);
                mt->have_init = true;
                s->change_sets++;
            }
            rows = monitor_changes_initial2(&mt->init, &cl->conds[i], false);
        } else {
            struct row **all = table_sorted_rows(mt->table);
            size_t n = 0;
            for (size_t j = 0; j < mt->table->n_rows; j++) {
                if (condition_matches(&cl->conds[i], all[j])) {
                    all[n++] = all[j];
                }
            }
            rows = n ? update2_rows_tree(ts, all, n, NULL) : NULL;
            xfree(all);
        }
        if (rows && !json_object_is_empty(rows)) {
            *n_rows += shash_count(json_object(rows));
            json_object_put(tu, ts->name, rows);
        } else {
            json_destroy(rows);
        }
    }
    return tu;
}

/* The initial update for 'cl': from the json cache for a client without a
 * condition (composed, serialized and kept on a miss), else its own. */
static struct json *
initial_update(struct storm *s, const struct storm_client *cl)
{
    size_t n_rows;
    if (cl->conditional) {
        struct json *tu = compose_initial(s, cl, &n_rows);
        s->initial_rows += n_rows;
        return tu;
    }
    struct dbmon *m = cl->dbmon;
    uint32_t h = MONITOR_VERSION_2;
    for (struct hmap_node *n = hmap_first_with_hash(&m->json_cache, h); n;
         n = hmap_next_with_hash(n)) {
        struct cache_node *c = CONTAINER_OF(n, struct cache_node, node);
        if (c->version == MONITOR_VERSION_2) {
            s->cache_hits++;
            s->initial_rows += c->n_rows;
            return json_clone(c->json);
        }
    }
    s->cache_misses++;
    struct json *tu = compose_initial(s, cl, &n_rows);
    struct cache_node *c = xmalloc(sizeof *c);
    c->version = MONITOR_VERSION_2;
    c->n_rows = n_rows;
    s->initial_rows += n_rows;
    c->json = json_serialized_object_create(tu);
    json_destroy(tu);
    hmap_insert(&m->json_cache, &c->node, h);
    return json_clone(c->json);
}

/* One monitor request of the form
 *   {"method": "monitor_cond", "params": [DB, ID, {TABLE: REQ, ...}],
 *    "id": N}
 * where each REQ is an object or an array of one, with an optional
 * "where" and no "columns" (the model monitors every column).  Registers
 * client 'c' and returns its reply in '*replyp'.  Returns NULL or a
 * malloc'd error. */
static char *
handle_request(struct storm *s, int c, const char *text,
               struct json **replyp)
{
    char *error = NULL;
    struct json *req = json_parse_buffer(text, strlen(text), &error);
    if (!req) {
        return error;
    }
    const struct json *method = json_object_get(req, "method");
    const struct json *params = json_object_get(req, "params");
    const struct json *id = json_object_get(req, "id");
    if (!method || json_get_type(method) != JSON_STRING
        || strcmp(json_string(method), "monitor_cond")
        || !params || json_get_type(params) != JSON_ARRAY
        || json_array_size(params) != 3 || !id
        || json_get_type(json_array_at(params, 0)) != JSON_STRING
        || json_get_type(json_array_at(params, 2)) != JSON_OBJECT) {
        json_destroy(req);
        return xasprintf("request %d: not a monitor_cond request", c);
    }
    if (strcmp(json_string(json_array_at(params, 0)), s->db->schema->name)) {
        json_destroy(req);
        return xasprintf("request %d: unknown database \"%s\"", c,
                         json_string(json_array_at(params, 0)));
    }

    /* A new monitor for the request's tables. */
    const struct shash *reqs = json_object(json_array_at(params, 2));
    struct dbmon *cand = xzalloc(sizeof *cand);
    cand->tables = xcalloc(shash_count(reqs) + 1, sizeof *cand->tables);
    hmap_init(&cand->json_cache);
    const struct shash_node **sorted = shash_sort(reqs);
    const struct json **wheres = xcalloc(shash_count(reqs) + 1,
                                         sizeof *wheres);
    for (size_t i = 0; i < shash_count(reqs) && !error; i++) {
        const char *name = sorted[i]->name;
        const struct json *r = sorted[i]->data;
        struct table *t = db_find_table(s->db, name);
        if (!t) {
            error = xasprintf("request %d: no table \"%s\"", c, name);
            break;
        }
        if (json_get_type(r) == JSON_ARRAY && json_array_size(r) == 1) {
            r = json_array_at(r, 0);
        }
        if (json_get_type(r) != JSON_OBJECT
            || json_object_get(r, "columns")
            || json_object_get(r, "select")) {
            error = xasprintf("request %d: table %s: the model takes a "
                              "request with at most \"where\"", c, name);
            break;
        }
        cand->tables[cand->n_tables].table = t;
        wheres[cand->n_tables++] = json_object_get(r, "where");
    }
    xfree(sorted);
    if (!error && !cand->n_tables) {
        error = xasprintf("request %d: monitors no table", c);
    }
    if (error) {
        xfree(wheres);
        dbmon_destroy(cand);
        json_destroy(req);
        return error;
    }
    /* shash_sort() sorted by name: the tables are in name order. */

    /* ovsdb_monitor_add(): an equal monitor, if any, takes the client. */
    cand->hash = dbmon_hash(cand);
    struct dbmon *m = NULL;
    for (struct hmap_node *n = hmap_first_with_hash(&s->monitors,
                                                    cand->hash);
         n; n = hmap_next_with_hash(n)) {
        struct dbmon *x = CONTAINER_OF(n, struct dbmon, node);
        if (dbmon_equal(x, cand)) {
            m = x;
            break;
        }
    }
    if (m) {
        dbmon_destroy(cand);
    } else {
        m = cand;
        hmap_insert(&s->monitors, &m->node, m->hash);
    }

    struct storm_client *cl = &s->clients[s->n_clients];
    cl->dbmon = m;
    cl->conds = xcalloc(m->n_tables, sizeof *cl->conds);
    cl->conditional = false;
    for (size_t i = 0; i < m->n_tables && !error; i++) {
        const struct table_schema *ts = m->tables[i].table->schema;
        if (wheres[i]) {
            error = condition_from_json(&cl->conds[i], ts, wheres[i],
                                        CONDITION_MONITOR);
            if (error) {
                char *e = xasprintf("request %d: table %s: %s", c, ts->name,
                                    error);
                xfree(error);
                error = e;
                /* The clauses parsed so far of the earlier tables. */
                for (size_t j = 0; j < i; j++) {
                    condition_destroy(&cl->conds[j]);
                }
                break;
            }
            cl->conditional |= !condition_is_true(&cl->conds[i]);
        }
    }
    xfree(wheres);
    if (error) {
        xfree(cl->conds);
        if (!m->n_clients) {
            hmap_remove(&s->monitors, &m->node);
            dbmon_destroy(m);
        }
        json_destroy(req);
        return error;
    }
    m->n_clients++;
    cl->monitor_id = json_clone(json_array_at(params, 1));
    s->n_clients++;

    *replyp = jsonrpc_reply(json_clone(id), initial_update(s, cl));
    json_destroy(req);
    return NULL;
}

/* The requests' text, as the real runner sends them. */
static char *
request_text(const struct workload_options *o, const char *db_name,
             char **tables, size_t n_tables, int c)
{
    struct ds ds = DS_EMPTY_INITIALIZER;

    ds_put_format(&ds, "{\"method\":\"monitor_cond\",\"params\":[\"%s\","
                  "\"storm%d\",{", db_name, c);
    bool one = !strcmp(o->mode, "one");
    for (size_t i = 0; i < n_tables; i++) {
        if (one && i != (size_t) c % n_tables) {
            continue;
        }
        if (ds.length && ds.string[ds.length - 1] != '{') {
            ds_put_char(&ds, ',');
        }
        ds_put_format(&ds, "\"%s\":[{\"where\":%s}]", tables[i],
                      o->condition);
    }
    ds_put_format(&ds, "}],\"id\":%d}", c);
    return ds_steal_cstr(&ds);
}

/* The tables of --table (comma-separated), or the default: Logical_Flow
 * if the database has it, else Logical_Switch_Port. */
static size_t
table_names(const struct workload_options *o, struct db *db, char ***namesp)
{
    const char *spec = o->table;
    if (!spec) {
        spec = db_find_table(db, "Logical_Flow") ? "Logical_Flow"
               : "Logical_Switch_Port";
    }
    char *copy = xstrdup(spec);
    char **names = xcalloc(strlen(spec) + 1, sizeof *names);
    size_t n = 0;
    char *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        names[n++] = xstrdup(t);
    }
    xfree(copy);
    *namesp = names;
    return n;
}

/* Requests [first, first + n) as one phase. */
static char *
serve_requests(struct phases *p, struct storm *s, char **requests,
               int first, int n, double *cpu_ms)
{
    char *error = NULL;

    for (int c = first; c < first + n && !error; c++) {
        double t0 = metrics_now_ms();
        double cpu0 = metrics_cpu_ms();
        struct json *reply;
        error = handle_request(s, c, requests[c], &reply);
        if (!error) {
            phases_bytes_out(p, jsonrpc_send_text(s->send ? &s->sockets : NULL,
                                                    c, reply, &s->send_error));
            cpu_ms[c - first] = metrics_cpu_ms() - cpu0;
            phases_iteration(p, metrics_now_ms() - t0);
        }
    }
    return error;
}

static char *
storm_run(struct phases *p, const struct workload_options *o)
{
    struct storm s;
    char *error;
    int total = o->held + o->clients;

    memset(&s, 0, sizeof s);
    hmap_init(&s.monitors);
    /* Before the load, so that the readers' forks copy a small heap. */
    if (!strcmp(o->send, "sockets")) {
        error = client_sockets_open(&s.sockets, total, false);
        if (error) {
            hmap_destroy(&s.monitors);
            return error;
        }
        s.send = true;
    }

    char **requests = NULL;
    char **tables = NULL;
    size_t n_tables = 0;
    double *cpu_ms = NULL;
    error = workload_load_phase(p, o, &s.db, NULL);
    if (error) {
        goto close_sockets;
    }

    /* The clients' requests, written first, as they would send them. */
    n_tables = table_names(o, s.db, &tables);
    requests = xcalloc(total, sizeof *requests);
    for (int c = 0; c < total; c++) {
        requests[c] = request_text(o, s.db->schema->name, tables, n_tables,
                                   c);
    }
    s.clients = xcalloc(total, sizeof *s.clients);
    cpu_ms = xcalloc(total + 1, sizeof *cpu_ms);

    phases_begin(p, "held");
    error = serve_requests(p, &s, requests, 0, o->held, cpu_ms);
    phases_items(p, o->held);
    phases_end(p);
    if (error) {
        goto out;
    }
    phases_counter(p, "held_cpu_s", phases_last_cpu_s(p));
    phases_counter(p, "monitors", s.monitors.n);

    unsigned long long composed0 = s.composed;
    unsigned long long hits0 = s.cache_hits;
    unsigned long long rows0 = s.initial_rows;
    phases_begin(p, "storm");
    error = serve_requests(p, &s, requests, o->held, o->clients, cpu_ms);
    phases_items(p, o->clients);
    phases_end(p);
    if (error) {
        goto out;
    }
    double cpu_s = phases_last_cpu_s(p);
    phases_counter(p, "storm_cpu_s", cpu_s);
    phases_counter(p, "cpu_per_request_ms", cpu_s * 1e3 / o->clients);
    phases_cpu_counters(p, cpu_ms, o->clients);
    phases_counter(p, "clients", total);
    phases_counter(p, "monitors", s.monitors.n);
    phases_counter(p, "composed", s.composed - composed0);
    phases_counter(p, "cache_hits", s.cache_hits - hits0);
    phases_counter(p, "initial_rows", s.initial_rows - rows0);
    phases_counter(p, "initial_change_sets", s.change_sets);
    if (s.send) {
        phases_counter(p, "socket_writes", s.sockets.writes);
    }
    if (s.send_error) {
        error = s.send_error;
        s.send_error = NULL;
    }

out:
    phases_begin(p, "free");
    for (size_t i = 0; i < s.n_clients; i++) {
        struct storm_client *cl = &s.clients[i];
        for (size_t j = 0; j < cl->dbmon->n_tables; j++) {
            condition_destroy(&cl->conds[j]);
        }
        xfree(cl->conds);
        json_destroy(cl->monitor_id);
    }
    struct hmap_node *n;
    while ((n = hmap_first(&s.monitors))) {
        hmap_remove(&s.monitors, n);
        dbmon_destroy(CONTAINER_OF(n, struct dbmon, node));
    }
    xfree(s.clients);
    for (int c = 0; requests && c < total; c++) {
        xfree(requests[c]);
    }
    xfree(requests);
    for (size_t i = 0; i < n_tables; i++) {
        xfree(tables[i]);
    }
    xfree(tables);
    xfree(cpu_ms);
    db_destroy(s.db);
    phases_end(p);

close_sockets:
    hmap_destroy(&s.monitors);
    xfree(s.send_error);
    if (s.send) {
        error = client_sockets_close(&s.sockets, error);
    }
    return error;
}

const struct workload workload_monitor_storm = {
    .name = "monitor-storm",
    .summary = "M clients hold monitors while N more monitor requests come",
    .help = "           --held M monitors held before (default 100),\n"
            "           --clients N requests that arrive then (default "
            "100),\n"
            "           --table T1,T2,... (default Logical_Flow, or\n"
            "           Logical_Switch_Port without it), --mode all|one:\n"
            "           every request monitors every table (one monitor,\n"
            "           default) or request c table c mod n (n monitors),\n"
            "           --condition JSON for every table, a row matching if\n"
            "           any clause holds (monitor_cond; default [true]:\n"
            "           the json cache serves all but the first request;\n"
            "           with a condition each reply is composed for its\n"
            "           client), --send sockets|none (default sockets with\n"
            "           the full model); phases: load, held (held_cpu_s,\n"
            "           monitors), storm (one iteration per request,\n"
            "           storm_cpu_s, cpu_per_request_ms, iter_cpu_{min,\n"
            "           median,mean,max}_ms, monitors, composed,\n"
            "           cache_hits, initial_change_sets, initial_rows),\n"
            "           free\n",
    .needs_dataset = true,
    .prepare = storm_prepare,
    .describe = storm_describe,
    .run = storm_run,
};
