#include "ovsdb_log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/evp.h>

#include "ds.h"
#include "json.h"
#include "util.h"

#define READ_BUF_SIZE (256 * 1024)
#define MAX_HEADER 128

struct log_reader {
    char *file_name;
    int fd;
    char *buf;                  /* READ_BUF_SIZE bytes. */
    size_t buf_pos, buf_len;
    uint64_t offset;            /* File offset of buf[buf_pos]. */
    bool eof;

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

void
log_reader_close(struct log_reader *r)
{
    if (r) {
        close(r->fd);
        EVP_MD_CTX_free(r->sha1);
        free(r->buf);
        free(r->file_name);
        free(r);
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
    free(msg);
    return error;
}

static int
hex_value(char c)
{
    return (c >= '0' && c <= '9' ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1);
}

/* Parses "OVSDB JSON <len> <sha1>" (without the newline). */
static char *
parse_header(const struct log_reader *r, const char *line, size_t *lenp,
             uint8_t sha1[20])
{
    static const char magic[] = "OVSDB JSON ";

    if (!strncmp(line, "OVSDB CLUSTER", 13)) {
        return record_error(r, "clustered (raft) database files are not "
                            "supported; convert with ovsdb-tool "
                            "cluster-to-standalone");
    }
    if (strncmp(line, magic, sizeof magic - 1)) {
        return record_error(r, "bad record header (expected \"OVSDB JSON "
                            "<length> <sha1>\")");
    }
    const char *p = line + sizeof magic - 1;
    char *end;
    errno = 0;
    if (*p < '0' || *p > '9') {
        return record_error(r, "bad length in record header");
    }
    unsigned long long len = strtoull(p, &end, 10);
    if (errno || *end != ' ' || len > SIZE_MAX / 2) {
        return record_error(r, "bad length in record header");
    }
    p = end + 1;
    for (int i = 0; i < 20; i++) {
        int hi = hex_value(p[2 * i]), lo = hi < 0 ? -1 : hex_value(p[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            return record_error(r, "bad SHA-1 in record header");
        }
        sha1[i] = hi * 16 + lo;
    }
    if (p[40] != '\0') {
        return record_error(r, "bad SHA-1 in record header");
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

    /* Header line. */
    for (;;) {
        if (!fill(r, errorp)) {
            if (*errorp) {
                return -1;
            }
            if (!n_line) {
                return 0;       /* Clean end of file. */
            }
            *errorp = record_error(r, "truncated record: header ends after "
                                   "%zu bytes without a newline", n_line);
            return -1;
        }
        char c = r->buf[r->buf_pos++];
        r->offset++;
        if (c == '\n') {
            break;
        }
        if (n_line >= MAX_HEADER) {
            *errorp = record_error(r, "bad record header (no newline in the "
                                   "first %d bytes)", MAX_HEADER);
            return -1;
        }
        line[n_line++] = c;
    }
    line[n_line] = '\0';

    size_t len;
    uint8_t want_sha1[20];
    *errorp = parse_header(r, line, &len, want_sha1);
    if (*errorp) {
        return -1;
    }

    /* Data: hash and feed the parser chunk by chunk. */
    struct json_parser *parser = json_parser_create(JSPF_TRAILER);
    bool parser_stopped = false;
    bool saw_header_inside = false;
    size_t left = len;
    uint64_t data_offset = r->offset;
    char prev = '\0';

    EVP_DigestInit_ex(r->sha1, EVP_sha1(), NULL);
    while (left) {
        if (!fill(r, errorp)) {
            json_parser_abort(parser);
            if (!*errorp) {
                *errorp = record_error(r, "truncated record: header says "
                                       "%zu bytes of data but the file ends "
                                       "after %zu", len, len - left);
            }
            return -1;
        }
        size_t chunk = r->buf_len - r->buf_pos;
        if (chunk > left) {
            chunk = left;
        }
        const char *p = r->buf + r->buf_pos;
        EVP_DigestUpdate(r->sha1, p, chunk);
        if (!parser_stopped) {
            size_t used = json_parser_feed(parser, p, chunk);
            parser_stopped = used < chunk;
        }
        /* A record header inside the data means the length is wrong. */
        if (!saw_header_inside) {
            const char *q = p;
            if (prev == '\n' && chunk >= 6 && !memcmp(q, "OVSDB ", 6)) {
                saw_header_inside = true;
            }
            while (!saw_header_inside
                   && (q = memmem(q, p + chunk - q, "\nOVSDB ", 7))) {
                saw_header_inside = true;
            }
        }
        prev = p[chunk - 1];
        r->buf_pos += chunk;
        r->offset += chunk;
        left -= chunk;
    }

    uint8_t got_sha1[EVP_MAX_MD_SIZE];
    unsigned int sha1_len = 0;
    EVP_DigestFinal_ex(r->sha1, got_sha1, &sha1_len);
    bool at_boundary = peek_boundary(r, errorp);
    if (*errorp) {
        json_parser_abort(parser);
        return -1;
    }
    if (!at_boundary || saw_header_inside) {
        json_parser_abort(parser);
        *errorp = record_error(r, "wrong record length: header says %zu "
                               "bytes but the data %s at byte offset %llu",
                               len, saw_header_inside
                               ? "runs into the next record header"
                               : "is not followed by a record boundary",
                               (unsigned long long) (data_offset + len));
        return -1;
    }
    if (sha1_len != 20 || memcmp(got_sha1, want_sha1, 20)) {
        json_parser_abort(parser);
        *errorp = record_error(r, "wrong SHA-1: data (%zu bytes at byte "
                               "offset %llu) does not match the header's "
                               "checksum", len,
                               (unsigned long long) data_offset);
        return -1;
    }

    struct json *json = json_parser_finish(parser);
    if (!json || json_get_type(json) == JSON_STRING) {
        *errorp = record_error(r, "invalid JSON (data at byte offset %llu): "
                               "%s", (unsigned long long) data_offset,
                               json ? json_string(json) : "empty");
        json_destroy(json);
        return -1;
    }
    *jsonp = json;
    return 1;
}

void
log_record_to_ds(const char *data, size_t len, struct ds *out)
{
    /* As OVS writes them: the length and hash cover the JSON and the
     * newline that ends it. */
    uint8_t sha1[EVP_MAX_MD_SIZE];
    unsigned int sha1_len = 0;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();

    EVP_DigestInit_ex(ctx, EVP_sha1(), NULL);
    EVP_DigestUpdate(ctx, data, len);
    EVP_DigestUpdate(ctx, "\n", 1);
    EVP_DigestFinal_ex(ctx, sha1, &sha1_len);
    EVP_MD_CTX_free(ctx);
    ds_put_format(out, "OVSDB JSON %zu ", len + 1);
    for (unsigned int i = 0; i < sha1_len; i++) {
        ds_put_format(out, "%02x", sha1[i]);
    }
    ds_put_char(out, '\n');
    ds_put_buffer(out, data, len);
    ds_put_char(out, '\n');
}

char *
out_file_open(struct out_file *f, const char *name)
{
    f->name = xstrdup(name);
    f->tmp_name = xasprintf("%s.tmp-%ld", name, (long) getpid());
    f->stream = fopen(f->tmp_name, "wb");
    if (!f->stream) {
        char *error = xasprintf("%s: cannot create %s: %s", name,
                                f->tmp_name, strerror(errno));
        free(f->name);
        free(f->tmp_name);
        f->name = f->tmp_name = NULL;
        return error;
    }
    return NULL;
}

char *
out_file_write(struct out_file *f, const void *data, size_t n)
{
    if (n && fwrite(data, 1, n, f->stream) != n) {
        return xasprintf("%s: write error: %s", f->name, strerror(errno));
    }
    return NULL;
}

char *
out_file_commit(struct out_file *f)
{
    char *error = NULL;

    if (fclose(f->stream)) {
        error = xasprintf("%s: write error: %s", f->name, strerror(errno));
        unlink(f->tmp_name);
    } else if (rename(f->tmp_name, f->name)) {
        error = xasprintf("%s: cannot rename %s to it: %s", f->name,
                          f->tmp_name, strerror(errno));
        unlink(f->tmp_name);
    }
    free(f->name);
    free(f->tmp_name);
    f->name = f->tmp_name = NULL;
    f->stream = NULL;
    return error;
}

void
out_file_abort(struct out_file *f)
{
    if (f->stream) {
        fclose(f->stream);
        unlink(f->tmp_name);
    }
    free(f->name);
    free(f->tmp_name);
    f->name = f->tmp_name = NULL;
    f->stream = NULL;
}
