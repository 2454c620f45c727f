/* Shared by the wire codec's files (not public). */
#ifndef HS_WIRE_IMPL_H
#define HS_WIRE_IMPL_H

#include "hysim/wire.h"

/* Records fault and sentence in st (NULL-safe). */
void hs_wire_status_set(hs_wire_status *st, hs_wire_fault fault, const char *fmt, ...)
    HS_PRINTF(3, 4);
/* Records success ("ok", fault NONE) without formatting: every frame's path calls it. */
void hs_wire_status_ok(hs_wire_status *st);
/* 1 when s[n] is well-formed UTF-8 (no overlongs, no surrogates, <= U+10FFFF) without NUL. */
int hs_wire_utf8_valid(const uint8_t *s, size_t n);
/* The longest prefix of the NUL-terminated s, at most max bytes, that ends on a UTF-8 character
 * boundary. */
size_t hs_wire_utf8_cut(const char *s, size_t max);

#endif
