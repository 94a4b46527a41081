/* Intrusive hash map (see hmap.h): chained buckets, power-of-two sizes. */
#include "server/hmap.h"

#include <stdlib.h>

#include "util.h"

void
hmap_init(struct hmap *h)
{
    h->buckets = &h->one;
    h->one = NULL;
    h->mask = 0;
    h->n = 0;
}

void
hmap_destroy(struct hmap *h)
{
    if (h->buckets != &h->one) {
        xfree(h->buckets);
    }
    hmap_init(h);
}

static void
resize(struct hmap *h, size_t new_mask)
{
    struct hmap_node **buckets = (new_mask
                                  ? xcalloc(new_mask + 1, sizeof *buckets)
                                  : NULL);
    struct hmap_node *one = NULL;
    struct hmap_node **dst = buckets ? buckets : &one;

    for (size_t b = 0; b <= h->mask; b++) {
        for (struct hmap_node *n = h->buckets[b], *next; n; n = next) {
            next = n->next;
            struct hmap_node **slot = &dst[n->hash & new_mask];
            n->next = *slot;
            *slot = n;
        }
    }
    if (h->buckets != &h->one) {
        xfree(h->buckets);
    }
    h->mask = new_mask;
    if (buckets) {
        h->buckets = buckets;
    } else {
        h->one = one;
        h->buckets = &h->one;
    }
}

void
hmap_insert(struct hmap *h, struct hmap_node *node, uint32_t hash)
{
    struct hmap_node **slot = &h->buckets[hash & h->mask];

    node->hash = hash;
    node->next = *slot;
    *slot = node;
    h->n++;
    if (h->n / 2 > h->mask) {
        /* Smallest power of two holding n at two per bucket. */
        size_t mask = h->mask;
        while (h->n / 2 > mask) {
            mask = mask * 2 + 1;
        }
        resize(h, mask);
    }
}

void
hmap_remove(struct hmap *h, struct hmap_node *node)
{
    struct hmap_node **p = &h->buckets[node->hash & h->mask];

    while (*p != node) {
        p = &(*p)->next;
    }
    *p = node->next;
    h->n--;
}

struct hmap_node *
hmap_first_with_hash(const struct hmap *h, uint32_t hash)
{
    for (struct hmap_node *n = h->buckets[hash & h->mask]; n; n = n->next) {
        if (n->hash == hash) {
            return n;
        }
    }
    return NULL;
}

struct hmap_node *
hmap_next_with_hash(const struct hmap_node *node)
{
    for (struct hmap_node *n = node->next; n; n = n->next) {
        if (n->hash == node->hash) {
            return n;
        }
    }
    return NULL;
}

static struct hmap_node *
first_from(const struct hmap *h, size_t b)
{
    for (; b <= h->mask; b++) {
        if (h->buckets[b]) {
            return h->buckets[b];
        }
    }
    return NULL;
}

struct hmap_node *
hmap_first(const struct hmap *h)
{
    return first_from(h, 0);
}

struct hmap_node *
hmap_next(const struct hmap *h, const struct hmap_node *node)
{
    return node->next ? node->next : first_from(h, (node->hash & h->mask) + 1);
}
