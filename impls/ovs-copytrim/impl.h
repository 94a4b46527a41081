/* impls/ovs-copytrim: the control for ovs-arena.  ovs's layout and heap;
 * the nodes of the database read path (parsers created with
 * JSPF_DATABASE) are ordinary heap nodes, marked, and json_clone() of such
 * a string node copies it, so the string atoms that datums keep are fresh
 * nodes allocated after the record's tree, not the tree's own.  Feature
 * "trim-after-read" makes the harness call malloc_trim(0) once the initial
 * read is done (harness/workloads/workload.c).  impls/ovs-arena's
 * switches with ARENA_USE 0. */
#define JSON_IMPL_NAME "ovs-copytrim"
#define JSON_IMPL_FEATURES \
    "refcount,serialized,inline-strings,inline-arrays,copy-read-strings," \
    "trim-after-read"
#define JSON_IMPL_REFCOUNT 1
#define JSON_IMPL_SERIALIZED 1
#define JSON_IMPL_INLINE_STRINGS 1
#define JSON_IMPL_INLINE_ARRAYS 1
#define JSON_IMPL_NODE_STORE "arena/node-store.h"
#define JSON_PARSER_STORE 1
#define ARENA_DATABASE_ONLY 1
#define ARENA_USE 0
