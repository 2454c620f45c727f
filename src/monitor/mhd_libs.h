/* libmicrohttpd loaded when a monitor is first started (monitor_server.c, `--monitor`), not at
 * the program's start: Debian's libmicrohttpd12 brings gnutls and its nine libraries (nettle,
 * gmp, p11-kit, ...) (base/lazy_lib.h; bench/README.md, "Whole program"). monitor_server.c
 * includes mhd_libs_names.h after <microhttpd.h>, which routes its calls through this table. */
#ifndef HS_MHD_LIBS_H
#define HS_MHD_LIBS_H

#include "hysim/base.h"

#include <microhttpd.h>

#define HS_MHD_FUNCS(X)                                                                            \
    X(MHD_start_daemon)                                                                            \
    X(MHD_get_daemon_info)                                                                         \
    X(MHD_stop_daemon)                                                                             \
    X(MHD_lookup_connection_value)                                                                 \
    X(MHD_create_response_from_buffer)                                                             \
    X(MHD_create_response_from_callback)                                                           \
    X(MHD_add_response_header)                                                                     \
    X(MHD_queue_response)                                                                          \
    X(MHD_destroy_response)

#define HS_MHD_FN(f) __typeof__(f) *f;
typedef struct hs_mhd_api {
    HS_MHD_FUNCS(HS_MHD_FN)
} hs_mhd_api;
#undef HS_MHD_FN

/* filled once by hs_mhd_require */
extern hs_mhd_api hs_mhd;

/* Loads libmicrohttpd (once per process; HS_MHD_LIBRARY names another file): 0, or HS_EIO with a
 * message in ctx naming `what`, the library and what to install. */
int hs_mhd_require(hs_ctx *ctx, const char *what);

#endif
