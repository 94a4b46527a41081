/* Streaming reader of OVSDB file records; see log-reader.h. */
#include "ovsdb/log-reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/evp.h>

#include "json.h"
#include "ovsdb/record.h"
#include "ovsdb/sha1.h"
#include "util.h"

/* The chunk ovsdb-server reads a record's data in (parse_body() in OVS's
 * ovsdb/log.c: fread() of BUFSIZ, 8 KiB with glibc).  A larger buffer is
 * heap the server does not hold (256 KiB made the gate's peak heap 0.25 MB
 * larger), and one of 128 KiB or more is mmap()ed by glibc: freeing it
 * raises the dynamic mmap threshold, so later large blocks come from the
 * heap and freeing one consolidates every small freed block, work the
 * server never does (docs/model.md, "Load and compaction"). */
#define READ_BUF_SIZE (8 * 1024)
#define MAX_HEADER 128

bool log_reader_byte_strings;
bool log_reader_builtin_sha1;

struct log_reader {
    char *file_name;
    int fd;
    char *buf;                  /* READ_BUF_SIZE bytes. */
    size_t buf_pos, buf_len;
    uint64_t offset;            /* File offset of buf[buf_pos]. */
    bool eof;

    bool allow_clustered;       /* log_reader_allow_clustered(). */
    const char *magic;          /* Of record 0, which every record has. */

    long long record;           /* Index of the current record. */
    uint64_t record_offset;     /* File offset of its header. */
    EVP_MD_CTX *sha1;
};

struct log_reader *
log_reader_open(const char *file_name, char **errorp)
{
    int fd = open(file_name, O_RDONLY);
    if (fd < 0) {
        *errorp = xasprintf("%s: cannot open: %s", file_name,
                            strerror(errno));
        return NULL;
    }
    struct log_reader *r = xzalloc(sizeof *r);
    r->file_name = xstrdup(file_name);
    r->fd = fd;
    r->buf = xmalloc(READ_BUF_SIZE);
    r->record = -1;
    r->sha1 = EVP_MD_CTX_new();
    *errorp = NULL;
    return r;
}

const char *
log_reader_file_name(const struct log_reader *r)
{
    return r->file_name;
}

uint64_t
log_reader_record_offset(const struct log_reader *r)
{
    return r->record_offset;
}

void
log_reader_allow_clustered(struct log_reader *r)
{
    r->allow_clustered = true;
}

bool
log_reader_is_clustered(const struct log_reader *r)
{
    return r->magic && !strcmp(r->magic, OVSDB_CLUSTER_MAGIC);
}

void
log_reader_close(struct log_reader *r)
{
    if (r) {
        close(r->fd);
        EVP_MD_CTX_free(r->sha1);
        xfree(r->buf);
        xfree(r->file_name);
        xfree(r);
    }
}

uint64_t
log_reader_bytes_read(const struct log_reader *r)
{
    return r->offset;
}

char *
log_reader_where(const struct log_reader *r)
{
    return xasprintf("%s: record %lld at byte offset %llu", r->file_name,
                     r->record, (unsigned long long) r->record_offset);
}

/* Makes at least one unread byte available unless at end of file.
 * Returns false on end of file or read error ('*errorp' set for errors). */
static bool
fill(struct log_reader *r, char **errorp)
{
    if (r->buf_pos < r->buf_len) {
        return true;
    }
    if (r->eof) {
        return false;
    }
    for (;;) {
        ssize_t n = read(r->fd, r->buf, READ_BUF_SIZE);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            *errorp = xasprintf("%s: read error at byte offset %llu: %s",
                                r->file_name, (unsigned long long) r->offset,
                                strerror(errno));
            return false;
        }
        r->buf_pos = 0;
        r->buf_len = n;
        if (!n) {
            r->eof = true;
            return false;
        }
        return true;
    }
}

static char *
record_error(const struct log_reader *r, const char *format, ...)
    OVS_PRINTF_FORMAT(2, 3);

static char *
record_error(const struct log_reader *r, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    char *msg = xvasprintf(format, args);
    va_end(args);

    char *error = xasprintf("%s: record %lld at byte offset %llu: %s",
                            r->file_name, r->record,
                            (unsigned long long) r->record_offset, msg);
    xfree(msg);
    return error;
}

/* Parses the header line; errors carry the record's location. */
static char *
parse_header(struct log_reader *r, const char *line, size_t n,
             size_t *lenp, uint8_t sha1[OVSDB_SHA1_LEN])
{
    uint64_t len;
    char *msg;
    if (r->allow_clustered) {
        const char *magic = r->magic ? r->magic
                            : ovsdb_record_magic(line, n);
        msg = ovsdb_record_parse_header_magic(line, n,
                                              magic ? magic
                                              : OVSDB_RECORD_MAGIC,
                                              &len, sha1);
        if (!msg && !r->magic) {
            r->magic = magic;
        }
    } else {
        msg = ovsdb_record_parse_header(line, n, &len, sha1);
    }
    if (msg) {
        char *error = record_error(r, "%s", msg);
        xfree(msg);
        return error;
    }
    *lenp = len;
    return NULL;
}

/* True if the data just read ends where a record may end: at the end of the
 * file, or before the next header (OVS counts the newline that ends the JSON
 * in the length; a newline outside it is tolerated too). */
static bool
peek_boundary(struct log_reader *r, char **errorp)
{
    if (!fill(r, errorp)) {
        return true;
    }
    char c = r->buf[r->buf_pos];
    return c == '\n' || c == 'O';
}

/* Reads the header line of the next record into 'line' (null-terminated,
 * without its newline).  Returns 1, 0 at a clean end of file, or -1. */
static int
read_header_line(struct log_reader *r, char line[MAX_HEADER + 1],
                 size_t *np, char **errorp)
{
    size_t n = 0;

    for (;;) {
        if (!fill(r, errorp)) {
            if (*errorp) {
                return -1;
            }
            if (!n) {
                return 0;
            }
            *errorp = record_error(r, "truncated record: header ends after "
                                   "%zu bytes without a newline", n);
            return -1;
        }
        char c = r->buf[r->buf_pos++];
        r->offset++;
        if (c == '\n') {
            break;
        }
        if (n >= MAX_HEADER) {
            *errorp = record_error(r, "bad record header (no newline in the "
                                   "first %d bytes)", MAX_HEADER);
            return -1;
        }
        line[n++] = c;
    }
    line[n] = '\0';
    *np = n;
    return 1;
}

/* What reading a record's data found out. */
struct data_scan {
    size_t len;                 /* From the header. */
    uint64_t offset;            /* Of the first data byte. */
    bool header_inside;         /* "\nOVSDB " within the data. */
    uint8_t sha1[EVP_MAX_MD_SIZE];
    unsigned int sha1_len;
};

/* Hashes the 'scan->len' data bytes and feeds them to 'parser' chunk by
 * chunk, so that a record is never held whole in memory. */
static bool
read_data(struct log_reader *r, struct json_parser *parser,
          struct data_scan *scan, char **errorp)
{
    bool parser_stopped = false;
    size_t left = scan->len;
    char prev = '\0';

    scan->offset = r->offset;
    scan->header_inside = false;
    struct sha1_ctx builtin;
    if (log_reader_builtin_sha1) {
        sha1_init(&builtin);
    } else {
        EVP_DigestInit_ex(r->sha1, EVP_sha1(), NULL);
    }
    while (left) {
        if (!fill(r, errorp)) {
            if (!*errorp) {
                *errorp = record_error(r, "truncated record: header says "
                                       "%zu bytes of data but the file ends "
                                       "after %zu", scan->len,
                                       scan->len - left);
            }
            return false;
        }
        size_t chunk = r->buf_len - r->buf_pos;
        if (chunk > left) {
            chunk = left;
        }
        const char *p = r->buf + r->buf_pos;
        if (log_reader_builtin_sha1) {
            sha1_update(&builtin, p, chunk);
        } else {
            EVP_DigestUpdate(r->sha1, p, chunk);
        }
        if (!parser_stopped) {
            parser_stopped = json_parser_feed(parser, p, chunk) < chunk;
        }
        /* A record header inside the data means the length is wrong. */
        if (!scan->header_inside) {
            scan->header_inside = ((prev == '\n' && chunk >= 6
                                    && !memcmp(p, "OVSDB ", 6))
                                   || memmem(p, chunk, "\nOVSDB ", 7));
        }
        prev = p[chunk - 1];
        r->buf_pos += chunk;
        r->offset += chunk;
        left -= chunk;
    }
    if (log_reader_builtin_sha1) {
        sha1_final(&builtin, scan->sha1);
        scan->sha1_len = SHA1_DIGEST_LEN;
    } else {
        EVP_DigestFinal_ex(r->sha1, scan->sha1, &scan->sha1_len);
    }
    return true;
}

/* Checks that the data read ends at a record boundary and matches the
 * header's SHA-1. */
static char *
check_data(struct log_reader *r, const struct data_scan *scan,
           const uint8_t want_sha1[OVSDB_SHA1_LEN])
{
    char *error = NULL;
    bool at_boundary = peek_boundary(r, &error);

    if (error) {
        return error;
    }
    if (!at_boundary || scan->header_inside) {
        return record_error(r, "wrong record length: header says %zu "
                            "bytes but the data %s at byte offset %llu",
                            scan->len, scan->header_inside
                            ? "runs into the next record header"
                            : "is not followed by a record boundary",
                            (unsigned long long) (scan->offset + scan->len));
    }
    if (scan->sha1_len != OVSDB_SHA1_LEN
        || memcmp(scan->sha1, want_sha1, OVSDB_SHA1_LEN)) {
        return record_error(r, "wrong SHA-1: data (%zu bytes at byte "
                            "offset %llu) does not match the header's "
                            "checksum", scan->len,
                            (unsigned long long) scan->offset);
    }
    return NULL;
}

int
log_reader_next(struct log_reader *r, struct json **jsonp, char **errorp)
{
    char line[MAX_HEADER + 1];
    size_t n_line = 0;

    *jsonp = NULL;
    *errorp = NULL;

    /* Skip a newline after the previous record outside its length. */
    if (r->record >= 0 && fill(r, errorp) && r->buf[r->buf_pos] == '\n') {
        r->buf_pos++;
        r->offset++;
    }
    if (*errorp) {
        return -1;
    }
    r->record++;
    r->record_offset = r->offset;

    int retval = read_header_line(r, line, &n_line, errorp);
    if (retval <= 0) {
        return retval;
    }
    struct data_scan scan;
    uint8_t want_sha1[OVSDB_SHA1_LEN];
    *errorp = parse_header(r, line, n_line, &scan.len, want_sha1);
    if (*errorp) {
        return -1;
    }

    struct json_parser *parser = json_parser_create(
        JSPF_TRAILER | JSPF_DATABASE
        | (log_reader_byte_strings ? JSPF_BYTE_STRINGS : 0));
    if (!read_data(r, parser, &scan, errorp)
        || (*errorp = check_data(r, &scan, want_sha1)) != NULL) {
        json_parser_abort(parser);
        return -1;
    }

    struct json *json = json_parser_finish(parser);
    if (!json || json_get_type(json) == JSON_STRING) {
        *errorp = record_error(r, "invalid JSON (data at byte offset %llu): "
                               "%s", (unsigned long long) scan.offset,
                               json ? json_string(json) : "empty");
        json_destroy(json);
        return -1;
    }
    *jsonp = json;
    return 1;
}
