/* impls/ovs-half: the three changes of the "half" series together:
 * ovs-arena's database read path in an arena (string atoms copied out of
 * it), ovs-intern's string pool (so a string is copied out once and shared
 * by every atom equal to it) and ovs-slimref's slim weak references.
 * impls/ovs-arena's switches with the two server features. */
#define JSON_IMPL_NAME "ovs-half"
#define JSON_IMPL_FEATURES \
    "refcount,serialized,inline-strings,inline-arrays,arena-read-path," \
    "string-pool,slim-weak-refs"
#include "../ovs-arena/impl.h"
