/* HDF5 and matio loaded when a writer or reader first needs them (dlopen), not at the program's
 * start: `hysim --version`, `check`, a site or a plant never load them, and a run loads them on a
 * background thread while it builds its model and steps (hs_results_libs_preload). Debian's HDF5
 * brings libcurl, gnutls, Kerberos and LDAP: about half of the 61 libraries and of the dynamic
 * loader's start-up (bench/README.md, "Whole program"). The files that call them include
 * results_libs_names.h after <hdf5.h> / <matio.h>, which turns each call into one through these
 * tables, after hs_h5_require / hs_mat_require has succeeded. */
#ifndef HS_RESULTS_LIBS_H
#define HS_RESULTS_LIBS_H

#include "hysim/base.h"
#include "hysim/results.h"

#include <hdf5.h>
#include <matio.h>

/* the HDF5 functions and global identifiers (H5T_NATIVE_DOUBLE, ... read them) that hysim uses */
#define HS_H5_FUNCS(X)                                                                             \
    X(H5open)                                                                                      \
    X(H5check_version)                                                                             \
    X(H5free_memory)                                                                               \
    X(H5Aclose)                                                                                    \
    X(H5Acreate2)                                                                                  \
    X(H5Aexists)                                                                                   \
    X(H5Aget_space)                                                                                \
    X(H5Aget_type)                                                                                 \
    X(H5Aopen)                                                                                     \
    X(H5Aread)                                                                                     \
    X(H5Awrite)                                                                                    \
    X(H5Dclose)                                                                                    \
    X(H5Dcreate2)                                                                                  \
    X(H5Dget_space)                                                                                \
    X(H5Dget_type)                                                                                 \
    X(H5Dopen2)                                                                                    \
    X(H5Dread)                                                                                     \
    X(H5Dwrite)                                                                                    \
    X(H5Eget_auto2)                                                                                \
    X(H5Eset_auto2)                                                                                \
    X(H5Fclose)                                                                                    \
    X(H5Fcreate)                                                                                   \
    X(H5Fis_hdf5)                                                                                  \
    X(H5Fopen)                                                                                     \
    X(H5Gclose)                                                                                    \
    X(H5Gcreate2)                                                                                  \
    X(H5Gopen2)                                                                                    \
    X(H5Lexists)                                                                                   \
    X(H5Pclose)                                                                                    \
    X(H5Pcreate)                                                                                   \
    X(H5Pset_buffer)                                                                               \
    X(H5Pset_libver_bounds)                                                                        \
    X(H5Sclose)                                                                                    \
    X(H5Screate)                                                                                   \
    X(H5Screate_simple)                                                                            \
    X(H5Sget_simple_extent_dims)                                                                   \
    X(H5Sget_simple_extent_ndims)                                                                  \
    X(H5Sget_simple_extent_npoints)                                                                \
    X(H5Tclose)                                                                                    \
    X(H5Tcopy)                                                                                     \
    X(H5Tget_class)                                                                                \
    X(H5Tget_cset)                                                                                 \
    X(H5Tget_size)                                                                                 \
    X(H5Tis_variable_str)                                                                          \
    X(H5Tset_cset)                                                                                 \
    X(H5Tset_size)                                                                                 \
    X(H5Tset_strpad)
#define HS_H5_VARS(X)                                                                              \
    X(H5T_NATIVE_DOUBLE_g)                                                                         \
    X(H5T_NATIVE_INT_g)                                                                            \
    X(H5T_NATIVE_LLONG_g)                                                                          \
    X(H5T_C_S1_g)                                                                                  \
    X(H5P_CLS_FILE_ACCESS_ID_g)                                                                    \
    X(H5P_CLS_DATASET_XFER_ID_g)
#define HS_MAT_FUNCS(X)                                                                            \
    X(Mat_Close)                                                                                   \
    X(Mat_CreateVer)                                                                               \
    X(Mat_VarAddStructField)                                                                       \
    X(Mat_VarCreate)                                                                               \
    X(Mat_VarCreateStruct)                                                                         \
    X(Mat_VarFree)                                                                                 \
    X(Mat_VarGetNumberOfFields)                                                                    \
    X(Mat_VarGetStructFieldByIndex)                                                                \
    X(Mat_VarGetStructFieldByName)                                                                 \
    X(Mat_VarGetStructFieldnames)                                                                  \
    X(Mat_VarSetCell)                                                                              \
    X(Mat_VarSetStructFieldByName)                                                                 \
    X(Mat_VarWrite)

#define HS_LIBS_FN(f)  __typeof__(f) *f;
#define HS_LIBS_VAR(v) __typeof__(v) *v;
typedef struct hs_h5_api {
    HS_H5_FUNCS(HS_LIBS_FN)
    HS_H5_VARS(HS_LIBS_VAR)
} hs_h5_api;
typedef struct hs_mat_api {
    HS_MAT_FUNCS(HS_LIBS_FN)
} hs_mat_api;
#undef HS_LIBS_FN
#undef HS_LIBS_VAR

/* filled once by hs_h5_require / hs_mat_require */
extern hs_h5_api hs_h5;
extern hs_mat_api hs_mat;

/* Loads the library (once per process; HS_HDF5_LIBRARY / HS_MATIO_LIBRARY name another file):
 * 0, or HS_EIO with a message in ctx (ctx NULL: in err[errlen] when err is not NULL) naming
 * `what` (the file being written or read), the library and what to install. */
int hs_h5_require(hs_ctx *ctx, const char *what, char *err, size_t errlen);
int hs_mat_require(hs_ctx *ctx, const char *what);

#endif
