/* 128-bit UUIDs kept in binary, as OVSDB keeps row identities. */
#ifndef HARNESS_UUID_H
#define HARNESS_UUID_H 1

#include <stdbool.h>
#include <stdint.h>

struct rng;

struct uuid {
    uint32_t parts[4];
};

#define UUID_LEN 36             /* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" */

bool uuid_from_string(struct uuid *, const char *);
void uuid_format(const struct uuid *, char out[UUID_LEN + 1]);
int uuid_compare(const struct uuid *, const struct uuid *);
bool uuid_equals(const struct uuid *, const struct uuid *);
bool uuid_is_zero(const struct uuid *);
uint32_t uuid_hash(const struct uuid *);
/* A version-4 UUID drawn from 'rng', so runs are reproducible. */
void uuid_generate(struct uuid *, struct rng *);

#endif
