/* Counting allocation wrappers.  Every count is deterministic for the same
 * program input, which is what makes them usable as CI gates. */
#include "util.h"

#include "xalloc-breakdown.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct xalloc_stats xalloc_stats;
enum xalloc_category xalloc_category = XALLOC_OTHER;

const char *
xalloc_category_name(enum xalloc_category c)
{
    static const char *const names[N_XALLOC_CATEGORIES] = {
        [XALLOC_OTHER] = "other",
        [XALLOC_JSON_NODE] = "json_nodes",
        [XALLOC_STRING] = "strings",
        [XALLOC_ARRAY] = "arrays",
        [XALLOC_OBJECT] = "objects",
        [XALLOC_INTERN] = "intern",
        [XALLOC_MODEL] = "model",
        [XALLOC_INDEX] = "indexes",
    };
    return (unsigned) c < N_XALLOC_CATEGORIES ? names[c] : "unknown";
}

static void *
check(void *p)
{
    if (!p) {
        ovs_fatal(0, "virtual memory exhausted");
    }
    return p;
}

static void
count(size_t n)
{
    xalloc_stats.calls++;
    xalloc_stats.bytes += n;
}

/* The allocator proper: the C library's, or the breakdown's wrappers once
 * it is on.  A call through a pointer costs no more instructions than a
 * call through the PLT, where a test of a flag on every call would show in
 * the gate's instruction counts. */
void *(*xalloc_malloc)(size_t) = malloc;
void *(*xalloc_calloc)(size_t, size_t) = calloc;
void *(*xalloc_realloc)(void *, size_t) = realloc;
void (*xalloc_free)(void *) = free;

/* The same per category, for x*alloc_as(); the last is XALLOC_CURRENT. */
#define PER_CATEGORY(F) [0 ... XALLOC_CURRENT] = F
void *(*xalloc_malloc_as[XALLOC_CURRENT + 1])(size_t) = {
    PER_CATEGORY(malloc)
};
void *(*xalloc_calloc_as[XALLOC_CURRENT + 1])(size_t, size_t) = {
    PER_CATEGORY(calloc)
};
void *(*xalloc_realloc_as[XALLOC_CURRENT + 1])(void *, size_t) = {
    PER_CATEGORY(realloc)
};

void *
xmalloc(size_t n)
{
    count(n);
    return check(xalloc_malloc(n ? n : 1));
}

void *
xcalloc(size_t count_, size_t size)
{
    count(count_ * size);
    return check(xalloc_calloc(count_ ? count_ : 1, size ? size : 1));
}

void *
xmalloc_as(enum xalloc_category c, size_t n)
{
    count(n);
    return check(xalloc_malloc_as[c](n ? n : 1));
}

void *
xcalloc_as(enum xalloc_category c, size_t count_, size_t size)
{
    count(count_ * size);
    return check(xalloc_calloc_as[c](count_ ? count_ : 1, size ? size : 1));
}

void *
xrealloc_as(enum xalloc_category c, void *p, size_t n)
{
    count(n);
    return check(xalloc_realloc_as[c](p, n ? n : 1));
}

char *
xmemdup0_as(enum xalloc_category c, const char *p, size_t n)
{
    char *q = xmalloc_as(c, n + 1);
    memcpy(q, p, n);
    q[n] = '\0';
    return q;
}

void *
xzalloc(size_t n)
{
    return xcalloc(1, n);
}

void *
xrealloc(void *p, size_t n)
{
    count(n);
    return check(xalloc_realloc(p, n ? n : 1));
}

void *
xmemdup(const void *p, size_t n)
{
    void *q = xmalloc(n);
    memcpy(q, p, n);
    return q;
}

char *
xmemdup0(const char *p, size_t n)
{
    char *q = xmalloc(n + 1);
    memcpy(q, p, n);
    q[n] = '\0';
    return q;
}

char *
xstrdup(const char *s)
{
    return xmemdup0(s, strlen(s));
}

/* GCC 12 with -fsanitize=undefined wrongly warns that 'format' may be null
 * here; it cannot be (callers are format-checked). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
char *
xvasprintf(const char *format, va_list args)
{
    va_list args2;
    va_copy(args2, args);
    char probe[1];
    int needed = vsnprintf(probe, sizeof probe, format, args);
    char *s = xmalloc(needed + 1);
    vsnprintf(s, needed + 1, format, args2);
    va_end(args2);
    return s;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

char *
xasprintf(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    char *s = xvasprintf(format, args);
    va_end(args);
    return s;
}

void
xfree(void *p)
{
    if (p) {
        xalloc_stats.frees++;
        xalloc_free(p);
    }
}

void *
xmmap_as(enum xalloc_category c, size_t size, size_t align)
{
    /* Over-map by 'align' and trim both ends to get the alignment. */
    size_t span = size + align;
    char *p = mmap(NULL, span, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        ovs_fatal(errno, "mmap of %zu bytes failed", span);
    }
    char *start = (char *) (((uintptr_t) p + align - 1) & ~(uintptr_t) (align - 1));
    if (start > p) {
        munmap(p, start - p);
    }
    if (start + size < p + span) {
        munmap(start + size, p + span - (start + size));
    }
    count(size);
    xalloc_breakdown_external(c, size, 1);
    return start;
}

void
xmunmap(enum xalloc_category c, void *p, size_t size)
{
    if (p) {
        xalloc_stats.frees++;
        xalloc_breakdown_external(c, size, -1);
        munmap(p, size);
    }
}

void
ovs_fatal(int err_no, const char *format, ...)
{
    extern char *program_invocation_short_name;
    va_list args;

    fflush(stdout);
    fprintf(stderr, "%s: ", program_invocation_short_name);
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    if (err_no) {
        fprintf(stderr, " (%s)", strerror(err_no));
    }
    putc('\n', stderr);
    exit(1);
}
