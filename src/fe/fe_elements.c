/* Element forces and tangents in global coordinates: 2-D truss and elastic beam-column (linear or
 * P-Delta transformation, as OpenSees' LinearCrdTransf2d / PDeltaCrdTransf2d; corotational), in
 * DOF order [ux_i uy_i rz_i ux_j uy_j rz_j] (a truss leaves the rotations out; 1-D models use
 * them with uy and rz absent); the 3-D ones (fe_beam3d.c); zero-length spring with a uniaxial
 * material in one node DOF. The element's DOFs reach the equations through their maps (u = T u_r,
 * fe_constraints.c). */
#include "fe_impl.h"

#include <math.h>
#include <string.h>

#define K6(k, i, j) ((k)[(size_t)(j)*6 + (size_t)(i)])

static const fe_map NO_DOF = {0, {0}, {0.0}};

int fe_element_maps(const hs_fe *fe, const fe_element *e, const fe_map *maps[FE_MAX_EDOF])
{
    if (e->nmaps) { /* kept at finalize (fe_element_keep_maps) */
        memcpy(maps, e->maps, (size_t)e->nmaps * sizeof *maps);
        return e->nmaps;
    }
    const fe_node *nd[2] = {&fe->nodes[e->ni], &fe->nodes[e->nj]};
    if (e->kind == FE_ZERO_LENGTH || e->kind == FE_COUPLED_ZERO_LENGTH || e->kind == FE_TFP_X) {
        for (int n = 0; n < 2; n++)
            for (int d = 0; d < fe->ndf; d++) maps[n * fe->ndf + d] = &nd[n]->map[d];
        return 2 * fe->ndf;
    }
    static const int CODES_2D[3] = {FE_CX, FE_CY, FE_CRZ};
    const int per = fe->ndm == 3 ? 6 : 3;
    /* the rotations too, but for a truss */
    const int rot = e->kind == FE_BEAM || e->kind == FE_LINK || e->kind == FE_BEAM_COLUMN ||
                    e->kind == FE_ZERO_LENGTH_SECTION;
    for (int k = 0; k < per; k++) {
        const int code = per == 6 ? k : CODES_2D[k];
        const int d = fe->code_dof[code];
        const int conn = d >= 0 && (rot || code < FE_CRX);
        maps[k] = conn ? &nd[0]->map[d] : &NO_DOF;
        maps[per + k] = conn ? &nd[1]->map[d] : &NO_DOF;
    }
    return 2 * per;
}

void fe_element_keep_maps(hs_fe *fe)
{
    for (int k = 0; k < fe->nels; k++) {
        fe_element *e = &fe->els[k];
        e->nmaps = 0;
        e->nmaps = fe_element_maps(fe, e, e->maps);
    }
}

int fe_element_materials(const fe_element *e, hs_material **mats)
{
    if (e->link) return fe_link_materials(e, mats);
    if (e->kind == FE_TFP_X) return fe_tfpx_materials(e, mats);
    if (e->mat) mats[0] = e->mat;
    return e->mat ? 1 : 0;
}

/* Local stiffness of a beam (I > 0) or truss (I = 0) in [u_i v_i th_i u_j v_j th_j]. */
static void local_stiffness(const fe_element *e, double k[36])
{
    memset(k, 0, 36 * sizeof(double));
    const double L = e->L, ea = e->E * e->A / L;
    K6(k, 0, 0) = K6(k, 3, 3) = ea;
    K6(k, 0, 3) = K6(k, 3, 0) = -ea;
    if (e->kind != FE_BEAM) return;
    if (e->release_z) { /* T^T kb T, T = d [th_i th_j] / d ul (the chord's rotation) */
        double kb[4];
        fe_release_kb(e->release_z, kb);
        const double T[2][6] = {{0, 1.0 / L, 1, 0, -1.0 / L, 0}, {0, 1.0 / L, 0, 0, -1.0 / L, 1}};
        for (int j = 0; j < 6; j++)
            for (int i = 0; i < 6; i++)
                for (int a = 0; a < 2; a++)
                    for (int b = 0; b < 2; b++)
                        K6(k, i, j) += e->E * e->I / L * T[a][i] * kb[2 * a + b] * T[b][j];
        return;
    }
    const double ei = e->E * e->I, k12 = 12.0 * ei / (L * L * L), k6 = 6.0 * ei / (L * L),
                 k4 = 4.0 * ei / L, k2 = 2.0 * ei / L;
    K6(k, 1, 1) = K6(k, 4, 4) = k12;
    K6(k, 1, 4) = K6(k, 4, 1) = -k12;
    K6(k, 1, 2) = K6(k, 2, 1) = K6(k, 1, 5) = K6(k, 5, 1) = k6;
    K6(k, 4, 2) = K6(k, 2, 4) = K6(k, 4, 5) = K6(k, 5, 4) = -k6;
    K6(k, 2, 2) = K6(k, 5, 5) = k4;
    K6(k, 2, 5) = K6(k, 5, 2) = k2;
}

/* kg = R^T kl R for R a permutation with signs, g_i = sg_i l_P(i) (P its own inverse). */
static inline void permute_stiffness(const double kl[36], const int P[6], const double sg[6],
                                     double kg[36])
{
    for (int j = 0; j < 6; j++)
        for (int i = 0; i < 6; i++) K6(kg, i, j) = sg[i] * sg[j] * K6(kl, P[i], P[j]);
}

/* k_g = R^T k_l R. An element along a global axis (c, s of 0 and +-1: a frame's beams and
 * columns) has R a permutation with signs: its stiffness is moved and negated instead of
 * multiplied by 0 and 1 and added, the same numbers (a zero's sign aside). */
void fe2d_stiffness_to_global(const fe_element *e, const double kl[36], double kg[36])
{
    static const int PX[6] = {0, 1, 2, 3, 4, 5}, PY[6] = {1, 0, 2, 4, 3, 5};
    static const double C_NEG[6] = {-1, -1, 1, -1, -1, 1}, S_POS[6] = {-1, 1, 1, -1, 1, 1},
                        S_NEG[6] = {1, -1, 1, 1, -1, 1};
    if (e->s == 0.0 && e->c == 1.0) {
        memcpy(kg, kl, 36 * sizeof(double));
        return;
    }
    if (e->s == 0.0 && e->c == -1.0) {
        permute_stiffness(kl, PX, C_NEG, kg);
        return;
    }
    if (e->c == 0.0 && e->s == 1.0) {
        permute_stiffness(kl, PY, S_POS, kg);
        return;
    }
    if (e->c == 0.0 && e->s == -1.0) {
        permute_stiffness(kl, PY, S_NEG, kg);
        return;
    }
    const double c = e->c, s = e->s;
    double t[36];
    for (int i = 0; i < 6; i++) /* t = k_l R: R's 2 x 2 blocks mix columns 3b and 3b + 1 */
        for (int b = 0; b < 6; b += 3) {
            const double k0 = K6(kl, i, b), k1 = K6(kl, i, b + 1);
            K6(t, i, b) = c * k0 - s * k1;
            K6(t, i, b + 1) = s * k0 + c * k1;
            K6(t, i, b + 2) = K6(kl, i, b + 2);
        }
    for (int j = 0; j < 6; j++) /* kg = R^T t: the same blocks mix rows */
        for (int b = 0; b < 6; b += 3) {
            const double t0 = K6(t, b, j), t1 = K6(t, b + 1, j);
            K6(kg, b, j) = c * t0 - s * t1;
            K6(kg, b + 1, j) = s * t0 + c * t1;
            K6(kg, b + 2, j) = K6(t, b + 2, j);
        }
}

static void gather(const fe_map *const maps[], int nde, const double *u, double *g)
{
    for (int i = 0; i < nde; i++) g[i] = u ? fe_map_value(maps[i], u) : 0.0;
}

/* Corotational: the chord's current length Ln and angle beta carry the rigid-body motion; basic
 * deformations ub = Ln - L, th_a = rz_a - (beta - beta0) with basic forces N = EA/L ub - P0,
 * M = EI/L [4 2; 2 4] th; f = B^T q and K = B^T kb B + N/Ln z z^T + (M1 + M2)/Ln^2 (r z^T +
 * z r^T), r = d Ln / d u, z = its normal (Crisfield 1991, Non-linear Finite Element Analysis of
 * Solids and Structures, vol. 1, section 7.2). */
static void corotational(const fe_element *e, const double ug[6], int initial, double f[6],
                         double k[36])
{
    const double dx = e->L * e->c + ug[3] - ug[0], dy = e->L * e->s + ug[4] - ug[1];
    const double Ln = sqrt(dx * dx + dy * dy), c = dx / Ln, s = dy / Ln;
    const double rot = atan2(e->c * s - e->s * c, e->c * c + e->s * s); /* beta - beta0 */
    const double ea = e->E * e->A / e->L, ei = e->E * e->I / e->L;
    const double N = ea * (Ln - e->L) - e->P0;
    double M1 = 0.0, M2 = 0.0;
    const double r[6] = {-c, -s, 0.0, c, s, 0.0}, z[6] = {s, -c, 0.0, -s, c, 0.0};
    double b1[6], b2[6]; /* d th_a / d u */
    for (int i = 0; i < 6; i++) b1[i] = b2[i] = -z[i] / Ln;
    b1[2] += 1.0;
    b2[5] += 1.0;
    double kb[4];
    fe_release_kb(e->release_z, kb);
    if (e->kind == FE_BEAM) {
        const double t1 = ug[2] - rot, t2 = ug[5] - rot;
        M1 = ei * (kb[0] * t1 + kb[1] * t2);
        M2 = ei * (kb[2] * t1 + kb[3] * t2);
    }
    /* member loads: the fixed-end forces in the basic forces, the reactions fixed in the
     * element's initial axes (OpenSees' CorotCrdTransf2d::getGlobalResistingForce) */
    double q0[3] = {0}, p0[3] = {0}, pl[6] = {0}, pg[6] = {0};
    if (e->nml && !initial) {
        fe_ml_fixed_end(e, 2, q0, p0);
        pl[0] = p0[0], pl[1] = p0[1], pl[4] = p0[2];
        fe2d_to_global(e, pl, pg);
    }
    const double Nq = N + q0[0];
    M1 += q0[1];
    M2 += q0[2];
    for (int i = 0; i < 6; i++) f[i] = r[i] * Nq + b1[i] * M1 + b2[i] * M2 + pg[i];
    if (!k) return;
    for (int j = 0; j < 6; j++)
        for (int i = 0; i < 6; i++) {
            double v = ea * r[i] * r[j] + Nq / Ln * z[i] * z[j] +
                       (M1 + M2) / (Ln * Ln) * (r[i] * z[j] + z[i] * r[j]);
            if (e->kind == FE_BEAM)
                v += ei * (kb[0] * b1[i] * b1[j] + kb[3] * b2[i] * b2[j] + kb[1] * b1[i] * b2[j] +
                           kb[2] * b2[i] * b1[j]);
            K6(k, i, j) = v;
        }
}

static int line_state(fe_element *e, const fe_map *const eqs[], const double *u, int initial,
                      double f[6], double k[36])
{
    if (e->transf == HS_FE_COROTATIONAL) {
        double ug[6] = {0}, fg[6];
        if (!initial) gather(eqs, 6, u, ug);
        if (e->kind == FE_TRUSS) ug[2] = ug[5] = 0.0;
        corotational(e, ug, initial, fg, k);
        if (f) memcpy(f, fg, sizeof fg);
        return 0;
    }
    double kl[36], ul[6] = {0}, fl[6], ug[6];
    local_stiffness(e, kl);
    if (!initial) {
        gather(eqs, 6, u, ug);
        if (e->kind == FE_TRUSS) ug[2] = ug[5] = 0.0;
        fe2d_to_local(e, ug, ul);
    }
    for (int i = 0; i < 6; i++) {
        double s = 0.0;
        for (int m = 0; m < 6; m++) s += K6(kl, i, m) * ul[m];
        fl[i] = s;
    }
    double q0[3] = {0}, p0[3] = {0}; /* member loads: fixed-end forces, reactions */
    if (e->nml && !initial) {
        fe_ml_fixed_end(e, 2, q0, p0);
        fe_ml_local_2d(e->L, q0, p0, fl);
    }
    if (e->transf == HS_FE_PDELTA) {
        /* N (tension positive) = basic axial force - gravity compression; the chord rotation
         * carries N dv / L (OpenSees PDeltaCrdTransf2d; its tangent adds N / L only). */
        fe2d_pdelta(e->E * e->A / e->L * (ul[3] - ul[0]) + q0[0] - e->P0, e->L, ul, fl, kl);
    }
    if (f) fe2d_to_global(e, fl, f);
    if (k) fe2d_stiffness_to_global(e, kl, k);
    return 0;
}

/* An elastic truss or beam with the linear transformation: its global stiffness is constant,
 * computed at the first state and kept (f = k u, no transformation per step); 0 when it applies. */
static int linear_line_state(fe_element *e, const fe_map *const maps[], int nde, const double *u,
                             int initial, double *f, double *k)
{
    if ((e->kind != FE_TRUSS && e->kind != FE_BEAM) || e->transf != HS_FE_LINEAR || e->mat ||
        e->nml)
        return 1;
    const size_t kk = (size_t)nde * (size_t)nde;
    if (!e->kg) {
        double *kg = hs_dvec(kk);
        if (!kg) return 1; /* out of memory: computed at every state instead */
        double ug[12] = {0}, fg[12];
        if (nde == 12)
            fe3d_line_state(e, ug, fg, kg);
        else
            line_state(e, maps, NULL, 1, NULL, kg);
        e->kg = kg;
    }
    if (f && initial) memset(f, 0, (size_t)nde * sizeof(double));
    if (f && !initial) {
        double ug[12], fl[12] = {0};
        gather(maps, nde, u, ug);
        if (e->kind == FE_TRUSS && nde == 6) ug[2] = ug[5] = 0.0;
        const double *kg = e->kg;
        if (nde == 6) /* the compiler unrolls the fixed sizes */
            for (int j = 0; j < 6; j++)
                for (int i = 0; i < 6; i++) fl[i] += kg[j * 6 + i] * ug[j];
        else
            for (int j = 0; j < 12; j++)
                for (int i = 0; i < 12; i++) fl[i] += kg[j * 12 + i] * ug[j];
        memcpy(f, fl, (size_t)nde * sizeof(double));
    }
    if (k) memcpy(k, e->kg, kk * sizeof(double));
    return 0;
}

/* The material of a zero-length element at the deformation du (and rate dv when rate): its
 * force s and tangents kt, ct (initial: the initial tangent only). */
int fe_zero_length_material(hs_fe *fe, fe_element *e, double du, double dv, int rate, int initial,
                            double *s, double *kt, double *ct)
{
    *s = *ct = 0.0;
    if (initial) {
        *kt = hs_material_initial_tangent(e->mat);
        return 0;
    }
    const int rc = hs_material_set_trial(e->mat, du, rate ? dv : 0.0);
    if (rc) return hs_fail(fe->ctx, rc, "element '%s': %s", e->name, hs_ctx_message(fe->ctx));
    *s = hs_material_stress(e->mat);
    *kt = hs_material_tangent(e->mat);
    *ct = hs_material_rate_tangent(e->mat);
    return 0;
}

int fe_zero_length_state(hs_fe *fe, fe_element *e, const fe_map *mi, const fe_map *mj,
                         const double *u, const double *v, int initial, double *s, double *kt,
                         double *ct)
{
    if (initial) return fe_zero_length_material(fe, e, 0.0, 0.0, 0, 1, s, kt, ct);
    const double du = fe_map_value(mj, u) - fe_map_value(mi, u);
    const double dv = v ? fe_map_value(mj, v) - fe_map_value(mi, v) : 0.0;
    return fe_zero_length_material(fe, e, du, dv, v != NULL, 0, s, kt, ct);
}

int fe_element_state(hs_fe *fe, fe_element *e, const fe_map *const maps[], const double *u,
                     const double *v, int initial, double *f, double *k, double *c)
{
    const int zl =
        e->kind == FE_ZERO_LENGTH || e->kind == FE_COUPLED_ZERO_LENGTH || e->kind == FE_TFP_X;
    const int nde = zl ? 2 * fe->ndf : fe->ndm == 3 ? 12 : 6;
    const size_t kk = (size_t)nde * (size_t)nde;
    if (c) memset(c, 0, kk * sizeof(double));
    if (e->kind == FE_BEAM_COLUMN) return fe_bc_element_state(fe, e, maps, u, initial, f, k);
    if (e->kind == FE_COUPLED_ZERO_LENGTH) return fe_czl_state(fe, e, maps, u, v, initial, f, k, c);
    if (e->kind == FE_TFP_X) return fe_tfpx_state(fe, e, maps, u, v, initial, f, k, c);
    if (e->kind == FE_LINK) return fe_link_state(fe, e, maps, u, v, initial, f, k, c);
    if (e->kind == FE_ZERO_LENGTH_SECTION) return fe_zls_state(fe, e, maps, u, initial, f, k);
    if (e->kind == FE_TRUSS && e->mat) return fe_truss_state(fe, e, maps, u, v, initial, f, k, c);
    if (!linear_line_state(e, maps, nde, u, initial, f, k)) return 0;
    if (e->kind != FE_ZERO_LENGTH && fe->ndm == 3) {
        double ug[12] = {0}, fg[12], kg[144];
        if (!initial) gather(maps, 12, u, ug);
        const int nml = e->nml;
        if (initial) e->nml = 0; /* the initial tangent: no member load */
        fe3d_line_state(e, ug, fg, k ? kg : NULL);
        e->nml = nml;
        if (f && !initial) memcpy(f, fg, sizeof fg);
        if (k) memcpy(k, kg, sizeof kg);
        return 0;
    }
    if (e->kind != FE_ZERO_LENGTH) return line_state(e, maps, u, initial, f, k);
    const int i = e->dir, j = fe->ndf + e->dir;
    double s, kt, ct;
    const int rc = fe_zero_length_state(fe, e, maps[i], maps[j], u, v, initial, &s, &kt, &ct);
    if (rc) return rc;
    if (!initial) {
        memset(f, 0, (size_t)nde * sizeof(double));
        f[j] = s;
        f[i] = -s;
    }
    if (k) {
        memset(k, 0, kk * sizeof(double));
        k[(size_t)i * (size_t)nde + (size_t)i] = k[(size_t)j * (size_t)nde + (size_t)j] = kt;
        k[(size_t)j * (size_t)nde + (size_t)i] = k[(size_t)i * (size_t)nde + (size_t)j] = -kt;
    }
    if (c) {
        c[(size_t)i * (size_t)nde + (size_t)i] = c[(size_t)j * (size_t)nde + (size_t)j] = ct;
        c[(size_t)j * (size_t)nde + (size_t)i] = c[(size_t)i * (size_t)nde + (size_t)j] = -ct;
    }
    return 0;
}
