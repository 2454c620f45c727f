/* Pre-shared keys: parse (64 hex digits or 32 raw bytes), read from a key file, generate. */
#include "hysim/secure.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HS_KEY_FILE_MAX 256

static int is_space(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int hs_secure_key_parse(hs_ctx *ctx, const uint8_t *data, size_t len,
                        uint8_t key[HS_SECURE_KEY_SIZE])
{
    if (!data || !key) return hs_fail(ctx, HS_EINVAL, "key: nothing to parse");
    if (sodium_init() < 0) return hs_fail(ctx, HS_EUNSUPPORTED, "key: libsodium did not start");
    size_t a = 0, b = len;
    while (a < b && is_space(data[a])) a++;
    while (b > a && is_space(data[b - 1])) b--;
    if (b - a == 2 * HS_SECURE_KEY_SIZE) {
        size_t bin_len = 0;
        const char *end = NULL;
        if (sodium_hex2bin(key, HS_SECURE_KEY_SIZE, (const char *)data + a, b - a, NULL, &bin_len,
                           &end) == 0 &&
            bin_len == HS_SECURE_KEY_SIZE && end == (const char *)data + b)
            return 0;
        sodium_memzero(key, HS_SECURE_KEY_SIZE);
    }
    if (len == HS_SECURE_KEY_SIZE) {
        memcpy(key, data, HS_SECURE_KEY_SIZE);
        return 0;
    }
    return hs_fail(ctx, HS_EINPUT,
                   "key: %zu bytes: a key is 64 hexadecimal digits or exactly 32 raw bytes", len);
}

int hs_secure_key_read(hs_ctx *ctx, const char *path, uint8_t key[HS_SECURE_KEY_SIZE])
{
    if (!path || !key) return hs_fail(ctx, HS_EINVAL, "key: no file");
    const int fd = open(path, O_RDONLY);
    if (fd < 0) return hs_fail(ctx, HS_EIO, "%s: cannot open key file: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) == 0 && (sb.st_mode & (S_IRWXG | S_IRWXO)))
        hs_log(ctx, HS_LOG_WARN, "%s: key file is accessible by group or others (mode %03o)", path,
               (unsigned)(sb.st_mode & 0777));
    uint8_t buf[HS_KEY_FILE_MAX + 1];
    size_t n = 0;
    for (;;) {
        const ssize_t r = read(fd, buf + n, sizeof buf - n);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            const int e = errno;
            close(fd);
            sodium_memzero(buf, sizeof buf);
            return hs_fail(ctx, HS_EIO, "%s: cannot read key file: %s", path, strerror(e));
        }
        if (r == 0 || (n += (size_t)r) == sizeof buf) break;
    }
    close(fd);
    int rc;
    if (n > HS_KEY_FILE_MAX)
        rc = hs_fail(ctx, HS_EINPUT, "%s: key file longer than %d bytes", path, HS_KEY_FILE_MAX);
    else if ((rc = hs_secure_key_parse(ctx, buf, n, key)) != 0)
        rc = hs_fail(ctx, rc,
                     "%s: %zu bytes: a key file holds 64 hexadecimal digits or exactly "
                     "32 raw bytes",
                     path, n);
    sodium_memzero(buf, sizeof buf);
    return rc;
}

int hs_secure_key_generate(hs_ctx *ctx, const char *path, uint8_t key[HS_SECURE_KEY_SIZE])
{
    if (!path) return hs_fail(ctx, HS_EINVAL, "key: no file");
    if (sodium_init() < 0) return hs_fail(ctx, HS_EUNSUPPORTED, "key: libsodium did not start");
    uint8_t k[HS_SECURE_KEY_SIZE];
    char hex[2 * HS_SECURE_KEY_SIZE + 2];
    randombytes_buf(k, sizeof k);
    sodium_bin2hex(hex, sizeof hex, k, sizeof k);
    const size_t n = strlen(hex);
    hex[n] = '\n';
    const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    int rc = 0;
    if (fd < 0) {
        rc = hs_fail(ctx, HS_EIO, "%s: cannot create key file: %s", path, strerror(errno));
    } else {
        size_t done = 0;
        while (done < n + 1) {
            const ssize_t w = write(fd, hex + done, n + 1 - done);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) {
                rc = hs_fail(ctx, HS_EIO, "%s: cannot write key file: %s", path, strerror(errno));
                break;
            }
            done += (size_t)w;
        }
        if (close(fd) != 0 && !rc)
            rc = hs_fail(ctx, HS_EIO, "%s: cannot write key file: %s", path, strerror(errno));
        if (rc) unlink(path);
    }
    if (!rc && key) memcpy(key, k, sizeof k);
    sodium_memzero(k, sizeof k);
    sodium_memzero(hex, sizeof hex);
    return rc;
}
