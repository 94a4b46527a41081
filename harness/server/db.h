/* The in-memory database: one table per schema table, rows in a hash map
 * keyed by binary UUID, each row an array of datums in column order.
 *
 * Two models (--model): 'json-only' is the database and nothing else; 'full'
 * (the default) also keeps what ovsdb-server keeps around it, laid out as
 * OVS lays it out: per row a header (table, transaction, weak references to
 * it, strong reference count), a reference count pointer per datum, a node
 * per table index; per weak reference a struct in the destination row; and
 * every record is applied as a transaction with its commit checks (txn.h).
 * docs/model.md measures each part against the real server. */
#ifndef HARNESS_DB_H
#define HARNESS_DB_H 1

#include <stddef.h>

#include "ovsdb/datum.h"
#include "ovsdb/schema.h"
#include "ovsdb/uuid.h"
#include "server/hmap.h"

struct json;
struct txn_row;

enum db_model { DB_MODEL_FULL, DB_MODEL_JSON_ONLY };
extern enum db_model db_model;          /* Default DB_MODEL_FULL. */
extern const char *const db_model_names[2];  /* Indexed by enum db_model. */

/* A row.  Its _version is not here: the full model keeps it where OVS
 * does (struct row_ovs, row_version()); json-only keeps none. */
struct row {
    struct row *next;           /* In the table's hash bucket. */
    struct uuid uuid;
    struct datum fields[];      /* One per column, in column index order. */
    /* Full model: followed by one 'unsigned int *' reference count per
     * column (row_refcnts()) and one struct hmap_node per table index
     * (row_index_node()), then, with --row-uuids inline, the _version
     * atom; preceded by a struct row_ovs. */
};

/* Full model: the rest of OVS's struct ovsdb_row, in the same allocation,
 * just before struct row. */
struct row_ovs {
    struct table *table;
    struct txn_row *txn_row;    /* Transaction the row is in, if any. */
    struct hmap dst_refs;       /* struct weak_ref's pointing to this row. */
    size_t n_refs;              /* Strong references to this row. */
    /* With row_uuid_datums: the atom of the row's _uuid datum, a block
     * of its own as in OVS (fields[0].keys), which UUID lookups compare
     * through; NULL with --row-uuids inline, where struct row's 'uuid'
     * serves.  struct row's 'uuid' is what the outputs show either way. */
    union atom *uuid_key;
    /* The row's one _version (fields[1].keys in OVS): with row_uuid_datums
     * a block of its own, with --row-uuids inline the last 16 bytes of the
     * row's allocation.  Set by the commit of every insert and change
     * (row-version.h) and read by every output that shows _version. */
    union atom *version_key;
};

/* Full model: whether rows keep _uuid and _version as OVS keeps them
 * (--row-uuids datums, the default) or only inline (--row-uuids inline). */
extern bool row_uuid_datums;

/* A weak reference from a column of one row to another row, kept (as OVS
 * does since 2.16) in the destination row's 'dst_refs', with a copy of the
 * atoms, so that deleting the destination can find and remove the atom from
 * the source.
 *
 * Two layouts.  OVS's (the default): the whole struct, with the
 * destination's UUID and a deep copy of the column type (its refTable
 * names duplicated), 208 bytes and a block per name.  Slim
 * ('weak_refs_slim', impls whose features list "slim-weak-refs"): the
 * struct up to 'value' for a map column, up to 'key' for a set, 104 or 88
 * bytes and nothing else; the type is the source column's
 * (src_table->schema, column_idx) and the destination's UUID the atom that
 * points to it (key or value, 'by_key').  Same lookups (by destination row
 * through 'dst_node', hashed by source UUID, by transaction row through
 * 'src_node') and counts.  Read the type and the destination through
 * weak_ref_type() and weak_ref_dst(). */
struct weak_ref {
    struct hmap_node dst_node;  /* In the destination's 'dst_refs'. */
    struct list src_node;       /* In a txn_row's added/deleted refs. */
    struct table *src_table;
    struct table *dst_table;
    struct uuid src;
    unsigned int column_idx;
    bool by_key;                /* The reference is the key, not value. */
    union atom key;
    union atom value;           /* Slim: only in a map column's. */
    /* OVS's layout only. */
    struct uuid dst;
    struct ovsdb_type type;     /* Deep copy of the column's type. */
};
extern bool weak_refs_slim;
/* Bytes allocated for a weak reference of a column of type 't'. */
size_t weak_ref_size(const struct ovsdb_type *t);
void weak_ref_destroy(struct weak_ref *);
struct weak_ref *weak_ref_clone(const struct weak_ref *);    /* txn.c */
/* Weak references alive in the process (ovsdb-server's n-weak-refs). */
extern size_t n_weak_refs;
uint32_t weak_ref_hash(const struct weak_ref *);

static inline struct row_ovs *
row_ovs(const struct row *r)
{
    return (struct row_ovs *) ((char *) r - sizeof(struct row_ovs));
}

/* The _version of 'r' as the outputs show it: the full model's generated
 * one; the all-zero UUID in json-only, which keeps none. */
static inline const struct uuid *
row_version(const struct row *r)
{
    static const struct uuid zero;
    return (db_model == DB_MODEL_FULL
            ? &row_ovs(r)->version_key->uuid : &zero);
}

/* Gives 'r' its next _version (row-version.h) in the full model, as OVS's
 * commit does for every inserted row (ovsdb_txn_row_insert()) and every
 * changed one (update_version()); json-only keeps none. */
void row_new_version(struct row *r);

/* Full model: how a datum is copied.  LAZY (the default, OVS since 3.0,
 * 485ac63d1): a copy shares the atoms and counts its sharers, so every
 * datum has room for a pointer to that count; DEEP (OVS 2.17 and before):
 * a copy copies the atoms, and datums have no such pointer. */
enum datum_copy { DATUM_COPY_LAZY, DATUM_COPY_DEEP };
extern enum datum_copy datum_copy;
extern const char *const datum_copy_names[2];  /* By enum datum_copy. */

/* Full model: the columns the commit looks at for references.  REFS (the
 * default, OVS since 6f11d9daa and d51d4f42d: 3.3, 3.2.2, 3.1.4, 3.0.6):
 * only those that can hold them; ALL (before): every column of every
 * changed row, _uuid and _version included, each one copied as "added"
 * (with DATUM_COPY_LAZY that gives each datum a count that stays) and
 * unshared before a subtraction of nothing. */
enum ref_columns { REF_COLUMNS_REFS, REF_COLUMNS_ALL };
extern enum ref_columns ref_columns;
extern const char *const ref_columns_names[2];  /* By enum ref_columns. */

/* Reference count pointers after a full-model row's fields: one per column
 * with DATUM_COPY_LAZY, and with REF_COLUMNS_ALL two more (slots n_columns
 * and n_columns + 1) for the _uuid and _version datums, which OVS counts
 * too; none with DATUM_COPY_DEEP. */
static inline unsigned int
row_n_refcnts(const struct table_schema *ts)
{
    return (datum_copy == DATUM_COPY_DEEP ? 0
            : ts->n_columns + (ref_columns == REF_COLUMNS_ALL ? 2 : 0));
}

static inline unsigned int **
row_refcnts(const struct row *r, const struct table_schema *ts)
{
    return (unsigned int **) (void *) &r->fields[ts->n_columns];
}

static inline struct hmap_node *
row_index_node(const struct row *r, const struct table_schema *ts,
               unsigned int i)
{
    return (struct hmap_node *) (void *) (row_refcnts(r, ts)
                                          + row_n_refcnts(ts)) + i;
}

static inline struct row *
row_from_index_node(const struct hmap_node *node,
                    const struct table_schema *ts, unsigned int i)
{
    struct hmap_node *first = (struct hmap_node *) node - i;
    unsigned int **refcnts = ((unsigned int **) (void *) first
                              - row_n_refcnts(ts));
    return (struct row *) (void *) ((char *) refcnts
                                    - offsetof(struct row, fields)
                                    - ts->n_columns * sizeof(struct datum));
}

struct table {
    const struct table_schema *schema;
    struct row **buckets;
    size_t mask;                /* Number of buckets minus 1. */
    size_t n_rows;
    struct hmap *indexes;       /* Full model: one per schema index. */
};

/* The type of the column that weak reference 'w' is in. */
static inline const struct ovsdb_type *
weak_ref_type(const struct weak_ref *w)
{
    return (weak_refs_slim
            ? &w->src_table->schema->columns[w->column_idx]->type
            : &w->type);
}

/* The UUID of the row that 'w' points to. */
static inline const struct uuid *
weak_ref_dst(const struct weak_ref *w)
{
    return (!weak_refs_slim ? &w->dst
            : w->by_key ? &w->key.uuid : &w->value.uuid);
}

struct db {
    struct db_schema *schema;   /* Owned. */
    struct table *tables;       /* One per schema->tables[i]. */
    unsigned long long n_txns;  /* Transactions applied. */
    long long n_atoms;          /* Full model: keys and values committed. */
    struct db_storage *storage; /* What a clustered load keeps besides the
                                 * rows (server/raft-storage.h), or NULL. */
};

struct db_storage;
/* Frees what db->storage holds (defined in server/raft-storage.c). */
void db_storage_destroy(struct db_storage *);

struct db *db_create(struct db_schema *);   /* Takes ownership. */
void db_destroy(struct db *);
size_t db_n_rows(const struct db *);
struct table *db_find_table(struct db *, const char *name);

struct row *table_find_row(const struct table *, const struct uuid *);
/* Inserts a new row with default values (asserts 'uuid' is new). */
struct row *table_insert_row(struct table *, const struct uuid *);
void table_delete_row(struct table *, struct row *);
void table_link_row(struct table *, struct row *);
void table_unlink_row(struct table *, struct row *);
/* Puts 'new' where 'old' is in the table's hash map. */
void table_replace_row(struct table *, struct row *old, struct row *new);
/* Rows sorted by UUID (a malloc'd array of table->n_rows pointers). */
struct row **table_sorted_rows(const struct table *);
struct row *row_create(const struct table_schema *, const struct uuid *);
void row_destroy(struct row *, const struct table_schema *);
/* Copies every datum of 'src' through the impl's clone. */
struct row *row_clone(const struct row *, const struct table_schema *);
/* Full model: a copy sharing every datum of 'src' (reference counts,
 * allocated on first share, as ovsdb_datum_clone() does) and copying the
 * weak references to it, as ovsdb_row_clone() does for a modification. */
struct row *row_clone_shared(const struct row *, const struct table_schema *);
/* Full model: a copy sharing every datum of 'src', without its weak
 * references, as ovsdb_row_datum_clone() makes for the transaction
 * history. */
struct row *row_clone_datums(const struct row *, const struct table_schema *);
/* Drops column 'i' of 'row' (its datum is freed unless still shared) and
 * leaves it empty. */
void row_field_release(struct row *, const struct table_schema *,
                       unsigned int i);
/* Full model: '*dst' shares column 'i' of 'row' (its reference count,
 * allocated on first share, goes to '*refcnt'), as ovsdb_datum_clone()
 * does for a monitor's change set; shared_datum_release() drops it.  With
 * DATUM_COPY_DEEP '*dst' is a copy and '*refcnt' NULL. */
void row_field_share(struct row *, const struct table_schema *,
                     unsigned int i, struct datum *dst,
                     unsigned int **refcnt);
void shared_datum_release(struct datum *, unsigned int *refcnt,
                          const struct ovsdb_type *);
/* Makes column 'i' of 'row' its own before an in-place change. */
void row_field_unshare(struct row *, const struct table_schema *,
                       unsigned int i);

/* While true, records are read as ovsdb-tool convert reads a database into
 * a new schema (ovsdb_file_txn_from_json() with 'converting'): tables and
 * columns the schema lacks are skipped, every other value is parsed with
 * the new schema's type (db_load_file_as()). */
extern bool db_converting;

/* Sets the columns of 'row' named in 'json' (an object column -> value;
 * with 'is_diff', values of columns with max > 1 are diffs).  Returns NULL or an error;
 * on error 'row' may be partly updated. */
char *row_set_from_json(struct row *, const struct table_schema *,
                        const struct json *, bool is_diff);

/* How db_apply_rows() changes a table: the json-only model changes rows
 * in place, the full model through a transaction (txn.c). */
struct row_ops {
    void (*delete_row)(void *aux, struct table *, struct row *);
    /* The row to change in place of committed 'row'. */
    struct row *(*modify_row)(void *aux, struct table *, struct row *);
    /* Links in a new row, already filled in. */
    void (*insert_row)(void *aux, struct table *, struct row *);
};

/* Applies the tables of record 'json' (a JSON object) to 'db' through
 * 'ops', with 'aux' passed to them.  Returns NULL or a malloc'd error
 * naming table, row and column; on error the tables may be partly
 * changed. */
char *db_apply_rows(struct db *, const struct json *,
                    const struct row_ops *, void *aux);

/* Applies one transaction record of a database file (RFC 7047 "table
 * updates" shape, with _date/_comment ignored and "_is_diff" honoured).
 * Returns NULL or a malloc'd error naming table, row and column. */
char *db_apply_record(struct db *, const struct json *);

/* Builds the JSON of 'row': an object of every column ('all') or only the
 * columns with non-default values, plus "_uuid"/"_version" if asked. */
struct json *row_to_json(const struct row *, const struct table_schema *,
                         bool all_columns, bool with_uuid);

#endif
