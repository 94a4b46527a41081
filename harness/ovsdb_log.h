/* Reading and writing OVSDB standalone database files: records of a header
 * line "OVSDB JSON <length> <sha1-hex>\n" and <length> bytes of JSON (which
 * OVS ends with a newline counted in the length).
 *
 * The reader streams: it feeds the impl's chunked parser from a fixed
 * buffer, so a file of any size is never held in memory as text.  Every
 * error names the file, the record (0 = schema) and its byte offset. */
#ifndef HARNESS_OVSDB_LOG_H
#define HARNESS_OVSDB_LOG_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ds;
struct json;

struct log_reader;

/* Returns NULL and sets '*errorp' if the file cannot be opened. */
struct log_reader *log_reader_open(const char *file_name, char **errorp);
/* Reads the next record: 1 and '*jsonp' on success, 0 at the end of the
 * file, -1 and a malloc'd '*errorp' on error. */
int log_reader_next(struct log_reader *, struct json **jsonp, char **errorp);
/* "FILE: record N at byte offset O" of the last record returned; for
 * errors that the caller finds in a record (e.g. schema mismatch). */
char *log_reader_where(const struct log_reader *);
uint64_t log_reader_bytes_read(const struct log_reader *);
void log_reader_close(struct log_reader *);

/* Appends one record holding 'len' bytes of 'data' to 'out'. */
void log_record_to_ds(const char *data, size_t len, struct ds *out);

/* Output files are written to a temporary name and renamed into place only
 * when complete, so a failed run leaves no partial output. */
struct out_file {
    char *name;
    char *tmp_name;
    FILE *stream;
};
char *out_file_open(struct out_file *, const char *name);
char *out_file_write(struct out_file *, const void *, size_t);
char *out_file_commit(struct out_file *);
void out_file_abort(struct out_file *);

#endif
