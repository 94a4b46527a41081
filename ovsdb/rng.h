/* Seeded pseudo-random numbers (splitmix64), the one generator of the
 * project: a seed fully determines what ovsdb-gen writes and what a harness
 * workload runs.  Streams can be derived from up to four values, so a
 * generated value can be recomputed without replaying what came before. */
#ifndef OVSDB_RNG_H
#define OVSDB_RNG_H 1

#include <stdint.h>

struct rng {
    uint64_t state;
};

/* The splitmix64 finalizer: a good 64-bit mixing function on its own. */
static inline uint64_t
mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline void
rng_init(struct rng *rng, uint64_t seed)
{
    rng->state = seed * 0x9e3779b97f4a7c15ULL + 1;
}

static inline uint64_t
rng_next(struct rng *rng)
{
    rng->state += 0x9e3779b97f4a7c15ULL;
    return mix64(rng->state);
}

/* A stream for the combination of up to four values. */
static inline struct rng
rng_derive(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    uint64_t h = mix64(a + 0x9e3779b97f4a7c15ULL);
    h = mix64(h ^ (b + 0x632be59bd9b4e019ULL));
    h = mix64(h ^ (c + 0x8cb92ba72f3d8dd7ULL));
    h = mix64(h ^ (d + 0x4f1bbcdcbfa53e0bULL));
    return (struct rng) { h };
}

/* Uniform in [0, n), n > 0 (multiply-shift: no division, tiny bias). */
static inline uint64_t
rng_below(struct rng *rng, uint64_t n)
{
    return (uint64_t) (((unsigned __int128) rng_next(rng) * n) >> 64);
}

/* Uniform in [0, n) by remainder, 0 if n is 0.  The workloads' recorded
 * sequences were drawn this way, so it stays beside rng_below(). */
static inline uint64_t
rng_range(struct rng *rng, uint64_t n)
{
    return n ? rng_next(rng) % n : 0;
}

/* True with probability p. */
static inline int
rng_chance(struct rng *rng, double p)
{
    return (double) (rng_next(rng) >> 11) * 0x1.0p-53 < p;
}

#endif /* OVSDB_RNG_H */
