/* OpenSees ElasticPP: elastic-perfectly-plastic, yield strains epsyP > 0 in tension and
 * epsyN < 0 in compression (yield stresses E epsyP, E epsyN), initial strain eps0.
 * With e_p the committed plastic strain, the trial stress E (e - eps0 - e_p) is returned while
 * the yield function f (s - fyP for s >= 0, fyN - s below) is at most -E DBL_EPSILON (tangent
 * E); beyond, the stress is the yield stress of that side with tangent 0. Commit moves e_p by
 * f / E (towards the side that yielded; computed with the trial). As OpenSees 3.8
 * (SRC/material/uniaxial/ ElasticPPMaterial.cpp, read for facts), except that a trial at the
 * committed strain returns the committed stress and tangent (the house rule; OpenSees recomputes
 * them, which gives the same stress to round-off). Committed state (checkpoints): [strain, stress,
 * tangent, e_p]. */
#include "material_impl.h"

#include <float.h>
#include <math.h>

const hs_param_spec hs_material_elastic_pp_params[] = {
    {"E", HS_PARAM_NUM, 1, "elastic tangent, > 0"},
    {"epsyP", HS_PARAM_NUM, 1, "tensile yield strain, > 0"},
    {"epsyN", HS_PARAM_NUM, 0, "compressive yield strain, < 0 (default -epsyP)"},
    {"eps0", HS_PARAM_NUM, 0, "initial strain (default 0)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

enum { EPP_STATE = 4 };

typedef struct epp_state {
    double e, s, t, ep; /* strain, stress, tangent, plastic strain (after commit) */
} epp_state;
_Static_assert(sizeof(epp_state) == EPP_STATE * sizeof(double), "a flat array of doubles");

typedef struct elastic_pp {
    double E, fyp, fyn, eps0;
    epp_state c, t; /* committed, trial */
} elastic_pp;

/* The trial: the elastic predictor E (e - eps0 - e_p) inside the yield surface, else the yield
 * stress of its side; the plastic strain a commit would leave moves by the excess f / E. */
static int epp_set_trial(hs_material *m, double strain, double strain_rate)
{
    (void)strain_rate;
    elastic_pp *p = m->data;
    epp_state *t = &p->t;
    *t = p->c;
    m->rate_tangent = 0.0;
    if (strain != p->c.e) {
        t->e = strain;
        const double s = p->E * (strain - p->eps0 - p->c.ep);
        const double f = s >= 0.0 ? s - p->fyp : -s + p->fyn;
        if (f <= -p->E * DBL_EPSILON) {
            t->s = s;
            t->t = p->E;
        } else {
            t->s = s > 0.0 ? p->fyp : p->fyn;
            t->t = 0.0;
            t->ep += (s > 0.0 ? f : -f) / p->E;
        }
    }
    m->stress = t->s;
    m->tangent = t->t;
    return 0;
}

static int epp_reset(hs_material *m)
{
    elastic_pp *p = m->data;
    p->c = (epp_state){0.0, 0.0, p->E, 0.0};
    p->t = p->c;
    return 0;
}

static double epp_initial_tangent(const hs_material *m)
{
    return ((const elastic_pp *)m->data)->E;
}

static void epp_destroy(hs_material *m)
{
    hs_free(m->data);
}

static int epp_check(hs_material *m, int ok, const char *what, double got)
{
    return ok ? 0 : hs_fail(m->ctx, HS_EINPUT, "elastic_pp: %s (got %g)", what, got);
}

int hs_material_create_elastic_pp(hs_material *m, const hs_options *opts)
{
    elastic_pp *p = hs_calloc(1, sizeof *p);
    if (!p) return HS_ENOMEM;
    m->data = p;
    p->E = hs_options_num(opts, "E", 0.0);
    const double eyp = hs_options_num(opts, "epsyP", 0.0);
    const double eyn = hs_options_num(opts, "epsyN", -eyp);
    p->eps0 = hs_options_num(opts, "eps0", 0.0);
    hs_material_flat_state(m, (double *)&p->c, (double *)&p->t, EPP_STATE);
    m->ops.set_trial = epp_set_trial;
    m->ops.reset = epp_reset;
    m->ops.initial_tangent = epp_initial_tangent;
    m->ops.destroy = epp_destroy;
    int rc;
    if ((rc = epp_check(m, p->E > 0.0 && isfinite(p->E), "E must be > 0", p->E)) ||
        (rc = epp_check(m, eyp > 0.0 && isfinite(eyp), "epsyP must be > 0", eyp)) ||
        (rc = epp_check(m, eyn < 0.0 && isfinite(eyn), "epsyN must be < 0", eyn)) ||
        (rc = epp_check(m, isfinite(p->eps0), "eps0 must be finite", p->eps0)))
        return rc;
    p->fyp = p->E * eyp;
    p->fyn = p->E * eyn;
    epp_reset(m);
    return 0;
}
