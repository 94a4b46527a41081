/* SHA-1 (FIPS 180-4, section 6.1) in plain C; see sha1.h. */
#include "ovsdb/sha1.h"

#include <string.h>

static inline uint32_t
rotl32(uint32_t x, int n)
{
    return (x << n) | (x >> (32 - n));
}

static uint32_t
load_be32(const uint8_t *p)
{
    return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16)
           | ((uint32_t) p[2] << 8) | p[3];
}

/* Round functions of the four groups of 20 rounds. */
#define F_CHOOSE(b, c, d) ((d) ^ ((b) & ((c) ^ (d))))
#define F_PARITY(b, c, d) ((b) ^ (c) ^ (d))
#define F_MAJORITY(b, c, d) (((b) & (c)) | ((d) & ((b) | (c))))

/* One round: 'e' becomes the next 'a' and 'b' the next 'c', so the
 * variables only change roles (R5) instead of being copied. */
#define R(a, b, c, d, e, F, K, W)                           \
    do {                                                    \
        e += rotl32(a, 5) + F(b, c, d) + (K) + (W);         \
        b = rotl32(b, 30);                                  \
    } while (0)

/* Five rounds, after which every variable has its role back. */
#define R5(F, K, t)                                         \
    do {                                                    \
        R(a, b, c, d, e, F, K, w[t]);                       \
        R(e, a, b, c, d, F, K, w[(t) + 1]);                 \
        R(d, e, a, b, c, F, K, w[(t) + 2]);                 \
        R(c, d, e, a, b, F, K, w[(t) + 3]);                 \
        R(b, c, d, e, a, F, K, w[(t) + 4]);                 \
    } while (0)

/* One 64-byte block into 'h'. */
static void
sha1_block(uint32_t h[5], const uint8_t *p)
{
    uint32_t w[80];

    for (int t = 0; t < 16; t++) {
        w[t] = load_be32(p + 4 * t);
    }
    for (int t = 16; t < 80; t++) {
        w[t] = rotl32(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
    }

    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int t = 0; t < 20; t += 5) {
        R5(F_CHOOSE, 0x5a827999, t);
    }
    for (int t = 20; t < 40; t += 5) {
        R5(F_PARITY, 0x6ed9eba1, t);
    }
    for (int t = 40; t < 60; t += 5) {
        R5(F_MAJORITY, 0x8f1bbcdc, t);
    }
    for (int t = 60; t < 80; t += 5) {
        R5(F_PARITY, 0xca62c1d6, t);
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
}

void
sha1_init(struct sha1_ctx *ctx)
{
    static const uint32_t h0[5] = {
        0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0
    };
    memcpy(ctx->h, h0, sizeof h0);
    ctx->n_bytes = 0;
    ctx->n_block = 0;
}

void
sha1_update(struct sha1_ctx *ctx, const void *data_, size_t n)
{
    const uint8_t *data = data_;

    ctx->n_bytes += n;
    if (ctx->n_block) {
        size_t take = sizeof ctx->block - ctx->n_block;
        if (take > n) {
            take = n;
        }
        memcpy(ctx->block + ctx->n_block, data, take);
        ctx->n_block += take;
        data += take;
        n -= take;
        if (ctx->n_block < sizeof ctx->block) {
            return;
        }
        sha1_block(ctx->h, ctx->block);
        ctx->n_block = 0;
    }
    for (; n >= 64; data += 64, n -= 64) {
        sha1_block(ctx->h, data);
    }
    memcpy(ctx->block, data, n);
    ctx->n_block = n;
}

void
sha1_final(struct sha1_ctx *ctx, uint8_t digest[SHA1_DIGEST_LEN])
{
    uint64_t bits = ctx->n_bytes * 8;
    uint8_t pad[72] = { 0x80 };
    /* Pad to 56 bytes past a block boundary, then the length in bits. */
    size_t n_pad = (ctx->n_block < 56 ? 56 : 120) - ctx->n_block;
    for (int i = 0; i < 8; i++) {
        pad[n_pad + i] = bits >> (56 - 8 * i);
    }
    sha1_update(ctx, pad, n_pad + 8);
    for (int i = 0; i < 5; i++) {
        digest[4 * i] = ctx->h[i] >> 24;
        digest[4 * i + 1] = ctx->h[i] >> 16;
        digest[4 * i + 2] = ctx->h[i] >> 8;
        digest[4 * i + 3] = ctx->h[i];
    }
}
