/* Specimen described by intrinsic parameters (Mosqueda & Ahmadizadeh 2008b, eq. 5.3-5.4): p
 * intrinsic DOFs with one uniaxial material each; intrinsic displacements x_p = Tp x, actuator
 * forces r = Tp^T f_p, so that for elastic materials K = Tp^T P Tp with P = diag(k_1 .. k_p). */
#include "specimen_impl.h"

#include "hysim/material.h"

const hs_param_spec hs_specimen_intrinsic_params[] = {
    {"Tp", HS_PARAM_LIST, 1, "transformation p x n_act, row by row (intrinsic <- actuator)"},
    {"p", HS_PARAM_NUM, 1, "number of intrinsic DOFs"},
    {"material", HS_PARAM_STR, 1,
     "uniaxial material type; its parameters follow, each a number or a list of p"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

typedef struct intrinsic {
    int p;
    double *T;       /* p x n, row-major: T[r * n + c] */
    double *xp, *vp; /* p intrinsic displacements and rates */
    hs_material **m; /* p */
} intrinsic;

static int intr_set_trial(hs_specimen *s, double dt)
{
    intrinsic *d = s->data;
    const int n = s->n;
    for (int r = 0; r < d->p; r++) {
        double x = 0.0, xc = 0.0;
        for (int c = 0; c < n; c++) {
            x += d->T[r * n + c] * s->x[c];
            xc += d->T[r * n + c] * s->x_c[c];
        }
        d->xp[r] = x;
        d->vp[r] = dt > 0.0 ? (x - xc) / dt : 0.0;
    }
    for (int c = 0; c < n; c++) s->force[c] = 0.0;
    for (int r = 0; r < d->p; r++) {
        int rc = hs_material_set_trial(d->m[r], d->xp[r], d->vp[r]);
        if (rc) return rc; /* the material said what failed */
        const double f = hs_material_stress(d->m[r]);
        for (int c = 0; c < n; c++) s->force[c] += d->T[r * n + c] * f;
    }
    return 0;
}

static int intr_commit(hs_specimen *s)
{
    intrinsic *d = s->data;
    for (int r = 0; r < d->p; r++) {
        int rc = hs_material_commit(d->m[r]);
        if (rc) return rc;
    }
    return 0;
}

static int intr_initial_stiffness(const hs_specimen *s, double *K)
{
    const intrinsic *d = s->data;
    const int n = s->n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double k = 0.0;
            for (int r = 0; r < d->p; r++)
                k += d->T[r * n + i] * hs_material_initial_tangent(d->m[r]) * d->T[r * n + j];
            K[j * n + i] = k;
        }
    return 0;
}

static size_t intr_state_size(const hs_specimen *s)
{
    const intrinsic *d = s->data;
    size_t k = 0;
    for (int r = 0; r < d->p; r++) k += hs_material_state_size(d->m[r]);
    return k;
}

static int intr_state_save(const hs_specimen *s, double *out)
{
    const intrinsic *d = s->data;
    for (int r = 0; r < d->p; r++) {
        int rc = hs_material_state_save(d->m[r], out);
        if (rc) return rc;
        out += hs_material_state_size(d->m[r]);
    }
    return 0;
}

static int intr_state_load(hs_specimen *s, const double *in)
{
    intrinsic *d = s->data;
    for (int r = 0; r < d->p; r++) {
        int rc = hs_material_state_load(d->m[r], in);
        if (rc) return rc;
        in += hs_material_state_size(d->m[r]);
    }
    return 0;
}

static void intr_destroy(hs_specimen *s)
{
    intrinsic *d = s->data;
    if (!d) return;
    if (d->m)
        for (int r = 0; r < d->p; r++) hs_material_destroy(&d->m[r]);
    hs_free(d->m);
    hs_free(d->T);
    hs_free(d->xp);
    hs_free(d->vp);
    hs_free(d);
}

int hs_specimen_create_intrinsic(hs_specimen *s, const hs_options *opts)
{
    const double pd = hs_options_num(opts, "p", 0.0);
    if (!(pd >= 1.0 && pd <= 1e4 && pd == (double)(int)pd))
        return hs_fail(s->ctx, HS_EINPUT, "specimen intrinsic: p must be a whole number >= 1");
    const int p = (int)pd, n = s->n;
    const double *T = NULL;
    size_t m = hs_options_list(opts, "Tp", &T);
    if (m != (size_t)p * (size_t)n)
        return hs_fail(s->ctx, HS_EINPUT, "specimen intrinsic: Tp has %zu values, expected %d x %d",
                       m, p, n);
    intrinsic *d = hs_calloc(1, sizeof *d);
    if (!d) return hs_fail(s->ctx, HS_ENOMEM, "specimen intrinsic: out of memory");
    s->data = d;
    s->ops.set_trial = intr_set_trial;
    s->ops.commit = intr_commit;
    s->ops.initial_stiffness = intr_initial_stiffness;
    s->ops.state_size = intr_state_size;
    s->ops.state_save = intr_state_save;
    s->ops.state_load = intr_state_load;
    s->ops.destroy = intr_destroy;
    d->p = p;
    d->T = hs_dvec(m);
    d->xp = hs_dvec((size_t)p);
    d->vp = hs_dvec((size_t)p);
    d->m = hs_calloc((size_t)p, sizeof *d->m);
    if (!d->T || !d->xp || !d->vp || !d->m)
        return hs_fail(s->ctx, HS_ENOMEM, "specimen intrinsic: out of memory");
    for (size_t i = 0; i < m; i++) d->T[i] = T[i];
    const char *type = hs_options_str(opts, "material", "");
    for (int r = 0; r < p; r++) {
        hs_options *o = NULL;
        int rc = hs_specimen_material_options(s->ctx, opts, "intrinsic", (size_t)p, (size_t)r, &o);
        if (!rc) rc = hs_material_create(s->ctx, type, o, &d->m[r]);
        hs_options_destroy(&o);
        if (rc) return rc;
    }
    return 0;
}
