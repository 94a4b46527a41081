/* Non-cryptographic hashing shared by every impl and the harness. */
#ifndef JSONBENCH_HASH_H
#define JSONBENCH_HASH_H 1

#include <stddef.h>
#include <stdint.h>

uint32_t hash_bytes(const void *, size_t n, uint32_t basis);
uint32_t hash_string(const char *, uint32_t basis);
uint32_t hash_add(uint32_t hash, uint32_t data);
uint32_t hash_add64(uint32_t hash, uint64_t data);
uint32_t hash_finish(uint32_t hash, uint32_t final);
static inline uint32_t hash_int(uint32_t x, uint32_t basis)
{
    return hash_finish(hash_add(basis, x), 4);
}

#endif /* JSONBENCH_HASH_H */
