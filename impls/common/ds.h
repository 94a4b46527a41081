/* A growable string buffer, like OVS's struct ds.  'string' is always
 * null-terminated once anything has been put into it. */
#ifndef JSONBENCH_DS_H
#define JSONBENCH_DS_H 1

#include <stdarg.h>
#include <stddef.h>
#include "util.h"

struct ds {
    char *string;
    size_t length;
    size_t allocated;
};

#define DS_EMPTY_INITIALIZER { NULL, 0, 0 }

void ds_init(struct ds *);
void ds_clear(struct ds *);
void ds_reserve(struct ds *, size_t min_length);
char *ds_put_uninit(struct ds *, size_t n);
void ds_put_char__(struct ds *, char);
void ds_put_buffer(struct ds *, const char *, size_t n);
void ds_put_cstr(struct ds *, const char *);
void ds_put_format(struct ds *, const char *, ...) OVS_PRINTF_FORMAT(2, 3);
void ds_put_format_valist(struct ds *, const char *, va_list);
void ds_put_char_multiple(struct ds *, char, size_t n);
char *ds_cstr(struct ds *);
const char *ds_cstr_ro(const struct ds *);
char *ds_steal_cstr(struct ds *);
void ds_destroy(struct ds *);

static inline void
ds_put_char(struct ds *ds, char c)
{
    if (OVS_LIKELY(ds->length < ds->allocated)) {
        ds->string[ds->length++] = c;
        ds->string[ds->length] = '\0';
    } else {
        ds_put_char__(ds, c);
    }
}

#endif /* JSONBENCH_DS_H */
