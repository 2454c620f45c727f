/* One rule for every number hysim reads from a file (test and site files, ground-motion records
 * and their headers; docs/testfile.md, "Numbers"): decimal notation only, an optional sign, digits
 * with an optional decimal point, an optional exponent (1, -2.5, .5, 5., 1e-3, 2.5E+04).
 * Hexadecimal (0x1A, 0x1p3), inf, nan and decimal commas are refused with a sentence that says
 * so. Values too large for a double are refused; values too small for a normal double
 * (subnormals, down to 4.9e-324) are accepted; a non-zero value that would read as 0 is
 * refused as too small. */
#ifndef HS_NUMBER_H
#define HS_NUMBER_H

#include <stddef.h>

typedef enum {
    HS_NUM_OK = 0,
    HS_NUM_NOT_A_NUMBER, /* nothing decimal here, or text after the number */
    HS_NUM_HEX,          /* 0x... */
    HS_NUM_NOT_FINITE,   /* inf, nan */
    HS_NUM_TOO_LARGE,    /* beyond +-1.8e308 */
    HS_NUM_TOO_SMALL     /* non-zero, below 4.9e-324: it would read as 0 */
} hs_num_status;

/* Reads the number that starts at s (no leading blanks), stopping at the first character that
 * cannot continue it; *end (may be NULL) receives that position. HS_NUM_NOT_A_NUMBER when no
 * digit starts there. */
hs_num_status hs_number_scan(const char *s, const char **end, double *out);
/* The whole of s[0..n) must be one number. */
hs_num_status hs_number_parse(const char *s, size_t n, double *out);
/* 1 when s[0..n) starts with digits, a comma and a digit ("0,10", "-1,5"): a number written with
 * a decimal comma (or two values without a blank between them). */
int hs_decimal_comma(const char *s, size_t n);
/* What is wrong, for messages: "is not a number", "is a hexadecimal number: write numbers in
 * decimal", ... ("" for HS_NUM_OK). */
const char *hs_number_problem(hs_num_status st);

#endif
