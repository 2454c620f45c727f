/* Pre-shared keys: parse (64 hex digits, whitespace around them allowed; nothing else: the raw
 * 32-byte form of earlier versions took 32 newlines for a key), read from a key file, generate.
 * A key whose bytes take fewer than 16 different values is refused as not random. */
#include "hysim/secure.h"

#include <ctype.h>
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

/* What a key file must hold, for every refusal. */
#define KEY_RULE                                                                                   \
    "a key file holds 64 hexadecimal digits (32 random bytes), with nothing but whitespace "       \
    "around them; make one with `hysim keygen FILE`"

/* Fewer distinct byte values than this in 32 bytes is not a random key: 32 uniformly random
 * bytes show 30.1 distinct values on average, fewer than 16 with a probability below 1e-20. */
#define KEY_MIN_DISTINCT 16

int hs_secure_key_parse(hs_ctx *ctx, const uint8_t *data, size_t len,
                        uint8_t key[HS_SECURE_KEY_SIZE])
{
    if (!data || !key) return hs_fail(ctx, HS_EINVAL, "key: nothing to parse");
    if (sodium_init() < 0) return hs_fail(ctx, HS_EUNSUPPORTED, "key: libsodium did not start");
    size_t a = 0, b = len;
    while (a < b && is_space(data[a])) a++;
    while (b > a && is_space(data[b - 1])) b--;
    size_t digits = 0;
    while (a + digits < b && isxdigit(data[a + digits])) digits++;
    if (digits != b - a)
        return hs_fail(ctx, HS_EINPUT,
                       "not a key: byte %zu (0x%02x) is not a hexadecimal digit; %s",
                       a + digits + 1, (unsigned)data[a + digits], KEY_RULE);
    if (digits != 2 * HS_SECURE_KEY_SIZE)
        return hs_fail(ctx, HS_EINPUT, "not a key: %zu hexadecimal digits, not 64; %s", digits,
                       KEY_RULE);
    size_t bin_len = 0;
    if (sodium_hex2bin(key, HS_SECURE_KEY_SIZE, (const char *)data + a, digits, NULL, &bin_len,
                       NULL) != 0 ||
        bin_len != HS_SECURE_KEY_SIZE) {
        sodium_memzero(key, HS_SECURE_KEY_SIZE);
        return hs_fail(ctx, HS_EINPUT, "not a key; %s", KEY_RULE);
    }
    uint8_t seen[256] = {0};
    int distinct = 0;
    for (int i = 0; i < HS_SECURE_KEY_SIZE; i++) distinct += !seen[key[i]]++;
    sodium_memzero(seen, sizeof seen);
    if (distinct < KEY_MIN_DISTINCT) {
        sodium_memzero(key, HS_SECURE_KEY_SIZE);
        return hs_fail(ctx, HS_EINPUT,
                       "not a random key: its 32 bytes take only %d different values (a random "
                       "key has about 30); %s",
                       distinct, KEY_RULE);
    }
    return 0;
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
        rc = hs_fail(ctx, HS_EINPUT, "%s: not a key: longer than %d bytes; %s", path,
                     HS_KEY_FILE_MAX, KEY_RULE);
    else if ((rc = hs_secure_key_parse(ctx, buf, n, key)) != 0)
        rc = hs_fail(ctx, rc, "%s: %s", path, hs_ctx_message(ctx));
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
