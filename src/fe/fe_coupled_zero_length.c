/* The coupled zero-length element (OpenSees' CoupledZeroLength, SRC/element/zeroLength/
 * CoupledZeroLength.cpp, read for facts): one uniaxial material on the resultant of two node
 * DOFs d1, d2 of the relative displacement u_j - u_i. With dX, dY those two components:
 *   strain = sqrt(dX^2 + dY^2), negative when (dX < 0 or dY < 0) and dX + dY < 0,
 *   rate   = sqrt(vX^2 + vY^2) of the relative velocity (never negative),
 *   force  = s (dX, dY) / strain along the two DOFs (j positive, i negative); at strain 0 the
 *            direction of the last committed force (fX, fY), or none,
 *   tangent: the material's Et on each of the two DOFs, uncoupled ([Et -Et; -Et Et] per DOF, as
 *            OpenSees' getTangentStiff: its radial form Et n n^T + s / r (I - n n^T) is commented
 *            out there), the initial one with the initial tangent, the damping tangent the
 *            material's d s / d rate likewise.
 * For an elastic material the force is E (dX, dY), whose exact tangent is that E I. The element's
 * DOFs are the zero-length layout (each node's ndf DOFs). */
#include "fe_impl.h"

#include <math.h>
#include <string.h>

int hs_fe_add_coupled_zero_length(hs_fe *fe, const char *name, int ni, int nj, int dir1, int dir2,
                                  const char *mat_type, const hs_options *mat_opts)
{
    const char *nm = name ? name : "?";
    if (dir1 < 0 || dir1 >= fe->ndf || dir2 < 0 || dir2 >= fe->ndf || dir1 == dir2)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': the two directions must be different DOFs of the node (0 to "
                       "%d; got %d and %d)",
                       nm, fe->ndf - 1, dir1, dir2);
    if (ni == nj)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': a zero-length element joins two different nodes (both %d)",
                       nm, ni);
    int rc;
    fe_element *e = fe_new_element(fe, name, ni, nj, &rc);
    if (!e) return rc;
    rc = hs_material_create(fe->ctx, mat_type, mat_opts, &e->mat);
    if (rc) return hs_fail(fe->ctx, rc, "element '%s': %s", e->name, hs_ctx_message(fe->ctx));
    e->kind = FE_COUPLED_ZERO_LENGTH;
    e->dir = dir1;
    e->dir2 = dir2;
    return fe->nels++;
}

/* The nodal forces (the zero-length layout, 2 ndf values) of the material's present force along
 * the last components dX, dY (e->czl[0], [1]) or the committed direction (e->czl[2], [3]). */
static void forces(const hs_fe *fe, const fe_element *e, double *f)
{
    const double s = hs_material_stress(e->mat), strain = hs_material_strain(e->mat);
    const double dX = e->czl[0], dY = e->czl[1], fX = e->czl[2], fY = e->czl[3];
    double Fx = s, Fy = s;
    if (strain != 0.0) {
        Fx *= dX / strain;
        Fy *= dY / strain;
    } else {
        const double old = sqrt(fX * fX + fY * fY);
        if (old != 0.0) {
            Fx *= fX / old;
            Fy *= fY / old;
        }
    }
    memset(f, 0, 2 * (size_t)fe->ndf * sizeof(double));
    f[e->dir] = 0.0 - Fx;
    f[fe->ndf + e->dir] = Fx;
    f[e->dir2] = 0.0 - Fy;
    f[fe->ndf + e->dir2] = Fy;
}

/* [a -a; -a a] on each of the two DOFs, into the nde x nde column-major m. */
static void uncoupled(const hs_fe *fe, const fe_element *e, double a, double *m)
{
    const int nde = 2 * fe->ndf;
    memset(m, 0, (size_t)nde * (size_t)nde * sizeof(double));
    const int dirs[2] = {e->dir, e->dir2};
    for (int k = 0; k < 2; k++) {
        const size_t i = (size_t)dirs[k], j = (size_t)(fe->ndf + dirs[k]);
        m[i * (size_t)nde + i] = m[j * (size_t)nde + j] = a;
        m[j * (size_t)nde + i] = m[i * (size_t)nde + j] = 0.0 - a;
    }
}

int fe_czl_state(hs_fe *fe, fe_element *e, const fe_map *const maps[], const double *u,
                 const double *v, int initial, double *f, double *k, double *c)
{
    if (initial) {
        if (k) uncoupled(fe, e, hs_material_initial_tangent(e->mat), k);
        return 0;
    }
    const int i1 = e->dir, i2 = e->dir2, n = fe->ndf;
    double vX = 0.0, vY = 0.0;
    if (v) {
        vX = fe_map_value(maps[n + i1], v) - fe_map_value(maps[i1], v);
        vY = fe_map_value(maps[n + i2], v) - fe_map_value(maps[i2], v);
    }
    const double dX = fe_map_value(maps[n + i1], u) - fe_map_value(maps[i1], u);
    const double dY = fe_map_value(maps[n + i2], u) - fe_map_value(maps[i2], u);
    const double rate = sqrt(vX * vX + vY * vY);
    double strain = sqrt(dX * dX + dY * dY);
    if ((dX < 0.0 || dY < 0.0) && dX + dY < 0.0) strain = 0.0 - strain;
    e->czl[0] = dX;
    e->czl[1] = dY;
    const int rc = hs_material_set_trial(e->mat, strain, rate);
    if (rc) return hs_fail(fe->ctx, rc, "element '%s': %s", e->name, hs_ctx_message(fe->ctx));
    if (f) forces(fe, e, f);
    if (k) uncoupled(fe, e, hs_material_tangent(e->mat), k);
    if (c) uncoupled(fe, e, hs_material_rate_tangent(e->mat), c);
    return 0;
}

void fe_czl_commit(fe_element *e)
{
    const double strain = hs_material_strain(e->mat), s = hs_material_stress(e->mat);
    if (strain != 0.0 && s != 0.0) { /* CoupledZeroLength::commitState */
        e->czl[2] = s * e->czl[0] / strain;
        e->czl[3] = s * e->czl[1] / strain;
    }
}

int fe_czl_response(const hs_fe *fe, const fe_element *e, hs_fe_response r, double *out)
{
    switch (r) {
    case HS_FE_GLOBAL_FORCE:
        forces(fe, e, out);
        return 0;
    case HS_FE_BASIC_FORCE:
        out[0] = hs_material_stress(e->mat);
        return 0;
    case HS_FE_DEFORMATION:
        out[0] = hs_material_strain(e->mat);
        return 0;
    default:
        return HS_EINVAL;
    }
}
