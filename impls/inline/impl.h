/* impls/inline: refcount + strings of up to 23 bytes inside the node (the 2025 short-strings patch). */
#define JSON_IMPL_NAME "inline"
#define JSON_IMPL_FEATURES "refcount,inline-strings"
#define JSON_IMPL_REFCOUNT 1
#define JSON_IMPL_SERIALIZED 0
#define JSON_IMPL_INLINE_STRINGS 1
#define JSON_IMPL_INLINE_ARRAYS 0
