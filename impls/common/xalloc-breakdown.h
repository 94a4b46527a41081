/* The counting allocator's memory breakdown, as util.c sees it: hooks called
 * around each allocation and free when the breakdown is on.  The public
 * interface (enable, read, reset) is in util.h. */
#ifndef JSONBENCH_XALLOC_BREAKDOWN_H
#define JSONBENCH_XALLOC_BREAKDOWN_H 1

#include <stdbool.h>
#include <stddef.h>

/* The allocator util.c calls: malloc, calloc, realloc and free until
 * xalloc_breakdown_enable() points them to wrappers that keep the
 * breakdown.  xalloc_breakdown_on (util.h) says which. */
extern void *(*xalloc_malloc)(size_t);
extern void *(*xalloc_calloc)(size_t, size_t);
extern void *(*xalloc_realloc)(void *, size_t);
extern void (*xalloc_free)(void *);
extern void *(*xalloc_malloc_as[])(size_t);
extern void *(*xalloc_calloc_as[])(size_t, size_t);
extern void *(*xalloc_realloc_as[])(void *, size_t);

/* Counts a block that is not malloc's ('sign' 1: mapped, -1: unmapped),
 * e.g. util.c's xmmap_as(): a no-op with the breakdown off. */
void xalloc_breakdown_external(int c, size_t size, int sign);

#endif
