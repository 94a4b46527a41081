/* Dataset twins: a profile (datasets/README.md) derived from a database
 * file that describes its shape and none of its contents, for ovsdb-gen to
 * produce that shape at any scale. */
#ifndef DATASETS_TWIN_DERIVE_H
#define DATASETS_TWIN_DERIVE_H 1

#include <stdbool.h>

#include "db-load.h"

struct ds;

struct twin_options {
    bool drop_keys;             /* Synthetic map keys instead of the file's. */
};

/* Appends the profile text of 'db' to 'out'. */
void twin_derive(const struct db_file *, const struct twin_options *,
                 struct ds *out);

#endif /* DATASETS_TWIN_DERIVE_H */
