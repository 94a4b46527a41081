/* Atoms and datums: the values of OVSDB columns.
 *
 * As in OVS since 2.17, a string atom is the impl's JSON string node, taken
 * from the parse tree with json_clone() (count++ in refcounted impls, a copy
 * in the others), so the JSON representation decides the memory of every
 * stored string.  UUIDs are binary.  A datum's atoms are sorted by key with
 * no duplicates; a map keeps its values in a parallel array. */
#ifndef OVSDB_DATUM_H
#define OVSDB_DATUM_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ovsdb/types.h"
#include "ovsdb/uuid.h"

struct ds;
struct json;

union atom {
    int64_t integer;
    double real;
    bool boolean;
    struct json *s;             /* A JSON_STRING node of the impl. */
    struct uuid uuid;
};

struct datum {
    unsigned int n;
    union atom *keys;
    union atom *values;         /* NULL unless a map. */
};

/* Atoms. */

/* How a string atom is made from its parsed JSON node.  SHARED keeps the
 * parse tree's node (json_clone(): count++ in refcounted impls, as OVS has
 * done since 2.17; a copy in the others).  COPY always makes a fresh node, so
 * refcounted impls store strings as compactly as 'plain' does: this isolates
 * what keeping the parse tree's scattered nodes costs. */
enum string_atoms { STRING_ATOMS_SHARED, STRING_ATOMS_COPY };
extern enum string_atoms string_atoms;

/* The string pool (impls whose features list "string-pool": the harness
 * turns it on before it reads anything).  With it, atom_from_json() looks
 * each string atom up by content in one table, so equal strings read into
 * any row, column or table share one node (json_clone() of the pooled one,
 * count++), as a patch to OVS's ovsdb_atom_from_json() would; the first
 * occurrence is kept as SHARED or COPY says.  The pool holds a reference
 * to each node; atom_destroy() drops the entry with the last atom using it
 * (the pool's and the atom's references are all that is left).  An entry
 * whose last user was not an atom (a JSON reply holding a clone when the
 * atom went) stays until a lookup reuses it or string_pool_sweep() drops
 * it.  The table is an array of node pointers, no block per entry, in
 * the breakdown's 'intern' category. */
extern bool string_pool;
/* Drops the entries nobody but the pool holds, and frees the table once it
 * is empty (db_destroy() calls it). */
void string_pool_sweep(void);
/* Entries alive, lookups that found an entry, lookups in all. */
size_t string_pool_size(void);
unsigned long long string_pool_hits(void);
unsigned long long string_pool_lookups(void);

void atom_init_default(union atom *, enum atomic_type);
void atom_clone(union atom *dst, const union atom *src, enum atomic_type);
void atom_destroy(union atom *, enum atomic_type);
int atom_compare(const union atom *, const union atom *, enum atomic_type);
bool atom_equals(const union atom *, const union atom *, enum atomic_type);
char *atom_from_json(union atom *, const struct base_type *,
                     const struct json *);
char *atom_check_constraints(const union atom *, const struct base_type *);
struct json *atom_to_json(const union atom *, enum atomic_type);
void atom_to_ds(const union atom *, enum atomic_type, struct ds *);

/* Datums. */
void datum_init_empty(struct datum *);
void datum_init_default(struct datum *, const struct ovsdb_type *);
void datum_destroy(struct datum *, const struct ovsdb_type *);
void datum_clone(struct datum *dst, const struct datum *src,
                 const struct ovsdb_type *);
void datum_swap(struct datum *, struct datum *);
bool datum_equals(const struct datum *, const struct datum *,
                  const struct ovsdb_type *);
bool datum_is_default(const struct datum *, const struct ovsdb_type *);
/* Parses RFC 7047 <value> JSON.  With 'relaxed' the element count is not
 * checked against the type (diffs may hold more elements than the column). */
char *datum_from_json(struct datum *, const struct ovsdb_type *,
                      const struct json *, bool relaxed);
char *datum_check_size(const struct datum *, const struct ovsdb_type *);
/* Applies a diff (as OVS writes with "_is_diff": true): set elements and
 * map pairs in 'diff' toggle, a map key with another value is updated.
 * Destroys 'diff'. */
void datum_apply_diff(struct datum *, struct datum *diff,
                      const struct ovsdb_type *);
struct json *datum_to_json(const struct datum *, const struct ovsdb_type *);
/* Writes the same text that json_to_ds(datum_to_json(...)) would. */
void datum_to_ds(const struct datum *, const struct ovsdb_type *,
                 struct ds *);
/* Hash of the atoms of 'datum' (keys, then values), for indexes. */
uint32_t datum_hash(const struct datum *, const struct ovsdb_type *,
                    uint32_t basis);
uint32_t atom_hash(const union atom *, enum atomic_type, uint32_t basis);
/* Index of 'key' in sorted 'datum', or UINT_MAX. */
unsigned int datum_find_key(const struct datum *, const union atom *,
                            enum atomic_type);

#endif /* OVSDB_DATUM_H */
