/* Profile parsing, stage 3: checks of the whole profile once every line is
 * read (references covered, owners present, log ops valid). */
#include <stdlib.h>

#include "profile-parse.h"

/* How each table's rows are used by the other tables' columns. */
struct table_uses {
    bool *owned;                /* Through a children column. */
    bool *covered;              /* By a strong "ref ... cover". */
    bool *referenced;           /* By any reference. */
};

/* Records the references of one column; false if one points to a table
 * without a profile or a map has no key lines. */
static bool
note_column_uses(struct lexer *lx, const struct profile *p,
                 const struct table_spec *ts, const struct col_spec *cs,
                 struct table_uses *u)
{
    const struct atom_spec *as[2] = { &cs->elem, &cs->value };

    for (int k = 0; k < 2; k++) {
        const struct atom_spec *a = as[k];
        if (a->kind == S_CHILDREN && a->base) {
            u->owned[a->ref_table] = true;
            u->referenced[a->ref_table] = true;
        } else if (a->kind == S_REF && a->base) {
            u->referenced[a->ref_table] = true;
            if (a->ref_mode == REF_COVER && is_strong_ref(a->base)) {
                u->covered[a->ref_table] = true;
            }
            if (!p->tables[a->ref_table]) {
                lex_error(lx, "%s.%s references %s, which has no profile",
                          ts->t->name, cs->col->name,
                          p->schema->tables[a->ref_table]->name);
                return false;
            }
        }
    }
    for (size_t e = 0; e < cs->n_entries; e++) {
        const struct atom_spec *v = &cs->entries[e].value;
        if (v->kind == S_REF) {
            u->referenced[v->ref_table] = true;
        }
    }
    if (cs->form == F_MAP_KEYS && !cs->n_entries) {
        lex_error(lx, "%s.%s: map without key lines", ts->t->name,
                  cs->col->name);
        return false;
    }
    return true;
}

/* Children tables are owned, owned tables are children, and the rows of
 * non-root tables are owned or covered (else OVSDB would drop them). */
static bool
check_table_uses(struct lexer *lx, const struct table_spec *ts,
                 const struct table_uses *u)
{
    int t = ts->table;

    if (ts->children && !u->owned[t]) {
        lex_error(lx, "table %s: declared \"children\" but no column owns "
                  "its rows", ts->t->name);
        return false;
    } else if (!ts->children && u->owned[t]) {
        lex_error(lx, "table %s: rows owned through a children column, so "
                  "declare it \"table %s children\"", ts->t->name,
                  ts->t->name);
        return false;
    } else if (!ts->t->is_root && !u->owned[t] && !u->covered[t]
               && (ts->rows > 0 || ts->group_parent >= 0)) {
        lex_error(lx, "table %s is not a root table: its rows must be owned "
                  "(children) or referenced with \"ref %s cover\" from a "
                  "strong reference", ts->t->name, ts->t->name);
        return false;
    }
    return true;
}

static bool
has_children_column(const struct table_spec *ts)
{
    for (size_t c = 0; c < ts->n_cols; c++) {
        if (ts->cols[c].elem.kind == S_CHILDREN) {
            return true;
        }
    }
    return false;
}

/* Only its owner may reference a child row that a log deletes. */
static bool
check_child_delete(struct lexer *lx, const struct profile *p, int target)
{
    for (size_t t = 0; t < p->schema->n_tables; t++) {
        const struct table_spec *o = p->tables[t];
        for (size_t c = 0; o && c < o->n_cols; c++) {
            if (o->cols[c].elem.kind == S_REF
                && o->cols[c].elem.ref_table == target) {
                lex_error(lx, "log: %s rows are referenced from %s.%s, so "
                          "they cannot be deleted",
                          p->schema->tables[target]->name, o->t->name,
                          o->cols[c].col->name);
                return false;
            }
        }
    }
    return true;
}

static const char *
op_table_name(const struct profile *p, const struct log_op *op)
{
    return p->schema->tables[op->table]->name;
}

/* set-add of a reference inserts a row of the referenced table: a root
 * table's on its own, a child table's through its owner. */
static bool
check_set_add(struct lexer *lx, const struct profile *p,
              const struct log_op *op, const struct table_uses *u)
{
    const struct col_spec *cs = &p->tables[op->table]->cols[op->col_spec];
    if (op->has_value) {
        return true;
    }
    int target = cs->elem.ref_table;
    const struct table_spec *ts = p->tables[target];
    const char *name = p->schema->tables[target]->name;
    if (!ts) {
        lex_error(lx, "log set-add: %s.%s references %s, which has no "
                  "profile", op_table_name(p, op), cs->col->name, name);
        return false;
    } else if (ts->group_parent >= 0) {
        lex_error(lx, "log set-add: rows of %s belong to groups (\"per\"): "
                  "inserting is not supported", name);
        return false;
    } else if (!ts->t->is_root && !u->owned[target]) {
        lex_error(lx, "log set-add: %s rows are neither root nor owned "
                  "through a children column, so a new one would be "
                  "garbage collected", name);
        return false;
    }
    for (size_t c = 0; c < ts->n_cols; c++) {
        if (ts->cols[c].elem.kind == S_CHILDREN
            && ts->cols[c].col->type.n_min > 0) {
            lex_error(lx, "log set-add: new %s rows need children (%s)",
                      name, ts->cols[c].col->name);
            return false;
        }
    }
    return true;
}

/* A log operation changes only the rows it names. */
static bool
check_log_op(struct lexer *lx, const struct profile *p,
             const struct log_op *op, const struct table_uses *u)
{
    if (op->kind == OP_SET_ADD) {
        return check_set_add(lx, p, op, u);
    }
    const struct table_spec *ts = p->tables[op->table];
    bool child_op = op->kind == OP_CHILD_INSERT
                    || op->kind == OP_CHILD_DELETE;
    int target = child_op ? ts->cols[op->col_spec].elem.ref_table
                          : op->table;
    bool has_children = has_children_column(p->tables[target]);

    if (op->kind == OP_INSERT && ts->group_parent >= 0) {
        lex_error(lx, "log: rows of %s belong to groups (\"per\"): "
                  "inserting is not supported", ts->t->name);
        return false;
    } else if ((op->kind == OP_DELETE || op->kind == OP_INSERT)
               && !ts->t->is_root) {
        lex_error(lx, "log: %s rows can only be inserted or deleted "
                  "through their parent (child-insert/child-delete)",
                  ts->t->name);
        return false;
    } else if ((op->kind == OP_DELETE || op->kind == OP_CHILD_DELETE)
               && (has_children || (u->referenced[target]
                                    && op->kind == OP_DELETE))) {
        lex_error(lx, "log: deleting %s rows would also change other rows "
                  "(it owns children or is referenced)",
                  p->schema->tables[target]->name);
        return false;
    } else if (op->kind == OP_CHILD_DELETE) {
        return check_child_delete(lx, p, target);
    } else if (op->kind == OP_INSERT && has_children) {
        /* New rows start with no children: fine, unless the schema needs
         * at least one. */
        for (size_t c = 0; c < ts->n_cols; c++) {
            if (ts->cols[c].elem.kind == S_CHILDREN
                && ts->cols[c].col->type.n_min > 0) {
                lex_error(lx, "log insert: %s.%s needs children",
                          ts->t->name, ts->cols[c].col->name);
                return false;
            }
        }
    }
    return true;
}

bool
profile_check(struct lexer *lx, struct profile *p)
{
    size_t n = p->schema->n_tables;
    struct table_uses u = {
        .owned = xcalloc(n, sizeof *u.owned),
        .covered = xcalloc(n, sizeof *u.covered),
        .referenced = xcalloc(n, sizeof *u.referenced),
    };
    bool ok = true;

    for (size_t t = 0; ok && t < n; t++) {
        const struct table_spec *ts = p->tables[t];
        for (size_t c = 0; ok && ts && c < ts->n_cols; c++) {
            ok = note_column_uses(lx, p, ts, &ts->cols[c], &u);
        }
    }
    for (size_t t = 0; ok && t < n; t++) {
        if (!p->tables[t] && u.owned[t]) {
            /* Owned rows need the child table's own "table" line (without
             * it nothing counts them; profile_resolve() relies on it). */
            lex_error(lx, "table %s: rows owned through a children column, "
                      "so declare it \"table %s children\"",
                      p->schema->tables[t]->name,
                      p->schema->tables[t]->name);
            ok = false;
        } else {
            ok = !p->tables[t] || check_table_uses(lx, p->tables[t], &u);
        }
    }
    for (size_t i = 0; ok && i < p->n_ops; i++) {
        ok = check_log_op(lx, p, &p->ops[i], &u);
    }
    free(u.owned);
    free(u.covered);
    free(u.referenced);
    return ok;
}
