#include "uuid.h"

#include <string.h>

#include "rng.h"
#include "util.h"

bool
uuid_from_string(struct uuid *uuid, const char *s)
{
    /* Dashes sit after hex digits 8, 12, 16 and 20. */
    uint32_t parts[4] = { 0, 0, 0, 0 };
    int n_digits = 0;

    for (const char *p = s; *p; p++) {
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
    if (n_digits != 32 || strlen(s) != UUID_LEN) {
        return false;
    }
    memcpy(uuid->parts, parts, sizeof parts);
    return true;
}

void
uuid_format(const struct uuid *u, char out[UUID_LEN + 1])
{
    static const char hex[] = "0123456789abcdef";
    int k = 0;

    for (int i = 0; i < 32; i++) {
        if (i == 8 || i == 12 || i == 16 || i == 20) {
            out[k++] = '-';
        }
        out[k++] = hex[(u->parts[i / 8] >> (28 - 4 * (i % 8))) & 0xf];
    }
    out[k] = '\0';
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

    u->parts[0] = a >> 32;
    u->parts[1] = (uint32_t) a;
    u->parts[2] = b >> 32;
    u->parts[3] = (uint32_t) b;
    u->parts[1] = (u->parts[1] & 0xffff0fff) | 0x00004000;  /* Version 4. */
    u->parts[2] = (u->parts[2] & 0x3fffffff) | 0x80000000;  /* Variant. */
}
