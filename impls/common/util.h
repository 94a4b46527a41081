/* Allocation wrappers and small helpers shared by impls, harness and tools.
 *
 * Every allocation of the project goes through x*alloc so that allocation
 * calls and bytes are counted: those counts are deterministic and are what CI
 * gates on.  The counters are plain globals (the project is single-threaded). */
#ifndef JSONBENCH_UTIL_H
#define JSONBENCH_UTIL_H 1

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(A) (sizeof (A) / sizeof (A)[0])
#define CONST_CAST(TYPE, POINTER) ((TYPE) (uintptr_t) (POINTER))
#define OVS_UNUSED __attribute__((unused))
#define OVS_NO_RETURN __attribute__((noreturn))
#define OVS_PRINTF_FORMAT(F, A) __attribute__((format(printf, F, A)))
#define OVS_LIKELY(X) __builtin_expect(!!(X), 1)
#define OVS_UNLIKELY(X) __builtin_expect(!!(X), 0)

/* Counted since start (or the last xalloc_stats_reset()). */
struct xalloc_stats {
    uint64_t calls;         /* malloc, calloc, realloc and strdup calls. */
    uint64_t bytes;         /* Bytes requested by those calls. */
    uint64_t frees;         /* xfree() calls on non-null pointers.  The
                             * impls free everything with xfree(); plain
                             * free() elsewhere is not counted. */
};
extern struct xalloc_stats xalloc_stats;
static inline void xalloc_stats_reset(void)
{
    xalloc_stats.calls = xalloc_stats.bytes = xalloc_stats.frees = 0;
}

/* What an allocation is for, for the memory breakdown.  Code that allocates
 * says so by setting the current category around the call; whatever is not
 * tagged counts as XALLOC_OTHER.  Tagging never changes what is allocated.
 * Add a category at the end, before N_XALLOC_CATEGORIES, and give it a name
 * in xalloc_category_name(). */
enum xalloc_category {
    XALLOC_OTHER,           /* Not tagged. */
    XALLOC_JSON_NODE,       /* struct json itself. */
    XALLOC_STRING,          /* String bytes (heap strings, serialized text). */
    XALLOC_ARRAY,           /* Array element storage. */
    XALLOC_OBJECT,          /* Object hash tables and members. */
    XALLOC_INTERN,          /* An impl's own string/intern tables. */
    XALLOC_MODEL,           /* OVSDB model: rows, datums, atoms. */
    XALLOC_INDEX,           /* OVSDB model: indexes and reference tracking. */
    N_XALLOC_CATEGORIES
};
extern enum xalloc_category xalloc_category;
const char *xalloc_category_name(enum xalloc_category);

/* Makes 'c' the category of the allocations that follow and returns the one
 * it replaces, to be restored:
 *     enum xalloc_category old = xalloc_category_set(XALLOC_STRING);
 *     ...
 *     xalloc_category_set(old); */
static inline enum xalloc_category
xalloc_category_set(enum xalloc_category c)
{
    enum xalloc_category old = xalloc_category;
    xalloc_category = c;
    return old;
}

/* The memory breakdown: live bytes and blocks per category.  Off by default
 * (on, it updates a side map at every allocation and free: about 1.2x load
 * CPU; off, it costs nothing, see util.c); switched on once,
 * at run time, with xalloc_breakdown_enable(), normally before the first
 * allocation that should be counted (the harness's --mem-breakdown).
 *
 * Live bytes are malloc_usable_size() of each live block, so the breakdown
 * sees what the allocator handed out, not only what was asked for; the rest
 * of RSS (chunk headers, free chunks, fragmentation, code and stacks) is
 * malloc overhead.  The category of each live block is kept in a side map
 * of its own mmap()ed memory, outside the heap: switching the breakdown on
 * changes neither the allocations nor the heap figures, only RSS (by the
 * map, reported as 'table_bytes') and CPU.
 *
 * A block keeps the category it was allocated with through xrealloc().
 * Blocks must be freed with xfree(): a block freed with plain free() stays
 * counted (a later block at the same address reports it as 'stale'). */
struct xalloc_breakdown {
    uint64_t bytes[N_XALLOC_CATEGORIES];
    uint64_t blocks[N_XALLOC_CATEGORIES];
    uint64_t total_bytes, total_blocks;
};
struct xalloc_breakdown_health {
    uint64_t table_bytes;       /* Side map, resident (outside the heap). */
    uint64_t untracked_frees;   /* xfree()/xrealloc() of a block allocated
                                 * before the breakdown was on, or not by
                                 * x*alloc: not counted. */
    uint64_t stale;             /* Tracked blocks seen again at allocation:
                                 * they were freed without xfree(). */
};
void xalloc_breakdown_enable(void);
bool xalloc_breakdown_enabled(void);
/* Live now, and the breakdown at the highest total since the last
 * xalloc_breakdown_reset_peak() (either may be NULL).  All zero when off. */
void xalloc_breakdown_get(struct xalloc_breakdown *live,
                          struct xalloc_breakdown *peak);
void xalloc_breakdown_reset_peak(void);
void xalloc_breakdown_health(struct xalloc_breakdown_health *);

/* Runs the statements with 'C' as the current category:
 *     XALLOC_TAGGED(XALLOC_ARRAY, elems = xmalloc(n * sizeof *elems)); */
#define XALLOC_TAGGED(C, ...)                                           \
    do {                                                                \
        enum xalloc_category old_category_ = xalloc_category_set(C);    \
        __VA_ARGS__;                                                    \
        xalloc_category_set(old_category_);                             \
    } while (0)

/* Counts the live block 'p' (from x*alloc, or NULL) under 'c' from now on:
 * for a block allocated by one piece of code and given to another, e.g. a
 * caller's string that json_string_create_nocopy() keeps.  Changes nothing
 * but the breakdown, and costs a test of a flag when it is off. */
extern bool xalloc_breakdown_on;
void xalloc_retag__(void *p, enum xalloc_category c);
static inline void
xalloc_retag(void *p, enum xalloc_category c)
{
    if (OVS_UNLIKELY(xalloc_breakdown_on) && p) {
        xalloc_retag__(p, c);
    }
}

/* Allocation in category 'c' without touching the current category: free
 * of cost when the breakdown is off, for hot paths (every JSON node).
 * xrealloc_as() gives 'c' to a fresh block (p NULL); an existing block
 * keeps its category, as with xrealloc().  'c' may be XALLOC_CURRENT: the
 * current category, as x*alloc() (for code that takes a category). */
#define XALLOC_CURRENT N_XALLOC_CATEGORIES
void *xmalloc_as(enum xalloc_category c, size_t);
void *xcalloc_as(enum xalloc_category c, size_t count, size_t size);
void *xrealloc_as(enum xalloc_category c, void *, size_t);
char *xmemdup0_as(enum xalloc_category c, const char *, size_t);

void *xmalloc(size_t);
void *xcalloc(size_t count, size_t size);
void *xzalloc(size_t);
void *xrealloc(void *, size_t);
void *xmemdup(const void *, size_t);
char *xmemdup0(const char *, size_t);
char *xstrdup(const char *);
char *xasprintf(const char *format, ...) OVS_PRINTF_FORMAT(1, 2);
char *xvasprintf(const char *format, va_list) OVS_PRINTF_FORMAT(1, 0);
void xfree(void *);

/* Anonymous memory mapped outside malloc ('size' a multiple of the page
 * size, aligned to 'align', a power of 2 no smaller than a page), for an
 * impl that wants whole chunks back to the OS when it frees them (arenas).
 * Counted like an allocation (one call, 'size' bytes; xmunmap() one free)
 * and, with the breakdown on, as a block of 'size' bytes in 'c'. */
void *xmmap_as(enum xalloc_category c, size_t size, size_t align);
void xmunmap(enum xalloc_category c, void *, size_t size);

/* The value of hex digit 'c' (either case), or -1 if it is not one.  Inline:
 * the parser calls it per digit of every \u escape. */
static inline int
hexit_value(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    } else if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/* Prints "<program>: message" to stderr and exits with status 1. */
void ovs_fatal(int err_no, const char *format, ...)
    OVS_PRINTF_FORMAT(2, 3) OVS_NO_RETURN;

#endif /* JSONBENCH_UTIL_H */
