/* Streaming reader of OVSDB standalone database files (record format in
 * record.h), for files of any size: the harness's load path.
 *
 * The reader streams: it feeds the impl's chunked parser from a fixed
 * buffer, so a file of any size is never held in memory as text.  Every
 * error names the file, the record (0 = schema) and its byte offset. */
#ifndef OVSDB_LOG_READER_H
#define OVSDB_LOG_READER_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

#endif /* OVSDB_LOG_READER_H */
