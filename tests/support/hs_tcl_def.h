/* Test definitions around OpenSees Tcl scripts written in the tests (test_opensees_tcl.c,
 * test_opensees_tcl3d.c): a file written into a test folder, a test file made of a fixed head,
 * a `structure:` body and a fixed tail (ground motion, newmark, 10 steps), and a script that
 * must fail with given phrases. Include after hs_test.h. */
#ifndef HS_TCL_DEF_H
#define HS_TCL_DEF_H

#include "hysim/hysim.h"

#include <stddef.h>

/* Writes `text` as dir/name (asserted). */
void hs_tcl_write_file(const char *dir, const char *name, const char *text);
/* Reads a file of at most 64 KiB (asserted); malloc'ed. */
char *hs_tcl_read_file(const char *path);
/* Loads dir/name.yaml written from the head, `body` and the tail; NULL with the message in msg on
 * error (msg NULL: the message goes to stderr). */
hs_test_def *hs_tcl_load(hs_ctx *ctx, const char *dir, const char *name, const char *body,
                         char *msg, size_t cap);
/* The script `tcl` as dir/frame.tcl must fail to load with a message containing each of want[]. */
void hs_tcl_fails(hs_ctx *ctx, const char *dir, const char *tcl, const char *const *want, int n);

#define HS_TCL_FAILS(tcl, ...)                                                                     \
    do {                                                                                           \
        static const char *const w_[] = {__VA_ARGS__};                                             \
        hs_tcl_fails(ctx, dir, tcl, w_, (int)(sizeof w_ / sizeof w_[0]));                          \
    } while (0)

#endif
