/* A hash map from strings to pointers, like OVS's struct shash: one heap node
 * per entry (hash, chain, name, data) and a bucket array, so that JSON objects
 * cost what they cost in OVS.  Iteration order is bucket order: deterministic
 * for the same insertions, identical in every impl.  Use shash_sort() for a
 * sorted view. */
#ifndef JSONBENCH_SHASH_H
#define JSONBENCH_SHASH_H 1

#include <stdbool.h>
#include <stddef.h>

#include "util.h"
#include <stdint.h>

struct shash_node {
    struct shash_node *next;    /* Next in the same bucket. */
    uint32_t hash;
    char *name;
    void *data;
};

struct shash {
    struct shash_node **buckets;
    size_t mask;                /* Number of buckets minus 1. */
    size_t n;
    struct shash_node *one;     /* Bucket storage while mask == 0. */
};

#define SHASH_INITIALIZER(SHASH) { &(SHASH)->one, 0, 0, NULL }

void shash_init(struct shash *);
/* An empty or one-bucket shash points into itself ('one'): after moving a
 * struct shash to another address (memcpy, realloc of an array of them),
 * call shash_moved() on the new copy before using it. */
void shash_moved(struct shash *);
void shash_destroy(struct shash *);             /* Frees nodes and names. */
void shash_destroy_free_data(struct shash *);   /* Also free()s each data. */
size_t shash_count(const struct shash *);
/* Sizes the bucket array for 'n' entries up front (used by deep copies so the
 * copy iterates in the original's order). */
void shash_reserve(struct shash *, size_t n);
bool shash_is_empty(const struct shash *);

/* shash_add*() do not check for an existing node with the same name. */
struct shash_node *shash_add(struct shash *, const char *name, const void *);
struct shash_node *shash_add_nocopy(struct shash *, char *name, const void *);
bool shash_add_once(struct shash *, const char *name, const void *);
/* Returns the old data for 'name' (or NULL) and stores 'data' instead. */
void *shash_replace(struct shash *, const char *name, const void *data);
void *shash_replace_nocopy(struct shash *, char *name, const void *data);
/* The same, with the map's new blocks (node, copied name, buckets) in
 * allocation category 'c' (util.h). */
void *shash_replace_as(struct shash *, const char *name, const void *data,
                       enum xalloc_category c);
void *shash_replace_nocopy_as(struct shash *, char *name, const void *data,
                              enum xalloc_category c);
void shash_delete(struct shash *, struct shash_node *);
void *shash_find_and_delete(struct shash *, const char *name);

struct shash_node *shash_find(const struct shash *, const char *name);
struct shash_node *shash_find_len(const struct shash *, const char *name,
                                  size_t len);
/* The node named by the 'len' bytes of 'name' ('*added' false), or a new
 * node with that name and NULL data ('*added' true): one hash of the name
 * (the parser's JSON_PARSER_MEMBER_SLOT). */
struct shash_node *shash_find_or_add_len(struct shash *, const char *name,
                                         size_t len, bool *added);
void *shash_find_data(const struct shash *, const char *name);

/* Iteration: first/next in bucket order. */
struct shash_node *shash_first(const struct shash *);
struct shash_node *shash_next(const struct shash *, const struct shash_node *);
#define SHASH_FOR_EACH(NODE, SHASH)                                      \
    for ((NODE) = shash_first(SHASH); (NODE) != NULL;                   \
         (NODE) = shash_next(SHASH, NODE))

/* Returns a malloc'd array of the nodes sorted bytewise by name. */
const struct shash_node **shash_sort(const struct shash *);

#endif /* JSONBENCH_SHASH_H */
