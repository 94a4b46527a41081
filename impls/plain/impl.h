/* impls/plain: pointer nodes, heap strings and vectors, json_clone() deep-copies (OVS before 2.7). */
#define JSON_IMPL_NAME "plain"
#define JSON_IMPL_FEATURES ""
#define JSON_IMPL_REFCOUNT 0
#define JSON_IMPL_SERIALIZED 0
#define JSON_IMPL_INLINE_STRINGS 0
#define JSON_IMPL_INLINE_ARRAYS 0
