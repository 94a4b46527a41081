/* The intern table: one set of string nodes, so that equal strings share one
 * node.  Open addressing with linear probing over a power-of-two array of
 * node pointers; the table holds no reference (a node leaves it when its
 * last reference is dropped), and deletion shifts the following entries
 * back, so no tombstones accumulate.
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
    struct json **slots;        /* NULL while empty. */
    size_t mask;                /* Number of slots minus 1 (if slots). */
    size_t n;                   /* Nodes in the table. */
};

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
    for (size_t i = hash & t->mask; t->slots[i]; i = (i + 1) & t->mask) {
        struct json *node = t->slots[i];
        if (intern_node_hash(node) == hash && intern_node_is(node, s, len)) {
            return node;
        }
    }
    return NULL;
}

static inline void
intern_place(struct json **slots, size_t mask, struct json *node)
{
    size_t i = intern_node_hash(node) & mask;
    while (slots[i]) {
        i = (i + 1) & mask;
    }
    slots[i] = node;
}

/* Adds 'node', which must not be in the table yet.  The table grows at 3/4
 * full (8 bytes a slot: 11 to 21 bytes a distinct string). */
static inline void
intern_insert(struct intern_table *t, struct json *node)
{
    if (!t->slots || (t->n + 1) * 4 > (t->mask + 1) * 3) {
        size_t old_size = t->slots ? t->mask + 1 : 0;
        size_t new_size = old_size ? 2 * old_size : 64;
        enum xalloc_category old_cat = xalloc_category_set(XALLOC_INTERN);
        struct json **slots = xcalloc(new_size, sizeof *slots);
        xalloc_category_set(old_cat);
        for (size_t i = 0; i < old_size; i++) {
            if (t->slots[i]) {
                intern_place(slots, new_size - 1, t->slots[i]);
            }
        }
        xfree(t->slots);
        t->slots = slots;
        t->mask = new_size - 1;
    }
    intern_place(t->slots, t->mask, node);
    t->n++;
}

/* Removes 'node', which must be in the table.  An empty table frees its
 * slots, so a process that destroyed every string holds nothing. */
static inline void
intern_remove(struct intern_table *t, const struct json *node)
{
    size_t i = intern_node_hash(node) & t->mask;
    while (t->slots[i] != node) {
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
        size_t home = intern_node_hash(t->slots[j]) & t->mask;
        bool stays = hole <= j ? hole < home && home <= j
                               : hole < home || home <= j;
        if (!stays) {
            t->slots[hole] = t->slots[j];
            hole = j;
        }
    }
    t->slots[hole] = NULL;
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
