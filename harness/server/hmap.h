/* Intrusive hash maps and doubly linked lists for the full model (rows'
 * weak references, table indexes, transaction lists), shaped like OVS's
 * hmap and ovs_list so they cost what those cost: a node of two words in
 * each element, a bucket array of one pointer per element (rounded up to a
 * power of two), and an inline 'one' bucket for maps of one element. */
#ifndef HARNESS_HMAP_H
#define HARNESS_HMAP_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hmap_node {
    struct hmap_node *next;
    uint32_t hash;
};

struct hmap {
    struct hmap_node **buckets; /* &one while mask == 0. */
    struct hmap_node *one;
    size_t mask;
    size_t n;
};

void hmap_init(struct hmap *);
void hmap_destroy(struct hmap *);   /* Frees the buckets, not the nodes. */
/* Inserts 'node' with 'hash'; doubles the buckets when n > 2 * (mask+1), as
 * OVS does.  The bucket array is allocated with the caller's category. */
void hmap_insert(struct hmap *, struct hmap_node *, uint32_t hash);
void hmap_remove(struct hmap *, struct hmap_node *);
struct hmap_node *hmap_first_with_hash(const struct hmap *, uint32_t hash);
struct hmap_node *hmap_next_with_hash(const struct hmap_node *);
/* Visits every node; 'node' may be removed by the callback's caller only
 * through the returned next position (see hmap_next). */
struct hmap_node *hmap_first(const struct hmap *);
struct hmap_node *hmap_next(const struct hmap *, const struct hmap_node *);

static inline bool hmap_is_empty(const struct hmap *h) { return !h->n; }

struct list {
    struct list *prev, *next;
};

static inline void list_init(struct list *l) { l->prev = l->next = l; }
static inline bool list_is_empty(const struct list *l) { return l->next == l; }
static inline void
list_push_back(struct list *l, struct list *e)
{
    e->prev = l->prev;
    e->next = l;
    l->prev->next = e;
    l->prev = e;
}
static inline void
list_remove(struct list *e)
{
    e->prev->next = e->next;
    e->next->prev = e->prev;
    list_init(e);
}

#define CONTAINER_OF(PTR, TYPE, MEMBER) \
    ((TYPE *) (void *) ((char *) (PTR) - offsetof(TYPE, MEMBER)))

#endif
