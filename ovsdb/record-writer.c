/* Streaming record writer; see record-writer.h. */
#include "ovsdb/record-writer.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ovsdb/record.h"
#include "util.h"

#define OUT_BUF_SIZE (4u << 20)

void
out_init(struct out *o, int fd, const char *dir)
{
    memset(o, 0, sizeof *o);
    o->cap = OUT_BUF_SIZE;
    o->buf = xmalloc(o->cap);
    o->fd = fd;
    o->dir = dir;
    o->spool_fd = -1;
    o->magic = OVSDB_RECORD_MAGIC;
    o->sha = EVP_MD_CTX_new();
    if (!o->sha) {
        ovs_fatal(0, "EVP_MD_CTX_new failed");
    }
}

void
out_destroy(struct out *o)
{
    xfree(o->buf);
    if (o->spool_fd >= 0) {
        close(o->spool_fd);
    }
    EVP_MD_CTX_free(o->sha);
}

/* Keeps the first error; with a name to report, stops right away: on a
 * full disk there is no point in generating the rest. */
static void
note_error(struct out *o, int err)
{
    if (err && !o->error) {
        o->error = err;
        if (o->name) {
            ovs_fatal(err, "%s: write error", o->name);
        }
    }
}

static int
write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) {
                continue;
            }
            return errno;
        }
        p += w;
        n -= w;
    }
    return 0;
}

void
out_record_begin(struct out *o)
{
    o->len = 0;
    o->spooled = 0;
    o->record_bytes = 0;
    o->direct = false;
    if (!EVP_DigestInit_ex(o->sha, EVP_sha1(), NULL)) {
        ovs_fatal(0, "SHA-1 unavailable in libcrypto");
    }
}

/* Magic + length + " " + 40 hex digits + "\n". */
static size_t
header_size(const struct out *o, int digits)
{
    return strlen(o->magic) + digits + 1 + 2 * OVSDB_SHA1_LEN + 1;
}

void
out_record_begin_direct(struct out *o, int digits)
{
    out_record_begin(o);
    o->direct = true;
    o->header_offset = o->file_bytes;
    o->header_room = header_size(o, digits);
    /* The gap is filled with spaces until the header is known. */
    char gap[128];
    memset(gap, ' ', sizeof gap);
    int err = write_all(o->fd, gap, o->header_room);
    note_error(o, err);
    o->file_bytes += o->header_room;
}

static int
open_spool(const char *dir)
{
    /* Unlinked from the start: nothing to clean up after a crash. */
    int fd = open(dir, O_TMPFILE | O_RDWR, 0600);
    if (fd < 0) {
        char *name = xasprintf("%s/.ovsdb-gen-spool-XXXXXX", dir);
        fd = mkstemp(name);
        if (fd >= 0) {
            unlink(name);
        }
        xfree(name);
    }
    return fd;
}

void
out_spill(struct out *o, size_t n)
{
    if (o->len && o->direct) {
        EVP_DigestUpdate(o->sha, o->buf, o->len);
        int err = write_all(o->fd, o->buf, o->len);
        note_error(o, err);
        o->file_bytes += o->len;
        o->record_bytes += o->len;
        o->len = 0;
    } else if (o->len) {
        EVP_DigestUpdate(o->sha, o->buf, o->len);
        if (o->spool_fd < 0) {
            o->spool_fd = open_spool(o->dir);
            if (o->spool_fd < 0) {
                ovs_fatal(errno, "cannot create a spool file in %s", o->dir);
            }
        }
        int err = write_all(o->spool_fd, o->buf, o->len);
        note_error(o, err);
        o->spooled += o->len;
        o->record_bytes += o->len;
        o->len = 0;
    }
    if (n > o->cap) {
        o->cap = n;
        xfree(o->buf);
        o->buf = xmalloc(o->cap);
    }
}

static int
copy_spool(struct out *o)
{
    off_t in_off = 0;
    uint64_t left = o->spooled;
    while (left) {
        ssize_t n = copy_file_range(o->spool_fd, &in_off, o->fd, NULL,
                                    left, 0);
        if (n <= 0) {
            if (n < 0 && errno == EINTR) {
                continue;
            }
            break;              /* Fall back to read + write. */
        }
        left -= n;
    }
    while (left) {
        ssize_t n = pread(o->spool_fd, o->buf,
                          left < o->cap ? left : o->cap, in_off);
        if (n <= 0) {
            return n < 0 ? errno : EIO;
        }
        int err = write_all(o->fd, o->buf, n);
        if (err) {
            return err;
        }
        in_off += n;
        left -= n;
    }
    if (ftruncate(o->spool_fd, 0) < 0) {
        return errno;
    }
    return 0;
}

/* Moves 'n' bytes at 'from' to 'from + delta' within the file. */
static int
shift_bytes(struct out *o, uint64_t from, uint64_t n, int64_t delta)
{
    size_t chunk = o->cap;
    for (uint64_t done = 0; done < n; ) {
        size_t k = n - done < chunk ? n - done : chunk;
        /* Right shifts go from the end, left shifts from the start, so
         * that no byte is overwritten before it is moved. */
        uint64_t pos = delta > 0 ? from + n - done - k : from + done;
        ssize_t r = pread(o->fd, o->buf, k, pos);
        if (r != (ssize_t) k) {
            return r < 0 ? errno : EIO;
        }
        if (pwrite(o->fd, o->buf, k, pos + delta) != (ssize_t) k) {
            return errno ? errno : EIO;
        }
        done += k;
    }
    return 0;
}

static int
record_end_direct(struct out *o, const char *header, size_t n)
{
    int err = o->error;
    if (!err) {
        err = write_all(o->fd, o->buf, o->len);
    }
    o->file_bytes += o->len;
    o->record_bytes += o->len;
    uint64_t body = o->header_offset + o->header_room;
    if (!err && n != o->header_room) {
        /* The length has more or fewer digits than guessed. */
        int64_t delta = (int64_t) n - (int64_t) o->header_room;
        o->len = 0;
        err = shift_bytes(o, body, o->record_bytes, delta);
        o->file_bytes += delta;
        if (!err && delta < 0 && ftruncate(o->fd, o->file_bytes) < 0) {
            err = errno;
        }
    }
    if (!err && pwrite(o->fd, header, n, o->header_offset) != (ssize_t) n) {
        err = errno ? errno : EIO;
    }
    if (!err && lseek(o->fd, o->file_bytes, SEEK_SET) < 0) {
        err = errno;
    }
    o->n_records++;
    o->len = 0;
    o->record_bytes = 0;
    o->direct = false;
    note_error(o, err);
    return err;
}

int
out_record_end(struct out *o)
{
    out_putc(o, '\n');
    EVP_DigestUpdate(o->sha, o->buf, o->len);
    uint64_t length = o->record_bytes + o->len;
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int md_len = 0;
    EVP_DigestFinal_ex(o->sha, md, &md_len);

    char header[OVSDB_RECORD_HEADER_MAX];
    size_t n = ovsdb_record_format_header_magic(header, o->magic, length,
                                                md);

    if (o->direct) {
        return record_end_direct(o, header, n);
    }
    int err = o->error;
    if (!err) {
        err = write_all(o->fd, header, n);
    }
    if (!err && o->spooled) {
        err = copy_spool(o);
    }
    if (!err) {
        err = write_all(o->fd, o->buf, o->len);
    }
    o->file_bytes += n + length;
    o->n_records++;
    o->len = 0;
    o->spooled = 0;
    o->record_bytes = 0;
    note_error(o, err);
    return err;
}

void
out_put_u64(struct out *o, uint64_t v)
{
    char tmp[24];
    char *p = tmp + sizeof tmp;
    do {
        *--p = '0' + v % 10;
        v /= 10;
    } while (v);
    out_put(o, p, tmp + sizeof tmp - p);
}

void
out_put_i64(struct out *o, int64_t v)
{
    if (v < 0) {
        out_putc(o, '-');
        out_put_u64(o, -(uint64_t) v);
    } else {
        out_put_u64(o, v);
    }
}
