/* Basic DOFs <-> actuators, as OpenFresco's experimental setups do: the site's matrix T
 * (n_act x n_basic, column-major) sends u_act = T d to the actuators and answers forces
 * q = T^T f and matrices T^T K T in basic DOFs (the same work W = q . d = f . u). */
#include "ofr_impl.h"

void hs_ofr_map_to_actuators(int nact, int nbasic, const double *T, const double *d, double *u)
{
    for (int i = 0; i < nact; i++) {
        double s = 0.0;
        for (int j = 0; j < nbasic; j++) s += T[(size_t)j * (size_t)nact + (size_t)i] * d[j];
        u[i] = s;
    }
}

void hs_ofr_map_force(int nact, int nbasic, const double *T, const double *f, double *q)
{
    for (int j = 0; j < nbasic; j++) {
        double s = 0.0;
        for (int i = 0; i < nact; i++) s += T[(size_t)j * (size_t)nact + (size_t)i] * f[i];
        q[j] = s;
    }
}

void hs_ofr_map_matrix(int nact, int nbasic, const double *T, const double *K, double *work,
                       double *Kb)
{
    const size_t na = (size_t)nact, nb = (size_t)nbasic;
    /* work = K T (nact x nbasic) */
    for (size_t j = 0; j < nb; j++)
        for (size_t i = 0; i < na; i++) {
            double s = 0.0;
            for (size_t k = 0; k < na; k++) s += K[k * na + i] * T[j * na + k];
            work[j * na + i] = s;
        }
    /* Kb = T^T work */
    for (size_t j = 0; j < nb; j++)
        for (size_t i = 0; i < nb; i++) {
            double s = 0.0;
            for (size_t k = 0; k < na; k++) s += T[i * na + k] * work[j * na + k];
            Kb[j * nb + i] = s;
        }
}

struct hs_ofr_map {
    int nact, nbasic;
    hs_ofr_backend inner, outer;
    double *T, *u, *v, *a, *f, *K, *work; /* one allocation */
};

static int map_set_trial(void *user, const double *d, const double *v, const double *a, double t)
{
    hs_ofr_map *m = user;
    if (!m->inner.set_trial) return 0;
    hs_ofr_map_to_actuators(m->nact, m->nbasic, m->T, d, m->u);
    if (v) hs_ofr_map_to_actuators(m->nact, m->nbasic, m->T, v, m->v);
    if (a) hs_ofr_map_to_actuators(m->nact, m->nbasic, m->T, a, m->a);
    return m->inner.set_trial(m->inner.user, m->u, v ? m->v : NULL, a ? m->a : NULL, t);
}

static int map_get_force(void *user, double *out)
{
    hs_ofr_map *m = user;
    if (!m->inner.get_force) return HS_EUNSUPPORTED;
    const int rc = m->inner.get_force(m->inner.user, m->f);
    if (rc) return rc;
    hs_ofr_map_force(m->nact, m->nbasic, m->T, m->f, out);
    return 0;
}

static int map_matrix(hs_ofr_map *m, int (*get)(void *, double *), double *out)
{
    if (!get) {
        memset(out, 0, (size_t)m->nbasic * (size_t)m->nbasic * sizeof *out);
        return 0;
    }
    const int rc = get(m->inner.user, m->K);
    if (rc) return rc;
    hs_ofr_map_matrix(m->nact, m->nbasic, m->T, m->K, m->work, out);
    return 0;
}

static int map_initial(void *user, double *out)
{
    hs_ofr_map *m = user;
    return map_matrix(m, m->inner.get_initial_stiffness, out);
}

static int map_tangent(void *user, double *out)
{
    hs_ofr_map *m = user;
    return map_matrix(m, m->inner.get_tangent_stiffness, out);
}

static int map_damping(void *user, double *out)
{
    hs_ofr_map *m = user;
    return map_matrix(m, m->inner.get_damping, out);
}

static int map_mass(void *user, double *out)
{
    hs_ofr_map *m = user;
    return map_matrix(m, m->inner.get_mass, out);
}

static int map_commit(void *user, double t)
{
    hs_ofr_map *m = user;
    return m->inner.commit ? m->inner.commit(m->inner.user, t) : 0;
}

static void map_close(void *user)
{
    hs_ofr_map *m = user;
    if (m->inner.close) m->inner.close(m->inner.user);
}

int hs_ofr_map_create(hs_ctx *ctx, int nact, int nbasic, const double *T,
                      const hs_ofr_backend *inner, hs_ofr_map **out)
{
    if (!out) return hs_fail(ctx, HS_EINVAL, "hs_ofr_map_create: out is NULL");
    *out = NULL;
    if (nact < 1 || nbasic < 1 || nact > 4096 || nbasic > 4096 || !T || !inner)
        return hs_fail(ctx, HS_EINVAL,
                       "hs_ofr_map_create: needs 1 <= n_act, n_basic <= 4096, T and a backend "
                       "(got %d x %d)",
                       nact, nbasic);
    const size_t na = (size_t)nact, nb = (size_t)nbasic;
    hs_ofr_map *m = hs_calloc(1, sizeof *m);
    double *d = hs_calloc(na * nb * 2 + 4 * na + na * na, sizeof *d);
    if (!m || !d) {
        hs_free(m);
        hs_free(d);
        return hs_fail(ctx, HS_ENOMEM, "hs_ofr_map_create: out of memory");
    }
    m->nact = nact;
    m->nbasic = nbasic;
    m->inner = *inner;
    m->T = d;
    m->work = m->T + na * nb;
    m->u = m->work + na * nb;
    m->v = m->u + na;
    m->a = m->v + na;
    m->f = m->a + na;
    m->K = m->f + na;
    memcpy(m->T, T, na * nb * sizeof *T);
    m->outer = (hs_ofr_backend){m,           map_set_trial, NULL,     map_get_force, map_initial,
                                map_tangent, map_damping,   map_mass, map_commit,    map_close};
    *out = m;
    return 0;
}

void hs_ofr_map_destroy(hs_ofr_map **m)
{
    if (!m || !*m) return;
    hs_free((*m)->T);
    hs_free(*m);
    *m = NULL;
}

const hs_ofr_backend *hs_ofr_map_backend(const hs_ofr_map *m)
{
    return m ? &m->outer : NULL;
}
