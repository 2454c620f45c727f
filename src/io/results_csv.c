/* response.csv: time and the displacements relative to the ground, one row per record. */
#include "results_impl.h"

int hs_results_write_csv(const hs_results *r, const char *path)
{
    if (!r) return HS_EINVAL;
    hs_atomic_file af;
    int rc = hs_atomic_open(r->ctx, path, &af);
    if (rc) return rc;
    fputs("t", af.f);
    for (int i = 0; i < r->ndof; i++) fprintf(af.f, ",d%d", i + 1);
    fputc('\n', af.f);
    for (int64_t k = 0; k < r->count; k++) {
        const double *d = r->d + (size_t)k * (size_t)r->ndof;
        fprintf(af.f, "%.10g", r->t[k]);
        for (int i = 0; i < r->ndof; i++) fprintf(af.f, ",%.10g", d[i]);
        fputc('\n', af.f);
    }
    return hs_atomic_finish(r->ctx, &af, 0);
}
