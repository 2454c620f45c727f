/* A run's folder: created, locked (flock on the folder itself, so nothing is left behind), checked
 * for an earlier run's files and probed before the first step (include/hysim/run_folder.h). */
#include "coordinator_impl.h"

#include "hysim/checkpoint.h"
#include "hysim/run_folder.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define HS_RF_PROBE       ".hysim-probe.tmp"
#define HS_RF_PROBE_BYTES 65536u

struct hs_run_folder {
    int fd; /* the folder, locked */
};

const char *const hs_run_folder_files[] = {HS_CHECKPOINT_FILE,
                                           HS_CHECKPOINT_FILE ".tmp",
                                           HS_CHECKPOINT_RECORDS,
                                           "summary.json",
                                           "response.csv",
                                           "results.h5",
                                           NULL};

/* The run files present in the folder, comma-separated into list; their count. */
static int present(int fd, char *list, size_t cap)
{
    int n = 0;
    list[0] = '\0';
    for (const char *const *f = hs_run_folder_files; *f; f++) {
        struct stat st;
        if (fstatat(fd, *f, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
        const size_t used = strlen(list);
        snprintf(list + used, cap - used, "%s%s", n ? ", " : "", *f);
        n++;
    }
    return n;
}

/* The earlier run's recorders/NAME.csv (docs/outputs.md "Recorders"), and the folder when that
 * empties it: a forced run with other recorders leaves none of the old ones beside its own. */
static int remove_recorder_files(hs_ctx *ctx, int fd, const char *dir)
{
    const int rfd = openat(fd, "recorders", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (rfd < 0) return 0;
    DIR *d = fdopendir(rfd);
    if (!d) {
        close(rfd);
        return 0;
    }
    int rc = 0;
    for (struct dirent *e; !rc && (e = readdir(d)) != NULL;) {
        const size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".csv") == 0 &&
            unlinkat(rfd, e->d_name, 0) != 0 && errno != ENOENT)
            rc = hs_fail(ctx, HS_EIO, "%s/recorders/%s: cannot remove the earlier run's file: %s",
                         dir, e->d_name, strerror(errno));
    }
    closedir(d);
    if (!rc) unlinkat(fd, "recorders", AT_REMOVEDIR); /* kept when other files are in it */
    return rc;
}

static int remove_run_files(hs_ctx *ctx, int fd, const char *dir)
{
    for (const char *const *f = hs_run_folder_files; *f; f++)
        if (unlinkat(fd, *f, 0) != 0 && errno != ENOENT)
            return hs_fail(ctx, HS_EIO, "%s/%s: cannot remove the earlier run's file: %s", dir, *f,
                           strerror(errno));
    return remove_recorder_files(ctx, fd, dir);
}

/* Writes, syncs and removes a file: the folder takes files; then the free space. */
static int probe(hs_ctx *ctx, int fd, const char *dir, uint64_t need_bytes)
{
    static const unsigned char zeros[4096];
    const int p = openat(fd, HS_RF_PROBE, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (p < 0)
        return hs_fail(ctx, HS_EINPUT, "%s: cannot create a file in the folder: %s", dir,
                       strerror(errno));
    int bad = 0;
    for (size_t done = 0; !bad && done < HS_RF_PROBE_BYTES; done += sizeof zeros)
        bad = write(p, zeros, sizeof zeros) != (ssize_t)sizeof zeros;
    if (!bad) bad = fsync(p) != 0;
    const int e = bad ? errno : 0;
    if (close(p) != 0 && !bad) bad = 1;
    unlinkat(fd, HS_RF_PROBE, 0);
    if (bad)
        return hs_fail(ctx, HS_EINPUT, "%s: cannot write a file in the folder: %s", dir,
                       strerror(e ? e : EIO));
    struct statvfs vs;
    if (need_bytes && fstatvfs(fd, &vs) == 0) {
        const double avail = (double)vs.f_bavail * (double)vs.f_frsize;
        if (avail < (double)need_bytes)
            return hs_fail(ctx, HS_EINPUT,
                           "%s: %.3g MB free, the run will write about %.3g MB (records.bin and "
                           "results.h5): free some space or choose another folder (-o DIR)",
                           dir, avail / 1e6, (double)need_bytes / 1e6);
    }
    return 0;
}

int hs_run_folder_open(hs_ctx *ctx, const char *dir, hs_run_folder_mode mode, uint64_t need_bytes,
                       hs_run_folder **out)
{
    if (!out || !dir || !dir[0]) return hs_fail(ctx, HS_EINVAL, "run folder: none given");
    *out = NULL;
    if (mode != HS_RUN_FOLDER_RESUME) {
        int rc = hs_coord_mkdirs(ctx, dir, "run folder: name too long");
        if (rc) return rc == HS_EIO ? hs_fail(ctx, HS_EINPUT, "%s", hs_ctx_message(ctx)) : rc;
    }
    const int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return hs_fail(ctx, errno == ENOENT ? HS_ENOTFOUND : HS_EINPUT, "%s: cannot open: %s", dir,
                       strerror(errno));
    int rc = 0;
    while (flock(fd, LOCK_EX | LOCK_NB) != 0 && !rc) {
        if (errno == EINTR) continue;
        rc = errno == EWOULDBLOCK
                 ? hs_fail(ctx, HS_EINPUT,
                           "%s: in use by another hysim run (the folder is locked): wait for it "
                           "to end or choose another folder (-o DIR)",
                           dir)
                 : hs_fail(ctx, HS_EINPUT, "%s: cannot lock the folder: %s", dir, strerror(errno));
    }
    char list[256];
    if (!rc && mode == HS_RUN_FOLDER_NEW && present(fd, list, sizeof list) > 0)
        rc = hs_fail(ctx, HS_EINPUT,
                     "%s already holds a run (%s): continue a killed run with 'hysim run --resume "
                     "%s', write elsewhere with -o DIR, or give --force to replace it",
                     dir, list, dir);
    if (!rc && mode == HS_RUN_FOLDER_FORCE) rc = remove_run_files(ctx, fd, dir);
    if (!rc) rc = probe(ctx, fd, dir, need_bytes);
    hs_run_folder *f = rc ? NULL : hs_calloc(1, sizeof *f);
    if (!rc && !f) rc = HS_ENOMEM;
    if (rc) {
        close(fd);
        return rc;
    }
    f->fd = fd;
    *out = f;
    return 0;
}

void hs_run_folder_close(hs_run_folder **f)
{
    if (!f || !*f) return;
    close((*f)->fd); /* releases the lock */
    hs_free(*f);
    *f = NULL;
}
