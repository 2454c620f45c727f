/* A shared library loaded on first use instead of at the program's start (dlopen of the soname
 * the build linked against, each symbol found once into a table of pointers). The families that
 * use it: HDF5 and matio (src/results/results_libs.h), SuiteSparse (suitesparse_libs.h), ARPACK
 * (arpack_libs.h) and libmicrohttpd (src/monitor/mhd_libs.h); bench/README.md, "Whole program",
 * says what each costs at start-up. A family's header lists its names in an X-macro, declares the
 * table (pointers of the real declarations' types) and a require function; a *_names.h header,
 * included after the library's own header by the files that call it, routes each call through
 * the table. */
#ifndef HS_LAZY_LIB_H
#define HS_LAZY_LIB_H

#include "hysim/base.h"

#include <pthread.h>
#include <stddef.h>

typedef struct hs_lazy_lib {
    const char *label;  /* the library as a user knows it: "HDF5", "CHOLMOD", ... */
    const char *env;    /* an environment variable naming another file (tests, other installs) */
    const char *soname; /* the file the build linked against (CMake's HS_*_SONAME) */
    const char *const *names;
    void *const *slots; /* &table.member for each name: a function's or a variable's address */
    size_t count;
    pthread_mutex_t lock;
    int state;       /* 0 not tried, 1 loaded, -1 failed (not tried again) */
    char error[512]; /* why it failed: the file and dlerror(), or the missing symbol */
} hs_lazy_lib;

/* A static initializer: names and slots are arrays of the same length. */
#define HS_LAZY_LIB(label, env, soname, names, slots)                                              \
    {                                                                                              \
        label, env, soname, names, slots, sizeof(names) / sizeof((names)[0]),                      \
            PTHREAD_MUTEX_INITIALIZER, 0, ""                                                       \
    }

/* Loads the library and fills the table, once per process (thread-safe; kept loaded): 1 when
 * it is usable, 0 when not, with the reason in l->error. */
int hs_lazy_lib_load(hs_lazy_lib *l);

/* hs_lazy_lib_load, or HS_EIO with "WHAT: LABEL is needed and REASON: FIX" in ctx. */
int hs_lazy_lib_require(hs_ctx *ctx, hs_lazy_lib *l, const char *what, const char *fix);

#endif
