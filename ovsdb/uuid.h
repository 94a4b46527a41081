/* 128-bit UUIDs kept in binary, as OVSDB keeps row identities: parsing,
 * formatting, ordering and seeded version-4 generation. */
#ifndef OVSDB_UUID_H
#define OVSDB_UUID_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rng;

struct uuid {
    uint32_t parts[4];
};

#define UUID_LEN 36             /* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" */

/* Parse the 36-character text form; false if 's' is not one. */
bool uuid_from_string(struct uuid *, const char *);
bool uuid_from_buffer(struct uuid *, const char *s, size_t n);
void uuid_format(const struct uuid *, char out[UUID_LEN + 1]);
/* The same text as uuid_format(), made the way OVS makes it wherever it
 * writes a UUID into JSON (uuid_to_string(), snprintf() of UUID_FMT): the
 * model's datums, dump replies and snapshots use it, so that writing a
 * UUID costs the model what it costs the server (about 3,400
 * instructions, against about 60 for uuid_format(); docs/model.md, "Load
 * and compaction").  Generators and readers keep the table-driven one. */
void uuid_format_printf(const struct uuid *, char out[UUID_LEN + 1]);
/* The text form without a terminating null, for writers that place it
 * straight into an output buffer. */
void uuid_put(const struct uuid *, char out[UUID_LEN]);

/* The UUID whose text form reads 'hi' then 'lo' as hex. */
static inline struct uuid
uuid_from_u64(uint64_t hi, uint64_t lo)
{
    return (struct uuid) { { hi >> 32, (uint32_t) hi, lo >> 32,
                             (uint32_t) lo } };
}

/* Marks 'u' as version 4 (random), RFC 4122 variant. */
static inline void
uuid_set_v4(struct uuid *u)
{
    u->parts[1] = (u->parts[1] & 0xffff0fff) | 0x00004000;
    u->parts[2] = (u->parts[2] & 0x3fffffff) | 0x80000000;
}

int uuid_compare(const struct uuid *, const struct uuid *);
bool uuid_equals(const struct uuid *, const struct uuid *);
bool uuid_is_zero(const struct uuid *);
uint32_t uuid_hash(const struct uuid *);
/* A version-4 UUID drawn from 'rng', so runs are reproducible. */
void uuid_generate(struct uuid *, struct rng *);

#endif /* OVSDB_UUID_H */
