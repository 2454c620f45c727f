/* Bilinear spring with kinematic hardening (OpenSees Steel01 without isotropic hardening).
 * Elastic stiffness k inside a band between two parallel bounding lines of slope b k:
 *   s_up(e) = b k e + (1 - b) fy,   s_lo(e) = b k e - (1 - b) fy.
 * The trial stress is the elastic predictor s_c + k (e - e_c) clamped into the band, which is
 * exact for any increment (no iteration). Tangent k inside, b k on a bounding line.
 * With e == e_c the trial is the committed state, tangent included (as Steel01 does).
 * Committed state (checkpoints): [strain, stress, tangent]. */
#include "material_impl.h"

const hs_param_spec hs_material_bilinear_params[] = {
    {"k", HS_PARAM_NUM, 1, "initial (elastic) stiffness, force/length, > 0"},
    {"fy", HS_PARAM_NUM, 1, "yield force, > 0"},
    {"b", HS_PARAM_NUM, 1, "post-yield stiffness ratio, 0 <= b < 1"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

typedef struct bilinear {
    double k, fy, b;
    double e_c, s_c, t_c; /* committed strain, stress, tangent */
} bilinear;

static int bilinear_set_trial(hs_material *m, double strain, double strain_rate)
{
    (void)strain_rate;
    const bilinear *p = m->data;
    m->rate_tangent = 0.0;
    const double de = strain - p->e_c;
    if (de == 0.0) {
        m->stress = p->s_c;
        m->tangent = p->t_c;
        return 0;
    }
    const double s = p->s_c + p->k * de;
    const double hard = p->b * p->k * strain, band = (1.0 - p->b) * p->fy;
    if (s > hard + band) {
        m->stress = hard + band;
        m->tangent = p->b * p->k;
    } else if (s < hard - band) {
        m->stress = hard - band;
        m->tangent = p->b * p->k;
    } else {
        m->stress = s;
        m->tangent = p->k;
    }
    return 0;
}

static int bilinear_commit(hs_material *m)
{
    bilinear *p = m->data;
    p->e_c = m->strain;
    p->s_c = m->stress;
    p->t_c = m->tangent;
    return 0;
}

static int bilinear_revert(hs_material *m)
{
    const bilinear *p = m->data;
    m->strain = p->e_c;
    m->stress = p->s_c;
    m->tangent = p->t_c;
    m->rate_tangent = 0.0;
    return 0;
}

static int bilinear_reset(hs_material *m)
{
    bilinear *p = m->data;
    p->e_c = p->s_c = 0.0;
    p->t_c = p->k;
    return 0;
}

static double bilinear_initial_tangent(const hs_material *m)
{
    return ((const bilinear *)m->data)->k;
}

static size_t bilinear_state_size(const hs_material *m)
{
    (void)m;
    return 3;
}

static int bilinear_state_save(const hs_material *m, double *out)
{
    const bilinear *p = m->data;
    out[0] = p->e_c;
    out[1] = p->s_c;
    out[2] = p->t_c;
    return 0;
}

static int bilinear_state_load(hs_material *m, const double *in)
{
    bilinear *p = m->data;
    p->e_c = in[0];
    p->s_c = in[1];
    p->t_c = in[2];
    m->strain = p->e_c; /* the trial after loading is the committed state */
    m->strain_rate = 0.0;
    return 0;
}

static void bilinear_destroy(hs_material *m)
{
    hs_free(m->data);
}

int hs_material_create_bilinear(hs_material *m, const hs_options *opts)
{
    bilinear *p = hs_calloc(1, sizeof *p);
    if (!p) return HS_ENOMEM;
    m->data = p;
    p->k = hs_options_num(opts, "k", 0.0);
    p->fy = hs_options_num(opts, "fy", 0.0);
    p->b = hs_options_num(opts, "b", 0.0);
    p->t_c = p->k;
    m->ops.set_trial = bilinear_set_trial;
    m->ops.commit = bilinear_commit;
    m->ops.revert = bilinear_revert;
    m->ops.reset = bilinear_reset;
    m->ops.initial_tangent = bilinear_initial_tangent;
    m->ops.state_size = bilinear_state_size;
    m->ops.state_save = bilinear_state_save;
    m->ops.state_load = bilinear_state_load;
    m->ops.destroy = bilinear_destroy;
    if (!(p->k > 0.0)) return hs_fail(m->ctx, HS_EINPUT, "bilinear: k must be > 0 (got %g)", p->k);
    if (!(p->fy > 0.0))
        return hs_fail(m->ctx, HS_EINPUT, "bilinear: fy must be > 0 (got %g)", p->fy);
    if (!(p->b >= 0.0 && p->b < 1.0))
        return hs_fail(m->ctx, HS_EINPUT, "bilinear: b must be in [0, 1) (got %g)", p->b);
    return 0;
}
