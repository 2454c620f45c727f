/* Doubles as text at full precision (number_text.c). */
#ifndef HS_NUMBER_TEXT_H
#define HS_NUMBER_TEXT_H

#include <stddef.h>

#define HS_NUMBER_TEXT_MAX 32 /* bytes of the longest text, its NUL included */

/* Writes x into out (HS_NUMBER_TEXT_MAX bytes) exactly as printf("%.17g", x) would: 17
 * significant digits, which read back (strtod) to the same double; returns the length. */
size_t hs_number_text(double x, char *out);

/* Writes x into out (HS_NUMBER_TEXT_MAX bytes) exactly as printf("%.*g", digits, x) would, for
 * digits up to 17 (more: snprintf's text, which may be cut at HS_NUMBER_TEXT_MAX - 1 bytes);
 * returns the length. */
size_t hs_number_text_g(double x, int digits, char *out);

#endif
