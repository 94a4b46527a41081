/* Profile parsing, stage 2: column and key lines, checked against the
 * schema (form, size, children); see profile-parse.h. */
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
parse_column(struct lexer *lx, struct profile *p, struct table_spec *ts,
             const char *col_name, struct col_spec *cs)
{
    const struct db_schema *schema = p->schema;
    char where[256];
    snprintf(where, sizeof where, "%s.%s", ts->t->name, col_name);
    memset(cs, 0, sizeof *cs);
    cs->column = table_schema_column_index(ts->t, col_name);
    if (cs->column < 0) {
        lex_error(lx, "table %s has no column \"%s\"", ts->t->name,
                  col_name);
        return false;
    }
    const struct column_schema *c = cs->col = ts->t->columns[cs->column];
    if (c->ephemeral) {
        lex_error(lx, "%s: ephemeral columns are not stored", where);
        return false;
    }
    cs->salt = salt_of(ts->t->name, col_name, 0);
    const char *form = lx->pos < lx->n ? lx->tokens[lx->pos] : "";
    bool quoted = lx->pos < lx->n && lx->quoted[lx->pos];

    if (!quoted && !strcmp(form, "map")) {
        lx->pos++;
        if (!ovsdb_type_is_map(&c->type) || c->type.key.type != ATOMIC_STRING) {
            lex_error(lx, "%s: \"map\" needs a map column with string keys",
                      where);
            return false;
        }
        cs->form = F_MAP_KEYS;      /* Entries follow on "key" lines. */
    } else if (!quoted && !strcmp(form, "mapgen")) {
        lx->pos++;
        if (!ovsdb_type_is_map(&c->type)) {
            lex_error(lx, "%s: \"mapgen\" needs a map column", where);
            return false;
        }
        cs->form = F_MAP_GEN;
        if (!parse_dist(lx, lex_next(lx, "size distribution"), &cs->size)
            || !parse_atom_spec(lx, schema, &c->type.key, cs->salt, where,
                                &cs->elem)
            || !parse_atom_spec(lx, schema, &c->type.value, cs->salt + 1, where,
                                &cs->value)) {
            return false;
        }
    } else if (!quoted && (!strcmp(form, "set") || !strcmp(form, "opt")
                           || !strcmp(form, "optrow")
                           || !strcmp(form, "children"))) {
        lx->pos++;
        if (ovsdb_type_is_map(&c->type) || ovsdb_type_is_scalar(&c->type)) {
            lex_error(lx, "%s: \"%s\" needs a set column", where, form);
            return false;
        }
        cs->form = F_SET;
        if (!strcmp(form, "optrow")) {
            cs->row_window = true;
            if (!parse_double(lx, lex_next(lx, "low"), "low", &cs->row_lo)
                || !parse_double(lx, lex_next(lx, "high"), "high",
                                 &cs->row_hi)
                || cs->row_lo < 0 || cs->row_hi > 1
                || cs->row_lo > cs->row_hi) {
                lex_error(lx, "%s: optrow needs 0 <= LOW <= HIGH <= 1",
                          where);
                return false;
            }
            if (!parse_dist(lx, "1", &cs->size)) {
                return false;
            }
        } else if (!strcmp(form, "opt")) {
            double prob;
            if (!parse_double(lx, lex_next(lx, "probability"), "probability",
                              &prob) || prob < 0 || prob > 1) {
                lex_error(lx, "%s: opt needs a probability 0..1", where);
                return false;
            }
            char *d = xasprintf("0:%.6f,1:%.6f", 1 - prob, prob);
            bool ok = parse_dist(lx, d, &cs->size);
            free(d);
            if (!ok) {
                return false;
            }
        } else if (!parse_dist(lx, lex_next(lx, "size distribution"),
                               &cs->size)) {
            return false;
        }
        if (dist_min(&cs->size) < 0) {
            lex_error(lx, "%s: negative set size", where);
            return false;
        }
        if (!strcmp(form, "children")) {
            const char *tn = lex_next(lx, "child table");
            if (!tn) {
                return false;
            }
            cs->elem.kind = S_CHILDREN;
            cs->elem.type = ATOMIC_UUID;
            cs->elem.base = &c->type.key;
            cs->elem.ref_table = db_schema_table_index(schema, tn);
            if (cs->elem.ref_table < 0
                || ref_index(&c->type.key) != cs->elem.ref_table) {
                lex_error(lx, "%s: children must be rows of the column's "
                          "refTable (%s)", where,
                          ref_index(&c->type.key) >= 0
                          ? c->type.key.u.uuid.ref_table_name : "none");
                return false;
            }
            if (!schema->tables[cs->elem.ref_table]->is_root
                && !is_strong_ref(&c->type.key)) {
                lex_error(lx, "%s: a weak reference cannot own non-root "
                          "rows", where);
                return false;
            }
        } else if (!parse_atom_spec(lx, schema, &c->type.key, cs->salt, where,
                                    &cs->elem)) {
            return false;
        }
    } else {
        if (ovsdb_type_is_map(&c->type)) {
            lex_error(lx, "%s: map column: use \"map\" or \"mapgen\"", where);
            return false;
        }
        if (ovsdb_type_is_scalar(&c->type)) {
            cs->form = F_SCALAR;
        } else {
            /* A bare atom spec on a set column means exactly one atom. */
            cs->form = F_SET;
            if (!parse_dist(lx, "1", &cs->size)) {
                return false;
            }
        }
        if (!parse_atom_spec(lx, schema, &c->type.key, cs->salt, where,
                             &cs->elem)) {
            return false;
        }
    }
    if (lx->pos < lx->n) {
        lex_error(lx, "%s: unexpected \"%s\" at end of line", where,
                  lx->tokens[lx->pos]);
        return false;
    }
    return true;
}

bool
parse_key_line(struct lexer *lx, struct profile *p, struct table_spec *ts)
{
    struct col_spec *cs = ts && ts->n_cols ? &ts->cols[ts->n_cols - 1] : NULL;
    if (!cs || cs->form != F_MAP_KEYS) {
        lex_error(lx, "\"key\" line must follow a \"COLUMN map\" line");
        return false;
    }
    const char *key = lex_next(lx, "key");
    double prob;
    if (!key || !parse_double(lx, lex_next(lx, "probability"), "probability",
                              &prob) || prob < 0 || prob > 1) {
        lex_error(lx, "key line: expected key \"TEXT\" PROBABILITY VALUE");
        return false;
    }
    char where[256];
    snprintf(where, sizeof where, "%s.%s[%s]", ts->t->name, cs->col->name,
             key);
    char *key_text = literal_atom(lx, &cs->col->type.key, key, where);
    if (!key_text) {
        return false;
    }
    for (size_t i = 0; i < cs->n_entries; i++) {
        if (!strcmp(cs->entries[i].key, key_text)) {
            lex_error(lx, "%s: duplicate key", where);
            free(key_text);
            return false;
        }
    }
    cs->entries = xrealloc(cs->entries,
                           (cs->n_entries + 1) * sizeof *cs->entries);
    struct map_entry *e = &cs->entries[cs->n_entries];
    e->key = key_text;
    e->key_len = strlen(key_text);
    e->p = prob;
    if (!parse_atom_spec(lx, p->schema, &cs->col->type.value,
                         cs->salt + cs->n_entries + 7, where, &e->value)) {
        free(key_text);
        return false;
    }
    cs->n_entries++;
    if (lx->pos < lx->n) {
        lex_error(lx, "%s: unexpected \"%s\" at end of line", where,
                  lx->tokens[lx->pos]);
        return false;
    }
    return true;
}
