/* SHA-256 of a dataset file, recorded in the results so a comparison can
 * tell whether two runs measured the same bytes. */
#include "measure/file-hash.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <openssl/evp.h>

#include "util.h"

char *
file_sha256(const char *file_name, char hex[65])
{
    static char buf[1 << 16];
    int fd = open(file_name, O_RDONLY);

    if (fd < 0) {
        return xasprintf("%s: cannot open: %s", file_name, strerror(errno));
    }
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            int err = errno;
            EVP_MD_CTX_free(ctx);
            close(fd);
            return xasprintf("%s: read error: %s", file_name, strerror(err));
        }
        if (!n) {
            break;
        }
        EVP_DigestUpdate(ctx, buf, n);
    }
    close(fd);

    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_DigestFinal_ex(ctx, md, &len);
    EVP_MD_CTX_free(ctx);
    for (unsigned int i = 0; i < len && i < 32; i++) {
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
    }
    hex[64] = '\0';
    return NULL;
}
