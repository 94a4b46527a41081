/* Reading a dataset profile: the file line by line into table, column, key
 * and log statements (format: datasets/README.md). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "profile-parse.h"

int
find_col_spec(const struct table_spec *ts, const char *name)
{
    for (size_t i = 0; i < ts->n_cols; i++) {
        if (!strcmp(ts->cols[i].col->name, name)) {
            return i;
        }
    }
    return -1;
}

/* "set-add": a set column that can grow without bound, whose new element
 * is a new row of the referenced table or, for other columns, the value
 * spec that follows on the line. */
static bool
parse_set_add(struct lexer *lx, struct profile *p, struct log_op *op,
              const char *tn, const char *cn)
{
    const struct col_spec *cs = &p->tables[op->table]->cols[op->col_spec];
    const struct ovsdb_type *type = &cs->col->type;
    if (cs->form != F_SET || type->n_max != TYPE_UNLIMITED
        || ovsdb_type_is_map(type)) {
        lex_error(lx, "log set-add: %s.%s must be a set column without a "
                  "maximum size", tn, cn);
        return false;
    }
    if (cs->elem.kind == S_CHILDREN) {
        lex_error(lx, "log set-add: %s.%s is a children column (use "
                  "child-insert)", tn, cn);
        return false;
    }
    return true;
}

/* The optional tail of a log line: "hot K", then (set-add of a column that
 * is not a reference) the new element's value spec. */
static bool
parse_log_tail(struct lexer *lx, struct profile *p, struct log_op *op,
               const char *kind)
{
    if (lx->pos < lx->n && !strcmp(lx->tokens[lx->pos], "hot")) {
        lx->pos++;
        int64_t k;
        if (!parse_int_token(lx, lex_next(lx, "hot row count"), "hot", &k)) {
            return false;
        }
        if (k < 1 || op->kind == OP_INSERT || op->kind == OP_DELETE
            || op->kind == OP_CHILD_DELETE) {
            lex_error(lx, k < 1 ? "log %s: hot: expected a count >= 1"
                      : "log %s: hot applies to modify, child-insert and "
                      "set-add", kind);
            return false;
        }
        op->hot = k;
    }
    if (op->kind == OP_SET_ADD) {
        const struct col_spec *cs
            = &p->tables[op->table]->cols[op->col_spec];
        if (cs->elem.kind != S_REF) {
            if (lx->pos >= lx->n) {
                lex_error(lx, "log set-add: %s.%s: the new element's value "
                          "spec is missing", p->tables[op->table]->t->name,
                          cs->col->name);
                return false;
            }
            op->has_value = true;
            return parse_atom_spec(lx, p->schema, &cs->col->type.key,
                                   salt_of("set-add", cs->col->name,
                                           p->n_ops),
                                   "log set-add", &op->value);
        }
    }
    if (lx->pos < lx->n) {
        lex_error(lx, "log %s: unexpected \"%s\"", kind,
                  lx->tokens[lx->pos]);
        return false;
    }
    return true;
}

static bool
parse_log_line(struct lexer *lx, struct profile *p)
{
    static const char *const names[] = {
        [OP_INSERT] = "insert", [OP_DELETE] = "delete",
        [OP_MODIFY] = "modify", [OP_CHILD_INSERT] = "child-insert",
        [OP_CHILD_DELETE] = "child-delete", [OP_SET_ADD] = "set-add",
    };
    const char *kind = lex_next(lx, "log operation");
    if (!kind) {
        return false;
    }
    struct log_op op = { .col_spec = -1, .shape = p->n_log_shapes - 1 };
    size_t k;
    for (k = 0; k < ARRAY_SIZE(names); k++) {
        if (!strcmp(kind, names[k])) {
            break;
        }
    }
    if (k == ARRAY_SIZE(names)) {
        lex_error(lx, "unknown log operation \"%s\" (insert, delete, modify, "
                  "child-insert, child-delete, set-add)", kind);
        return false;
    }
    op.kind = k;
    const char *tn = lex_next(lx, "table");
    if (!tn) {
        return false;
    }
    op.table = db_schema_table_index(p->schema, tn);
    if (op.table < 0 || !p->tables[op.table]) {
        lex_error(lx, "log %s: table \"%s\" has no profile", kind, tn);
        return false;
    }
    const struct table_spec *ts = p->tables[op.table];
    if (k == OP_MODIFY || k == OP_CHILD_INSERT || k == OP_CHILD_DELETE
        || k == OP_SET_ADD) {
        const char *cn = lex_next(lx, "column");
        if (!cn) {
            return false;
        }
        op.col_spec = find_col_spec(ts, cn);
        if (op.col_spec < 0) {
            lex_error(lx, "log %s: column %s.%s has no spec", kind, tn, cn);
            return false;
        }
        const struct col_spec *cs = &ts->cols[op.col_spec];
        bool children = cs->form == F_SET && cs->elem.kind == S_CHILDREN;
        if (k == OP_MODIFY && cs->form != F_SCALAR
            && cs->form != F_MAP_KEYS) {
            lex_error(lx, "log modify: %s.%s must be a scalar column or a "
                      "map with listed keys", tn, cn);
            return false;
        }
        if (k == OP_SET_ADD && !parse_set_add(lx, p, &op, tn, cn)) {
            return false;
        }
        if ((k == OP_CHILD_INSERT || k == OP_CHILD_DELETE) && !children) {
            lex_error(lx, "log %s: %s.%s is not a children column", kind, tn,
                      cn);
            return false;
        }
        if (k == OP_CHILD_DELETE && cs->col->type.n_min > 0) {
            lex_error(lx, "log child-delete: %s.%s must keep at least one "
                      "child", tn, cn);
            return false;
        }
    }
    if (!parse_double(lx, lex_next(lx, "weight"), "weight", &op.weight)
        || op.weight < 0) {
        return false;
    }
    bool ok = parse_log_tail(lx, p, &op, kind);
    /* Kept even on error, so that cleanup frees its value spec. */
    p->ops = xrealloc(p->ops, (p->n_ops + 1) * sizeof *p->ops);
    p->ops[p->n_ops++] = op;
    return ok;
}

/* "log-shape NAME": the "log" lines that follow belong to NAME. */
static void
parse_log_shape_line(struct lexer *lx, struct profile *p)
{
    const char *name = lex_next(lx, "log shape name");
    if (!name) {
        return;
    }
    if (!*name) {
        lex_error(lx, "log-shape: empty name");
        return;
    }
    for (size_t i = 0; i < p->n_log_shapes; i++) {
        if (!strcmp(p->log_shapes[i], name)) {
            lex_error(lx, "log-shape %s appears twice", name);
            return;
        }
    }
    if (lx->pos < lx->n) {
        lex_error(lx, "unexpected \"%s\"", lx->tokens[lx->pos]);
        return;
    }
    p->log_shapes = xrealloc(p->log_shapes, (p->n_log_shapes + 1)
                             * sizeof *p->log_shapes);
    p->log_shapes[p->n_log_shapes++] = xstrdup(name);
}

static void
compute_op_weights(struct profile *p)
{
    double total = 0;
    for (size_t i = 0; i < p->n_ops; i++) {
        total += p->ops[i].weight;
        p->ops[i].cum = llround(total * WEIGHT_SCALE);
    }
    p->ops_total = p->n_ops ? p->ops[p->n_ops - 1].cum : 0;
}

bool
profile_select_log_shape(struct profile *p, const char *name,
                         char **errorp)
{
    size_t shape = 0;
    if (name) {
        for (shape = 1; shape < p->n_log_shapes; shape++) {
            if (!strcmp(p->log_shapes[shape], name)) {
                break;
            }
        }
        if (shape >= p->n_log_shapes) {
            *errorp = xasprintf("%s: no \"log-shape %s\" line",
                                p->file_name, name);
            return false;
        }
    }
    size_t n = 0;
    for (size_t i = 0; i < p->n_ops; i++) {
        if (p->ops[i].shape == shape) {
            p->ops[n++] = p->ops[i];
        } else {
            atom_spec_destroy(&p->ops[i].value);
        }
    }
    p->n_ops = n;
    compute_op_weights(p);
    return true;
}

/* Checks what only the whole profile can tell. */

/* An indented line of table 'cur': a column or a map key. */
static void
parse_indented_line(struct lexer *lx, struct profile *p,
                    struct table_spec *cur, const char *first)
{
    if (!cur) {
        lex_error(lx, "indented line before any \"table\" line");
    } else if (!strcmp(first, "key")) {
        parse_key_line(lx, p, cur);
    } else if (find_col_spec(cur, first) >= 0) {
        lex_error(lx, "column %s.%s appears twice", cur->t->name, first);
    } else {
        cur->cols = xrealloc(cur->cols, (cur->n_cols + 1) * sizeof *cur->cols);
        /* Counted even on error, so that cleanup sees it. */
        parse_column(lx, p, cur, first, &cur->cols[cur->n_cols++]);
    }
}

/* The rows of "table NAME ROWS": a count, "children" or "per PARENT
 * DIST", then an optional "fixed". */
static void
parse_table_rows(struct lexer *lx, struct profile *p, struct table_spec *ts,
                 const char *tn, const char *rows)
{
    if (!strcmp(rows, "children")) {
        ts->children = true;
    } else if (!strcmp(rows, "per")) {
        const char *pn = lex_next(lx, "group-parent table");
        int pt = pn ? db_schema_table_index(p->schema, pn) : -1;
        if (pt < 0 || !p->tables[pt] || pt == ts->table) {
            lex_error(lx, "table %s: \"per\" needs an earlier table of the "
                      "profile", tn);
            return;
        }
        ts->group_parent = pt;
        if (!parse_dist(lx, lex_next(lx, "rows per parent row"),
                        &ts->group_size)) {
            return;
        }
        if (dist_min(&ts->group_size) < 0) {
            lex_error(lx, "table %s: negative group size", tn);
            return;
        }
    } else if (!parse_double(lx, rows, "row count", &ts->rows)
               || ts->rows < 0) {
        lex_error(lx, "table %s: bad row count", tn);
        return;
    }
    if (lx->pos < lx->n) {
        const char *opt = lex_next(lx, "option");
        if (!strcmp(opt, "fixed") && !ts->children) {
            ts->fixed = true;
        } else {
            lex_error(lx, "table %s: unexpected \"%s\"", tn, opt);
        }
    }
}

/* "table NAME ROWS [fixed]".  Returns the new table spec, or NULL. */
static struct table_spec *
parse_table_line(struct lexer *lx, struct profile *p)
{
    const char *tn = lex_next(lx, "table name");
    const char *rows = lex_next(lx, "row count or \"children\"");
    if (!rows) {
        return NULL;
    }
    int t = db_schema_table_index(p->schema, tn);
    if (t < 0) {
        lex_error(lx, "no table \"%s\" in schema %s", tn, p->schema->name);
        return NULL;
    }
    if (p->tables[t]) {
        lex_error(lx, "table %s appears twice", tn);
        return NULL;
    }
    struct table_spec *ts = p->tables[t] = xzalloc(sizeof *ts);
    ts->table = t;
    ts->t = p->schema->tables[t];
    ts->salt = salt_of(tn, NULL, 0);
    ts->group_parent = -1;
    parse_table_rows(lx, p, ts, tn, rows);
    return ts;
}

/* One line of the file. */
static void
parse_line(struct lexer *lx, struct profile *p, struct table_spec **cur)
{
    const char *first = lex_next(lx, "keyword");

    if (lx->indented) {
        parse_indented_line(lx, p, *cur, first);
    } else if (!strcmp(first, "profile")) {
        const char *name = lex_next(lx, "profile name");
        if (name) {
            free(p->name);
            p->name = xstrdup(name);
        }
        if (!lx->error && lx->pos < lx->n) {
            lex_error(lx, "unexpected \"%s\"", lx->tokens[lx->pos]);
        }
    } else if (!strcmp(first, "table")) {
        struct table_spec *ts = parse_table_line(lx, p);
        if (ts) {
            *cur = ts;
        }
    } else if (!strcmp(first, "log")) {
        parse_log_line(lx, p);
    } else if (!strcmp(first, "log-shape")) {
        parse_log_shape_line(lx, p);
    } else if (!strcmp(first, "draws")) {
        const char *how = lex_next(lx, "\"even\" or \"random\"");
        if (how && !strcmp(how, "even")) {
            p->even = true;
        } else if (how && !strcmp(how, "random")) {
            p->even = false;
        } else if (how) {
            lex_error(lx, "draws: expected \"even\" or \"random\", got "
                      "\"%s\"", how);
        }
        if (!lx->error && lx->pos < lx->n) {
            lex_error(lx, "unexpected \"%s\"", lx->tokens[lx->pos]);
        }
    } else {
        lex_error(lx, "\"%s\": expected profile, draws, table, log or "
                  "log-shape (column and key lines are indented)", first);
    }
}

/* Whole-profile checks; their errors name the file but no line. */
static void
check_profile(struct lexer *lx, struct profile *p)
{
    const char *file_name = lx->file_name;

    lx->line_no = 0;
    if (!profile_check(lx, p) && !lx->error) {
        lx->error = xasprintf("%s: invalid profile", file_name);
    }
    if (lx->error && !strncmp(lx->error + strlen(file_name), ":0: ", 4)) {
        char *e = xasprintf("%s: %s", file_name,
                            lx->error + strlen(file_name) + 4);
        free(lx->error);
        lx->error = e;
    }
}

struct profile *
profile_read(const char *file_name, const struct db_schema *schema,
             char **errorp)
{
    *errorp = NULL;
    FILE *f = fopen(file_name, "r");
    if (!f) {
        *errorp = xasprintf("%s: cannot open: %s", file_name,
                            strerror(errno));
        return NULL;
    }
    struct profile *p = xzalloc(sizeof *p);
    p->file_name = xstrdup(file_name);
    p->schema = schema;
    p->tables = xcalloc(schema->n_tables, sizeof *p->tables);
    p->log_shapes = xmalloc(sizeof *p->log_shapes);
    p->log_shapes[0] = xstrdup("");
    p->n_log_shapes = 1;
    struct lexer lx = { .file_name = file_name };
    struct table_spec *cur = NULL;
    char *line = NULL;
    size_t line_size = 0;
    while (!lx.error && getline(&line, &line_size, f) != -1) {
        lx.line_no++;
        if (lex_line(&lx, line) && lx.n) {
            parse_line(&lx, p, &cur);
        }
    }
    free(line);
    bool read_error = ferror(f);
    fclose(f);
    lex_clear(&lx);
    if (!lx.error && read_error) {
        lx.error = xasprintf("%s: read error", file_name);
    }
    if (!lx.error) {
        check_profile(&lx, p);
    }
    if (lx.error) {
        *errorp = lx.error;
        profile_destroy(p);
        return NULL;
    }

    compute_op_weights(p);
    if (!p->name) {
        p->name = xstrdup(schema->name);
    }
    return p;
}

void
profile_destroy(struct profile *p)
{
    if (!p) {
        return;
    }
    for (size_t t = 0; t < p->schema->n_tables; t++) {
        struct table_spec *ts = p->tables[t];
        for (size_t c = 0; ts && c < ts->n_cols; c++) {
            struct col_spec *cs = &ts->cols[c];
            atom_spec_destroy(&cs->elem);
            atom_spec_destroy(&cs->value);
            for (size_t e = 0; e < cs->n_entries; e++) {
                free(cs->entries[e].key);
                atom_spec_destroy(&cs->entries[e].value);
            }
            free(cs->entries);
            free(cs->size.items);
        }
        if (ts) {
            free(ts->cols);
            free(ts->group_size.items);
            free(ts->group_start);
        }
        free(ts);
    }
    for (size_t i = 0; i < p->n_segments; i++) {
        free(p->segments[i].start);
    }
    free(p->segments);
    free(p->tables);
    for (size_t i = 0; i < p->n_ops; i++) {
        atom_spec_destroy(&p->ops[i].value);
    }
    free(p->ops);
    for (size_t i = 0; i < p->n_log_shapes; i++) {
        free(p->log_shapes[i]);
    }
    free(p->log_shapes);
    free(p->name);
    free(p->file_name);
    free(p);
}
