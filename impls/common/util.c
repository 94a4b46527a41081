/* Counting allocation wrappers.  Every count is deterministic for the same
 * program input, which is what makes them usable as CI gates. */
#include "util.h"

#include "xalloc-breakdown.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void *
xmalloc(size_t n)
{
    count(n);
    void *p = check(malloc(n ? n : 1));
    if (OVS_UNLIKELY(xalloc_breakdown_on)) {
        xalloc_breakdown_put(p, -1);
    }
    return p;
}

void *
xcalloc(size_t count_, size_t size)
{
    count(count_ * size);
    void *p = check(calloc(count_ ? count_ : 1, size ? size : 1));
    if (OVS_UNLIKELY(xalloc_breakdown_on)) {
        xalloc_breakdown_put(p, -1);
    }
    return p;
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
    if (OVS_UNLIKELY(xalloc_breakdown_on)) {
        /* The block keeps its category wherever realloc() puts it. */
        int c = p ? xalloc_breakdown_take(p) : -1;
        void *q = check(realloc(p, n ? n : 1));
        xalloc_breakdown_put(q, c);
        return q;
    }
    return check(realloc(p, n ? n : 1));
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
        if (OVS_UNLIKELY(xalloc_breakdown_on)) {
            xalloc_breakdown_take(p);
        }
        free(p);
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
