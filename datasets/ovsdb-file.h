/* Reads the records of an OVSDB standalone database file: "OVSDB JSON
 * <length> <sha1>\n" then <length> bytes of JSON text (and a newline), each
 * checked against its SHA-1.  The file is mapped, so a record's text is used
 * where it lies. */
#ifndef DATASETS_OVSDB_FILE_H
#define DATASETS_OVSDB_FILE_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ovsdb_file {
    char *name;
    const char *data;
    size_t size;
    size_t pos;                 /* Offset of the next record's header. */
    uint64_t n_records;         /* Records read so far. */
};

struct ovsdb_record {
    uint64_t index;             /* 0 for the schema. */
    size_t offset;              /* Of the header line. */
    size_t body_offset;
    const char *body;           /* JSON text (with its trailing newline). */
    size_t length;
};

/* Returns false with a malloc'd message in '*errorp' on failure. */
bool ovsdb_file_open(struct ovsdb_file *, const char *name, char **errorp);
void ovsdb_file_close(struct ovsdb_file *);

/* Reads the next record.  Returns 1 with a record, 0 at the end of the file,
 * -1 with a malloc'd message that names the file, record and byte offset. */
int ovsdb_file_next(struct ovsdb_file *, struct ovsdb_record *,
                    char **errorp);

#endif /* DATASETS_OVSDB_FILE_H */
