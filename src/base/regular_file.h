/* Opening an input file for reading: only a regular file is read, so a FIFO, a device or a folder
 * given by mistake is refused at once instead of hanging the program or reading without end.
 * Private to the library. */
#ifndef HS_REGULAR_FILE_H
#define HS_REGULAR_FILE_H

#include "hysim/base.h"

#include <stdio.h>

/* Opens path read-only without blocking (a FIFO opens at once), checks that it is a regular file
 * and returns its descriptor in *fd (blocking again) and its size in *size (may be NULL).
 * Errors, in ctx, name the path and the truth: HS_EIO "cannot open: " and errno's sentence (No
 * such file or directory, Too many levels of symbolic links, ...), HS_EINPUT "is a FIFO (named
 * pipe), not a regular file". */
int hs_open_regular(hs_ctx *ctx, const char *path, int *fd, uint64_t *size);
/* The same as a stdio stream ("rb"). */
int hs_fopen_regular(hs_ctx *ctx, const char *path, FILE **f, uint64_t *size);
/* "a FIFO", "a folder", "a device", ... for a st_mode. */
const char *hs_file_kind(unsigned mode);

#endif
