/* Atomic file writing for the results writers: write a temporary next to the target, rename. */
#include "results_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int make_temp(hs_ctx *ctx, const char *path, hs_atomic_file *af, int *fd)
{
    memset(af, 0, sizeof *af);
    if (!path || !path[0]) return hs_fail(ctx, HS_EINVAL, "results: empty output path");
    size_t n = strlen(path);
    af->path = hs_strdup(path);
    af->tmp = hs_malloc(n + sizeof ".tmpXXXXXX");
    if (!af->path || !af->tmp) {
        hs_free(af->path);
        hs_free(af->tmp);
        memset(af, 0, sizeof *af);
        return hs_fail(ctx, HS_ENOMEM, "results: out of memory for '%s'", path);
    }
    memcpy(af->tmp, path, n);
    memcpy(af->tmp + n, ".tmpXXXXXX", sizeof ".tmpXXXXXX");
    *fd = mkstemp(af->tmp);
    if (*fd < 0) {
        int e = errno;
        hs_free(af->path);
        hs_free(af->tmp);
        memset(af, 0, sizeof *af);
        return hs_fail(ctx, HS_EIO, "%s: cannot create a file there: %s", path, strerror(e));
    }
    (void)fchmod(*fd, 0644); /* mkstemp makes 0600; results are ordinary readable files */
    return 0;
}

int hs_atomic_open(hs_ctx *ctx, const char *path, hs_atomic_file *af)
{
    int fd = -1;
    int rc = make_temp(ctx, path, af, &fd);
    if (rc) return rc;
    af->f = fdopen(fd, "w");
    if (!af->f) {
        int e = errno;
        close(fd);
        hs_atomic_finish(NULL, af, 1);
        return hs_fail(ctx, HS_EIO, "%s: cannot open for writing: %s", path, strerror(e));
    }
    return 0;
}

int hs_atomic_reserve(hs_ctx *ctx, const char *path, hs_atomic_file *af)
{
    int fd = -1;
    int rc = make_temp(ctx, path, af, &fd);
    if (rc) return rc;
    close(fd);
    return 0;
}

int hs_atomic_finish(hs_ctx *ctx, hs_atomic_file *af, int failed)
{
    int rc = 0;
    if (af->f) {
        if (ferror(af->f) || fflush(af->f) != 0) failed = failed ? failed : -1;
        if (fclose(af->f) != 0 && !failed) failed = -1;
        af->f = NULL;
        if (failed == -1)
            rc = hs_fail(ctx, HS_EIO, "%s: write failed: %s", af->path, strerror(errno));
    }
    if (!failed && af->tmp && rename(af->tmp, af->path) != 0) {
        rc = hs_fail(ctx, HS_EIO, "%s: cannot rename the temporary file into place: %s", af->path,
                     strerror(errno));
        failed = 1;
    }
    if (failed && af->tmp) remove(af->tmp);
    hs_free(af->path);
    hs_free(af->tmp);
    af->path = af->tmp = NULL;
    return failed && !rc ? HS_EIO : rc;
}
