/* impls/compact-slowlex: compact with the shared parser's byte-at-a-time
 * lexer (JSON_PARSER_FAST_LEX 0); everything else is compact's.  Beside
 * compact and ovs-fastlex it tells the parser's share of compact's parse
 * speed from the representation's (jsonbench-parse-<impl>,
 * bench/README.md).  Tests and micro-benchmarks only. */
#define JSON_IMPL_NAME "compact-slowlex"
#define JSON_PARSER_FAST_LEX 0
#include "../compact/impl.h"
