/* Beam-columns with sections as frame elements (include/hysim/fe.h, hs_fe_add_beam_column): the
 * section descriptions, their instances at the integration points, and the geometric
 * transformations from the basic system (fe_beamcolumn2d.c) to the nodes. 3-D: those of the
 * elastic 3-D beam (fe_beam3d.c: Linear, PDelta with N = q0; fe_corot3d.c: Corotational), the
 * basic forces and tangent coming from the sections. 2-D, as OpenSees' LinearCrdTransf2d,
 * PDeltaCrdTransf2d and CorotCrdTransf2d (read for facts):
 *   Linear:  v = [ul_j - ul_i, th_i - (vl_j - vl_i) / L, th_j - (vl_j - vl_i) / L] in local axes,
 *            f = T^T q, K = T^T kb T;
 *   PDelta:  plus the axial force q0 on the chord rotation, q0 (vl_j - vl_i) / L, tangent q0 / L;
 *   Corotational: the chord's current length and angle carry the rigid-body motion (Crisfield
 *            1991, as the elastic corotational beam in fe_elements.c), K = B^T kb B + geometric. */
#include "fe_beamcolumn.h"
#include "fe_impl.h"

#include <math.h>
#include <string.h>

#define K6(k, i, j) ((k)[(size_t)(j)*6 + (size_t)(i)])

typedef struct def_fiber {
    double y, z, A;
    const char *type;
    const hs_options *opts;
} def_fiber;

struct hs_fe_section_def {
    hs_ctx *ctx;
    int ndm;
    def_fiber *fib;
    int nfib, cap;
    int has_elastic;
    double elastic[4];
    double GJ;
    int nagg;
    int agg_code[FE_SEC_MAX];
    const char *agg_type[FE_SEC_MAX];
    const hs_options *agg_opts[FE_SEC_MAX];
    /* the fibers' places of the sections made from it (fe_section_make), in a cell of its own so
     * that making a section from a const description can set it; NULL before the first */
    fe_section_places **places;
};

int hs_fe_section_def_create(hs_ctx *ctx, int ndm, hs_fe_section_def **out)
{
    if (ndm != 2 && ndm != 3)
        return hs_fail(ctx, HS_EINVAL, "section: the model has %d dimensions (2 or 3)", ndm);
    hs_fe_section_def *d = hs_calloc(1, sizeof *d);
    if (!d) return HS_ENOMEM;
    d->ctx = ctx;
    d->ndm = ndm;
    d->places = hs_calloc(1, sizeof *d->places);
    if (!d->places) {
        hs_free(d);
        return HS_ENOMEM;
    }
    *out = d;
    return 0;
}

void hs_fe_section_def_destroy(hs_fe_section_def **d)
{
    if (!d || !*d) return;
    fe_section_places_release((*d)->places);
    hs_free((*d)->places);
    hs_free((*d)->fib);
    hs_free(*d);
    *d = NULL;
}

int hs_fe_section_def_fiber(hs_fe_section_def *d, double y, double z, double A,
                            const char *mat_type, const hs_options *mat_opts)
{
    if (!(A > 0.0 && isfinite(A) && isfinite(y) && isfinite(z)))
        return hs_fail(d->ctx, HS_EINPUT,
                       "section: fiber at (%g, %g) has area %g (must be > 0, finite position)", y,
                       z, A);
    if (d->nfib == d->cap) {
        const int cap = d->cap ? 2 * d->cap : 64;
        def_fiber *f = hs_realloc(d->fib, (size_t)cap * sizeof *f);
        if (!f) return HS_ENOMEM;
        d->fib = f;
        d->cap = cap;
    }
    d->fib[d->nfib++] = (def_fiber){y, z, A, mat_type, mat_opts};
    return 0;
}

int hs_fe_section_def_elastic(hs_fe_section_def *d, double EA, double EIz, double EIy, double GJ)
{
    d->has_elastic = 1;
    d->elastic[0] = EA;
    d->elastic[1] = EIz;
    d->elastic[2] = EIy;
    d->elastic[3] = GJ;
    return 0;
}

int hs_fe_section_def_torsion(hs_fe_section_def *d, double GJ)
{
    d->GJ = GJ;
    return 0;
}

int hs_fe_section_def_uniaxial(hs_fe_section_def *d, int code, const char *mat_type,
                               const hs_options *mat_opts)
{
    if (d->nagg == FE_SEC_MAX)
        return hs_fail(d->ctx, HS_EINPUT, "section: more than %d aggregated materials", FE_SEC_MAX);
    d->agg_code[d->nagg] = code;
    d->agg_type[d->nagg] = mat_type;
    d->agg_opts[d->nagg++] = mat_opts;
    return 0;
}

int hs_fe_section_def_append(hs_fe_section_def *d, const hs_fe_section_def *src)
{
    int rc = 0;
    for (int i = 0; !rc && i < src->nfib; i++)
        rc = hs_fe_section_def_fiber(d, src->fib[i].y, src->fib[i].z, src->fib[i].A,
                                     src->fib[i].type, src->fib[i].opts);
    if (!rc && src->has_elastic) {
        d->has_elastic = 1;
        memcpy(d->elastic, src->elastic, sizeof d->elastic);
    }
    if (!rc && src->GJ != 0.0) d->GJ = src->GJ;
    for (int i = 0; !rc && i < src->nagg; i++)
        rc = hs_fe_section_def_uniaxial(d, src->agg_code[i], src->agg_type[i], src->agg_opts[i]);
    return rc;
}

/* A new section with its own materials from the description. */
int fe_section_make(const hs_fe_section_def *d, fe_section **out)
{
    fe_section *s = NULL;
    int rc = fe_section_create(d->ctx, d->ndm, &s);
    for (int i = 0; !rc && i < d->nfib; i++) {
        hs_material *m = NULL;
        rc = hs_material_create(d->ctx, d->fib[i].type, d->fib[i].opts, &m);
        if (!rc) rc = fe_section_add_fiber(s, d->fib[i].y, d->fib[i].z, d->fib[i].A, m);
    }
    if (!rc && d->has_elastic)
        rc = fe_section_set_elastic(s, d->elastic[0], d->elastic[1], d->elastic[2], d->elastic[3]);
    if (!rc && d->GJ != 0.0) rc = fe_section_set_torsion(s, d->GJ);
    for (int i = 0; !rc && i < d->nagg; i++) {
        hs_material *m = NULL;
        rc = hs_material_create(d->ctx, d->agg_type[i], d->agg_opts[i], &m);
        if (!rc) rc = fe_section_add_uniaxial(s, d->agg_code[i], m);
    }
    if (!rc) rc = fe_section_finalize(s);
    if (rc) {
        fe_section_destroy(&s);
        return rc;
    }
    /* the places of the sections made before from d, or this one's for the next (out of memory:
     * it keeps its own) */
    if (!*d->places)
        *d->places = fe_section_places_of(s);
    else
        fe_section_use_places(s, *d->places);
    *out = s;
    return 0;
}

int hs_fe_section_def_check(hs_fe_section_def *d)
{
    fe_section *s = NULL;
    const int rc = fe_section_make(d, &s);
    if (rc) return rc;
    const int order = s->order;
    fe_section_destroy(&s);
    return order;
}

int hs_fe_section_def_axial(const hs_fe_section_def *d, double *EA)
{
    fe_section *s = NULL;
    int rc = fe_section_make(d, &s);
    if (rc) return rc;
    const int p = fe_section_slot(s, FE_SEC_P);
    const int linear = p >= 0 && s->linear;
    if (linear) {
        double ks[FE_SEC_MAX * FE_SEC_MAX];
        fe_section_initial_tangent(s, ks);
        *EA = ks[p * s->order + p];
    }
    fe_section_destroy(&s);
    return linear;
}

int hs_fe_section_def_axial_material(const hs_fe_section_def *d, const char **type,
                                     const hs_options **opts, double *A)
{
    int on_p = -1;
    for (int i = 0; i < d->nagg; i++)
        if (d->agg_code[i] == FE_SEC_P) on_p = i;
    if (on_p >= 0) { /* section Uniaxial / Aggregator: the material is the resultant */
        if (d->nfib || d->has_elastic) return 0;
        *type = d->agg_type[on_p];
        *opts = d->agg_opts[on_p];
        *A = 1.0;
        return 1;
    }
    if (!d->nfib || d->has_elastic) return 0;
    double sum = 0.0; /* fibers of one material at one strain: sigma(eps) sum A */
    for (int i = 0; i < d->nfib; i++) {
        if (strcmp(d->fib[i].type, d->fib[0].type) != 0 || d->fib[i].opts != d->fib[0].opts)
            return 0;
        sum += d->fib[i].A;
    }
    *type = d->fib[0].type;
    *opts = d->fib[0].opts;
    *A = sum;
    return 1;
}

int hs_fe_add_beam_column(hs_fe *fe, const char *name, int ni, int nj,
                          const hs_fe_beam_column_def *def, hs_fe_transf transf)
{
    const char *nm = name ? name : "?";
    if (!(fe->ndm == 2 && fe->ndf == 3) && !(fe->ndm == 3 && fe->ndf == 6))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': beam-columns with sections need ndm 2 with ndf 3, or ndm 3 "
                       "with ndf 6; this model has ndm %d, ndf %d",
                       nm, fe->ndm, fe->ndf);
    const int kind = fe_beam_integration_kind(def->integration);
    if (kind < 0 || !def->sec[0])
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': integration '%s' (Lobatto, Legendre, Radau, NewtonCotes, "
                       "UserDefined, HingeRadau, HingeRadauTwo, HingeEndpoint) with a section",
                       nm, def->integration ? def->integration : "");
    int rc;
    fe_element *e = fe_new_element(fe, name, ni, nj, &rc);
    if (!e) return rc;
    const fe_node *a = &fe->nodes[e->ni], *b = &fe->nodes[e->nj];
    const double dx = b->x - a->x, dy = b->y - a->y, dz = fe->ndm == 3 ? b->z - a->z : 0.0;
    const double L = sqrt(dx * dx + dy * dy + dz * dz);
    if (!(L > 0.0))
        return hs_fail(fe->ctx, HS_EINPUT, "element '%s': nodes %d and %d coincide (length 0)",
                       e->name, a->id, b->id);
    if (fe->ndm == 3) {
        e->kind = FE_BEAM; /* the axes, as the elastic 3-D beam's */
        e->L = L;
        rc = fe3d_line_init(fe, e, def->vecxz);
        if (rc) return rc;
    }
    fe_beam_integration bi;
    rc = fe_beam_integration_make(fe->ctx, (fe_bi_kind)kind, def->npoints, L, def->lpI, def->lpJ,
                                  def->xi, def->w, &bi);
    if (rc) return hs_fail(fe->ctx, rc, "element '%s': %s", e->name, hs_ctx_message(fe->ctx));
    fe_section *secs[FE_BI_MAX] = {0};
    for (int p = 0; p < bi.n && !rc; p++) {
        const hs_fe_section_def *d =
            def->sec_per_point ? def->sec_per_point[p] : def->sec[bi.which[p]];
        rc = fe_section_make(d ? d : def->sec[0], &secs[p]);
    }
    if (rc) {
        for (int p = 0; p < bi.n; p++) fe_section_destroy(&secs[p]);
        return hs_fail(fe->ctx, rc, "element '%s': %s", e->name, hs_ctx_message(fe->ctx));
    }
    fe_bc2d *bc = NULL;
    if (!fe->batch_scratch && fe_batch_scratch_create(&fe->batch_scratch)) {
        for (int p = 0; p < bi.n; p++) fe_section_destroy(&secs[p]);
        return HS_ENOMEM;
    }
    rc = fe_bc2d_create(fe->ctx, def->force_based, L, &bi, secs, fe->batch_scratch, &bc);
    if (rc) return hs_fail(fe->ctx, rc, "element '%s': %s", e->name, hs_ctx_message(fe->ctx));
    if (def->max_iter > 0) bc->max_iter = def->max_iter;
    if (def->tol > 0.0) bc->tol = def->tol;
    e->kind = FE_BEAM_COLUMN;
    e->bc = bc;
    e->L = L;
    e->c = dx / L; /* 2-D */
    e->s = dy / L;
    e->transf = transf;
    if (L > fe->lref) fe->lref = L;
    return fe->nels++;
}

void hs_fe_beam_column_iterations(const hs_fe *fe, long *total, int *largest, long *calls)
{
    *total = *calls = 0;
    *largest = 0;
    for (int e = 0; e < fe->nels; e++) {
        const fe_bc2d *bc = fe->els[e].bc;
        if (!bc || !bc->force_based) continue;
        *total += bc->iters_total;
        *calls += bc->calls;
        if (bc->iters_max > *largest) *largest = bc->iters_max;
    }
}

/* The basic law of the corotational 3-D transformation: the sections' (a zero ub at `initial`
 * gives the initial stiffness without touching the states). */
typedef struct bc3d_law_arg {
    fe_bc2d *bc;
    int initial;
} bc3d_law_arg;

static int bc3d_law(void *arg, const double ub[6], double q[6], double kb[36])
{
    const bc3d_law_arg *a = arg;
    if (a->initial) {
        memset(q, 0, 6 * sizeof *q);
        return fe_bc2d_initial_stiffness(a->bc, kb) ? HS_ECONVERGE : 0;
    }
    const int rc = fe_bc2d_set_trial(a->bc, ub);
    if (rc) return rc;
    memcpy(q, a->bc->q, 6 * sizeof *q);
    memcpy(kb, a->bc->kb, 36 * sizeof *kb);
    return 0;
}

/* The member loads of the element at their factors now (fe_member_load.c): the
 * displacement-based element's fixed-end forces, the force-based one's section forces, and the
 * reactions p0 of both (2-D 3, 3-D 5 values) for the end forces. */
static void bc_member_loads(fe_element *e, double *p0)
{
    fe_bc2d *bc = e->bc;
    const int ndm = bc->nq == 6 ? 3 : 2;
    memset(bc->q0, 0, sizeof bc->q0);
    if (!bc->force_based) {
        fe_ml_fixed_end(e, ndm, bc->q0, p0);
        return;
    }
    fe_ml_reactions(e, ndm, p0);
    for (int p = 0; p < bc->bi.n; p++) {
        const fe_section *s = bc->sec[p];
        memset(bc->sp[p], 0, sizeof bc->sp[p]);
        fe_ml_section_forces(e, bc->bi.xi[p] * bc->L, s->code, s->order, bc->sp[p]);
    }
}

static inline void bc_loads(fe_element *e, double *p0)
{
    e->bc->loaded = e->nml > 0; /* (q0 and sp are read only when loaded) */
    if (e->bc->loaded) bc_member_loads(e, p0);
}

/* 3-D: the linear and P-Delta transformations of the elastic 3-D beam (fe_beam3d.c) or the
 * corotational one (fe_corot3d.c), f (12) and k (12 x 12, column-major). */
static int bc3d_state(hs_fe *fe, fe_element *e, const fe_map *const maps[], const double *u,
                      int initial, double *f, double *k)
{
    double ug[12] = {0};
    if (!initial)
        for (int i = 0; i < 12; i++) ug[i] = fe_map_value(maps[i], u);
    bc3d_law_arg arg = {e->bc, initial};
    if (e->transf == HS_FE_COROTATIONAL) {
        const int rc = fe3d_corot_state_law(e, ug, bc3d_law, &arg, initial ? NULL : f, k);
        if (rc) return hs_fail(fe->ctx, rc, "element '%s': %s", e->name, hs_ctx_message(fe->ctx));
        return 0;
    }
    double ul[12], B[6][12], ub[6], q[6], kb[36], fl[12], kl[144], p0[5] = {0};
    const double zero[6] = {0};
    if (!initial) bc_loads(e, p0);
    fe3d_to_local(e->R, ug, ul);
    fe3d_basic_matrix(e->L, B);
    for (int r = 0; r < 6; r++) {
        ub[r] = 0.0;
        for (int m = 0; m < 12; m++) ub[r] += B[r][m] * ul[m];
    }
    const int rc = bc3d_law(&arg, ub, q, kb);
    if (rc) return hs_fail(fe->ctx, rc, "element '%s': %s", e->name, hs_ctx_message(fe->ctx));
    for (int i = 0; i < 12; i++) {
        fl[i] = 0.0;
        for (int r = 0; r < 6; r++) fl[i] += B[r][i] * q[r];
    }
    if (e->nml) fe_ml_local_3d(e->L, zero, p0, fl);
    const int pdelta = e->transf == HS_FE_PDELTA;
    for (int j = 0; (k || pdelta) && j < 12; j++) /* (no tangent asked: a commit's state) */
        for (int i = 0; i < 12; i++) {
            double val = 0.0;
            for (int r = 0; r < 6; r++) {
                if (B[r][i] == 0.0) continue;
                for (int m = 0; m < 6; m++) val += B[r][i] * kb[6 * r + m] * B[m][j];
            }
            kl[(size_t)j * 12 + (size_t)i] = val;
        }
    if (pdelta) fe3d_pdelta(q[0], e->L, ul, fl, kl);
    if (f && !initial) fe3d_to_global(e->R, fl, f);
    if (k) fe3d_matrix_to_global(e->R, kl, k);
    return 0;
}

int fe_bc_element_state(hs_fe *fe, fe_element *e, const fe_map *const maps[], const double *u,
                        int initial, double *f, double *k)
{
    if (e->bc->nq == 6) return bc3d_state(fe, e, maps, u, initial, f, k);
    fe_bc2d *bc = e->bc;
    double ug[6] = {0};
    if (!initial)
        for (int i = 0; i < 6; i++) ug[i] = fe_map_value(maps[i], u);
    const double L = e->L;
    double p0[3] = {0}, kb_initial[9];
    const double zero[3] = {0};
    const double *kb = bc->kb, *q = bc->q; /* the basic stiffness and forces, read in place */
    if (!initial) bc_loads(e, p0);
    if (e->transf == HS_FE_COROTATIONAL) {
        const double dx = L * e->c + ug[3] - ug[0], dy = L * e->s + ug[4] - ug[1];
        const double Ln = sqrt(dx * dx + dy * dy), c = dx / Ln, s = dy / Ln;
        const double rot = atan2(e->c * s - e->s * c, e->c * c + e->s * s);
        const double v[3] = {Ln - L, ug[2] - rot, ug[5] - rot};
        if (initial) {
            fe_bc2d_initial_stiffness(bc, kb_initial);
            kb = kb_initial;
            q = zero;
        } else {
            const int rc = fe_bc2d_set_trial(bc, v);
            if (rc)
                return hs_fail(fe->ctx, rc, "element '%s': %s", e->name, hs_ctx_message(fe->ctx));
        }
        const double r[6] = {-c, -s, 0.0, c, s, 0.0}, z[6] = {s, -c, 0.0, -s, c, 0.0};
        double B[3][6];
        for (int i = 0; i < 6; i++) {
            B[0][i] = r[i];
            B[1][i] = B[2][i] = -z[i] / Ln;
        }
        B[1][2] += 1.0;
        B[2][5] += 1.0;
        if (f && !initial)
            for (int i = 0; i < 6; i++) f[i] = B[0][i] * q[0] + B[1][i] * q[1] + B[2][i] * q[2];
        if (f && !initial && e->nml) { /* the reactions in the initial axes (CorotCrdTransf2d) */
            double pl[6] = {0}, pg[6];
            fe_ml_local_2d(L, zero, p0, pl);
            fe2d_to_global(e, pl, pg);
            for (int i = 0; i < 6; i++) f[i] += pg[i];
        }
        if (k)
            for (int j = 0; j < 6; j++)
                for (int i = 0; i < 6; i++) {
                    double val = q[0] / Ln * z[i] * z[j] +
                                 (q[1] + q[2]) / (Ln * Ln) * (r[i] * z[j] + z[i] * r[j]);
                    for (int a = 0; a < 3; a++)
                        for (int b = 0; b < 3; b++) val += B[a][i] * kb[a * 3 + b] * B[b][j];
                    K6(k, i, j) = val;
                }
        return 0;
    }
    /* Linear and P-Delta: local displacements, basic deformations */
    double ul[6];
    fe2d_to_local(e, ug, ul);
    const double chord = (ul[4] - ul[1]) / L;
    const double v[3] = {ul[3] - ul[0], ul[2] - chord, ul[5] - chord};
    if (initial) {
        fe_bc2d_initial_stiffness(bc, kb_initial);
        kb = kb_initial;
        q = zero;
    } else {
        const int rc = fe_bc2d_set_trial(bc, v);
        if (rc) return hs_fail(fe->ctx, rc, "element '%s': %s", e->name, hs_ctx_message(fe->ctx));
    }
    /* T = d v / d ul = [-1 0 0 1 0 0; 0 1/L 1 0 -1/L 0; 0 1/L 0 0 -1/L 1]: f = T^T q and
     * K = T^T (kb T) with its zeros and ones left out (the products by 0 and the additions of
     * them change no value: the same numbers as the full products) */
    const double iL = bc->iL; /* 1.0 / L */
    double fl[6], kt[36];
    /* the local tangent straight into k when the axes are the global ones (R = I) */
    double *kl = e->c == 1.0 && e->s == 0.0 && k ? k : kt;
    fl[0] = -q[0];
    fl[1] = q[1] * iL + q[2] * iL;
    fl[2] = q[1];
    fl[3] = q[0];
    fl[4] = -fl[1];
    fl[5] = q[2];
    if (e->nml) fe_ml_local_2d(L, zero, p0, fl);
    const int pdelta = e->transf == HS_FE_PDELTA;
    double kT[3][6]; /* kb T (no tangent asked: a commit's state) */
    for (int a = 0; k && a < 3; a++) {
        const double k0 = kb[a * 3], k1 = kb[a * 3 + 1], k2 = kb[a * 3 + 2];
        kT[a][0] = -k0;
        kT[a][1] = k1 * iL + k2 * iL;
        kT[a][2] = k1;
        kT[a][3] = k0;
        kT[a][4] = -kT[a][1];
        kT[a][5] = k2;
    }
    for (int j = 0; k && j < 6; j++) {
        const double a = kT[0][j], b = kT[1][j], c = kT[2][j], m = iL * b + iL * c;
        K6(kl, 0, j) = -a;
        K6(kl, 1, j) = m;
        K6(kl, 2, j) = b;
        K6(kl, 3, j) = a;
        K6(kl, 4, j) = -m;
        K6(kl, 5, j) = c;
    }
    if (pdelta) fe2d_pdelta(q[0], L, ul, fl, k ? kl : NULL);
    if (f && !initial) fe2d_to_global(e, fl, f);
    if (k && kl != k) fe2d_stiffness_to_global(e, kl, k);
    return 0;
}

int fe_bc_element_commit(fe_element *e)
{
    return fe_bc2d_commit(e->bc);
}

int fe_bc_element_revert(fe_element *e)
{
    return fe_bc2d_revert(e->bc);
}

/* Checkpoint: v, q, kb, and per point the section's state (its deformations, = vs_c when
 * force-based, and its materials'), resultants and flexibility (all committed). */
size_t fe_bc_element_state_size(const fe_element *e)
{
    const fe_bc2d *bc = e->bc;
    size_t n = 48;
    for (int p = 0; p < bc->bi.n; p++)
        n += (size_t)(FE_SEC_MAX + FE_SEC_MAX * FE_SEC_MAX) + fe_section_state_size(bc->sec[p]);
    return n;
}

int fe_bc_element_state_save(const fe_element *e, double *out)
{
    const fe_bc2d *bc = e->bc;
    memcpy(out, bc->v_c, 6 * sizeof(double));
    memcpy(out + 6, bc->q_c, 6 * sizeof(double));
    memcpy(out + 12, bc->kb_c, 36 * sizeof(double));
    out += 48;
    for (int p = 0; p < bc->bi.n; p++) {
        /* (the layout of FE_SEC_MAX resultants and FE_SEC_MAX^2 flexibilities a point, the
         * element's ns and ns^2 of them first, zeros after) */
        const size_t ns = (size_t)bc->ns;
        memset(out, 0, (FE_SEC_MAX + FE_SEC_MAX * FE_SEC_MAX) * sizeof(double));
        const double *sr = bc->pt_c.srfs + (size_t)p * (ns + ns * ns); /* (fe_bc_sr's) */
        memcpy(out, sr, ns * sizeof(double));
        memcpy(out + FE_SEC_MAX, sr + ns, ns * ns * sizeof(double));
        out += FE_SEC_MAX + FE_SEC_MAX * FE_SEC_MAX;
        const int rc = fe_section_state_save(bc->sec[p], out);
        if (rc) return rc;
        out += fe_section_state_size(bc->sec[p]);
    }
    return 0;
}

int fe_bc_element_state_load(fe_element *e, const double *in)
{
    fe_bc2d *bc = e->bc;
    memcpy(bc->v_c, in, 6 * sizeof(double));
    memcpy(bc->q_c, in + 6, 6 * sizeof(double));
    memcpy(bc->kb_c, in + 12, 36 * sizeof(double));
    in += 48;
    for (int p = 0; p < bc->bi.n; p++) {
        const size_t ns = (size_t)bc->ns;
        memcpy(fe_bc_sr(bc, &bc->pt_c, p), in, ns * sizeof(double));
        memcpy(fe_bc_fs(bc, &bc->pt_c, p), in + FE_SEC_MAX, ns * ns * sizeof(double));
        in += FE_SEC_MAX + FE_SEC_MAX * FE_SEC_MAX;
        const int rc = fe_section_state_load(bc->sec[p], in);
        if (rc) return rc;
        memcpy(bc->pt_c.vs[p], bc->sec[p]->e_commit, FE_SEC_MAX * sizeof(double));
        in += fe_section_state_size(bc->sec[p]);
    }
    return fe_bc2d_revert(bc); /* the trial is the loaded committed state */
}

void fe_bc_element_free(fe_element *e)
{
    fe_bc2d_destroy(&e->bc);
}

void hs_fe_force_based_iterations(const hs_fe *fe, hs_fe_iterations *out)
{
    memset(out, 0, sizeof *out);
    for (int k = 0; k < fe->nels; k++) {
        const fe_element *e = &fe->els[k];
        if (e->kind != FE_BEAM_COLUMN || !e->bc || !e->bc->force_based) continue;
        const fe_bc2d *bc = e->bc;
        out->elements++;
        out->calls += bc->calls;
        out->iterations += bc->iters_total;
        if (bc->iters_max > out->most) out->most = bc->iters_max;
        if (bc->max_iter > out->max_iter) out->max_iter = bc->max_iter;
        if (bc->tol > out->tol) out->tol = bc->tol;
    }
}
