/* The model as an integrator sees it (hs_dynamics), for purely numerical runs. The tangents are
 * assembled in the band that the springs span (dyn->tangent_band): the integrator's buffers are
 * zero outside it, so a restore costs O(n kd), not O(n^2). */
#include "model_impl.h"

#include "hysim/integrator.h"

/* Half-bandwidth of the springs' pattern: the largest |to - from| over springs between DOFs;
 * *rate (when not NULL) is set to 1 when some spring's material is rate-dependent. */
static int dyn_spring_band(const hs_model *m, int *rate)
{
    int kd = 0, any_rate = 0;
    for (int k = 0; k < m->nsprings; k++) {
        const hs_spring *s = &m->springs[k];
        any_rate |= hs_material_is_rate_dependent(s->mat);
        if (s->from == HS_GROUND) continue;
        const int dist = s->to > s->from ? s->to - s->from : s->from - s->to;
        if (dist > kd) kd = dist;
    }
    if (rate) *rate = any_rate;
    return kd;
}

/* Adds k to the 2x2 pattern of a spring (within the band). */
static void dyn_scatter(double *K, int n, const hs_spring *s, double k)
{
    HS_AT(K, n, s->to, s->to) += k;
    if (s->from != HS_GROUND) {
        HS_AT(K, n, s->from, s->from) += k;
        HS_AT(K, n, s->from, s->to) -= k;
        HS_AT(K, n, s->to, s->from) -= k;
    }
}

/* hs_model_restore for the forces; the tangents that its last trial left in the materials are
 * scattered into the band of Kt and Ct (the rest of the buffers is the caller's zero). Without a
 * rate-dependent material Ct is zero: its band, zero from the caller and never written, stays so.
 */
static int hs_model_restore_cb(void *user, const double *d, const double *v, double *r, double *Kt,
                               double *Ct)
{
    hs_model *m = user;
    int rc = hs_model_restore(m, d, v, r, NULL, NULL);
    if (rc || (!Kt && !Ct)) return rc;
    int rate = 0;
    const int n = m->n, kd = dyn_spring_band(m, &rate);
    if (!rate) Ct = NULL;
    if (Kt) hs_band_zero(n, kd, Kt);
    if (Ct) hs_band_zero(n, kd, Ct);
    for (int k = 0; k < m->nsprings; k++) {
        const hs_spring *s = &m->springs[k];
        if (Kt) dyn_scatter(Kt, n, s, hs_material_tangent(s->mat));
        if (Ct) dyn_scatter(Ct, n, s, hs_material_rate_tangent(s->mat));
    }
    return 0;
}

static int hs_model_commit_cb(void *user)
{
    return hs_model_commit(user);
}

int hs_model_dynamics(hs_model *m, double *K0, hs_dynamics *dyn)
{
    int rc = hs_model_initial_stiffness(m, K0);
    if (rc) return rc;
    dyn->n = m->n;
    dyn->M = m->M;
    dyn->Me = NULL;
    dyn->C = m->C;
    dyn->K0 = K0;
    dyn->Ke = NULL;
    dyn->restore = hs_model_restore_cb;
    dyn->commit = hs_model_commit_cb;
    dyn->user = m;
    dyn->linear = hs_model_is_linear(m);
    dyn->tangent_band = 1 + dyn_spring_band(m, NULL);
    return 0;
}
