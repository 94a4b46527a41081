/* A monitoring client's table output (client-print.h). */
#include "clients/client-print.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "json.h"
#include "shash.h"
#include "util.h"

struct client_printer {
    char **columns;             /* Sorted, "_"-names last. */
    size_t n_columns, allocated_columns;
    struct ds text;             /* Every cell's text, back to back. */
    struct cell { size_t start, len; } *cells;  /* Row-major. */
    size_t n_cells, allocated_cells;
    struct ds out;              /* The table being laid out. */
};

struct client_printer *
client_printer_create(void)
{
    struct client_printer *cp = xzalloc(sizeof *cp);
    ds_init(&cp->text);
    ds_init(&cp->out);
    return cp;
}

void
client_printer_destroy(struct client_printer *cp)
{
    if (cp) {
        for (size_t i = 0; i < cp->n_columns; i++) {
            xfree(cp->columns[i]);
        }
        xfree(cp->columns);
        xfree(cp->cells);
        ds_destroy(&cp->text);
        ds_destroy(&cp->out);
        xfree(cp);
    }
}

/* Column order: by name, with the "_" columns after the others. */
static int
column_cmp(const char *a, const char *b)
{
    if ((a[0] == '_') != (b[0] == '_')) {
        return a[0] == '_' ? 1 : -1;
    }
    return strcmp(a, b);
}

/* Index of column 'name', added in order if new. */
static size_t
column_index(struct client_printer *cp, const char *name)
{
    size_t lo = 0, hi = cp->n_columns;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int cmp = column_cmp(cp->columns[mid], name);
        if (!cmp) {
            return mid;
        } else if (cmp < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (cp->n_columns == cp->allocated_columns) {
        cp->allocated_columns = cp->allocated_columns * 2 + 8;
        cp->columns = xrealloc(cp->columns, cp->allocated_columns
                               * sizeof *cp->columns);
    }
    memmove(&cp->columns[lo + 1], &cp->columns[lo],
            (cp->n_columns - lo) * sizeof *cp->columns);
    cp->columns[lo] = xstrdup(name);
    cp->n_columns++;
    return lo;
}

/* A string needs quotes unless it reads as a bare word. */
static bool
string_is_bare(const char *s)
{
    if (!isalpha((unsigned char) *s) && *s != '_') {
        return false;
    }
    for (const char *p = s; *p; p++) {
        if (!isalnum((unsigned char) *p) && !strchr("_-.", *p)) {
            return false;
        }
    }
    return strcmp(s, "true") && strcmp(s, "false");
}

static void format_atom(const struct json *, struct ds *);

/* Appends 'value' (OVSDB's JSON form of a datum) in OVSDB's text form. */
static void
format_value(const struct json *value, struct ds *ds)
{
    if (json_get_type(value) == JSON_ARRAY && json_array_size(value) == 2
        && json_get_type(json_array_at(value, 0)) == JSON_STRING) {
        const char *tag = json_string(json_array_at(value, 0));
        const struct json *body = json_array_at(value, 1);
        bool set = !strcmp(tag, "set"), map = !strcmp(tag, "map");
        if ((set || map) && json_get_type(body) == JSON_ARRAY) {
            ds_put_char(ds, set ? '[' : '{');
            for (size_t i = 0; i < json_array_size(body); i++) {
                const struct json *e = json_array_at(body, i);
                if (i) {
                    ds_put_cstr(ds, ", ");
                }
                if (map && json_get_type(e) == JSON_ARRAY
                    && json_array_size(e) == 2) {
                    format_atom(json_array_at(e, 0), ds);
                    ds_put_char(ds, '=');
                    format_atom(json_array_at(e, 1), ds);
                } else {
                    format_atom(e, ds);
                }
            }
            ds_put_char(ds, set ? ']' : '}');
            return;
        }
    }
    format_atom(value, ds);
}

static void
format_atom(const struct json *atom, struct ds *ds)
{
    if (json_get_type(atom) == JSON_STRING) {
        const char *s = json_string(atom);
        if (string_is_bare(s)) {
            ds_put_cstr(ds, s);
        } else {
            json_to_ds(atom, 0, ds);
        }
    } else if (json_get_type(atom) == JSON_ARRAY
               && json_array_size(atom) == 2
               && json_get_type(json_array_at(atom, 1)) == JSON_STRING) {
        /* ["uuid", "..."] or ["named-uuid", "..."]: the UUID bare. */
        ds_put_cstr(ds, json_string(json_array_at(atom, 1)));
    } else {
        json_to_ds(atom, 0, ds);
    }
}

static void
add_cell(struct client_printer *cp, const char *text, size_t len)
{
    if (cp->n_cells == cp->allocated_cells) {
        cp->allocated_cells = cp->allocated_cells * 2 + 64;
        cp->cells = xrealloc(cp->cells, cp->allocated_cells
                             * sizeof *cp->cells);
    }
    struct cell *c = &cp->cells[cp->n_cells++];
    c->start = cp->text.length;
    c->len = len;
    ds_put_buffer(&cp->text, text, len);
}

/* Calls 'visit' for each row change of 'table' (a <table-update2>:
 * UUID -> {action: row}); 'row' is NULL where it is not an object. */
typedef void row_change_fn(struct client_printer *, const char *uuid,
                           const char *action, const struct json *row);

static void
for_each_row_change(struct client_printer *cp, const struct json *table,
                    row_change_fn *visit)
{
    struct shash_node *row_node;
    SHASH_FOR_EACH (row_node, json_object(table)) {
        const struct json *change = row_node->data;
        if (json_get_type(change) != JSON_OBJECT) {
            continue;
        }
        struct shash_node *action_node;
        SHASH_FOR_EACH (action_node, json_object(change)) {
            const struct json *row = action_node->data;
            visit(cp, row_node->name, action_node->name,
                  json_get_type(row) == JSON_OBJECT ? row : NULL);
        }
    }
}

/* Registers the columns 'row' has. */
static void
learn_columns(struct client_printer *cp, const char *uuid OVS_UNUSED,
              const char *action OVS_UNUSED, const struct json *row)
{
    if (row) {
        struct shash_node *col;
        SHASH_FOR_EACH (col, json_object(row)) {
            column_index(cp, col->name);
        }
    }
}

/* Lays out one row: UUID, action, a cell per column. */
static void
add_row(struct client_printer *cp, const char *uuid, const char *action,
        const struct json *row)
{
    size_t width = cp->n_columns + 2;
    size_t first = cp->n_cells;

    add_cell(cp, uuid, strlen(uuid));
    add_cell(cp, action, strlen(action));
    for (size_t i = 2; i < width; i++) {
        add_cell(cp, "", 0);
    }
    if (!row) {
        return;
    }
    struct shash_node *col;
    SHASH_FOR_EACH (col, json_object(row)) {
        size_t i = column_index(cp, col->name);
        /* The cell's text goes at the end of 'text'; the row's slot
         * points at it. */
        struct cell *slot = &cp->cells[first + 2 + i];
        slot->start = cp->text.length;
        format_value(col->data, &cp->text);
        slot->len = cp->text.length - slot->start;
    }
}

static void
put_padded(struct ds *out, const char *s, size_t len, size_t width,
           bool last)
{
    ds_put_buffer(out, s, len);
    if (!last) {
        ds_put_char_multiple(out, ' ', width - len + 1);
    }
}

/* Writes the laid-out table to 'out'. */
static int
write_table(struct client_printer *cp, FILE *out)
{
    size_t width = cp->n_columns + 2;
    size_t n_rows = cp->n_cells / width;
    size_t *widths = xcalloc(width, sizeof *widths);
    static const char *const fixed[2] = { "row", "action" };

    for (size_t j = 0; j < width; j++) {
        widths[j] = strlen(j < 2 ? fixed[j] : cp->columns[j - 2]);
        for (size_t r = 0; r < n_rows; r++) {
            size_t len = cp->cells[r * width + j].len;
            widths[j] = len > widths[j] ? len : widths[j];
        }
    }

    struct ds *o = &cp->out;
    ds_clear(o);
    for (size_t j = 0; j < width; j++) {
        const char *name = j < 2 ? fixed[j] : cp->columns[j - 2];
        put_padded(o, name, strlen(name), widths[j], j == width - 1);
    }
    ds_put_char(o, '\n');
    for (size_t j = 0; j < width; j++) {
        ds_put_char_multiple(o, '-', widths[j]);
        ds_put_char(o, j == width - 1 ? '\n' : ' ');
    }
    for (size_t r = 0; r < n_rows; r++) {
        for (size_t j = 0; j < width; j++) {
            const struct cell *c = &cp->cells[r * width + j];
            put_padded(o, cp->text.string + c->start, c->len, widths[j],
                       j == width - 1);
        }
        ds_put_char(o, '\n');
    }
    xfree(widths);

    if (fwrite(o->string, 1, o->length, out) != o->length || fflush(out)) {
        return errno ? errno : EIO;
    }
    return 0;
}

int
client_printer_print(struct client_printer *cp, const struct json *msg,
                     FILE *out)
{
    /* A reply's "result", or an update2's second parameter. */
    const struct json *updates = NULL;
    if (json_get_type(msg) == JSON_OBJECT) {
        const struct json *result = json_object_get(msg, "result");
        const struct json *params = json_object_get(msg, "params");
        if (result && json_get_type(result) == JSON_OBJECT) {
            updates = result;
        } else if (params && json_get_type(params) == JSON_ARRAY
                   && json_array_size(params) == 2
                   && json_get_type(json_array_at(params, 1))
                      == JSON_OBJECT) {
            updates = json_array_at(params, 1);
        }
    }
    if (!updates) {
        return 0;
    }

    struct shash_node *table;
    SHASH_FOR_EACH (table, json_object(updates)) {
        if (json_get_type(table->data) != JSON_OBJECT) {
            continue;
        }
        /* Columns first, so that every row has a cell for each. */
        for_each_row_change(cp, table->data, learn_columns);
        cp->n_cells = 0;
        ds_clear(&cp->text);
        for_each_row_change(cp, table->data, add_row);
        int error = write_table(cp, out);
        if (error) {
            return error;
        }
    }
    return 0;
}
