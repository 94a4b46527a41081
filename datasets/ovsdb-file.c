/* OVSDB standalone file records; see ovsdb-file.h. */
#include "ovsdb-file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

bool
ovsdb_file_open(struct ovsdb_file *f, const char *name, char **errorp)
{
    memset(f, 0, sizeof *f);
    *errorp = NULL;
    int fd = open(name, O_RDONLY);
    if (fd < 0) {
        *errorp = xasprintf("%s: cannot open: %s", name, strerror(errno));
        return false;
    }
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        *errorp = xasprintf("%s: not a regular file", name);
        close(fd);
        return false;
    }
    f->name = xstrdup(name);
    f->size = st.st_size;
    if (f->size) {
        void *p = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            *errorp = xasprintf("%s: cannot map: %s", name, strerror(errno));
            close(fd);
            free(f->name);
            f->name = NULL;
            return false;
        }
        madvise(p, f->size, MADV_SEQUENTIAL);
        f->data = p;
    }
    close(fd);
    return true;
}

void
ovsdb_file_close(struct ovsdb_file *f)
{
    if (f->data) {
        munmap(CONST_CAST(char *, f->data), f->size);
    }
    free(f->name);
    memset(f, 0, sizeof *f);
}

int
ovsdb_file_next(struct ovsdb_file *f, struct ovsdb_record *r, char **errorp)
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
    const char *nl = memchr(p, '\n', left < 200 ? left : 200);
    static const char magic[] = "OVSDB JSON ";
    if (left >= 13 && !memcmp(p, "OVSDB CLUSTER", 13)) {
        *errorp = xasprintf("%s: clustered (raft) databases are not "
                            "supported; convert with ovsdb-tool "
                            "cluster-to-standalone", f->name);
        return -1;
    }
    if (!nl || (size_t) (nl - p) < sizeof magic - 1
        || memcmp(p, magic, sizeof magic - 1)) {
        *errorp = xasprintf("%s: record %"PRIu64" at byte %zu: %s", f->name,
                            index, pos,
                            nl ? "header is not \"OVSDB JSON <length> "
                                 "<sha1>\""
                               : "truncated or missing header line");
        return -1;
    }
    /* Length, one space, 40 hex digits, newline. */
    const char *q = p + sizeof magic - 1;
    uint64_t length = 0;
    int digits = 0;
    while (q < nl && *q >= '0' && *q <= '9' && digits < 19) {
        length = length * 10 + (*q++ - '0');
        digits++;
    }
    char expect_sha[41];
    if (!digits || q >= nl || *q != ' ' || nl - (q + 1) != 40) {
        *errorp = xasprintf("%s: record %"PRIu64" at byte %zu: bad header "
                            "(length or SHA-1 malformed)", f->name, index,
                            pos);
        return -1;
    }
    memcpy(expect_sha, q + 1, 40);
    expect_sha[40] = '\0';
    for (int i = 0; i < 40; i++) {
        char c = expect_sha[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')
              || (c >= 'A' && c <= 'F'))) {
            *errorp = xasprintf("%s: record %"PRIu64" at byte %zu: bad "
                                "SHA-1 in header", f->name, index, pos);
            return -1;
        }
    }
    size_t body_offset = nl + 1 - f->data;
    if (length > f->size - body_offset) {
        *errorp = xasprintf("%s: record %"PRIu64" at byte %zu: truncated: "
                            "header says %"PRIu64" bytes, only %zu left",
                            f->name, index, pos, length,
                            f->size - body_offset);
        return -1;
    }
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int md_len = 0;
    if (!EVP_Digest(f->data + body_offset, length, md, &md_len, EVP_sha1(),
                    NULL)) {
        *errorp = xasprintf("%s: SHA-1 unavailable", f->name);
        return -1;
    }
    char actual[41];
    for (unsigned int i = 0; i < 20; i++) {
        snprintf(actual + 2 * i, 3, "%02x", md[i]);
    }
    if (strncasecmp(actual, expect_sha, 40)) {
        *errorp = xasprintf("%s: record %"PRIu64" at byte %zu: SHA-1 "
                            "mismatch (header %s, content %s)", f->name,
                            index, pos, expect_sha, actual);
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
