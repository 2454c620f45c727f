/* response.csv written while the run records: a second thread formats each record the step loop
 * has published (hs_results_record stores the count with release order after t and d are in
 * place; the thread loads it with acquire order and reads only t and d of those records) into
 * PATH.part, and hs_results_live_csv_finish renames it over PATH once the last record is written.
 * The step loop neither formats nor waits: formatting (the largest cost of writing a run's files)
 * runs on another core while the run goes on. */
#include "results_impl.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct hs_results_live {
    const hs_results *r;
    FILE *f;
    char *path, *part;
    pthread_t thread;
    pthread_mutex_t lock; /* with wake: finish wakes the thread at once */
    pthread_cond_t wake;
    atomic_int stop;
    int failed, err;
};

/* Waits up to 2 ms for the stop flag (the step loop never signals: new records are found by
 * looking again). */
static void hs_live_pause(hs_results_live *l)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 2000000;
    if (until.tv_nsec >= 1000000000) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000;
    }
    pthread_mutex_lock(&l->lock);
    while (!atomic_load_explicit(&l->stop, memory_order_acquire))
        if (pthread_cond_timedwait(&l->wake, &l->lock, &until) != 0) break;
    pthread_mutex_unlock(&l->lock);
}

static void *hs_live_main(void *arg)
{
    hs_results_live *l = arg;
    int64_t done = 0;
    for (;;) {
        const int stop = atomic_load_explicit(&l->stop, memory_order_acquire);
        const int64_t n = atomic_load_explicit(&l->r->published, memory_order_acquire);
        if (n > done) {
            hs_results_csv_rows(l->r, l->f, done, n);
            done = n;
        }
        if (stop) break; /* the count read after the stop flag is the final one */
        if (n == done) hs_live_pause(l);
    }
    if (ferror(l->f) || fflush(l->f) != 0) {
        l->failed = 1;
        l->err = errno;
    }
    return NULL;
}

int hs_results_live_csv_start(hs_results *r, const char *path, hs_results_live **out)
{
    if (!r || !path || !out) return HS_EINVAL;
    *out = NULL;
    hs_results_live *l = hs_calloc(1, sizeof *l);
    const size_t n = strlen(path);
    if (l) {
        l->path = hs_strdup(path);
        l->part = hs_malloc(n + sizeof ".part");
    }
    if (!l || !l->path || !l->part) {
        if (l) {
            hs_free(l->path);
            hs_free(l->part);
        }
        hs_free(l);
        return hs_fail(r->ctx, HS_ENOMEM, "results: out of memory for '%s'", path);
    }
    memcpy(l->part, path, n);
    memcpy(l->part + n, ".part", sizeof ".part");
    l->r = r;
    atomic_init(&l->stop, 0);
    pthread_mutex_init(&l->lock, NULL);
    pthread_cond_init(&l->wake, NULL);
    l->f = fopen(l->part, "w");
    if (!l->f) {
        const int e = errno;
        pthread_cond_destroy(&l->wake);
        pthread_mutex_destroy(&l->lock);
        hs_free(l->path);
        hs_free(l->part);
        hs_free(l);
        return hs_fail(r->ctx, HS_EIO, "%s: cannot create: %s", path, strerror(e));
    }
    setvbuf(l->f, NULL, _IOFBF, (size_t)1 << 20);
    hs_results_csv_header(r, l->f);
    const int e = pthread_create(&l->thread, NULL, hs_live_main, l);
    if (e != 0) {
        pthread_cond_destroy(&l->wake);
        pthread_mutex_destroy(&l->lock);
        fclose(l->f);
        remove(l->part);
        hs_free(l->path);
        hs_free(l->part);
        hs_free(l);
        return hs_fail(r->ctx, HS_EIO, "%s: cannot start the writing thread: %s", path,
                       strerror(e));
    }
    *out = l;
    return 0;
}

int hs_results_live_csv_finish(hs_results_live **lp, int keep)
{
    if (!lp || !*lp) return 0;
    hs_results_live *l = *lp;
    *lp = NULL;
    pthread_mutex_lock(&l->lock);
    atomic_store_explicit(&l->stop, 1, memory_order_release);
    pthread_cond_signal(&l->wake);
    pthread_mutex_unlock(&l->lock);
    pthread_join(l->thread, NULL);
    pthread_cond_destroy(&l->wake);
    pthread_mutex_destroy(&l->lock);
    int rc = 0;
    if (fclose(l->f) != 0 && !l->failed) {
        l->failed = 1;
        l->err = errno;
    }
    if (keep && l->failed)
        rc = hs_fail(l->r->ctx, HS_EIO, "%s: write failed: %s", l->path, strerror(l->err));
    else if (keep && rename(l->part, l->path) != 0)
        rc = hs_fail(l->r->ctx, HS_EIO, "%s: cannot rename %s into place: %s", l->path, l->part,
                     strerror(errno));
    if (!keep || rc) remove(l->part);
    hs_free(l->path);
    hs_free(l->part);
    hs_free(l);
    return rc;
}
