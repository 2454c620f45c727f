/* The model as an integrator sees it (hs_dynamics), for purely numerical runs. The tangents are
 * assembled in packed band storage of the band that the springs span (dyn->tangent_band), so a
 * restore costs O(n kd), not O(n^2), and reads and writes contiguous memory. */
#include "model_impl.h"

#include "hysim/integrator.h"

#include <string.h>

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

/* The half-bandwidth of the packed layout of the tangents, or -1 for the dense layout when packed
 * storage would not be smaller (2 kd + 1 >= n) or a frame model is attached (dense for now). */
static int dyn_packed_band(const hs_model *m, int *rate)
{
    if (m->fe) return -1;
    const int kd = dyn_spring_band(m, rate);
    return HS_BAND_LD(kd) < (size_t)m->n ? kd : -1;
}

/* Adds k to the 2x2 pattern of a spring in packed band storage of half-bandwidth kd. */
static void dyn_scatter(double *K, int kd, const hs_spring *s, double k)
{
    HS_BAND_AT(K, kd, s->to, s->to) += k;
    if (s->from != HS_GROUND) {
        HS_BAND_AT(K, kd, s->from, s->from) += k;
        HS_BAND_AT(K, kd, s->from, s->to) -= k;
        HS_BAND_AT(K, kd, s->to, s->from) -= k;
    }
}

/* hs_model_restore for the forces; the tangents that its last trial left in the materials are
 * assembled into packed band storage (dyn->tangent_band; the dense layout when that is 0). Without
 * a rate-dependent material Ct is zero: the caller's zero buffer is left as it is. */
static int hs_model_restore_cb(void *user, const double *d, const double *v, double *r, double *Kt,
                               double *Ct)
{
    hs_model *m = user;
    if (!Kt && !Ct) return hs_model_restore(m, d, v, r, NULL, NULL);
    int rate = 0;
    const int kd = dyn_packed_band(m, &rate);
    if (kd < 0) return hs_model_restore(m, d, v, r, Kt, Ct); /* dense layout */
    const int rc = hs_model_restore(m, d, v, r, NULL, NULL);
    if (rc) return rc;
    const size_t size = HS_BAND_LD(kd) * (size_t)m->n * sizeof(double);
    if (!rate) Ct = NULL;
    if (Kt) memset(Kt, 0, size);
    if (Ct) memset(Ct, 0, size);
    for (int k = 0; k < m->nsprings; k++) {
        const hs_spring *s = &m->springs[k];
        if (Kt) dyn_scatter(Kt, kd, s, hs_material_tangent(s->mat));
        if (Ct) dyn_scatter(Ct, kd, s, hs_material_rate_tangent(s->mat));
    }
    return 0;
}

static int hs_model_commit_cb(void *user)
{
    return hs_model_commit(user);
}

int hs_model_dynamics(hs_model *m, double *K0, hs_dynamics *dyn)
{
    const int large = hs_model_is_large(m);
    int rc = large ? 0 : hs_model_initial_stiffness(m, K0);
    if (rc) return rc;
    if (large) K0 = NULL; /* the sparse form only */
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
    dyn->tangent_band = 1 + dyn_packed_band(m, NULL); /* 0: dense */
    dyn->Ms = dyn->Cs = dyn->K0s = dyn->tangent_pattern = dyn->Kes = dyn->Mes = NULL;
    dyn->restore_sparse = dyn->restore_var = NULL;
    dyn->tangent_var = NULL;
    dyn->ntangent_var = 0;
    rc = hs_model_dynamics_sparse(m, dyn);
    if (!rc && large && !dyn->K0s)
        rc = hs_model_dense_only(m, m->nsprings ? "a model with springs" : "this model",
                                 "make it a frame model without springs, every free DOF with a "
                                 "mass, damped by Rayleigh or not at all");
    return rc;
}
