/* Input files are regular files (regular_file.h). */
#include "regular_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *hs_file_kind(unsigned mode)
{
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISLNK(mode)) return "a symbolic link";
    return S_ISREG(mode) ? "a regular file" : "not a regular file";
}

int hs_open_regular(hs_ctx *ctx, const char *path, int *fd, uint64_t *size)
{
    *fd = -1;
    const int f = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (f < 0) return hs_fail(ctx, HS_EIO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(f, &st) != 0) {
        const int e = errno;
        close(f);
        return hs_fail(ctx, HS_EIO, "%s: cannot read its status: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(f);
        return hs_fail(ctx, HS_EINPUT, "%s: is %s, not a regular file: give a file", path,
                       hs_file_kind((unsigned)st.st_mode));
    }
    const int flags = fcntl(f, F_GETFL);
    if (flags >= 0) (void)fcntl(f, F_SETFL, flags & ~O_NONBLOCK);
    *fd = f;
    if (size) *size = (uint64_t)st.st_size;
    return 0;
}

int hs_fopen_regular(hs_ctx *ctx, const char *path, FILE **out, uint64_t *size)
{
    *out = NULL;
    int fd = -1;
    int rc = hs_open_regular(ctx, path, &fd, size);
    if (rc) return rc;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return hs_fail(ctx, HS_ENOMEM, "%s: cannot open: %s", path, strerror(errno));
    }
    *out = f;
    return 0;
}
