/* A murmur3-style 32-bit hash (written for this project). */
#include "hash.h"

#include <string.h>

static inline uint32_t
rotl32(uint32_t x, int r)
{
    return (x << r) | (x >> (32 - r));
}

/* Mixes one 32-bit word into 'hash'. */
uint32_t
hash_add(uint32_t hash, uint32_t data)
{
    data *= 0xcc9e2d51;
    data = rotl32(data, 15);
    data *= 0x1b873593;
    hash ^= data;
    hash = rotl32(hash, 13);
    return hash * 5 + 0xe6546b64;
}

uint32_t
hash_add64(uint32_t hash, uint64_t data)
{
    return hash_add(hash_add(hash, (uint32_t) data), (uint32_t) (data >> 32));
}

/* Final avalanche; 'final' is usually the number of bytes hashed. */
uint32_t
hash_finish(uint32_t hash, uint32_t final)
{
    hash ^= final;
    hash ^= hash >> 16;
    hash *= 0x85ebca6b;
    hash ^= hash >> 13;
    hash *= 0xc2b2ae35;
    hash ^= hash >> 16;
    return hash;
}

uint32_t
hash_bytes(const void *p_, size_t n, uint32_t basis)
{
    const unsigned char *p = p_;
    uint32_t hash = basis;
    size_t i;

    for (i = 0; i + 4 <= n; i += 4) {
        uint32_t word;
        memcpy(&word, p + i, 4);
        hash = hash_add(hash, word);
    }
    if (i < n) {
        uint32_t word = 0;
        memcpy(&word, p + i, n - i);
        hash = hash_add(hash, word);
    }
    return hash_finish(hash, (uint32_t) n);
}

uint32_t
hash_string(const char *s, uint32_t basis)
{
    return hash_bytes(s, strlen(s), basis);
}
