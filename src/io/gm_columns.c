/* Plain-number records: after `skip` header lines, numbers separated by blanks or commas, any
 * count per line, read in order at the given dt and multiplied by `scale`. */
#include "gm_text.h"
#include "model/ground_motion_impl.h"

#include <math.h>
#include <string.h>

const hs_param_spec hs_ground_motion_columns_params[] = {
    {"path", HS_PARAM_STR, 1, "the file of numbers"},
    {"dt", HS_PARAM_NUM, 1, "time step of the record (s)"},
    {"scale", HS_PARAM_NUM, 0, "multiplies the file's values into length/time^2 (default 1)"},
    {"skip", HS_PARAM_NUM, 0, "header lines to skip (default 0)"},
    {"lead", HS_PARAM_NUM, 0, "seconds of zeros before the record, whole steps (default 0)"},
    {"trail", HS_PARAM_NUM, 0, "seconds of zeros after the record, whole steps (default 0)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

static int read_columns(hs_ctx *ctx, hs_gm_text *t, size_t skip, double scale, hs_gm_values *v)
{
    for (size_t i = 0; i < skip; i++)
        if (!hs_gm_text_next(t))
            return hs_fail(ctx, HS_EINPUT, "%s:%zu: the file ends inside the %zu header lines",
                           t->path, t->line, skip);
    while (hs_gm_text_next(t)) {
        int rc = hs_gm_text_values(ctx, t, scale, v);
        if (rc) return rc;
    }
    if (v->n == 0)
        return hs_fail(ctx, HS_EINPUT, "%s:%zu: no values in the file", t->path, t->line);
    return 0;
}

int hs_ground_motion_create_columns(hs_ctx *ctx, const hs_options *opts, hs_ground_motion **out)
{
    const char *path = hs_options_str(opts, "path", NULL);
    if (!path) return hs_fail(ctx, HS_EINPUT, "ground motion columns: 'path' must be a string");
    if (!hs_options_has(opts, "dt"))
        return hs_fail(ctx, HS_EINPUT, "%s: ground motion columns: missing parameter 'dt'", path);
    const double dt = hs_options_num(opts, "dt", NAN);
    const double scale = hs_options_num(opts, "scale", 1.0);
    const double skip = hs_options_num(opts, "skip", 0.0);
    if (!(dt > 0.0) || !isfinite(dt))
        return hs_fail(ctx, HS_EINPUT, "%s: ground motion columns: dt must be a positive number",
                       path);
    if (!isfinite(scale) || scale == 0.0)
        return hs_fail(ctx, HS_EINPUT,
                       "%s: ground motion columns: scale must be finite and non-zero", path);
    if (!(skip >= 0.0 && skip <= 1e9) || floor(skip) != skip)
        return hs_fail(ctx, HS_EINPUT,
                       "%s: ground motion columns: skip must be a whole number >= 0 (got %g)", path,
                       skip);
    hs_gm_text t;
    int rc = hs_gm_text_open(ctx, path, &t);
    if (rc) return rc;
    hs_gm_values v = {0};
    rc = read_columns(ctx, &t, (size_t)skip, scale, &v);
    hs_gm_text_close(&t);
    if (!rc) rc = hs_ground_motion_alloc(ctx, v.n, dt, path, out);
    if (!rc) memcpy((*out)->acc, v.v, v.n * sizeof(double));
    hs_gm_values_free(&v);
    return rc;
}
