/* impls/compact: the smallest nodes that keep the API: an 8-byte header
 * (32-bit reference count, type, storage), each node allocated at the size
 * its type needs, strings interned and stored in their node, objects' shash
 * in the node, arrays of up to 2 in the node.  Its own json-node.h and
 * json-tree.c; the layout switches of impls/common/json-node.h do not apply
 * here. */
#ifndef JSON_IMPL_NAME             /* compact-slowlex includes this. */
#define JSON_IMPL_NAME "compact"
#endif
/* Strings interned (1), or one node per string (0).  Measured on NB 0.1:
 * 0 loads as fast as 'ovs' but keeps RSS at 0.83x; 1 brings RSS to 0.62x
 * for ~25% more load CPU (one intern-table probe and one node touched per
 * parsed string); the parser's prefetched lookups and fast lexing
 * (json-parser.c) bring that to 1.04x NB, 1.02x SB (0.1, 5 processes, not
 * significant).  Interning only strings of >= 12, 20 or 37 bytes gave
 * neither.  The features below assume 1. */
#ifndef COMPACT_INTERN
#define COMPACT_INTERN 1
#endif
#define JSON_IMPL_FEATURES \
    "refcount,serialized,inline-arrays,interned,sized-strings,object-in-node"
/* The shared parser's options (impls/common/json-parser.c): fast lexing,
 * member names in a reused buffer, strings interned a few tokens late with
 * their lookups prefetched, nodes placed through node-store.h. */
#ifndef JSON_PARSER_FAST_LEX
#define JSON_PARSER_FAST_LEX 1
#endif
#define JSON_PARSER_MEMBER_SLOT 1
#define JSON_PARSER_PENDING_STRINGS COMPACT_INTERN
#define JSON_PARSER_STORE 1
