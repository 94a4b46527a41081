/* impls/interned: ovs + interned strings: every string node is hash-consed
 * in one table, so equal strings share one node (json_string_create*() and
 * the parser return the existing node, count++). */
#define JSON_IMPL_NAME "interned"
#define JSON_IMPL_FEATURES "refcount,serialized,inline-strings,inline-arrays,interned"
#define JSON_IMPL_REFCOUNT 1
#define JSON_IMPL_SERIALIZED 1
#define JSON_IMPL_INLINE_STRINGS 1
#define JSON_IMPL_INLINE_ARRAYS 1
#define JSON_IMPL_INTERNED 1
/* Strings of up to 23 bytes (kept in the node) are interned too. */
#ifndef JSON_IMPL_INTERN_INLINE
#define JSON_IMPL_INTERN_INLINE 1
#endif
