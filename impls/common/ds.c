/* Growable string buffer. */
#include "ds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
ds_init(struct ds *ds)
{
    ds->string = NULL;
    ds->length = 0;
    ds->allocated = 0;
}

void
ds_clear(struct ds *ds)
{
    ds->length = 0;
    if (ds->string) {
        ds->string[0] = '\0';
    }
}

/* Makes room for at least 'min_length' more bytes (plus the terminator). */
void
ds_reserve(struct ds *ds, size_t min_length)
{
    if (min_length > ds->allocated || !ds->string) {
        size_t want = ds->allocated * 2;
        if (want < min_length) {
            want = min_length;
        }
        if (want < 8) {
            want = 8;
        }
        ds->allocated = want;
        ds->string = xrealloc(ds->string, want + 1);
    }
}

/* Always inlined (under LTO too): it is the parser's and the serializer's
 * inner loop, and GCC's size heuristics otherwise flip with unrelated
 * changes elsewhere (measured: +1% of the parser's instructions). */
__attribute__((always_inline)) inline char *
ds_put_uninit(struct ds *ds, size_t n)
{
    ds_reserve(ds, ds->length + n);
    char *p = &ds->string[ds->length];
    ds->length += n;
    ds->string[ds->length] = '\0';
    return p;
}

void
ds_put_char__(struct ds *ds, char c)
{
    *ds_put_uninit(ds, 1) = c;
}

void
ds_put_buffer(struct ds *ds, const char *s, size_t n)
{
    if (n) {
        memcpy(ds_put_uninit(ds, n), s, n);
    }
}

void
ds_put_cstr(struct ds *ds, const char *s)
{
    ds_put_buffer(ds, s, strlen(s));
}

void
ds_put_format(struct ds *ds, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    ds_put_format_valist(ds, format, args);
    va_end(args);
}

void
ds_put_format_valist(struct ds *ds, const char *format, va_list args)
{
    va_list args2;
    size_t room = ds->string ? ds->allocated - ds->length : 0;

    va_copy(args2, args);
    int needed = vsnprintf(ds->string ? &ds->string[ds->length] : NULL,
                           ds->string ? room + 1 : 0, format, args);
    if ((size_t) needed <= room && ds->string) {
        ds->length += needed;
    } else {
        ds_reserve(ds, ds->length + needed);
        vsnprintf(&ds->string[ds->length], needed + 1, format, args2);
        ds->length += needed;
    }
    va_end(args2);
}

void
ds_put_char_multiple(struct ds *ds, char c, size_t n)
{
    if (n) {
        memset(ds_put_uninit(ds, n), c, n);
    }
}

char *
ds_cstr(struct ds *ds)
{
    if (!ds->string) {
        ds_reserve(ds, 0);
        ds->string[0] = '\0';
    }
    return ds->string;
}

const char *
ds_cstr_ro(const struct ds *ds)
{
    return ds->string ? ds->string : "";
}

char *
ds_steal_cstr(struct ds *ds)
{
    char *s = ds_cstr(ds);
    ds_init(ds);
    return s;
}

void
ds_destroy(struct ds *ds)
{
    xfree(ds->string);
    ds_init(ds);
}
