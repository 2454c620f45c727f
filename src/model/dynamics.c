/* The model as an integrator sees it (hs_dynamics), for purely numerical runs. The tangents are
 * assembled in packed band storage of the band that the springs, or a frame without condensed
 * DOFs, span (dyn->tangent_band), so that a restore costs O(n kd), not O(n^2), and the
 * integrators take a banded solver: a shear building read from OpenSees' Tcl (zeroLength stories
 * between nodes) steps as the YAML shear building does. */
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
 * storage would not be smaller (2 kd + 1 >= n), for a frame with condensed DOFs (their Schur
 * complement fills the band) and for a frame with springs beside it. */
static int dyn_packed_band(const hs_model *m)
{
    if (m->fe && m->nsprings) return -1;
    const int kd = m->fe ? hs_fe_tangent_band(m->fe) : dyn_spring_band(m, NULL);
    return kd >= 0 && HS_BAND_LD(kd) < (size_t)m->n ? kd : -1;
}

/* 1 when some spring's or element's material is rate-dependent (else Ct is zero) */
static int dyn_rate_dependent(const hs_model *m)
{
    int rate = 0;
    dyn_spring_band(m, &rate);
    return rate || (m->fe && hs_fe_is_rate_dependent(m->fe));
}

/* hs_model_restore for the forces; the tangents that its last trial left in the materials are
 * assembled into packed band storage (dyn->tangent_band; the dense layout when that is 0). Without
 * a rate-dependent material Ct is zero: the caller's zero buffer is left as it is. */
static int hs_model_restore_cb(void *user, const double *d, const double *v, double *r, double *Kt,
                               double *Ct)
{
    hs_model *m = user;
    if (!Kt && !Ct) return hs_model_restore(m, d, v, r, NULL, NULL);
    const int kd = m->tangent_kd;
    if (kd < 0 && Ct && !m->tangent_rate) { /* dense layout, Ct zero: not assembled */
        memset(Ct, 0, (size_t)m->n * (size_t)m->n * sizeof(double));
        return hs_model_restore(m, d, v, r, Kt, NULL);
    }
    if (kd < 0) return hs_model_restore(m, d, v, r, Kt, Ct); /* dense layout */
    const size_t size = HS_BAND_LD(kd) * (size_t)m->n * sizeof(double);
    if (!m->tangent_rate) Ct = NULL;
    if (Kt) memset(Kt, 0, size);
    if (Ct) memset(Ct, 0, size);
    if (m->fe) { /* a frame without condensed DOFs: its band as it assembles it */
        memset(r, 0, (size_t)m->n * sizeof(double));
        return hs_fe_restore_band(m->fe, d, v, r, Kt, Ct, kd);
    }
    memset(r, 0, (size_t)m->n * sizeof(double));
    return hs_model_springs_restore(m, d, v, r, Kt, Ct, kd);
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
    dyn->Ms = dyn->Cs = dyn->K0s = dyn->tangent_pattern = dyn->Kes = dyn->Mes = NULL;
    dyn->restore_sparse = dyn->restore_var = NULL;
    dyn->tangent_var = NULL;
    dyn->ntangent_var = 0;
    rc = hs_model_dynamics_sparse(m, dyn);
    /* the dense restore's layout: packed band when narrow (a frame on the sparse path keeps the
     * dense layout there: its integrators take the sparse branch) */
    m->tangent_rate = dyn_rate_dependent(m);
    m->tangent_kd = dyn->K0s && m->fe ? -1 : dyn_packed_band(m);
    dyn->tangent_band = 1 + m->tangent_kd; /* 0: dense */
    if (!rc && large && !dyn->K0s)
        rc = hs_model_dense_only(m, m->nsprings ? "a model with springs" : "this model",
                                 "make it a frame model without springs, every free DOF with a "
                                 "mass, damped by Rayleigh or not at all");
    return rc;
}
