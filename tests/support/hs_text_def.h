/* Test definitions from YAML text written in the tests: loading a good one, editing it, and
 * tables of bad ones that must each fail at an exact place with a message naming the problem.
 * Include after hs_test.h. */
#ifndef HS_TEXT_DEF_H
#define HS_TEXT_DEF_H

#include "hysim/hysim.h"

#include <stddef.h>

/* Loads `text` as file `name`; asserts it loads (printing the message when it does not). */
hs_test_def *hs_test_load_text(hs_ctx *ctx, const char *text, const char *name);

/* `text` with the first `find` replaced by `replace` (asserted present). malloc'ed. */
char *hs_test_substitute(const char *text, const char *find, const char *replace);

/* A bad file: a base text with `find` replaced by `replace` (find = NULL: the text is `replace`
 * alone), expected to fail with HS_EINPUT and a message that starts "NAME:WHERE: " and
 * contains `phrase`. */
typedef struct hs_bad_case {
    const char *find, *replace;
    const char *where; /* "LINE:COL" */
    const char *phrase;
} hs_bad_case;

/* Loads every case of the table as file `name` and returns how many did not fail as expected
 * (each printed with what it gave). */
int hs_test_bad_cases(hs_ctx *ctx, const char *base, const char *name, const hs_bad_case *cases,
                      size_t ncases);

/* `base` up to its first `marker` line, then `marker` and `tail`, loaded as bad.yaml: asserts
 * HS_EINPUT and a message with "bad.yaml:LINE:" that contains `phrase` (printed). */
void hs_test_refused_tail(const char *base, const char *marker, const char *tail, int line,
                          const char *phrase);

#endif
