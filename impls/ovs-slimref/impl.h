/* impls/ovs-slimref: ovs's layout, with slim weak references in the server
 * model: feature "slim-weak-refs" makes each struct weak_ref
 * (harness/server/db.h) keep neither a copy of its column's type nor the
 * destination's UUID (the column and the atom have them): 88 or 104 bytes
 * instead of 208 plus a block per refTable name.  The JSON representation
 * is ovs's unchanged: the model of an OVS patch to struct ovsdb_weak_ref. */
#define JSON_IMPL_NAME "ovs-slimref"
#define JSON_IMPL_FEATURES \
    "refcount,serialized,inline-strings,inline-arrays,slim-weak-refs"
#define JSON_IMPL_REFCOUNT 1
#define JSON_IMPL_SERIALIZED 1
#define JSON_IMPL_INLINE_STRINGS 1
#define JSON_IMPL_INLINE_ARRAYS 1
