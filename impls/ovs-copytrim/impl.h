/* impls/ovs-copytrim: the control for ovs-arena.  ovs's layout and heap;
 * the nodes of the database read path (parsers created with
 * JSPF_DATABASE) are ordinary heap nodes, marked, and json_clone() of such
 * a string node copies it, so the string atoms that datums keep are fresh
 * nodes allocated after the record's tree, not the tree's own.  Feature
 * "trim-after-read" makes the harness call malloc_trim(0) once the initial
 * read is done (harness/workloads/workload.c).  impls/ovs-arena's
 * switches with ARENA_USE 0 (with no arena, ARENA_STRING_NODES has no
 * effect). */
#define JSON_IMPL_NAME "ovs-copytrim"
#define JSON_IMPL_FEATURES \
    "refcount,serialized,inline-strings,inline-arrays,copy-read-strings," \
    "trim-after-read"
#define ARENA_USE 0
#include "../ovs-arena/impl.h"
