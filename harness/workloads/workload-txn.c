/* txn (seed 1): C clients x M insert transactions into a table of two
 * strings, a boolean and an integer.  Each client request is built and
 * serialized first, as a client would; then, round-robin over the clients,
 * the server side is measured per transaction: parse the request, execute
 * the insert (the row data is cloned into the transaction and again into
 * the database, as OVSDB copies rows on commit; the full model draws the
 * row's _version, as ovsdb_txn_row_insert() does), append a log record (to
 * a memory sink) and build + serialize the reply. */
#include <stdlib.h>
#include <string.h>

#include "server/db.h"
#include "ds.h"
#include "json.h"
#include "server/jsonrpc-reply.h"
#include "ovsdb/out-file.h"
#include "ovsdb/record.h"
#include "ovsdb/rng.h"
#include "ovsdb/schema.h"
#include "measure/phases.h"
#include "server/row-version.h"
#include "util.h"
#include "workloads/workload.h"

static const char txn_schema[] =
    "{\"name\": \"bench\", \"version\": \"1.0.0\", \"tables\": {"
    "\"Bench\": {\"columns\": {"
    "\"name\": {\"type\": \"string\"},"
    "\"description\": {\"type\": \"string\"},"
    "\"enabled\": {\"type\": \"boolean\"},"
    "\"count\": {\"type\": \"integer\"}}}}}";

static char *
txn_prepare(struct workload_options *o)
{
    if (!o->clients) {
        o->clients = 5;
    }
    if (!o->txns) {
        o->txns = 1000;
    }
    if ((long long) o->clients * o->txns > 50000000) {
        return xasprintf("--clients %d x --txns %d: must be at most "
                         "50000000", o->clients, o->txns);
    }
    return NULL;
}

static void
txn_describe(const struct workload_options *o, struct ds *ds)
{
    ds_put_format(ds, " clients=%d txns=%d", o->clients, o->txns);
}

/* The request text of transaction 'm' of client 'c'. */
static char *
build_request(int c, int m, long long id, struct rng *rng)
{
    static const char *const words[] = {
        "switch", "router", "port", "chassis", "gateway", "tenant", "uplink",
        "bridge", "segment", "policy",
    };
    char name[64], desc[160];

    snprintf(name, sizeof name, "client%d-txn%d-%08llx", c, m,
             (unsigned long long) (rng_next(rng) & 0xffffffff));
    snprintf(desc, sizeof desc, "%s %s for %s %d, created by the insert "
             "benchmark", words[rng_range(rng, ARRAY_SIZE(words))],
             words[rng_range(rng, ARRAY_SIZE(words))],
             words[rng_range(rng, ARRAY_SIZE(words))], m);

    struct json *row = json_object_create();
    json_object_put_string(row, "name", name);
    json_object_put_string(row, "description", desc);
    json_object_put(row, "enabled", json_boolean_create(rng_next(rng) & 1));
    json_object_put(row, "count", json_integer_create(m));

    struct json *op = json_object_create();
    json_object_put_string(op, "op", "insert");
    json_object_put_string(op, "table", "Bench");
    json_object_put(op, "row", row);

    struct json *request = json_object_create();
    json_object_put_string(request, "method", "transact");
    json_object_put(request, "params",
                    json_array_create_2(json_string_create("bench"), op));
    json_object_put(request, "id", json_integer_create(id));

    char *text = json_to_string(request, 0);
    json_destroy(request);
    return text;
}

/* Executes one insert request; returns the reply or sets '*errorp'. */
static struct json *
execute(struct db *db, struct table *table, const struct json *request,
        struct rng *rng, struct ds *log, long long n, char **errorp)
{
    const struct json *params = json_object_get(request, "params");
    const struct json *id = json_object_get(request, "id");
    const struct json *op, *row_json;

    if (!params || json_get_type(params) != JSON_ARRAY
        || json_array_size(params) != 2 || !id
        || json_get_type(op = json_array_at(params, 1)) != JSON_OBJECT
        || !(row_json = json_object_get(op, "row"))
        || json_get_type(row_json) != JSON_OBJECT) {
        *errorp = xasprintf("malformed transact request");
        return NULL;
    }

    /* Execute: the new row, its atoms cloned from the request's nodes. */
    struct uuid uuid;
    uuid_generate(&uuid, rng);
    struct row *txn_row = row_create(table->schema, &uuid);
    *errorp = row_set_from_json(txn_row, table->schema, row_json, false);
    if (*errorp) {
        row_destroy(txn_row, table->schema);
        return NULL;
    }

    /* Commit: the database gets its own copy of the row. */
    struct row *db_row = row_clone(txn_row, table->schema);
    struct row *inserted = table_insert_row(table, &uuid);
    row_new_version(inserted);      /* As ovsdb_txn_row_insert(). */
    for (unsigned int i = 0; i < table->schema->n_columns; i++) {
        datum_swap(&inserted->fields[i], &db_row->fields[i]);
    }
    row_destroy(db_row, table->schema);
    row_destroy(txn_row, table->schema);
    db->n_txns++;

    /* Log: {"Bench": {"<uuid>": {row}}, "_date": ...} to the sink. */
    char uuid_s[UUID_LEN + 1];
    uuid_format(&uuid, uuid_s);
    struct json *rows = json_object_create();
    json_object_put(rows, uuid_s,
                    row_to_json(inserted, table->schema, false, false));
    struct json *record = json_object_create();
    json_object_put(record, table->schema->name, rows);
    json_object_put(record, "_date", json_integer_create(1700000000000LL + n));
    struct ds text = DS_EMPTY_INITIALIZER;
    json_to_ds(record, 0, &text);
    json_destroy(record);
    ds_clear(log);
    ovsdb_record_to_ds(text.string, text.length, log);
    ds_destroy(&text);

    return insert_reply(id, &uuid);
}

static char *
txn_run(struct phases *p, const struct workload_options *o)
{
    size_t n_txns = (size_t) o->clients * o->txns;
    struct rng rng;
    char *error = NULL;

    rng_init(&rng, o->seed);

    /* Clients build and serialize their requests (not server work). */
    phases_begin(p, "client");
    char **requests = xmalloc(n_txns * sizeof *requests);
    size_t k = 0;
    for (int m = 0; m < o->txns; m++) {
        for (int c = 0; c < o->clients; c++) {
            requests[k] = build_request(c, m, k, &rng);
            phases_bytes_out(p, strlen(requests[k]));
            k++;
        }
    }
    phases_items(p, n_txns);
    phases_end(p);

    struct json *schema_json = json_from_string(txn_schema);
    struct db_schema *schema;
    error = db_schema_from_json(schema_json, &schema);
    json_destroy(schema_json);
    if (error) {
        for (size_t i = 0; i < n_txns; i++) {
            xfree(requests[i]);
        }
        xfree(requests);
        return error;
    }
    struct db *db = db_create(schema);
    struct table *table = db_find_table(db, "Bench");

    /* Server: requests in round-robin order of the clients. */
    struct ds log = DS_EMPTY_INITIALIZER;
    struct ds out = DS_EMPTY_INITIALIZER;
    uint64_t log_bytes = 0;
    uint64_t versions_before = row_version_count();
    phases_begin(p, "server");
    double start = metrics_now_ms();
    for (k = 0; k < n_txns && !error; k++) {
        double t0 = metrics_now_ms();
        const char *text = requests[k];
        struct json *request = json_parse_buffer(text, strlen(text), &error);
        if (!request) {
            char *e = xasprintf("request %zu: %s", k, error);
            xfree(error);
            error = e;
            break;
        }
        struct json *reply = execute(db, table, request, &rng, &log, k,
                                     &error);
        json_destroy(request);
        if (reply) {
            ds_clear(&out);
            json_to_ds(reply, 0, &out);
            json_destroy(reply);
            phases_bytes_out(p, out.length);
            log_bytes += log.length;
        }
        phases_iteration(p, metrics_now_ms() - t0);
    }
    double elapsed_ms = metrics_now_ms() - start;
    phases_items(p, k);
    phases_end(p);
    phases_counter(p, "txn_per_s", elapsed_ms > 0 ? k / (elapsed_ms / 1e3)
                  : 0);
    phases_counter(p, "log_bytes", log_bytes);
    phases_counter(p, "rows", table->n_rows);
    if (db_model == DB_MODEL_FULL) {
        phases_counter(p, "row_versions",
                       row_version_count() - versions_before);
    }
    ds_destroy(&log);
    ds_destroy(&out);

    /* --output: the inserted rows as `ovsdb-client dump` shows them, their
     * _version included (tests); outside the measured phases. */
    if (o->output && p->repetition == 0 && !error) {
        struct json *dump = dump_reply(db, 1);
        struct ds text = DS_EMPTY_INITIALIZER;
        json_to_ds(dump, JSSF_SORT, &text);
        json_destroy(dump);
        ds_put_char(&text, '\n');
        error = out_file_write_all(o->output, text.string, text.length);
        ds_destroy(&text);
    }

    phases_begin(p, "free");
    db_destroy(db);
    for (size_t i = 0; i < n_txns; i++) {
        xfree(requests[i]);
    }
    xfree(requests);
    phases_end(p);
    return error;
}

const struct workload workload_txn = {
    .name = "txn",
    .summary = "seed 1: C clients x M inserts of a 4-column row",
    .help = "           --clients C (default 5), --txns M per client\n"
            "           (default 1000); built-in schema, no DATASET needed;\n"
            "           --output FILE writes the database after the\n"
            "           inserts as dump's reply (sorted keys);\n"
            "           phases: client (requests), server (per-txn latency\n"
            "           as iterations, counters txn_per_s, rows;\n"
            "           full model: row_versions), free\n",
    .needs_dataset = false,
    .prepare = txn_prepare,
    .describe = txn_describe,
    .run = txn_run,
};
