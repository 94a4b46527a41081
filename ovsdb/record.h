/* The record format of OVSDB database files: a header line
 * "OVSDB JSON <length> <sha1>\n" then <length> bytes of JSON text, which
 * OVS ends with a newline counted in the length and the SHA-1.  Clustered
 * (raft) files frame their records the same way with the magic
 * "OVSDB CLUSTER"; every record of a file has the same magic.  Parsing and
 * formatting of the header live here once, for both readers (log-reader.h,
 * mapped-reader.h) and both writers (ovsdb_record_to_ds() below,
 * record-writer.h). */
#ifndef OVSDB_RECORD_H
#define OVSDB_RECORD_H 1

#include <stddef.h>
#include <stdint.h>

struct ds;

#define OVSDB_RECORD_MAGIC "OVSDB JSON "
#define OVSDB_CLUSTER_MAGIC "OVSDB CLUSTER "
#define OVSDB_SHA1_LEN 20

/* Longest header: magic, 20 length digits, space, 40 hex digits, newline. */
#define OVSDB_RECORD_HEADER_MAX 80

/* The magic of 'line' ('n' bytes): OVSDB_RECORD_MAGIC, OVSDB_CLUSTER_MAGIC
 * or NULL. */
const char *ovsdb_record_magic(const char *line, size_t n);

/* Parses the header line 'line' ('n' bytes, without its newline) into
 * '*lengthp' and 'sha1'.  Returns NULL or a malloc'd message without a
 * location; the reader adds file, record and byte offset. */
char *ovsdb_record_parse_header(const char *line, size_t n,
                                uint64_t *lengthp,
                                uint8_t sha1[OVSDB_SHA1_LEN]);
/* The same for a header with magic 'magic' (one of the two above). */
char *ovsdb_record_parse_header_magic(const char *line, size_t n,
                                      const char *magic, uint64_t *lengthp,
                                      uint8_t sha1[OVSDB_SHA1_LEN]);

/* Writes the header line (with its newline) into 'out', which has room for
 * OVSDB_RECORD_HEADER_MAX bytes; returns its length. */
size_t ovsdb_record_format_header(char *out, uint64_t length,
                                  const uint8_t sha1[OVSDB_SHA1_LEN]);
/* The same with magic 'magic'. */
size_t ovsdb_record_format_header_magic(char *out, const char *magic,
                                        uint64_t length,
                                        const uint8_t sha1[OVSDB_SHA1_LEN]);

/* 40 lower-case hex digits and a null. */
void ovsdb_sha1_to_hex(const uint8_t sha1[OVSDB_SHA1_LEN], char hex[41]);

/* Writes into 'header' the header line (with its newline) of a record
 * holding 'len' bytes of 'data' and the newline OVS adds; returns its
 * length.  For writers that write the data themselves, as ovsdb-tool does
 * (header, then the text, then the newline). */
size_t ovsdb_record_header(const char *data, size_t len,
                           char header[OVSDB_RECORD_HEADER_MAX]);
/* Appends one record holding 'len' bytes of 'data' and the newline OVS adds
 * to 'out'. */
void ovsdb_record_to_ds(const char *data, size_t len, struct ds *out);

#endif /* OVSDB_RECORD_H */
