/* The intern table: one set of string nodes, so that equal strings share one
 * node.  Open addressing with linear probing over a power-of-two array of
 * slots; the table holds no reference (a node leaves it when its last
 * reference is dropped), and deletion shifts the following entries back, so
 * no tombstones accumulate.
 *
 * A slot is the node's address with the top 16 bits of its hash in the
 * pointer's unused top bits (user-space addresses on x86-64 and arm64 fit
 * in 48 bits), so probing compares hash tags in the slot array and touches
 * a node only when its tag matches: 8 bytes a slot, no extra cache miss per
 * probe.
 *
 * Header-only, included by the tree source of the interned impls (interned,
 * compact).  The includer defines, before including it:
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
    uint64_t *slots;            /* NULL while empty; 0 is a free slot. */
    size_t mask;                /* Number of slots minus 1 (if slots). */
    size_t n;                   /* Nodes in the table. */
};

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
intern_slot(struct json *node)
{
    uintptr_t p = (uintptr_t) node;
    if (p & ~INTERN_PTR_MASK) {
        ovs_fatal(0, "intern table: address %p does not fit in 48 bits",
                  (void *) node);
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
    for (size_t i = hash & t->mask; t->slots[i]; i = (i + 1) & t->mask) {
        uint64_t slot = t->slots[i];
        if ((slot & ~INTERN_PTR_MASK) == tag) {
            struct json *node = intern_slot_node(slot);
            if (intern_node_hash(node) == hash
                && intern_node_is(node, s, len)) {
                return node;
            }
        }
    }
    return NULL;
}

static inline void
intern_place(uint64_t *slots, size_t mask, uint32_t hash, uint64_t slot)
{
    size_t i = hash & mask;
    while (slots[i]) {
        i = (i + 1) & mask;
    }
    slots[i] = slot;
}

/* Adds 'node', which must not be in the table yet.  The table grows at 2/3
 * full, so it holds 12 to 24 bytes per distinct string. */
static inline void
intern_insert(struct intern_table *t, struct json *node)
{
    if (!t->slots || (t->n + 1) * 3 > (t->mask + 1) * 2) {
        size_t old_size = t->slots ? t->mask + 1 : 0;
        size_t new_size = old_size ? 2 * old_size : 64;
        enum xalloc_category old_cat = xalloc_category_set(XALLOC_INTERN);
        uint64_t *slots = xcalloc(new_size, sizeof *slots);
        xalloc_category_set(old_cat);
        for (size_t i = 0; i < old_size; i++) {
            if (t->slots[i]) {
                struct json *n = intern_slot_node(t->slots[i]);
                intern_place(slots, new_size - 1, intern_node_hash(n),
                             t->slots[i]);
            }
        }
        xfree(t->slots);
        t->slots = slots;
        t->mask = new_size - 1;
    }
    intern_place(t->slots, t->mask, intern_node_hash(node),
                 intern_slot(node));
    t->n++;
}

/* Removes 'node', which must be in the table.  An empty table frees its
 * slots, so a process that destroyed every string holds nothing. */
static inline void
intern_remove(struct intern_table *t, const struct json *node)
{
    size_t i = intern_node_hash(node) & t->mask;
    uint64_t slot = intern_slot(CONST_CAST(struct json *, node));
    while (t->slots[i] != slot) {
        if (!t->slots[i]) {
            ovs_fatal(0, "intern table: string node %p is not interned",
                      (const void *) node);
        }
        i = (i + 1) & t->mask;
    }
    /* Backward-shift deletion: move up every later entry of the cluster
     * whose home slot does not lie in (hole, its position]. */
    size_t hole = i;
    for (size_t j = (i + 1) & t->mask; t->slots[j]; j = (j + 1) & t->mask) {
        size_t home = intern_node_hash(intern_slot_node(t->slots[j]))
                      & t->mask;
        bool stays = hole <= j ? hole < home && home <= j
                               : hole < home || home <= j;
        if (!stays) {
            t->slots[hole] = t->slots[j];
            hole = j;
        }
    }
    t->slots[hole] = 0;
    if (!--t->n) {
        xfree(t->slots);
        t->slots = NULL;
        t->mask = 0;
    }
}

/* Bytes the table itself holds (its slot array). */
static inline size_t
intern_table_bytes(const struct intern_table *t)
{
    return t->slots ? (t->mask + 1) * sizeof *t->slots : 0;
}

#endif /* JSONBENCH_INTERN_TABLE_H */
