/* impls/ovs-arena: ovs's layout (refcount + serialized + inline strings and
 * arrays of up to 3), with the trees of the database read path (parsers
 * created with JSPF_DATABASE) in an arena that goes with the root: nodes,
 * heap string bytes, array vectors, object maps, member names.
 * json_clone() of an arena node copies it onto the heap, so a string atom
 * that a datum keeps is a fresh heap node and no arena outlives its record.
 * Every other parse is ovs's.  The common sources with impls/arena's node
 * and map stores (ARENA_* switches: impls/arena/node-store.h); see
 * impls/ovs-arena/README.md.
 *
 * ovs-arena-heapstr and ovs-copytrim define their name, features and the
 * ARENA_* switch they change, then include this file for the rest. */
#ifndef JSON_IMPL_NAME
#define JSON_IMPL_NAME "ovs-arena"
#define JSON_IMPL_FEATURES \
    "refcount,serialized,inline-strings,inline-arrays,arena-read-path"
#endif
#define JSON_IMPL_REFCOUNT 1
#define JSON_IMPL_SERIALIZED 1
#define JSON_IMPL_INLINE_STRINGS 1
#define JSON_IMPL_INLINE_ARRAYS 1
#define JSON_IMPL_NODE_STORE "arena/node-store.h"
#define JSON_PARSER_STORE 1
#define ARENA_DATABASE_ONLY 1
#ifndef ARENA_STRING_NODES
#define ARENA_STRING_NODES 1
#endif
