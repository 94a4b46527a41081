/* impls/serialized: refcount + JSON_SERIALIZED_OBJECT nodes pasted verbatim (OVS 2.16/2.17). */
#define JSON_IMPL_NAME "serialized"
#define JSON_IMPL_FEATURES "refcount,serialized"
#define JSON_IMPL_REFCOUNT 1
#define JSON_IMPL_SERIALIZED 1
#define JSON_IMPL_INLINE_STRINGS 0
#define JSON_IMPL_INLINE_ARRAYS 0
