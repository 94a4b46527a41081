/* impls/ovs-regressed: ovs + a deliberate regression (one extra allocation per string node, extra work per serialize).  Tests only. */
#define JSON_IMPL_NAME "ovs-regressed"
#define JSON_IMPL_FEATURES "refcount,serialized,inline-strings,inline-arrays,regressed"
#define JSON_IMPL_REFCOUNT 1
#define JSON_IMPL_SERIALIZED 1
#define JSON_IMPL_INLINE_STRINGS 1
#define JSON_IMPL_INLINE_ARRAYS 1
#define JSON_IMPL_HOOKS "regression.h"
