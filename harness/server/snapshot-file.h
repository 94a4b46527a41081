/* A database written as schema + one snapshot record, as `ovsdb-tool
 * compact` and `convert` write one (ovsdb-tool's write_standalone_db()). */
#ifndef HARNESS_SNAPSHOT_FILE_H
#define HARNESS_SNAPSHOT_FILE_H 1

#include <stdbool.h>
#include <stddef.h>

struct db;

/* Writes the schema record and the snapshot record of 'db' (non-default
 * columns, rows in UUID order, sorted keys) to 'name', record by record,
 * syncs the file and its directory; with 'keep' the file is renamed into
 * place, otherwise removed (ovsdb-tool writes and syncs in any case).
 * Adds the bytes written to '*bytesp'.  Returns NULL or a malloc'd error
 * naming the file; on error no file is left. */
char *snapshot_file_write(const struct db *, const char *name, bool keep,
                          size_t *bytesp);

#endif
