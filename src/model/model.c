/* The model: lumped masses, springs between DOFs or to the ground, restoring force assembly. */
#include "model_impl.h"

#include "material_impl.h"

#include "hysim/linalg.h"

#include <math.h>
#include <string.h>

int hs_model_create(hs_ctx *ctx, int ndof, hs_model **out)
{
    if (!out || ndof <= 0)
        return hs_fail(ctx, HS_EINPUT, "model: dofs must be >= 1 (got %d)", ndof);
    hs_model *m = hs_calloc(1, sizeof *m);
    if (!m) return HS_ENOMEM;
    m->ctx = ctx;
    m->n = ndof;
    m->tangent_kd = -1; /* dense until hs_model_dynamics chooses */
    const size_t n = (size_t)ndof;
    m->mass = hs_dvec(n);
    m->iota = hs_dvec(n);
    const int dense = ndof <= HS_DENSE_MAX_DOFS; /* large: nothing n x n (hs_model_is_large) */
    if (dense) {
        m->M = hs_dvec(n * n);
        m->C = hs_dvec(n * n);
    }
    if (!m->mass || !m->iota || (dense && (!m->M || !m->C))) {
        hs_model_destroy(&m);
        return HS_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) m->iota[i] = 1.0;
    *out = m;
    return 0;
}

void hs_model_destroy(hs_model **pm)
{
    if (!pm || !*pm) return;
    hs_model *m = *pm;
    for (int s = 0; s < m->nsprings; s++) hs_material_destroy(&m->springs[s].mat);
    hs_free(m->springs);
    hs_free(m->story_top);
    for (int g = 0; g < m->ngroups; g++) hs_free(m->groups[g]);
    hs_free(m->groups);
    hs_free(m->mass);
    hs_free(m->iota);
    hs_free(m->M);
    hs_free(m->C);
    hs_free(m->Kx);
    hs_csc_destroy(&m->Kxs);
    hs_fe_matrices_free(&m->fe_sparse);
    hs_fe_destroy(&m->fe);
    hs_free(m);
    *pm = NULL;
}

int hs_model_ndof(const hs_model *m)
{
    return m->n;
}
hs_ctx *hs_model_ctx(const hs_model *m)
{
    return m->ctx;
}

int hs_model_is_large(const hs_model *m)
{
    return m->n > HS_DENSE_MAX_DOFS;
}

int hs_model_dense_only(const hs_model *m, const char *what, const char *instead)
{
    if (!hs_model_is_large(m)) return 0;
    return hs_fail(m->ctx, HS_EUNSUPPORTED,
                   "model: %s needs dense n x n matrices, and this model has %d DOFs (one such "
                   "matrix would take %.3g GB; hysim keeps them up to %d DOFs); %s",
                   what, m->n, 8e-9 * (double)m->n * (double)m->n, HS_DENSE_MAX_DOFS, instead);
}

int hs_model_set_mass(hs_model *m, const double *mass)
{
    int any = 0;
    for (int i = 0; i < m->n; i++) {
        if (!(mass[i] > 0.0) && !(m->massless_ok && mass[i] == 0.0))
            return hs_fail(m->ctx, HS_EINPUT, "model: mass at DOF %d must be > 0 (got %g)", i + 1,
                           mass[i]);
        any |= mass[i] > 0.0;
    }
    if (!any) return hs_fail(m->ctx, HS_EINPUT, "model: no DOF carries mass");
    memcpy(m->mass, mass, (size_t)m->n * sizeof(double));
    if (!m->M) return 0; /* large: the lumped masses are the mass matrix */
    memset(m->M, 0, (size_t)m->n * (size_t)m->n * sizeof(double));
    for (int i = 0; i < m->n; i++) HS_AT(m->M, m->n, i, i) = mass[i];
    return 0;
}

int hs_model_set_mass_matrix(hs_model *m, const double *M)
{
    const int n = m->n;
    int rc0 = hs_model_dense_only(m, "a full (consistent) mass matrix",
                                  "lump the masses on the nodes (no -cMass or cmass)");
    if (rc0) return rc0;
    double mmax = 0.0;
    for (size_t k = 0; k < (size_t)n * (size_t)n; k++) mmax = fmax(mmax, fabs(M[k]));
    for (int j = 0; j < n; j++) {
        if (!(HS_AT(M, n, j, j) > 0.0))
            return hs_fail(m->ctx, HS_EINPUT, "model: mass at DOF %d must be > 0 (got %g)", j + 1,
                           HS_AT(M, n, j, j));
        for (int i = 0; i < j; i++)
            if (!(fabs(HS_AT(M, n, i, j) - HS_AT(M, n, j, i)) <= 1e-12 * mmax))
                return hs_fail(
                    m->ctx, HS_EINPUT,
                    "model: the mass matrix is not symmetric (DOFs %d and %d: %g and %g)", i + 1,
                    j + 1, HS_AT(M, n, i, j), HS_AT(M, n, j, i));
    }
    /* positive definite: dsygv factors M by Cholesky (K = I here) and fails otherwise */
    const size_t nn = (size_t)n * (size_t)n;
    double *I = hs_dvec(nn), *phi = hs_dvec(nn), *w = hs_dvec((size_t)n);
    int rc = (!I || !phi || !w) ? HS_ENOMEM : 0;
    for (int i = 0; !rc && i < n; i++) HS_AT(I, n, i, i) = 1.0;
    if (!rc && hs_sym_eig(m->ctx, n, I, M, w, phi) != 0)
        rc = hs_fail(m->ctx, HS_EINPUT, "model: the mass matrix is not positive definite");
    hs_free(I);
    hs_free(phi);
    hs_free(w);
    if (rc) return rc;
    memcpy(m->M, M, (size_t)n * (size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) m->mass[i] = HS_AT(M, n, i, i);
    return 0;
}

int hs_model_set_influence(hs_model *m, const double *iota)
{
    memcpy(m->iota, iota, (size_t)m->n * sizeof(double));
    return 0;
}

const double *hs_model_mass(const hs_model *m)
{
    return m->mass;
}
const double *hs_model_influence(const hs_model *m)
{
    return m->iota;
}
const double *hs_model_mass_matrix(const hs_model *m)
{
    return m->M;
}

static int hs_model_group_index(hs_model *m, const char *group)
{
    const char *g = group ? group : "default";
    for (int i = 0; i < m->ngroups; i++)
        if (strcmp(m->groups[i], g) == 0) return i;
    char **groups = hs_realloc(m->groups, (size_t)(m->ngroups + 1) * sizeof *groups);
    if (!groups) return HS_ENOMEM;
    m->groups = groups;
    m->groups[m->ngroups] = hs_strdup(g);
    if (!m->groups[m->ngroups]) return HS_ENOMEM;
    return m->ngroups++;
}

int hs_model_add_spring(hs_model *m, const char *name, int from, int to, const char *mat_type,
                        const hs_options *mat_opts, const char *group)
{
    if (from < HS_GROUND || from >= m->n || to < 0 || to >= m->n || from == to)
        return hs_fail(m->ctx, HS_EINPUT, "model: spring '%s' joins invalid DOFs %d and %d",
                       name ? name : "?", from + 1, to + 1);
    hs_material *mat = NULL;
    int rc = hs_material_create(m->ctx, mat_type, mat_opts, &mat);
    if (rc) return rc;
    int g = hs_model_group_index(m, group);
    if (g < 0) {
        hs_material_destroy(&mat);
        return g;
    }
    hs_spring *springs = hs_realloc(m->springs, (size_t)(m->nsprings + 1) * sizeof *springs);
    if (!springs) {
        hs_material_destroy(&mat);
        return HS_ENOMEM;
    }
    m->springs = springs;
    hs_spring *s = &m->springs[m->nsprings];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name ? name : "spring");
    s->from = from;
    s->to = to;
    s->mat = mat;
    s->group = g;
    return m->nsprings++;
}

int hs_model_add_story(hs_model *m, int story, const char *mat_type, const hs_options *mat_opts,
                       const char *group)
{
    char name[32];
    snprintf(name, sizeof name, "story%d", story + 1);
    const int rc = hs_model_mark_story(m, story);
    if (rc) return rc;
    return hs_model_add_spring(m, name, story == 0 ? HS_GROUND : story - 1, story, mat_type,
                               mat_opts, group);
}

int hs_model_mark_story(hs_model *m, int story)
{
    if (story < 0 || story >= m->n)
        return hs_fail(m->ctx, HS_EINPUT, "model: story %d of %d DOFs", story + 1, m->n);
    if (!m->story_top && !(m->story_top = hs_calloc((size_t)m->n, 1))) return HS_ENOMEM;
    m->nfloors += !m->story_top[story];
    m->story_top[story] = 1;
    return 0;
}

const char *hs_model_dof_name(const hs_model *m, int i, char *buf, size_t cap)
{
    if (m->fe) return hs_fe_dof_column(m->fe, i, buf, cap);
    snprintf(buf, cap, "%s%d", m->nfloors == m->n ? "floor" : "d", i + 1);
    return buf;
}

int hs_model_spring_count(const hs_model *m)
{
    return m->nsprings;
}
const char *hs_model_spring_name(const hs_model *m, int s)
{
    return m->springs[s].name;
}
void hs_model_spring_dofs(const hs_model *m, int s, int *from, int *to)
{
    if (from) *from = m->springs[s].from;
    if (to) *to = m->springs[s].to;
}
hs_material *hs_model_spring_material(const hs_model *m, int s)
{
    return m->springs[s].mat;
}
int hs_model_spring_group(const hs_model *m, int s)
{
    return m->springs[s].group;
}
int hs_model_group_count(const hs_model *m)
{
    return m->ngroups;
}
const char *hs_model_group_name(const hs_model *m, int g)
{
    return m->groups[g];
}

int hs_model_attach_fe(hs_model *m, hs_fe *fe)
{
    if (m->fe || hs_fe_ndof(fe) != m->n) {
        const int nf = hs_fe_ndof(fe);
        hs_fe_destroy(&fe);
        return hs_fail(m->ctx, HS_EINVAL,
                       "model: %s (frame model with %d dynamic DOFs, model with %d)",
                       m->fe ? "a frame model is already attached" : "DOF counts differ", nf, m->n);
    }
    m->fe = fe;
    return 0;
}

hs_fe *hs_model_fe(const hs_model *m)
{
    return m->fe;
}

int hs_model_is_linear(const hs_model *m)
{
    for (int s = 0; s < m->nsprings; s++)
        if (!hs_material_is_linear(m->springs[s].mat)) return 0;
    return m->fe ? hs_fe_is_linear(m->fe) : 1;
}

/* Adds k to the 2x2 pattern of a spring in a dense n x n matrix. */
static void hs_model_scatter(double *K, int n, int from, int to, double k)
{
    HS_AT(K, n, to, to) += k;
    if (from != HS_GROUND) {
        HS_AT(K, n, from, from) += k;
        HS_AT(K, n, from, to) -= k;
        HS_AT(K, n, to, from) -= k;
    }
}

int hs_model_initial_stiffness(const hs_model *m, double *K)
{
    int rc = hs_model_dense_only(m, "the dense initial stiffness",
                                 "use the compressed columns (hs_model_dynamics)");
    if (rc) return rc;
    memset(K, 0, (size_t)m->n * (size_t)m->n * sizeof(double));
    for (int s = 0; s < m->nsprings; s++)
        hs_model_scatter(K, m->n, m->springs[s].from, m->springs[s].to,
                         hs_material_initial_tangent(m->springs[s].mat));
    return m->fe ? hs_fe_initial_stiffness(m->fe, K) : 0;
}

/* Adds k to a spring's 2 x 2 pattern in K, entry (i, j) at K[j cs + i + base]: dense n x n
 * (cs = n, base = 0) or packed band of half-bandwidth kd (cs = 2 kd, base = kd). */
static inline void spring_scatter(double *K, size_t cs, size_t base, const hs_spring *s, double k)
{
    const size_t to = (size_t)s->to;
    K[to * cs + to + base] += k;
    if (s->from != HS_GROUND) {
        const size_t from = (size_t)s->from;
        K[from * cs + from + base] += k;
        K[to * cs + from + base] -= k;
        K[from * cs + to + base] -= k;
    }
}

int hs_model_springs_restore(hs_model *m, const double *d, const double *v, double *r, double *Kt,
                             double *Ct, int kd)
{
    const size_t cs = kd < 0 ? (size_t)m->n : 2 * (size_t)kd, base = kd < 0 ? 0 : (size_t)kd;
    for (int k = 0; k < m->nsprings; k++) {
        hs_spring *s = &m->springs[k];
        const double e = d[s->to] - (s->from == HS_GROUND ? 0.0 : d[s->from]);
        const double edot = v ? v[s->to] - (s->from == HS_GROUND ? 0.0 : v[s->from]) : 0.0;
        int rc = hs_material_set_trial(s->mat, e, edot);
        if (rc) return hs_fail(m->ctx, rc, "spring '%s': %s", s->name, hs_ctx_message(m->ctx));
        const double f = s->mat->stress;
        r[s->to] += f;
        if (s->from != HS_GROUND) r[s->from] -= f;
        if (Kt) spring_scatter(Kt, cs, base, s, s->mat->tangent);
        if (Ct) spring_scatter(Ct, cs, base, s, s->mat->rate_tangent);
    }
    return 0;
}

int hs_model_restore(hs_model *m, const double *d, const double *v, double *r, double *Kt,
                     double *Ct)
{
    const int n = m->n;
    memset(r, 0, (size_t)n * sizeof(double));
    if (Kt) memset(Kt, 0, (size_t)n * (size_t)n * sizeof(double));
    if (Ct) memset(Ct, 0, (size_t)n * (size_t)n * sizeof(double));
    const int rc = hs_model_springs_restore(m, d, v, r, Kt, Ct, -1);
    if (rc) return rc;
    return m->fe ? hs_fe_restore(m->fe, d, v, r, Kt, Ct) : 0;
}

int hs_model_commit(hs_model *m)
{
    for (int k = 0; k < m->nsprings; k++) {
        hs_spring *s = &m->springs[k];
        int rc = hs_material_commit(s->mat);
        if (rc) return rc;
        s->force = hs_material_stress(s->mat);
        s->deformation = hs_material_strain(s->mat);
    }
    return m->fe ? hs_fe_commit(m->fe) : 0;
}

int hs_model_revert(hs_model *m)
{
    for (int k = 0; k < m->nsprings; k++) {
        int rc = hs_material_revert(m->springs[k].mat);
        if (rc) return rc;
    }
    return m->fe ? hs_fe_revert(m->fe) : 0;
}

double hs_model_spring_force(const hs_model *m, int s)
{
    return m->springs[s].force;
}
double hs_model_spring_deformation(const hs_model *m, int s)
{
    return m->springs[s].deformation;
}
