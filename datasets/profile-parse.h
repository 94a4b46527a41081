/* Internals of the profile parser, shared by its stages: profile-lex.c
 * (tokens, numbers, distributions), profile-tmpl.c (string templates),
 * profile-spec.c (column and atom specs against the schema),
 * profile-check.c (whole-profile checks), profile.c (reading the file) and
 * profile-resolve.c (row counts for a scale). */
#ifndef DATASETS_PROFILE_PARSE_H
#define DATASETS_PROFILE_PARSE_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"
#include "util.h"

struct ds;

/* Weights are decimal; they become integers with this resolution. */
#define WEIGHT_SCALE 1000000.0

/* Tokens of one line of the profile. */
struct lexer {
    const char *file_name;
    int line_no;
    char *tokens[256];
    bool quoted[256];
    size_t n;
    size_t pos;                 /* Next token to consume. */
    bool indented;              /* Column and key lines are indented. */
    char *error;                /* First error, "FILE:LINE: ...". */
};

void lex_error(struct lexer *, const char *format, ...)
    OVS_PRINTF_FORMAT(2, 3);
void lex_clear(struct lexer *);
bool lex_line(struct lexer *, const char *line);
const char *lex_next(struct lexer *, const char *what);

bool parse_double(struct lexer *, const char *s, const char *what,
                  double *out);
bool parse_i64(const char *s, const char **endp, int64_t *out);
bool parse_int_token(struct lexer *, const char *s, const char *what,
                     int64_t *out);
bool parse_dist(struct lexer *, const char *s, struct dist *);
int64_t dist_min(const struct dist *);

/* A JSON string literal of 'n' bytes of 's', quotes included. */
void put_json_string(struct ds *, const char *s, size_t n);
/* A stable 64-bit salt for the pair of names and 'n'. */
uint64_t salt_of(const char *a, const char *b, uint64_t n);

/* Templates. */
bool parse_tmpl(struct lexer *, const char *s, uint64_t salt, struct tmpl *);
void tmpl_destroy(struct tmpl *);
/* 'n' templates, each followed by a weight if 'weighted'. */
bool parse_templates(struct lexer *, struct atom_spec *, int64_t n,
                     bool weighted, uint64_t salt, const char *where);

/* Specs. */
bool parse_atom_spec(struct lexer *, const struct db_schema *,
                     const struct base_type *, uint64_t salt,
                     const char *where, struct atom_spec *);
void atom_spec_destroy(struct atom_spec *);
/* JSON text of one literal atom of 'b''s type, checked against the schema's
 * enum and bounds; NULL after a lex_error(). */
char *literal_atom(struct lexer *, const struct base_type *b,
                   const char *tok, const char *where);
/* Index of the table that 'b' references, or -1; strong references. */
int ref_index(const struct base_type *b);
bool is_strong_ref(const struct base_type *b);
bool parse_column(struct lexer *, struct profile *, struct table_spec *,
                  const char *col_name, struct col_spec *);
bool parse_key_line(struct lexer *, struct profile *, struct table_spec *);
int find_col_spec(const struct table_spec *, const char *name);

/* Whole-profile checks once every line is read. */
bool profile_check(struct lexer *, struct profile *);

#endif /* DATASETS_PROFILE_PARSE_H */
