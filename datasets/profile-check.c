/* Profile parsing, stage 3: checks of the whole profile once every line is
 * read (references covered, owners present, log ops valid). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "json.h"
#include "ovsdb/datum.h"
#include "profile-parse.h"
#include "util.h"

bool
profile_check(struct lexer *lx, struct profile *p)
{
    const struct db_schema *s = p->schema;
    /* Which tables are referenced, and how. */
    bool *owned = xcalloc(s->n_tables, sizeof *owned);
    bool *covered = xcalloc(s->n_tables, sizeof *covered);
    bool *referenced = xcalloc(s->n_tables, sizeof *referenced);
    bool ok = true;
    for (size_t t = 0; t < s->n_tables; t++) {
        const struct table_spec *ts = p->tables[t];
        for (size_t c = 0; ts && c < ts->n_cols; c++) {
            const struct col_spec *cs = &ts->cols[c];
            const struct atom_spec *as[2] = { &cs->elem, &cs->value };
            for (int k = 0; k < 2; k++) {
                if (as[k]->kind == S_CHILDREN && as[k]->base) {
                    owned[as[k]->ref_table] = true;
                    referenced[as[k]->ref_table] = true;
                } else if (as[k]->kind == S_REF && as[k]->base) {
                    referenced[as[k]->ref_table] = true;
                    if (as[k]->ref_mode == REF_COVER
                        && is_strong_ref(as[k]->base)) {
                        covered[as[k]->ref_table] = true;
                    }
                    if (!p->tables[as[k]->ref_table]) {
                        lex_error(lx, "%s.%s references %s, which has no "
                                  "profile", ts->t->name, cs->col->name,
                                  s->tables[as[k]->ref_table]->name);
                        ok = false;
                    }
                }
            }
            for (size_t e = 0; e < cs->n_entries; e++) {
                const struct atom_spec *v = &cs->entries[e].value;
                if (v->kind == S_REF) {
                    referenced[v->ref_table] = true;
                }
            }
            if (cs->form == F_MAP_KEYS && !cs->n_entries) {
                lex_error(lx, "%s.%s: map without key lines", ts->t->name,
                          cs->col->name);
                ok = false;
            }
        }
    }
    for (size_t t = 0; ok && t < s->n_tables; t++) {
        const struct table_spec *ts = p->tables[t];
        if (!ts) {
            continue;
        }
        if (ts->children && !owned[t]) {
            lex_error(lx, "table %s: declared \"children\" but no column "
                      "owns its rows", ts->t->name);
            ok = false;
        } else if (!ts->children && owned[t]) {
            lex_error(lx, "table %s: rows owned through a children column, "
                      "so declare it \"table %s children\"", ts->t->name,
                      ts->t->name);
            ok = false;
        } else if (!s->tables[t]->is_root && !owned[t] && !covered[t]
                   && (ts->rows > 0 || ts->group_parent >= 0)) {
            lex_error(lx, "table %s is not a root table: its rows must be "
                      "owned (children) or referenced with \"ref %s cover\" "
                      "from a strong reference", ts->t->name, ts->t->name);
            ok = false;
        }
    }
    for (size_t i = 0; ok && i < p->n_ops; i++) {
        const struct log_op *op = &p->ops[i];
        const struct table_spec *ts = p->tables[op->table];
        int target = op->table;
        if (op->kind == OP_CHILD_INSERT || op->kind == OP_CHILD_DELETE) {
            target = ts->cols[op->col_spec].elem.ref_table;
        }
        bool has_children = false;
        for (size_t c = 0; c < p->tables[target]->n_cols; c++) {
            if (p->tables[target]->cols[c].elem.kind == S_CHILDREN) {
                has_children = true;
            }
        }
        if (op->kind == OP_INSERT && ts->group_parent >= 0) {
            lex_error(lx, "log: rows of %s belong to groups (\"per\"): "
                      "inserting is not supported", ts->t->name);
            ok = false;
        } else if ((op->kind == OP_DELETE || op->kind == OP_INSERT)
            && !s->tables[op->table]->is_root) {
            lex_error(lx, "log: %s rows can only be inserted or deleted "
                      "through their parent (child-insert/child-delete)",
                      ts->t->name);
            ok = false;
        } else if ((op->kind == OP_DELETE || op->kind == OP_CHILD_DELETE)
                   && (has_children || (referenced[target]
                                        && op->kind == OP_DELETE))) {
            lex_error(lx, "log: deleting %s rows would also change other "
                      "rows (it owns children or is referenced)",
                      s->tables[target]->name);
            ok = false;
        } else if (op->kind == OP_CHILD_DELETE) {
            /* Only its owner may reference a deletable child. */
            for (size_t t = 0; t < s->n_tables && ok; t++) {
                const struct table_spec *o = p->tables[t];
                for (size_t c = 0; o && c < o->n_cols; c++) {
                    if (o->cols[c].elem.kind == S_REF
                        && o->cols[c].elem.ref_table == target) {
                        lex_error(lx, "log: %s rows are referenced from "
                                  "%s.%s, so they cannot be deleted",
                                  s->tables[target]->name, o->t->name,
                                  o->cols[c].col->name);
                        ok = false;
                        break;
                    }
                }
            }
        } else if (op->kind == OP_INSERT && has_children) {
            /* New rows start with no children: fine, unless the schema
             * needs at least one. */
            for (size_t c = 0; c < ts->n_cols; c++) {
                if (ts->cols[c].elem.kind == S_CHILDREN
                    && ts->cols[c].col->type.n_min > 0) {
                    lex_error(lx, "log insert: %s.%s needs children",
                              ts->t->name, ts->cols[c].col->name);
                    ok = false;
                }
            }
        }
    }
    free(owned);
    free(covered);
    free(referenced);
    return ok;
}
