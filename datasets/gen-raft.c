/* Raft records around ovsdb-gen's transactions; see gen-raft.h.
 *
 * Record 0 (the header), as create-cluster writes it:
 *   {"server_id":S,"cluster_id":C,"local_address":A,"name":DB,
 *    "prev_servers":{S:A},"prev_index":1,"prev_term":1,
 *    "prev_data":[SCHEMA,DATA],"prev_eid":E}
 * then one entry per log transaction, as a leader in term 1 appends it:
 *   {"term":1,"index":I,"data":[null,TXN],"eid":E}
 * Member order differs from OVS's (hash order); readers do not care. */
#include "gen-raft.h"

#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "json.h"
#include "ovsdb/rng.h"
#include "ovsdb/schema.h"
#include "ovsdb/uuid.h"
#include "util.h"

/* Tags of the ids' random streams. */
enum { RAFT_SID = 1, RAFT_CID, RAFT_SNAP_EID, RAFT_ENTRY_EID };

static void
raft_uuid(uint64_t seed, uint64_t tag, uint64_t n, char out[37])
{
    struct rng r = rng_derive(seed, 0x72616674, tag, n);
    uint64_t hi = rng_next(&r);
    struct uuid u = uuid_from_u64(hi, rng_next(&r));
    uuid_set_v4(&u);
    uuid_format(&u, out);
}

/* The schema as a cluster stores it: without "ephemeral" members. */
static struct json *
schema_without_ephemeral(const struct db_schema *schema)
{
    struct json *json = json_clone(schema->json);
    /* json_clone() may share nodes: rebuild what is changed. */
    struct json *copy = json_object_create();
    struct shash_node *tn;
    SHASH_FOR_EACH (tn, json_object(json)) {
        const struct json *value = tn->data;
        if (strcmp(tn->name, "tables")
            || json_get_type(value) != JSON_OBJECT) {
            json_object_put(copy, tn->name, json_clone(value));
            continue;
        }
        struct json *tables = json_object_create();
        struct shash_node *t;
        SHASH_FOR_EACH (t, json_object(value)) {
            struct json *table = json_object_create();
            struct shash_node *m;
            SHASH_FOR_EACH (m, json_object(t->data)) {
                if (strcmp(m->name, "columns")) {
                    json_object_put(table, m->name, json_clone(m->data));
                    continue;
                }
                struct json *columns = json_object_create();
                struct shash_node *c;
                SHASH_FOR_EACH (c, json_object(m->data)) {
                    struct json *column = json_object_create();
                    struct shash_node *k;
                    SHASH_FOR_EACH (k, json_object(c->data)) {
                        if (strcmp(k->name, "ephemeral")) {
                            json_object_put(column, k->name,
                                            json_clone(k->data));
                        }
                    }
                    json_object_put(columns, c->name, column);
                }
                json_object_put(table, m->name, columns);
            }
            json_object_put(tables, t->name, table);
        }
        json_object_put(copy, tn->name, tables);
    }
    json_destroy(json);
    return copy;
}

void
gen_raft_init(struct gen_raft *r, const struct db_schema *schema,
              const char *address, uint64_t seed)
{
    char cid[37];

    r->seed = seed;
    r->address = xstrdup(address);
    raft_uuid(seed, RAFT_SID, 0, r->sid);
    raft_uuid(seed, RAFT_CID, 0, cid);

    struct ds *d = &r->header_open;
    ds_init(d);
    ds_put_format(d, "{\"server_id\":\"%s\",\"cluster_id\":\"%s\","
                  "\"local_address\":", r->sid, cid);
    json_string_escape(address, d);
    ds_put_cstr(d, ",\"name\":");
    json_string_escape(schema->name, d);
    ds_put_format(d, ",\"prev_servers\":{\"%s\":", r->sid);
    json_string_escape(address, d);
    ds_put_cstr(d, "},\"prev_index\":1,\"prev_term\":1,\"prev_data\":[");
    struct json *sj = schema_without_ephemeral(schema);
    /* Sorted, so the bytes do not depend on the impl's hash order. */
    json_to_ds(sj, JSSF_SORT, d);
    json_destroy(sj);
    ds_put_char(d, ',');
}

void
gen_raft_destroy(struct gen_raft *r)
{
    free(r->address);
    ds_destroy(&r->header_open);
}

static void
raft_open(struct gen *g, void *aux, uint64_t txn)
{
    struct gen_raft *r = aux;
    if (!txn) {
        out_put(g->o, r->header_open.string, r->header_open.length);
        return;
    }
    /* The snapshot is index 1; the log's transaction k is index k + 1. */
    out_lit(g->o, "{\"term\":1,\"index\":");
    out_put_u64(g->o, txn + 1);
    out_lit(g->o, ",\"data\":[null,");
}

static void
raft_close(struct gen *g, void *aux, uint64_t txn)
{
    struct gen_raft *r = aux;
    char eid[37];

    raft_uuid(r->seed, txn ? RAFT_ENTRY_EID : RAFT_SNAP_EID, txn, eid);
    const char *name = txn ? "],\"eid\":\"" : "],\"prev_eid\":\"";
    out_put(g->o, name, strlen(name));
    out_put(g->o, eid, 36);
    out_lit(g->o, "\"}");
}

void
gen_raft_frame(struct gen_raft *r, struct gen_frame *f)
{
    *f = (struct gen_frame) {
        .open = raft_open,
        .close = raft_close,
        .aux = r,
        .initial_extra = r->header_open.length + 64,
    };
}
