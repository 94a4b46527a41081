/* impls/refcount: plain + reference count: json_clone() is count++ (OVS 2.7). */
#define JSON_IMPL_NAME "refcount"
#define JSON_IMPL_FEATURES "refcount"
#define JSON_IMPL_REFCOUNT 1
#define JSON_IMPL_SERIALIZED 0
#define JSON_IMPL_INLINE_STRINGS 0
#define JSON_IMPL_INLINE_ARRAYS 0
