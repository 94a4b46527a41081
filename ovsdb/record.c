/* Header line of OVSDB file records; see record.h. */
#include "ovsdb/record.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <openssl/evp.h>

#include "ds.h"
#include "util.h"

const char *
ovsdb_record_magic(const char *line, size_t n)
{
    static const char *const magics[] = { OVSDB_RECORD_MAGIC,
                                          OVSDB_CLUSTER_MAGIC };
    for (size_t i = 0; i < ARRAY_SIZE(magics); i++) {
        size_t len = strlen(magics[i]);
        if (n >= len && !memcmp(line, magics[i], len)) {
            return magics[i];
        }
    }
    return NULL;
}

char *
ovsdb_record_parse_header(const char *line, size_t n, uint64_t *lengthp,
                          uint8_t sha1[OVSDB_SHA1_LEN])
{
    if (n >= 13 && !memcmp(line, "OVSDB CLUSTER", 13)) {
        return xstrdup("clustered (raft) database files are not supported; "
                       "convert with ovsdb-tool cluster-to-standalone");
    }
    return ovsdb_record_parse_header_magic(line, n, OVSDB_RECORD_MAGIC,
                                           lengthp, sha1);
}

char *
ovsdb_record_parse_header_magic(const char *line, size_t n,
                                const char *magic, uint64_t *lengthp,
                                uint8_t sha1[OVSDB_SHA1_LEN])
{
    const char *end = line + n;
    size_t magic_len = strlen(magic);

    if (n < magic_len || memcmp(line, magic, magic_len)) {
        return xasprintf("bad record header (expected \"%s<length> "
                         "<sha1>\")", magic);
    }

    /* The length as OVS reads it (strtoul()): white space and a '+' may
     * precede it, and it may not be 0.  At most 18 digits: a length that
     * overflows nothing downstream. */
    const char *p = line + magic_len;
    while (p < end && (*p == ' ' || (*p >= '\t' && *p <= '\r'))) {
        p++;
    }
    if (p < end && *p == '+') {
        p++;
    }
    uint64_t length = 0;
    int digits = 0;
    while (p < end && *p >= '0' && *p <= '9' && digits < 18) {
        length = length * 10 + (*p++ - '0');
        digits++;
    }
    if (!digits || !length || p >= end || *p != ' ') {
        return xstrdup("bad length in record header");
    }
    p++;
    if (end - p != 2 * OVSDB_SHA1_LEN) {
        return xstrdup("bad SHA-1 in record header");
    }
    for (int i = 0; i < OVSDB_SHA1_LEN; i++) {
        int hi = hexit_value(p[2 * i]);
        int lo = hexit_value(p[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            return xstrdup("bad SHA-1 in record header");
        }
        sha1[i] = hi * 16 + lo;
    }
    *lengthp = length;
    return NULL;
}

void
ovsdb_sha1_to_hex(const uint8_t sha1[OVSDB_SHA1_LEN], char hex[41])
{
    static const char digits[] = "0123456789abcdef";

    for (int i = 0; i < OVSDB_SHA1_LEN; i++) {
        hex[2 * i] = digits[sha1[i] >> 4];
        hex[2 * i + 1] = digits[sha1[i] & 15];
    }
    hex[2 * OVSDB_SHA1_LEN] = '\0';
}

size_t
ovsdb_record_format_header(char *out, uint64_t length,
                           const uint8_t sha1[OVSDB_SHA1_LEN])
{
    return ovsdb_record_format_header_magic(out, OVSDB_RECORD_MAGIC, length,
                                            sha1);
}

size_t
ovsdb_record_format_header_magic(char *out, const char *magic,
                                 uint64_t length,
                                 const uint8_t sha1[OVSDB_SHA1_LEN])
{
    int n = snprintf(out, OVSDB_RECORD_HEADER_MAX, "%s%"PRIu64" ", magic,
                     length);
    ovsdb_sha1_to_hex(sha1, out + n);
    n += 2 * OVSDB_SHA1_LEN;
    out[n++] = '\n';
    return n;
}

size_t
ovsdb_record_header(const char *data, size_t len,
                    char header[OVSDB_RECORD_HEADER_MAX])
{
    /* As OVS writes them: the length and hash cover the JSON and the
     * newline that ends it. */
    uint8_t sha1[EVP_MAX_MD_SIZE];
    unsigned int sha1_len = 0;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();

    EVP_DigestInit_ex(ctx, EVP_sha1(), NULL);
    EVP_DigestUpdate(ctx, data, len);
    EVP_DigestUpdate(ctx, "\n", 1);
    EVP_DigestFinal_ex(ctx, sha1, &sha1_len);
    EVP_MD_CTX_free(ctx);
    return ovsdb_record_format_header(header, len + 1, sha1);
}

void
ovsdb_record_to_ds(const char *data, size_t len, struct ds *out)
{
    char header[OVSDB_RECORD_HEADER_MAX];
    ds_put_buffer(out, header, ovsdb_record_header(data, len, header));
    ds_put_buffer(out, data, len);
    ds_put_char(out, '\n');
}
