/* fuzz/ovsdb-load: the harness's OVSDB file loader (record reader, schema,
 * record application) on any bytes.
 *
 * The only harness call is db_load_file() (then db_n_rows() and
 * db_destroy() on success), so the target follows the loader wherever it
 * moves.  It must give a database, or an error that names the file, the
 * record and the byte offset; never a crash, leak or assertion.
 *
 * Input: one mode byte, then
 *   mode bit 0 clear  the file, as is;
 *   mode bit 0 set    one record per line: each line is wrapped in a correct
 *                     "OVSDB JSON <length> <sha1>" header (the newline counts
 *                     in the length, as OVS writes it), so the fuzzer reaches
 *                     past the SHA-1 check into the schema and the records;
 *                     with bit 1 set too, "OVSDB CLUSTER" headers (a
 *                     clustered file: raft header, then entries).
 *   mode bit 2 set    a file that loads is also converted to its own
 *                     schema, parsed anew, in memory (db_convert(): every
 *                     column through JSON with bit 3 set, unchanged ones
 *                     shared without) and, unless clustered, by reading it
 *                     into that schema (db_load_file_as()); both must
 *                     succeed, with as many rows.
 * With FUZZ_SAVE_INPUT=FILE the database file built is saved there. */
#include <openssl/sha.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/db.h"
#include "server/db-convert.h"
#include "server/db-file.h"
#include "ovsdb/schema.h"
#include "ds.h"
#include "fuzz-file.h"

/* The conversions of mode bit 2 on loaded 'db'. */
static void
convert(struct db *db, const char *name, bool all_json)
{
    struct db_schema *schema;
    char *error = db_schema_from_json(db->schema->json, &schema);
    if (error) {
        fprintf(stderr, "ovsdb-load: a loaded schema does not parse "
                "again: %s\n", error);
        abort();
    }
    struct db *new;
    error = db_convert(db, schema, (all_json ? CONVERT_UNCHANGED_JSON
                                    : CONVERT_UNCHANGED_CLONE), &new,
                       &(struct db_convert_stats) { 0 });
    if (error || db_n_rows(new) != db_n_rows(db)) {
        fprintf(stderr, "ovsdb-load: a loaded database does not convert "
                "to its own schema: %s\n", error ? error : "rows differ");
        abort();
    }
    db_destroy(new);

    if (!db->storage) {
        error = db_schema_from_json(db->schema->json, &schema);
        if (!error) {
            error = db_load_file_as(name, schema, &new, NULL);
        }
        if (error || db_n_rows(new) != db_n_rows(db)) {
            fprintf(stderr, "ovsdb-load: a loaded database does not read "
                    "into its own schema: %s\n",
                    error ? error : "rows differ");
            abort();
        }
        db_destroy(new);
    }
}

static void
put_record(struct ds *out, const uint8_t *line, size_t n, bool cluster)
{
    struct ds data = DS_EMPTY_INITIALIZER;
    unsigned char sha1[SHA_DIGEST_LENGTH];

    ds_put_buffer(&data, (const char *) line, n);
    ds_put_char(&data, '\n');
    SHA1((const unsigned char *) data.string, data.length, sha1);

    ds_put_format(out, "OVSDB %s %zu ", cluster ? "CLUSTER" : "JSON",
                  data.length);
    for (int i = 0; i < SHA_DIGEST_LENGTH; i++) {
        ds_put_format(out, "%02x", sha1[i]);
    }
    ds_put_char(out, '\n');
    ds_put_buffer(out, data.string, data.length);
    ds_destroy(&data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ds file = DS_EMPTY_INITIALIZER;

    if (!size) {
        return 0;
    }
    bool wrap = data[0] & 1;
    bool cluster = data[0] & 2;
    bool also_convert = data[0] & 4;
    bool all_json = data[0] & 8;
    data++;
    size--;
    if (wrap) {
        while (size) {
            const uint8_t *nl = memchr(data, '\n', size);
            size_t n = nl ? (size_t) (nl - data) : size;
            put_record(&file, data, n, cluster);
            n += nl != NULL;
            data += n;
            size -= n;
        }
    } else {
        ds_put_buffer(&file, (const char *) data, size);
    }

    struct fuzz_file f;
    fuzz_file_open(&f, file.string, file.length);
    ds_destroy(&file);

    struct db *db;
    char *error = db_load_file(f.name, &db, NULL);
    if (error) {
        bool empty = strstr(error, "empty file") != NULL;
        if (strncmp(error, f.name, strlen(f.name))
            || (!empty && (!strstr(error, "record ")
                           || !strstr(error, "byte offset")))) {
            fprintf(stderr, "ovsdb-load: error does not name file, record "
                    "and byte offset: %s\n", error);
            abort();
        }
        free(error);
    } else {
        (void) db_n_rows(db);
        if (also_convert) {
            convert(db, f.name, all_json);
        }
        db_destroy(db);
    }
    fuzz_file_close(&f);
    return 0;
}
