/* Atoms and datums: parsing, ordering, diffs, serialization; see datum.h. */
#include "ovsdb/datum.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "hash.h"
#include "json.h"
#include "util.h"

/* ---- Atoms ---- */

enum string_atoms string_atoms = STRING_ATOMS_SHARED;

/* ---- The string pool ---- */

bool string_pool;

/* An open-addressing table of the pooled nodes (linear probing, at most
 * 3/4 full), so that a distinct string costs the pool 8 to 16 bytes of
 * slots and no block of its own, about what a pool whose linkage lives in
 * the string node itself costs (a hash map node in the room of the inline
 * string, as a patch to OVS's struct json can put it). */
static struct {
    struct json **slots;
    size_t mask;                /* Number of slots - 1, or 0 without. */
    size_t n;
    unsigned long long hits, lookups;
} pool;

static uint32_t
pool_hash(const char *s)
{
    return hash_string(s, 0);
}

static void
pool_put(struct json **slots, size_t mask, struct json *node)
{
    size_t i = pool_hash(json_string(node)) & mask;
    while (slots[i]) {
        i = (i + 1) & mask;
    }
    slots[i] = node;
}

static void
pool_resize(size_t n_slots)
{
    struct json **slots = xcalloc_as(XALLOC_INTERN, n_slots, sizeof *slots);
    if (pool.slots) {
        for (size_t i = 0; i <= pool.mask; i++) {
            if (pool.slots[i]) {
                pool_put(slots, n_slots - 1, pool.slots[i]);
            }
        }
        xfree(pool.slots);
    }
    pool.slots = slots;
    pool.mask = n_slots - 1;
}

/* The pooled node equal to string node 'json' (a new reference), adding
 * one made from 'json' as SHARED or COPY says if there is none. */
static struct json *
string_pool_get(const struct json *json)
{
    const char *s = json_string(json);
    uint32_t hash = pool_hash(s);

    pool.lookups++;
    if (pool.slots) {
        for (size_t i = hash & pool.mask; pool.slots[i];
             i = (i + 1) & pool.mask) {
            if (!strcmp(json_string(pool.slots[i]), s)) {
                pool.hits++;
                return json_clone(pool.slots[i]);
            }
        }
    }
    if (!pool.slots || (pool.n + 1) * 4 > (pool.mask + 1) * 3) {
        pool_resize(pool.slots ? (pool.mask + 1) * 2 : 1024);
    }
    struct json *node = (string_atoms == STRING_ATOMS_SHARED
                         ? json_clone(json) : json_deep_clone(json));
    size_t i = hash & pool.mask;
    while (pool.slots[i]) {
        i = (i + 1) & pool.mask;
    }
    pool.slots[i] = json_clone(node);
    pool.n++;
    return node;
}

/* Empties slot 'i', moving back the nodes after it that probed past it. */
static void
pool_remove_slot(size_t i)
{
    size_t j = i;
    for (;;) {
        j = (j + 1) & pool.mask;
        if (!pool.slots[j]) {
            break;
        }
        size_t k = pool_hash(json_string(pool.slots[j])) & pool.mask;
        /* Stays if its home 'k' lies cyclically in (i, j]. */
        if (i <= j ? (i < k && k <= j) : (i < k || k <= j)) {
            continue;
        }
        pool.slots[i] = pool.slots[j];
        i = j;
    }
    pool.slots[i] = NULL;
    pool.n--;
}

/* Drops the pool's entry for 'node' (and its reference), if it has one. */
static void
string_pool_release(struct json *node)
{
    if (!pool.slots) {
        return;
    }
    for (size_t i = pool_hash(json_string(node)) & pool.mask; pool.slots[i];
         i = (i + 1) & pool.mask) {
        if (pool.slots[i] == node) {
            pool_remove_slot(i);
            json_destroy(node);
            return;
        }
    }
}

void
string_pool_sweep(void)
{
    if (!pool.slots) {
        return;
    }
    struct json **old = pool.slots;
    size_t n_slots = pool.mask + 1;
    pool.slots = xcalloc_as(XALLOC_INTERN, n_slots, sizeof *pool.slots);
    pool.n = 0;
    for (size_t i = 0; i < n_slots; i++) {
        if (!old[i]) {
            continue;
        } else if (json_refcount(old[i]) == 1) {
            json_destroy(old[i]);
        } else {
            pool_put(pool.slots, pool.mask, old[i]);
            pool.n++;
        }
    }
    xfree(old);
    if (!pool.n) {
        xfree(pool.slots);
        pool.slots = NULL;
        pool.mask = 0;
    }
}

size_t
string_pool_size(void)
{
    return pool.n;
}

unsigned long long
string_pool_hits(void)
{
    return pool.hits;
}

unsigned long long
string_pool_lookups(void)
{
    return pool.lookups;
}

void
atom_init_default(union atom *a, enum atomic_type type)
{
    memset(a, 0, sizeof *a);
    if (type == ATOMIC_STRING) {
        a->s = json_string_create("");
    }
}

void
atom_clone(union atom *dst, const union atom *src, enum atomic_type type)
{
    if (type == ATOMIC_STRING) {
        dst->s = json_clone(src->s);
    } else {
        *dst = *src;
    }
}

void
atom_destroy(union atom *a, enum atomic_type type)
{
    if (type == ATOMIC_STRING) {
        if (string_pool && json_refcount(a->s) == 2) {
            string_pool_release(a->s);
        }
        json_destroy(a->s);
    }
}

int
atom_compare(const union atom *a, const union atom *b, enum atomic_type type)
{
    switch (type) {
    case ATOMIC_INTEGER:
        return a->integer < b->integer ? -1 : a->integer > b->integer;
    case ATOMIC_REAL:
        return a->real < b->real ? -1 : a->real > b->real;
    case ATOMIC_BOOLEAN:
        return (int) a->boolean - (int) b->boolean;
    case ATOMIC_STRING:
        return a->s == b->s ? 0 : strcmp(json_string(a->s), json_string(b->s));
    case ATOMIC_UUID:
        return uuid_compare(&a->uuid, &b->uuid);
    case ATOMIC_VOID:
    case N_ATOMIC_TYPES:
        break;
    }
    return 0;
}

bool
atom_equals(const union atom *a, const union atom *b, enum atomic_type type)
{
    return !atom_compare(a, b, type);
}

char *
atom_check_constraints(const union atom *a, const struct base_type *b)
{
    if (b->enum_ && datum_find_key(b->enum_, a, b->type) == UINT_MAX) {
        return xasprintf("%s value is not one of the allowed values",
                         atomic_type_to_string(b->type));
    }
    switch (b->type) {
    case ATOMIC_INTEGER:
        if (a->integer < b->u.integer.min || a->integer > b->u.integer.max) {
            return xasprintf("integer %lld outside range [%lld, %lld]",
                             (long long) a->integer,
                             (long long) b->u.integer.min,
                             (long long) b->u.integer.max);
        }
        break;
    case ATOMIC_REAL:
        if (a->real < b->u.real.min || a->real > b->u.real.max) {
            return xasprintf("real %g outside range [%g, %g]", a->real,
                             b->u.real.min, b->u.real.max);
        }
        break;
    case ATOMIC_STRING: {
        /* Constraints count UTF-8 characters, i.e. non-continuation bytes. */
        unsigned int n_chars = 0;
        for (const unsigned char *p = (const unsigned char *) json_string(a->s);
             *p; p++) {
            n_chars += (*p & 0xc0) != 0x80;
        }
        if (n_chars < b->u.string.min_len || n_chars > b->u.string.max_len) {
            return xasprintf("string of %u characters outside length range "
                             "[%u, %u]", n_chars, b->u.string.min_len,
                             b->u.string.max_len);
        }
        break;
    }
    case ATOMIC_VOID:
    case ATOMIC_BOOLEAN:
    case ATOMIC_UUID:
    case N_ATOMIC_TYPES:
        break;
    }
    return NULL;
}

/* Datum storage counts as the model in the memory breakdown. */
static void *
model_xmalloc(size_t n)
{
    return xmalloc_as(XALLOC_MODEL, n);
}

static char *
type_mismatch(const struct base_type *b, const struct json *json)
{
    char *text = json_to_string(json, 0);
    char *error;

    if (strlen(text) > 60) {
        strcpy(text + 57, "...");
    }
    error = xasprintf("expected %s, got %s", atomic_type_to_string(b->type),
                      text);
    xfree(text);
    return error;
}

char *
atom_from_json(union atom *a, const struct base_type *b,
               const struct json *json)
{
    enum json_type jt = json_get_type(json);

    switch (b->type) {
    case ATOMIC_INTEGER:
        if (jt != JSON_INTEGER) {
            return type_mismatch(b, json);
        }
        a->integer = json_integer(json);
        break;
    case ATOMIC_REAL:
        if (jt != JSON_INTEGER && jt != JSON_REAL) {
            return type_mismatch(b, json);
        }
        a->real = json_real(json);
        break;
    case ATOMIC_BOOLEAN:
        if (jt != JSON_TRUE && jt != JSON_FALSE) {
            return type_mismatch(b, json);
        }
        a->boolean = jt == JSON_TRUE;
        break;
    case ATOMIC_STRING:
        if (jt != JSON_STRING) {
            return type_mismatch(b, json);
        }
        /* By default the stored atom is the parsed node itself, as in
         * OVS >= 2.17. */
        a->s = (string_pool ? string_pool_get(json)
                : string_atoms == STRING_ATOMS_SHARED ? json_clone(json)
                : json_deep_clone(json));
        break;
    case ATOMIC_UUID: {
        if (jt != JSON_ARRAY || json_array_size(json) != 2
            || json_get_type(json_array_at(json, 0)) != JSON_STRING
            || strcmp(json_string(json_array_at(json, 0)), "uuid")
            || json_get_type(json_array_at(json, 1)) != JSON_STRING
            || !uuid_from_string(&a->uuid,
                                 json_string(json_array_at(json, 1)))) {
            return type_mismatch(b, json);
        }
        break;
    }
    case ATOMIC_VOID:
    case N_ATOMIC_TYPES:
        return xasprintf("cannot parse a void atom");
    }

    char *error = atom_check_constraints(a, b);
    if (error) {
        atom_destroy(a, b->type);
    }
    return error;
}

struct json *
atom_to_json(const union atom *a, enum atomic_type type)
{
    switch (type) {
    case ATOMIC_INTEGER:
        return json_integer_create(a->integer);
    case ATOMIC_REAL:
        return json_real_create(a->real);
    case ATOMIC_BOOLEAN:
        return json_boolean_create(a->boolean);
    case ATOMIC_STRING:
        return json_clone(a->s);
    case ATOMIC_UUID: {
        char s[UUID_LEN + 1];
        uuid_format_printf(&a->uuid, s);
        return json_array_create_2(json_string_create("uuid"),
                                   json_string_create(s));
    }
    case ATOMIC_VOID:
    case N_ATOMIC_TYPES:
        break;
    }
    return json_null_create();
}

void
atom_to_ds(const union atom *a, enum atomic_type type, struct ds *out)
{
    switch (type) {
    case ATOMIC_INTEGER:
        ds_put_format(out, "%lld", (long long) a->integer);
        break;
    case ATOMIC_REAL: {
        /* Rare in OVN schemas: let the impl format it, so the text is the
         * same as the tree serializer's. */
        struct json *j = json_real_create(a->real);
        json_to_ds(j, 0, out);
        json_destroy(j);
        break;
    }
    case ATOMIC_BOOLEAN:
        ds_put_cstr(out, a->boolean ? "true" : "false");
        break;
    case ATOMIC_STRING:
        json_to_ds(a->s, 0, out);
        break;
    case ATOMIC_UUID: {
        char s[UUID_LEN + 1];
        uuid_format(&a->uuid, s);
        ds_put_cstr(out, "[\"uuid\",\"");
        ds_put_cstr(out, s);
        ds_put_cstr(out, "\"]");
        break;
    }
    case ATOMIC_VOID:
    case N_ATOMIC_TYPES:
        ds_put_cstr(out, "null");
        break;
    }
}

/* ---- Datums ---- */

void
datum_init_empty(struct datum *d)
{
    d->n = 0;
    d->keys = d->values = NULL;
}

void
datum_init_default(struct datum *d, const struct ovsdb_type *t)
{
    datum_init_empty(d);
    if (t->n_min) {
        d->n = 1;
        d->keys = model_xmalloc(sizeof *d->keys);
        atom_init_default(&d->keys[0], t->key.type);
        if (ovsdb_type_is_map(t)) {
            d->values = model_xmalloc(sizeof *d->values);
            atom_init_default(&d->values[0], t->value.type);
        }
    }
}

void
datum_destroy(struct datum *d, const struct ovsdb_type *t)
{
    for (unsigned int i = 0; i < d->n; i++) {
        atom_destroy(&d->keys[i], t->key.type);
        if (d->values) {
            atom_destroy(&d->values[i], t->value.type);
        }
    }
    xfree(d->keys);
    xfree(d->values);
    datum_init_empty(d);
}

void
datum_clone(struct datum *dst, const struct datum *src,
            const struct ovsdb_type *t)
{
    dst->n = src->n;
    dst->keys = dst->values = NULL;
    if (!src->n) {
        return;
    }
    dst->keys = model_xmalloc(src->n * sizeof *dst->keys);
    for (unsigned int i = 0; i < src->n; i++) {
        atom_clone(&dst->keys[i], &src->keys[i], t->key.type);
    }
    if (src->values) {
        dst->values = model_xmalloc(src->n * sizeof *dst->values);
        for (unsigned int i = 0; i < src->n; i++) {
            atom_clone(&dst->values[i], &src->values[i], t->value.type);
        }
    }
}

void
datum_swap(struct datum *a, struct datum *b)
{
    struct datum tmp = *a;
    *a = *b;
    *b = tmp;
}

bool
datum_equals(const struct datum *a, const struct datum *b,
             const struct ovsdb_type *t)
{
    if (a->n != b->n) {
        return false;
    }
    for (unsigned int i = 0; i < a->n; i++) {
        if (!atom_equals(&a->keys[i], &b->keys[i], t->key.type)
            || (a->values
                && !atom_equals(&a->values[i], &b->values[i],
                                t->value.type))) {
            return false;
        }
    }
    return true;
}

static bool
atom_is_default(const union atom *a, enum atomic_type type)
{
    switch (type) {
    case ATOMIC_INTEGER:
        return !a->integer;
    case ATOMIC_REAL:
        return a->real == 0.0;
    case ATOMIC_BOOLEAN:
        return !a->boolean;
    case ATOMIC_STRING:
        return !json_string(a->s)[0];
    case ATOMIC_UUID:
        return uuid_is_zero(&a->uuid);
    case ATOMIC_VOID:
    case N_ATOMIC_TYPES:
        break;
    }
    return true;
}

bool
datum_is_default(const struct datum *d, const struct ovsdb_type *t)
{
    if (!t->n_min) {
        return !d->n;
    }
    return (d->n == 1 && atom_is_default(&d->keys[0], t->key.type)
            && (!d->values || atom_is_default(&d->values[0], t->value.type)));
}

uint32_t
atom_hash(const union atom *a, enum atomic_type type, uint32_t basis)
{
    switch (type) {
    case ATOMIC_INTEGER:
        return hash_finish(hash_add64(basis, (uint64_t) a->integer), 8);
    case ATOMIC_REAL:
        return hash_bytes(&a->real, sizeof a->real, basis);
    case ATOMIC_BOOLEAN:
        return hash_int(a->boolean, basis);
    case ATOMIC_STRING:
        return hash_string(json_string(a->s), basis);
    case ATOMIC_UUID:
        return hash_int(uuid_hash(&a->uuid), basis);
    case ATOMIC_VOID:
    case N_ATOMIC_TYPES:
        break;
    }
    return basis;
}

uint32_t
datum_hash(const struct datum *d, const struct ovsdb_type *t, uint32_t basis)
{
    for (unsigned int i = 0; i < d->n; i++) {
        basis = atom_hash(&d->keys[i], t->key.type, basis);
        if (d->values) {
            basis = atom_hash(&d->values[i], t->value.type, basis);
        }
    }
    return basis;
}

unsigned int
datum_find_key(const struct datum *d, const union atom *key,
               enum atomic_type type)
{
    unsigned int lo = 0, hi = d->n;

    while (lo < hi) {
        unsigned int mid = lo + (hi - lo) / 2;
        int cmp = atom_compare(key, &d->keys[mid], type);
        if (!cmp) {
            return mid;
        }
        if (cmp < 0) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return UINT_MAX;
}

/* Sorting, as ovsdb-server sorts every datum it reads from JSON
 * (ovsdb_datum_sort(), lib/sort.c): a quicksort with a random pivot and a
 * one-way partition, through compare and swap callbacks, in place, keys
 * swapped with their values, whether or not the input is already in order.
 * The model used to check for order first and skip the sort; real files
 * are written sorted, so that made its load cheaper than the server's by
 * the whole sort (docs/model.md, "Load and compaction").  Two differences
 * from lib/sort.c, both for bad input only: the recursion goes into the
 * smaller side, so the stack stays shallow, and an equal pair stops the
 * sort, as it is a duplicate and an error anyway (with many duplicates the
 * one-way partition would take quadratic time). */
struct sort_aux {
    struct datum *d;
    enum atomic_type key_type;
    bool duplicate;             /* Two equal keys were compared. */
};

/* A fixed-seed xorshift for the pivots: deterministic runs, and the
 * sorted result does not depend on it. */
static uint32_t sort_random_state = 0x2545f491;

static uint32_t
sort_random(uint32_t max)
{
    uint32_t x = sort_random_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    sort_random_state = x;
    return x % max;
}

static int
sort_compare_cb(size_t a, size_t b, void *aux_)
{
    struct sort_aux *aux = aux_;
    int cmp = atom_compare(&aux->d->keys[a], &aux->d->keys[b], aux->key_type);
    if (!cmp && a != b) {
        aux->duplicate = true;
    }
    return cmp;
}

static void
sort_swap_cb(size_t a, size_t b, void *aux_)
{
    struct sort_aux *aux = aux_;
    union atom tmp = aux->d->keys[a];
    aux->d->keys[a] = aux->d->keys[b];
    aux->d->keys[b] = tmp;
    if (aux->d->values) {
        tmp = aux->d->values[a];
        aux->d->values[a] = aux->d->values[b];
        aux->d->values[b] = tmp;
    }
}

typedef int sort_compare_fn(size_t a, size_t b, void *aux);
typedef void sort_swap_fn(size_t a, size_t b, void *aux);

/* Sorts [p, r); false if a duplicate stopped it. */
static bool
quicksort(size_t p, size_t r, sort_compare_fn *compare, sort_swap_fn *swap,
          struct sort_aux *aux)
{
    while (r - p >= 2) {
        size_t x = sort_random(r - p) + p;
        if (x != r - 1) {
            swap(r - 1, x, aux);
        }
        x = r - 1;
        size_t i = p;
        for (size_t j = p; j < x; j++) {
            if (compare(j, x, aux) <= 0) {
                swap(i++, j, aux);
            }
        }
        swap(i, x, aux);
        if (aux->duplicate) {
            return false;
        }
        if (i - p < r - i) {
            if (!quicksort(p, i, compare, swap, aux)) {
                return false;
            }
            p = i;
        } else {
            if (!quicksort(i, r, compare, swap, aux)) {
                return false;
            }
            r = i;
        }
    }
    return true;
}

/* Sorts 'd' by key and fails on a duplicate key. */
static char *
datum_sort_unique(struct datum *d, const struct ovsdb_type *t)
{
    if (d->n < 2) {
        return NULL;
    }
    struct sort_aux aux = { .d = d, .key_type = t->key.type };
    bool unique = quicksort(0, d->n, sort_compare_cb, sort_swap_cb, &aux);
    for (unsigned int i = 1; unique && i < d->n; i++) {
        unique = atom_compare(&d->keys[i - 1], &d->keys[i], t->key.type) != 0;
    }
    if (!unique) {
        return xasprintf(ovsdb_type_is_map(t) ? "map has duplicate key"
                         : "set has duplicate element");
    }
    return NULL;
}

char *
datum_check_size(const struct datum *d, const struct ovsdb_type *t)
{
    if (d->n < t->n_min || d->n > t->n_max) {
        return xasprintf("%u elements where the column allows %u to %u",
                         d->n, t->n_min, t->n_max);
    }
    return NULL;
}

static bool
is_tagged(const struct json *json, const char *tag)
{
    return (json_get_type(json) == JSON_ARRAY && json_array_size(json) == 2
            && json_get_type(json_array_at(json, 0)) == JSON_STRING
            && !strcmp(json_string(json_array_at(json, 0)), tag));
}

char *
datum_from_json(struct datum *d, const struct ovsdb_type *t,
                const struct json *json, bool relaxed)
{
    const struct json *elems;
    bool is_map = ovsdb_type_is_map(t);
    size_t n;

    datum_init_empty(d);
    if (is_map) {
        if (!is_tagged(json, "map")
            || json_get_type(json_array_at(json, 1)) != JSON_ARRAY) {
            return xasprintf("expected [\"map\", [...]]");
        }
        elems = json_array_at(json, 1);
        n = json_array_size(elems);
    } else if (is_tagged(json, "set")) {
        elems = json_array_at(json, 1);
        if (json_get_type(elems) != JSON_ARRAY) {
            return xasprintf("expected [\"set\", [...]]");
        }
        n = json_array_size(elems);
    } else {
        elems = NULL;           /* A bare atom: a set of one. */
        n = 1;
    }
    if (n > UINT_MAX - 1) {
        return xasprintf("too many elements");
    }

    char *error = NULL;
    if (n) {
        d->keys = model_xmalloc(n * sizeof *d->keys);
        if (is_map) {
            d->values = model_xmalloc(n * sizeof *d->values);
        }
    }
    for (size_t i = 0; i < n; i++) {
        const struct json *e = elems ? json_array_at(elems, i) : json;
        if (is_map) {
            if (json_get_type(e) != JSON_ARRAY || json_array_size(e) != 2) {
                error = xasprintf("map element must be a [key, value] pair");
                break;
            }
            error = atom_from_json(&d->keys[i], &t->key, json_array_at(e, 0));
            if (error) {
                break;
            }
            error = atom_from_json(&d->values[i], &t->value,
                                   json_array_at(e, 1));
            if (error) {
                atom_destroy(&d->keys[i], t->key.type);
                break;
            }
        } else {
            error = atom_from_json(&d->keys[i], &t->key, e);
            if (error) {
                break;
            }
        }
        d->n++;
    }
    if (!error) {
        error = datum_sort_unique(d, t);
    }
    if (!error && !relaxed) {
        error = datum_check_size(d, t);
    }
    if (error) {
        datum_destroy(d, t);
    }
    return error;
}

void
datum_apply_diff(struct datum *d, struct datum *diff,
                 const struct ovsdb_type *t)
{
    /* Merge two sorted arrays: keys only in one side are kept; a key in
     * both is removed when the values match (or for sets), else updated. */
    unsigned int cap = d->n + diff->n;
    struct datum out;
    unsigned int i = 0, j = 0;

    out.n = 0;
    out.keys = cap ? model_xmalloc(cap * sizeof *out.keys) : NULL;
    out.values = d->values || diff->values
                 ? model_xmalloc((cap ? cap : 1) * sizeof *out.values) : NULL;
    while (i < d->n || j < diff->n) {
        int cmp = (i >= d->n ? 1 : j >= diff->n ? -1
                   : atom_compare(&d->keys[i], &diff->keys[j], t->key.type));
        if (cmp < 0) {
            out.keys[out.n] = d->keys[i];
            if (out.values) {
                out.values[out.n] = d->values[i];
            }
            out.n++;
            i++;
        } else if (cmp > 0) {
            out.keys[out.n] = diff->keys[j];
            if (out.values) {
                out.values[out.n] = diff->values[j];
            }
            out.n++;
            j++;
        } else {
            bool same = !out.values || atom_equals(&d->values[i],
                                                   &diff->values[j],
                                                   t->value.type);
            if (same) {
                atom_destroy(&d->keys[i], t->key.type);
                atom_destroy(&diff->keys[j], t->key.type);
                if (out.values) {
                    atom_destroy(&d->values[i], t->value.type);
                    atom_destroy(&diff->values[j], t->value.type);
                }
            } else {
                out.keys[out.n] = d->keys[i];
                out.values[out.n] = diff->values[j];
                atom_destroy(&diff->keys[j], t->key.type);
                atom_destroy(&d->values[i], t->value.type);
                out.n++;
            }
            i++;
            j++;
        }
    }
    xfree(d->keys);
    xfree(d->values);
    xfree(diff->keys);
    xfree(diff->values);
    datum_init_empty(diff);
    if (!out.n) {
        xfree(out.keys);
        xfree(out.values);
        datum_init_empty(&out);
    }
    *d = out;
}

struct json *
datum_to_json(const struct datum *d, const struct ovsdb_type *t)
{
    if (ovsdb_type_is_map(t)) {
        struct json **pairs = xmalloc((d->n ? d->n : 1) * sizeof *pairs);
        for (unsigned int i = 0; i < d->n; i++) {
            pairs[i] = json_array_create_2(
                atom_to_json(&d->keys[i], t->key.type),
                atom_to_json(&d->values[i], t->value.type));
        }
        return json_array_create_2(json_string_create("map"),
                                   json_array_create(pairs, d->n));
    } else if (d->n == 1) {
        return atom_to_json(&d->keys[0], t->key.type);
    } else {
        struct json **elems = xmalloc((d->n ? d->n : 1) * sizeof *elems);
        for (unsigned int i = 0; i < d->n; i++) {
            elems[i] = atom_to_json(&d->keys[i], t->key.type);
        }
        return json_array_create_2(json_string_create("set"),
                                   json_array_create(elems, d->n));
    }
}

void
datum_to_ds(const struct datum *d, const struct ovsdb_type *t,
            struct ds *out)
{
    bool is_map = ovsdb_type_is_map(t);

    if (!is_map && d->n == 1) {
        atom_to_ds(&d->keys[0], t->key.type, out);
        return;
    }
    ds_put_cstr(out, is_map ? "[\"map\",[" : "[\"set\",[");
    for (unsigned int i = 0; i < d->n; i++) {
        if (i) {
            ds_put_char(out, ',');
        }
        if (is_map) {
            ds_put_char(out, '[');
            atom_to_ds(&d->keys[i], t->key.type, out);
            ds_put_char(out, ',');
            atom_to_ds(&d->values[i], t->value.type, out);
            ds_put_char(out, ']');
        } else {
            atom_to_ds(&d->keys[i], t->key.type, out);
        }
    }
    ds_put_cstr(out, "]]");
}
