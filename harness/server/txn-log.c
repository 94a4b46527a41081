/* The transaction log of the monitor workload's commits (txn-log.h). */
#include "server/txn-log.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server/db.h"
#include "ds.h"
#include "json.h"
#include "ovsdb/datum.h"
#include "ovsdb/record.h"
#include "ovsdb/schema.h"
#include "ovsdb/uuid.h"
#include "util.h"

char *
txn_log_open(struct txn_log *log, unsigned int n_tables)
{
    const char *dir = getenv("TMPDIR");
    char *name = xasprintf("%s/jsonbench-txn-log-%ld.db",
                           dir && *dir ? dir : "/tmp", (long) getpid());

    log->n_tables = n_tables;
    log->tables = xcalloc_as(XALLOC_MODEL, n_tables ? n_tables : 1,
                             sizeof *log->tables);
    log->next = NULL;
    log->next_aux = NULL;
    log->records = log->bytes = 0;
    char *error = out_file_open(&log->file, name);
    xfree(name);
    return error;
}

void
txn_log_begin(struct txn_log *log, txn_commit_cb *next, void *next_aux)
{
    log->next = next;
    log->next_aux = next_aux;
}

/* The row's entry: its changed persistent columns, as
 * ovsdb_file_txn_add_row() picks them; NULL when none changed. */
static struct json *
row_entry(const struct table_schema *ts, const struct row *old,
          const struct row *new)
{
    if (!new) {
        return json_null_create();
    }
    struct json *entry = NULL;
    for (unsigned int i = 0; i < ts->n_columns; i++) {
        const struct column_schema *c = ts->columns[i];
        const struct datum *d = &new->fields[c->index];
        if (c->ephemeral
            || (old ? datum_equals(&old->fields[c->index], d, &c->type)
                : datum_is_default(d, &c->type))) {
            continue;
        }
        if (!entry) {
            entry = json_object_create();
        }
        json_object_put(entry, c->name, datum_to_json(d, &c->type));
    }
    return entry;
}

void
txn_log_change(void *log_, struct table *t, struct row *old, struct row *new)
{
    struct txn_log *log = log_;
    const struct table_schema *ts = t->schema;
    struct json *entry = row_entry(ts, old, new);

    if (entry) {
        struct json **table = &log->tables[ts->index];
        if (!*table) {
            *table = json_object_create();
        }
        char uuid[UUID_LEN + 1];
        uuid_format_printf(&(new ? new : old)->uuid, uuid);  /* As OVS. */
        json_object_put(*table, uuid, entry);
    }
    if (log->next) {
        log->next(log->next_aux, t, old, new);
    }
}

/* The tables a schema names, for the record's members. */
static const char *
table_name(const struct db_schema *schema, unsigned int i)
{
    return schema->tables[i]->name;
}

char *
txn_log_end(struct txn_log *log, const struct db_schema *schema,
            long long date_ms)
{
    struct json *record = NULL;
    char header[OVSDB_RECORD_HEADER_MAX];

    for (unsigned int i = 0; i < log->n_tables; i++) {
        if (log->tables[i]) {
            if (!record) {
                record = json_object_create();
            }
            json_object_put(record, table_name(schema, i), log->tables[i]);
            log->tables[i] = NULL;
        }
    }
    if (!record) {
        return NULL;
    }
    json_object_put(record, "_date", json_integer_create(date_ms));
    /* A text buffer of its own per record, as ovsdb_log_write() has. */
    struct ds text = DS_EMPTY_INITIALIZER;
    json_to_ds(record, 0, &text);
    json_destroy(record);

    size_t n = ovsdb_record_header(text.string, text.length,
                                   header);
    char *error = out_file_write(&log->file, header, n);
    if (!error) {
        error = out_file_write(&log->file, text.string,
                               text.length);
    }
    if (!error) {
        error = out_file_write(&log->file, "\n", 1);
    }
    /* One write(2) per commit: ovsdb_log_write() flushes each record. */
    if (!error && fflush(log->file.stream)) {
        error = xasprintf("%s: %s", log->file.tmp_name, strerror(errno));
    }
    log->records++;
    log->bytes += n + text.length + 1;
    ds_destroy(&text);
    return error;
}

void
txn_log_cancel(struct txn_log *log)
{
    for (unsigned int i = 0; i < log->n_tables; i++) {
        json_destroy(log->tables[i]);
        log->tables[i] = NULL;
    }
}

void
txn_log_close(struct txn_log *log)
{
    txn_log_cancel(log);
    xfree(log->tables);
    out_file_abort(&log->file);
}
