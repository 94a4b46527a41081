/* The full model's transaction at load: a record becomes row changes, then
 * the commit checks and applies them as ovsdb-server does (see txn.h). */
#include "server/txn.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "server/db.h"
#include "ds.h"
#include "json.h"
#include "util.h"

#define LONG_BITS (sizeof(unsigned long) * CHAR_BIT)

/* Marks a weak_ref that is in no row's 'dst_refs' (as OVS's
 * hmap_node_nullify() does). */
#define DST_NODE_NULL ((struct hmap_node *) (uintptr_t) 1)

enum txn_order txn_order = TXN_ORDER_HASH;

/* Bumped by each hash-ordered pass, to mark the rows and tables it has
 * visited (OVS's for_each_txn_row() does the same). */
static unsigned int serial;

struct txn_row {
    struct hmap_node hmap_node; /* In its txn_table's 'txn_rows'. */
    unsigned int serial;        /* Last pass that visited it. */
    struct row *old;            /* Committed row, NULL if inserted. */
    struct row *new;            /* Row after the transaction, NULL if
                                 * deleted. */
    struct table *table;
    struct uuid uuid;
    size_t n_refs;              /* Strong references after the txn. */
    struct list added_refs;     /* Weak refs to add to destination rows. */
    struct list deleted_refs;   /* Weak refs to remove from them. */
    unsigned long changed[];    /* One bit per column that changed. */
};

/* The rows of one table in a transaction, by UUID (deleted ones too, which
 * the table no longer holds), as OVS's struct ovsdb_txn_table. */
struct txn_table {
    struct list node;           /* In txn's 'tables', in join order. */
    struct hmap txn_rows;       /* struct txn_row's, by UUID. */
    unsigned int serial;        /* Last pass that visited the table. */
    size_t n_processed;         /* Rows that pass has visited. */
};

struct txn {
    struct db *db;
    struct list tables;         /* struct txn_table's, in join order. */
    struct txn_table **by_table;    /* Per schema table, NULL until used. */
    /* TXN_ORDER_CREATION only: every txn_row, in the order they joined
     * (those determine_changes() drops too, which it does not free). */
    struct txn_row **rows;
    size_t n_rows, allocated_rows;
    struct hmap **txn_indexes;  /* Per table, its indexes' rows in this txn
                                 * (NULL until used). */
    long long n_atoms_diff;
    txn_commit_cb *commit_cb;   /* txn_commit()'s, for report_change(). */
    void *commit_aux;
};

const char *const txn_order_names[2] = { "hash", "creation" };

static bool
bit_is_set(const unsigned long *b, unsigned int i)
{
    return (b[i / LONG_BITS] >> (i % LONG_BITS)) & 1;
}

static void
bit_set(unsigned long *b, unsigned int i)
{
    b[i / LONG_BITS] |= 1UL << (i % LONG_BITS);
}

static const struct table_schema *
txn_row_schema(const struct txn_row *tr)
{
    return tr->table->schema;
}

static struct txn_row *
txn_row_create(struct txn *txn, struct table *t, struct row *old,
               struct row *new)
{
    size_t n_longs = (t->schema->n_columns + LONG_BITS - 1) / LONG_BITS;
    enum xalloc_category cat = xalloc_category_set(XALLOC_MODEL);
    struct txn_row *tr = xzalloc(sizeof *tr + n_longs * sizeof(long));
    struct txn_table **ttp = &txn->by_table[t->schema->index];

    if (!*ttp) {
        *ttp = xzalloc(sizeof **ttp);
        hmap_init(&(*ttp)->txn_rows);
        list_push_back(&txn->tables, &(*ttp)->node);
    }
    if (txn_order == TXN_ORDER_CREATION) {
        if (txn->n_rows >= txn->allocated_rows) {
            txn->allocated_rows = txn->allocated_rows * 2 + 16;
            txn->rows = xrealloc(txn->rows,
                                 txn->allocated_rows * sizeof *txn->rows);
        }
        txn->rows[txn->n_rows++] = tr;
    }
    xalloc_category_set(cat);

    tr->old = old;
    tr->new = new;
    tr->table = t;
    tr->uuid = old ? old->uuid : new->uuid;
    tr->n_refs = old ? row_ovs(old)->n_refs : 0;
    list_init(&tr->added_refs);
    list_init(&tr->deleted_refs);
    if (old) {
        row_ovs(old)->txn_row = tr;
    }
    if (new) {
        row_ovs(new)->txn_row = tr;
    }
    cat = xalloc_category_set(XALLOC_MODEL);
    hmap_insert(&(*ttp)->txn_rows, &tr->hmap_node, uuid_hash(&tr->uuid));
    xalloc_category_set(cat);
    return tr;
}

/* Returns the writable row for committed 'row': itself if the transaction
 * already holds it, else a copy sharing its datums that takes its place in
 * the table (ovsdb_txn_row_modify()). */
static struct row *
txn_row_modify(struct txn *txn, struct table *t, struct row *row)
{
    if (row_ovs(row)->txn_row) {
        return row;
    }
    struct row *new = row_clone_shared(row, t->schema);
    row_ovs(new)->n_refs = row_ovs(row)->n_refs;
    txn_row_create(txn, t, row, new);
    table_replace_row(t, row, new);
    return new;
}

static void
txn_row_delete(struct txn *txn, struct table *t, struct row *row)
{
    struct txn_row *tr = row_ovs(row)->txn_row;

    table_unlink_row(t, row);
    if (!tr) {
        txn_row_create(txn, t, row, NULL);
    } else {
        /* Inserted or modified in this transaction: the new row goes. */
        tr->new = NULL;
        row_destroy(row, t->schema);
    }
}

static struct txn_row *
find_txn_row(const struct txn *txn, const struct table *t,
             const struct uuid *uuid)
{
    const struct txn_table *tt = txn->by_table[t->schema->index];
    if (!tt) {
        return NULL;
    }
    for (struct hmap_node *n = hmap_first_with_hash(&tt->txn_rows,
                                                    uuid_hash(uuid));
         n; n = hmap_next_with_hash(n)) {
        struct txn_row *tr = CONTAINER_OF(n, struct txn_row, hmap_node);
        if (uuid_equals(&tr->uuid, uuid)) {
            return tr;
        }
    }
    return NULL;
}

static struct txn_row *
find_or_make_txn_row(struct txn *txn, struct table *t,
                     const struct uuid *uuid)
{
    struct txn_row *tr = find_txn_row(txn, t, uuid);
    if (tr) {
        return tr;
    }
    struct row *row = table_find_row(t, uuid);
    if (!row) {
        return NULL;
    }
    if (!row_ovs(row)->txn_row) {
        row = txn_row_modify(txn, t, row);
    }
    return row_ovs(row)->txn_row;
}

/* ---- Walking the transaction's rows ---- */

typedef char *txn_row_cb(struct txn *, struct txn_row *);

/* Calls 'cb' once for every row of 'txn', rows that join during the walk
 * included, until it returns an error.  TXN_ORDER_HASH walks as OVS's
 * for_each_txn_row() does: table by table in join order, each table's
 * 'txn_rows' in bucket order (so rows come at random addresses), again
 * until every row carries this pass's serial.  TXN_ORDER_CREATION walks
 * the rows in the order they joined, as the model did before. */
static char *
for_each_txn_row(struct txn *txn, txn_row_cb *cb)
{
    if (txn_order == TXN_ORDER_CREATION) {
        for (size_t k = 0; k < txn->n_rows; k++) {
            char *error = cb(txn, txn->rows[k]);
            if (error) {
                return error;
            }
        }
        return NULL;
    }

    bool any_work;
    serial++;
    do {
        any_work = false;
        for (struct list *l = txn->tables.next; l != &txn->tables;
             l = l->next) {
            struct txn_table *tt = CONTAINER_OF(l, struct txn_table, node);
            if (tt->serial != serial) {
                tt->serial = serial;
                tt->n_processed = 0;
            }
            while (tt->n_processed < tt->txn_rows.n) {
                /* 'cb' may insert rows (and so resize the map) or remove
                 * the row it is given: take the next one first. */
                struct hmap_node *n, *next;
                for (n = hmap_first(&tt->txn_rows); n; n = next) {
                    next = hmap_next(&tt->txn_rows, n);
                    struct txn_row *tr = CONTAINER_OF(n, struct txn_row,
                                                      hmap_node);
                    if (tr->serial != serial) {
                        tr->serial = serial;
                        tt->n_processed++;
                        any_work = true;
                        char *error = cb(txn, tr);
                        if (error) {
                            return error;
                        }
                    }
                }
            }
        }
    } while (any_work);
    return NULL;
}

/* ---- Reading the record ---- */

static void
txn_ops_delete_row(void *txn, struct table *t, struct row *row)
{
    txn_row_delete(txn, t, row);
}

static struct row *
txn_ops_modify_row(void *txn, struct table *t, struct row *row)
{
    return txn_row_modify(txn, t, row);
}

static void
txn_ops_insert_row(void *txn, struct table *t, struct row *row)
{
    /* As ovsdb_txn_row_insert(). */
    row_new_version(row);
    table_link_row(t, row);
    txn_row_create(txn, t, NULL, row);
}

void
txn_insert_row(struct txn *txn, struct table *t, struct row *row)
{
    txn_ops_insert_row(txn, t, row);
}

/* Changes the tables as rows of the transaction 'aux'. */
static const struct row_ops txn_row_ops = {
    txn_ops_delete_row, txn_ops_modify_row, txn_ops_insert_row,
};

/* ---- Walking datums ---- */

/* Calls 'cb' for each element of 'old' not in 'new' (delta -1) and each of
 * 'new' not in 'old' (+1); a map key whose value changed is both. */
typedef char *walk_cb(struct txn *, struct txn_row *,
                      const struct column_schema *, const union atom *key,
                      const union atom *value, int delta, void *aux);

static char *
walk_changes(struct txn *txn, struct txn_row *tr,
             const struct column_schema *c, const struct datum *old,
             const struct datum *new, walk_cb *cb, void *aux)
{
    const struct ovsdb_type *t = &c->type;
    unsigned int i = 0, j = 0;
    char *error = NULL;

    while (!error && (i < old->n || j < new->n)) {
        int cmp = (i >= old->n ? 1 : j >= new->n ? -1
                   : atom_compare(&old->keys[i], &new->keys[j], t->key.type));
        if (cmp < 0) {
            error = cb(txn, tr, c, &old->keys[i],
                       old->values ? &old->values[i] : NULL, -1, aux);
            i++;
        } else if (cmp > 0) {
            error = cb(txn, tr, c, &new->keys[j],
                       new->values ? &new->values[j] : NULL, 1, aux);
            j++;
        } else {
            if (old->values && !atom_equals(&old->values[i], &new->values[j],
                                            t->value.type)) {
                error = cb(txn, tr, c, &old->keys[i], &old->values[i], -1,
                           aux);
                if (!error) {
                    error = cb(txn, tr, c, &new->keys[j], &new->values[j], 1,
                               aux);
                }
            }
            i++;
            j++;
        }
    }
    return error;
}

static char *
walk_all(struct txn *txn, struct txn_row *tr, const struct column_schema *c,
         const struct datum *d, int delta, walk_cb *cb, void *aux)
{
    char *error = NULL;
    for (unsigned int i = 0; !error && i < d->n; i++) {
        error = cb(txn, tr, c, &d->keys[i], d->values ? &d->values[i] : NULL,
                   delta, aux);
    }
    return error;
}

static bool
is_ref(const struct base_type *b, enum ref_type type)
{
    return (b->type == ATOMIC_UUID && b->u.uuid.ref_table
            && b->u.uuid.ref_type == type);
}

static bool
column_has_refs(const struct column_schema *c, enum ref_type type)
{
    return is_ref(&c->type.key, type) || is_ref(&c->type.value, type);
}

static struct table *
ref_table(struct txn *txn, const struct base_type *b)
{
    return &txn->db->tables[b->u.uuid.ref_table->index];
}

/* ---- Strong references ---- */

static char *
adjust_ref(struct txn *txn, struct txn_row *tr, const struct base_type *b,
           const union atom *a, const struct column_schema *c, int delta)
{
    if (!is_ref(b, REF_STRONG) || uuid_equals(&a->uuid, &tr->uuid)) {
        return NULL;            /* Self-references do not count. */
    }
    struct table *dt = ref_table(txn, b);
    struct txn_row *dst = find_or_make_txn_row(txn, dt, &a->uuid);
    if (!dst) {
        char src_s[UUID_LEN + 1], dst_s[UUID_LEN + 1];
        uuid_format(&tr->uuid, src_s);
        uuid_format(&a->uuid, dst_s);
        return xasprintf("referential integrity violation: table %s column "
                         "%s row %s references nonexistent row %s in table "
                         "%s", tr->table->schema->name, c->name, src_s,
                         dst_s, dt->schema->name);
    }
    dst->n_refs += delta;
    return NULL;
}

static char *
adjust_refs_cb(struct txn *txn, struct txn_row *tr,
               const struct column_schema *c, const union atom *key,
               const union atom *value, int delta, void *aux)
{
    char *error = adjust_ref(txn, tr, &c->type.key, key, c, delta);
    if (!error && value) {
        error = adjust_ref(txn, tr, &c->type.value, value, c, delta);
    }
    return error;
}

static char *
update_row_ref_count(struct txn *txn, struct txn_row *tr)
{
    const struct table_schema *ts = txn_row_schema(tr);
    for (unsigned int i = 0; i < ts->n_columns; i++) {
        const struct column_schema *c = ts->columns[i];
        char *error = NULL;
        if (!bit_is_set(tr->changed, i)
            || (ref_columns == REF_COLUMNS_REFS
                && !column_has_refs(c, REF_STRONG))) {
            continue;
        }
        if (tr->old && !tr->new) {
            error = walk_all(txn, tr, c, &tr->old->fields[i], -1,
                             adjust_refs_cb, NULL);
        } else if (!tr->old && tr->new) {
            error = walk_all(txn, tr, c, &tr->new->fields[i], 1,
                             adjust_refs_cb, NULL);
        } else if (tr->old && tr->new) {
            error = walk_changes(txn, tr, c, &tr->old->fields[i],
                                 &tr->new->fields[i], adjust_refs_cb, NULL);
        }
        if (error) {
            return error;
        }
    }
    return NULL;
}

static char *
check_ref_count(struct txn *txn OVS_UNUSED, struct txn_row *tr)
{
    if (tr->old && !tr->new && tr->n_refs) {
        char s[UUID_LEN + 1];
        uuid_format(&tr->uuid, s);
        return xasprintf("referential integrity violation: cannot delete "
                         "%s row %s because of %zu remaining "
                         "reference(s)", tr->table->schema->name, s,
                         tr->n_refs);
    }
    return NULL;
}

static char *
update_ref_counts(struct txn *txn)
{
    /* Rows that join while counting (referenced rows) are visited too. */
    char *error = for_each_txn_row(txn, update_row_ref_count);
    return error ? error : for_each_txn_row(txn, check_ref_count);
}

/* ---- Garbage collection of unreferenced rows of non-root tables ---- */

static char *delete_garbage_row(struct txn *, struct txn_row *);

static char *
drop_ref(struct txn *txn, struct txn_row *tr, const struct base_type *b,
         const union atom *a)
{
    if (!is_ref(b, REF_STRONG) || uuid_equals(&a->uuid, &tr->uuid)) {
        return NULL;
    }
    struct txn_row *dst = find_or_make_txn_row(txn, ref_table(txn, b),
                                               &a->uuid);
    if (dst && !--dst->n_refs) {
        return delete_garbage_row(txn, dst);
    }
    return NULL;
}

static char *
delete_garbage_row(struct txn *txn, struct txn_row *tr)
{
    const struct table_schema *ts = txn_row_schema(tr);
    struct row *row = tr->new;

    if (ts->is_root || !row) {
        return NULL;
    }
    /* Unlink first, so that a reference cycle ends here. */
    table_unlink_row(tr->table, row);
    tr->new = NULL;
    char *error = NULL;
    for (unsigned int i = 0; !error && i < ts->n_columns; i++) {
        const struct column_schema *c = ts->columns[i];
        const struct datum *d = &row->fields[i];
        if (!column_has_refs(c, REF_STRONG)) {
            continue;
        }
        for (unsigned int j = 0; !error && j < d->n; j++) {
            error = drop_ref(txn, tr, &c->type.key, &d->keys[j]);
            if (!error && d->values) {
                error = drop_ref(txn, tr, &c->type.value, &d->values[j]);
            }
        }
    }
    row_destroy(row, ts);
    return error;
}

static char *
collect_garbage_row(struct txn *txn, struct txn_row *tr)
{
    if (tr->new && !tr->n_refs && !txn_row_schema(tr)->is_root) {
        return delete_garbage_row(txn, tr);
    }
    return NULL;
}

/* ---- Weak references ---- */

struct weak_ref *
weak_ref_clone(const struct weak_ref *src)
{
    const struct ovsdb_type *t = weak_ref_type(src);
    enum xalloc_category cat = xalloc_category_set(XALLOC_INDEX);
    struct weak_ref *w = xzalloc(weak_ref_size(t));

    w->dst_node.next = DST_NODE_NULL;
    list_init(&w->src_node);
    w->src_table = src->src_table;
    w->src = src->src;
    w->dst_table = src->dst_table;
    if (!weak_refs_slim) {
        w->dst = src->dst;
        ovsdb_type_clone(&w->type, &src->type);
    }
    atom_clone(&w->key, &src->key, t->key.type);
    if (t->value.type != ATOMIC_VOID) {
        atom_clone(&w->value, &src->value, t->value.type);
    }
    w->column_idx = src->column_idx;
    w->by_key = src->by_key;
    xalloc_category_set(cat);
    n_weak_refs++;
    return w;
}

static bool
weak_ref_equals(const struct weak_ref *a, const struct weak_ref *b)
{
    const struct ovsdb_type *t = weak_ref_type(a);

    return (a->src_table == b->src_table && uuid_equals(&a->src, &b->src)
            && a->column_idx == b->column_idx && a->by_key == b->by_key
            && atom_equals(&a->key, &b->key, t->key.type)
            && (t->value.type == ATOMIC_VOID
                || atom_equals(&a->value, &b->value, t->value.type)));
}

static struct weak_ref *
row_find_weak_ref(const struct row *dst, const struct weak_ref *w)
{
    const struct hmap *refs = &row_ovs(dst)->dst_refs;
    for (struct hmap_node *n = hmap_first_with_hash(refs, weak_ref_hash(w));
         n; n = hmap_next_with_hash(n)) {
        struct weak_ref *x = CONTAINER_OF(n, struct weak_ref, dst_node);
        if (weak_ref_equals(x, w)) {
            return x;
        }
    }
    return NULL;
}

/* Where find_and_add_weak_refs() puts the elements whose destination does
 * not exist: collected, then removed from the datum. */
struct missing {
    struct datum d;
    unsigned int allocated;
};

static void
add_weak_ref(struct txn *txn, const struct row *src, struct table *src_table,
             const struct row *dst, struct table *dst_table, struct list *list,
             const union atom *key, const union atom *value, bool by_key,
             const struct column_schema *c)
{
    if (src == dst) {
        return;
    }
    enum xalloc_category cat = xalloc_category_set(XALLOC_INDEX);
    struct weak_ref *w = xzalloc(weak_ref_size(&c->type));
    w->src_table = src_table;
    w->src = src->uuid;
    w->dst_table = dst_table;
    if (!weak_refs_slim) {
        w->dst = dst->uuid;
        ovsdb_type_clone(&w->type, &c->type);
    }
    atom_clone(&w->key, key, c->type.key.type);
    if (c->type.value.type != ATOMIC_VOID) {
        atom_clone(&w->value, value, c->type.value.type);
    }
    w->by_key = by_key;
    w->column_idx = c->index;
    w->dst_node.next = DST_NODE_NULL;
    list_push_back(list, &w->src_node);
    xalloc_category_set(cat);
    n_weak_refs++;
}

static void
find_and_add_weak_refs(struct txn *txn, struct txn_row *tr,
                       const struct row *src, const struct datum *d,
                       const struct column_schema *c, struct list *list,
                       struct missing *missing)
{
    for (int side = 0; side < 2; side++) {
        const struct base_type *b = side ? &c->type.value : &c->type.key;
        if (!is_ref(b, REF_WEAK)) {
            continue;
        }
        struct table *dt = ref_table(txn, b);
        for (unsigned int i = 0; i < d->n; i++) {
            const union atom *key = &d->keys[i];
            const union atom *value = d->values ? &d->values[i] : NULL;
            const struct row *dst = table_find_row(dt, side ? &value->uuid
                                                            : &key->uuid);
            if (dst) {
                add_weak_ref(txn, src, tr->table, dst, dt, list, key, value,
                             !side, c);
            } else if (missing) {
                struct datum *m = &missing->d;
                if (m->n >= missing->allocated) {
                    missing->allocated = missing->allocated * 2 + 4;
                    m->keys = xrealloc(m->keys,
                                       missing->allocated * sizeof *m->keys);
                }
                m->keys[m->n++] = *key;
            }
        }
    }
}

/* Collects the elements of 'd' whose weak destination changed into
 * 'added' / 'removed' (shallow copies of the atoms). */
struct changes {
    struct datum added, removed;
    unsigned int n_added, n_removed;
};

static void
push_atom(struct datum *d, unsigned int *allocated, const union atom *key,
          const union atom *value)
{
    if (d->n >= *allocated) {
        *allocated = *allocated * 2 + 4;
        d->keys = xrealloc(d->keys, *allocated * sizeof *d->keys);
        d->values = xrealloc(d->values, *allocated * sizeof *d->values);
    }
    d->keys[d->n] = *key;
    if (value) {
        d->values[d->n] = *value;
    }
    d->n++;
}

static char *
collect_changes_cb(struct txn *txn, struct txn_row *tr,
                   const struct column_schema *c, const union atom *key,
                   const union atom *value, int delta, void *aux)
{
    struct changes *ch = aux;
    if (delta > 0) {
        push_atom(&ch->added, &ch->n_added, key, value);
    } else {
        push_atom(&ch->removed, &ch->n_removed, key, value);
    }
    return NULL;
}

/* Removes from column 'i' of 'row' every element whose key is in 'keys'
 * (dangling weak references, or references to rows deleted now).  If
 * 'keys' has values and the column is a map, a pair goes only if its value
 * matches too, as OVS subtracts pairs: a map key that this transaction
 * points at another row keeps its new value when the old one's row is
 * deleted. */
static void
remove_keys(struct row *row, const struct table_schema *ts, unsigned int i,
            const struct datum *keys)
{
    const struct ovsdb_type *t = &ts->columns[i]->type;

    if (!keys->n) {
        return;
    }
    row_field_unshare(row, ts, i);
    struct datum *d = &row->fields[i];
    unsigned int n = 0;
    for (unsigned int j = 0; j < d->n; j++) {
        bool drop = false;
        for (unsigned int k = 0; k < keys->n && !drop; k++) {
            drop = (atom_equals(&d->keys[j], &keys->keys[k], t->key.type)
                    && (!d->values || !keys->values
                        || atom_equals(&d->values[j], &keys->values[k],
                                       t->value.type)));
        }
        if (drop) {
            atom_destroy(&d->keys[j], t->key.type);
            if (d->values) {
                atom_destroy(&d->values[j], t->value.type);
            }
        } else {
            d->keys[n] = d->keys[j];
            if (d->values) {
                d->values[n] = d->values[j];
            }
            n++;
        }
    }
    d->n = n;
}

/* A datum's reference count, allocated by its first lazy copy. */
static void
keep_refcnt(unsigned int **refcnt)
{
    if (!*refcnt) {
        *refcnt = xmalloc_as(XALLOC_MODEL, sizeof **refcnt);
        **refcnt = 1;
    }
}

/* OVS copies the whole datum of an inserted row's column as "added", then
 * drops the copy: with DATUM_COPY_LAZY that gives the datum a reference
 * count, which stays; with DATUM_COPY_DEEP it copies the atoms. */
static void
copy_as_added(struct row *row, const struct table_schema *ts, unsigned int i)
{
    if (datum_copy == DATUM_COPY_DEEP) {
        const struct ovsdb_type *t = &ts->columns[i]->type;
        struct datum added;
        datum_clone(&added, &row->fields[i], t);
        datum_destroy(&added, t);
    } else {
        keep_refcnt(&row_refcnts(row, ts)[i]);
    }
}

/* Weak references of column 'i' of 'tr''s new row: elements pointing to
 * rows this transaction deletes go, references for added elements are
 * created (dangling ones removed from the datum), and removed elements'
 * references are queued for deletion. */
static char *
assess_column(struct txn *txn, struct txn_row *tr,
              const struct table_schema *ts, unsigned int i)
{
    const struct column_schema *c = ts->columns[i];
    struct datum *d = &tr->new->fields[i];
    unsigned int orig_n = d->n;

    /* Elements pointing to rows deleted by this transaction. */
    struct datum gone = { 0, NULL, NULL };
    unsigned int gone_allocated = 0;
    struct list *l, *next;
    for (l = tr->deleted_refs.next; l != &tr->deleted_refs; l = next) {
        next = l->next;
        struct weak_ref *w = CONTAINER_OF(l, struct weak_ref,
                                          src_node);
        if (w->column_idx == i) {
            push_atom(&gone, &gone_allocated, &w->key,
                      ovsdb_type_is_map(&c->type) ? &w->value : NULL);
            list_remove(&w->src_node);
        }
    }
    remove_keys(tr->new, ts, i, &gone);
    xfree(gone.keys);
    xfree(gone.values);
    if (ref_columns == REF_COLUMNS_ALL) {
        /* OVS subtracted 'gone' even when empty, which unshares. */
        row_field_unshare(tr->new, ts, i);
    }

    struct changes ch;
    memset(&ch, 0, sizeof ch);
    if (d->n != orig_n || bit_is_set(tr->changed, i)
        || ref_columns == REF_COLUMNS_ALL) {
        if (tr->old) {
            walk_changes(txn, tr, c, &tr->old->fields[i], d,
                         collect_changes_cb, &ch);
        } else {
            copy_as_added(tr->new, ts, i);
            if (column_has_refs(c, REF_WEAK)) {
                walk_all(txn, tr, c, d, 1, collect_changes_cb, &ch);
            }
        }
    }
    struct missing missing;
    memset(&missing, 0, sizeof missing);
    find_and_add_weak_refs(txn, tr, tr->new, &ch.added, c,
                           &tr->added_refs, &missing);
    find_and_add_weak_refs(txn, tr, tr->new, &ch.removed, c,
                           &tr->deleted_refs, NULL);
    xfree(ch.added.keys);
    xfree(ch.added.values);
    xfree(ch.removed.keys);
    xfree(ch.removed.values);
    remove_keys(tr->new, ts, i, &missing.d);
    xfree(missing.d.keys);

    if (d->n != orig_n) {
        bit_set(tr->changed, i);
        if (d->n < c->type.n_min) {
            char s[UUID_LEN + 1];
            uuid_format(&tr->uuid, s);
            return xasprintf("constraint violation: deleting %u weak "
                             "reference(s) to missing rows from "
                             "column %s of %s row %s left fewer "
                             "elements than the column allows",
                             orig_n - d->n, c->name, ts->name, s);
        }
    }
    return NULL;
}

static char *
assess_weak_refs(struct txn *txn, struct txn_row *tr)
{
    {
        const struct table_schema *ts = txn_row_schema(tr);

        if (tr->old && !tr->new) {
            /* Rows pointing here drop those atoms at commit. */
            struct hmap *refs = &row_ovs(tr->old)->dst_refs;
            for (struct hmap_node *n = hmap_first(refs); n;
                 n = hmap_next(refs, n)) {
                struct weak_ref *w = CONTAINER_OF(n, struct weak_ref,
                                                  dst_node);
                struct txn_row *src = find_or_make_txn_row(txn, w->src_table,
                                                           &w->src);
                if (src) {
                    list_push_back(&src->deleted_refs, &w->src_node);
                }
            }
            /* Its own references leave their destinations. */
            for (unsigned int i = 0; i < ts->n_columns; i++) {
                if (column_has_refs(ts->columns[i], REF_WEAK)) {
                    find_and_add_weak_refs(txn, tr, tr->old,
                                           &tr->old->fields[i],
                                           ts->columns[i], &tr->deleted_refs,
                                           NULL);
                }
            }
        }
        if (!tr->new) {
            return NULL;
        }
        for (unsigned int i = 0; i < ts->n_columns; i++) {
            if (ref_columns == REF_COLUMNS_ALL
                || column_has_refs(ts->columns[i], REF_WEAK)) {
                char *error = assess_column(txn, tr, ts, i);
                if (error) {
                    return error;
                }
            }
        }
        if (ref_columns == REF_COLUMNS_ALL && !tr->old
            && datum_copy == DATUM_COPY_LAZY) {
            /* _uuid and _version are columns to OVS: copied as "added"
             * too, each keeps a count (slots n_columns and after). */
            for (unsigned int i = ts->n_columns; i < row_n_refcnts(ts); i++) {
                keep_refcnt(&row_refcnts(tr->new, ts)[i]);
            }
        }
    }
    return NULL;
}

/* ---- Indexes ---- */

static uint32_t
index_hash(const struct row *row, const struct table_schema *ts,
           const struct index_schema *idx)
{
    uint32_t hash = 0;
    for (unsigned int j = 0; j < idx->n_columns; j++) {
        unsigned int c = idx->columns[j];
        hash = datum_hash(&row->fields[c], &ts->columns[c]->type, hash);
    }
    return hash;
}

static bool
index_equals(const struct row *a, const struct row *b,
             const struct table_schema *ts, const struct index_schema *idx)
{
    for (unsigned int j = 0; j < idx->n_columns; j++) {
        unsigned int c = idx->columns[j];
        if (!datum_equals(&a->fields[c], &b->fields[c],
                          &ts->columns[c]->type)) {
            return false;
        }
    }
    return true;
}

static struct row *
index_search(const struct hmap *index, const struct row *row,
             const struct table_schema *ts, unsigned int i, uint32_t hash)
{
    for (struct hmap_node *n = hmap_first_with_hash(index, hash); n;
         n = hmap_next_with_hash(n)) {
        struct row *irow = row_from_index_node(n, ts, i);
        if (index_equals(row, irow, ts, &ts->indexes[i])) {
            return irow;
        }
    }
    return NULL;
}

static char *
duplicate_error(const struct table_schema *ts, unsigned int i,
                const struct row *a, const struct row *b)
{
    char sa[UUID_LEN + 1], sb[UUID_LEN + 1];
    struct ds cols = DS_EMPTY_INITIALIZER;

    for (unsigned int j = 0; j < ts->indexes[i].n_columns; j++) {
        ds_put_format(&cols, "%s%s", j ? ", " : "",
                      ts->columns[ts->indexes[i].columns[j]]->name);
    }
    uuid_format(&a->uuid, sa);
    uuid_format(&b->uuid, sb);
    char *error = xasprintf("constraint violation: rows %s and %s of table "
                            "%s have the same values for index on %s",
                            sa, sb, ts->name, ds_cstr(&cols));
    ds_destroy(&cols);
    return error;
}

static char *
check_index_uniqueness(struct txn *txn, struct txn_row *tr)
{
    {
        const struct table_schema *ts = txn_row_schema(tr);
        if (!tr->new || !ts->n_indexes) {
            return NULL;
        }
        struct hmap **txn_indexes = &txn->txn_indexes[ts->index];
        enum xalloc_category cat = xalloc_category_set(XALLOC_INDEX);
        if (!*txn_indexes) {
            *txn_indexes = xmalloc(ts->n_indexes * sizeof **txn_indexes);
            for (unsigned int i = 0; i < ts->n_indexes; i++) {
                hmap_init(&(*txn_indexes)[i]);
            }
        }
        for (unsigned int i = 0; i < ts->n_indexes; i++) {
            uint32_t hash = index_hash(tr->new, ts, &ts->indexes[i]);
            struct row *irow = index_search(&(*txn_indexes)[i], tr->new, ts,
                                            i, hash);
            if (!irow) {
                irow = index_search(&tr->table->indexes[i], tr->new, ts, i,
                                    hash);
                if (irow && row_ovs(irow)->txn_row) {
                    irow = NULL;    /* In this txn: checked above. */
                }
            }
            if (irow) {
                xalloc_category_set(cat);
                return duplicate_error(ts, i, irow, tr->new);
            }
            hmap_insert(&(*txn_indexes)[i], row_index_node(tr->new, ts, i),
                        hash);
        }
        xalloc_category_set(cat);
    }
    return NULL;
}

/* ---- Commit ---- */

static bool
row_columns_equal(const struct row *a, const struct row *b,
                  const struct table_schema *ts, unsigned long *changed)
{
    bool equal = true;
    for (unsigned int i = 0; i < ts->n_columns; i++) {
        if (!datum_equals(&a->fields[i], &b->fields[i],
                          &ts->columns[i]->type)) {
            bit_set(changed, i);
            equal = false;
        }
    }
    return equal;
}

static char *
determine_changes(struct txn *txn, struct txn_row *tr)
{
    {
        const struct table_schema *ts = txn_row_schema(tr);
        if (tr->old && tr->new) {
            if (row_columns_equal(tr->old, tr->new, ts, tr->changed)) {
                /* Nothing changed: put the committed row back. */
                table_replace_row(tr->table, tr->new, tr->old);
                row_destroy(tr->new, ts);
                row_ovs(tr->old)->txn_row = NULL;
                tr->old = tr->new = NULL;
                hmap_remove(&txn->by_table[ts->index]->txn_rows,
                            &tr->hmap_node);
                if (txn_order == TXN_ORDER_HASH) {
                    /* Else txn->rows[] still holds it. */
                    xfree(tr);
                }
            }
        } else if (tr->old || tr->new) {
            for (unsigned int i = 0; i < ts->n_columns; i++) {
                bit_set(tr->changed, i);
            }
        }
    }
    return NULL;
}

static char *
check_max_rows(struct txn *txn OVS_UNUSED, struct txn_row *tr)
{
    const struct table *t = tr->table;
    if (t->schema->max_rows && t->n_rows > (size_t) t->schema->max_rows) {
        return xasprintf("constraint violation: table %s would hold %zu "
                         "rows, more than its maxRows %lld",
                         t->schema->name, t->n_rows, t->schema->max_rows);
    }
    return NULL;
}

static long long
row_atoms(const struct row *row, const struct table_schema *ts)
{
    long long n = 0;
    for (unsigned int i = 0; i < ts->n_columns; i++) {
        n += row->fields[i].n * (ovsdb_type_is_map(&ts->columns[i]->type)
                                 ? 2 : 1);
    }
    return n;
}

static char *
count_atoms(struct txn *txn, struct txn_row *tr)
{
    const struct table_schema *ts = txn_row_schema(tr);
    if (tr->new) {
        txn->n_atoms_diff += row_atoms(tr->new, ts);
    }
    if (tr->old) {
        txn->n_atoms_diff -= row_atoms(tr->old, ts);
    }
    return NULL;
}

/* A modified row that changed gets a new _version, as OVS's
 * update_version() gives it: in the commit's walk order, so with
 * --txn-order creation the rows of one transaction draw theirs in another
 * order. */
static char *
update_version(struct txn *txn OVS_UNUSED, struct txn_row *tr)
{
    if (tr->old && tr->new) {
        const struct table_schema *ts = txn_row_schema(tr);
        for (unsigned int i = 0; i < ts->n_columns; i++) {
            if (bit_is_set(tr->changed, i)) {
                row_new_version(tr->new);
                break;
            }
        }
    }
    return NULL;
}

static char *
precommit(struct txn *txn)
{
    char *error;

    for_each_txn_row(txn, determine_changes);
    if ((error = update_ref_counts(txn))
        || (error = for_each_txn_row(txn, collect_garbage_row))
        || (error = for_each_txn_row(txn, check_max_rows))
        || (error = for_each_txn_row(txn, assess_weak_refs))
        || (error = for_each_txn_row(txn, check_index_uniqueness))) {
        return error;
    }
    for_each_txn_row(txn, count_atoms);
    for_each_txn_row(txn, update_version);
    return NULL;
}

static char *
update_weak_refs(struct txn *txn OVS_UNUSED, struct txn_row *tr)
{
    struct list *l, *next;

    for (l = tr->deleted_refs.next; l != &tr->deleted_refs; l = next) {
        next = l->next;
        struct weak_ref *w = CONTAINER_OF(l, struct weak_ref, src_node);
        struct row *dst = table_find_row(w->dst_table, weak_ref_dst(w));
        if (dst) {
            struct weak_ref *dw = row_find_weak_ref(dst, w);
            if (dw) {
                hmap_remove(&row_ovs(dst)->dst_refs, &dw->dst_node);
                weak_ref_destroy(dw);
            }
        }
        list_remove(&w->src_node);
        if (w->dst_node.next == DST_NODE_NULL) {
            weak_ref_destroy(w);
        }
    }
    for (l = tr->added_refs.next; l != &tr->added_refs; l = next) {
        next = l->next;
        struct weak_ref *w = CONTAINER_OF(l, struct weak_ref, src_node);
        struct row *dst = table_find_row(w->dst_table, weak_ref_dst(w));
        list_remove(&w->src_node);
        if (dst) {
            enum xalloc_category cat = xalloc_category_set(XALLOC_INDEX);
            hmap_insert(&row_ovs(dst)->dst_refs, &w->dst_node,
                        weak_ref_hash(w));
            xalloc_category_set(cat);
        } else {
            /* Its destination was collected as garbage in this txn. */
            weak_ref_destroy(w);
        }
    }
    return NULL;
}

static char *
commit_row(struct txn *txn OVS_UNUSED, struct txn_row *tr)
{
    const struct table_schema *ts = txn_row_schema(tr);
    enum xalloc_category cat = xalloc_category_set(XALLOC_INDEX);

    for (unsigned int i = 0; i < ts->n_indexes; i++) {
        if (tr->old) {
            hmap_remove(&tr->table->indexes[i],
                        row_index_node(tr->old, ts, i));
        }
        if (tr->new) {
            struct hmap_node *node = row_index_node(tr->new, ts, i);
            hmap_insert(&tr->table->indexes[i], node, node->hash);
        }
    }
    xalloc_category_set(cat);
    if (tr->new) {
        row_ovs(tr->new)->n_refs = tr->n_refs;
        row_ovs(tr->new)->txn_row = NULL;
    }
    if (tr->old) {
        row_ovs(tr->old)->txn_row = NULL;
        row_destroy(tr->old, ts);
    }
    return NULL;
}

static void
free_ref_list(struct txn *txn, struct list *list)
{
    struct list *l, *next;
    for (l = list->next; l != list; l = next) {
        next = l->next;
        struct weak_ref *w = CONTAINER_OF(l, struct weak_ref, src_node);
        list_remove(&w->src_node);
        if (w->dst_node.next == DST_NODE_NULL) {
            weak_ref_destroy(w);
        }
    }
}

/* Undoes the changes of 'tr' (each row has one txn_row, so the order does
 * not matter). */
static char *
abort_row(struct txn *txn, struct txn_row *tr)
{
    {
        const struct table_schema *ts = txn_row_schema(tr);

        free_ref_list(txn, &tr->added_refs);
        free_ref_list(txn, &tr->deleted_refs);
        if (tr->old && tr->new) {
            table_replace_row(tr->table, tr->new, tr->old);
            row_destroy(tr->new, ts);
        } else if (tr->new) {
            table_unlink_row(tr->table, tr->new);
            row_destroy(tr->new, ts);
        } else if (tr->old) {
            table_link_row(tr->table, tr->old);
        }
        if (tr->old) {
            row_ovs(tr->old)->txn_row = NULL;
        }
    }
    return NULL;
}

static void
abort_txn(struct txn *txn)
{
    for_each_txn_row(txn, abort_row);
}

/* Frees the txn_rows: in TXN_ORDER_HASH, in each table's bucket order, as
 * ovsdb_txn_row_commit() frees them. */
static void
txn_destroy(struct txn *txn)
{
    for (size_t k = 0; k < txn->n_rows; k++) {
        xfree(txn->rows[k]);
    }
    xfree(txn->rows);
    for (struct list *l = txn->tables.next, *next; l != &txn->tables;
         l = next) {
        struct txn_table *tt = CONTAINER_OF(l, struct txn_table, node);
        next = l->next;
        if (txn_order == TXN_ORDER_HASH) {
            struct hmap_node *n, *nn;
            for (n = hmap_first(&tt->txn_rows); n; n = nn) {
                nn = hmap_next(&tt->txn_rows, n);
                xfree(CONTAINER_OF(n, struct txn_row, hmap_node));
            }
        }
        hmap_destroy(&tt->txn_rows);
        xfree(tt);
    }
    xfree(txn->by_table);
    for (unsigned int i = 0; i < txn->db->schema->n_tables; i++) {
        struct hmap *h = txn->txn_indexes[i];
        if (h) {
            for (unsigned int j = 0; j < txn->db->schema->tables[i]->n_indexes;
                 j++) {
                hmap_destroy(&h[j]);
            }
            xfree(h);
        }
    }
    xfree(txn->txn_indexes);
}

struct txn *
txn_create(struct db *db)
{
    enum xalloc_category cat = xalloc_category_set(XALLOC_MODEL);
    struct txn *txn = xzalloc(sizeof *txn);
    xalloc_category_set(cat);

    txn->db = db;
    list_init(&txn->tables);
    txn->by_table = xcalloc(db->schema->n_tables ? db->schema->n_tables : 1,
                            sizeof *txn->by_table);
    txn->txn_indexes = xcalloc(db->schema->n_tables ? db->schema->n_tables
                                                    : 1,
                               sizeof *txn->txn_indexes);
    return txn;
}

struct row *
txn_modify_row(struct txn *txn, struct table *t, struct row *row)
{
    return txn_row_modify(txn, t, row);
}

static char *
report_change(struct txn *txn, struct txn_row *tr)
{
    if (tr->old || tr->new) {
        txn->commit_cb(txn->commit_aux, tr->table, tr->old, tr->new);
    }
    return NULL;
}

char *
txn_commit(struct txn *txn, txn_commit_cb *cb, void *aux)
{
    char *error = precommit(txn);

    if (error) {
        abort_txn(txn);
    } else {
        struct db *db = txn->db;
        db->n_atoms += txn->n_atoms_diff;
        if (cb) {
            txn->commit_cb = cb;
            txn->commit_aux = aux;
            for_each_txn_row(txn, report_change);
        }
        for_each_txn_row(txn, update_weak_refs);
        for_each_txn_row(txn, commit_row);
        db->n_txns++;
    }
    txn_destroy(txn);
    xfree(txn);
    return error;
}

void
txn_abort(struct txn *txn)
{
    abort_txn(txn);
    txn_destroy(txn);
    xfree(txn);
}

char *
txn_apply_record(struct db *db, const struct json *json)
{
    return txn_apply_record_cb(db, json, NULL, NULL);
}

char *
txn_apply_record_cb(struct db *db, const struct json *json,
                    txn_commit_cb *cb, void *aux)
{
    struct txn *txn = txn_create(db);
    char *error = db_apply_rows(db, json, &txn_row_ops, txn);
    if (error) {
        abort_txn(txn);
        txn_destroy(txn);
        xfree(txn);
        return error;
    }
    return txn_commit(txn, cb, aux);
}
