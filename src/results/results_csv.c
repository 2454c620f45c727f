/* response.csv: time and the displacements relative to the ground under the DOFs' names (header
 * t,n3_ux,... or t,floor1,...), one row per record, each
 * number with 17 significant digits (hs_number_text: printf's "%.17g", read back bit for bit). */
#include "base/number_text.h"
#include "results_impl.h"

#include <string.h>

void hs_results_csv_header(const hs_results *r, FILE *f)
{
    fputs("t", f);
    for (int i = 0; i < r->ndof; i++) {
        fputc(',', f);
        fputs(r->dof_names[i], f);
    }
    fputc('\n', f);
}

void hs_results_csv_rows(const hs_results *r, FILE *f, int64_t from, int64_t to)
{
    char line[4096];
    const size_t room = sizeof line - HS_NUMBER_TEXT_MAX - 2;
    for (int64_t k = from; k < to; k++) {
        const double *d = r->d + (size_t)k * (size_t)r->ndof;
        size_t len = hs_number_text(r->t[k], line);
        for (int i = 0; i < r->ndof; i++) {
            if (len > room) { /* a long row goes out in pieces */
                fwrite(line, 1, len, f);
                len = 0;
            }
            line[len++] = ',';
            len += hs_number_text(d[i], line + len);
        }
        line[len++] = '\n';
        fwrite(line, 1, len, f);
    }
}

int hs_results_write_csv(const hs_results *r, const char *path)
{
    if (!r) return HS_EINVAL;
    hs_atomic_file af;
    int rc = hs_atomic_open(r->ctx, path, &af);
    if (rc) return rc;
    hs_results_csv_header(r, af.f);
    hs_results_csv_rows(r, af.f, 0, r->count);
    return hs_atomic_finish(r->ctx, &af, 0); /* it checks the stream for errors */
}
