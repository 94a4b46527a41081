/* Mapped reader of OVSDB file records; see mapped-reader.h. */
#include "ovsdb/mapped-reader.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ovsdb/record.h"
#include "util.h"

char *
mapped_reader_open(struct mapped_reader *f, const char *name)
{
    memset(f, 0, sizeof *f);
    int fd = open(name, O_RDONLY);
    if (fd < 0) {
        return xasprintf("%s: cannot open: %s", name, strerror(errno));
    }
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return xasprintf("%s: not a regular file", name);
    }
    f->name = xstrdup(name);
    f->size = st.st_size;
    if (f->size) {
        void *p = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            char *error = xasprintf("%s: cannot map: %s", name,
                                    strerror(errno));
            close(fd);
            xfree(f->name);
            f->name = NULL;
            return error;
        }
        madvise(p, f->size, MADV_SEQUENTIAL);
        f->data = p;
    }
    close(fd);
    return NULL;
}

void
mapped_reader_close(struct mapped_reader *f)
{
    if (f->data) {
        munmap(CONST_CAST(char *, f->data), f->size);
    }
    xfree(f->name);
    memset(f, 0, sizeof *f);
}

static char *
record_error(const struct mapped_reader *f, uint64_t index, size_t pos,
             const char *format, ...)
    OVS_PRINTF_FORMAT(4, 5);

static char *
record_error(const struct mapped_reader *f, uint64_t index, size_t pos,
             const char *format, ...)
{
    va_list args;
    va_start(args, format);
    char *msg = xvasprintf(format, args);
    va_end(args);

    char *error = xasprintf("%s: record %"PRIu64" at byte offset %zu: %s",
                            f->name, index, pos, msg);
    xfree(msg);
    return error;
}

int
mapped_reader_next(struct mapped_reader *f, struct mapped_record *r,
                   char **errorp)
{
    *errorp = NULL;
    size_t pos = f->pos;
    uint64_t index = f->n_records;
    if (pos >= f->size) {
        if (!index) {
            *errorp = xasprintf("%s: empty file: not an OVSDB database",
                                f->name);
            return -1;
        }
        return 0;
    }
    const char *p = f->data + pos;
    size_t left = f->size - pos;
    const char *nl = memchr(p, '\n',
                             left < OVSDB_RECORD_HEADER_MAX ? left
                             : OVSDB_RECORD_HEADER_MAX);
    uint64_t length;
    uint8_t want[OVSDB_SHA1_LEN];
    char *msg = ovsdb_record_parse_header(p, nl ? (size_t) (nl - p) : left,
                                          &length,
                                          want);
    if (msg || !nl) {
        *errorp = record_error(f, index, pos, "%s", msg ? msg
                               : "truncated or missing header line");
        xfree(msg);
        return -1;
    }
    size_t body_offset = nl + 1 - f->data;
    if (length > f->size - body_offset) {
        *errorp = record_error(f, index, pos, "truncated: header says "
                               "%"PRIu64" bytes, only %zu left", length,
                               f->size - body_offset);
        return -1;
    }
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int md_len = 0;
    if (!EVP_Digest(f->data + body_offset, length, md, &md_len, EVP_sha1(),
                    NULL) || md_len != OVSDB_SHA1_LEN) {
        *errorp = xasprintf("%s: SHA-1 unavailable", f->name);
        return -1;
    }
    if (memcmp(md, want, OVSDB_SHA1_LEN)) {
        char want_hex[41], got_hex[41];
        ovsdb_sha1_to_hex(want, want_hex);
        ovsdb_sha1_to_hex(md, got_hex);
        *errorp = record_error(f, index, pos, "SHA-1 mismatch (header %s, "
                               "content %s)", want_hex, got_hex);
        return -1;
    }
    r->index = index;
    r->offset = pos;
    r->body_offset = body_offset;
    r->body = f->data + body_offset;
    r->length = length;
    f->pos = body_offset + length;
    f->n_records++;
    return 1;
}
