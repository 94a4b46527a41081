/* Streaming writer of OVSDB records (format in record.h) into a file as
 * they are generated, for ovsdb-gen's multi-gigabyte transactions.  The
 * header needs the length and SHA-1 of the whole body, so a body larger
 * than the in-memory buffer either
 *   - goes straight to the file after a header-sized gap, when the caller can
 *     guess the number of digits of the length (out_record_begin_direct());
 *     the header is written into the gap at the end, and in the rare case
 *     that the guess was wrong the body is shifted in place; or
 *   - goes to an unlinked spool file and is copied after its header.
 * Either way memory stays bounded whatever the record size. */
#ifndef OVSDB_RECORD_WRITER_H
#define OVSDB_RECORD_WRITER_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct out {
    char *buf;
    size_t len, cap;
    int fd;                     /* Destination. */
    const char *dir;            /* Where the spool file goes. */
    int spool_fd;               /* -1 until a record outgrows 'buf'. */
    uint64_t spooled;           /* Body bytes in the spool. */
    void *sha;                  /* EVP_MD_CTX of the current record. */
    uint64_t record_bytes;      /* Body bytes of the current record. */
    uint64_t file_bytes;        /* Bytes written to 'fd' so far. */
    uint64_t n_records;
    int error;                  /* First errno, or 0. */
    const char *name;           /* If set, a write error is fatal and
                                 * names it (ovs_fatal()). */
    const char *magic;          /* OVSDB_RECORD_MAGIC (set by out_init())
                                 * or OVSDB_CLUSTER_MAGIC. */
    bool direct;                /* Body goes straight to 'fd'. */
    uint64_t header_offset;     /* Direct: where the header gap starts, */
    size_t header_room;         /* and its size. */
};

void out_init(struct out *, int fd, const char *dir);
void out_destroy(struct out *);
void out_record_begin(struct out *);
/* Like out_record_begin(), expecting a length of 'digits' decimal digits. */
void out_record_begin_direct(struct out *, int digits);
/* Ends the record: appends "\n", writes header and body.  Returns 0 or an
 * errno value. */
int out_record_end(struct out *);
/* Makes room for 'n' more bytes (may move the pending bytes to the spool). */
void out_spill(struct out *, size_t n);
/* Bytes of the current record so far. */
static inline uint64_t out_record_len(const struct out *o)
{
    return o->record_bytes + o->len;
}

/* Bytes of the file so far, counting what is still buffered or spooled. */
static inline uint64_t out_total_bytes(const struct out *o)
{
    return o->file_bytes + o->len + (o->direct ? 0 : o->record_bytes);
}

static inline char *out_room(struct out *o, size_t n)
{
    if (o->len + n > o->cap) {
        out_spill(o, n);
    }
    return o->buf + o->len;
}

static inline void out_put(struct out *o, const char *s, size_t n)
{
    memcpy(out_room(o, n), s, n);
    o->len += n;
}

static inline void out_putc(struct out *o, char c)
{
    *out_room(o, 1) = c;
    o->len++;
}

#define out_lit(O, S) out_put(O, S, sizeof(S) - 1)

/* Decimal integers. */
void out_put_u64(struct out *, uint64_t);
void out_put_i64(struct out *, int64_t);

#endif /* OVSDB_RECORD_WRITER_H */
