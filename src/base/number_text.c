/* Doubles as text with P significant digits (1 to 17), the same characters as printf("%.Pg")
 * (with 17, text that reads back to the same double), without printf's arbitrary-precision
 * arithmetic: where x 10^(P - 1 - floor(log10 |x|)) needs a power of ten from 10^0 to 10^27
 * (17 digits: |x| in [1e-11, 1e17)) the digits come from one exact 53 x 64-bit product in 128
 * bits, x = m 2^e so that x 10^q = m 5^q 2^(e+q), rounded half to even like printf; other values
 * (zero, subnormal, huge, tiny, NaN, infinite, more than 17 digits) go to snprintf. */
#include "number_text.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

__extension__ typedef unsigned __int128 hs_u128;

#define HS_Q_MAX 27 /* 5^27 < 2^63: m 5^q < 2^116 */

static const uint64_t hs_pow5[HS_Q_MAX + 1] = {1ull,
                                               5ull,
                                               25ull,
                                               125ull,
                                               625ull,
                                               3125ull,
                                               15625ull,
                                               78125ull,
                                               390625ull,
                                               1953125ull,
                                               9765625ull,
                                               48828125ull,
                                               244140625ull,
                                               1220703125ull,
                                               6103515625ull,
                                               30517578125ull,
                                               152587890625ull,
                                               762939453125ull,
                                               3814697265625ull,
                                               19073486328125ull,
                                               95367431640625ull,
                                               476837158203125ull,
                                               2384185791015625ull,
                                               11920928955078125ull,
                                               59604644775390625ull,
                                               298023223876953125ull,
                                               1490116119384765625ull,
                                               7450580596923828125ull};

#define HS_E16 10000000000000000ull
#define HS_E17 100000000000000000ull

/* round(m 2^e 10^q), half to even; 0 when q is outside [0, HS_Q_MAX] (the caller falls back). */
static uint64_t scaled(uint64_t m, int e, int q)
{
    if (q < 0 || q > HS_Q_MAX) return 0;
    const hs_u128 a = (hs_u128)m * hs_pow5[q];
    const int sh = e + q;
    if (sh >= 0) return sh < 8 ? (uint64_t)(a << sh) : 0; /* |x| < 1e17: tiny shifts only */
    const int s = -sh;
    if (s >= 120) return 0;
    const hs_u128 n = a >> s, rem = a - (n << s), half = (hs_u128)1 << (s - 1);
    uint64_t r = (uint64_t)n;
    if (rem > half || (rem == half && (r & 1u))) r++;
    return r;
}

static size_t fallback(double x, int digits, char *out)
{
    int len = snprintf(out, HS_NUMBER_TEXT_MAX, "%.*g", digits, x);
    return len > 0 ? (size_t)len : 0;
}

/* Drops trailing zeros of digits[0..n) but keeps at least `keep` of them; the new length. */
static int trim(const char *digits, int n, int keep)
{
    while (n > keep && digits[n - 1] == '0') n--;
    return n;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The 8 decimal digits of v < 10^8 into out[0..8), most significant first, without a loop: the
 * two 4-digit halves in two 32-bit lanes, each split by 100 into two 16-bit lanes, each of those
 * by 10 into two bytes (a / 100 = a 10486 >> 20 for a < 10^4, a / 10 = a 103 >> 10 for a < 100,
 * exact; the lanes never carry into each other), then ASCII. Little-endian: the lowest byte is
 * the first character. */
static void digits8(uint32_t v, char *out)
{
    const uint64_t halves = (uint64_t)(v / 10000u) | ((uint64_t)(v % 10000u) << 32);
    const uint64_t hundreds = ((halves * 10486u) >> 20) & 0x0000007f0000007full;
    const uint64_t pairs = hundreds | ((halves - 100u * hundreds) << 16);
    const uint64_t tens = ((pairs * 103u) >> 10) & 0x000f000f000f000full;
    const uint64_t chars = (tens | ((pairs - 10u * tens) << 8)) + 0x3030303030303030ull;
    memcpy(out, &chars, 8);
}
#else
/* "00" .. "99" */
static const char hs_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* The 8 decimal digits of v < 10^8 into out[0..8), most significant first. */
static void digits8(uint32_t v, char *out)
{
    for (int i = 6; i >= 0; i -= 2) {
        memcpy(out + i, hs_pairs + 2u * (v % 100u), 2);
        v /= 100u;
    }
}
#endif

/* 10^k, k = 0 .. 17 */
static const uint64_t hs_pow10[18] = {1ull,
                                      10ull,
                                      100ull,
                                      1000ull,
                                      10000ull,
                                      100000ull,
                                      1000000ull,
                                      10000000ull,
                                      100000000ull,
                                      1000000000ull,
                                      10000000000ull,
                                      100000000000ull,
                                      1000000000000ull,
                                      10000000000000ull,
                                      100000000000000ull,
                                      1000000000000000ull,
                                      HS_E16,
                                      HS_E17};

size_t hs_number_text_g(double x, int P, char *out)
{
    if (P < 1) P = 1; /* as printf: a precision of 0 is 1 */
    if (P > 17) return fallback(x, P, out);
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    const int bexp = (int)((bits >> 52) & 0x7ffu);
    if (bexp == 0 || bexp == 0x7ff) return fallback(x, P, out); /* zero, subnormal, inf, NaN */
    const uint64_t m = (bits & ((1ull << 52) - 1u)) | (1ull << 52);
    const int e = bexp - 1075; /* x = m 2^e */
    const uint64_t lo = hs_pow10[P - 1], hi = hs_pow10[P];
    /* floor(log10 |x|) or one less: floor((bexp - 1023) log10 2), 1233 / 4096 ~ log10 2, the
     * offset keeps the shifted value positive */
    int p = (((bexp - 1023 + 4096) * 1233) >> 12) - 1233;
    uint64_t n = scaled(m, e, P - 1 - p);
    for (int fix = 0; fix < 2 && n; fix++) { /* into [10^(P-1), 10^P) */
        if (n >= hi)
            n = scaled(m, e, P - 1 - ++p);
        else if (n < lo)
            n = scaled(m, e, P - 1 - --p);
    }
    if (n >= hi) { /* rounded up to 10^P: one digit fewer, the next decade */
        n /= 10u;
        p++;
    }
    if (n < lo || n >= hi) return fallback(x, P, out);
    n *= hs_pow10[17 - P]; /* the P digits followed by zeros, which %g drops */

    char digits[18]; /* 17 digits: 9 from the high part, 8 from the low one */
    const uint32_t high = (uint32_t)(n / 100000000u), low = (uint32_t)(n % 100000000u);
    digits[0] = (char)('0' + high / 100000000u);
    digits8(high % 100000000u, digits + 1);
    digits8(low, digits + 9);
    char *o = out;
    if (bits >> 63) *o++ = '-';
    if (p >= -4 && p < P) { /* %f style, p + 1 digits before the point */
        if (p >= 0) {
            memcpy(o, digits, (size_t)p + 1u);
            o += p + 1;
            const int frac = trim(digits + p + 1, 16 - p, 0);
            if (frac > 0) {
                *o++ = '.';
                memcpy(o, digits + p + 1, (size_t)frac);
                o += frac;
            }
        } else {
            *o++ = '0';
            *o++ = '.';
            for (int i = 0; i < -p - 1; i++) *o++ = '0';
            const int len = trim(digits, 17, 1);
            memcpy(o, digits, (size_t)len);
            o += len;
        }
    } else { /* %e style */
        *o++ = digits[0];
        const int frac = trim(digits + 1, 16, 0);
        if (frac > 0) {
            *o++ = '.';
            memcpy(o, digits + 1, (size_t)frac);
            o += frac;
        }
        *o++ = 'e';
        *o++ = p < 0 ? '-' : '+';
        const int ap = p < 0 ? -p : p;
        if (ap >= 100) *o++ = (char)('0' + ap / 100);
        *o++ = (char)('0' + (ap / 10) % 10);
        *o++ = (char)('0' + ap % 10);
    }
    *o = '\0';
    return (size_t)(o - out);
}

size_t hs_number_text(double x, char *out)
{
    return hs_number_text_g(x, 17, out);
}
