/* The memory breakdown: live bytes and blocks per allocation category.
 *
 * The category of each live block sits in a side table, an open-addressing
 * hash set of block addresses with linear probing, one 8-byte word per
 * slot: the address with the category in its 3 low bits (malloc's blocks
 * are at least 8-byte aligned).  The table lives in its own mmap()ed
 * memory, so the heap (every allocation, its address, mallinfo) stays what
 * it is with the breakdown off; its size is reported so that RSS can be
 * read without it.  Sizes are not stored: malloc_usable_size() gives the
 * same answer at free time as at allocation time.
 *
 * Why not a header before each block: it would add 16 bytes to every
 * allocation and move most of them to the next malloc size class, which
 * changes exactly the RSS and heap figures the breakdown explains. */
#include "xalloc-breakdown.h"

#include <malloc.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "util.h"

_Static_assert(N_XALLOC_CATEGORIES <= 8,
               "the side table keeps a category in 3 address bits");

#define CATEGORY_MASK ((uintptr_t) 7)
#define MIN_SLOTS ((size_t) 1 << 16)   /* 512 KiB. */

bool xalloc_breakdown_on;

static struct {
    uintptr_t *slots;           /* 0: empty; else address | category. */
    size_t mask;                /* Slots - 1 (a power of 2 minus 1). */
    size_t n;                   /* Used slots. */
    int shift;                  /* 64 - log2(slots). */
    struct xalloc_breakdown live, peak;
    struct xalloc_breakdown_health health;
} bd;

static uintptr_t *
map_slots(size_t n_slots)
{
    void *p = mmap(NULL, n_slots * sizeof(uintptr_t), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        ovs_fatal(0, "memory breakdown: cannot map its table of %zu slots",
                  n_slots);
    }
    return p;
}

/* Fibonacci hashing of the address without its always-zero low bits:
 * neighbouring blocks land far apart. */
static size_t
slot_of(uintptr_t addr)
{
    return (uint64_t) (addr >> 3) * UINT64_C(0x9E3779B97F4A7C15) >> bd.shift;
}

static void
insert_slot(uintptr_t key)
{
    size_t i = slot_of(key & ~CATEGORY_MASK);
    while (bd.slots[i]) {
        i = (i + 1) & bd.mask;
    }
    bd.slots[i] = key;
}

/* Doubles the table at 70% load: linear probing stays short below that. */
static void
maybe_grow(void)
{
    if ((bd.n + 1) * 10 <= (bd.mask + 1) * 7) {
        return;
    }
    uintptr_t *old = bd.slots;
    size_t old_slots = bd.mask + 1;

    bd.slots = map_slots(old_slots * 2);
    bd.mask = old_slots * 2 - 1;
    bd.shift--;
    for (size_t i = 0; i < old_slots; i++) {
        if (old[i]) {
            insert_slot(old[i]);
        }
    }
    munmap(old, old_slots * sizeof *old);
    bd.health.table_bytes = (bd.mask + 1) * sizeof *bd.slots;
}

/* The slot holding 'addr', or SIZE_MAX. */
static size_t
find_slot(uintptr_t addr)
{
    for (size_t i = slot_of(addr); bd.slots[i]; i = (i + 1) & bd.mask) {
        if ((bd.slots[i] & ~CATEGORY_MASK) == addr) {
            return i;
        }
    }
    return SIZE_MAX;
}

/* Empties slot 'i' and moves later entries of its probe run back, so that
 * lookups never need tombstones. */
static void
delete_slot(size_t i)
{
    size_t j = i;
    for (;;) {
        j = (j + 1) & bd.mask;
        if (!bd.slots[j]) {
            break;
        }
        size_t home = slot_of(bd.slots[j] & ~CATEGORY_MASK);
        /* The entry at 'j' may move to 'i' unless its home lies cyclically
         * in (i, j]. */
        bool stays = i <= j ? (home > i && home <= j)
                            : (home > i || home <= j);
        if (!stays) {
            bd.slots[i] = bd.slots[j];
            i = j;
        }
    }
    bd.slots[i] = 0;
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
xalloc_breakdown_put(void *p, int c)
{
    uintptr_t addr = (uintptr_t) p;

    if (c < 0) {
        c = xalloc_category;
    }
    if (addr & CATEGORY_MASK) {
        return;                 /* Never from malloc; not countable. */
    }
    size_t i = find_slot(addr);
    if (i != SIZE_MAX) {
        /* Freed behind our back (plain free()), its bytes unknown now:
         * counted as the new block's, and reported. */
        bd.health.stale++;
        delete_slot(i);
        bd.n--;
    } else {
        account(c, malloc_usable_size(p), 1);
    }
    maybe_grow();
    insert_slot(addr | (uintptr_t) c);
    bd.n++;
}

int
xalloc_breakdown_take(void *p)
{
    size_t i = find_slot((uintptr_t) p);
    if (i == SIZE_MAX) {
        bd.health.untracked_frees++;
        return -1;
    }
    int c = bd.slots[i] & CATEGORY_MASK;
    delete_slot(i);
    bd.n--;
    account(c, malloc_usable_size(p), -1);
    return c;
}

void
xalloc_retag__(void *p, enum xalloc_category c)
{
    size_t i = find_slot((uintptr_t) p);
    if (i == SIZE_MAX) {
        return;
    }
    int old = bd.slots[i] & CATEGORY_MASK;
    if (old != (int) c) {
        size_t size = malloc_usable_size(p);
        bd.live.bytes[old] -= size;
        bd.live.blocks[old]--;
        bd.live.bytes[c] += size;
        bd.live.blocks[c]++;
        bd.slots[i] = (uintptr_t) p | (uintptr_t) c;
    }
}

void
xalloc_breakdown_enable(void)
{
    if (!xalloc_breakdown_on) {
        bd.slots = map_slots(MIN_SLOTS);
        bd.mask = MIN_SLOTS - 1;
        bd.shift = 64 - 16;
        bd.health.table_bytes = MIN_SLOTS * sizeof *bd.slots;
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

void
xalloc_breakdown_health(struct xalloc_breakdown_health *h)
{
    *h = bd.health;
}
