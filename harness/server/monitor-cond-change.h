/* The update a monitor_cond_change sends (ovsdb-server(7)): a client's
 * condition on a table changed, so the rows that match the new condition
 * and not the old one come as "insert", the ones that matched the old and
 * not the new as "delete".  ovsdb-server composes it from the table's rows
 * themselves, not from a change set: every row is tested against both
 * conditions.  Rows that match both or neither are left out. */
#ifndef HARNESS_MONITOR_COND_CHANGE_H
#define HARNESS_MONITOR_COND_CHANGE_H 1

#include <stddef.h>

struct condition;
struct json;
struct table;

struct cond_change_counts {
    unsigned long long tested;      /* Rows tested against the conditions. */
    unsigned long long inserted;    /* Rows that entered. */
    unsigned long long deleted;     /* Rows that left. */
};

/* The <table-updates2> rows of table 't' for a client whose condition
 * changes from 'old' to 'new': {"<uuid>": {"insert": {<non-default
 * columns>, "_version": V}} or {"delete": null}, ...}, every column
 * monitored (as a monitor_cond request without "columns" asks).  Adds to
 * '*counts'.  Returns NULL if no row enters or leaves. */
struct json *cond_change_rows2(const struct table *t,
                               const struct condition *old,
                               const struct condition *new,
                               struct cond_change_counts *counts);

#endif
