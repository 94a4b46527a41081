/* A small seeded pseudo-random generator (splitmix64): every workload draws
 * from it so that a seed fully determines what runs. */
#ifndef HARNESS_RNG_H
#define HARNESS_RNG_H 1

#include <stdint.h>

struct rng {
    uint64_t state;
};

static inline void
rng_init(struct rng *rng, uint64_t seed)
{
    rng->state = seed * 0x9e3779b97f4a7c15ULL + 1;
}

static inline uint64_t
rng_next(struct rng *rng)
{
    uint64_t z = (rng->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static inline uint64_t
rng_range(struct rng *rng, uint64_t n)
{
    return n ? rng_next(rng) % n : 0;
}

#endif
