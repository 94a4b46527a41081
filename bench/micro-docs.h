/* Deterministic JSON documents for the micro-benchmarks.
 *
 * Documents are generated as text from a fixed seed, so every impl parses
 * exactly the same bytes.  Three shapes:
 *
 *   nb_rows   An OVN Northbound transaction as neutron's ML2/OVN driver sends
 *             it: Logical_Switch_Port inserts (uuids, external_ids maps full
 *             of neutron:* keys, short strings, empty sets) and Logical_Switch
 *             mutations whose port sets list named-uuids.
 *   sb_flows  An OVN Southbound transaction as ovn-northd sends it:
 *             Logical_Flow inserts with 30-300 byte match and actions strings
 *             (quotes included, so escaping is exercised).
 *   generic   A plain document unrelated to OVSDB: nested objects and arrays
 *             of every length 0..8, integers, reals, booleans, nulls and
 *             strings with escapes.
 *
 * Sizes are targets: generation stops at the first row that reaches them. */
#ifndef JSONBENCH_MICRO_DOCS_H
#define JSONBENCH_MICRO_DOCS_H 1

#include <stdbool.h>
#include <stddef.h>

enum micro_doc_kind {
    MICRO_DOC_NB_ROWS,
    MICRO_DOC_SB_FLOWS,
    MICRO_DOC_GENERIC,
    MICRO_N_DOC_KINDS
};

enum micro_doc_size {
    MICRO_DOC_SMALL,            /* ~1 KB */
    MICRO_DOC_MEDIUM,           /* ~100 KB */
    MICRO_DOC_LARGE,            /* ~10 MB */
    MICRO_N_DOC_SIZES
};

const char *micro_doc_kind_name(enum micro_doc_kind);
const char *micro_doc_size_name(enum micro_doc_size);
size_t micro_doc_size_target(enum micro_doc_size);

/* Parses a "<kind>/<size>" name such as "nb_rows/small".  Returns false if
 * it names no document. */
bool micro_doc_from_name(const char *name, enum micro_doc_kind *,
                         enum micro_doc_size *);

/* Returns a malloc'd, null-terminated document of about 'target' bytes
 * (at least one row) and stores its length in '*lenp'.  The same arguments
 * give the same bytes on every run and every machine. */
char *micro_doc_generate(enum micro_doc_kind, size_t target, size_t *lenp);

#endif /* JSONBENCH_MICRO_DOCS_H */
