/* SHA-1 (FIPS 180-4) in plain C.
 *
 * OVS hashed database records with SHA-1 code of its own until 3.0, which
 * takes OpenSSL's (e8f557df3).  The readers here use OpenSSL's; this one
 * stands in for the older code when asked (log_reader_builtin_sha1), so
 * the model can show what that change did.  Digests equal OpenSSL's. */
#ifndef OVSDB_SHA1_H
#define OVSDB_SHA1_H 1

#include <stddef.h>
#include <stdint.h>

#define SHA1_DIGEST_LEN 20

struct sha1_ctx {
    uint32_t h[5];
    uint64_t n_bytes;           /* Message bytes so far. */
    uint8_t block[64];          /* Bytes of the block not yet hashed. */
    size_t n_block;
};

void sha1_init(struct sha1_ctx *);
void sha1_update(struct sha1_ctx *, const void *, size_t);
void sha1_final(struct sha1_ctx *, uint8_t digest[SHA1_DIGEST_LEN]);

#endif /* OVSDB_SHA1_H */
