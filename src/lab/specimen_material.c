/* One uniaxial material per actuator (uncoupled): f_i = sigma_i(x_i, xdot_i). */
#include "specimen_impl.h"

#include "hysim/material.h"

const hs_param_spec hs_specimen_material_params[] = {
    {"material", HS_PARAM_STR, 1,
     "uniaxial material type; its parameters follow, each a number or a list of n_act"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

typedef struct mat_specimen {
    hs_material **m; /* n */
} mat_specimen;

static int mat_set_trial(hs_specimen *s, double dt)
{
    mat_specimen *d = s->data;
    for (int i = 0; i < s->n; i++) {
        const double rate = dt > 0.0 ? (s->x[i] - s->x_c[i]) / dt : 0.0;
        int rc = hs_material_set_trial(d->m[i], s->x[i], rate);
        if (rc) return rc; /* the material said what failed */
        s->force[i] = hs_material_stress(d->m[i]);
    }
    return 0;
}

static int mat_commit(hs_specimen *s)
{
    mat_specimen *d = s->data;
    for (int i = 0; i < s->n; i++) {
        int rc = hs_material_commit(d->m[i]);
        if (rc) return rc;
    }
    return 0;
}

static int mat_initial_stiffness(const hs_specimen *s, double *K)
{
    const mat_specimen *d = s->data;
    for (int j = 0; j < s->n; j++)
        for (int i = 0; i < s->n; i++)
            K[j * s->n + i] = i == j ? hs_material_initial_tangent(d->m[i]) : 0.0;
    return 0;
}

static size_t mat_state_size(const hs_specimen *s)
{
    const mat_specimen *d = s->data;
    size_t n = 0;
    for (int i = 0; i < s->n; i++) n += hs_material_state_size(d->m[i]);
    return n;
}

static int mat_state_save(const hs_specimen *s, double *out)
{
    const mat_specimen *d = s->data;
    for (int i = 0; i < s->n; i++) {
        int rc = hs_material_state_save(d->m[i], out);
        if (rc) return rc;
        out += hs_material_state_size(d->m[i]);
    }
    return 0;
}

static int mat_state_load(hs_specimen *s, const double *in)
{
    mat_specimen *d = s->data;
    for (int i = 0; i < s->n; i++) {
        int rc = hs_material_state_load(d->m[i], in);
        if (rc) return rc;
        in += hs_material_state_size(d->m[i]);
    }
    return 0;
}

static void mat_destroy(hs_specimen *s)
{
    mat_specimen *d = s->data;
    if (!d) return;
    if (d->m)
        for (int i = 0; i < s->n; i++) hs_material_destroy(&d->m[i]);
    hs_free(d->m);
    hs_free(d);
}

int hs_specimen_create_material(hs_specimen *s, const hs_options *opts)
{
    mat_specimen *d = hs_calloc(1, sizeof *d);
    if (!d) return hs_fail(s->ctx, HS_ENOMEM, "specimen material: out of memory");
    s->data = d;
    s->ops.set_trial = mat_set_trial;
    s->ops.commit = mat_commit;
    s->ops.initial_stiffness = mat_initial_stiffness;
    s->ops.state_size = mat_state_size;
    s->ops.state_save = mat_state_save;
    s->ops.state_load = mat_state_load;
    s->ops.destroy = mat_destroy;
    d->m = hs_calloc((size_t)s->n, sizeof *d->m);
    if (!d->m) return hs_fail(s->ctx, HS_ENOMEM, "specimen material: out of memory");
    const char *type = hs_options_str(opts, "material", "");
    for (int i = 0; i < s->n; i++) {
        hs_options *o = NULL;
        int rc =
            hs_specimen_material_options(s->ctx, opts, "material", (size_t)s->n, (size_t)i, &o);
        if (!rc) rc = hs_material_create(s->ctx, type, o, &d->m[i]);
        hs_options_destroy(&o);
        if (rc) return rc;
    }
    return 0;
}
