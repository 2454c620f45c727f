/* results.h5 and results.mat at once: results.h5 on a second thread while results.mat (MAT v5:
 * plain stdio through libmatio, no HDF5) is written on the calling one; MAT 7.3 goes through HDF5
 * too, so it waits for results.h5 (the HDF5 library is built without thread safety). */
#include "results_impl.h"

#include <pthread.h>

typedef struct hs_h5_job {
    const hs_results *r;
    const hs_run_summary *s;
    const char *path;
    hs_ctx *ctx; /* the thread's own messages */
    int rc;
} hs_h5_job;

static void *hs_h5_main(void *arg)
{
    hs_h5_job *job = arg;
    job->rc = hs_results_write_hdf5_ctx(job->r, job->s, job->path, job->ctx);
    return NULL;
}

int hs_results_write_h5_mat(const hs_results *r, const hs_run_summary *s, const char *h5_path,
                            const char *mat_path)
{
    if (!r) return HS_EINVAL;
    if (!mat_path) return hs_results_write_hdf5(r, s, h5_path);
    const int version = hs_results_mat_version(r);
    hs_h5_job job = {.r = r, .s = s, .path = h5_path};
    pthread_t thread;
    if (version != 5 || hs_ctx_create(&job.ctx) != 0 ||
        pthread_create(&thread, NULL, hs_h5_main, &job) != 0) {
        hs_ctx_destroy(&job.ctx); /* one after the other */
        const int rc = hs_results_write_hdf5(r, s, h5_path);
        return rc ? rc : hs_results_write_mat(r, s, mat_path, version);
    }
    const int rc_mat = hs_results_write_mat(r, s, mat_path, version);
    pthread_join(thread, NULL);
    int rc = job.rc;
    if (rc) hs_fail(r->ctx, rc, "%s", hs_ctx_message(job.ctx));
    hs_ctx_destroy(&job.ctx);
    return rc ? rc : rc_mat;
}
