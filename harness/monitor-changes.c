/* A monitor's change set (see monitor-changes.h). */
#include "monitor-changes.h"

#include <stdlib.h>

#include "util.h"

void
monitor_changes_init(struct monitor_changes *mc, struct table *t)
{
    mc->table = t;
    hmap_init(&mc->rows);
    mc->order = NULL;
    mc->n = mc->allocated = 0;
}

static struct shared_datum *
share_row(struct row *row, const struct table_schema *ts)
{
    struct shared_datum *sd = xmalloc((ts->n_columns ? ts->n_columns : 1)
                                      * sizeof *sd);
    for (unsigned int i = 0; i < ts->n_columns; i++) {
        row_field_share(row, ts, i, &sd[i].d, &sd[i].refcnt);
    }
    return sd;
}

static void
release_row(struct shared_datum *sd, const struct table_schema *ts)
{
    if (sd) {
        for (unsigned int i = 0; i < ts->n_columns; i++) {
            shared_datum_release(&sd[i].d, sd[i].refcnt,
                                 &ts->columns[i]->type);
        }
        xfree(sd);
    }
}

void
monitor_changes_add(void *aux, struct table *t, struct row *old,
                    struct row *new)
{
    struct monitor_changes *mc = aux;

    if (t != mc->table) {
        return;
    }
    const struct table_schema *ts = t->schema;
    enum xalloc_category cat = xalloc_category_set(XALLOC_MODEL);
    struct monitor_change *c = xmalloc(sizeof *c);
    c->uuid = old ? old->uuid : new->uuid;
    c->row = new;
    c->old = old ? share_row(old, ts) : NULL;
    c->new = new ? share_row(new, ts) : NULL;
    hmap_insert(&mc->rows, &c->node, uuid_hash(&c->uuid));
    if (mc->n >= mc->allocated) {
        mc->allocated = mc->allocated * 2 + 16;
        mc->order = xrealloc(mc->order, mc->allocated * sizeof *mc->order);
    }
    mc->order[mc->n++] = c;
    xalloc_category_set(cat);
}

const struct column_schema *
monitor_change_first_changed(const struct monitor_changes *mc,
                             const struct monitor_change *c)
{
    const struct table_schema *ts = mc->table->schema;

    if (!c->old || !c->new) {
        return NULL;
    }
    for (unsigned int i = 0; i < ts->n_columns; i++) {
        if (!datum_equals(&c->old[i].d, &c->new[i].d,
                          &ts->columns[i]->type)) {
            return ts->columns[i];
        }
    }
    return NULL;
}

void
monitor_changes_destroy(struct monitor_changes *mc)
{
    const struct table_schema *ts = mc->table->schema;

    for (size_t i = 0; i < mc->n; i++) {
        struct monitor_change *c = mc->order[i];
        release_row(c->old, ts);
        release_row(c->new, ts);
        xfree(c);
    }
    xfree(mc->order);
    hmap_destroy(&mc->rows);
}
