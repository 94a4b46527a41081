/* impls/ovs-arena-heapstr: ovs-arena with the string nodes of a database
 * read parse on the heap with ordinary reference counts; the rest of the
 * tree (nodes of other types, array vectors, object maps, member names)
 * is in the arena that goes with the root.  A datum's string atom is then
 * the tree's own node, shared by json_clone()'s count++ as in ovs, and
 * nothing is copied.  impls/ovs-arena's switches with
 * ARENA_STRING_NODES 0. */
#define JSON_IMPL_NAME "ovs-arena-heapstr"
#define JSON_IMPL_FEATURES \
    "refcount,serialized,inline-strings,inline-arrays,arena-read-path," \
    "heap-read-strings"
#define ARENA_STRING_NODES 0
#include "../ovs-arena/impl.h"
