/* AES-128 encryption (see aes128.h), written from FIPS-197: the S-box is
 * computed once from its definition (multiplicative inverse in GF(2^8),
 * then the affine map), and each round is four lookups per column in
 * tables that fold SubBytes, ShiftRows and MixColumns together, the usual
 * software form, as OVS's is. */
#include "ovsdb/aes128.h"

#include <stdbool.h>
#include <string.h>

static bool ready;
static uint8_t sbox[256];
static uint32_t te[4][256];     /* te[i] is te[0] rotated right 8*i bits. */

/* Multiplication by x (i.e. 2) in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1. */
static uint8_t
xtime(uint8_t b)
{
    return (uint8_t) ((b << 1) ^ (b & 0x80 ? 0x1b : 0));
}

static uint8_t
rotl8(uint8_t b, int n)
{
    return (uint8_t) ((b << n) | (b >> (8 - n)));
}

/* Rotates right by 'n' bits, 0 <= n < 32 (no shift by 32). */
static uint32_t
ror32(uint32_t w, int n)
{
    return (w >> n) | (w << ((32 - n) & 31));
}

static void
make_tables(void)
{
    uint8_t exp[255], log[256];
    uint8_t p = 1;

    /* 3 generates the multiplicative group: its powers and logarithms. */
    for (int i = 0; i < 255; i++) {
        exp[i] = p;
        log[p] = (uint8_t) i;
        p ^= xtime(p);
    }
    for (int x = 0; x < 256; x++) {
        uint8_t inv = x ? exp[(255 - log[x]) % 255] : 0;
        sbox[x] = (uint8_t) (inv ^ rotl8(inv, 1) ^ rotl8(inv, 2)
                             ^ rotl8(inv, 3) ^ rotl8(inv, 4) ^ 0x63);
    }
    for (int x = 0; x < 256; x++) {
        uint8_t s = sbox[x], s2 = xtime(s), s3 = s2 ^ s;
        uint32_t w = ((uint32_t) s2 << 24) | ((uint32_t) s << 16)
                     | ((uint32_t) s << 8) | s3;
        for (int i = 0; i < 4; i++) {
            te[i][x] = ror32(w, 8 * i);
        }
    }
    ready = true;
}

static uint32_t
load_be32(const uint8_t *p)
{
    return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16)
           | ((uint32_t) p[2] << 8) | p[3];
}

static void
store_be32(uint8_t *p, uint32_t w)
{
    p[0] = w >> 24;
    p[1] = w >> 16;
    p[2] = w >> 8;
    p[3] = w;
}

static uint32_t
sub_word(uint32_t w)
{
    return ((uint32_t) sbox[w >> 24] << 24)
           | ((uint32_t) sbox[(w >> 16) & 0xff] << 16)
           | ((uint32_t) sbox[(w >> 8) & 0xff] << 8)
           | sbox[w & 0xff];
}

void
aes128_schedule(struct aes128 *aes, const uint8_t key[16])
{
    uint8_t rcon = 1;

    if (!ready) {
        make_tables();
    }
    for (int i = 0; i < 4; i++) {
        aes->rk[i] = load_be32(key + 4 * i);
    }
    for (int i = 4; i < 44; i++) {
        uint32_t t = aes->rk[i - 1];
        if (i % 4 == 0) {
            /* RotWord, SubWord, then the round constant. */
            t = sub_word((t << 8) | (t >> 24)) ^ ((uint32_t) rcon << 24);
            rcon = xtime(rcon);
        }
        aes->rk[i] = aes->rk[i - 4] ^ t;
    }
}

/* One column of a middle round: state words a, b, c, d are the columns
 * that ShiftRows brings to rows 0, 1, 2, 3 of this column. */
static uint32_t
round_column(uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t k)
{
    return (te[0][a >> 24] ^ te[1][(b >> 16) & 0xff]
            ^ te[2][(c >> 8) & 0xff] ^ te[3][d & 0xff] ^ k);
}

/* The same for the last round, which has no MixColumns. */
static uint32_t
last_column(uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t k)
{
    return (((uint32_t) sbox[a >> 24] << 24)
            ^ ((uint32_t) sbox[(b >> 16) & 0xff] << 16)
            ^ ((uint32_t) sbox[(c >> 8) & 0xff] << 8)
            ^ sbox[d & 0xff] ^ k);
}

void
aes128_encrypt(const struct aes128 *aes, const void *plain, void *cipher)
{
    const uint8_t *in = plain;
    const uint32_t *rk = aes->rk;
    uint32_t s0 = load_be32(in) ^ rk[0];
    uint32_t s1 = load_be32(in + 4) ^ rk[1];
    uint32_t s2 = load_be32(in + 8) ^ rk[2];
    uint32_t s3 = load_be32(in + 12) ^ rk[3];

    for (int r = 1; r < 10; r++) {
        rk += 4;
        uint32_t t0 = round_column(s0, s1, s2, s3, rk[0]);
        uint32_t t1 = round_column(s1, s2, s3, s0, rk[1]);
        uint32_t t2 = round_column(s2, s3, s0, s1, rk[2]);
        uint32_t t3 = round_column(s3, s0, s1, s2, rk[3]);
        s0 = t0;
        s1 = t1;
        s2 = t2;
        s3 = t3;
    }
    rk += 4;
    uint8_t out[16];
    store_be32(out, last_column(s0, s1, s2, s3, rk[0]));
    store_be32(out + 4, last_column(s1, s2, s3, s0, rk[1]));
    store_be32(out + 8, last_column(s2, s3, s0, s1, rk[2]));
    store_be32(out + 12, last_column(s3, s0, s1, s2, rk[3]));
    memcpy(cipher, out, sizeof out);
}
