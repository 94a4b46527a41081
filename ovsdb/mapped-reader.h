/* Reader of OVSDB standalone database files (record format in record.h)
 * that maps the file, so a record's text is used where it lies: for tools
 * that scan records without building a database (ovsdb-stats).  Every
 * error names the file, the record (0 = schema) and its byte offset. */
#ifndef OVSDB_MAPPED_READER_H
#define OVSDB_MAPPED_READER_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mapped_reader {
    char *name;
    const char *data;
    size_t size;
    size_t pos;                 /* Offset of the next record's header. */
    uint64_t n_records;         /* Records read so far. */
};

struct mapped_record {
    uint64_t index;             /* 0 for the schema. */
    size_t offset;              /* Of the header line. */
    size_t body_offset;
    const char *body;           /* JSON text (with its trailing newline). */
    size_t length;
};

/* Returns NULL or a malloc'd error. */
char *mapped_reader_open(struct mapped_reader *, const char *name);
void mapped_reader_close(struct mapped_reader *);

/* Reads the next record.  Returns 1 with a record, 0 at the end of the file,
 * -1 with a malloc'd message in '*errorp'. */
int mapped_reader_next(struct mapped_reader *, struct mapped_record *,
                       char **errorp);

#endif /* OVSDB_MAPPED_READER_H */
