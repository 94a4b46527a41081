/* impls/ovs-regressed: the deliberate regression, as json-node.h hooks.  The
 * gate's tests run this impl to prove that the gate catches a regression in
 * allocation counts and instructions; no measured impl includes it. */
#ifndef JSONBENCH_REGRESSION_H
#define JSONBENCH_REGRESSION_H 1

#include <stdint.h>

#include "ds.h"
#include "hash.h"
#include "util.h"

/* Keeps the serialize tax's hash from being optimized away. */
static volatile uint32_t json_regression_sink;

/* A short-lived allocation per string node. */
static inline void
hook_string_created(void)
{
    xfree(xmalloc(32));
}

/* Rescans and hashes each serialized output. */
static inline void
hook_serialized(const struct ds *ds, size_t start)
{
    char *copy = xmemdup(ds->string + start, ds->length - start);
    json_regression_sink = hash_bytes(copy, ds->length - start, 0);
    xfree(copy);
}

#endif /* JSONBENCH_REGRESSION_H */
