/* Pre-shared keys: parse (64 hex digits, whitespace around them allowed; nothing else: the raw
 * 32-byte form of earlier versions took 32 newlines for a key), read from a key file, generate.
 * A key that a person made rather than a random source is refused (not_random). */
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

/* Tests that 32 bytes from a random source pass except with a negligible probability, and that
 * keys made by hand fail. Fewer than 16 distinct values among the bytes (a repeated byte, a short
 * pattern) or among the 31 steps between successive bytes, mod 256 (a counter such as 00 01 .. 1f,
 * any arithmetic sequence): 32 (31) uniformly random bytes show 30.1 (29.3) distinct values on
 * average, fewer than 16 with probability 3.2e-17 (4.6e-16; the steps of uniform bytes are
 * themselves uniform and independent). All bytes printable ASCII (a pass phrase written out in
 * hex): probability (95/256)^32 = 1.7e-14. A block of p <= 16 bytes repeated: 256^-(32-p). */
#define KEY_MIN_DISTINCT 16

static int distinct_values(const uint8_t *v, int n)
{
    uint8_t seen[256] = {0};
    int distinct = 0;
    for (int i = 0; i < n; i++) distinct += !seen[v[i]]++;
    sodium_memzero(seen, sizeof seen);
    return distinct;
}

/* NULL for a key that looks random, else why it does not (a sentence for the refusal). */
static const char *not_random(const uint8_t key[HS_SECURE_KEY_SIZE], char *why, size_t size)
{
    const int n = HS_SECURE_KEY_SIZE;
    uint8_t step[HS_SECURE_KEY_SIZE - 1];
    for (int i = 0; i + 1 < n; i++) step[i] = (uint8_t)(key[i + 1] - key[i]);
    const int values = distinct_values(key, n), steps = distinct_values(step, n - 1);
    sodium_memzero(step, sizeof step);
    int printable = 1, period = 0;
    for (int i = 0; i < n; i++) printable &= key[i] >= 0x20 && key[i] < 0x7f;
    for (int p = 1; p <= n / 2 && !period; p++) {
        int same = 1;
        for (int i = 0; i + p < n; i++) same &= key[i] == key[i + p];
        if (same) period = p;
    }
    if (values < KEY_MIN_DISTINCT)
        snprintf(why, size,
                 "its 32 bytes take only %d different values (a random key has about 30)", values);
    else if (steps < KEY_MIN_DISTINCT)
        snprintf(why, size,
                 "the steps between its successive bytes take only %d different values (a "
                 "counter or a sequence; a random key has about 29)",
                 steps);
    else if (printable)
        snprintf(why, size, "its 32 bytes are all printable ASCII characters (text, not random)");
    else if (period)
        snprintf(why, size, "it repeats a block of %d bytes", period);
    else
        return NULL;
    return why;
}

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
    char why[160];
    if (not_random(key, why, sizeof why)) {
        sodium_memzero(key, HS_SECURE_KEY_SIZE);
        return hs_fail(ctx, HS_EINPUT, "not a random key: %s; %s", why, KEY_RULE);
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
