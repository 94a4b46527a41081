/* impls/ovs-intern: ovs's layout, with the server's string atoms pooled:
 * feature "string-pool" makes atom_from_json() (ovsdb/datum.c) look each
 * string atom up by content in one table, so that equal strings read into
 * any row share one reference-counted node, and the table drops a string
 * with the last atom that uses it.  The JSON representation is ovs's
 * unchanged: the model of an OVS patch to ovsdb_atom_from_json(). */
#define JSON_IMPL_NAME "ovs-intern"
#define JSON_IMPL_FEATURES \
    "refcount,serialized,inline-strings,inline-arrays,string-pool"
#define JSON_IMPL_REFCOUNT 1
#define JSON_IMPL_SERIALIZED 1
#define JSON_IMPL_INLINE_STRINGS 1
#define JSON_IMPL_INLINE_ARRAYS 1
