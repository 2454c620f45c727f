/* Two-node link element with OpenSees' twoNodeLink semantics, in every model hysim knows (1-D;
 * 2-D with ndf 2 or 3; 3-D with ndf 3 or 6): one uniaxial material per basic direction; the basic
 * deformations are the relative displacements of the end nodes in the local frame, ub = B u with
 * B = T_lb T_gl. The element's DOFs are fe_element_maps' layout ([ux uy rz]_i,j in 1-D and 2-D,
 * [ux uy uz rx ry rz]_i,j in 3-D; a DOF the model lacks has an empty map), a direction is the
 * node DOF index of the same name in the local frame. 2-D: local x along the chord i -> j (or
 * `orient`), local y = z x x;
 *   axial   ub = ux'_j - ux'_i
 *   shear   ub = uy'_j - uy'_i - s L rz_i - (1 - s) L rz_j   (s: shear distance from node i)
 *   moment  ub = rz_j - rz_i
 * 3-D: local x along the chord (or orient), z = x x y', y = z x x (y' given, or OpenSees' default
 * global Y, global -X when x is along +Y, +X along -Y); directions axial, shear y, shear z,
 * torsion, moment y, moment z, the shears
 *   ub_y = uy'_j - uy'_i - s_y L rz'_i - (1 - s_y) L rz'_j
 *   ub_z = uz'_j - uz'_i + s_z L ry'_i + (1 - s_z) L ry'_j
 * 1-D: local x is global X. L is the distance of the nodes, s = 0.5 by default; f = B^T q,
 * K = B^T diag(k) B, C = B^T diag(c) B. The geometry stays the initial one (small displacements),
 * as in OpenSees. With P-Delta (OpenSees -pDelta; none by default) the axial force N = q_axial
 * and the local relative displacements delta_y = u'_yj - u'_yi, delta_z = u'_zj - u'_zi (each only
 * when its shear direction is a direction of the link) add the local forces
 *   shear y: -+ (1 - r_zi - r_zj) N delta_y / L   moment z: r_zi N delta_y, r_zj N delta_y
 *   shear z: -+ (1 - r_yi - r_yj) N delta_z / L   moment y: -r_yi N delta_z, -r_yj N delta_z
 * (each term when its direction is a direction of the link), f += N (d_y w_y + d_z w_z) in global
 * terms; the tangent is their exact derivative, nonsymmetric. docs/fe_model.md, "Two-node
 * link". */
#include "fe_link_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void hs_fe_link_def_init(hs_fe_link_def *def)
{
    memset(def, 0, sizeof *def);
    def->shear_dist = 0.5;
    def->shear_dist_z = 0.5;
    def->k_shear_dist = 0.5;
    def->k_shear_dist_z = 0.5;
    for (int k = 0; k < HS_FE_LINK_MAX_DIRS; k++)
        def->disp_factor[k] = def->vel_factor[k] = def->force_factor[k] = 1.0;
}

/* 1-D and 2-D: B = T_lb T_gl for local axes x = (cx, cy), y = (-cy, cx), length L, shear
 * distance s (shear terms when the nodes turn: ndf 3). */
static void link_b(fe_link *l, double cx, double cy, double L, double s, int rot)
{
    enum { NDF = 3, ND = 6 };
    double Tgl[ND * ND] = {0}; /* row-major: local <- global */
    for (int a = 0; a < 2; a++) {
        const int o = a * NDF;
        Tgl[(o + 0) * ND + o + 0] = cx;
        Tgl[(o + 0) * ND + o + 1] = cy;
        Tgl[(o + 1) * ND + o + 0] = -cy;
        Tgl[(o + 1) * ND + o + 1] = cx;
        Tgl[(o + 2) * ND + o + 2] = 1.0;
    }
    for (int k = 0; k < l->ndir; k++) {
        double tlb[ND] = {0};
        const int d = l->dir[k];
        tlb[d] = -1.0;
        tlb[d + NDF] = 1.0;
        if (d == HS_FE_UY && rot) {
            tlb[HS_FE_RZ] = -s * L;
            tlb[NDF + HS_FE_RZ] = -(1.0 - s) * L;
        }
        for (int i = 0; i < ND; i++) {
            double b = 0.0;
            for (int m = 0; m < ND; m++) b += tlb[m] * Tgl[m * ND + i];
            l->B[k * ND + i] = b;
            l->T[k * ND + i] = tlb[i];
        }
    }
}

/* 3-D: row k of B is T_gl^T t_k, t_k the local row of direction k (shear terms when the nodes
 * turn: ndf 6). */
static void link_b3(fe_link *l, const double R[9], double L, double sy, double sz, int rot)
{
    for (int k = 0; k < l->ndir; k++) {
        double tlb[12] = {0};
        const int d = l->dir[k];
        tlb[d] = -1.0;
        tlb[d + 6] = 1.0;
        if (d == HS_FE3_UY && rot) { /* shear y carries moments about local z */
            tlb[HS_FE3_RZ] = -sy * L;
            tlb[6 + HS_FE3_RZ] = -(1.0 - sy) * L;
        } else if (d == HS_FE3_UZ && rot) { /* shear z carries moments about local y */
            tlb[HS_FE3_RY] = sz * L;
            tlb[6 + HS_FE3_RY] = (1.0 - sz) * L;
        }
        fe3d_to_global(R, tlb, &l->B[k * 12]);
        memcpy(&l->T[k * 12], tlb, sizeof tlb);
    }
}

/* OpenFresco's generic element: row k of B (and T) picks node side[k]'s DOF dir[k], absolute,
 * in global axes. */
static void link_b_absolute(fe_link *l)
{
    memset(l->B, 0, sizeof l->B);
    for (int k = 0; k < l->ndir; k++) l->B[k * l->nd + l->side[k] * (l->nd / 2) + l->dir[k]] = 1.0;
    memcpy(l->T, l->B, sizeof l->T);
}

/* K = Bk^T kb Bk, Bk the rows of the given stiffness's directions (a link of those directions). */
static void link_given_k(fe_link *l, const hs_fe *fe, const hs_fe_link_def *def, const double R[9],
                         double cx, double cy, double L)
{
    fe_link *b = hs_calloc(1, sizeof *b);
    if (!b) return; /* has_k stays 0: hs_fe_add_link reports the memory */
    b->ndir = def->nk;
    b->nd = l->nd;
    for (int k = 0; k < def->nk; k++) b->dir[k] = def->kdirs[k], b->side[k] = def->kdir_node[k];
    if (def->absolute)
        link_b_absolute(b);
    else if (fe->ndm == 3)
        link_b3(b, R, L, def->k_shear_dist, def->k_shear_dist_z, fe->ndf == 6);
    else
        link_b(b, cx, cy, L, def->k_shear_dist, fe->ndf == 3);
    const int nd = l->nd, nk = def->nk;
    for (int j = 0; j < nd; j++)
        for (int i = 0; i < nd; i++) {
            double s = 0.0;
            for (int p = 0; p < nk; p++)
                for (int q = 0; q < nk; q++)
                    s += b->B[p * nd + i] * def->kb[q * nk + p] * b->B[q * nd + j];
            l->K[j * nd + i] = s;
        }
    hs_free(b);
    l->has_k = 1;
    l->k_tangent = def->k_tangent;
}

static int has_dir(const hs_fe_link_def *def, int d)
{
    for (int k = 0; k < def->ndir; k++)
        if (def->dirs[k] == d) return k;
    return -1;
}

/* P-Delta (OpenSees' addPDeltaForces): per lateral axis a (0: local y, 1: local z in 3-D) that is
 * a shear direction, the local shape w[a] of the forces per unit N delta_a and the local row of
 * delta_a, then both in global terms (rows of T_gl^T). */
static void link_p_delta(fe_link *l, const hs_fe *fe, const hs_fe_link_def *def, const double R[9],
                         double cx, double cy, double L)
{
    const int three = fe->ndm == 3, half = l->nd / 2;
    l->ax = has_dir(def, HS_FE_UX);
    for (int a = 0; a < 2; a++) {
        const int shear = 1 + a; /* HS_FE_UY, HS_FE3_UZ */
        l->pd[a] = def->has_p_delta && fe->ndm > 1 + a && l->ax >= 0 && has_dir(def, shear) >= 0;
        if (!l->pd[a]) continue;
        /* a = 0: moments about z, ratios r[2], r[3], +; a = 1: about y, r[0], r[1], - */
        const double ri = def->p_delta[a == 0 ? 2 : 0], rj = def->p_delta[a == 0 ? 3 : 1];
        const int moment = a == 0 ? (three ? HS_FE3_RZ : HS_FE_RZ) : HS_FE3_RY;
        const double sign = a == 0 ? 1.0 : -1.0;
        double w[FE_MAX_EDOF] = {0}, h[FE_MAX_EDOF] = {0};
        h[shear] = -1.0;
        h[half + shear] = 1.0;
        const double v = L > 0.0 ? (1.0 - ri - rj) / L : 0.0; /* L = 0: refused by the caller */
        w[shear] = -v;
        w[half + shear] = v;
        if (has_dir(def, moment) >= 0) { /* a direction only where the nodes turn */
            w[moment] = sign * ri;
            w[half + moment] = sign * rj;
        }
        memcpy(l->w[a], w, sizeof w);
        if (a == 0 && def->p_delta_bearing) { /* 2-D, ndf 3 (link_check): local rz = global */
            l->bearing = 1;
            l->rot_c = def->p_delta_rot;
            l->hr[HS_FE_RZ] = def->shear_dist * L;
            l->hr[half + HS_FE_RZ] = -(1.0 - def->shear_dist) * L;
            l->gr[HS_FE_RZ] = 1.0;
            l->gr[half + HS_FE_RZ] = -1.0;
        }
        if (three) {
            fe3d_to_global(R, w, l->g[a]);
            fe3d_to_global(R, h, l->h[a]);
        } else {
            for (int o = 0; o < 6; o += 3) { /* T_gl^T: local x = (cx, cy), y = (-cy, cx) */
                l->g[a][o] = cx * w[o] - cy * w[o + 1];
                l->g[a][o + 1] = cy * w[o] + cx * w[o + 1];
                l->g[a][o + 2] = w[o + 2];
                l->h[a][o] = cx * h[o] - cy * h[o + 1];
                l->h[a][o + 1] = cy * h[o] + cx * h[o + 1];
                l->h[a][o + 2] = h[o + 2];
            }
        }
    }
}

/* OpenSees makes a negative ratio positive and scales a pair whose sum exceeds 1 down to 1, with
 * a warning; hysim refuses both and says what OpenSees would have used (docs/fe_model.md). */
static int p_delta_check(hs_fe *fe, const char *nm, const hs_fe_link_def *def)
{
    static const char *const NAME[4] = {"My at node i", "My at node j", "Mz at node i",
                                        "Mz at node j"};
    const int first = fe->ndm == 3 ? 0 : 2; /* 2-D: the two about z */
    for (int k = first; k < 4; k++)
        if (!(def->p_delta[k] >= 0.0) || !isfinite(def->p_delta[k]))
            return hs_fail(fe->ctx, HS_EINPUT,
                           "element '%s': P-Delta moment ratio %d (%s) is %g; the ratios are "
                           "fractions of N delta, 0 to 1 (OpenSees would make a negative one "
                           "positive with a warning: write %g if that is what you mean)",
                           nm, k - first + 1, NAME[k], def->p_delta[k], fabs(def->p_delta[k]));
    for (int p = first; p < 4; p += 2) {
        const double a = def->p_delta[p], b = def->p_delta[p + 1];
        if (a + b > 1.0)
            return hs_fail(fe->ctx, HS_EINPUT,
                           "element '%s': P-Delta moment ratios %s + %s = %g + %g = %g exceed 1 "
                           "(the end moments would exceed N delta; OpenSees would scale them "
                           "down to %.6g and %.6g with a warning: write those if that is what "
                           "you mean)",
                           nm, NAME[p], NAME[p + 1], a, b, a + b, a / (a + b), b / (a + b));
    }
    return 0;
}

static int link_check(hs_fe *fe, const char *name, int ni, int nj, const hs_fe_link_def *def)
{
    const char *nm = name ? name : "?";
    const int most = def && def->absolute ? HS_FE_LINK_MAX_DIRS : fe->ndf;
    if (!def || def->ndir < 1 || def->ndir > most)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': a two-node link needs 1 to %d directions (got %d)", nm, most,
                       def ? def->ndir : 0);
    if (def->absolute && (def->has_orient || def->has_p_delta))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': a link of absolute node DOFs (a generic element) takes no "
                       "orient and no P-Delta",
                       nm);
    for (int r = 0; r < HS_SF_RESPONSES && (def->setup || def->exp_beam); r++)
        if (def->ctrl_filter[r].type != HS_SF_NONE || def->daq_filter[r].type != HS_SF_NONE)
            return hs_fail(fe->ctx, HS_EINPUT,
                           "element '%s': signal filters act on a link without a setup's "
                           "actuators and not an experimental beam-column",
                           nm);
    for (int k = 0; def->absolute && k < def->ndir + def->nk; k++) {
        const int side = k < def->ndir ? def->dir_node[k] : def->kdir_node[k - def->ndir];
        if (side != 0 && side != 1)
            return hs_fail(fe->ctx, HS_EINPUT,
                           "element '%s': %s %d's node is %d; 0 (node i) or 1 (node j)", nm,
                           k < def->ndir ? "direction" : "the given stiffness's direction",
                           (k < def->ndir ? k : k - def->ndir) + 1, side);
    }
    for (int k = 0; k < def->ndir; k++) {
        if (def->dirs[k] < 0 || def->dirs[k] >= fe->ndf) {
            char known[64] = "";
            for (int d = 0; d < fe->ndf; d++) {
                const size_t len = strlen(known);
                snprintf(known + len, sizeof known - len, "%s%s",
                         d == 0             ? ""
                         : d == fe->ndf - 1 ? " or "
                                            : ", ",
                         fe_dof_label(fe, d));
            }
            return hs_fail(fe->ctx, HS_EINPUT,
                           "element '%s': direction %d must be %s (local axes; ndm %d, ndf %d)", nm,
                           k + 1, known, fe->ndm, fe->ndf);
        }
        for (int j = 0; j < k; j++)
            if (def->dirs[j] == def->dirs[k] &&
                (!def->absolute || def->dir_node[j] == def->dir_node[k]))
                return hs_fail(fe->ctx, HS_EINPUT,
                               "element '%s': direction %d is given twice; one material per "
                               "direction",
                               nm, k + 1);
        if (!def->mat_type[k])
            return hs_fail(fe->ctx, HS_EINPUT, "element '%s': direction %d has no material", nm,
                           k + 1);
        if (!isfinite(def->disp_factor[k]) || def->disp_factor[k] == 0.0 ||
            !isfinite(def->force_factor[k]) || def->force_factor[k] == 0.0 ||
            !isfinite(def->vel_factor[k]))
            return hs_fail(fe->ctx, HS_EINPUT,
                           "element '%s': direction %d: scale factors displacement %g, velocity "
                           "%g, force %g; displacement and force need finite nonzero factors",
                           nm, k + 1, def->disp_factor[k], def->vel_factor[k],
                           def->force_factor[k]);
    }
    if (!(def->shear_dist >= 0.0 && def->shear_dist <= 1.0))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': shear_dist is a fraction of the length from node %d, 0 to 1 "
                       "(got %g)",
                       nm, ni, def->shear_dist);
    if (fe->ndm == 3 && !(def->shear_dist_z >= 0.0 && def->shear_dist_z <= 1.0))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': the shear distance along local z is a fraction of the "
                       "length from node %d, 0 to 1 (got %g)",
                       nm, ni, def->shear_dist_z);
    if (!(def->mass >= 0.0) || !isfinite(def->mass))
        return hs_fail(fe->ctx, HS_EINPUT, "element '%s': mass must be >= 0 (got %g)", nm,
                       def->mass);
    if (ni == nj)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': a two-node link joins two different nodes (both %d)", nm, ni);
    if (def->nk < 0 || def->nk > most)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': a given stiffness over 0 to %d directions (got %d)", nm, most,
                       def->nk);
    for (int k = 0; k < def->nk; k++)
        if (def->kdirs[k] < 0 || def->kdirs[k] >= fe->ndf)
            return hs_fail(fe->ctx, HS_EINPUT,
                           "element '%s': the given stiffness's direction %d is %d, 0 to %d", nm,
                           k + 1, def->kdirs[k], fe->ndf - 1);
    for (int k = 0; k < def->nk * def->nk; k++)
        if (!isfinite(def->kb[k]))
            return hs_fail(fe->ctx, HS_EINPUT,
                           "element '%s': the given stiffness has a non-finite entry %d", nm,
                           k + 1);
    if (def->p_delta_bearing &&
        !(def->has_p_delta && fe->ndm == 2 && fe->ndf == 3 && isfinite(def->p_delta_rot)))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': a bearing's P-Delta needs the P-Delta ratios, a plane frame "
                       "(ndm 2, ndf 3) and a finite rotation factor (got %g)",
                       nm, def->p_delta_rot);
    for (int k = 0; k < def->ndir; k++)
        if (def->has_k_dir[k] && !isfinite(def->k_dir[k]))
            return hs_fail(fe->ctx, HS_EINPUT,
                           "element '%s': direction %d: the given stiffness is %g; give a finite "
                           "one",
                           nm, k + 1, def->k_dir[k]);
    if (def->exp_beam && fe->ndm == 3 &&
        (fe->ndf != 6 || !fe_beam3_dirs_ok(def->kdirs, def->nk) || def->has_p_delta || def->setup ||
         def->k_shear_dist != 1.0 || def->k_shear_dist_z != 1.0 || def->shear_dist != 1.0 ||
         def->shear_dist_z != 1.0))
        return hs_fail(
            fe->ctx, HS_EINPUT,
            "element '%s': a 3-D experimental beam-column is a space frame's (ndm 3, ndf "
            "6) with its -initStif over axial, shear y, rz, "
            "shear z, ry, torsion (EEBeamColumn3d's basic system B, shears at node j: "
            "shear distances 1), no P-Delta ratios and no setup",
            nm);
    if (def->exp_beam && fe->ndm != 3 &&
        (fe->ndm != 2 || fe->ndf != 3 || def->nk != 3 || def->kdirs[0] != HS_FE_UX ||
         def->kdirs[1] != HS_FE_UY || def->kdirs[2] != HS_FE_RZ || def->has_p_delta || def->setup ||
         def->ndir > 3))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': an experimental beam-column is a plane frame's (ndm 2, ndf "
                       "3) with its -initStif over x, y, rz, its specimens on those directions, "
                       "no P-Delta ratios and no setup",
                       nm);
    if (def->setup && def->has_p_delta)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': a link through an experimental setup takes no P-Delta "
                       "moments (the setup carries the geometry)",
                       nm);
    if (def->setup && (def->setup->ndof != def->ndir || def->setup->nact != def->ndir))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': its setup has %d actuators over %d DOFs; the link has %d "
                       "directions, one actuator and one material each",
                       nm, def->setup->nact, def->setup->ndof, def->ndir);
    return def->has_p_delta ? p_delta_check(fe, nm, def) : 0;
}

/* 2-D local x (cx, cy): orient, else the chord, else global X. */
static int axes_2d(hs_fe *fe, const fe_element *e, const hs_fe_link_def *def, double dx, double dy,
                   double L, double *cx, double *cy)
{
    *cx = 1.0, *cy = 0.0; /* coincident nodes: global X (the geometry says nothing) */
    if (def->has_orient) {
        const double n = hypot(def->orient[0], def->orient[1]);
        if (!(n > 0.0) || !isfinite(n))
            return hs_fail(fe->ctx, HS_EINPUT,
                           "element '%s': orient (the local x axis) must have a nonzero, finite "
                           "in-plane part (got [%g, %g])",
                           e->name, def->orient[0], def->orient[1]);
        *cx = def->orient[0] / n;
        *cy = def->orient[1] / n;
    } else if (L > 0.0) {
        *cx = dx / L;
        *cy = dy / L;
    }
    return 0;
}

/* 3-D local axes R: x from orient, else the chord, else global X; y' given, else OpenSees'
 * default (global Y; -X when x is along +Y, +X when along -Y); z = x x y', y = z x x. */
static int axes_3d(hs_fe *fe, const fe_element *e, const hs_fe_link_def *def, const double d[3],
                   double L, double R[9])
{
    double x[3] = {1.0, 0.0, 0.0}, yp[3] = {0.0, 1.0, 0.0}, z[3];
    if (def->has_orient) {
        const double n = sqrt(def->orient[0] * def->orient[0] + def->orient[1] * def->orient[1] +
                              def->orient[2] * def->orient[2]);
        if (!(n > 0.0) || !isfinite(n))
            return hs_fail(fe->ctx, HS_EINPUT,
                           "element '%s': orient's local x axis must be nonzero and finite (got "
                           "[%g, %g, %g])",
                           e->name, def->orient[0], def->orient[1], def->orient[2]);
        for (int k = 0; k < 3; k++) x[k] = def->orient[k] / n;
    } else if (L > 0.0) {
        for (int k = 0; k < 3; k++) x[k] = d[k] / L;
    }
    if (def->has_yp)
        memcpy(yp, def->yp, sizeof yp);
    else if (x[0] == 0.0 && x[2] == 0.0)
        yp[0] = x[1] > 0.0 ? -1.0 : 1.0, yp[1] = 0.0;
    z[0] = x[1] * yp[2] - x[2] * yp[1];
    z[1] = x[2] * yp[0] - x[0] * yp[2];
    z[2] = x[0] * yp[1] - x[1] * yp[0];
    const double nz = sqrt(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]),
                 ny = sqrt(yp[0] * yp[0] + yp[1] * yp[1] + yp[2] * yp[2]);
    if (!(nz > 1e-12 * ny) || !isfinite(nz) || fe3d_axes(x, z, R))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': the local y' vector [%g, %g, %g] is %s the local x axis "
                       "[%g, %g, %g]; give a y' off that axis (OpenSees -orient x1 x2 x3 yp1 yp2 "
                       "yp3; YAML orient: [x1, x2, x3, yp1, yp2, yp3] or yp: [...])",
                       e->name, yp[0], yp[1], yp[2], ny > 0.0 ? "parallel to" : "zero, not", x[0],
                       x[1], x[2]);
    return 0;
}

int hs_fe_add_link(hs_fe *fe, const char *name, int ni, int nj, const hs_fe_link_def *def)
{
    int rc = link_check(fe, name, ni, nj, def);
    if (rc) return rc;
    fe_element *e = fe_new_element(fe, name, ni, nj, &rc);
    if (!e) return rc;
    const fe_node *a = &fe->nodes[e->ni], *b = &fe->nodes[e->nj];
    const double d[3] = {b->x - a->x, b->y - a->y, b->z - a->z};
    const double L = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    double cx = 1.0, cy = 0.0; /* 1-D: local x is global X (OpenSees) */
    if (fe->ndm == 2)
        rc = axes_2d(fe, e, def, d[0], d[1], L, &cx, &cy);
    else if (fe->ndm == 3)
        rc = axes_3d(fe, e, def, d, L, e->R);
    if (rc) return rc;
    fe_link *l = hs_calloc(1, sizeof *l);
    if (!l) return HS_ENOMEM;
    l->ndir = def->ndir;
    l->nd = fe->ndm == 3 ? 12 : 6;
    for (int k = 0; k < def->ndir; k++) {
        l->dir[k] = def->dirs[k];
        l->side[k] = def->absolute ? def->dir_node[k] : 0;
        l->da[k] = def->disp_factor[k];
        l->dv[k] = def->vel_factor[k];
        l->fb[k] = def->force_factor[k];
        l->kfix[k] = def->has_k_dir[k];
        l->kval[k] = def->k_dir[k];
        rc = hs_material_create(fe->ctx, def->mat_type[k], def->mat_opts[k], &l->mat[k]);
        if (rc) {
            for (int j = 0; j < k; j++) hs_material_destroy(&l->mat[j]);
            hs_free(l);
            return hs_fail(fe->ctx, rc, "element '%s': direction %d: %s", e->name, k + 1,
                           hs_ctx_message(fe->ctx));
        }
    }
    if (def->absolute)
        link_b_absolute(l);
    else if (fe->ndm == 3)
        link_b3(l, e->R, L, def->shear_dist, def->shear_dist_z, fe->ndf == 6);
    else
        link_b(l, cx, cy, L, def->shear_dist, fe->ndf == 3);
    link_p_delta(l, fe, def, e->R, cx, cy, L);
    if (def->nk > 0) link_given_k(l, fe, def, e->R, cx, cy, L);
    for (int r = 0; r < HS_SF_RESPONSES; r++) {
        l->cf[r] = def->ctrl_filter[r];
        l->df[r] = def->daq_filter[r];
        if (l->cf[r].type != HS_SF_NONE || l->df[r].type != HS_SF_NONE) l->filtered = 1;
    }
    if (def->exp_beam && fe->ndm == 3) {
        l->beam3 = 1;
        fe_beam3_init(&l->b3, e->R, L, def->kb, l->dir, l->ndir, (int)def->beam_transf);
    } else if (def->exp_beam) {
        l->beam = 1;
        l->beam_transf = (int)def->beam_transf;
        memcpy(l->kbB, def->kb, sizeof l->kbB);
    }
    if (def->setup && (rc = hs_setup_create(fe->ctx, def->setup, &l->setup)) != 0) {
        e->link = l;
        fe_link_free(e);
        return hs_fail(fe->ctx, rc, "element '%s': its setup: %s", e->name,
                       hs_ctx_message(fe->ctx));
    }
    if (def->nk > 0 && !l->has_k) {
        e->link = l;
        fe_link_free(e);
        return HS_ENOMEM;
    }
    if ((l->pd[0] || l->pd[1]) && !(L > 0.0)) {
        e->link = l;
        fe_link_free(e);
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': P-Delta needs a link with length (the shear is N delta / "
                       "L); its nodes coincide",
                       e->name);
    }
    if (def->has_p_delta && !l->pd[0] && !l->pd[1])
        hs_log(fe->ctx, HS_LOG_WARN,
               "element '%s': P-Delta moment ratios without effect: the P-Delta forces need the "
               "axial direction and a shear direction among the link's directions, and a model "
               "with more than one dimension (as OpenSees)",
               e->name);
    if (def->mass > 0.0) { /* half on each node's translations */
        double m[FE_MAX_NDF] = {0};
        for (int k = 0; k < fe->ndf; k++) m[k] = fe->dof_code[k] < FE_CRX ? 0.5 * def->mass : 0.0;
        rc = hs_fe_add_mass(fe, ni, m);
        if (!rc) rc = hs_fe_add_mass(fe, nj, m);
        if (rc) {
            e->link = l;
            fe_link_free(e);
            return rc;
        }
    }
    e->kind = FE_LINK;
    e->link = l;
    if (l->pd[0] || l->pd[1] || (def->setup && def->setup->nl_geom) || l->beam ||
        (l->beam3 && def->beam_transf != HS_FE_LINEAR))
        e->transf = HS_FE_PDELTA; /* geometric: the model is nonlinear */
    e->L = L;
    e->c = cx;
    e->s = cy;
    if (L > fe->lref) fe->lref = L;
    return fe->nels++;
}
