/* OpenSees' Ratchet (Yi Xiao, 2022): a one-way device that carries tension only past its
 * engagement strain and whose engagement moves down (ratchets) when it is pushed back far enough.
 * Facts from OpenSees 3.8 (SRC/material/uniaxial/Ratchet.cpp, read for facts):
 * - Stress 0 (tangent 0) below engage - freeTravel / 1e7, else E (e - engage) (tangent E); the
 *   engagement starts at freeTravelInitial.
 * - At commit, when the strain has not grown (e <= the committed strain) and e <= engage -
 *   freeTravel, the engagement moves: RatType 1 by whole teeth (engage -= freeTravel while
 *   e <= engage - freeTravel + freeTravel / 1e7, counting the teeth), RatType 2 continuously
 *   (engage = e + freeTravel).
 * - The initial tangent is 0 when the virgin strain 0 is below the engagement, else E.
 * hysim computes the engagement that commit will keep in the trial (the stress of the step uses the
 * committed one, as OpenSees). Committed state (checkpoints): [strain, stress, tangent, engage,
 * teeth]. */
#include "material_impl.h"

#include <math.h>

const hs_param_spec hs_material_ratchet_params[] = {
    {"E", HS_PARAM_NUM, 1, "stiffness once engaged, > 0"},
    {"freeTravel", HS_PARAM_NUM, 1, "strain of one tooth (the free travel), > 0"},
    {"freeTravelInitial", HS_PARAM_NUM, 1, "strain of the first engagement"},
    {"RatType", HS_PARAM_NUM, 1, "1: ratchets by whole teeth; 2: continuously"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

enum { RA_STATE = 5 };

typedef struct ra_state {
    double e, s, t, engage, teeth;
} ra_state;
_Static_assert(sizeof(ra_state) == RA_STATE * sizeof(double), "a flat array of doubles");

typedef struct ratchet {
    double E, travel, travel0;
    int type;
    ra_state c, t;
} ratchet;

static int ra_set_trial(hs_material *m, double strain, double strain_rate)
{
    (void)strain_rate;
    ratchet *p = m->data;
    ra_state *t = &p->t;
    const double prec = p->travel / 1.0e7;
    *t = p->c;
    t->e = strain;
    if (strain < p->c.engage - prec) {
        t->s = 0.0;
        t->t = 0.0;
    } else {
        t->s = p->E * (strain - p->c.engage);
        t->t = p->E;
    }
    /* the engagement commit will keep */
    if (strain <= p->c.e && strain <= p->c.engage - p->travel) {
        if (p->type == 1) {
            while (strain <= t->engage - p->travel + prec) {
                t->engage -= p->travel;
                t->teeth += 1.0;
            }
        } else {
            t->engage = strain + p->travel;
        }
    }
    m->stress = t->s;
    m->tangent = t->t;
    m->rate_tangent = 0.0;
    return 0;
}

static int ra_reset(hs_material *m)
{
    ratchet *p = m->data;
    p->c = (ra_state){0.0, 0.0, p->E, p->travel0, 0.0};
    p->t = p->c;
    return 0;
}

static double ra_initial_tangent(const hs_material *m)
{
    const ratchet *p = m->data;
    return 0.0 < p->travel0 - p->travel / 1.0e7 ? 0.0 : p->E;
}

static void ra_destroy(hs_material *m)
{
    hs_free(m->data);
}

int hs_material_create_ratchet(hs_material *m, const hs_options *opts)
{
    ratchet *p = hs_calloc(1, sizeof *p);
    if (!p) return HS_ENOMEM;
    m->data = p;
    hs_material_flat_state(m, (double *)&p->c, (double *)&p->t, RA_STATE);
    m->ops.set_trial = ra_set_trial;
    m->ops.reset = ra_reset;
    m->ops.initial_tangent = ra_initial_tangent;
    m->ops.destroy = ra_destroy;
    p->E = hs_options_num(opts, "E", 0.0);
    p->travel = hs_options_num(opts, "freeTravel", 0.0);
    p->travel0 = hs_options_num(opts, "freeTravelInitial", 0.0);
    const double type = hs_options_num(opts, "RatType", 0.0);
    if (!(p->E > 0.0 && isfinite(p->E)))
        return hs_fail(m->ctx, HS_EINPUT, "ratchet: E must be > 0 (got %g)", p->E);
    if (!(p->travel > 0.0 && isfinite(p->travel)))
        return hs_fail(m->ctx, HS_EINPUT, "ratchet: freeTravel must be > 0 (got %g)", p->travel);
    if (!isfinite(p->travel0))
        return hs_fail(m->ctx, HS_EINPUT, "ratchet: freeTravelInitial must be a finite number");
    if (type != 1.0 && type != 2.0)
        return hs_fail(m->ctx, HS_EINPUT,
                       "ratchet: RatType must be 1 (by whole teeth) or 2 (continuous) (got %g)",
                       type);
    p->type = (int)type;
    ra_reset(m);
    return 0;
}
