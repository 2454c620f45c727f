/* What the tests read back from a run's folder: a fresh folder, the figures `hysim plot` draws in
 * it, HDF5 datasets and their attributes. Every reader asserts what it checks. Include after
 * hs_test.h. */
#ifndef HS_OUTPUT_H
#define HS_OUTPUT_H

#include <hdf5.h>
#include <stddef.h>

/* A fresh folder "<HS_BINARY_DIR, or /tmp>/<prefix>_XXXXXX", written into dir (len bytes). */
void hs_test_make_dir(char *dir, size_t len, const char *prefix);
/* Removes the folder and its files, unless HS_KEEP_OUTPUT is set (to look at the figures). */
void hs_test_remove_dir(const char *dir);
/* 1 when dir/name is a PNG image of more than 1000 bytes, else 0. */
int hs_test_is_png(const char *dir, const char *name);
/* Runs `hysim plot dir` through HS_CLI and asserts it succeeds: 1; 0 when HS_CLI or gnuplot is
 * absent (said on stdout, nothing drawn). */
int hs_test_plot(const char *dir);

/* String attribute `name` of loc, copied into out (len bytes). */
void hs_h5_string(hid_t loc, const char *name, char *out, size_t len);
/* The string array attribute `name` of loc has n (at most 16) entries, equal to want. */
void hs_h5_names(hid_t loc, const char *name, const char *const *want, int n);
/* Dataset `name` of rows x cols doubles (cols = 0: a 1-D dataset of rows), its shape and its
 * "units" attribute checked. calloc'ed with one spare element; free() it. */
double *hs_h5_read(hid_t file, const char *name, hsize_t rows, hsize_t cols, const char *units);

#endif
