/* A reference run read back from its folder's response.csv (docs/outputs.md), for the criteria of
 * a hybrid run against it (analysis.reference, docs/rths_benchmark.md): the floors' displacements
 * only, checked to have this test's DOFs and its records (t = k dt). */
#include "hysim/results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HS_REF_LINE 65536

int hs_results_read_reference(hs_ctx *ctx, const char *dir, int ndof, double dt,
                              int64_t max_records, hs_results **out)
{
    *out = NULL;
    char path[4200];
    snprintf(path, sizeof path, "%s/response.csv", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return hs_fail(ctx, HS_EIO,
                       "reference run %s: cannot read %s (%s); run the reference test first "
                       "(hysim run -o %s REFERENCE.yaml)",
                       dir, path, strerror(errno), dir);
    char *line = hs_calloc(HS_REF_LINE, 1);
    double *d = hs_dvec((size_t)ndof), *zero = hs_dvec((size_t)ndof);
    hs_results *r = NULL;
    int rc = (!line || !d || !zero) ? hs_fail(ctx, HS_ENOMEM, "reference run: out of memory") : 0;
    int cols = 0;
    if (!rc && fgets(line, HS_REF_LINE, f)) {
        for (char *p = line; *p; p++) cols += *p == ',';
        /* t and one name a DOF: d1..dn (before DOF names) or the model's (floor1, n3_ux) */
        if (strncmp(line, "t,", 2) != 0 || cols != ndof || !strchr(line, '\n'))
            rc = hs_fail(ctx, HS_EINPUT,
                         "reference run %s: %s:1: expected the header t and %d DOF names (this "
                         "test's DOFs: t,d1,...,d%d or t,floor1,...), got %d columns%s",
                         dir, path, ndof, ndof, cols + 1,
                         strchr(line, '\n') ? "" : " in a header longer than 64 KiB");
    } else if (!rc) {
        rc = hs_fail(ctx, HS_EINPUT, "reference run %s: %s is empty", dir, path);
    }
    const hs_results_layout lay = {.ndof = ndof, .capacity = max_records};
    if (!rc) rc = hs_results_create(ctx, &lay, &r);
    for (int64_t k = 0; !rc && k < max_records && fgets(line, HS_REF_LINE, f); k++) {
        char *p = line, *end = NULL;
        const double t = strtod(p, &end);
        int ok = end != p;
        for (int i = 0; ok && i < ndof; i++) {
            ok = *end == ',';
            p = end + 1;
            d[i] = strtod(p, &end);
            ok = ok && end != p;
        }
        if (!ok)
            rc = hs_fail(ctx, HS_EINPUT, "reference run %s: %s:%lld: expected %d numbers", dir,
                         path, (long long)k + 2, ndof + 1);
        else if (!(fabs(t - (double)k * dt) <= 1e-6 * dt * (1.0 + (double)k)))
            rc = hs_fail(ctx, HS_EINPUT,
                         "reference run %s: %s:%lld: record %lld is at t = %.17g, this test's at "
                         "%.17g (dt %g): the reference must record at the test's own steps",
                         dir, path, (long long)k + 2, (long long)k, t, (double)k * dt, dt);
        else
            rc = hs_results_record(r, t, 0.0, d, zero, zero, NULL, NULL, NULL);
    }
    fclose(f);
    hs_free(line);
    hs_free(d);
    hs_free(zero);
    if (!rc && hs_results_count(r) < 3)
        rc = hs_fail(ctx, HS_EINPUT, "reference run %s: %s holds fewer than 3 records", dir, path);
    if (rc) {
        hs_results_destroy(&r);
        return rc;
    }
    *out = r;
    return 0;
}
