/* impls/ovs-arena: ovs's layout (refcount + serialized + inline strings and
 * arrays of up to 3), with the trees of the database read path (parsers
 * created with JSPF_DATABASE) in an arena that goes with the root: nodes,
 * heap string bytes, array vectors, object maps, member names.
 * json_clone() of an arena node copies it onto the heap, so a string atom
 * that a datum keeps is a fresh heap node and no arena outlives its record.
 * Every other parse is ovs's.  See impls/ovs-arena/README.md. */
#define JSON_IMPL_NAME "ovs-arena"
#define JSON_IMPL_FEATURES \
    "refcount,serialized,inline-strings,inline-arrays,arena-read-path"
#define JSON_IMPL_REFCOUNT 1
#define JSON_IMPL_SERIALIZED 1
#define JSON_IMPL_INLINE_STRINGS 1
#define JSON_IMPL_INLINE_ARRAYS 1
/* 1: database read parses go to an arena; 0: to the heap, marked, so that
 * json_clone() copies their strings (impls/ovs-copytrim). */
#define OVS_ARENA_USE_ARENA 1
