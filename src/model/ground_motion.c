/* The ground-motion record: creation through the registry, sampling at any time, peak value. */
#include "ground_motion_impl.h"

#include "../base/registry.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct {
    hs_ground_motion_entry entry;
    hs_ground_motion_ctor ctor;
} hs_ground_motions[] = {
    {{"at2", hs_ground_motion_at2_params,
      "PEER NGA .AT2 record (values in g, NPTS and DT in the header)"},
     hs_ground_motion_create_at2},
    {{"columns", hs_ground_motion_columns_params,
      "plain numbers, any count per line, at a given dt"},
     hs_ground_motion_create_columns},
    {{"synthetic", hs_ground_motion_synthetic_params,
      "seeded Kanai-Tajimi filtered white noise times an envelope, scaled to a PGA"},
     hs_ground_motion_create_synthetic},
};

#define HS_NGROUND_MOTIONS (sizeof hs_ground_motions / sizeof hs_ground_motions[0])

size_t hs_ground_motion_registry_count(void)
{
    return HS_NGROUND_MOTIONS;
}

const hs_ground_motion_entry *hs_ground_motion_registry_get(size_t i)
{
    return i < HS_NGROUND_MOTIONS ? &hs_ground_motions[i].entry : NULL;
}

const hs_ground_motion_entry *hs_ground_motion_registry_find(const char *name)
{
    return hs_ground_motion_registry_get(HS_REGISTRY_INDEX(hs_ground_motions, name));
}

int hs_ground_motion_create(hs_ctx *ctx, const char *type, const hs_options *opts,
                            hs_ground_motion **out)
{
    if (!out || !type) return hs_fail(ctx, HS_EINVAL, "ground motion: no type given");
    *out = NULL;
    const size_t k = HS_REGISTRY_INDEX(hs_ground_motions, type);
    if (k == HS_NGROUND_MOTIONS)
        return hs_fail(ctx, HS_ENOTFOUND,
                       "ground motion: unknown type '%s' (known: at2, columns, synthetic)", type);
    const hs_ground_motion_entry *e = &hs_ground_motions[k].entry;
    const char *path = hs_options_str(opts, "path", NULL);
    for (const hs_param_spec *p = e->params; p && p->name; p++)
        if (p->required && !hs_options_has(opts, p->name))
            return hs_fail(ctx, HS_EINPUT, "%s%sground motion %s: missing parameter '%s' (%s)",
                           path ? path : "", path ? ": " : "", type, p->name, p->help);
    int rc = hs_ground_motions[k].ctor(ctx, opts, out);
    if (!rc)
        rc = hs_ground_motion_pad(ctx, hs_options_num(opts, "lead", 0.0),
                                  hs_options_num(opts, "trail", 0.0), out);
    if (rc) hs_ground_motion_destroy(out);
    return rc;
}

/* whole record steps in `seconds`, or -1 */
static long whole_steps(double seconds, double dt)
{
    if (!(seconds >= 0.0 && seconds <= 1e6)) return -1;
    const double k = round(seconds / dt);
    return fabs(k * dt - seconds) <= 1e-9 * fmax(1.0, seconds) ? (long)k : -1;
}

int hs_ground_motion_pad(hs_ctx *ctx, double lead, double trail, hs_ground_motion **gm)
{
    const hs_ground_motion *g = *gm;
    const long nl = whole_steps(lead, g->dt), nt = whole_steps(trail, g->dt);
    const char *bad = nl < 0 ? "lead" : nt < 0 ? "trail" : NULL;
    if (bad)
        return hs_fail(ctx, HS_EINPUT,
                       "%s: ground motion %s %g s: give seconds >= 0 that are a whole number of "
                       "the record's steps (dt %g s)",
                       g->source, bad, nl < 0 ? lead : trail, g->dt);
    if (nl == 0 && nt == 0) return 0;
    hs_ground_motion *p = NULL;
    int rc = hs_ground_motion_alloc(ctx, (size_t)nl + g->npts + (size_t)nt, g->dt, g->source, &p);
    if (rc) return rc;
    memcpy(p->acc + nl, g->acc, g->npts * sizeof(double));
    hs_ground_motion_destroy(gm);
    *gm = p;
    return 0;
}

int hs_ground_motion_alloc(hs_ctx *ctx, size_t npts, double dt, const char *source,
                           hs_ground_motion **out)
{
    *out = NULL;
    if (npts == 0)
        return hs_fail(ctx, HS_EINPUT, "%s: a ground motion needs at least one point", source);
    if (!(dt > 0.0) || !isfinite(dt))
        return hs_fail(ctx, HS_EINPUT, "%s: the time step must be positive and finite (got %g)",
                       source, dt);
    hs_ground_motion *gm = hs_calloc(1, sizeof *gm);
    if (!gm) return hs_fail(ctx, HS_ENOMEM, "%s: out of memory", source);
    gm->acc = hs_calloc(npts, sizeof(double));
    if (!gm->acc) {
        hs_free(gm);
        return hs_fail(ctx, HS_ENOMEM, "%s: out of memory for %zu points", source, npts);
    }
    gm->npts = npts;
    gm->dt = dt;
    snprintf(gm->source, sizeof gm->source, "%s", source ? source : "");
    *out = gm;
    return 0;
}

int hs_ground_motion_from_array(hs_ctx *ctx, const double *acc, size_t npts, double dt,
                                hs_ground_motion **out)
{
    if (!out || (npts && !acc)) return hs_fail(ctx, HS_EINVAL, "ground motion: no values given");
    for (size_t i = 0; i < npts; i++)
        if (!isfinite(acc[i]))
            return hs_fail(ctx, HS_EINPUT, "ground motion: value %zu is not finite", i);
    int rc = hs_ground_motion_alloc(ctx, npts, dt, "array", out);
    if (rc) return rc;
    memcpy((*out)->acc, acc, npts * sizeof(double));
    return 0;
}

void hs_ground_motion_destroy(hs_ground_motion **gm)
{
    if (!gm || !*gm) return;
    hs_free((*gm)->acc);
    hs_free(*gm);
    *gm = NULL;
}

double hs_ground_motion_duration(const hs_ground_motion *gm)
{
    return gm && gm->npts ? (double)(gm->npts - 1) * gm->dt : 0.0;
}

double hs_ground_motion_at(const hs_ground_motion *gm, double t)
{
    if (!gm || !gm->npts || !(t >= 0.0) || t > hs_ground_motion_duration(gm)) return 0.0;
    if (gm->npts == 1) return gm->acc[0];
    const double x = t / gm->dt;
    size_t i = (size_t)x;
    if (i > gm->npts - 2) i = gm->npts - 2;
    double f = x - (double)i;
    if (f > 1.0) f = 1.0;
    return gm->acc[i] + f * (gm->acc[i + 1] - gm->acc[i]);
}

double hs_ground_motion_pga(const hs_ground_motion *gm)
{
    double peak = 0.0;
    for (size_t i = 0; gm && i < gm->npts; i++)
        if (fabs(gm->acc[i]) > peak) peak = fabs(gm->acc[i]);
    return peak;
}
