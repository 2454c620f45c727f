/* HDF5 and matio on first use (results_libs.h): dlopen of the library the build linked against
 * (its soname, HS_HDF5_SONAME / HS_MATIO_SONAME from CMake), each symbol found once. */
#include "results_libs.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef HS_HDF5_SONAME
#define HS_HDF5_SONAME "libhdf5_serial.so.103"
#endif
#ifndef HS_MATIO_SONAME
#define HS_MATIO_SONAME "libmatio.so.11"
#endif

hs_h5_api hs_h5;
hs_mat_api hs_mat;

typedef struct hs_lib_load {
    pthread_once_t once;
    int ok;
    char error[512]; /* why it failed: the file and dlerror() */
} hs_lib_load;

static hs_lib_load h5_load = {PTHREAD_ONCE_INIT, 0, ""};
static hs_lib_load mat_load = {PTHREAD_ONCE_INIT, 0, ""};

/* dlopen of the library named by env (when set) or by soname; each name's symbol into *slots[k]
 * (a function or a variable's address: both are pointers here). 1 on success, else 0 with the
 * reason in l->error. */
static int load_lib(hs_lib_load *l, const char *env, const char *soname, const char *const *names,
                    void *const *slots, size_t count)
{
    const char *file = getenv(env);
    if (!file || !file[0]) file = soname;
    /* as at start-up: functions bound when called */
    void *h = dlopen(file, RTLD_LAZY | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(l->error, sizeof l->error, "cannot load %s (%s)", file, e ? e : "dlopen failed");
        return 0;
    }
    /* the process's own definition first: a program linked with the library itself (the tests
     * that read results.h5 back) holds copies of its global variables (H5T_NATIVE_DOUBLE_g, ...,
     * copy relocations) that the library's H5open fills, not the library's originals */
    void *self = dlopen(NULL, RTLD_LAZY);
    for (size_t k = 0; k < count; k++) {
        dlerror();
        void *p = self ? dlsym(self, names[k]) : NULL;
        if (!p) p = dlsym(h, names[k]);
        if (!p) {
            snprintf(l->error, sizeof l->error, "%s has no symbol %s", file, names[k]);
            if (self) dlclose(self);
            dlclose(h);
            return 0;
        }
        memcpy(slots[k], &p, sizeof p); /* object pointer into a function or data pointer */
    }
    if (self) dlclose(self);
    return 1; /* kept loaded for the process's life */
}

#define HS_LIBS_NAME(f)     #f,
#define HS_LIBS_SLOT_H5(f)  (void *)&hs_h5.f,
#define HS_LIBS_SLOT_MAT(f) (void *)&hs_mat.f,

static void h5_init(void)
{
    static const char *const names[] = {HS_H5_FUNCS(HS_LIBS_NAME) HS_H5_VARS(HS_LIBS_NAME)};
    void *const slots[] = {HS_H5_FUNCS(HS_LIBS_SLOT_H5) HS_H5_VARS(HS_LIBS_SLOT_H5)};
    h5_load.ok = load_lib(&h5_load, "HS_HDF5_LIBRARY", HS_HDF5_SONAME, names, slots,
                          sizeof names / sizeof names[0]);
}

static void mat_init(void)
{
    static const char *const names[] = {HS_MAT_FUNCS(HS_LIBS_NAME)};
    void *const slots[] = {HS_MAT_FUNCS(HS_LIBS_SLOT_MAT)};
    mat_load.ok = load_lib(&mat_load, "HS_MATIO_LIBRARY", HS_MATIO_SONAME, names, slots,
                           sizeof names / sizeof names[0]);
}

int hs_h5_require(hs_ctx *ctx, const char *what, char *err, size_t errlen)
{
    pthread_once(&h5_load.once, h5_init);
    if (h5_load.ok) return 0;
    static const char fix[] = "install Debian's HDF5 runtime library (libhdf5-103-1, as "
                              "scripts/install-deps.sh does) or set HS_HDF5_LIBRARY to its file";
    if (ctx) return hs_fail(ctx, HS_EIO, "%s: HDF5 is needed and %s: %s", what, h5_load.error, fix);
    if (err && errlen) snprintf(err, errlen, "HDF5 is needed and %s: %s", h5_load.error, fix);
    return HS_EIO;
}

int hs_mat_require(hs_ctx *ctx, const char *what)
{
    pthread_once(&mat_load.once, mat_init);
    if (mat_load.ok) return 0;
    return hs_fail(ctx, HS_EIO,
                   "%s: matio is needed and %s: install Debian's libmatio11 (as "
                   "scripts/install-deps.sh does), set HS_MATIO_LIBRARY to its file, or leave "
                   "output.mat off",
                   what, mat_load.error);
}

static void *preload_main(void *arg)
{
    (void)arg;
    pthread_once(&h5_load.once, h5_init);
    pthread_once(&mat_load.once, mat_init);
    return NULL;
}

static void preload_start(void)
{
    pthread_attr_t attr;
    pthread_t thread;
    if (pthread_attr_init(&attr) != 0) return; /* the writers load them when they need them */
    if (pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0)
        (void)pthread_create(&thread, &attr, preload_main, NULL);
    pthread_attr_destroy(&attr);
}

void hs_results_libs_preload(void)
{
    static pthread_once_t started = PTHREAD_ONCE_INIT; /* one thread per process */
    pthread_once(&started, preload_start);
}
