/* String hash map.  Each bucket's chain is kept ordered by (hash, name), so
 * the iteration order depends only on the set of names and the bucket count,
 * never on insertion history: a deep copy or a re-parse of serialized text
 * iterates (and therefore serializes) in the same order as the original.
 * Where buckets, nodes and names live is <shash-store.h>'s: the including
 * impl's if it has one (the name in the node, SHASH_NAME_IN_NODE, or the
 * nodes in an arena), else common/'s. */
#include "shash.h"

#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "util.h"

#include <shash-store.h>        /* The including impl's, else common/'s. */

void
shash_init(struct shash *sh)
{
    sh->one = NULL;
    sh->buckets = &sh->one;
    sh->mask = 0;
    sh->n = 0;
}

void
shash_moved(struct shash *sh)
{
    if (sh->mask == 0) {
        sh->buckets = &sh->one;
    }
}

static void
free_buckets(struct shash *sh)
{
    if (sh->buckets != &sh->one) {
        shash_store_free(sh->buckets);
    }
}

/* Frees a name block the map was given: with SHASH_NAME_IN_NODE a
 * caller's heap copy it does not keep, else a node's name, made where
 * the store keeps names (a parser's member names may be in its arena). */
static void
free_name(char *name)
{
    if (SHASH_NAME_IN_NODE) {
        xfree(name);
    } else {
        shash_store_free(name);
    }
}

static void
free_node(struct shash_node *node)
{
    if (!SHASH_NAME_IN_NODE) {
        free_name(node->name);
    }
    shash_store_free(node);
}

static void
destroy_nodes(struct shash *sh, bool free_data)
{
    for (size_t i = 0; i <= sh->mask; i++) {
        struct shash_node *node = sh->buckets[i];
        while (node) {
            struct shash_node *next = node->next;
            if (free_data) {
                xfree(node->data);
            }
            free_node(node);
            node = next;
        }
        sh->buckets[i] = NULL;
    }
    sh->n = 0;
}

void
shash_destroy(struct shash *sh)
{
    if (sh) {
        destroy_nodes(sh, false);
        free_buckets(sh);
        shash_init(sh);
    }
}

void
shash_destroy_free_data(struct shash *sh)
{
    if (sh) {
        destroy_nodes(sh, true);
        free_buckets(sh);
        shash_init(sh);
    }
}

size_t
shash_count(const struct shash *sh)
{
    return sh->n;
}

bool
shash_is_empty(const struct shash *sh)
{
    return sh->n == 0;
}

static inline int
node_cmp(uint32_t hash, const char *name, const struct shash_node *node)
{
    if (hash != node->hash) {
        return hash < node->hash ? -1 : 1;
    }
    return strcmp(name, node->name);
}

/* Links 'node' into its bucket, keeping the chain ordered. */
static void
link_node(struct shash_node **buckets, size_t mask, struct shash_node *node)
{
    struct shash_node **prevp = &buckets[node->hash & mask];
    while (*prevp && node_cmp(node->hash, node->name, *prevp) > 0) {
        prevp = &(*prevp)->next;
    }
    node->next = *prevp;
    *prevp = node;
}

/* 'c' is the allocation category of the map's own blocks (buckets, nodes,
 * copied names): XALLOC_CURRENT for the ordinary API, which leaves it to
 * the caller's current category. */
static void
resize(struct shash *sh, size_t new_mask, enum xalloc_category c)
{
    struct shash_node **old = sh->buckets;
    size_t old_mask = sh->mask;
    struct shash_node **buckets;

    if (new_mask == 0) {
        return;
    }
    buckets = shash_store_calloc(c, new_mask + 1, sizeof *buckets);
    for (size_t i = 0; i <= old_mask; i++) {
        struct shash_node *node = old[i];
        while (node) {
            struct shash_node *next = node->next;
            link_node(buckets, new_mask, node);
            node = next;
        }
    }
    free_buckets(sh);
    sh->buckets = buckets;
    sh->mask = new_mask;
}

/* Bucket count for 'n' entries: at most two entries per bucket on average. */
static size_t
mask_for(size_t n)
{
    size_t buckets = 1;
    while (buckets * 2 < n) {
        buckets *= 2;
    }
    return buckets - 1;
}

void
shash_reserve(struct shash *sh, size_t n)
{
    size_t mask = mask_for(n);
    if (mask > sh->mask) {
        resize(sh, mask, XALLOC_CURRENT);
    }
}

/* Adds a node named 'name' ('len' bytes): with SHASH_NAME_IN_NODE a copy
 * of it in the node (the caller keeps 'name'), else 'name' itself, a heap
 * block the map then owns ('len' unused). */
static struct shash_node *
add_node(struct shash *sh, const char *name, size_t len, uint32_t hash,
         const void *data, enum xalloc_category c)
{
    struct shash_node *node;
    if (SHASH_NAME_IN_NODE) {
        node = shash_store_alloc(c, sizeof *node + len + 1);
        node->name = (char *) (node + 1);
        memcpy(node->name, name, len);
        node->name[len] = '\0';
    } else {
        node = shash_store_alloc(c, sizeof *node);
        node->name = CONST_CAST(char *, name);
    }
    node->hash = hash;
    node->data = CONST_CAST(void *, data);
    sh->n++;
    if (sh->n > (sh->mask + 1) * 2) {
        resize(sh, sh->mask * 2 + 1, c);
    }
    link_node(sh->buckets, sh->mask, node);
    return node;
}

struct shash_node *
shash_add_nocopy(struct shash *sh, char *name, const void *data)
{
    if (SHASH_NAME_IN_NODE) {
        struct shash_node *node = shash_add(sh, name, data);
        xfree(name);
        return node;
    }
    return add_node(sh, name, 0, hash_string(name, 0), data, XALLOC_CURRENT);
}

struct shash_node *
shash_add(struct shash *sh, const char *name, const void *data)
{
    if (SHASH_NAME_IN_NODE) {
        size_t len = strlen(name);
        return add_node(sh, name, len, hash_bytes(name, len, 0), data,
                        XALLOC_CURRENT);
    }
    return shash_add_nocopy(sh, xstrdup(name), data);
}

static struct shash_node *
find__(const struct shash *sh, const char *name, size_t len, uint32_t hash)
{
    for (struct shash_node *node = sh->buckets[hash & sh->mask]; node;
         node = node->next) {
        if (node->hash == hash) {
            if (!strncmp(node->name, name, len) && node->name[len] == '\0') {
                return node;
            }
        } else if (node->hash > hash) {
            break;
        }
    }
    return NULL;
}

bool
shash_add_once(struct shash *sh, const char *name, const void *data)
{
    if (shash_find(sh, name)) {
        return false;
    }
    shash_add(sh, name, data);
    return true;
}

void *
shash_replace_as(struct shash *sh, const char *name, const void *data,
                 enum xalloc_category c)
{
    size_t len = strlen(name);
    uint32_t hash = hash_bytes(name, len, 0);
    struct shash_node *node = find__(sh, name, len, hash);
    if (!node) {
#if SHASH_NAME_IN_NODE
        add_node(sh, name, len, hash, data, c);
#else
        add_node(sh, shash_store_memdup0(c, name, len), len, hash, data, c);
#endif
        return NULL;
    }
    void *old = node->data;
    node->data = CONST_CAST(void *, data);
    return old;
}

void *
shash_replace(struct shash *sh, const char *name, const void *data)
{
    return shash_replace_as(sh, name, data, XALLOC_CURRENT);
}

void *
shash_replace_nocopy_as(struct shash *sh, char *name, const void *data,
                        enum xalloc_category c)
{
    size_t len = strlen(name);
    uint32_t hash = hash_bytes(name, len, 0);
    struct shash_node *node = find__(sh, name, len, hash);
    if (!node) {
        add_node(sh, name, len, hash, data, c);
        if (SHASH_NAME_IN_NODE) {
            xfree(name);
        }
        return NULL;
    }
    free_name(name);
    void *old = node->data;
    node->data = CONST_CAST(void *, data);
    return old;
}

void *
shash_replace_nocopy(struct shash *sh, char *name, const void *data)
{
    return shash_replace_nocopy_as(sh, name, data, XALLOC_CURRENT);
}

void
shash_delete(struct shash *sh, struct shash_node *node)
{
    struct shash_node **prevp = &sh->buckets[node->hash & sh->mask];
    while (*prevp != node) {
        prevp = &(*prevp)->next;
    }
    *prevp = node->next;
    sh->n--;
    free_node(node);
}

struct shash_node *
shash_find_len(const struct shash *sh, const char *name, size_t len)
{
    return find__(sh, name, len, hash_bytes(name, len, 0));
}

struct shash_node *
shash_find_or_add_len(struct shash *sh, const char *name, size_t len,
                      bool *added)
{
    uint32_t hash = hash_bytes(name, len, 0);
    struct shash_node *node = find__(sh, name, len, hash);
    *added = !node;
    if (node) {
        return node;
    }
    if (SHASH_NAME_IN_NODE) {
        return add_node(sh, name, len, hash, NULL, XALLOC_CURRENT);
    }
    return add_node(sh, xmemdup0(name, len), len, hash, NULL,
                    XALLOC_CURRENT);
}

/* Lookups by name and the walks are shash-iter.c's. */
