/* impls/ovs: what OVS ships since 3.6: refcount + serialized + inline strings + inline arrays of up to 3. */
#define JSON_IMPL_NAME "ovs"
#define JSON_IMPL_FEATURES "refcount,serialized,inline-strings,inline-arrays"
#define JSON_IMPL_REFCOUNT 1
#define JSON_IMPL_SERIALIZED 1
#define JSON_IMPL_INLINE_STRINGS 1
#define JSON_IMPL_INLINE_ARRAYS 1
