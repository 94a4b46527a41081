/* impls/arena: the arenas that hold parsed trees (see arena.h).
 *
 * Chunks grow from 4 KiB (a small document costs one malloc) by doubling;
 * from 256 KiB on they are mapped with xmmap_as(), so that freeing a large
 * tree gives its pages straight back to the OS instead of leaving holes in
 * malloc's heap.  Every chunk counts as XALLOC_JSON_NODE in the memory
 * breakdown: it holds nodes, object maps and array vectors alike. */
#include "arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define FIRST_CHUNK ((size_t) 4096)
#define MAP_MIN ((size_t) 256 * 1024)  /* Smaller chunks are malloc's. */
#define CHUNK_MAX ((size_t) 16 << 20)
#define PAGE ((size_t) 4096)

struct chunk {
    struct chunk *prev;         /* Older chunk of the same arena. */
    size_t size;                /* Bytes, this header included. */
    bool mapped;
};

struct arena {
    struct chunk *chunk;        /* Newest. */
    char *next, *end;           /* Free space in it. */
    size_t n_allocs;
};

#define ROUND8(N) (((N) + 7) & ~(size_t) 7)
#define CHUNK_HDR ROUND8(sizeof(struct chunk))
#define ARENA_HDR ROUND8(sizeof(struct arena))

struct parse_store *arena_current;
size_t arena_n_chunks;
struct arena_stats arena_stats;

/* Address ranges of all live chunks, sorted, for arena_owns(). */
static struct range {
    uintptr_t start, end;
} *ranges;
static size_t n_ranges_allocated;

/* Index of the first range that ends after 'addr'. */
static size_t
range_search(uintptr_t addr)
{
    size_t lo = 0, hi = arena_n_chunks;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (ranges[mid].end <= addr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static void
range_add(const struct chunk *c)
{
    if (arena_n_chunks == n_ranges_allocated) {
        n_ranges_allocated = n_ranges_allocated ? 2 * n_ranges_allocated : 64;
        ranges = xrealloc_as(XALLOC_JSON_NODE, ranges,
                             n_ranges_allocated * sizeof *ranges);
    }
    uintptr_t start = (uintptr_t) c;
    size_t i = range_search(start);
    memmove(&ranges[i + 1], &ranges[i],
            (arena_n_chunks - i) * sizeof *ranges);
    ranges[i] = (struct range) { start, start + c->size };
    arena_n_chunks++;
}

static void
range_remove(const struct chunk *c)
{
    size_t i = range_search((uintptr_t) c);
    memmove(&ranges[i], &ranges[i + 1],
            (arena_n_chunks - i - 1) * sizeof *ranges);
    if (!--arena_n_chunks) {
        xfree(ranges);
        ranges = NULL;
        n_ranges_allocated = 0;
    }
}

bool
arena_owns(const void *p)
{
    uintptr_t addr = (uintptr_t) p;
    size_t i = range_search(addr);
    return i < arena_n_chunks && ranges[i].start <= addr;
}

static void
print_stats(void)
{
    const struct arena_stats *s = &arena_stats;
    fprintf(stderr, "arena: %llu arenas, %llu chunks (%llu mapped), "
            "%llu bytes; json_clone() of arena nodes: %llu scalars, "
            "%llu containers (deep copies); %llu detached\n",
            (unsigned long long) s->arenas, (unsigned long long) s->chunks,
            (unsigned long long) s->mapped_chunks,
            (unsigned long long) s->bytes,
            (unsigned long long) s->clones_scalar,
            (unsigned long long) s->clones_container,
            (unsigned long long) s->detaches);
}

/* A chunk of 'want' bytes, or more if 'need' bytes do not fit after its
 * header. */
static struct chunk *
chunk_create(size_t want, size_t need)
{
    size_t size = want;
    if (size < CHUNK_HDR + need) {
        size = (CHUNK_HDR + need + PAGE - 1) & ~(PAGE - 1);
    }
    bool mapped = size >= MAP_MIN;
    struct chunk *c;
    if (mapped) {
        size = (size + PAGE - 1) & ~(PAGE - 1);
        c = xmmap_as(XALLOC_JSON_NODE, size, PAGE);
    } else {
        c = xmalloc_as(XALLOC_JSON_NODE, size);
    }
    c->size = size;
    c->mapped = mapped;
    range_add(c);
    arena_stats.chunks++;
    arena_stats.mapped_chunks += mapped;
    arena_stats.bytes += size;
    return c;
}

static struct arena *
arena_create(void)
{
    static bool stats_checked;
    if (!stats_checked) {
        stats_checked = true;
        const char *env = getenv("JSONBENCH_ARENA_STATS");
        if (env && *env && strcmp(env, "0")) {
            atexit(print_stats);
        }
    }
    struct chunk *c = chunk_create(FIRST_CHUNK, ARENA_HDR);
    struct arena *a = (struct arena *) ((char *) c + CHUNK_HDR);
    c->prev = NULL;
    a->chunk = c;
    a->next = (char *) a + ARENA_HDR;
    a->end = (char *) c + c->size;
    a->n_allocs = 0;
    arena_stats.arenas++;
    return a;
}

static void *
arena_alloc__(struct arena *a, size_t size)
{
    if (OVS_UNLIKELY((size_t) (a->end - a->next) < size)) {
        size_t want = a->chunk->size * 2;
        struct chunk *c = chunk_create(want < CHUNK_MAX ? want : CHUNK_MAX,
                                       size);
        c->prev = a->chunk;
        a->chunk = c;
        a->next = (char *) c + CHUNK_HDR;
        a->end = (char *) c + c->size;
    }
    void *p = a->next;
    a->next += size;
    a->n_allocs++;
    return p;
}

void *
arena_alloc(size_t size, bool *root)
{
    struct parse_store *ps = arena_current;
    if (!ps->arena) {
        ps->arena = arena_create();
    }
    *root = !ps->arena->n_allocs;
    return arena_alloc__(ps->arena, ROUND8(size));
}

void *
arena_realloc(void *p, size_t old, size_t new)
{
    struct arena *a = arena_current->arena;
    old = ROUND8(old);
    new = ROUND8(new);
    if (!p) {
        bool root;
        return arena_alloc(new, &root);
    }
    if ((char *) p + old == a->next && (size_t) (a->end - (char *) p) >= new) {
        a->next = (char *) p + new;         /* The last block: in place. */
        return p;
    }
    if (new <= old) {
        return p;               /* The slack stays till the arena goes. */
    }
    void *q = arena_alloc__(a, new);
    memcpy(q, p, old);
    return q;
}

void
arena_release_root(void *root)
{
    struct arena *a = (struct arena *) ((char *) root - ARENA_HDR);
    if (arena_current && arena_current->arena == a) {
        arena_current->arena = NULL;
    }
    for (struct chunk *c = a->chunk, *prev; c; c = prev) {
        prev = c->prev;
        range_remove(c);
        if (c->mapped) {
            xmunmap(XALLOC_JSON_NODE, c, c->size);
        } else {
            xfree(c);
        }
    }
}
