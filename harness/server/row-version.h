/* _version UUIDs for the full model's rows, made as ovsdb-server makes
 * them (lib/uuid.c uuid_generate()): a 128-bit counter encrypted with
 * AES-128, marked as a version 4 UUID.  The server draws its key and first
 * counter from /dev/urandom; here they come from the harness's --seed, so
 * that runs with the same seed give every row the same _version and dumps
 * stay byte-identical. */
#ifndef HARNESS_ROW_VERSION_H
#define HARNESS_ROW_VERSION_H 1

#include <stdint.h>

#include "ovsdb/uuid.h"

/* (Re)starts the generator: key and counter derived from 'seed'; the key
 * is set up at the next UUID.  The harness calls it before each
 * repetition, so each one hands out the same sequence. */
void row_version_start(uint64_t seed);

/* Stores the next _version UUID in '*u' (starting the generator with seed
 * 1, the harness's default, if nothing started it). */
void row_version_generate(struct uuid *u);

/* _version UUIDs generated since the last row_version_start(): one per
 * row inserted and per row a commit changed (workloads report it as the
 * counter "row_versions"). */
uint64_t row_version_count(void);

#endif
