/* _version UUIDs for the full model's rows, made as ovsdb-server makes
 * them (lib/uuid.c uuid_generate()): a 128-bit counter encrypted with
 * AES-128, marked as a version 4 UUID.  The key comes from a fixed seed,
 * not from /dev/urandom, so runs stay deterministic. */
#ifndef HARNESS_ROW_VERSION_H
#define HARNESS_ROW_VERSION_H 1

#include "ovsdb/uuid.h"

/* Stores the next _version UUID in '*u'. */
void row_version_generate(struct uuid *u);

#endif
