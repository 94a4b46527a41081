/* The transaction history of a clustered database; see txn-history.h. */
#include "server/txn-history.h"

#include <string.h>

#include "server/db.h"
#include "ovsdb/schema.h"
#include "ovsdb/uuid.h"
#include "util.h"

/* At most this many transactions stay (ovsdb_txn_history_run()). */
#define HISTORY_MAX_TXNS 100

/* struct ovsdb_txn_table of a cloned transaction. */
struct history_table {
    struct history_table *next;
    const struct table *table;
    struct hmap rows;           /* struct history_row's by UUID hash. */
};

/* struct ovsdb_txn_row of a cloned transaction. */
struct history_row {
    struct hmap_node node;
    struct row *old, *new;      /* Datums shared with the database's. */
    size_t n_refs;
    struct uuid uuid;
    const struct table *table;
    struct list added_refs, deleted_refs;   /* Empty, as in OVS's clone. */
    unsigned int serial;
    unsigned long changed[];    /* One bit per column. */
};

struct history_txn {
    struct list node;           /* struct ovsdb_txn_history_node. */
    struct history_table *tables;
    long long n_atoms;
};

void
txn_history_init(struct txn_history *h)
{
    memset(h, 0, sizeof *h);
    list_init(&h->txns);
}

static long long
row_atoms(const struct row *row, const struct table_schema *ts)
{
    long long n = 0;
    for (unsigned int i = 0; row && i < ts->n_columns; i++) {
        n += row->fields[i].n * (ovsdb_type_is_map(&ts->columns[i]->type)
                                 ? 2 : 1);
    }
    return n;
}

static void
history_txn_destroy(struct history_txn *ht)
{
    for (struct history_table *t = ht->tables, *next; t; t = next) {
        next = t->next;
        struct hmap_node *node, *nn;
        for (node = hmap_first(&t->rows); node; node = nn) {
            nn = hmap_next(&t->rows, node);
            struct history_row *r = CONTAINER_OF(node, struct history_row,
                                                 node);
            row_destroy(r->old, t->table->schema);
            row_destroy(r->new, t->table->schema);
            xfree(r);
        }
        hmap_destroy(&t->rows);
        xfree(t);
    }
    xfree(ht);
}

void
txn_history_destroy(struct txn_history *h)
{
    while (!list_is_empty(&h->txns)) {
        struct list *e = h->txns.next;
        list_remove(e);
        history_txn_destroy(CONTAINER_OF(e, struct history_txn, node));
    }
    h->n_txns = 0;
    h->n_atoms = 0;
}

void
txn_history_begin(struct txn_history *h)
{
    enum xalloc_category old = xalloc_category_set(XALLOC_MODEL);
    h->cur = xzalloc(sizeof *h->cur);
    xalloc_category_set(old);
}

static struct history_table *
history_table(struct history_txn *ht, const struct table *table)
{
    for (struct history_table *t = ht->tables; t; t = t->next) {
        if (t->table == table) {
            return t;
        }
    }
    struct history_table *t = xmalloc(sizeof *t);
    t->table = table;
    hmap_init(&t->rows);
    t->next = ht->tables;
    ht->tables = t;
    return t;
}

void
txn_history_record_cb(void *h_, struct table *table, struct row *old,
                      struct row *new)
{
    struct txn_history *h = h_;
    const struct table_schema *ts = table->schema;
    size_t n_longs = (ts->n_columns + 8 * sizeof(unsigned long) - 1)
                     / (8 * sizeof(unsigned long));
    enum xalloc_category cat = xalloc_category_set(XALLOC_MODEL);
    struct history_row *r = xzalloc(sizeof *r
                                    + n_longs * sizeof(unsigned long));
    bool any = !old || !new;

    /* A modified row's unchanged columns share the old datum. */
    for (unsigned int i = 0; i < ts->n_columns; i++) {
        if (!old || !new || old->fields[i].keys != new->fields[i].keys
            || old->fields[i].n != new->fields[i].n) {
            r->changed[i / (8 * sizeof(unsigned long))]
                |= 1UL << (i % (8 * sizeof(unsigned long)));
            any = true;
        }
    }
    if (!any) {
        /* Neither new nor old, and nothing changed: OVS skips it. */
        xfree(r);
        xalloc_category_set(cat);
        return;
    }
    r->uuid = (old ? old : new)->uuid;
    r->table = table;
    list_init(&r->added_refs);
    list_init(&r->deleted_refs);
    r->old = old ? row_clone_datums(old, ts) : NULL;
    r->new = new ? row_clone_datums(new, ts) : NULL;
    struct history_table *t = history_table(h->cur, table);
    hmap_insert(&t->rows, &r->node, uuid_hash(&r->uuid));
    h->cur->n_atoms += row_atoms(old, ts) + row_atoms(new, ts);
    xalloc_category_set(cat);
}

void
txn_history_end(struct txn_history *h)
{
    struct history_txn *ht = h->cur;
    h->cur = NULL;
    list_push_back(&h->txns, &ht->node);
    h->n_txns++;
    h->n_atoms += ht->n_atoms;
}

void
txn_history_run(struct txn_history *h, const struct db *db)
{
    while (h->n_txns > 1
           && (h->n_txns > HISTORY_MAX_TXNS || h->n_atoms > db->n_atoms)) {
        struct list *e = h->txns.next;
        list_remove(e);
        struct history_txn *ht = CONTAINER_OF(e, struct history_txn, node);
        h->n_txns--;
        h->n_atoms -= ht->n_atoms;
        history_txn_destroy(ht);
    }
}
