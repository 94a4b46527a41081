/* The counting allocator's memory breakdown, as util.c sees it: hooks called
 * around each allocation and free when the breakdown is on.  The public
 * interface (enable, read, reset) is in util.h. */
#ifndef JSONBENCH_XALLOC_BREAKDOWN_H
#define JSONBENCH_XALLOC_BREAKDOWN_H 1

#include <stdbool.h>
#include <stddef.h>

/* xalloc_breakdown_on (util.h) is true once xalloc_breakdown_enable() ran;
 * tested inline on every call so that the breakdown costs one predictable
 * branch when it is off. */

/* Stops counting 'p' (about to be freed or realloc()ed) and returns its
 * category, or -1 if it was not tracked. */
int xalloc_breakdown_take(void *p);
/* Counts 'p' (just returned by malloc, calloc or realloc) under category
 * 'c', or the current category if 'c' is -1. */
void xalloc_breakdown_put(void *p, int c);

#endif
