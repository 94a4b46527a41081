/* Schema + snapshot record to a file, synced (snapshot-file.h). */
#include "server/snapshot-file.h"

#include "server/db.h"
#include "server/jsonrpc-reply.h"
#include "ds.h"
#include "json.h"
#include "ovsdb/out-file.h"
#include "ovsdb/record.h"
#include "util.h"

/* Writes 'json' as one record, as ovsdb_log_write() does: the text is
 * composed on its own, then the header, the text and its newline are
 * written to the stream. */
static char *
write_record(struct out_file *f, const struct json *json, struct ds *text,
             size_t *bytesp)
{
    char header[OVSDB_RECORD_HEADER_MAX];

    ds_clear(text);
    json_to_ds(json, JSSF_SORT, text);
    size_t n = ovsdb_record_header(text->string, text->length, header);
    *bytesp += n + text->length + 1;

    char *error = out_file_write(f, header, n);
    if (!error) {
        error = out_file_write(f, text->string, text->length);
    }
    if (!error) {
        error = out_file_write(f, "\n", 1);
    }
    return error;
}

char *
snapshot_file_write(const struct db *db, const char *name, bool keep,
                    size_t *bytesp)
{
    struct ds text = DS_EMPTY_INITIALIZER;
    struct out_file f;

    char *error = out_file_open(&f, name);
    if (error) {
        return error;
    }
    error = write_record(&f, db->schema->json, &text, bytesp);
    if (!error) {
        struct json *snapshot = snapshot_record(db);
        error = write_record(&f, snapshot, &text, bytesp);
        json_destroy(snapshot);
    }
    ds_destroy(&text);
    if (!error) {
        error = out_file_sync(&f);
    }
    if (error || !keep) {
        out_file_abort(&f);
    } else {
        error = out_file_commit(&f);
    }
    return error;
}
