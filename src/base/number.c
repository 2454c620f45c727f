/* Decimal numbers only (number.h): the text is checked against the grammar first, then converted
 * by strtod, so no other notation strtod knows (hex, inf, nan) can slip through. */
#include "number.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The length of the decimal number at s (0: none). */
static size_t decimal_length(const char *s)
{
    size_t i = 0, digits = 0;
    if (s[i] == '+' || s[i] == '-') i++;
    while (digit(s[i])) i++, digits++;
    if (s[i] == '.') {
        i++;
        while (digit(s[i])) i++, digits++;
    }
    if (!digits) return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1;
        if (s[j] == '+' || s[j] == '-') j++;
        if (digit(s[j])) {
            while (digit(s[j])) j++;
            i = j;
        }
    }
    return i;
}

hs_num_status hs_number_scan(const char *s, const char **end, double *out)
{
    if (end) *end = s;
    const size_t n = decimal_length(s);
    const char *p = s + (s[0] == '+' || s[0] == '-');
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) return HS_NUM_HEX;
    if (n == 0) {
        const char c = (char)(p[0] | 0x20);
        return (c == 'i' || c == 'n') ? HS_NUM_NOT_FINITE : HS_NUM_NOT_A_NUMBER;
    }
    /* after a decimal prefix strtod can only stop where the grammar did: what it reads past
     * it (hex, inf, nan) was refused above */
    errno = 0;
    char *stop = NULL;
    const double v = strtod(s, &stop);
    const int range = errno == ERANGE;
    if (stop != s + n) return HS_NUM_NOT_A_NUMBER;
    if (end) *end = s + n;
    if (range && fabs(v) > 1.0) return HS_NUM_TOO_LARGE;
    if (!isfinite(v)) return HS_NUM_TOO_LARGE;
    if (v == 0.0) { /* zero, or a non-zero below the smallest subnormal? */
        for (const char *q = p; q < s + n && *q != 'e' && *q != 'E'; q++)
            if (*q >= '1' && *q <= '9') return HS_NUM_TOO_SMALL;
    }
    *out = v; /* subnormals (ERANGE with a non-zero result) are finite numbers */
    return HS_NUM_OK;
}

hs_num_status hs_number_parse(const char *s, size_t n, double *out)
{
    if (n == 0 || strlen(s) < n) return HS_NUM_NOT_A_NUMBER;
    const char *end = NULL;
    double v = 0.0;
    const hs_num_status st = hs_number_scan(s, &end, &v);
    if (st != HS_NUM_OK) return st;
    if (end != s + n) {
        /* "0,5" or "1.5x": the number does not fill the text */
        return HS_NUM_NOT_A_NUMBER;
    }
    *out = v;
    return HS_NUM_OK;
}

int hs_decimal_comma(const char *s, size_t n)
{
    size_t i = (n > 0 && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    const size_t first = i;
    while (i < n && digit(s[i])) i++;
    return i > first && i + 1 < n && s[i] == ',' && digit(s[i + 1]);
}

const char *hs_number_problem(hs_num_status st)
{
    switch (st) {
    case HS_NUM_OK:
        return "";
    case HS_NUM_HEX:
        return "is a hexadecimal number: hysim reads decimal numbers only (e.g. 26, 0.5, 1e-3)";
    case HS_NUM_NOT_FINITE:
        return "is not a finite number";
    case HS_NUM_TOO_LARGE:
        return "is too large for a double (beyond 1.8e308)";
    case HS_NUM_TOO_SMALL:
        return "is too small for a double (below 4.9e-324, it would read as 0): write 0";
    default:
        return "is not a number";
    }
}
