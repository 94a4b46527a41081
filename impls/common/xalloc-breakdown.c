/* The memory breakdown: live bytes and blocks per allocation category.
 *
 * The category of each live block sits in a side map indexed by address: a
 * nibble per 8-byte granule of address space (malloc's blocks are at least
 * 8-byte aligned, so no two live blocks start in the same granule), holding
 * category + 1, 0 meaning "no tracked block starts here".  The map is a
 * two-level radix tree: a top array indexed by the address's 16 MiB region,
 * pointing to 1 MiB leaves.  Everything is mmap()ed with MAP_NORESERVE, so
 * only the pages that hold blocks' nibbles become resident, about 1/16 of
 * the heap's span, and the heap itself (every allocation, its address,
 * mallinfo) stays what it is with the breakdown off.  Neighbouring blocks
 * have neighbouring nibbles, so the map is mostly in cache.  Its resident
 * size is reported (mincore) so that RSS can be read without it.
 *
 * Sizes are not stored: malloc_usable_size() gives the same answer at free
 * time as at allocation time.
 *
 * Why not a header before each block: it would add 16 bytes to every
 * allocation and move most of them to the next malloc size class, which
 * changes exactly the RSS and heap figures the breakdown explains.  Why not
 * a hash table of addresses: one cache miss per allocation and free, and
 * 8 to 16 bytes per live block (measured: 3x load CPU, +32% RSS). */
#include "xalloc-breakdown.h"

#include <malloc.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"

_Static_assert(N_XALLOC_CATEGORIES <= 15,
               "the side map keeps category + 1 in a nibble");

#define GRANULE_SHIFT 3                 /* 8-byte granules. */
#define LEAF_SHIFT 24                   /* A leaf covers 16 MiB. */
#define ADDRESS_BITS 47                 /* x86-64 and arm64 user space. */
#define N_LEAVES ((size_t) 1 << (ADDRESS_BITS - LEAF_SHIFT))
#define LEAF_GRANULES ((size_t) 1 << (LEAF_SHIFT - GRANULE_SHIFT))
#define LEAF_BYTES (LEAF_GRANULES / 2)  /* Two nibbles a byte: 1 MiB. */

bool xalloc_breakdown_on;

#define MAX_LISTED_LEAVES 65536        /* 1 TiB of address space. */

static struct {
    uint8_t **leaves;           /* N_LEAVES pointers, NULL until used. */
    size_t n_leaves;            /* Leaves mapped. */
    uint32_t *listed;           /* Indexes of the first mapped leaves, for
                                 * measuring the map without a scan. */
    struct xalloc_breakdown live, peak;
    struct xalloc_breakdown_health health;
} bd;

static void *
map_zeroed(size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        ovs_fatal(0, "memory breakdown: cannot map %zu bytes for its map",
                  size);
    }
    return p;
}

/* The byte holding the nibble of 'addr' (its low or high half by
 * '*shift'), or NULL if 'addr' cannot be tracked or, unless 'create', has
 * no leaf yet. */
static uint8_t *
nibble_of(uintptr_t addr, int *shift, bool create)
{
    if (addr >> ADDRESS_BITS || addr & ((1u << GRANULE_SHIFT) - 1)) {
        return NULL;
    }
    size_t leaf = addr >> LEAF_SHIFT;
    uint8_t *l = bd.leaves[leaf];
    if (!l) {
        if (!create) {
            return NULL;
        }
        l = bd.leaves[leaf] = map_zeroed(LEAF_BYTES);
        if (bd.n_leaves < MAX_LISTED_LEAVES) {
            bd.listed[bd.n_leaves] = leaf;
        }
        bd.n_leaves++;
    }
    size_t g = (addr >> GRANULE_SHIFT) & (LEAF_GRANULES - 1);
    *shift = (g & 1) * 4;
    return &l[g >> 1];
}

static void
account(int c, size_t size, int sign)
{
    if (sign > 0) {
        bd.live.bytes[c] += size;
        bd.live.blocks[c]++;
        bd.live.total_bytes += size;
        bd.live.total_blocks++;
        if (bd.live.total_bytes > bd.peak.total_bytes) {
            bd.peak = bd.live;
        }
    } else {
        bd.live.bytes[c] -= size;
        bd.live.blocks[c]--;
        bd.live.total_bytes -= size;
        bd.live.total_blocks--;
    }
}

void
xalloc_breakdown_external(int c, size_t size, int sign)
{
    if (xalloc_breakdown_on) {
        account(c, size, sign);
    }
}

static void
breakdown_put(void *p, int c)
{
    int shift;
    uint8_t *n = nibble_of((uintptr_t) p, &shift, true);

    if (c < 0) {
        c = xalloc_category;
    }
    if (!n) {
        return;                 /* Never from malloc; not countable. */
    }
    if ((*n >> shift) & 0xf) {
        /* A block freed behind our back (plain free()): its bytes, unknown
         * now, stay counted, and it is reported. */
        bd.health.stale++;
    }
    account(c, malloc_usable_size(p), 1);
    *n = (*n & ~(0xf << shift)) | (c + 1) << shift;
}

static int
breakdown_take(void *p)
{
    int shift;
    uint8_t *n = nibble_of((uintptr_t) p, &shift, false);
    int c = n ? ((*n >> shift) & 0xf) - 1 : -1;

    if (c < 0) {
        bd.health.untracked_frees++;
        return -1;
    }
    *n &= ~(0xf << shift);
    account(c, malloc_usable_size(p), -1);
    return c;
}

/* The allocator with the breakdown on.  A block keeps its category
 * wherever realloc() moves it. */
static void *
breakdown_malloc(size_t n)
{
    void *p = malloc(n);
    if (p) {
        breakdown_put(p, -1);
    }
    return p;
}

static void *
breakdown_calloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (p) {
        breakdown_put(p, -1);
    }
    return p;
}

static void *
breakdown_realloc(void *p, size_t n)
{
    int c = p ? breakdown_take(p) : -1;
    void *q = realloc(p, n);
    if (q) {
        breakdown_put(q, c);
    } else if (p && c >= 0) {
        breakdown_put(p, c);    /* Still there, unchanged. */
    }
    return q;
}

static void
breakdown_free(void *p)
{
    breakdown_take(p);
    free(p);
}

/* The wrappers of x*alloc_as(), one set per category. */
static void *
malloc_as(int c, size_t n)
{
    void *p = malloc(n);
    if (p) {
        breakdown_put(p, c);
    }
    return p;
}

static void *
calloc_as(int c, size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (p) {
        breakdown_put(p, c);
    }
    return p;
}

static void *
realloc_as(int c, void *p, size_t n)
{
    if (p) {
        return breakdown_realloc(p, n);
    }
    return malloc_as(c, n);
}

#define CATEGORY_WRAPPERS(C)                                              \
    static void *malloc_##C(size_t n) { return malloc_as(C, n); }         \
    static void *calloc_##C(size_t n, size_t s) { return calloc_as(C, n, s); } \
    static void *realloc_##C(void *p, size_t n) { return realloc_as(C, p, n); }
CATEGORY_WRAPPERS(0)
CATEGORY_WRAPPERS(1)
CATEGORY_WRAPPERS(2)
CATEGORY_WRAPPERS(3)
CATEGORY_WRAPPERS(4)
CATEGORY_WRAPPERS(5)
CATEGORY_WRAPPERS(6)
CATEGORY_WRAPPERS(7)
_Static_assert(N_XALLOC_CATEGORIES == 8,
               "one CATEGORY_WRAPPERS line and table entry per category");
static void *(*const mallocs[])(size_t) = {
    malloc_0, malloc_1, malloc_2, malloc_3,
    malloc_4, malloc_5, malloc_6, malloc_7,
};
static void *(*const callocs[])(size_t, size_t) = {
    calloc_0, calloc_1, calloc_2, calloc_3,
    calloc_4, calloc_5, calloc_6, calloc_7,
};
static void *(*const reallocs[])(void *, size_t) = {
    realloc_0, realloc_1, realloc_2, realloc_3,
    realloc_4, realloc_5, realloc_6, realloc_7,
};

void
xalloc_retag__(void *p, enum xalloc_category c)
{
    int shift;
    uint8_t *n = nibble_of((uintptr_t) p, &shift, false);
    int old = n ? ((*n >> shift) & 0xf) - 1 : -1;

    if (old >= 0 && old != (int) c) {
        size_t size = malloc_usable_size(p);
        bd.live.bytes[old] -= size;
        bd.live.blocks[old]--;
        bd.live.bytes[c] += size;
        bd.live.blocks[c]++;
        *n = (*n & ~(0xf << shift)) | (c + 1) << shift;
    }
}

void
xalloc_breakdown_enable(void)
{
    if (!xalloc_breakdown_on) {
        bd.leaves = map_zeroed(N_LEAVES * sizeof *bd.leaves);
        bd.listed = map_zeroed(MAX_LISTED_LEAVES * sizeof *bd.listed);
        xalloc_malloc = breakdown_malloc;
        xalloc_calloc = breakdown_calloc;
        xalloc_realloc = breakdown_realloc;
        xalloc_free = breakdown_free;
        for (int c = 0; c < N_XALLOC_CATEGORIES; c++) {
            xalloc_malloc_as[c] = mallocs[c];
            xalloc_calloc_as[c] = callocs[c];
            xalloc_realloc_as[c] = reallocs[c];
        }
        xalloc_malloc_as[XALLOC_CURRENT] = breakdown_malloc;
        xalloc_calloc_as[XALLOC_CURRENT] = breakdown_calloc;
        xalloc_realloc_as[XALLOC_CURRENT] = breakdown_realloc;
        xalloc_breakdown_on = true;
    }
}

bool
xalloc_breakdown_enabled(void)
{
    return xalloc_breakdown_on;
}

void
xalloc_breakdown_get(struct xalloc_breakdown *live,
                     struct xalloc_breakdown *peak)
{
    if (live) {
        *live = bd.live;
    }
    if (peak) {
        *peak = bd.peak;
    }
}

void
xalloc_breakdown_reset_peak(void)
{
    bd.peak = bd.live;
}

/* Resident bytes of the mapping [p, p + size), by mincore(). */
static uint64_t
resident_bytes(void *p, size_t size)
{
    static unsigned char vec[LEAF_BYTES / 4096 + 1];
    size_t page = sysconf(_SC_PAGESIZE);
    uint64_t n = 0;

    for (size_t off = 0; off < size; off += sizeof vec * page) {
        size_t len = size - off < sizeof vec * page ? size - off
                                                      : sizeof vec * page;
        if (mincore((char *) p + off, len, vec)) {
            return size;        /* Unknown: assume all of it. */
        }
        for (size_t i = 0; i < (len + page - 1) / page; i++) {
            n += (vec[i] & 1) * page;
        }
    }
    return n;
}

void
xalloc_breakdown_health(struct xalloc_breakdown_health *h)
{
    *h = bd.health;
    h->table_bytes = 0;
    if (bd.leaves) {
        h->table_bytes = resident_bytes(bd.leaves,
                                        N_LEAVES * sizeof *bd.leaves)
                         + resident_bytes(bd.listed, MAX_LISTED_LEAVES
                                                     * sizeof *bd.listed);
        for (size_t i = 0; i < bd.n_leaves; i++) {
            h->table_bytes += (i < MAX_LISTED_LEAVES
                               ? resident_bytes(bd.leaves[bd.listed[i]],
                                                LEAF_BYTES)
                               : LEAF_BYTES);
        }
    }
}
