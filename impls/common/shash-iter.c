/* The string map's lookups by name and its walks (first/next, sorted),
 * built only on shash_find_len(), shash_delete() and struct shash: the same
 * for every node layout, so an impl folder that changes how the map stores
 * its nodes (shash.c) keeps this file. */
#include "shash.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void *
shash_find_and_delete(struct shash *sh, const char *name)
{
    struct shash_node *node = shash_find(sh, name);
    if (!node) {
        return NULL;
    }
    void *data = node->data;
    shash_delete(sh, node);
    return data;
}

struct shash_node *
shash_find(const struct shash *sh, const char *name)
{
    return shash_find_len(sh, name, strlen(name));
}

void *
shash_find_data(const struct shash *sh, const char *name)
{
    struct shash_node *node = shash_find(sh, name);
    return node ? node->data : NULL;
}

static struct shash_node *
first_from(const struct shash *sh, size_t bucket)
{
    for (; bucket <= sh->mask; bucket++) {
        if (sh->buckets[bucket]) {
            return sh->buckets[bucket];
        }
    }
    return NULL;
}

struct shash_node *
shash_first(const struct shash *sh)
{
    return sh->n ? first_from(sh, 0) : NULL;
}

struct shash_node *
shash_next(const struct shash *sh, const struct shash_node *node)
{
    return node->next ? node->next
                      : first_from(sh, (node->hash & sh->mask) + 1);
}

static int
compare_names(const void *a_, const void *b_)
{
    const struct shash_node *const *a = a_;
    const struct shash_node *const *b = b_;
    return strcmp((*a)->name, (*b)->name);
}

const struct shash_node **
shash_sort(const struct shash *sh)
{
    const struct shash_node **nodes;
    const struct shash_node *node;
    size_t i = 0;

    nodes = xmalloc((sh->n ? sh->n : 1) * sizeof *nodes);
    SHASH_FOR_EACH (node, sh) {
        nodes[i++] = node;
    }
    qsort(nodes, sh->n, sizeof *nodes, compare_names);
    return nodes;
}
