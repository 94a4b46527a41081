/* Seeded, splittable pseudo-random numbers (splitmix64).  Every row and
 * column draws from its own stream derived from (seed, table, row, column),
 * so a value can be regenerated without replaying what came before it. */
#ifndef DATASETS_RNG_H
#define DATASETS_RNG_H 1

#include <stdint.h>

struct rng {
    uint64_t state;
};

static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline uint64_t rng_next(struct rng *r)
{
    r->state += 0x9e3779b97f4a7c15ULL;
    return mix64(r->state);
}

/* A stream for the combination of up to four values. */
static inline struct rng rng_derive(uint64_t a, uint64_t b, uint64_t c,
                                    uint64_t d)
{
    uint64_t h = mix64(a + 0x9e3779b97f4a7c15ULL);
    h = mix64(h ^ (b + 0x632be59bd9b4e019ULL));
    h = mix64(h ^ (c + 0x8cb92ba72f3d8dd7ULL));
    h = mix64(h ^ (d + 0x4f1bbcdcbfa53e0bULL));
    return (struct rng) { h };
}

/* Uniform in [0, n), n > 0 (multiply-shift: no division, tiny bias). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
    return (uint64_t) (((unsigned __int128) rng_next(r) * n) >> 64);
}

/* True with probability p. */
static inline int rng_chance(struct rng *r, double p)
{
    return (double) (rng_next(r) >> 11) * 0x1.0p-53 < p;
}

#endif /* DATASETS_RNG_H */
