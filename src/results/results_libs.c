/* HDF5 and matio on first use (results_libs.h): dlopen of the library the build linked against
 * (its soname, HS_HDF5_SONAME / HS_MATIO_SONAME from CMake; base/lazy_lib.h), each symbol found
 * once. */
#include "results_libs.h"

#include "base/lazy_lib.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef HS_HDF5_SONAME
#define HS_HDF5_SONAME "libhdf5_serial.so.103"
#endif
#ifndef HS_MATIO_SONAME
#define HS_MATIO_SONAME "libmatio.so.11"
#endif

hs_h5_api hs_h5;
hs_mat_api hs_mat;

#define HS_LIBS_NAME(f)     #f,
#define HS_LIBS_SLOT_H5(f)  (void *)&hs_h5.f,
#define HS_LIBS_SLOT_MAT(f) (void *)&hs_mat.f,

static const char *const h5_names[] = {HS_H5_FUNCS(HS_LIBS_NAME) HS_H5_VARS(HS_LIBS_NAME)};
static void *const h5_slots[] = {HS_H5_FUNCS(HS_LIBS_SLOT_H5) HS_H5_VARS(HS_LIBS_SLOT_H5)};
static hs_lazy_lib h5_lib =
    HS_LAZY_LIB("HDF5", "HS_HDF5_LIBRARY", HS_HDF5_SONAME, h5_names, h5_slots);
static const char *const mat_names[] = {HS_MAT_FUNCS(HS_LIBS_NAME)};
static void *const mat_slots[] = {HS_MAT_FUNCS(HS_LIBS_SLOT_MAT)};
static hs_lazy_lib mat_lib =
    HS_LAZY_LIB("matio", "HS_MATIO_LIBRARY", HS_MATIO_SONAME, mat_names, mat_slots);

int hs_h5_require(hs_ctx *ctx, const char *what, char *err, size_t errlen)
{
    static const char fix[] = "install Debian's HDF5 runtime library (libhdf5-103-1, as "
                              "scripts/install-deps.sh does) or set HS_HDF5_LIBRARY to its file";
    if (hs_lazy_lib_load(&h5_lib)) return 0;
    if (ctx) return hs_lazy_lib_require(ctx, &h5_lib, what, fix);
    if (err && errlen) snprintf(err, errlen, "HDF5 is needed and %s: %s", h5_lib.error, fix);
    return HS_EIO;
}

int hs_mat_require(hs_ctx *ctx, const char *what)
{
    return hs_lazy_lib_require(ctx, &mat_lib, what,
                               "install Debian's libmatio11 (as scripts/install-deps.sh does), "
                               "set HS_MATIO_LIBRARY to its file, or leave output.mat off");
}

static void *preload_main(void *arg)
{
    (void)arg;
    hs_lazy_lib_load(&h5_lib);
    hs_lazy_lib_load(&mat_lib);
    return NULL;
}

static pthread_t preload_thread;

/* exit() must not run the libraries' destructors while the preload is inside dlopen (a run
 * shorter than HDF5's loading ended in "double free or corruption", about 1 in 75 runs of a
 * 5 ms script): the process waits for it first. */
static void preload_join(void)
{
    (void)pthread_join(preload_thread, NULL);
}

static void preload_start(void)
{
    if (pthread_create(&preload_thread, NULL, preload_main, NULL) == 0)
        (void)atexit(preload_join); /* else the writers load them when they need them */
}

void hs_results_libs_preload(void)
{
    static pthread_once_t started = PTHREAD_ONCE_INIT; /* one thread per process */
    pthread_once(&started, preload_start);
}
