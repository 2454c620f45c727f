/* response.csv: time and the displacements relative to the ground, one row per record, each
 * number with 17 significant digits (hs_number_text: printf's "%.17g", read back bit for bit). */
#include "number_text.h"
#include "results_impl.h"

#include <string.h>

int hs_results_write_csv(const hs_results *r, const char *path)
{
    if (!r) return HS_EINVAL;
    hs_atomic_file af;
    int rc = hs_atomic_open(r->ctx, path, &af);
    if (rc) return rc;
    fputs("t", af.f);
    for (int i = 0; i < r->ndof; i++) fprintf(af.f, ",d%d", i + 1);
    fputc('\n', af.f);
    char line[4096];
    const size_t room = sizeof line - HS_NUMBER_TEXT_MAX - 2;
    for (int64_t k = 0; k < r->count; k++) {
        const double *d = r->d + (size_t)k * (size_t)r->ndof;
        size_t len = hs_number_text(r->t[k], line);
        for (int i = 0; i < r->ndof; i++) {
            if (len > room) { /* a long row goes out in pieces */
                fwrite(line, 1, len, af.f);
                len = 0;
            }
            line[len++] = ',';
            len += hs_number_text(d[i], line + len);
        }
        line[len++] = '\n';
        fwrite(line, 1, len, af.f);
    }
    return hs_atomic_finish(r->ctx, &af, 0); /* it checks the stream for errors */
}
