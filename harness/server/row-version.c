/* _version UUID generation (see row-version.h). */
#include "server/row-version.h"

#include <stdbool.h>

#include "ovsdb/aes128.h"
#include "ovsdb/rng.h"

/* Tags the key's stream, so that it differs from every other stream drawn
 * from the same seed ("version" in ASCII). */
#define ROW_VERSION_TAG 0x76657273696f6eULL

static bool started;            /* row_version_start() ran. */
static uint64_t seed;
static bool keyed;              /* 'aes' holds the key of 'seed'. */
static struct aes128 aes;
static uint64_t counter[2];
static uint64_t n_generated;

/* The key's 16 bytes, then the first counter's two halves. */
static struct rng
row_version_rng(void)
{
    return rng_derive(ROW_VERSION_TAG, seed, 0, 0);
}

void
row_version_start(uint64_t seed_)
{
    struct rng rng;

    seed = seed_;
    rng = row_version_rng();
    rng_next(&rng);             /* The key's (row_version_key()). */
    rng_next(&rng);
    counter[0] = rng_next(&rng);
    counter[1] = rng_next(&rng);
    n_generated = 0;
    keyed = false;
    started = true;
}

/* Sets up AES-128 with the key of 'seed' at the first UUID, as OVS's
 * uuid_generate() runs uuid_init() at its first call: inside the load, and
 * not at all for a database without rows. */
static void
row_version_key(void)
{
    struct rng rng = row_version_rng();
    unsigned char key[16];

    for (int i = 0; i < 16; i += 8) {
        uint64_t r = rng_next(&rng);
        for (int j = 0; j < 8; j++) {
            key[i + j] = r >> (8 * j);
        }
    }
    aes128_schedule(&aes, key);
    keyed = true;
}

void
row_version_generate(struct uuid *u)
{
    uint64_t block[2];

    if (!started) {
        row_version_start(1);   /* The harness's default --seed. */
    }
    if (!keyed) {
        row_version_key();
    }
    block[0] = counter[0];
    block[1] = counter[1];
    if (!++counter[1]) {
        counter[0]++;
    }
    aes128_encrypt(&aes, block, u->parts);
    uuid_set_v4(u);
    n_generated++;
}

uint64_t
row_version_count(void)
{
    return n_generated;
}
