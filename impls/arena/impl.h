/* impls/arena: compact, with the nodes of each parsed text (and their
 * objects' maps and arrays' vectors) bump-allocated in one arena of large
 * chunks that goes back as a whole, mapped chunks to the OS, when the tree's
 * root is destroyed.  Strings stay interned on the heap.  Everything but
 * node-store.h and shash-store.h (where nodes and maps live) is compact's:
 * see impls/arena/README.md. */
#define JSON_IMPL_NAME "arena"
#define COMPACT_INTERN 1
#define JSON_IMPL_FEATURES \
    "refcount,serialized,inline-arrays,interned,sized-strings,object-in-node,arena"
/* compact's parser options (impls/compact/impl.h); the parse store is the
 * arena (node-store.h). */
#define JSON_PARSER_FAST_LEX 1
#define JSON_PARSER_MEMBER_SLOT 1
#define JSON_PARSER_PENDING_STRINGS 1
#define JSON_PARSER_STORE 1
