/* Member loads on beams (include/hysim/fe.h, hs_fe_add_member_load; docs/fe_model.md "Member
 * loads") and the elastic beam's moment releases: the fixed-end forces, the simply supported
 * member's reactions and section forces, with OpenSees' meanings and signs (read for facts:
 * ElasticBeam2d/3d::addLoad and ElasticBeamCommon.h's release of a fixed-end moment,
 * DispBeamColumn2d/3d::addLoad, ForceBeamColumn2d/3d::computeReactions and computeSectionForces,
 * LinearCrdTransf2d/3d::getGlobalResistingForce).
 *
 * A uniform load w over L (local y, z, x) and a point load P at a = xL L (b = L - a) give, in the
 * basic system, the reactions p0 = -[wx L, wy L / 2, wy L / 2, wz L / 2, wz L / 2] and
 * -[Px, Py b / L, Py a / L, Pz b / L, Pz a / L], and the fixed-end forces q0: axial -wx L / 2 and
 * -Px a / L, moments about z (-wy L^2 / 12, +wy L^2 / 12) and (-Py a b^2 / L^2, +Py a^2 b / L^2),
 * about y the same with the opposite sign (the local z deflection turns the other way). A release
 * at one end carries half of its fixed-end moment over to the other end (carry-over 1/2) and
 * zeroes it; both ends: no moment. */
#include "fe_beamcolumn.h"
#include "fe_impl.h"

#include <string.h>

int hs_fe_add_member_load(hs_fe *fe, int e, int group, const hs_fe_member_load *ld)
{
    int rc = fe_defining(fe, "a member load");
    if (rc) return rc;
    if (e < 0 || e >= fe->nels) return hs_fail(fe->ctx, HS_EINVAL, "member load: no element %d", e);
    fe_element *el = &fe->els[e];
    const int beam = el->kind == FE_BEAM || (el->kind == FE_BEAM_COLUMN && el->bc->force_based < 2);
    if (!beam)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': member loads act on elastic beams and beam-columns with "
                       "sections (forceBeamColumn, nonlinearBeamColumn, dispBeamColumn), not on "
                       "a %s",
                       el->name, hs_fe_element_type(fe, e));
    if (el->transf == HS_FE_COROTATIONAL && fe->ndm == 3)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': member loads on a 3-D Corotational transformation are not "
                       "supported by hysim (use Linear or PDelta; in 2-D all three)",
                       el->name);
    if (ld->point && !(ld->xL >= 0.0 && ld->xL <= 1.0))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': point load at xL = %g: give its place from node i as a "
                       "fraction of the length, 0 to 1",
                       el->name, ld->xL);
    const int partial = !ld->point && (ld->a != 0.0 || ld->b != 0.0);
    if (partial && !(ld->a >= 0.0 && ld->a < ld->b && ld->b <= 1.0))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': partial uniform load from %g to %g of the length: give "
                       "0 <= aOverL < bOverL <= 1",
                       el->name, ld->a, ld->b);
    if (ld->vary && (fe->ndm == 3 || !partial))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': a load varying along the member is a 2-D partial load "
                       "(give its part a .. b)",
                       el->name);
    if (partial && el->kind == FE_BEAM_COLUMN && !el->bc->force_based)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': a partial uniform load on a displacement-based beam-column "
                       "(OpenSees' DispBeamColumn has none: it ignores the load); give the "
                       "loaded part its own element, or use a forceBeamColumn",
                       el->name);
    fe_mload *ml = hs_realloc(el->ml, (size_t)(el->nml + 1) * sizeof *ml);
    int *at = hs_realloc(fe->ml_el, (size_t)(fe->nml + 1) * sizeof *at);
    if (at) fe->ml_el = at;
    int *slot = at ? hs_realloc(fe->ml_at, (size_t)(fe->nml + 1) * sizeof *slot) : NULL;
    if (ml) el->ml = ml;
    if (!ml || !slot) return hs_fail(fe->ctx, HS_ENOMEM, "member load: out of memory");
    fe->ml_at = slot;
    el->ml[el->nml] = (fe_mload){*ld, group, 1.0};
    if (fe->ndm != 3) el->ml[el->nml].ld.z = 0.0;
    fe->ml_el[fe->nml] = e;
    fe->ml_at[fe->nml] = el->nml++;
    return fe->nml++;
}

int hs_fe_member_load_count(const hs_fe *fe)
{
    return fe->nml;
}

void hs_fe_member_load_scale(hs_fe *fe, int group, double factor)
{
    for (int k = 0; k < fe->nml; k++) {
        fe_mload *ml = &fe->els[fe->ml_el[k]].ml[fe->ml_at[k]];
        if (ml->group == group) ml->factor = factor;
    }
}

int hs_fe_set_beam_release(hs_fe *fe, int e, int release_z, int release_y)
{
    int rc = fe_defining(fe, "a moment release");
    if (rc) return rc;
    if (e < 0 || e >= fe->nels) return hs_fail(fe->ctx, HS_EINVAL, "release: no element %d", e);
    fe_element *el = &fe->els[e];
    if (el->kind != FE_BEAM)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': moment releases belong to elastic beams, not a %s", el->name,
                       hs_fe_element_type(fe, e));
    if (release_z < 0 || release_z > 3 || release_y < 0 || release_y > 3)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': release %d %d: each is 0 (none), 1 (node i), 2 (node j) or "
                       "3 (both)",
                       el->name, release_z, release_y);
    el->release_z = release_z;
    el->release_y = fe->ndm == 3 ? release_y : 0;
    return 0;
}

void fe_release_kb(int r, double k[4])
{
    static const double KB[4][4] = {{4, 2, 2, 4}, {0, 0, 0, 3}, {3, 0, 0, 0}, {0, 0, 0, 0}};
    memcpy(k, KB[r >= 0 && r <= 3 ? r : 0], 4 * sizeof *k);
}

/* The fixed-end moments (mi, mj) released (ElasticBeamCommon.h with no shear deformation:
 * carry-over 1/2). */
static void release_moments(int r, double *mi, double *mj)
{
    if (r == 1) {
        *mj -= 0.5 * *mi;
        *mi = 0.0;
    } else if (r == 2) {
        *mi -= 0.5 * *mj;
        *mj = 0.0;
    } else if (r == 3) {
        *mi = *mj = 0.0;
    }
}

/* The loaded part of a uniform load as fractions of the length (the whole member: 0, 1). */
static void span(const hs_fe_member_load *ld, double *a, double *b)
{
    const int partial = ld->a != 0.0 || ld->b != 0.0;
    *a = partial ? ld->a : 0.0;
    *b = partial ? ld->b : 1.0;
}

/* A load varying linearly from w1 at aL to w2 at bL (lengths from node i; constant: w1 = w2), as
 * ElasticBeam2d::addLoad's partial load: its resultant, the simply supported member's reactions
 * v1 (at i) and v2 (at j), and the fixed-end moments m1, m2 (the whole member's uniform load gives
 * w L^2 / 12 and -w L^2 / 12). */
typedef struct trapezoid {
    double total, v1, v2, m1, m2;
} trapezoid;

static trapezoid trapezoid_of(double w1, double w2, double aL, double bL, double L)
{
    const double ba = bL - aL, b2 = bL * bL - aL * aL, b3 = bL * bL * bL - aL * aL * aL,
                 b4 = b2 * (bL * bL + aL * aL),
                 b5 = bL * bL * bL * bL * bL - aL * aL * aL * aL * aL, L2 = L * L,
                 z1 = w1 + (w1 * aL) / ba - (w2 * aL) / ba, dw = w2 - w1;
    trapezoid t;
    t.total = 0.5 * (w1 + w2) * ba;
    t.v2 = (w1 * ba * (aL + 0.5 * ba) + 0.5 * dw * ba * (aL + 2.0 / 3.0 * ba)) / L;
    t.v1 = t.total - t.v2;
    t.m1 = 0.5 * z1 * b2 + dw * b3 / (3.0 * ba) - z1 * b3 * 2.0 / (3.0 * L) -
           dw * b4 / (2.0 * L * ba) + z1 * b4 / (4.0 * L2) + dw * b5 / (5.0 * L2 * ba);
    t.m2 = -z1 * b3 / (3.0 * L) - dw * b4 / (4.0 * L * ba) + z1 * b4 / (4.0 * L2) +
           dw * b5 / (5.0 * L2 * ba);
    return t;
}

/* The b end's intensities of a uniform load: a 2-D trapezoid's, else the a end's. */
static double end_y(const hs_fe_member_load *ld)
{
    return ld->vary ? ld->yb : ld->y;
}
static double end_x(const hs_fe_member_load *ld)
{
    return ld->vary ? ld->xb : ld->x;
}

void fe_ml_reactions(const fe_element *e, int ndm, double *p0)
{
    for (int k = 0; k < e->nml; k++) {
        const hs_fe_member_load *ld = &e->ml[k].ld;
        const double f = e->ml[k].factor, L = e->L;
        if (ld->point) {
            const double b = 1.0 - ld->xL, a = ld->xL;
            p0[0] -= f * ld->x;
            p0[1] -= f * ld->y * b;
            p0[2] -= f * ld->y * a;
            if (ndm == 3) {
                p0[3] -= f * ld->z * b;
                p0[4] -= f * ld->z * a;
            }
        } else { /* over a L .. b L (the whole member: 0 .. 1) */
            double a, b;
            span(ld, &a, &b);
            const trapezoid ty = trapezoid_of(f * ld->y, f * end_y(ld), a * L, b * L, L),
                            tx = trapezoid_of(f * ld->x, f * end_x(ld), a * L, b * L, L);
            p0[0] -= tx.total;
            p0[1] -= ty.v1;
            p0[2] -= ty.v2;
            if (ndm == 3) {
                const trapezoid tz = trapezoid_of(f * ld->z, f * ld->z, a * L, b * L, L);
                p0[3] -= tz.v1;
                p0[4] -= tz.v2;
            }
        }
    }
}

void fe_ml_fixed_end(const fe_element *e, int ndm, double *q0, double *p0)
{
    fe_ml_reactions(e, ndm, p0);
    const double L = e->L;
    for (int k = 0; k < e->nml; k++) {
        const hs_fe_member_load *ld = &e->ml[k].ld;
        const double f = e->ml[k].factor;
        double mzi, mzj, myi, myj;
        if (ld->point) {
            const double a = ld->xL * L, b = L - a, iL2 = 1.0 / (L * L);
            q0[0] -= f * ld->x * ld->xL;
            mzi = -a * b * b * f * ld->y * iL2;
            mzj = a * a * b * f * ld->y * iL2;
            myi = a * b * b * f * ld->z * iL2;
            myj = -a * a * b * f * ld->z * iL2;
        } else if (ld->a != 0.0 || ld->b != 0.0) { /* partial: OpenSees' formulas */
            const double aL = ld->a * L, bL = ld->b * L;
            const trapezoid ty = trapezoid_of(f * ld->y, f * end_y(ld), aL, bL, L),
                            tx = trapezoid_of(f * ld->x, f * end_x(ld), aL, bL, L),
                            tz = trapezoid_of(f * ld->z, f * ld->z, aL, bL, L);
            q0[0] -= tx.v2; /* the axial load's part carried at j */
            mzi = -ty.m1;
            mzj = -ty.m2;
            myi = tz.m1;
            myj = tz.m2;
        } else {
            const double Mz = f * ld->y * L * L / 12.0, My = f * ld->z * L * L / 12.0;
            q0[0] -= 0.5 * f * ld->x * L;
            mzi = -Mz;
            mzj = Mz;
            myi = My;
            myj = -My;
        }
        release_moments(e->release_z, &mzi, &mzj);
        q0[1] += mzi;
        q0[2] += mzj;
        if (ndm == 3) {
            release_moments(e->release_y, &myi, &myj);
            q0[3] += myi;
            q0[4] += myj;
        }
    }
}

/* A partial (or 2-D varying) uniform load's section force of resultant `code` at x
 * (ForceBeamColumn2d/3d's computeSectionForces): the simply supported member's, with the
 * reactions of its resultants. */
static double partial_section_force(const hs_fe_member_load *ld, double f, double L, double x,
                                    int code)
{
    const double a = ld->a * L, b = ld->b * L;
    const double wy = f * ld->y, wyb = f * end_y(ld), wz = f * ld->z, wx = f * ld->x,
                 wxb = f * end_x(ld);
    const trapezoid ty = trapezoid_of(wy, wyb, a, b, L), tz = trapezoid_of(wz, wz, a, b, L),
                    tx = trapezoid_of(wx, wxb, a, b, L);
    if (x <= a)
        return code == FE_SEC_P    ? tx.total
               : code == FE_SEC_MZ ? -ty.v1 * x
               : code == FE_SEC_VY ? -ty.v1
               : code == FE_SEC_MY ? tz.v1 * x
               : code == FE_SEC_VZ ? tz.v1
                                   : 0.0;
    if (x >= b)
        return code == FE_SEC_MZ   ? ty.v2 * (x - L)
               : code == FE_SEC_VY ? ty.v2
               : code == FE_SEC_MY ? -tz.v2 * (x - L)
               : code == FE_SEC_VZ ? -tz.v2
                                   : 0.0;
    const double d = x - a, wyx = wy + (wyb - wy) / (b - a) * d; /* the intensity at x */
    return code == FE_SEC_P    ? tx.total - wx * d - 0.5 * (wxb - wx) / (b - a) * d * d
           : code == FE_SEC_MZ ? -ty.v1 * x + 0.5 * wy * d * d + 0.5 * (wyx - wy) * d * d / 3.0
           : code == FE_SEC_VY ? -ty.v1 + wy * d + 0.5 * (wyx - wy) * d
           : code == FE_SEC_MY ? tz.v1 * x - 0.5 * wz * d * d
           : code == FE_SEC_VZ ? tz.v1 - wz * d
                               : 0.0;
}

void fe_ml_section_forces(const fe_element *e, double x, const int *code, int order, double *sp)
{
    const double L = e->L;
    for (int k = 0; k < e->nml; k++) {
        const hs_fe_member_load *ld = &e->ml[k].ld;
        const double f = e->ml[k].factor;
        const double wy = f * ld->y, wz = f * ld->z, wx = f * ld->x;
        for (int i = 0; i < order; i++) {
            double s = 0.0;
            if (!ld->point && (ld->a != 0.0 || ld->b != 0.0)) {
                s = partial_section_force(ld, f, L, x, code[i]);
            } else if (!ld->point) {
                s = code[i] == FE_SEC_P    ? wx * (L - x)
                    : code[i] == FE_SEC_MZ ? wy * 0.5 * x * (x - L)
                    : code[i] == FE_SEC_VY ? wy * (x - 0.5 * L)
                    : code[i] == FE_SEC_MY ? wz * 0.5 * x * (L - x)
                    : code[i] == FE_SEC_VZ ? wz * (0.5 * L - x)
                                           : 0.0;
            } else if (x <= ld->xL * L) { /* between node i and the load */
                const double vy = wy * (1.0 - ld->xL), vz = wz * (1.0 - ld->xL);
                s = code[i] == FE_SEC_P    ? wx
                    : code[i] == FE_SEC_MZ ? -x * vy
                    : code[i] == FE_SEC_VY ? -vy
                    : code[i] == FE_SEC_MY ? x * vz
                    : code[i] == FE_SEC_VZ ? vz
                                           : 0.0;
            } else {
                const double vy = wy * ld->xL, vz = wz * ld->xL;
                s = code[i] == FE_SEC_MZ   ? -(L - x) * vy
                    : code[i] == FE_SEC_VY ? vy
                    : code[i] == FE_SEC_MY ? (L - x) * vz
                    : code[i] == FE_SEC_VZ ? -vz
                                           : 0.0;
            }
            sp[i] += s;
        }
    }
}

void fe_ml_local_2d(double L, const double q[3], const double p0[3], double fl[6])
{
    const double V = (q[1] + q[2]) / L;
    fl[0] += p0[0] - q[0];
    fl[1] += V + p0[1];
    fl[2] += q[1];
    fl[3] += q[0];
    fl[4] += p0[2] - V;
    fl[5] += q[2];
}

void fe_ml_local_3d(double L, const double q[6], const double p0[5], double fl[12])
{
    const double Vy = (q[1] + q[2]) / L, Vz = (q[3] + q[4]) / L;
    fl[0] += p0[0] - q[0];
    fl[1] += Vy + p0[1];
    fl[2] += p0[3] - Vz;
    fl[3] -= q[5];
    fl[4] += q[3];
    fl[5] += q[1];
    fl[6] += q[0];
    fl[7] += p0[2] - Vy;
    fl[8] += Vz + p0[4];
    fl[9] += q[5];
    fl[10] += q[4];
    fl[11] += q[2];
}
