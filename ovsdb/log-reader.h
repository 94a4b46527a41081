/* Streaming reader of OVSDB database files, standalone or (on request)
 * clustered (record format in record.h), for files of any size: the harness's load path.
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

/* Whether records are parsed with JSPF_BYTE_STRINGS (each string byte lexed
 * alone, as OVS before 3.0); false by default. */
extern bool log_reader_byte_strings;
/* Whether records are hashed with the SHA-1 of sha1.h (as OVS before 3.0)
 * instead of OpenSSL's; false by default. */
extern bool log_reader_builtin_sha1;

/* Returns NULL and sets '*errorp' if the file cannot be opened. */
struct log_reader *log_reader_open(const char *file_name, char **errorp);
/* Accepts a clustered (raft) file, whose records carry "OVSDB CLUSTER";
 * before the first log_reader_next().  Otherwise such a file is an error
 * that says to convert it. */
void log_reader_allow_clustered(struct log_reader *);
/* After the first record: whether the file is clustered. */
bool log_reader_is_clustered(const struct log_reader *);
/* Reads the next record: 1 and '*jsonp' on success, 0 at the end of the
 * file, -1 and a malloc'd '*errorp' on error. */
int log_reader_next(struct log_reader *, struct json **jsonp, char **errorp);
/* "FILE: record N at byte offset O" of the last record returned; for
 * errors that the caller finds in a record (e.g. schema mismatch). */
char *log_reader_where(const struct log_reader *);
uint64_t log_reader_bytes_read(const struct log_reader *);
/* The file's name, and the byte offset of the last record returned. */
const char *log_reader_file_name(const struct log_reader *);
uint64_t log_reader_record_offset(const struct log_reader *);
void log_reader_close(struct log_reader *);

#endif /* OVSDB_LOG_READER_H */
