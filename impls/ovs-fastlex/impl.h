/* impls/ovs-fastlex: ovs's layout with the shared parser's fast lexer on
 * (JSON_PARSER_FAST_LEX), the one parser change compact makes that any
 * layout can take.  Beside ovs and compact-slowlex it tells the parser's
 * share of compact's parse speed from the representation's
 * (jsonbench-parse-<impl>, bench/README.md).  Tests and micro-benchmarks
 * only: not measured by the suite or the gate. */
#define JSON_IMPL_NAME "ovs-fastlex"
#define JSON_IMPL_FEATURES "refcount,serialized,inline-strings,inline-arrays,fast-lex"
#define JSON_IMPL_REFCOUNT 1
#define JSON_IMPL_SERIALIZED 1
#define JSON_IMPL_INLINE_STRINGS 1
#define JSON_IMPL_INLINE_ARRAYS 1
#define JSON_PARSER_FAST_LEX 1
