/* OpenSees ElasticPPGap (EPPGapMaterial): elastic-perfectly-plastic (or hardening, eta) spring
 * that acts only after a gap closes; fy >= 0 with gap >= 0 works in tension, fy < 0 with
 * gap <= 0 in compression. For fy >= 0, with e_lo (initially gap) and e_hi (initially
 * gap + fy/E) the committed limits of the elastic range:
 *   e > e_hi:            s = fy + eta E (e - gap - fy/E),  tangent eta E   (yielding)
 *   e < e_lo:            s = 0,                            tangent 0       (gap open)
 *   otherwise:           s = E (e - e_lo),                 tangent E
 * (fy < 0: the mirror image). On commit after yielding, e_hi = e and e_lo = e - s/E (the gap
 * grows by the plastic deformation); on commit inside the open gap beyond the initial gap
 * without damage, e_lo = e and e_hi = (e - eta gap) / (1 - eta) + fy/E (the gap closes back);
 * with damage "damage" it does not. A trial at the committed strain is the committed state.
 * Committed state (checkpoints): [strain, stress, tangent, e_lo, e_hi]. */
#include "material_impl.h"

#include <math.h>
#include <string.h>

const hs_param_spec hs_material_elastic_pp_gap_params[] = {
    {"E", HS_PARAM_NUM, 1, "elastic stiffness, > 0 (0: |fy| / 0.002, as OpenSees)"},
    {"fy", HS_PARAM_NUM, 1, "yield force, != 0; > 0 acts in tension, < 0 in compression"},
    {"gap", HS_PARAM_NUM, 1, "initial gap, same sign as fy (or 0)"},
    {"eta", HS_PARAM_NUM, 0, "post-yield stiffness ratio, 0 <= eta < 1 (default 0)"},
    {"damage", HS_PARAM_STR, 0,
     "\"noDamage\" (default: the gap closes back when unloaded into it) or \"damage\" (the "
     "grown gap stays)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

typedef struct pp_gap {
    double E, fy, gap, eta;
    int damage;
    double e_c, s_c, t_c; /* committed strain, stress, tangent */
    double e_lo, e_hi;    /* committed limits of the elastic range */
} pp_gap;

static void gap_eval(const pp_gap *p, double e, double *s, double *t)
{
    const int tension = p->fy >= 0.0;
    if (tension ? e > p->e_hi : e < p->e_hi) {
        *s = p->fy + (e - p->gap - p->fy / p->E) * p->eta * p->E;
        *t = p->eta * p->E;
    } else if (tension ? e < p->e_lo : e > p->e_lo) {
        *s = 0.0;
        *t = 0.0;
    } else {
        *s = p->E * (e - p->e_lo);
        *t = p->E;
    }
}

static int gap_set_trial(hs_material *m, double strain, double strain_rate)
{
    (void)strain_rate;
    const pp_gap *p = m->data;
    m->rate_tangent = 0.0;
    if (strain == p->e_c) {
        m->stress = p->s_c;
        m->tangent = p->t_c;
        return 0;
    }
    gap_eval(p, strain, &m->stress, &m->tangent);
    return 0;
}

static int gap_commit(hs_material *m)
{
    pp_gap *p = m->data;
    const double e = m->strain;
    const int tension = p->fy >= 0.0;
    if (tension ? e > p->e_hi : e < p->e_hi) {
        p->e_hi = e;
        p->e_lo = e - m->stress / p->E;
    } else if ((tension ? e < p->e_lo && e > p->gap : e > p->e_lo && e < p->gap) && !p->damage) {
        p->e_hi = (e - p->eta * p->gap) / (1.0 - p->eta) + p->fy / p->E;
        p->e_lo = e;
    }
    p->e_c = e;
    p->s_c = m->stress;
    p->t_c = m->tangent;
    return 0;
}

static int gap_revert(hs_material *m)
{
    const pp_gap *p = m->data;
    m->strain = p->e_c;
    m->stress = p->s_c;
    m->tangent = p->t_c;
    m->rate_tangent = 0.0;
    return 0;
}

static int gap_reset(hs_material *m)
{
    pp_gap *p = m->data;
    p->e_lo = p->gap;
    p->e_hi = p->fy / p->E + p->gap;
    p->e_c = 0.0;
    gap_eval(p, 0.0, &p->s_c, &p->t_c);
    return 0;
}

static double gap_initial_tangent(const hs_material *m)
{
    const pp_gap *p = m->data;
    return (p->fy >= 0.0 && p->gap > 0.0) || (p->fy < 0.0 && p->gap < 0.0) ? 0.0 : p->E;
}

static size_t gap_state_size(const hs_material *m)
{
    (void)m;
    return 5;
}

static int gap_state_save(const hs_material *m, double *out)
{
    const pp_gap *p = m->data;
    out[0] = p->e_c;
    out[1] = p->s_c;
    out[2] = p->t_c;
    out[3] = p->e_lo;
    out[4] = p->e_hi;
    return 0;
}

static int gap_state_load(hs_material *m, const double *in)
{
    pp_gap *p = m->data;
    p->e_c = in[0];
    p->s_c = in[1];
    p->t_c = in[2];
    p->e_lo = in[3];
    p->e_hi = in[4];
    m->strain = p->e_c; /* the trial after loading is the committed state */
    m->strain_rate = 0.0;
    return 0;
}

static void gap_destroy(hs_material *m)
{
    hs_free(m->data);
}

static int gap_check(hs_material *m, int ok, const char *what, double got)
{
    return ok ? 0 : hs_fail(m->ctx, HS_EINPUT, "elastic_pp_gap: %s (got %g)", what, got);
}

int hs_material_create_elastic_pp_gap(hs_material *m, const hs_options *opts)
{
    pp_gap *p = hs_calloc(1, sizeof *p);
    if (!p) return HS_ENOMEM;
    m->data = p;
    p->E = hs_options_num(opts, "E", 0.0);
    p->fy = hs_options_num(opts, "fy", 0.0);
    p->gap = hs_options_num(opts, "gap", 0.0);
    p->eta = hs_options_num(opts, "eta", 0.0);
    const char *damage = hs_options_str(opts, "damage", "noDamage");
    m->ops.set_trial = gap_set_trial;
    m->ops.commit = gap_commit;
    m->ops.revert = gap_revert;
    m->ops.reset = gap_reset;
    m->ops.initial_tangent = gap_initial_tangent;
    m->ops.state_size = gap_state_size;
    m->ops.state_save = gap_state_save;
    m->ops.state_load = gap_state_load;
    m->ops.destroy = gap_destroy;
    if (strcmp(damage, "noDamage") == 0)
        p->damage = 0;
    else if (strcmp(damage, "damage") == 0)
        p->damage = 1;
    else
        return hs_fail(m->ctx, HS_EINPUT,
                       "elastic_pp_gap: damage must be \"noDamage\" or \"damage\" (got \"%s\")",
                       damage);
    int rc;
    if ((rc = gap_check(m, p->fy != 0.0 && isfinite(p->fy), "fy must be non-zero", p->fy)) ||
        (rc = gap_check(m, p->E >= 0.0 && isfinite(p->E), "E must be >= 0", p->E)) ||
        (rc = gap_check(m, isfinite(p->gap) && p->fy * p->gap >= 0.0,
                        "gap must have the sign of fy (or be 0)", p->gap)) ||
        (rc = gap_check(m, p->eta >= 0.0 && p->eta < 1.0, "eta must be in [0, 1)", p->eta)))
        return rc;
    if (p->E == 0.0) p->E = fabs(p->fy) / 0.002;
    gap_reset(m);
    return 0;
}
