/* AES-128 block encryption (FIPS-197), without heap or library: what
 * ovsdb-server's uuid_generate() runs (OVS lib/aes128.c) to make each row's
 * _version.  The model used OpenSSL's EVP interface before, whose cipher
 * fetch cost the load 3.5 M instructions and 0.12 MB of heap that the real
 * server does not spend (docs/model.md, "Peak heap against ovsdb-tool"). */
#ifndef OVSDB_AES128_H
#define OVSDB_AES128_H 1

#include <stdint.h>

/* An expanded key: 11 round keys of four big-endian words. */
struct aes128 {
    uint32_t rk[44];
};

/* Expands the 16-byte 'key' into 'aes'. */
void aes128_schedule(struct aes128 *aes, const uint8_t key[16]);

/* Encrypts the 16 bytes at 'plain' into the 16 bytes at 'cipher' (which may
 * be the same place). */
void aes128_encrypt(const struct aes128 *aes, const void *plain,
                    void *cipher);

#endif /* OVSDB_AES128_H */
