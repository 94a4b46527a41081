/* impls/compact: one shash call of this impl's own (shash.c) that the
 * common shash.h does not declare: find a member or add it, with one hash
 * of the name.  The parser uses it to learn where a member's value lives,
 * so it can replace the value later (json-parser.c, pending strings). */
#ifndef JSONBENCH_COMPACT_SHASH_SLOT_H
#define JSONBENCH_COMPACT_SHASH_SLOT_H 1

#include <stdbool.h>
#include <stddef.h>

#include "shash.h"

/* The node named by the 'len' bytes of 'name' ('*added' false), or a new
 * node with that name and NULL data ('*added' true). */
struct shash_node *shash_find_or_add_len(struct shash *, const char *name,
                                         size_t len, bool *added);

#endif /* JSONBENCH_COMPACT_SHASH_SLOT_H */
