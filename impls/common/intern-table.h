/* The intern table: one set of string nodes, so that equal strings share one
 * node.  Open addressing with linear probing over a power-of-two array of
 * slots; the table holds no reference (a node leaves it when its last
 * reference is dropped).
 *
 * A slot is the node's address with the top 16 bits of its hash in the
 * pointer's unused top bits (user-space addresses on x86-64 and arm64 fit
 * in 48 bits), so probing compares hash tags in the slot array and touches
 * a node only when its tag matches: 8 bytes a slot, no extra cache miss per
 * probe.  A removed node leaves a tombstone, so removal never touches other
 * nodes either (loading a database interns, then drops, every UUID's text);
 * inserts reuse tombstones and a rebuild clears them.
 *
 * Header-only, included by the shared tree source (json-tree.c) of the
 * impls with JSON_IMPL_INTERNED (interned, compact, arena).  The includer defines, before including it:
 *
 *   static inline uint32_t intern_node_hash(const struct json *);
 *   static inline const char *intern_node_string(const struct json *);
 *
 * Its storage is tagged XALLOC_INTERN for the memory breakdown. */
#ifndef JSONBENCH_INTERN_TABLE_H
#define JSONBENCH_INTERN_TABLE_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util.h"

struct intern_table {
    uint64_t *slots;            /* NULL while empty. */
    size_t mask;                /* Number of slots minus 1 (if slots). */
    size_t n;                   /* Nodes in the table. */
    size_t used;                /* Nodes plus tombstones. */
};

#define INTERN_FREE 0           /* Slot values that are not nodes. */
#define INTERN_TOMB 1
#define INTERN_PTR_BITS 48
#define INTERN_PTR_MASK ((UINT64_C(1) << INTERN_PTR_BITS) - 1)

static inline uint64_t
intern_tag(uint32_t hash)
{
    return (uint64_t) (hash >> 16) << INTERN_PTR_BITS;
}

static inline struct json *
intern_slot_node(uint64_t slot)
{
    return (struct json *) (uintptr_t) (slot & INTERN_PTR_MASK);
}

static inline uint64_t
intern_slot(const struct json *node)
{
    uintptr_t p = (uintptr_t) node;
    if (p & ~INTERN_PTR_MASK) {
        ovs_fatal(0, "intern table: address %p does not fit in 48 bits",
                  (const void *) node);
    }
    return intern_tag(intern_node_hash(node)) | p;
}

/* The string of 'len' bytes (no NUL among them) at 's' is the node's. */
static inline bool
intern_node_is(const struct json *node, const char *s, size_t len)
{
    const char *str = intern_node_string(node);
    /* strncmp stops at the node's NUL, so a shorter node is never read
     * past its end; then the node must end exactly at 'len'. */
    return !strncmp(str, s, len) && str[len] == '\0';
}

/* The node holding 's' ('len' bytes, hash 'hash'), or NULL. */
static inline struct json *
intern_find(const struct intern_table *t, uint32_t hash, const char *s,
            size_t len)
{
    if (!t->slots) {
        return NULL;
    }
    uint64_t tag = intern_tag(hash);
    for (size_t i = hash & t->mask; t->slots[i] != INTERN_FREE;
         i = (i + 1) & t->mask) {
        uint64_t slot = t->slots[i];
        if ((slot & ~INTERN_PTR_MASK) == tag && slot != INTERN_TOMB) {
            struct json *node = intern_slot_node(slot);
            if (intern_node_hash(node) == hash
                && intern_node_is(node, s, len)) {
                return node;
            }
        }
    }
    return NULL;
}

/* Prefetching, for a caller that knows the hashes of its lookups a while
 * ahead (compact's parser): brings the home slot of 'hash' into the cache;
 * later, once that slot has arrived, the node that the first slot with a
 * matching tag names.  Hints only: the table may change in between. */
static inline void
intern_prefetch_slot(const struct intern_table *t, uint32_t hash)
{
    if (t->slots) {
        __builtin_prefetch(&t->slots[hash & t->mask]);
    }
}

static inline void
intern_prefetch_match(const struct intern_table *t, uint32_t hash)
{
    if (!t->slots) {
        return;
    }
    uint64_t tag = intern_tag(hash);
    for (size_t i = hash & t->mask; t->slots[i] != INTERN_FREE;
         i = (i + 1) & t->mask) {
        uint64_t slot = t->slots[i];
        if ((slot & ~INTERN_PTR_MASK) == tag && slot != INTERN_TOMB) {
            __builtin_prefetch(intern_slot_node(slot));
            return;
        }
    }
}

/* Puts 'slot' (home 'hash') in the first free or dead slot; true if that
 * slot was free (one more slot used). */
static inline bool
intern_place(uint64_t *slots, size_t mask, uint32_t hash, uint64_t slot)
{
    size_t i = hash & mask;
    while (slots[i] != INTERN_FREE && slots[i] != INTERN_TOMB) {
        i = (i + 1) & mask;
    }
    bool was_free = slots[i] == INTERN_FREE;
    slots[i] = slot;
    return was_free;
}

/* Rebuilds the table at 'new_size' slots, without tombstones. */
static inline void
intern_rebuild(struct intern_table *t, size_t new_size)
{
    size_t old_size = t->slots ? t->mask + 1 : 0;
    enum xalloc_category old_cat = xalloc_category_set(XALLOC_INTERN);
    uint64_t *slots = xcalloc(new_size, sizeof *slots);
    xalloc_category_set(old_cat);
    for (size_t i = 0; i < old_size; i++) {
        uint64_t slot = t->slots[i];
        if (slot != INTERN_FREE && slot != INTERN_TOMB) {
            intern_place(slots, new_size - 1,
                         intern_node_hash(intern_slot_node(slot)), slot);
        }
    }
    xfree(t->slots);
    t->slots = slots;
    t->mask = new_size - 1;
    t->used = t->n;
}

/* Adds 'node', which must not be in the table yet.  Nodes and tombstones
 * fill at most 2/3 of the slots; a rebuild doubles the table only if nodes
 * fill more than a third, so the table holds 12 to 24 bytes per distinct
 * string once it has grown. */
static inline void
intern_insert(struct intern_table *t, struct json *node)
{
    if (!t->slots) {
        intern_rebuild(t, 64);
    } else if ((t->used + 1) * 3 > (t->mask + 1) * 2) {
        size_t size = t->mask + 1;
        intern_rebuild(t, (t->n + 1) * 3 > size ? 2 * size : size);
    }
    if (intern_place(t->slots, t->mask, intern_node_hash(node),
                     intern_slot(node))) {
        t->used++;
    }
    t->n++;
}

/* Removes 'node', which must be in the table.  An empty table frees its
 * slots, so a process that destroyed every string holds nothing. */
static inline void
intern_remove(struct intern_table *t, const struct json *node)
{
    uint64_t slot = intern_slot(node);
    size_t i = intern_node_hash(node) & t->mask;
    while (t->slots[i] != slot) {
        if (t->slots[i] == INTERN_FREE) {
            ovs_fatal(0, "intern table: string node %p is not interned",
                      (const void *) node);
        }
        i = (i + 1) & t->mask;
    }
    t->slots[i] = INTERN_TOMB;
    if (!--t->n) {
        xfree(t->slots);
        t->slots = NULL;
        t->mask = 0;
        t->used = 0;
    }
}

/* Bytes the table itself holds (its slot array). */
static inline size_t
intern_table_bytes(const struct intern_table *t)
{
    return t->slots ? (t->mask + 1) * sizeof *t->slots : 0;
}

#endif /* JSONBENCH_INTERN_TABLE_H */
