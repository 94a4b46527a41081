/* UUID text form and seeded generation; see uuid.h. */
#include "ovsdb/uuid.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ovsdb/rng.h"
#include "util.h"

bool
uuid_from_string(struct uuid *uuid, const char *s)
{
    return uuid_from_buffer(uuid, s, strlen(s));
}

bool
uuid_from_buffer(struct uuid *uuid, const char *s, size_t n)
{
    /* Dashes sit after hex digits 8, 12, 16 and 20. */
    uint32_t parts[4] = { 0, 0, 0, 0 };
    int n_digits = 0;

    if (n != UUID_LEN) {
        return false;
    }
    for (const char *p = s; p < s + n; p++) {
        if (*p == '-') {
            if (n_digits != 8 && n_digits != 12 && n_digits != 16
                && n_digits != 20) {
                return false;
            }
            if (p[-1] == '-') {
                return false;
            }
            continue;
        }
        int d = hexit_value(*p);
        if (d < 0 || n_digits >= 32) {
            return false;
        }
        parts[n_digits / 8] = (parts[n_digits / 8] << 4) | d;
        n_digits++;
    }
    if (n_digits != 32) {
        return false;
    }
    memcpy(uuid->parts, parts, sizeof parts);
    return true;
}

/* Two hex digits per byte value: writing UUIDs is a hot path of
 * ovsdb-gen. */
static const char hex_pairs[513] =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
    "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
    "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
    "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
    "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/* Writes the 'n' low-order bytes of 'v' as 2 * n hex digits. */
static inline void
put_hex_bytes(char *out, uint32_t v, int n)
{
    for (int i = n - 1; i >= 0; i--) {
        memcpy(out + 2 * i, &hex_pairs[2 * (v & 0xff)], 2);
        v >>= 8;
    }
}

void
uuid_put(const struct uuid *u, char out[UUID_LEN])
{
    put_hex_bytes(out, u->parts[0], 4);
    out[8] = '-';
    put_hex_bytes(out + 9, u->parts[1] >> 16, 2);
    out[13] = '-';
    put_hex_bytes(out + 14, u->parts[1], 2);
    out[18] = '-';
    put_hex_bytes(out + 19, u->parts[2] >> 16, 2);
    out[23] = '-';
    put_hex_bytes(out + 24, u->parts[2], 2);
    put_hex_bytes(out + 28, u->parts[3], 4);
}

void
uuid_format(const struct uuid *u, char out[UUID_LEN + 1])
{
    uuid_put(u, out);
    out[UUID_LEN] = '\0';
}

void
uuid_format_printf(const struct uuid *u, char out[UUID_LEN + 1])
{
    snprintf(out, UUID_LEN + 1, "%08"PRIx32"-%04"PRIx32"-%04"PRIx32"-%04"
             PRIx32"-%04"PRIx32"%08"PRIx32, u->parts[0], u->parts[1] >> 16,
             u->parts[1] & 0xffff, u->parts[2] >> 16, u->parts[2] & 0xffff,
             u->parts[3]);
}

int
uuid_compare(const struct uuid *a, const struct uuid *b)
{
    for (int i = 0; i < 4; i++) {
        if (a->parts[i] != b->parts[i]) {
            return a->parts[i] < b->parts[i] ? -1 : 1;
        }
    }
    return 0;
}

bool
uuid_equals(const struct uuid *a, const struct uuid *b)
{
    return !memcmp(a, b, sizeof *a);
}

bool
uuid_is_zero(const struct uuid *u)
{
    return !(u->parts[0] | u->parts[1] | u->parts[2] | u->parts[3]);
}

uint32_t
uuid_hash(const struct uuid *u)
{
    /* UUIDs are random already; part 0 alone spreads well. */
    return u->parts[0];
}

void
uuid_generate(struct uuid *u, struct rng *rng)
{
    uint64_t a = rng_next(rng), b = rng_next(rng);

    *u = uuid_from_u64(a, b);
    uuid_set_v4(u);
}
