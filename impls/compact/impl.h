/* impls/compact: the smallest nodes that keep the API: an 8-byte header
 * (32-bit reference count, type, storage), each node allocated at the size
 * its type needs, strings interned and stored in their node, objects' shash
 * in the node, arrays of up to 2 in the node.  Its own json-node.h and
 * json-tree.c; the layout switches of impls/common/json-node.h do not apply
 * here. */
#define JSON_IMPL_NAME "compact"
#define JSON_IMPL_FEATURES \
    "refcount,serialized,inline-arrays,interned,sized-strings,object-in-node"
